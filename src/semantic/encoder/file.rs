//! The encoder file: a BERT sentence encoder (all-MiniLM-L6-v2) at a byte per weight.
//!
//! Ours, like the static model's (`model.rs`): a header whose sizes are checked against maxima
//! and against the file's length before anything is allocated, an FNV-1a checksum, the WordPiece
//! vocabulary, then the tensors in a fixed order. `model/build/encoder.py` writes it.
//!
//! ```text
//! offset  size          field
//! 0       8             magic "DSHTSENC"
//! 8       4             format version (1)
//! 12      4             vocab: tokens (1..=1,000,000)
//! 16      4             hidden: values per token state (8..=4096, a multiple of 8)
//! 20      4             layers (1..=64)
//! 24      4             heads: attention heads (they divide hidden, into multiples of 8)
//! 28      4             intermediate: width of the feed-forward layer (8..=16384, a multiple of 8)
//! 32      4             positions: most tokens a sequence takes (1..=4096)
//! 36      4             vocab bytes: total length of the token texts
//! 40      8             FNV-1a 64 of every byte after the header
//! 48      vocab         each token's length in bytes (1..=255)
//! ...     vocab bytes   the tokens, UTF-8, in id order
//! ...                   the tensors:
//!   table     word embeddings, vocab rows
//!   table     position embeddings, positions rows
//!   f32       token type 0 embedding, hidden
//!   norm      embedding LayerNorm
//!   layers times:
//!     linear  query, hidden -> hidden
//!     linear  key, hidden -> hidden
//!     linear  value, hidden -> hidden
//!     linear  attention output, hidden -> hidden
//!     norm    attention LayerNorm
//!     linear  intermediate, hidden -> intermediate
//!     linear  output, intermediate -> hidden
//!     norm    output LayerNorm
//! table  (rows): f32 scale per row [rows], then i8 values [rows][hidden]
//! linear (in -> out): i8 weights [in][out], f32 scale per output column [out], f32 bias [out]
//! norm: f32 gamma [hidden], f32 beta [hidden]
//! ```
//! All integers and floats are little-endian. A weight is its byte times its scale; y = xW + b.
//! The reader packs each matrix in the order the integer products read it (`int8`). The LayerNorm
//! epsilon (1e-12) and GELU are the architecture's, not the file's. Every float must be finite.
//! The widths are whole multiples of 8 (`STEP`), so no loop of the pass has a remainder.

use std::sync::Arc;

use super::int8::{Linear, BLOCK};
use crate::bytes::{fnv1a, u32_at, u64_at};
use crate::semantic::model::ModelError;

/// Every width of the format (hidden, a head, intermediate) is a whole multiple of this, so no
/// loop of the pass has a remainder: the products' blocks of columns and the attention's vector
/// steps are this wide.
pub(super) const STEP: usize = 8;
const _: () = assert!(STEP.is_multiple_of(BLOCK));

const MAGIC: &[u8; 8] = b"DSHTSENC";
const VERSION: u32 = 1;
const HEADER: usize = 48;
/// Bounds on a header's sizes: far above MiniLM's (30522, 384, 6, 12, 1536, 512), low enough
/// that no header can ask the reader or a forward pass for an absurd allocation.
const MAX_VOCAB: usize = 1_000_000;
const MAX_HIDDEN: usize = 4096;
const MAX_LAYERS: usize = 64;
const MAX_INTERMEDIATE: usize = 16384;
const MAX_POSITIONS: usize = 4096;
/// The token an id outside the vocabulary stands for; the vocabulary must have it.
const UNKNOWN: &str = "[UNK]";

/// The header's sizes.
#[derive(Clone, Copy)]
struct Sizes {
    vocab: usize,
    hidden: usize,
    layers: usize,
    heads: usize,
    intermediate: usize,
    positions: usize,
    vocab_bytes: usize,
}

impl Sizes {
    /// Length of the tensors, in u64: until it matches the file, the header is anyone's numbers.
    fn tensor_bytes(&self) -> u64 {
        let [vocab, hidden, layers, intermediate, positions] =
            [self.vocab, self.hidden, self.layers, self.intermediate, self.positions].map(|n| n as u64);
        let table = |rows: u64| rows * 4 + rows * hidden;
        table(vocab) + table(positions) + hidden * 4 + hidden * 8 + layers * layer_bytes(hidden, intermediate)
    }
}

/// Length of one layer's tensors, in u64 (a layer of the format below).
pub(super) fn layer_bytes(hidden: u64, intermediate: u64) -> u64 {
    let linear = |inputs: u64, outputs: u64| inputs * outputs + outputs * 8;
    let norm = hidden * 8;
    4 * linear(hidden, hidden) + linear(hidden, intermediate) + linear(intermediate, hidden) + 2 * norm
}

/// An embedding table: a row of bytes per token or position, a scale per row.
#[derive(Clone)]
pub(super) struct Table {
    pub(super) scales: Vec<f32>,
    pub(super) values: Vec<i8>,
}

