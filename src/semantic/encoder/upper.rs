//! A file of upper layers: the layers of an encoder trained from another with everything below
//! them frozen, and the checksum of that other encoder's file.
//!
//! The query reader (`encoder-query.bin`, docs/model.md) is such an encoder:
//! its word table, embeddings and two lower layers are the shipped transformer's bytes, so only
//! its four upper layers are its own. Shipping those alone keeps the package a third smaller, and
//! naming the encoder they stand on keeps them from being stacked on one they were not trained
//! with. `model/build/encoder.py --query` writes it.
//!
//! ```text
//! offset  size  field
//! 0       8     magic "DSHTSUPL"
//! 8       4     format version (1)
//! 12      4     hidden: values per token state (the base's)
//! 16      4     intermediate: width of the feed-forward layer (the base's)
//! 20      4     first: the index of the first layer it replaces
//! 24      4     layers: how many it holds, every layer of the base from `first` on
//! 28      8     base: the checksum of the encoder file it was trained from
//! 36      8     FNV-1a 64 of every byte after the header
//! 44            the layers, each as the encoder file lays one out
//! ```

use std::sync::Arc;

use super::file::{layer_bytes, Layer, Reader, Weights};
use crate::bytes::{fnv1a, u32_at, u64_at};
use crate::semantic::model::ModelError;

const MAGIC: &[u8; 8] = b"DSHTSUPL";
const VERSION: u32 = 1;
const HEADER: usize = 44;

/// The upper layers of a file, checked against the encoder they are to stand on, and the file's
/// checksum.
pub(super) fn parse(bytes: &[u8], base: &Weights, base_checksum: u64) -> Result<(Vec<Arc<Layer>>, u64), ModelError> {
    let malformed = |why: String| ModelError::Malformed(why);
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err(malformed("it does not start with the header of a file of upper layers".into()));
    }
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(malformed(format!("format version {version}, this build reads version {VERSION}")));
    }
    let field = |i: usize| u32_at(bytes, 12 + 4 * i) as usize;
    let (hidden, intermediate, first, layers) = (field(0), field(1), field(2), field(3));
    let trained_from = u64_at(bytes, 28);
    if trained_from != base_checksum {
        return Err(malformed(format!(
            "its layers were trained on the encoder {trained_from:016x}, not on this one ({base_checksum:016x})"
        )));
    }
    // Checked against the base, which bounds every size, before anything is allocated.
    if hidden != base.hidden
        || intermediate != base.intermediate
        || layers == 0
        || first.checked_add(layers) != Some(base.layers.len())
    {
        return Err(malformed(format!(
            "layers {first} to {} of {hidden} values, {intermediate} intermediate, do not fit the encoder they name",
            first as u64 + layers as u64
        )));
    }
    let expected_len = HEADER as u64 + layers as u64 * layer_bytes(hidden as u64, intermediate as u64);
    if bytes.len() as u64 != expected_len {
        return Err(malformed(format!("{} bytes where the header describes {expected_len}", bytes.len())));
    }
    let expected = u64_at(bytes, 36);
    let found = fnv1a(&bytes[HEADER..]);
    if found != expected {
        return Err(ModelError::Checksum { expected, found });
    }
    let mut body = Reader { bytes: &bytes[HEADER..] };
    let upper = body.layers(layers, hidden, intermediate)?;
    body.finish()?;
    Ok((upper, found))
}

