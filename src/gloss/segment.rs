//! Splitting a run of CJK text into the glossary's words the way jieba does without its HMM
//! (`jieba.cut(text, HMM=False)`, jieba 0.42.1): every dictionary word that starts at each
//! character is an edge of a graph over the run, and the split is the path whose words are most
//! probable together, the one with the least total cost (a word's cost is its negative
//! log-probability). A character no word covers is a word of its own at the unknown cost. Where
//! two paths cost the same, the one whose first word is longer wins, as jieba's
//! `max((probability, end))` has it. The costs are integers, so the split is the same on every
//! machine; `src/gloss/testdata/segment.json` holds jieba's own splits of real sentences over
//! the same dictionary, which the tests below match.
//!
//! The work is bounded: from each character at most [`super::MAX_WORD_CHARS`] lookups, each a
//! binary search, and the tables are one entry per character of the run, which its caller
//! bounds (see `query`).

use super::{Glossary, Lookup, WordId};

/// Calls `word` with each word of `run` in order, and its id when the glossary has it (`None`
/// for a character no word covers).
pub(crate) fn segment<'t>(glossary: &Glossary, run: &'t str, mut word: impl FnMut(&'t str, Option<WordId>)) {
    let offsets: Vec<usize> = run.char_indices().map(|(at, _)| at).chain([run.len()]).collect();
    let chars = offsets.len() - 1;
    // Per character: the least cost of the rest of the run from it, where its first word ends,
    // and that word's id.
    let mut best: Vec<(u64, usize, Option<WordId>)> = vec![(0, chars, None); chars + 1];
    for start in (0..chars).rev() {
        let mut chosen: Option<(u64, usize, Option<WordId>)> = None;
        for end in start + 1..=chars.min(start + glossary.longest()) {
            match glossary.lookup(&run[offsets[start]..offsets[end]]) {
                Lookup::Word(id, longer) => {
                    let cost = u64::from(glossary.cost(id)) + best[end].0;
                    // `<=`: a longer word at the same cost wins.
                    if chosen.is_none_or(|(least, ..)| cost <= least) {
                        chosen = Some((cost, end, Some(id)));
                    }
                    if !longer {
                        break;
                    }
                }
                Lookup::Prefix => {}
                Lookup::Nothing => break,
            }
        }
        best[start] = chosen.unwrap_or((u64::from(glossary.unknown_cost()) + best[start + 1].0, start + 1, None));
    }
    let mut start = 0;
    while start < chars {
        let (_, end, id) = best[start];
        word(&run[offsets[start]..offsets[end]], id);
        start = end;
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::LazyLock;

    use super::*;
    use crate::analysis::is_cjk;
    use crate::gloss::encode;
    use crate::Json;

    pub(crate) static SHIPPED: LazyLock<Glossary> = LazyLock::new(|| {
        Glossary::from_file(&Path::new(env!("CARGO_MANIFEST_DIR")).join("model/glossary.bin")).unwrap()
    });

    fn words(glossary: &Glossary, run: &str) -> Vec<String> {
        let mut out = Vec::new();
        segment(glossary, run, |word, _| out.push(word.to_string()));
        out
    }

    #[test]
    fn the_most_probable_path_wins() {
        // 研究生命 splits as 研究 生命 (cost 3 + 3), not 研究生 命 (2 + 5): the path costs less.
        let glossary = Glossary::from_bytes(encode(
            10,
            &[
                ("研究", 3, false, "research"),
                ("研究生", 2, false, "graduate student"),
                ("生命", 3, false, "life"),
                ("命", 5, false, "fate"),
                ("研", 6, false, "grind"),
                ("究", 6, false, "study"),
                ("生", 4, false, "to be born"),
            ],
        ))
        .unwrap();
        assert_eq!(words(&glossary, "研究生命"), ["研究", "生命"]);
        assert_eq!(words(&glossary, "研究生"), ["研究生"]);
        // A character no word covers stands alone.
        assert_eq!(words(&glossary, "天研究"), ["天", "研究"]);
        assert!(words(&glossary, "").is_empty());
    }

    #[test]
    fn at_equal_cost_the_longer_first_word_wins() {
        let glossary =
            Glossary::from_bytes(encode(10, &[("甲乙", 4, false, "ab"), ("甲", 2, false, "a"), ("乙", 2, false, "b")]))
                .unwrap();
        assert_eq!(words(&glossary, "甲乙"), ["甲乙"]);
    }

    #[test]
    fn jieba_splits_real_sentences_the_same_way() {
        // src/gloss/testdata/segment.json: model/build/segment_fixture.py ran jieba 0.42.1 over
        // the shipped glossary's words and costs.
        let text = include_str!("testdata/segment.json");
        let json = Json::parse(text).unwrap();
        let runs = json.items(json.root()).unwrap();
        assert!(runs.len() > 500, "{}", runs.len());
        let mut differ = Vec::new();
        for &case in runs {
            let run = json.get_str(case, "run").unwrap();
            assert!(run.chars().all(is_cjk), "{run:?}");
            let expected: Vec<&str> = json
                .items(json.get(case, "words").unwrap())
                .unwrap()
                .iter()
                .map(|&w| json.str_of(w).unwrap())
                .collect();
            let found = words(&SHIPPED, run);
            if found != expected {
                differ.push(format!("{run}: jieba {expected:?}, here {found:?}"));
            }
        }
        assert!(differ.is_empty(), "{} of {} runs split otherwise:\n{}", differ.len(), runs.len(), differ.join("\n"));
    }

    #[test]
    fn a_long_run_takes_bounded_work() {
        // 4,096 characters, each step a lookup of at most 16 characters: milliseconds.
        let run: String = "打开一个拉取请求并且合并到主分支".chars().cycle().take(4096).collect();
        let words = words(&SHIPPED, &run);
        assert_eq!(words.concat(), run);
        assert!(words.len() > 1000);
        let unknown: String = "가".repeat(4096);
        assert_eq!(self::words(&SHIPPED, &unknown).len(), 4096);
    }
}
