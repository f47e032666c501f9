//! The contextual half of the semantic stage: a small transformer (all-MiniLM-L6-v2, see
//! `encoder`) that reads a text as a sentence, where the static table only adds up its words.
//! It knows that "open a pull request" is about creating one, which no sum of word rows does.
//!
//! It costs milliseconds per text where the table costs microseconds, so an index never waits
//! for it: a hybrid index's tools are embedded by one background worker (see `background`), and
//! a search that needs a candidate's vector the worker has not made yet makes that one itself
//! (see `tool_vectors`), so it answers as it will once the worker is done.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::encoder::Encoder;
use super::model::read_file;
use super::wordpiece::WordPiece;
use super::ModelError;
use crate::analysis::{Analyzer, Piece};
use crate::bytes::fnv1a;

/// Tokens a text is read to, [CLS] and [SEP] included. A tool's name and description, and a
/// request, fit in far fewer; a tool's longer description is cut here. A longer query is not
/// read at all (see [`Contextual::embed_query`]).
pub(crate) const MAX_TOKENS: usize = 128;

/// The text [`Contextual::fingerprint`] embeds: longer than [`MAX_TOKENS`], so the limit shows,
/// with accents, CJK, digits and punctuation, so the tokenizer's rules do.
const FINGERPRINT_TEXT: &str = "get_weather_forecast: Résumé of the café's 3-day forecast (東京, naïve Ünïcode) — \
    rain & wind; see https://example.com/v2?q=x. It's a tool's description, repeated to pass the token limit. \
    get_weather_forecast: Résumé of the café's 3-day forecast (東京, naïve Ünïcode) — rain & wind; see \
    https://example.com/v2?q=x. It's a tool's description, repeated to pass the token limit. get_weather_forecast: \
    Résumé of the café's 3-day forecast (東京, naïve Ünïcode) — rain & wind; see https://example.com/v2?q=x. \
    It's a tool's description, repeated to pass the token limit.";

/// Queries whose vectors are kept: one search asks for its query's vector again for every hit
/// whose match strength the plugin reads, and the command line's lint searches each text often.
const REMEMBERED_QUERIES: usize = 32;

/// How a query reaches the transformer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum QueryReading {
    /// As it was typed.
    Typed,
    /// As the glossary reads its Chinese (`gloss::reading`): words of English, one first meaning
    /// a word, in the order of the Chinese.
    Glossed,
}

/// The transformer with its tokenizer.
pub struct Contextual {
    encoder: Encoder,
    /// The query reader (`encoder-query.bin`, docs/model.md), when there is one: the encoder
    /// trained to read queries, typed and glossed, against `encoder`'s tool vectors. It reads
    /// queries only, so tools keep `encoder`'s vectors and their cache is the same with it or
    /// without it.
    reader: Option<Encoder>,
    wordpiece: WordPiece,
    /// The latest queries and their vectors, newest last.
    queries: Mutex<VecDeque<RememberedQuery>>,
    /// How often a query's vector was asked for, and how often that took a forward pass: a
    /// ranking asks once per query, whatever reads it (see `search::ranking`).
    asked: AtomicUsize,
    passes: AtomicUsize,
}

/// A query's text (typed, or as the glossary reads it: one reader reads both) and its vector
/// (`None`: the transformer does not read it).
type RememberedQuery = (Box<str>, Option<Arc<[f32]>>);

impl std::fmt::Debug for Contextual {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Contextual {{ {} values, checksum {:016x} }}", self.encoder.dims(), self.encoder.checksum())
    }
}

impl Contextual {
    /// Reads and checks an encoder file (see `encoder`).
    pub fn from_file(path: &Path) -> Result<Contextual, ModelError> {
        let encoder = Encoder::from_file(path)?;
        let wordpiece = WordPiece::new(encoder.vocab()).map_err(ModelError::Malformed)?;
        Ok(Contextual {
            encoder,
            reader: None,
            wordpiece,
            queries: Mutex::new(VecDeque::with_capacity(REMEMBERED_QUERIES)),
            asked: AtomicUsize::new(0),
            passes: AtomicUsize::new(0),
        })
    }

    /// Reads the query reader: a file of upper layers trained from this encoder, which it must
    /// name. Without it, or when it cannot be read, this encoder reads every query as well as
    /// every tool.
    pub fn read_query_reader_from(&mut self, path: &Path) -> Result<(), ModelError> {
        self.reader = Some(self.encoder.with_upper_layers(&read_file(path)?)?);
        self.queries.get_mut().unwrap_or_else(PoisonError::into_inner).clear();
        Ok(())
    }

    pub(crate) fn dims(&self) -> usize {
        self.encoder.dims()
    }

    /// The encoder file's checksum: which model a remembered vector came from.
    pub(crate) fn checksum(&self) -> u64 {
        self.encoder.checksum()
    }

