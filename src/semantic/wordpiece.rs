//! The BERT uncased tokenizer of all-MiniLM-L6-v2, exactly as HF tokenizers runs it (its
//! `tokenizer.json`: BertNormalizer with lowercasing and accent stripping, BertPreTokenizer,
//! WordPiece with `##` continuations): the encoder was trained on these ids, so any difference
//! in a piece changes the vector.
//!
//! It reads the text once, as a stream, and stops when the id limit is reached: a tool
//! description may run to thousands of characters while the encoder reads only the first 128
//! tokens. Text that names a special token (`[SEP]`) is read as plain text, not as that token
//! (HF would insert the token; a description should not steer the encoder that way).

mod tables;

use rustc_hash::FxHashMap;
use unicode_normalization::UnicodeNormalization;

const CLS: &str = "[CLS]";
const SEP: &str = "[SEP]";
const UNK: &str = "[UNK]";

/// BERT's `max_input_chars_per_word`: a longer word is one `[UNK]`, never split into pieces.
const MAX_WORD_CHARS: usize = 100;

pub(crate) struct WordPiece {
    /// Pieces that may begin a word.
    starts: FxHashMap<Box<str>, u32>,
    /// Pieces that continue a word, without their `##`.
    continuations: FxHashMap<Box<str>, u32>,
    /// The longest piece of each map, in chars: no longer match need be tried.
    longest_start: usize,
    longest_continuation: usize,
    cls: u32,
    sep: u32,
    unk: u32,
}

impl WordPiece {
    /// `vocab` is the tokens in id order. A vocabulary without the three special tokens the
    /// tokenizer emits, or with a token twice (which id would it be?), is refused.
    pub(crate) fn new<'a>(vocab: impl IntoIterator<Item = &'a str>) -> Result<WordPiece, String> {
        let mut starts = FxHashMap::default();
        let mut continuations = FxHashMap::default();
        for (id, token) in vocab.into_iter().enumerate() {
            let id = u32::try_from(id).map_err(|_| "the vocabulary has more than 2^32 tokens".to_string())?;
            let (map, key) = match token.strip_prefix("##") {
                Some(rest) => (&mut continuations, rest),
                None => (&mut starts, token),
            };
            if map.insert(Box::from(key), id).is_some() {
                return Err(format!("the vocabulary has the token {token:?} twice"));
            }
        }
        let special =
            |token: &str| starts.get(token).copied().ok_or_else(|| format!("the vocabulary has no {token} token"));
        let (cls, sep, unk) = (special(CLS)?, special(SEP)?, special(UNK)?);
        let longest = |map: &FxHashMap<Box<str>, u32>| map.keys().map(|k| k.chars().count()).max().unwrap_or(0);
        Ok(WordPiece {
            longest_start: longest(&starts),
            longest_continuation: longest(&continuations),
            starts,
            continuations,
            cls,
            sep,
            unk,
        })
    }

    /// `[CLS]`, the text's pieces and `[SEP]`, at most `max_tokens` ids: the pieces are cut so
    /// that `[SEP]` stays last, as HF truncation does. Below two ids there is no room for both
    /// markers; what fits of `[CLS]` `[SEP]` is returned.
    pub(crate) fn ids(&self, text: &str, max_tokens: usize) -> Vec<u32> {
        let mut ids = Vec::with_capacity(max_tokens.min(text.len() + 2));
        if max_tokens < 2 {
            ids.extend([self.cls].into_iter().take(max_tokens));
            return ids;
        }
        ids.push(self.cls);
        let limit = max_tokens - 1;
        let mut word = Word::default();
        for c in normalized(text) {
            if ids.len() >= limit {
                break;
            }
            if c == ' ' {
                self.push_word(&mut word, &mut ids, limit);
            } else if is_punctuation(c) || is_chinese(c) {
                self.push_word(&mut word, &mut ids, limit);
                word.push(c);
                self.push_word(&mut word, &mut ids, limit);
            } else {
                word.push(c);
            }
        }
        self.push_word(&mut word, &mut ids, limit);
        ids.push(self.sep);
        ids
    }

    /// Appends the pieces of `word` (greedy longest match first, as BERT does) while `ids` is
    /// below `limit`, and empties it. A word with a part no piece matches is one `[UNK]`, so
    /// the whole word is matched before any of it is cut.
    fn push_word(&self, word: &mut Word, ids: &mut Vec<u32>, limit: usize) {
        if word.chars > 0 && ids.len() < limit {
            let begin = ids.len();
            if !self.pieces(word, ids) {
                ids.truncate(begin);
                ids.push(self.unk);
            }
            ids.truncate(limit);
        }
        word.clear();
    }

    /// Pushes the pieces of `word`; false, with some pushed, if a part of it matches none.
    fn pieces(&self, word: &mut Word, ids: &mut Vec<u32>) -> bool {
        if word.chars > MAX_WORD_CHARS {
            return false;
        }
        word.bounds.clear();
        word.bounds.extend(word.text.char_indices().map(|(at, _)| at));
        word.bounds.push(word.text.len());
        let mut start = 0;
        while start < word.chars {
            let (map, longest) = match start {
                0 => (&self.starts, self.longest_start),
                _ => (&self.continuations, self.longest_continuation),
            };
            let found = (start + 1..=word.chars.min(start + longest))
                .rev()
                .find_map(|end| map.get(&word.text[word.bounds[start]..word.bounds[end]]).map(|&id| (id, end)));
            let Some((id, end)) = found else {
                return false;
            };
            ids.push(id);
            start = end;
        }
        true
    }
}

