//! Text analysis: the one place where a string becomes search terms. Documents and queries go
//! through the same steps, so a word matches itself whatever its case, accents or inflection.
//!
//! Steps: NFKD folding with combining marks removed (so "café" and "cafe" meet), lowercase,
//! words of letters and digits (joined by `'` or `.`, as in "don't" or "v1.2"), English stop
//! words dropped, Porter2 stemming (Snowball English).

use std::collections::HashMap;
use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

use crate::stopwords::is_stop_word;

static ENGLISH: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// Turns text into terms. It remembers the stem of every word it has seen: a catalog repeats a
/// small vocabulary many times, and Snowball stemming costs far more than a hash lookup.
#[derive(Default)]
pub struct Analyzer {
    stems: HashMap<String, Option<String>>,
}

impl Analyzer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Calls `emit` with each term of `text`, in order.
    pub fn analyze(&mut self, text: &str, mut emit: impl FnMut(&str)) {
        let folded = fold(text);
        for word in words(&folded) {
            if let Some(term) = self.term(word) {
                emit(term);
            }
        }
    }

    /// The term a folded word indexes under, or `None` for a stop word.
    fn term(&mut self, word: &str) -> Option<&str> {
        if !self.stems.contains_key(word) {
            let stem = (!is_stop_word(word)).then(|| ENGLISH.stem(word).into_owned());
            self.stems.insert(word.to_string(), stem);
        }
        self.stems[word].as_deref()
    }
}

/// NFKD, combining marks removed, lowercase. ASCII text is already decomposed, so it takes the
/// cheap path; catalogs are mostly ASCII and folding is on the index-build hot path.
pub fn fold(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    text.nfkd().filter(|&c| !is_combining_mark(c)).flat_map(char::to_lowercase).collect()
}

/// Words of `folded` text: runs of letters and digits, where a single `'` or `.` between two such
/// runs joins them (`don't`, `v1.2`), mirroring the seed's `[\p{L}\p{N}]+(?:['.][\p{L}\p{N}]+)*`.
fn words(folded: &str) -> impl Iterator<Item = &str> {
    let mut rest = folded;
    std::iter::from_fn(move || {
        let start = rest.find(char::is_alphanumeric)?;
        rest = &rest[start..];
        let mut end = 0;
        let mut chars = rest.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c.is_alphanumeric() {
                end = i + c.len_utf8();
            } else if (c == '\'' || c == '.')
                && end == i
                && chars.peek().is_some_and(|&(_, next)| next.is_alphanumeric())
            {
                continue;
            } else {
                break;
            }
        }
        let (word, tail) = rest.split_at(end);
        rest = tail;
        Some(word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<String> {
        analyze(&mut Analyzer::new(), text)
    }

    fn analyze(analyzer: &mut Analyzer, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        analyzer.analyze(text, |term| out.push(term.to_string()));
        out
    }

    #[test]
    fn folds_accents_width_and_case() {
        assert_eq!(fold("Café RÉSUMÉ"), "cafe resume");
        assert_eq!(fold("ｆｕｌｌ ﬁle"), "full file");
        assert_eq!(fold("ASCII Only"), "ascii only");
    }

    #[test]
    fn splits_words_and_keeps_inner_apostrophes_and_dots() {
        let folded = fold("Don't parse v1.2 files... end. 'quoted' a.b.c x..y");
        let found: Vec<&str> = words(&folded).collect();
        assert_eq!(found, ["don't", "parse", "v1.2", "files", "end", "quoted", "a.b.c", "x", "y"]);
    }

    #[test]
    fn drops_stop_words_and_stems() {
        assert_eq!(terms("Get the current weather for a city"), ["get", "current", "weather", "citi"]);
        assert_eq!(terms("running runs ran"), ["run", "run", "ran"]);
        assert_eq!(terms("don't"), Vec::<String>::new());
    }

    #[test]
    fn non_latin_letters_are_words_too() {
        assert_eq!(terms("Привет мир"), ["привет", "мир"]);
        assert_eq!(terms("天气 查询"), ["天气", "查询"]);
    }

    #[test]
    fn empty_and_symbol_only_text_has_no_terms() {
        assert!(terms("").is_empty());
        assert!(terms(" -- ** \u{FFFD} ").is_empty());
    }

    #[test]
    fn the_cache_returns_the_same_terms_as_a_fresh_analyzer() {
        let mut warm = Analyzer::new();
        let first = analyze(&mut warm, "Searching searched searches");
        assert_eq!(analyze(&mut warm, "Searching searched searches"), first);
        assert_eq!(first, terms("Searching searched searches"));
    }
}
