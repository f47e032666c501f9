//! The model file: a static embedding table keyed by analysis terms.
//!
//! The format is ours and small on purpose: a header, the terms in byte order (so a lookup is a
//! binary search and loading builds nothing but an offset table), one fixed-point weight per term
//! and one row of signed bytes per term. Every value is an integer, so what a text embeds to is
//! the same on every machine. `model/build/` writes it; nothing else does.
//!
//! ```text
//! offset  size            field
//! 0       8               magic "DSHTSEMB"
//! 8       4               format version (1)
//! 12      4               dims: values per row (1..=1024)
//! 16      4               terms: rows in the table (1..=2,000,000)
//! 20      4               term bytes: total length of the term texts
//! 24      8               FNV-1a 64 of every byte after the header
//! 32      terms           each term's length in bytes (1..=255)
//! ...     term bytes      the terms, UTF-8, strictly increasing in byte order
//! ...     2 * terms       each row's weight, u16
//! ...     dims * terms    the rows, i8
//! ```
//! All integers are little-endian. A row's contribution to an embedding is its values times its
//! weight: the weight keeps how much a word counts (a frequent, vague word weighs little), the
//! row keeps its direction at a byte per value.

use std::fmt;
use std::path::Path;

use crate::bytes::{fnv1a, u32_at, u64_at};

const MAGIC: &[u8; 8] = b"DSHTSEMB";
const VERSION: u32 = 1;
const HEADER: usize = 32;
/// Widest row the format takes; real models use a few hundred values.
pub const MAX_DIMS: usize = 1024;
/// Most rows the format takes: far above a vocabulary of English stems, low enough that a
/// header cannot ask for an absurd offset table.
pub const MAX_TERMS: usize = 2_000_000;
/// Largest model file read, checked before the file is read.
pub const MAX_MODEL_BYTES: u64 = 256 * 1024 * 1024;

/// Why a model file was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelError {
    Io(String),
    TooLarge(u64),
    Malformed(String),
    Checksum { expected: u64, found: u64 },
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io(error) => write!(f, "cannot read the model file: {error}"),
            Self::TooLarge(bytes) => write!(f, "the model file is {bytes} bytes; the limit is {MAX_MODEL_BYTES} bytes"),
            Self::Malformed(why) => write!(f, "the model file is not a dsh-tool-search model: {why}"),
            Self::Checksum { expected, found } => {
                write!(f, "the model file is damaged: its checksum is {found:016x}, its header says {expected:016x}")
            }
        }
    }
}

/// A loaded model: the term texts with where each starts, the weights and the rows.
pub struct Model {
    dims: usize,
    texts: Vec<u8>,
    /// Start of each term in `texts`, and one past the last term's end.
    term_starts: Vec<u32>,
    weights: Vec<u16>,
    rows: Vec<i8>,
    checksum: u64,
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Model {{ {} terms of {} values, checksum {:016x} }}", self.terms(), self.dims, self.checksum)
    }
}

impl Model {
    /// Reads and checks a model file. Its size is checked before anything is read.
    pub fn from_file(path: &Path) -> Result<Model, ModelError> {
        Model::from_bytes(read_file(path)?)
    }

    /// Checks a model's bytes: header, sizes, checksum, term order.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Model, ModelError> {
        let malformed = |why: &str| ModelError::Malformed(why.to_string());
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(malformed("it does not start with the model header"));
        }
        let version = u32_at(&bytes, 8);
        if version != VERSION {
            return Err(ModelError::Malformed(format!("format version {version}, this build reads version {VERSION}")));
        }
        let dims = u32_at(&bytes, 12) as usize;
        let terms = u32_at(&bytes, 16) as usize;
        let term_bytes = u32_at(&bytes, 20) as usize;
        if dims == 0 || dims > MAX_DIMS || terms == 0 || terms > MAX_TERMS {
            return Err(ModelError::Malformed(format!(
                "{terms} rows of {dims} values is outside what the format takes"
            )));
        }
        // In u64: the header's sizes are anyone's numbers until they match the file.
        let expected_len = (HEADER + 3 * terms) as u64 + term_bytes as u64 + (dims * terms) as u64;
        if bytes.len() as u64 != expected_len {
            return Err(ModelError::Malformed(format!(
                "{} bytes where the header describes {expected_len}",
                bytes.len()
            )));
        }
        let expected = u64_at(&bytes, 24);
        let found = fnv1a(&bytes[HEADER..]);
        if found != expected {
            return Err(ModelError::Checksum { expected, found });
        }
        let mut term_starts = Vec::with_capacity(terms + 1);
        let mut at = 0;
        for &len in &bytes[HEADER..HEADER + terms] {
            if len == 0 {
                return Err(malformed("a term is empty"));
            }
            term_starts.push(at as u32);
            at += len as usize;
        }
        if at != term_bytes {
            return Err(malformed("the term lengths do not add up to the term bytes"));
        }
        term_starts.push(at as u32);
        let texts_at = HEADER + terms;
        let weights_at = texts_at + term_bytes;
        let rows_at = weights_at + 2 * terms;
        let model = Model {
            dims,
            texts: bytes[texts_at..weights_at].to_vec(),
            term_starts,
            weights: bytes[weights_at..rows_at].chunks_exact(2).map(|w| u16::from_le_bytes([w[0], w[1]])).collect(),
            rows: bytes[rows_at..].iter().map(|&b| b as i8).collect(),
            checksum: found,
        };
        for i in 0..terms {
            let text = std::str::from_utf8(model.term_bytes(i)).map_err(|_| malformed("a term is not UTF-8"))?;
            if i > 0 && model.term_bytes(i - 1) >= text.as_bytes() {
                return Err(ModelError::Malformed(format!(
                    "the terms are not in strictly increasing order at {text:?}"
                )));
            }
        }
        Ok(model)
    }

    /// Values per row.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// Rows in the table.
    pub fn terms(&self) -> usize {
        self.term_starts.len() - 1
    }

    /// The checksum of the table, which names this model.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// The weight and row of `term`, if the model has one.
    pub(crate) fn row(&self, term: &str) -> Option<(u16, &[i8])> {
        let i = self.find(term.as_bytes())?;
        Some((self.weights[i], &self.rows[i * self.dims..(i + 1) * self.dims]))
    }

    fn find(&self, term: &[u8]) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.terms());
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.term_bytes(mid).cmp(term) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    fn term_bytes(&self, i: usize) -> &[u8] {
        &self.texts[self.term_starts[i] as usize..self.term_starts[i + 1] as usize]
    }
}