/// The word being read: its first [`MAX_WORD_CHARS`] + 1 chars are kept, the rest only
/// counted, so an endless run of letters costs no memory.
#[derive(Default)]
struct Word {
    text: String,
    chars: usize,
    /// Byte offset of each char of `text`, and its length: reused from word to word.
    bounds: Vec<usize>,
}

impl Word {
    fn push(&mut self, c: char) {
        if self.chars <= MAX_WORD_CHARS {
            self.text.push(c);
        }
        self.chars += 1;
    }

    fn clear(&mut self) {
        self.text.clear();
        self.chars = 0;
    }
}

/// BertNormalizer, lazily: controls dropped, every whitespace a space, canonical decomposition
/// without nonspacing marks (the accents), lowercase. Chinese characters are spaced by the
/// caller.
fn normalized(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars()
        .filter(|&c| !(c == '\0' || c == '\u{FFFD}' || is_control(c)))
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .nfd()
        .filter(|&c| !in_table(&tables::NONSPACING_MARKS, c))
        .flat_map(char::to_lowercase)
}

fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && in_table(&tables::CONTROLS, c)
}

/// BERT counts every ASCII symbol as punctuation, not only the P* categories.
fn is_punctuation(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_punctuation()
    } else {
        in_table(&tables::PUNCTUATION, c)
    }
}

/// The ranges of BERT's `_is_chinese_char` (CJK unified and compatibility ideographs; kana and
/// Hangul stay inside words) as HF tokenizers writes them: extension E from U+2B920, where
/// BERT's Python has U+2B820.
fn is_chinese(c: char) -> bool {
    matches!(c,
        '\u{4E00}'..='\u{9FFF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{20000}'..='\u{2A6DF}'
        | '\u{2A700}'..='\u{2B73F}'
        | '\u{2B740}'..='\u{2B81F}'
        | '\u{2B920}'..='\u{2CEAF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{2F800}'..='\u{2FA1F}')
}

