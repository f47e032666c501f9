//! The tool names nearest to a query that matched nothing, by how the words look rather than what
//! they mean: the character trigrams of each query word against those of the name's words. A
//! misspelled word (`wether`), a different inflection (`scheduling`) or a fragment of a name
//! still lands near the tools it was after, where BM25 found no shared term at all.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::analysis::{distinct_words, name_words, Analyzer, Word};
use crate::limits::MAX_NEAREST_WORDS;
use crate::work::{self, Step};

type Trigram = [char; 3];

/// At most `limit` of `names`, leaving out `exclude`, by closeness to `query`, best first, ties by
/// name in code-point order. A name shares at least one trigram with the query, or is left out.
/// The query's first [`MAX_NEAREST_WORDS`] words are compared with each name's words as
/// `analysis::name_words` reads them.
pub fn nearest<'a>(
    query: &str,
    names: impl IntoIterator<Item = &'a str>,
    exclude: &[&str],
    limit: usize,
) -> Vec<&'a str> {
    let mut analyzer = Analyzer::new();
    let wanted: Vec<Vec<Trigram>> =
        distinct_words(&mut analyzer, query, MAX_NEAREST_WORDS).iter().map(trigrams).collect();
    if wanted.is_empty() || limit == 0 {
        return Vec::new();
    }
    // Which query words hold each trigram: a name word's trigrams are looked up here, so a word
    // costs its own length, not its length times the query's.
    let mut holders: FxHashMap<Trigram, Vec<usize>> = FxHashMap::default();
    for (at, grams) in wanted.iter().enumerate() {
        for &gram in grams {
            holders.entry(gram).or_default().push(at);
        }
    }
    let excluded: FxHashSet<&str> = exclude.iter().copied().collect();
    let mut shared = vec![0usize; wanted.len()];
    let mut best = vec![0.0f64; wanted.len()];
    let mut scored: Vec<(f64, &str)> = Vec::new();
    for name in names {
        if excluded.contains(name) {
            continue;
        }
        best.fill(0.0);
        for word in name_words(&mut analyzer, name) {
            let own = trigrams(&word);
            work::add(Step::Trigram, own.len());
            shared.fill(0);
            for gram in &own {
                for &at in holders.get(gram).map_or(&[][..], Vec::as_slice) {
                    shared[at] += 1;
                }
            }
            // Each query word counts with its best match among the name's words: Dice's
            // coefficient, twice the shared trigrams over both counts. Only `+` and `/` of small
            // integers (exact IEEE operations everywhere): the order is the same on every machine.
            for (at, &common) in shared.iter().enumerate().filter(|(_, &common)| common > 0) {
                let dice = (2 * common) as f64 / (wanted[at].len() + own.len()) as f64;
                best[at] = best[at].max(dice);
            }
        }
        let closeness: f64 = best.iter().sum();
        if closeness > 0.0 {
            scored.push((closeness, name));
        }
    }
    let order = |a: &(f64, &str), b: &(f64, &str)| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1));
    if scored.len() > limit {
        scored.select_nth_unstable_by(limit - 1, order);
        scored.truncate(limit);
    }
    scored.sort_by(order);
    scored.into_iter().map(|(_, name)| name).collect()
}

/// The sorted, distinct trigrams of a word padded with a space at each end, so a word's first and
/// last letters count, and a two-letter word still has two.
fn trigrams(word: &Word) -> Vec<Trigram> {
    let padded: Vec<char> = std::iter::once(' ').chain(word.text.chars()).chain([' ']).collect();
    let mut grams: Vec<Trigram> = padded.windows(3).map(|w| [w[0], w[1], w[2]]).collect();
    grams.sort_unstable();
    grams.dedup();
    grams
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 5] =
        ["get_weather_forecast", "convert_currency", "create_issue", "search_issues", "mcp__mail__send_email"];

    #[test]
    fn a_misspelled_word_finds_the_name_it_meant() {
        assert_eq!(nearest("wether forcast", NAMES, &[], 2)[0], "get_weather_forecast");
        assert_eq!(
            nearest("isues", NAMES, &[], 2),
            ["search_issues", "create_issue"],
            "closer to issues than to issue"
        );
        assert_eq!(nearest("emails", NAMES, &[], 1), ["mcp__mail__send_email"]);
    }

    #[test]
    fn names_sharing_nothing_are_left_out_and_exclusions_never_come_back() {
        assert!(nearest("zzzz", NAMES, &[], 5).is_empty());
        assert!(nearest("the of and", NAMES, &[], 5).is_empty(), "stop words carry no letters to compare");
        assert_eq!(nearest("issues", NAMES, &["search_issues"], 5), ["create_issue"]);
        assert!(nearest("issue", NAMES, &[], 0).is_empty());
    }

    #[test]
    fn equal_closeness_is_ordered_by_name() {
        assert_eq!(nearest("tool", ["b_tool", "a_tool"], &[], 2), ["a_tool", "b_tool"]);
    }
}
