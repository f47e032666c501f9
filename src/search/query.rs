//! The forms a query can take.
//!
//! - `select:a,b` names tools outright: exactly those tools come back, in that order (unknown
//!   names are skipped). It lets a model load tools it already knows by name in one call.
//! - Any other text is ranked. A word written `+word` must appear in every result (all of its
//!   terms, when it is an identifier such as `+getWeather`); a `+` word with no terms (a stop
//!   word) requires nothing.

use crate::analysis::{term_of, Analyzer, Piece};

const SELECT: &str = "select:";

#[derive(Debug, PartialEq)]
pub enum Query<'a> {
    Select(Vec<&'a str>),
    Ranked { text: &'a str, required: Vec<String> },
}

impl<'a> Query<'a> {
    pub fn parse(query: &'a str) -> Query<'a> {
        let trimmed = query.trim();
        if let Some(list) = trimmed.get(..SELECT.len()).filter(|p| p.eq_ignore_ascii_case(SELECT)) {
            let mut names: Vec<&str> = Vec::new();
            for name in trimmed[list.len()..].split(',').map(str::trim).filter(|n| !n.is_empty()) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            return Query::Select(names);
        }
        Query::Ranked { text: query, required: required_terms(query) }
    }
}

/// The separate requests of a compound query ("Book a flight to Boston. Also find a hotel
/// there."): split at sentence ends and at words that start another request. Fewer than two
/// requests with words in them means one request (an empty list).
pub fn requests(text: &str) -> Vec<&str> {
    let mut parts: Vec<&str> = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let sentence_end = matches!(bytes[i], b'.' | b'?' | b'!' | b';' | b'\n')
            && bytes.get(i + 1).is_none_or(|b| b.is_ascii_whitespace());
        if sentence_end {
            parts.push(&text[start..i]);
            start = i + 1;
        } else if let Some(len) = may_join_at(bytes, i).then(|| joiner_at(text, i)).flatten() {
            parts.push(&text[start..i]);
            start = i + len;
            i = start;
            continue;
        }
        i += 1;
    }
    parts.push(&text[start..]);
    parts.retain(|p| p.chars().filter(|c| c.is_alphanumeric()).count() >= 3);
    if parts.len() < 2 {
        parts.clear();
    }
    parts
}

/// Words that begin another request, matched as whole words at byte `i`.
const JOINERS: [&str; 15] = [
    "also",
    "then",
    "additionally",
    "afterwards",
    "furthermore",
    "moreover",
    "after that",
    "in addition",
    "finally",
    "lastly",
    ", and",
    ", what",
    ", how",
    ", who",
    ", where",
];

/// Whether a joiner could start at byte `i`: at a comma, or at an ASCII letter that begins a
/// word. A cheap test that spares the full comparison at every other byte of a long query.
fn may_join_at(bytes: &[u8], i: usize) -> bool {
    bytes[i] == b',' || (bytes[i].is_ascii_alphabetic() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()))
}

fn joiner_at(text: &str, i: usize) -> Option<usize> {
    let rest = &text[i..];
    let before_ok = i == 0 || !text[..i].chars().next_back().is_some_and(char::is_alphanumeric);
    JOINERS.iter().find_map(|joiner| {
        let head = rest.get(..joiner.len())?;
        let after_ok = !rest[joiner.len()..].chars().next().is_some_and(char::is_alphanumeric);
        (head.eq_ignore_ascii_case(joiner) && (before_ok || joiner.starts_with(',')) && after_ok)
            .then_some(joiner.len())
    })
}

/// The terms of every `+word` (a `+` at the start of the query or after whitespace).
fn required_terms(query: &str) -> Vec<String> {
    let mut analyzer = Analyzer::new();
    let mut required = Vec::new();
    for word in query.split_whitespace().filter_map(|w| w.strip_prefix('+')) {
        analyzer.pieces(word, |piece| {
            // The joined form of an identifier is an extra, not a requirement of its own.
            if matches!(piece, Piece::Whole(_)) {
                return;
            }
            if let Some(term) = term_of(piece) {
                if !required.contains(&term) {
                    required.push(term);
                }
            }
        });
    }
    required
}

#[cfg(test)]
mod tests {
    use super::*;

    fn required(query: &str) -> Vec<String> {
        match Query::parse(query) {
            Query::Ranked { required, .. } => required,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn select_lists_names_once_in_order() {
        assert_eq!(Query::parse(" select: b, a ,,b "), Query::Select(vec!["b", "a"]));
        assert_eq!(Query::parse("SELECT:x"), Query::Select(vec!["x"]));
        assert_eq!(Query::parse("select:"), Query::Select(vec![]));
    }

    #[test]
    fn select_must_lead_the_query() {
        assert!(matches!(Query::parse("please select:x"), Query::Ranked { .. }));
    }

    #[test]
    fn plus_words_become_required_terms() {
        assert_eq!(required("weather +forecasts"), ["forecast"]);
        assert_eq!(required("+getWeather now"), ["get", "weather"]);
        assert_eq!(required("+天气"), ["天气"]);
        assert!(required("+the a+b c + d").is_empty());
        assert_eq!(required("x +the+word"), ["word"], "a stop word requires nothing; the inner + is a separator");
    }
}