fn in_table(ranges: &[(char, char)], c: char) -> bool {
    let after = ranges.partition_point(|&(first, _)| first <= c);
    after > 0 && c <= ranges[after - 1].1
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// The shipped encoder's vocabulary: the one the fixture's ids index.
    static VOCAB: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
        let encoder =
            crate::Encoder::from_file(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("model/encoder.bin"))
                .unwrap();
        encoder.vocab().map(str::to_string).collect()
    });

    fn model() -> WordPiece {
        WordPiece::new(VOCAB.iter().map(String::as_str)).unwrap()
    }

    fn tokens(wp: &WordPiece, text: &str, max_tokens: usize) -> Vec<String> {
        let vocab = &*VOCAB;
        wp.ids(text, max_tokens).into_iter().map(|id| vocab[id as usize].to_string()).collect()
    }

    #[test]
    fn matches_the_hf_tokenizer_on_the_fixture() {
        let wp = model();
        let fixture: Vec<(String, Vec<u32>)> = parse_fixture(include_str!("testdata/wordpiece.json"));
        assert!(fixture.len() >= 300, "{} texts", fixture.len());
        let wrong: Vec<_> = fixture
            .iter()
            .filter(|(text, expected)| wp.ids(text, usize::MAX) != *expected)
            .map(|(text, expected)| (text, expected, wp.ids(text, usize::MAX)))
            .collect();
        assert!(wrong.is_empty(), "{} of {} texts differ, first: {:?}", wrong.len(), fixture.len(), wrong.first());
        // HF truncation to 128 keeps the first 126 pieces and [SEP].
        for (text, expected) in &fixture {
            let mut cut = expected[..expected.len().min(128) - 1].to_vec();
            cut.push(wp.sep);
            assert_eq!(wp.ids(text, 128), cut, "{text:?}");
        }
    }

    #[test]
    fn truncation_keeps_cls_and_sep_within_the_limit() {
        let wp = model();
        let text = "Sends an email with the given body to the given address.";
        let full = wp.ids(text, usize::MAX);
        assert!(full.len() > 8);
        for max in 2..full.len() + 3 {
            let ids = wp.ids(text, max);
            assert_eq!(ids.len(), max.min(full.len()));
            assert_eq!(ids[0], wp.cls);
            assert_eq!(*ids.last().unwrap(), wp.sep);
            assert_eq!(ids[1..ids.len() - 1], full[1..ids.len() - 1]);
        }
        assert_eq!(wp.ids(text, 0), []);
        assert_eq!(wp.ids(text, 1), [wp.cls]);
        assert_eq!(wp.ids("", 1), [wp.cls]);
        // A word cut in its pieces keeps the pieces that fit.
        assert_eq!(tokens(&wp, "tokenization", 4), ["[CLS]", "token", "##ization", "[SEP]"]);
        assert_eq!(tokens(&wp, "tokenization", 3), ["[CLS]", "token", "[SEP]"]);
    }

    #[test]
    fn a_long_text_is_read_only_as_far_as_the_limit() {
        let wp = model();
        let text = "Retrieve the weather forecast, for a city; ".repeat(100);
        assert!(text.len() > 4000);
        let started = Instant::now();
        for _ in 0..100 {
            assert_eq!(wp.ids(&text, 128).len(), 128);
        }
        let each = started.elapsed() / 100;
        assert!(each.as_millis() < 20, "{each:?} for 128 tokens");
        // One endless word: a single [UNK], found without matching its pieces.
        let word = "a".repeat(10_000);
        assert_eq!(tokens(&wp, &word, 128), ["[CLS]", "[UNK]", "[SEP]"]);
        let longest = "x".repeat(MAX_WORD_CHARS);
        assert_ne!(tokens(&wp, &longest, 128)[1], "[UNK]");
        assert_eq!(tokens(&wp, &(longest + "x"), 128), ["[CLS]", "[UNK]", "[SEP]"]);
    }

    #[test]
    fn text_with_no_word_is_cls_and_sep() {
        let wp = model();
        for text in ["", "   \t\n\r ", "\u{0}\u{1}\u{7F}\u{200B}\u{FFFD}", "\u{301}\u{308}"] {
            assert_eq!(wp.ids(text, 128), [wp.cls, wp.sep], "{text:?}");
        }
        let punctuation = tokens(&wp, "?!...", 128);
        assert_eq!(punctuation, ["[CLS]", "?", "!", ".", ".", ".", "[SEP]"]);
    }

    #[test]
    fn refuses_a_vocabulary_it_cannot_use() {
        let missing = WordPiece::new(["[CLS]", "[SEP]", "a"]).err().unwrap();
        assert_eq!(missing, "the vocabulary has no [UNK] token");
        let missing = WordPiece::new(["[UNK]", "[SEP]"]).err().unwrap();
        assert_eq!(missing, "the vocabulary has no [CLS] token");
        let twice = WordPiece::new(["[CLS]", "[SEP]", "[UNK]", "##a", "b", "##a"]).err().unwrap();
        assert_eq!(twice, "the vocabulary has the token \"##a\" twice");
        let wp = WordPiece::new(["[CLS]", "[SEP]", "[UNK]", "a", "##a", "##b"]).unwrap();
        assert_eq!(wp.ids("aab ba", 10), [0, 3, 4, 5, 2, 1]);
    }

    /// The fixture is a JSON array of `{"text": ..., "ids": [...]}` objects, one per line, as
    /// model/build/wordpiece_fixture.py writes it; the crate has no JSON dependency.
    fn parse_fixture(json: &str) -> Vec<(String, Vec<u32>)> {
        json.lines()
            .filter_map(|line| line.trim().strip_prefix('{'))
            .map(|line| {
                let line = line.trim_end_matches(',').strip_suffix('}').unwrap();
                let (text, ids) = line.rsplit_once(", \"ids\": [").unwrap();
                let text = text.strip_prefix("\"text\": ").unwrap();
                let ids = ids.strip_suffix(']').unwrap();
                let ids = ids.split(", ").filter(|s| !s.is_empty()).map(|s| s.parse().unwrap()).collect();
                (json_string(text), ids)
            })
            .collect()
    }

    /// A JSON string literal written with `ensure_ascii`: escapes only, `\uXXXX` in pairs for
    /// astral characters.
    fn json_string(literal: &str) -> String {
        let body = literal.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap();
        let mut units = Vec::new();
        let mut chars = body.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                units.push(c as u16);
                continue;
            }
            let unit = match chars.next().unwrap() {
                'n' => '\n' as u16,
                't' => '\t' as u16,
                'r' => '\r' as u16,
                'b' => 8,
                'f' => 12,
                'u' => u16::from_str_radix(&chars.by_ref().take(4).collect::<String>(), 16).unwrap(),
                other => other as u16,
            };
            units.push(unit);
        }
        String::from_utf16(&units).unwrap()
    }
}
