//! The glossary: how a hybrid index reads a Chinese query in English. The semantic models read
//! English only, and a Chinese request shares no word with an English description; so a query's
//! CJK runs are split into words (`segment`, jieba's dictionary-only method) and each content
//! word is replaced by its English gloss (CC-CEDICT's first senses), which the lexical and the
//! semantic stages then read beside the query's own pieces (`query`).
//!
//! The file is ours, and small on purpose: a header, then per word its key's length, its gloss's
//! length, its segmentation cost and its flags, then the keys in byte order (a lookup is a binary
//! search, and loading builds nothing but offset tables) and the glosses in the same order.
//! `model/build/glossary.py` writes it from jieba's dictionary and CC-CEDICT; nothing else does.
//!
//! ```text
//! offset  size            field
//! 0       8               magic "DSHTSGLO"
//! 8       4               format version (1)
//! 12      4               words (1..=1,000,000)
//! 16      4               key bytes: total length of the keys
//! 20      4               gloss bytes: total length of the glosses
//! 24      4               unknown cost: the cost of a character no word covers
//! 28      4               longest word, in characters (1..=16)
//! 32      8               FNV-1a 64 of every byte after the header
//! 40      words           each key's length in bytes (1..=64)
//! ...     words           each gloss's length in bytes (1..=255)
//! ...     4 * words       each word's cost, u32 (at most the unknown cost)
//! ...     words           each word's flags: bit 0, a function word; the other bits 0
//! ...     key bytes       the keys, UTF-8, CJK characters only, strictly increasing in byte order
//! ...     gloss bytes     the glosses, UTF-8, in the keys' order
//! ```
//! All integers are little-endian. A cost is a word's negative log-probability in jieba's
//! dictionary (its frequency over the dictionary's total) in millionths of a nat (2^20 a nat), so
//! a segmentation adds integers and comes out the same on every machine.

mod query;
mod segment;

use std::fmt;
use std::path::Path;

pub(crate) use query::{glosses, reading};

use crate::analysis::is_cjk;
use crate::bytes::{fnv1a, u32_at, u64_at};

const MAGIC: &[u8; 8] = b"DSHTSGLO";
const VERSION: u32 = 1;
const HEADER: usize = 40;
/// Longest word the format takes, in characters: jieba's dictionary has none longer that
/// CC-CEDICT glosses. It bounds the segmenter's look-ahead from each character.
pub const MAX_WORD_CHARS: usize = 16;
/// Longest key, in bytes: [`MAX_WORD_CHARS`] characters of four bytes.
const MAX_KEY_BYTES: usize = 4 * MAX_WORD_CHARS;
/// Most words the format takes: ten times the shipped glossary, low enough that a header cannot
/// ask for absurd offset tables.
pub const MAX_WORDS: usize = 1_000_000;
/// Largest glossary file read, checked before the file is read.
pub const MAX_GLOSSARY_BYTES: u64 = 64 * 1024 * 1024;
const FUNCTION: u8 = 1;

/// Why a glossary file was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum GlossaryError {
    Io(String),
    TooLarge(u64),
    Malformed(String),
    Checksum { expected: u64, found: u64 },
}

impl fmt::Display for GlossaryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io(error) => write!(f, "cannot read the glossary file: {error}"),
            Self::TooLarge(bytes) => {
                write!(f, "the glossary file is {bytes} bytes; the limit is {MAX_GLOSSARY_BYTES} bytes")
            }
            Self::Malformed(why) => write!(f, "the glossary file is not a dsh-tool-search glossary: {why}"),
            Self::Checksum { expected, found } => {
                write!(f, "the glossary file is damaged: its checksum is {found:016x}, its header says {expected:016x}")
            }
        }
    }
}

/// A loaded glossary: the file's bytes and where each key and gloss starts.
pub struct Glossary {
    bytes: Vec<u8>,
    /// Start of each key in `bytes`, and one past the last key's end.
    key_starts: Vec<u32>,
    /// Start of each gloss in `bytes`, and one past the last gloss's end.
    gloss_starts: Vec<u32>,
    costs: Vec<u32>,
    flags: Vec<u8>,
    unknown_cost: u32,
    longest: usize,
    checksum: u64,
}