#[derive(Clone)]
pub(super) struct Norm {
    pub(super) gamma: Vec<f32>,
    pub(super) beta: Vec<f32>,
}

pub(super) struct Layer {
    pub(super) query: Linear,
    pub(super) key: Linear,
    pub(super) value: Linear,
    pub(super) attention_out: Linear,
    pub(super) attention_norm: Norm,
    pub(super) intermediate: Linear,
    pub(super) output: Linear,
    pub(super) output_norm: Norm,
}

/// Everything a forward pass reads. The word table and the layers are shared: an encoder read
/// from a file of upper layers (`upper`) holds the lower ones of the encoder it was trained from.
#[derive(Clone)]
pub(super) struct Weights {
    pub(super) hidden: usize,
    pub(super) heads: usize,
    pub(super) intermediate: usize,
    pub(super) positions: usize,
    pub(super) words: Arc<Table>,
    pub(super) position_rows: Table,
    pub(super) token_type: Vec<f32>,
    pub(super) embedding_norm: Norm,
    pub(super) layers: Vec<Arc<Layer>>,
}

/// A checked file: the vocabulary (texts and where each starts) and the weights.
pub(super) struct Parsed {
    pub(super) texts: String,
    /// Start of each token in `texts`, and one past the last token's end.
    pub(super) starts: Vec<u32>,
    pub(super) unknown: u32,
    pub(super) weights: Weights,
    pub(super) checksum: u64,
}

pub(super) fn parse(bytes: &[u8]) -> Result<Parsed, ModelError> {
    let malformed = |why: &str| ModelError::Malformed(why.to_string());
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err(malformed("it does not start with the encoder header"));
    }
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(ModelError::Malformed(format!("format version {version}, this build reads version {VERSION}")));
    }
    let field = |i: usize| u32_at(bytes, 12 + 4 * i) as usize;
    let sizes = Sizes {
        vocab: field(0),
        hidden: field(1),
        layers: field(2),
        heads: field(3),
        intermediate: field(4),
        positions: field(5),
        vocab_bytes: field(6),
    };
    let within = |n: usize, max: usize| (1..=max).contains(&n);
    if !(within(sizes.vocab, MAX_VOCAB)
        && within(sizes.hidden, MAX_HIDDEN)
        && within(sizes.layers, MAX_LAYERS)
        && sizes.hidden.is_multiple_of(STEP)
        && sizes.intermediate.is_multiple_of(STEP)
        && within(sizes.heads, sizes.hidden)
        && sizes.hidden.is_multiple_of(sizes.heads)
        && (sizes.hidden / sizes.heads).is_multiple_of(STEP)
        && within(sizes.intermediate, MAX_INTERMEDIATE)
        && within(sizes.positions, MAX_POSITIONS))
    {
        return Err(ModelError::Malformed(format!(
            "{} tokens, {} layers of {} values in {} heads, {} intermediate, {} positions is outside what the format takes",
            sizes.vocab, sizes.layers, sizes.hidden, sizes.heads, sizes.intermediate, sizes.positions
        )));
    }
    let expected_len = (HEADER + sizes.vocab) as u64 + sizes.vocab_bytes as u64 + sizes.tensor_bytes();
    if bytes.len() as u64 != expected_len {
        return Err(ModelError::Malformed(format!("{} bytes where the header describes {expected_len}", bytes.len())));
    }
    let expected = u64_at(bytes, 40);
    let found = fnv1a(&bytes[HEADER..]);
    if found != expected {
        return Err(ModelError::Checksum { expected, found });
    }

    let mut body = Reader { bytes: &bytes[HEADER..] };
    let lengths = body.take(sizes.vocab)?;
    let texts = body.take(sizes.vocab_bytes)?;
    let mut starts = Vec::with_capacity(sizes.vocab + 1);
    let mut unknown = None;
    let mut at = 0;
    for (id, &len) in lengths.iter().enumerate() {
        let token =
            texts.get(at..at + len as usize).ok_or_else(|| malformed("the token lengths run past the token bytes"))?;
        if len == 0 {
            return Err(malformed("a token is empty"));
        }
        let token =
            std::str::from_utf8(token).map_err(|_| ModelError::Malformed(format!("token {id} is not UTF-8")))?;
        if unknown.is_none() && token == UNKNOWN {
            unknown = Some(id as u32);
        }
        starts.push(at as u32);
        at += len as usize;
    }
    if at != sizes.vocab_bytes {
        return Err(malformed("the token lengths do not add up to the token bytes"));
    }
    starts.push(at as u32);
    let unknown = unknown.ok_or_else(|| ModelError::Malformed(format!("the vocabulary has no {UNKNOWN} token")))?;
    // Valid token by token, so valid as a whole.
    let texts = String::from_utf8(texts.to_vec()).map_err(|_| malformed("the tokens are not UTF-8"))?;

    let Sizes { vocab, hidden, intermediate, positions, .. } = sizes;
    let weights = Weights {
        hidden,
        heads: sizes.heads,
        intermediate,
        positions,
        words: Arc::new(body.table(vocab, hidden)?),
        position_rows: body.table(positions, hidden)?,
        token_type: body.floats(hidden)?,
        embedding_norm: body.norm(hidden)?,
        layers: body.layers(sizes.layers, hidden, intermediate)?,
    };
    body.finish()?;
    Ok(Parsed { texts, starts, unknown, weights, checksum: found })
}

