//! Phrases only one tool holds: the tools a query quotes.
//!
//! A query that repeats a run of a tool's text word for word ("抖音热榜" for a tool described as
//! "获取抖音热榜") names that tool as surely as its name would, when no other tool's text holds
//! the run. The semantic stage cannot see that: it compares meanings, and a neighbour the encoder
//! places nearer can outrank the tool the query quotes. So the blend keeps such a tool first (see
//! `hybrid::Blend::protect`); this module finds them.
//!
//! A phrase is a run of the query as the analyzer reads it: `Params::phrase_chars` CJK
//! characters in a row (four: three overlapping two-character pieces), or `Params::phrase_words`
//! words in a row (four, stop words left out and each stemmed; identifiers' wholes skipped). A
//! tool holds a phrase when the same terms follow one another in its text as the index read it
//! (name, description, schema text), within its first [`PHRASE_READ_BYTES`] bytes. Only the tools
//! that hold all of a phrase's terms, which the postings tell, are read, and a query reads at
//! most [`MAX_READ_TOOLS`] tools' text. The query quotes a tool when that tool alone holds
//! phrases that cover `Params::phrase_share` of the query's terms: a query that is mostly a quote,
//! not a sentence that happens to hold four characters of some description.

use rustc_hash::FxHashMap;

use crate::analysis::{term_of, Analyzer, Piece};
use crate::index::{DocId, Index, TermId};
use crate::work::{self, Step};

/// How much of a tool's projected text a phrase is looked for in: its name and description come
/// first, and only the longest descriptions of real catalogs pass 16 KiB. It bounds what one
/// query reads of a catalog built to make this stage slow.
pub(crate) const PHRASE_READ_BYTES: usize = 16 * 1024;

/// Most tools whose text one query reads: a phrase that needs more read quotes nothing. With
/// [`PHRASE_READ_BYTES`], it bounds what a query reads at 512 KiB, where a real query reads a few
/// short descriptions.
pub(crate) const MAX_READ_TOOLS: usize = 32;

/// The tools that alone hold some phrase of `text` (see the module's documentation), in document
/// order.
pub(crate) fn quoted(index: &Index, text: &str) -> Vec<DocId> {
    let params = index.params();
    // A phrase's length in terms: a run of n characters is n - 1 overlapping pieces.
    let lengths = [(Kind::Gram, params.phrase_chars.saturating_sub(1)), (Kind::Word, params.phrase_words)];
    let lengths: Vec<(Kind, usize)> = lengths.into_iter().filter(|&(_, length)| length > 0).collect();
    if lengths.is_empty() {
        return Vec::new();
    }
    let mut analyzer = Analyzer::new();
    let query = sequence(index, &mut analyzer, text, usize::MAX);
    let mut read: FxHashMap<DocId, Vec<Option<TermId>>> = FxHashMap::default();
    // Per quoted tool, which of the query's terms its phrases cover.
    let mut covered: FxHashMap<DocId, Vec<bool>> = FxHashMap::default();
    for &(kind, length) in &lengths {
        for (at, window) in query.windows(length).enumerate() {
            let terms: Option<Vec<TermId>> = window.iter().map(|&(term, of)| term.filter(|_| of == kind)).collect();
            let Some(terms) = terms else { continue };
            let Some(holders) = holding_all(index, &terms) else { continue };
            if read.len() + holders.iter().filter(|doc| !read.contains_key(doc)).count() > MAX_READ_TOOLS {
                continue;
            }
            let mut holding = holders.into_iter().filter(|&doc| {
                let text = index.doc(doc).text();
                let held = read.entry(doc).or_insert_with(|| {
                    sequence(index, &mut analyzer, text, PHRASE_READ_BYTES).into_iter().map(|(term, _)| term).collect()
                });
                held.windows(length).any(|run| run.iter().zip(&terms).all(|(term, wanted)| *term == Some(*wanted)))
            });
            if let (Some(doc), None) = (holding.next(), holding.next()) {
                covered.entry(doc).or_insert_with(|| vec![false; query.len()])[at..at + length].fill(true);
            }
        }
    }
    let least = params.phrase_share * query.len() as f64;
    let mut quoted: Vec<DocId> = covered
        .into_iter()
        .filter(|(_, terms)| terms.iter().filter(|&&held| held).count() as f64 >= least)
        .map(|(doc, _)| doc)
        .collect();
    quoted.sort_unstable();
    quoted
}

/// What a term of a text came from: a CJK run's piece, or a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Gram,
    Word,
}

/// The tools that hold every one of `terms` (in any order), or `None` when more than
/// [`MAX_READ_TOOLS`] do.
fn holding_all(index: &Index, terms: &[TermId]) -> Option<Vec<DocId>> {
    let postings = index.postings();
    let rarest = *terms.iter().min_by_key(|&&term| postings.count(term))?;
    work::add(Step::Posting, postings.count(rarest));
    let mut holders = Vec::new();
    for (doc, _) in postings.scored(rarest) {
        if terms.iter().all(|&term| term == rarest || index.holds(term, doc)) {
            if holders.len() == MAX_READ_TOOLS {
                return None;
            }
            holders.push(doc);
        }
    }
    Some(holders)
}