impl fmt::Debug for Glossary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Glossary {{ {} words, checksum {:016x} }}", self.words(), self.checksum)
    }
}

/// A word of the glossary, by its place in key order.
pub(crate) type WordId = u32;

/// What a lookup of a piece of text found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lookup {
    /// A word, and whether some longer word begins with it.
    Word(WordId, bool),
    /// No word, but some word begins with it.
    Prefix,
    /// Nothing begins with it.
    Nothing,
}

impl Glossary {
    /// Reads and checks a glossary file. Its size is checked before anything is read.
    pub fn from_file(path: &Path) -> Result<Glossary, GlossaryError> {
        let size = std::fs::metadata(path).map_err(|e| GlossaryError::Io(e.to_string()))?.len();
        if size > MAX_GLOSSARY_BYTES {
            return Err(GlossaryError::TooLarge(size));
        }
        Glossary::from_bytes(std::fs::read(path).map_err(|e| GlossaryError::Io(e.to_string()))?)
    }

    /// Checks a glossary's bytes: size, header, sizes, checksum, keys, glosses and flags.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Glossary, GlossaryError> {
        let malformed = |why: String| GlossaryError::Malformed(why);
        // Offsets are kept in 32 bits: a file within the limit is far below that.
        if bytes.len() as u64 > MAX_GLOSSARY_BYTES {
            return Err(GlossaryError::TooLarge(bytes.len() as u64));
        }
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(malformed("it does not start with the glossary header".into()));
        }
        let version = u32_at(&bytes, 8);
        if version != VERSION {
            return Err(malformed(format!("format version {version}, this build reads version {VERSION}")));
        }
        let words = u32_at(&bytes, 12) as usize;
        let key_bytes = u32_at(&bytes, 16) as usize;
        let gloss_bytes = u32_at(&bytes, 20) as usize;
        let unknown_cost = u32_at(&bytes, 24);
        let longest = u32_at(&bytes, 28) as usize;
        if words == 0 || words > MAX_WORDS || longest == 0 || longest > MAX_WORD_CHARS {
            return Err(malformed(format!(
                "{words} words of at most {longest} characters is outside what the format takes"
            )));
        }
        // In u64: the header's sizes are anyone's numbers until they match the file.
        let expected_len = (HEADER + 7 * words) as u64 + key_bytes as u64 + gloss_bytes as u64;
        if bytes.len() as u64 != expected_len {
            return Err(malformed(format!("{} bytes where the header describes {expected_len}", bytes.len())));
        }
        let expected = u64_at(&bytes, 32);
        let found = fnv1a(&bytes[HEADER..]);
        if found != expected {
            return Err(GlossaryError::Checksum { expected, found });
        }
        let key_lengths = HEADER;
        let gloss_lengths = key_lengths + words;
        let costs_at = gloss_lengths + words;
        let flags_at = costs_at + 4 * words;
        let keys_at = flags_at + words;
        let glosses_at = keys_at + key_bytes;
        let starts = |lengths: &[u8], from: usize, total: usize, what: &str| {
            let mut starts = Vec::with_capacity(lengths.len() + 1);
            let mut at = from;
            for &len in lengths {
                if len == 0 {
                    return Err(malformed(format!("a {what} is empty")));
                }
                starts.push(at as u32);
                at += len as usize;
            }
            if at != from + total {
                return Err(malformed(format!("the {what} lengths do not add up to the {what} bytes")));
            }
            starts.push(at as u32);
            Ok(starts)
        };
        let key_starts = starts(&bytes[key_lengths..gloss_lengths], keys_at, key_bytes, "key")?;
        let gloss_starts = starts(&bytes[gloss_lengths..costs_at], glosses_at, gloss_bytes, "gloss")?;
        let costs: Vec<u32> = (0..words).map(|i| u32_at(&bytes, costs_at + 4 * i)).collect();
        let flags = bytes[flags_at..keys_at].to_vec();
        let glossary =
            Glossary { bytes, key_starts, gloss_starts, costs, flags, unknown_cost, longest, checksum: found };
        glossary.check_words()?;
        Ok(glossary)
    }

    /// The checks of each word: its key, its gloss, its cost and its flags.
    fn check_words(&self) -> Result<(), GlossaryError> {
        let malformed = |why: String| Err(GlossaryError::Malformed(why));
        let mut longest = 0;
        for i in 0..self.words() {
            let key = std::str::from_utf8(self.key_bytes(i))
                .map_err(|_| GlossaryError::Malformed(format!("word {i}'s key is not UTF-8")))?;
            if key.len() > MAX_KEY_BYTES || !key.chars().all(is_cjk) {
                return malformed(format!("the key {key:?} is not a word of CJK characters"));
            }
            if i > 0 && self.key_bytes(i - 1) >= key.as_bytes() {
                return malformed(format!("the keys are not in strictly increasing order at {key:?}"));
            }
            let chars = key.chars().count();
            if chars > self.longest {
                return malformed(format!("the key {key:?} is longer than the header's longest word"));
            }
            longest = longest.max(chars);
            if std::str::from_utf8(self.gloss_bytes(i)).is_err() {
                return malformed(format!("the gloss of {key:?} is not UTF-8"));
            }
            if self.costs[i] > self.unknown_cost {
                return malformed(format!("{key:?} costs more than an unknown character"));
            }
            if self.flags[i] & !FUNCTION != 0 {
                return malformed(format!("{key:?} has flags this build does not know"));
            }
        }
        if longest != self.longest {
            return malformed(format!("the longest key has {longest} characters, the header says {}", self.longest));
        }
        Ok(())
    }

    /// Words in the glossary.
    pub fn words(&self) -> usize {
        self.costs.len()
    }

    /// The checksum of the file, which names this glossary.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// `text` as the semantic models read it: each CJK run in its content words' first meanings
    /// ([`reading`]). For tools outside the core that need the very text a query is embedded
    /// from, such as the encoder's training data (`examples/train_texts.rs`).
    pub fn reading<'t>(&self, text: &'t str) -> std::borrow::Cow<'t, str> {
        reading(self, text)
    }

    /// What a lookup of `text` finds: a word, a start of words, or nothing.
    pub(crate) fn lookup(&self, text: &str) -> Lookup {
        let text = text.as_bytes();
        let at = self.first_not_below(text);
        let begins = |i: usize| i < self.words() && self.key_bytes(i).starts_with(text);
        if at < self.words() && self.key_bytes(at) == text {
            Lookup::Word(at as WordId, begins(at + 1))
        } else if begins(at) {
            Lookup::Prefix
        } else {
            Lookup::Nothing
        }
    }

    /// The id of the word `text`, if the glossary has it.
    #[cfg(test)]
    pub(crate) fn word(&self, text: &str) -> Option<WordId> {
        match self.lookup(text) {
            Lookup::Word(id, _) => Some(id),
            _ => None,
        }
    }

    /// The first key in byte order that is not below `text`.
    fn first_not_below(&self, text: &[u8]) -> usize {
        let (mut lo, mut hi) = (0, self.words());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.key_bytes(mid) < text {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    pub(crate) fn cost(&self, word: WordId) -> u32 {
        self.costs[word as usize]
    }

    /// What a character no word covers costs.
    pub(crate) fn unknown_cost(&self) -> u32 {
        self.unknown_cost
    }

    /// The longest word, in characters.
    pub(crate) fn longest(&self) -> usize {
        self.longest
    }

    /// Whether a word is a function word (a particle, preposition, pronoun, conjunction, modal
    /// particle or interjection), which a gloss leaves out.
    pub(crate) fn is_function(&self, word: WordId) -> bool {
        self.flags[word as usize] & FUNCTION != 0
    }

    /// A word's English gloss.
    pub(crate) fn gloss(&self, word: WordId) -> &str {
        // Checked to be UTF-8 when the file was read.
        std::str::from_utf8(self.gloss_bytes(word as usize)).unwrap_or_default()
    }

    fn key_bytes(&self, i: usize) -> &[u8] {
        &self.bytes[self.key_starts[i] as usize..self.key_starts[i + 1] as usize]
    }

    fn gloss_bytes(&self, i: usize) -> &[u8] {
        &self.bytes[self.gloss_starts[i] as usize..self.gloss_starts[i + 1] as usize]
    }
}

/// A glossary file written from words in memory (key, cost, function word, gloss), for tests (the
/// real writer is `model/build/glossary.py`); the words are sorted here.
#[cfg(test)]
pub(crate) fn encode(unknown_cost: u32, words: &[(&str, u32, bool, &str)]) -> Vec<u8> {
    let mut words = words.to_vec();
    words.sort_by(|a, b| a.0.cmp(b.0));
    encode_in_order(unknown_cost, &words)
}

#[cfg(test)]
fn encode_in_order(unknown_cost: u32, words: &[(&str, u32, bool, &str)]) -> Vec<u8> {
    let mut body = Vec::new();
    body.extend(words.iter().map(|w| w.0.len() as u8));
    body.extend(words.iter().map(|w| w.3.len() as u8));
    for w in words {
        body.extend_from_slice(&w.1.to_le_bytes());
    }
    body.extend(words.iter().map(|w| u8::from(w.2)));
    for w in words {
        body.extend_from_slice(w.0.as_bytes());
    }
    for w in words {
        body.extend_from_slice(w.3.as_bytes());
    }
    let key_bytes: usize = words.iter().map(|w| w.0.len()).sum();
    let gloss_bytes: usize = words.iter().map(|w| w.3.len()).sum();
    let longest = words.iter().map(|w| w.0.chars().count()).max().unwrap_or(0);
    crate::bytes::framed(
        MAGIC,
        &[VERSION, words.len() as u32, key_bytes as u32, gloss_bytes as u32, unknown_cost, longest as u32],
        body,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        encode(
            100,
            &[
                ("打开", 20, false, "to open"),
                ("打", 30, false, "to beat; to strike"),
                ("开", 30, false, "to open; to start"),
                ("的", 5, true, "of"),
            ],
        )
    }

    #[test]
    fn a_written_glossary_reads_back_its_words() {
        let glossary = Glossary::from_bytes(sample()).unwrap();
        assert_eq!((glossary.words(), glossary.longest(), glossary.unknown_cost()), (4, 2, 100));
        let open = glossary.word("打开").unwrap();
        assert_eq!((glossary.gloss(open), glossary.cost(open), glossary.is_function(open)), ("to open", 20, false));
        assert!(glossary.is_function(glossary.word("的").unwrap()));
        assert_eq!(glossary.lookup("打"), Lookup::Word(glossary.word("打").unwrap(), true));
        assert_eq!(glossary.lookup("开"), Lookup::Word(glossary.word("开").unwrap(), false));
        assert_eq!(glossary.lookup("打开了"), Lookup::Nothing);
        assert_eq!(glossary.lookup("天"), Lookup::Nothing);
        assert_eq!(glossary.lookup(""), Lookup::Prefix, "every word begins with nothing");
    }

    #[test]
    fn a_prefix_of_a_word_is_told_from_a_word() {
        let glossary = Glossary::from_bytes(encode(9, &[("拉取请求", 1, false, "pull request")])).unwrap();
        assert_eq!(glossary.lookup("拉取"), Lookup::Prefix);
        assert_eq!(glossary.lookup("拉取请求"), Lookup::Word(0, false));
        assert_eq!(glossary.lookup("取"), Lookup::Nothing);
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let good = sample();
        let message = |bytes: Vec<u8>| Glossary::from_bytes(bytes).unwrap_err().to_string();
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(matches!(Glossary::from_bytes(flipped), Err(GlossaryError::Checksum { .. })));
        assert!(message(good[..good.len() - 1].to_vec()).contains("where the header describes"));
        assert!(message(good[..HEADER - 1].to_vec()).contains("header"));
        let mut version = good.clone();
        version[8] = 2;
        assert!(message(version).contains("format version 2"));
        let mut magic = good.clone();
        magic[..8].copy_from_slice(b"DSHTSEMB");
        assert!(message(magic).contains("does not start with the glossary header"));
        assert!(message(b"not a glossary at all, not even close".to_vec()).contains("header"));
        let mut huge = good.clone();
        huge[12..16].copy_from_slice(&(MAX_WORDS as u32 + 1).to_le_bytes());
        assert!(message(huge).contains("outside what the format takes"));
        let mut long = good.clone();
        long[28..32].copy_from_slice(&(MAX_WORD_CHARS as u32 + 1).to_le_bytes());
        assert!(message(long).contains("outside what the format takes"));
        let mut short = good;
        short[28..32].copy_from_slice(&3u32.to_le_bytes());
        assert!(message(short).contains("the longest key has 2 characters"));
    }

    #[test]
    fn bad_words_are_refused_with_a_reason() {
        let message = |words: &[(&str, u32, bool, &str)]| {
            Glossary::from_bytes(encode_in_order(100, words)).unwrap_err().to_string()
        };
        assert!(message(&[("打", 1, false, "beat"), ("开", 1, false, "open")]).contains("strictly increasing"));
        assert!(message(&[("打", 1, false, "beat"), ("打", 1, false, "beat")]).contains("strictly increasing"));
        assert!(message(&[("open", 1, false, "open")]).contains("not a word of CJK characters"));
        assert!(message(&[("", 1, false, "nothing"), ("打", 1, false, "beat")]).contains("a key is empty"));
        assert!(message(&[("打", 1, false, "")]).contains("a gloss is empty"));
        assert!(message(&[("打", 101, false, "beat")]).contains("costs more than an unknown character"));
        let mut flags = encode_in_order(100, &[("打", 1, false, "beat")]);
        let at = HEADER + 2 + 4;
        flags[at] = 2;
        let checksum = fnv1a(&flags[HEADER..]);
        flags[32..40].copy_from_slice(&checksum.to_le_bytes());
        assert!(Glossary::from_bytes(flags).unwrap_err().to_string().contains("flags this build does not know"));
        let mut gloss = encode_in_order(100, &[("打", 1, false, "b")]);
        *gloss.last_mut().unwrap() = 0xFF;
        let checksum = fnv1a(&gloss[HEADER..]);
        gloss[32..40].copy_from_slice(&checksum.to_le_bytes());
        assert!(Glossary::from_bytes(gloss).unwrap_err().to_string().contains("not UTF-8"));
    }

    #[test]
    fn an_oversized_or_missing_file_is_refused_before_it_is_read() {
        let dir = std::env::temp_dir().join(format!("dsh-tool-search-glossary-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.bin");
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(MAX_GLOSSARY_BYTES + 1).unwrap();
        assert_eq!(Glossary::from_file(&path).err(), Some(GlossaryError::TooLarge(MAX_GLOSSARY_BYTES + 1)));
        assert!(matches!(Glossary::from_file(&dir.join("missing.bin")), Err(GlossaryError::Io(_))));
        std::fs::remove_dir_all(&dir).unwrap();
        let bytes = vec![0; MAX_GLOSSARY_BYTES as usize + 1];
        assert_eq!(Glossary::from_bytes(bytes).err(), Some(GlossaryError::TooLarge(MAX_GLOSSARY_BYTES + 1)));
    }

    #[test]
    fn the_shipped_glossary_reads() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("model/glossary.bin");
        let glossary = Glossary::from_file(&path).unwrap();
        assert!(glossary.words() > 50_000, "{glossary:?}");
        let request = glossary.word("请求").unwrap();
        assert!(glossary.gloss(request).contains("request"), "{}", glossary.gloss(request));
        assert!(glossary.is_function(glossary.word("的").unwrap()));
        assert!(!glossary.is_function(request));
    }
}
