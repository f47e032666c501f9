//! The forms a query can take, read here and nowhere else.
//!
//! - `discover:<query>` asks to see tools, not to load them: the rest of the query is read as
//!   below (a `select:` list too), and what it finds is shown with its schema and loads nothing
//!   (the decision is `answer`'s). It is read first, so a tool named `discover:...` is found by
//!   `select:` rather than by its name.
//! - `select:a,b` names tools outright: exactly those tools come back, in that order (unknown
//!   names are skipped). It lets a model load tools it already knows by name in one call.
//! - Any other text is ranked. A word written `+word` must appear in every result (all of its
//!   terms, when it is an identifier such as `+getWeather`); a `+` word with no terms (a stop
//!   word) requires nothing.
//!
//! Whatever the form, a tool named exactly by the text after any `discover:` comes first.

use crate::analysis::{term_of, Analyzer, Piece};

const SELECT: &str = "select:";
const DISCOVER: &str = "discover:";

#[derive(Debug, PartialEq)]
pub enum Query<'a> {
    Select(Vec<&'a str>),
    Ranked { text: &'a str, required: Vec<String> },
}

impl<'a> Query<'a> {
    /// The form of a query's ranked text (see [`ranked_text`]): a `select:` list or ranked words.
    pub fn parse(query: &'a str) -> Query<'a> {
        if let Some(list) = after_prefix(query.trim(), SELECT) {
            let mut names: Vec<&str> = Vec::new();
            for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            return Query::Select(names);
        }
        Query::Ranked { text: query, required: required_terms(query) }
    }

    /// What this query asks for, `discover` when a `discover:` led it.
    pub fn form(&self, discover: bool) -> Form {
        match self {
            _ if discover => Form::Discover,
            Query::Select(_) => Form::Select,
            Query::Ranked { required, .. } if !required.is_empty() => Form::Required,
            Query::Ranked { .. } => Form::Plain,
        }
    }
}

/// What a query asks for, as answers and explanations name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Ranked by its words.
    Plain,
    /// Ranked, with a `+word` every match holds.
    Required,
    /// `select:` names its tools.
    Select,
    /// `discover:` shows what the rest of the query finds, and loads nothing.
    Discover,
}

impl Form {
    pub fn name(self) -> &'static str {
        match self {
            Form::Plain => "plain",
            Form::Required => "required",
            Form::Select => "select",
            Form::Discover => "discover",
        }
    }
}

/// What a `discover:` query shows tools for: the trimmed rest of a query that starts with it, in
/// any case, after leading whitespace (empty when nothing follows); `None` for any other query.
pub fn discovered(query: &str) -> Option<&str> {
    after_prefix(query.trim(), DISCOVER).map(str::trim)
}

/// The text a query's tools are ranked or named by: a `discover:` query's rest, any other query
/// whole.
pub fn ranked_text(query: &str) -> &str {
    discovered(query).unwrap_or(query)
}

/// The rest of `text` after `prefix`, when `text` starts with it in any ASCII case.
fn after_prefix<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    text.get(..prefix.len()).filter(|head| head.eq_ignore_ascii_case(prefix)).map(|_| &text[prefix.len()..])
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
    fn discover_leads_the_query_and_its_rest_is_read_as_any_query() {
        assert_eq!(discovered(" DISCOVER:  github issue "), Some("github issue"));
        assert_eq!(discovered("discover:"), Some(""));
        assert_eq!(discovered("please discover: x"), None);
        assert_eq!(ranked_text("discover:select:a"), "select:a");
        assert_eq!(ranked_text(" weather "), " weather ", "any other query is ranked as it was given");
        let form = |query| {
            let text = ranked_text(query);
            Query::parse(text).form(discovered(query).is_some())
        };
        assert_eq!(form("discover:select:a"), Form::Discover);
        assert_eq!(form("select:a"), Form::Select);
        assert_eq!(form("weather +forecast"), Form::Required);
        assert_eq!(form("weather +the"), Form::Plain, "a + word with no terms requires nothing");
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