/// The terms of the first `bytes` of `text` in order, each as the index's term id (`None`: a term
/// the index does not have, which no tool holds) with what it came from.
fn sequence(index: &Index, analyzer: &mut Analyzer, text: &str, bytes: usize) -> Vec<(Option<TermId>, Kind)> {
    let read = &text[..text.floor_char_boundary(bytes.min(text.len()))];
    work::add(Step::PhraseByte, read.len());
    let mut terms = Vec::new();
    analyzer.pieces(read, |piece| {
        let kind = match piece {
            Piece::Gram(_) => Kind::Gram,
            Piece::Word(_) => Kind::Word,
            Piece::Whole(_) => return,
        };
        if let Some(term) = term_of(piece) {
            terms.push((index.term(&term), kind));
        }
    });
    terms
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Params;

    const CATALOG: &str = r#"[
        {"name": "douyin_hot", "description": "获取抖音热榜"},
        {"name": "weibo_hot", "description": "获取微博热榜"},
        {"name": "douyin_video", "description": "下载抖音视频"},
        {"name": "get_current_weather", "description": "Current weather conditions for a city."},
        {"name": "get_weather_forecast", "description": "Weather forecast for a city, current conditions or later."}
    ]"#;

    fn quoted_names(catalog: &str, query: &str) -> Vec<String> {
        let index = Index::from_catalog(catalog).unwrap();
        quoted(&index, query).into_iter().map(|doc| index.doc(doc).name().to_string()).collect()
    }

    #[test]
    fn four_characters_one_tool_holds_quote_it() {
        assert_eq!(quoted_names(CATALOG, "抖音热榜"), ["douyin_hot"]);
        assert_eq!(quoted_names(CATALOG, "看看抖音热榜"), ["douyin_hot"]);
        // Three characters are two pieces: too short to quote anything.
        assert!(quoted_names(CATALOG, "抖音热").is_empty());
        // "获取热榜" is four characters of no tool in a row.
        assert!(quoted_names(CATALOG, "获取热榜").is_empty());
        let twice = CATALOG.replace("[", r#"[{"name": "douyin_hot_v2", "description": "获取抖音热榜（新版）"},"#);
        assert!(quoted_names(&twice, "抖音热榜").is_empty(), "held by two tools");
    }

    #[test]
    fn words_in_a_row_quote_too_but_not_out_of_order_or_shared() {
        assert_eq!(quoted_names(CATALOG, "the current weather conditions for a city"), ["get_current_weather"]);
        // Both tools hold these four words, only one of them in this order.
        assert_eq!(quoted_names(CATALOG, "weather forecast for a city, current"), ["get_weather_forecast"]);
        assert!(quoted_names(CATALOG, "city current weather conditions").is_empty());
        assert!(quoted_names(CATALOG, "the current weather conditions").is_empty(), "three words only");
    }

    #[test]
    fn a_phrase_past_the_bytes_read_or_held_by_too_many_tools_quotes_nothing() {
        let far = format!(
            r#"[{{"name": "far", "description": "{} 抖音热榜"}}, {{"name": "near"}}]"#,
            "x ".repeat(PHRASE_READ_BYTES)
        );
        assert!(quoted_names(&far, "抖音热榜").is_empty());
        // Tools that hold the phrase's pieces out of order are read to tell; past the bound the
        // phrase is not looked for.
        let others = |n: usize| -> Vec<String> {
            (0..n).map(|i| format!(r#"{{"name": "t{i}", "description": "热榜 音热 抖音 {i}"}}"#)).collect()
        };
        let quoted_among = |n: usize| {
            let mut tools = others(n);
            tools.push(r#"{"name": "quoted", "description": "抖音热榜"}"#.to_string());
            quoted_names(&format!("[{}]", tools.join(",")), "抖音热榜")
        };
        assert_eq!(quoted_among(MAX_READ_TOOLS - 1), ["quoted"]);
        assert!(quoted_among(MAX_READ_TOOLS).is_empty());
    }

    #[test]
    fn a_query_reads_a_bounded_number_of_tools() {
        // Every four characters of the query are held in a row by two tools, so none is quoted,
        // and each window would read two more tools.
        let chars: Vec<char> = "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥".chars().collect();
        let tools: Vec<String> = chars
            .windows(4)
            .enumerate()
            .flat_map(|(i, w)| {
                let phrase: String = w.iter().collect();
                [
                    format!(r#"{{"name": "a{i}", "description": "{phrase}"}}"#),
                    format!(r#"{{"name": "b{i}", "description": "{phrase}"}}"#),
                ]
            })
            .collect();
        let index = Index::from_catalog(&format!("[{}]", tools.join(","))).unwrap();
        let query: String = chars.iter().collect();
        let (found, counts) = crate::work::measure(|| quoted(&index, &query));
        assert!(found.is_empty());
        // Each tool's text is its name, a space and twelve bytes of description.
        let bytes = counts.of(Step::PhraseByte) - query.len();
        assert!(tools.len() > MAX_READ_TOOLS && bytes > 0 && bytes <= MAX_READ_TOOLS * "a99 甲乙丙丁".len(), "{bytes}");
    }

    #[test]
    fn a_query_that_is_mostly_something_else_quotes_nothing() {
        // The phrase covers three of the query's terms: most of a short request, too little of
        // a long one.
        assert_eq!(quoted_names(CATALOG, "抖音热榜 trending"), ["douyin_hot"]);
        assert!(quoted_names(CATALOG, "帮我在网上随便看看有没有抖音热榜").is_empty());
    }

    #[test]
    fn no_phrase_when_turned_off() {
        let index = Index::from_catalog_with(CATALOG, Params { phrase_chars: 0, phrase_words: 0, ..Params::default() })
            .unwrap();
        assert!(quoted(&index, "抖音热榜").is_empty());
    }
}