    /// What this encoder, with its tokenizer and token limit, makes of a fixed text: the hash of
    /// that vector's bits. Anything that would give a tool another vector gives another
    /// fingerprint, so the vector cache names its files with it.
    pub(crate) fn fingerprint(&self) -> u64 {
        let bits: Vec<u8> = self.embed(FINGERPRINT_TEXT).iter().flat_map(|v| v.to_bits().to_le_bytes()).collect();
        fnv1a(&bits)
    }

    /// A tool's unit-length vector, from its first [`MAX_TOKENS`] tokens. Its pass takes two
    /// threads, as a query's does; the background worker's run at the core's lowered priority
    /// (`priority`), so a busy host still gets its cores first.
    pub(crate) fn embed(&self, text: &str) -> Vec<f32> {
        self.encoder.embed_ids_now(&self.wordpiece.ids(text, self.max_tokens()))
    }

    /// A query's unit-length vector; `None` for a query longer than [`MAX_TOKENS`] or without a
    /// token. A long query is a task description, of which the first tokens are a poor summary:
    /// on the eval's long role-play requests (tau2 banking) reading the start lost a fifth of the
    /// relevant tools in the top 5, where leaving them to the static table, which weighs each
    /// request, lost none.
    /// The query reader reads it, where there is one.
    pub(crate) fn embed_query(&self, text: &str) -> Option<Arc<[f32]>> {
        self.asked.fetch_add(1, Ordering::Relaxed);
        let lock = || self.queries.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, vector)) = lock().iter().find(|(query, _)| query.as_ref() == text) {
            return vector.clone();
        }
        let encoder = self.reader.as_ref().unwrap_or(&self.encoder);
        let max = self.max_tokens();
        let ids = self.wordpiece.ids(text, max + 1);
        let vector: Option<Arc<[f32]>> = (ids.len() <= max && ids.len() > 2).then(|| {
            self.passes.fetch_add(1, Ordering::Relaxed);
            encoder.embed_ids_now(&ids).into()
        });
        let mut queries = lock();
        if queries.len() == REMEMBERED_QUERIES {
            queries.pop_front();
        }
        queries.push_back((text.into(), vector.clone()));
        vector
    }

    /// How many times a query's vector has been asked for, and how many forward passes that took.
    #[cfg(test)]
    pub(crate) fn query_reads(&self) -> (usize, usize) {
        (self.asked.load(Ordering::Relaxed), self.passes.load(Ordering::Relaxed))
    }

    fn max_tokens(&self) -> usize {
        MAX_TOKENS.min(self.encoder.max_tokens())
    }
}

/// What a tool is embedded as: its name's words, then its description. The name goes in as words
/// ("create pull request"), since the transformer's vocabulary reads "create_pull_request" as
/// pieces of punctuation and "getWeather" as fragments.
pub fn tool_text(analyzer: &mut Analyzer, name: &str, description: &str) -> String {
    let mut text = String::with_capacity(name.len() + description.len() + 2);
    analyzer.pieces(name, |piece| {
        if let Piece::Word(word) = piece {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(word);
        }
    });
    text.push_str(": ");
    text.push_str(description);
    text
}

/// The cosine of two unit vectors, in a fixed order of additions.
pub(crate) fn cosine(a: &[f32], b: &[f32]) -> f64 {
    a.iter().zip(b).fold(0.0f64, |sum, (&x, &y)| sum + f64::from(x) * f64::from(y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fingerprint_is_stable_and_reaches_past_the_token_limit() {
        let contextual =
            Contextual::from_file(&Path::new(env!("CARGO_MANIFEST_DIR")).join("model/encoder.bin")).unwrap();
        assert_eq!(contextual.fingerprint(), contextual.fingerprint());
        // The text is cut at the limit, so a limit moved within it would move the fingerprint.
        assert!(contextual.wordpiece.ids(FINGERPRINT_TEXT, usize::MAX).len() > MAX_TOKENS + 16);
        let shorter = contextual.encoder.embed_ids(&contextual.wordpiece.ids(FINGERPRINT_TEXT, MAX_TOKENS - 16));
        let bits: Vec<u8> = shorter.iter().flat_map(|v| v.to_bits().to_le_bytes()).collect();
        assert_ne!(fnv1a(&bits), contextual.fingerprint());
    }

    #[test]
    fn a_tool_is_read_as_its_name_words_then_its_description() {
        let mut analyzer = Analyzer::new();
        assert_eq!(
            tool_text(&mut analyzer, "mcp__github__create_pull_request", "Create one."),
            "mcp github create pull request: Create one."
        );
        assert_eq!(tool_text(&mut analyzer, "getWeather", ""), "get weather: ");
    }
}