/// A file of `layers` upper layers for the encoder `base_checksum` names, from `first` on, with
/// the given widths and the body `layers_bytes`, for tests (the real writer is
/// `model/build/encoder.py`).
#[cfg(test)]
pub(super) fn encode(
    [hidden, intermediate, first, layers]: [usize; 4],
    base_checksum: u64,
    layers_bytes: &[u8],
) -> Vec<u8> {
    let mut file = MAGIC.to_vec();
    file.extend_from_slice(&VERSION.to_le_bytes());
    for size in [hidden, intermediate, first, layers] {
        file.extend_from_slice(&(size as u32).to_le_bytes());
    }
    file.extend_from_slice(&base_checksum.to_le_bytes());
    file.extend_from_slice(&fnv1a(layers_bytes).to_le_bytes());
    file.extend_from_slice(layers_bytes);
    file
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::{file, Encoder};
    use super::*;

    const TOKENS: [&str; 4] = ["[PAD]", "[UNK]", "a", "##b"];
    /// Hidden, layers, heads, intermediate, positions.
    const SMALL: [usize; 5] = [8, 3, 1, 16, 6];
    const IDS: [u32; 5] = [0, 1, 2, 3, 2];

    fn base() -> (Encoder, Vec<u8>) {
        let file = file::encode(&TOKENS, SMALL);
        (Encoder::from_bytes(file.clone()).unwrap(), file)
    }

    /// The last `count` layers of `file`, as bytes.
    fn last_layers(file: &[u8], count: usize) -> Vec<u8> {
        file[file.len() - count * layer_bytes(8, 16) as usize..].to_vec()
    }

    #[test]
    fn the_upper_layers_replace_the_bases_and_share_the_rest() {
        let (base, file) = base();
        let mut own = last_layers(&file, 2);
        own.iter_mut().step_by(7).for_each(|b| *b ^= 0x15);
        let reader = base.with_upper_layers(&encode([8, 16, 1, 2], base.checksum(), &own)).unwrap();
        assert!(Arc::ptr_eq(&reader.weights.words, &base.weights.words));
        let shared: Vec<bool> =
            reader.weights.layers.iter().zip(&base.weights.layers).map(|(a, b)| Arc::ptr_eq(a, b)).collect();
        assert_eq!(shared, [true, false, false]);
        assert_ne!(reader.embed_ids(&IDS), base.embed_ids(&IDS));
        assert!(reader.vocab().eq(base.vocab()));

        // The base's own layers, stacked on it, give the base's vectors: the splice is in place.
        let same = base.with_upper_layers(&encode([8, 16, 1, 2], base.checksum(), &last_layers(&file, 2))).unwrap();
        assert_eq!(same.embed_ids(&IDS), base.embed_ids(&IDS));
    }

    #[test]
    fn layers_that_do_not_fit_their_base_are_refused() {
        let (base, file) = base();
        let one = last_layers(&file, 1);
        let refused = |bytes: Vec<u8>| base.with_upper_layers(&bytes).unwrap_err().to_string();
        assert!(refused(encode([8, 16, 2, 1], base.checksum() ^ 1, &one)).contains("trained on the encoder"));
        assert!(refused(encode([8, 16, 1, 1], base.checksum(), &one)).contains("do not fit"));
        assert!(refused(encode([8, 16, 3, 0], base.checksum(), &[])).contains("do not fit"));
        assert!(refused(encode([16, 16, 2, 1], base.checksum(), &one)).contains("do not fit"));
        assert!(refused(encode([8, 16, u32::MAX as usize, 4], base.checksum(), &one)).contains("do not fit"));
        assert!(refused(encode([8, 16, 2, 1], base.checksum(), &one[1..])).contains("where the header describes"));
        let mut damaged = encode([8, 16, 2, 1], base.checksum(), &one);
        *damaged.last_mut().unwrap() ^= 1;
        assert!(refused(damaged).contains("damaged"));
        assert!(refused(file.clone()).contains("header of a file of upper layers"));
        let mut later = encode([8, 16, 2, 1], base.checksum(), &one);
        later[8] = 2;
        assert!(refused(later).contains("format version 2"));
    }

    /// Whatever a header byte is, the file is refused or stacks, without a panic.
    #[test]
    fn any_header_byte_is_refused_or_stacks() {
        let (base, file) = base();
        let good = encode([8, 16, 2, 1], base.checksum(), &last_layers(&file, 1));
        for at in 8..HEADER {
            for value in [0x00, 0x01, 0x7f, 0x80, 0xff] {
                let mut bytes = good.clone();
                bytes[at] = value;
                if let Ok(reader) = base.with_upper_layers(&bytes) {
                    assert!(reader.embed_ids(&IDS).iter().all(|x| x.is_finite()), "byte {at} = {value:#x}");
                }
            }
        }
    }

    #[test]
    fn the_query_reader_stands_on_the_shipped_transformer() {
        let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("model");
        let shipped = Encoder::from_file(&models.join("encoder.bin")).unwrap();
        let reader = shipped.with_upper_layers(&std::fs::read(models.join("encoder-query.bin")).unwrap()).unwrap();
        let shared: Vec<bool> =
            reader.weights.layers.iter().zip(&shipped.weights.layers).map(|(a, b)| Arc::ptr_eq(a, b)).collect();
        // recipe-reader.json freezes the two lower layers; the four it trained are the file's.
        assert_eq!(shared, [true, true, false, false, false, false]);
        let probe = [101, 2023, 4130, 5227, 102];
        assert_ne!(reader.embed_ids(&probe), shipped.embed_ids(&probe));
    }
}