/// The body, read front to back in the order the format lists.
pub(super) struct Reader<'a> {
    pub(super) bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    /// `count` layers of the given widths, each kept where several encoders can share it.
    pub(super) fn layers(
        &mut self,
        count: usize,
        hidden: usize,
        intermediate: usize,
    ) -> Result<Vec<Arc<Layer>>, ModelError> {
        (0..count)
            .map(|_| {
                Ok(Arc::new(Layer {
                    query: self.linear(hidden, hidden)?,
                    key: self.linear(hidden, hidden)?,
                    value: self.linear(hidden, hidden)?,
                    attention_out: self.linear(hidden, hidden)?,
                    attention_norm: self.norm(hidden)?,
                    intermediate: self.linear(hidden, intermediate)?,
                    output: self.linear(intermediate, hidden)?,
                    output_norm: self.norm(hidden)?,
                }))
            })
            .collect()
    }

    /// Nothing may follow the last tensor.
    pub(super) fn finish(&self) -> Result<(), ModelError> {
        if self.bytes.is_empty() {
            Ok(())
        } else {
            Err(ModelError::Malformed("bytes are left after the last tensor".to_string()))
        }
    }

    fn take(&mut self, len: usize) -> Result<&'a [u8], ModelError> {
        if len > self.bytes.len() {
            return Err(ModelError::Malformed("the tensors run past the end of the file".to_string()));
        }
        let (taken, rest) = self.bytes.split_at(len);
        self.bytes = rest;
        Ok(taken)
    }

    fn bytes(&mut self, len: usize) -> Result<Vec<i8>, ModelError> {
        Ok(self.take(len)?.iter().map(|&b| b as i8).collect())
    }

    /// Finite floats only: one NaN would turn every vector the encoder makes into NaNs.
    fn floats(&mut self, len: usize) -> Result<Vec<f32>, ModelError> {
        let floats: Vec<f32> =
            self.take(4 * len)?.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        if floats.iter().all(|f| f.is_finite()) {
            Ok(floats)
        } else {
            Err(ModelError::Malformed("a weight is not a finite number".to_string()))
        }
    }

    fn table(&mut self, rows: usize, width: usize) -> Result<Table, ModelError> {
        Ok(Table { scales: self.floats(rows)?, values: self.bytes(rows * width)? })
    }

    fn linear(&mut self, inputs: usize, outputs: usize) -> Result<Linear, ModelError> {
        let weights = self.bytes(inputs * outputs)?;
        Ok(Linear::new(inputs, outputs, &weights, self.floats(outputs)?, self.floats(outputs)?))
    }

    fn norm(&mut self, width: usize) -> Result<Norm, ModelError> {
        Ok(Norm { gamma: self.floats(width)?, beta: self.floats(width)? })
    }
}

/// A file of `tokens` with the given sizes (hidden, layers, heads, intermediate, positions) and
/// tensors of small pseudo-random bytes, for tests. Bytes under 0x40 make every f32 finite and
/// under 1 in size and every i8 in 0..64, so any layout of the tensor section is a sane model;
/// the real writer is `model/build/encoder.py`.
#[cfg(test)]
pub(super) fn encode(tokens: &[&str], [hidden, layers, heads, intermediate, positions]: [usize; 5]) -> Vec<u8> {
    let vocab_bytes = tokens.iter().map(|t| t.len()).sum();
    let sizes = Sizes { vocab: tokens.len(), hidden, layers, heads, intermediate, positions, vocab_bytes };
    let mut body: Vec<u8> = tokens.iter().map(|t| t.len() as u8).collect();
    for token in tokens {
        body.extend_from_slice(token.as_bytes());
    }
    let mut state: u32 = 0x9e37_79b9;
    body.extend((0..sizes.tensor_bytes()).map(|_| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        (state >> 24) as u8 & 0x3f
    }));
    with_header(&body, [tokens.len(), hidden, layers, heads, intermediate, positions, vocab_bytes])
}

/// A header for `body` with the given sizes and the body's checksum, so a test can change a size
/// or a byte and still reach the check it means to.
#[cfg(test)]
pub(super) fn with_header(body: &[u8], sizes: [usize; 7]) -> Vec<u8> {
    let mut file = MAGIC.to_vec();
    file.extend_from_slice(&VERSION.to_le_bytes());
    for size in sizes {
        file.extend_from_slice(&(size as u32).to_le_bytes());
    }
    file.extend_from_slice(&fnv1a(body).to_le_bytes());
    file.extend_from_slice(body);
    file
}