/// A model file's bytes, its size checked against [`MAX_MODEL_BYTES`] before it is read, so a
/// wrong path cannot make the process read a disk image into memory.
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, ModelError> {
    let size = std::fs::metadata(path).map_err(|e| ModelError::Io(e.to_string()))?.len();
    if size > MAX_MODEL_BYTES {
        return Err(ModelError::TooLarge(size));
    }
    std::fs::read(path).map_err(|e| ModelError::Io(e.to_string()))
}

/// A model file written from rows in memory, in byte order of their terms, for tests (the real
/// writer is `model/build/`).
#[cfg(test)]
pub(crate) fn encode(dims: usize, rows: &[(&str, u16, Vec<i8>)]) -> Vec<u8> {
    let mut rows = rows.to_vec();
    rows.sort_by(|a, b| a.0.cmp(b.0));
    encode_in_order(dims, &rows)
}

#[cfg(test)]
fn encode_in_order(dims: usize, rows: &[(&str, u16, Vec<i8>)]) -> Vec<u8> {
    let mut body = Vec::new();
    body.extend(rows.iter().map(|r| r.0.len() as u8));
    for r in rows {
        body.extend_from_slice(r.0.as_bytes());
    }
    for r in rows {
        body.extend_from_slice(&r.1.to_le_bytes());
    }
    for r in rows {
        assert_eq!(r.2.len(), dims);
        body.extend(r.2.iter().map(|&v| v as u8));
    }
    let term_bytes: usize = rows.iter().map(|r| r.0.len()).sum();
    crate::bytes::framed(MAGIC, &[VERSION, dims as u32, rows.len() as u32, term_bytes as u32], body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        encode(
            3,
            &[("weather", 1000, vec![1, 2, 3]), ("forecast", 500, vec![-1, 0, 127]), ("citi", 7, vec![0, -128, 5])],
        )
    }

    #[test]
    fn a_written_model_reads_back_its_rows() {
        let model = Model::from_bytes(sample()).unwrap();
        assert_eq!((model.dims(), model.terms()), (3, 3));
        assert_eq!(model.row("forecast"), Some((500, &[-1i8, 0, 127][..])));
        assert_eq!(model.row("citi"), Some((7, &[0i8, -128, 5][..])));
        assert_eq!(model.row("weather"), Some((1000, &[1i8, 2, 3][..])));
        assert_eq!(model.row("rain"), None);
        assert_eq!(model.row(""), None);
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let good = sample();
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(matches!(Model::from_bytes(flipped), Err(ModelError::Checksum { .. })));
        let truncated = good[..good.len() - 1].to_vec();
        assert!(Model::from_bytes(truncated).unwrap_err().to_string().contains("where the header describes"));
        let mut version = good.clone();
        version[8] = 2;
        assert!(Model::from_bytes(version).unwrap_err().to_string().contains("format version 2"));
        assert!(Model::from_bytes(b"not a model".to_vec()).unwrap_err().to_string().contains("header"));
        let mut huge = good.clone();
        huge[12..16].copy_from_slice(&(MAX_DIMS as u32 + 1).to_le_bytes());
        assert!(Model::from_bytes(huge).unwrap_err().to_string().contains("outside what the format takes"));
    }

    #[test]
    fn terms_out_of_order_or_repeated_are_refused() {
        for terms in [["forecast", "citi"], ["citi", "citi"]] {
            let file = encode_in_order(1, &[(terms[0], 1, vec![1]), (terms[1], 1, vec![1])]);
            assert!(Model::from_bytes(file).unwrap_err().to_string().contains("strictly increasing"), "{terms:?}");
        }
        let empty = encode_in_order(1, &[("", 1, vec![1])]);
        assert!(Model::from_bytes(empty).unwrap_err().to_string().contains("empty"));
    }

    #[test]
    fn an_oversized_file_is_refused_before_it_is_read() {
        let dir = std::env::temp_dir().join(format!("dsh-tool-search-model-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.bin");
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(MAX_MODEL_BYTES + 1).unwrap();
        assert_eq!(Model::from_file(&path).err(), Some(ModelError::TooLarge(MAX_MODEL_BYTES + 1)));
        assert!(matches!(Model::from_file(&dir.join("missing.bin")), Err(ModelError::Io(_))));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
