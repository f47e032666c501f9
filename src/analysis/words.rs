//! The distinct words of a text, for the stages that compare words one by one instead of scoring
//! terms: the name agreement (`search::agreement`), the outline and the nearest names (`hints`).
//! A tool name is read only as far as [`NAME_READ_BYTES`] and [`MAX_NAME_WORDS`] let it be, so
//! what these stages do per name is bounded whatever the catalog holds.

use rustc_hash::FxHashSet;

use super::{term_of, Analyzer, Piece};
use crate::limits::{MAX_NAME_WORDS, NAME_READ_BYTES};
use crate::work::{self, Step};

/// One word: as folded (lowercase, without accents) and the term it indexes under, which two
/// spellings of one word share (`issue` and `issues`).
pub(crate) struct Word {
    pub(crate) text: String,
    pub(crate) term: String,
}

/// The words of `text` that mean something on their own: no stop words, numbers or single
/// letters (what [`term_of`] drops), no CJK pieces, each term once, in order, at most `max`.
pub(crate) fn distinct_words(analyzer: &mut Analyzer, text: &str, max: usize) -> Vec<Word> {
    let mut found: Vec<Word> = Vec::new();
    let mut seen: FxHashSet<String> = FxHashSet::default();
    analyzer.pieces(text, |piece| {
        let Piece::Word(word) = piece else { return };
        if found.len() < max {
            if let Some(term) = term_of(piece).filter(|term| seen.insert(term.clone())) {
                found.push(Word { text: word.to_string(), term });
            }
        }
    });
    found
}

/// A tool name's words as the name stages read them: its first [`NAME_READ_BYTES`] bytes (cut at
/// a character boundary), and of those the first [`MAX_NAME_WORDS`] distinct words.
pub(crate) fn name_words(analyzer: &mut Analyzer, name: &str) -> Vec<Word> {
    let read = &name[..name.floor_char_boundary(NAME_READ_BYTES)];
    work::add(Step::NameByte, read.len());
    distinct_words(analyzer, read, MAX_NAME_WORDS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(words: Vec<Word>) -> Vec<String> {
        words.into_iter().map(|word| word.text).collect()
    }

    #[test]
    fn words_drop_noise_and_repeat_each_term_once() {
        assert_eq!(
            texts(distinct_words(&mut Analyzer::new(), "get_the_issues_2_issue-x", usize::MAX)),
            ["get", "issues"]
        );
        assert_eq!(texts(distinct_words(&mut Analyzer::new(), "alpha beta gamma", 2)), ["alpha", "beta"]);
    }

    #[test]
    fn a_name_is_read_to_its_bounds() {
        let word = |i: usize| format!("w{}", char::from(b'a' + (i % 26) as u8)).repeat(1 + i / 26);
        let long: Vec<String> = (0..200).map(word).collect();
        let words = name_words(&mut Analyzer::new(), &long.join("_"));
        assert_eq!(words.len(), MAX_NAME_WORDS);
        assert_eq!(words[0].text, "wa");
        let wide = "é".repeat(NAME_READ_BYTES);
        assert_eq!(
            name_words(&mut Analyzer::new(), &wide)[0].text.chars().count(),
            NAME_READ_BYTES / 2,
            "cut between characters"
        );
        let few = name_words(&mut Analyzer::new(), &format!("{}_tail", "x".repeat(NAME_READ_BYTES)));
        assert!(few.iter().all(|w| w.text != "tail"), "words past the bytes read are not read");
    }
}
