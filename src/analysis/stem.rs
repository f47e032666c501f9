//! From a piece to the term it is indexed under: stop words and noise dropped, English words
//! stemmed, and the answer remembered.

use std::sync::{LazyLock, Mutex, PoisonError};

use rust_stemmers::{Algorithm, Stemmer};
use rustc_hash::FxHashMap;

use super::stopwords::is_stop_word;
use super::Piece;

/// The term a piece indexes under, or `None` for a stop word.
pub fn term_of(piece: Piece<'_>) -> Option<String> {
    match piece {
        Piece::Whole(text) | Piece::Gram(text) => Some(text.to_string()),
        Piece::Word(word) => remembered_term(word),
    }
}

static ENGLISH: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// Terms of words met earlier in this process (`None`: a stop word). The plugin rebuilds its
/// index after every registry change, over nearly the same vocabulary, and stemming new words was
/// a third of the build time. Bounded: cleared when it outgrows [`MAX_REMEMBERED_WORDS`].
static REMEMBERED: LazyLock<Mutex<FxHashMap<String, Option<String>>>> = LazyLock::new(Mutex::default);
const MAX_REMEMBERED_WORDS: usize = 100_000;

fn remembered_term(word: &str) -> Option<String> {
    let mut remembered = REMEMBERED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(term) = remembered.get(word) {
        return term.clone();
    }
    let noise = word.chars().count() < 2 || word.chars().all(|c| c.is_numeric() || c == '.');
    let term = (!is_stop_word(word) && !noise).then(|| ENGLISH.stem(word).into_owned());
    if remembered.len() >= MAX_REMEMBERED_WORDS {
        remembered.clear();
    }
    remembered.insert(word.to_string(), term.clone());
    term
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_terms_equal_fresh_stems() {
        for word in ["searching", "searches", "the", "weather"] {
            let expected = (!is_stop_word(word)).then(|| ENGLISH.stem(word).into_owned());
            assert_eq!(remembered_term(word), expected);
            assert_eq!(remembered_term(word), expected, "second call, from the memo");
        }
    }
}
