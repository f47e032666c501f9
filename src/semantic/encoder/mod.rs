//! The sentence encoder: all-MiniLM-L6-v2, a 6-layer BERT, run in plain Rust.
//!
//! Where the static model (`model`) gives a word one vector whatever surrounds it, the encoder
//! reads a whole token sequence, so "open a pull request" and "close an issue" differ by more
//! than their words. It takes WordPiece ids (the tokenizer is elsewhere) and returns the
//! L2-normalised mean of the last layer's states, as sentence-transformers does.
//!
//! The result must be the same bits on every machine, so that an index built on one embeds
//! queries like the index built on another: the weights are bytes with float scales (`file`), the
//! matrix products are exact integer sums of bytes (`int8`), the float loops between them run in
//! one order (`float`) and the transcendental functions are ours (`math`). The products have a
//! portable loop and runtime-detected AVX2 and AVX-512 VNNI ones, each pass (`forward`) compiled
//! for its loop's features; all give the same bits.

mod file;
mod float;
mod forward;
mod int8;
mod math;
mod upper;

use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::LazyLock;

use super::model::{read_file, ModelError};
use int8::Sums;

/// A loaded encoder: the vocabulary and the weights.
pub struct Encoder {
    texts: String,
    /// Start of each token in `texts`, and one past the last token's end.
    starts: Vec<u32>,
    unknown: u32,
    weights: file::Weights,
    checksum: u64,
}

impl fmt::Debug for Encoder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = &self.weights;
        write!(
            f,
            "Encoder {{ {} tokens, {} layers of {}, checksum {:016x} }}",
            self.starts.len() - 1,
            w.layers.len(),
            w.hidden,
            self.checksum
        )
    }
}

impl Encoder {
    /// Reads and checks an encoder file. Its size is checked before anything is read.
    pub fn from_file(path: &Path) -> Result<Encoder, ModelError> {
        Encoder::from_bytes(read_file(path)?)
    }

    /// Checks an encoder's bytes: header, sizes (before anything is allocated), checksum, tokens.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Encoder, ModelError> {
        let file::Parsed { texts, starts, unknown, weights, checksum } = file::parse(&bytes)?;
        Ok(Encoder { texts, starts, unknown, weights, checksum })
    }

    /// Values per vector.
    pub fn dims(&self) -> usize {
        self.weights.hidden
    }

    /// The checksum of the file, which names this encoder.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// Most ids a sequence takes; [`Encoder::embed_ids`] reads no further.
    pub fn max_tokens(&self) -> usize {
        self.weights.positions
    }

    /// The WordPiece tokens in id order, for the tokenizer to map text to ids with.
    pub fn vocab(&self) -> impl Iterator<Item = &str> {
        self.starts.windows(2).map(|w| &self.texts[w[0] as usize..w[1] as usize])
    }

    /// This encoder with its upper layers replaced by those of a file of upper layers trained
    /// from it (`upper`). The word table and the lower layers are this encoder's, shared rather
    /// than copied; the vocabulary and the position rows, under a megabyte, are copied.
    pub fn with_upper_layers(&self, bytes: &[u8]) -> Result<Encoder, ModelError> {
        let (upper, checksum) = upper::parse(bytes, &self.weights, self.checksum)?;
        let mut weights = self.weights.clone();
        let first = weights.layers.len() - upper.len();
        weights.layers.splice(first.., upper);
        Ok(Encoder { texts: self.texts.clone(), starts: self.starts.clone(), unknown: self.unknown, weights, checksum })
    }

    /// Which loop this machine's matrix products run: "avx512-vnni", "avx2" or "portable".
    pub fn kernels(&self) -> &'static str {
        Sums::detect().name()
    }

    /// The unit-length sentence vector of `ids` (with their `[CLS]` and `[SEP]`). Ids past
    /// [`Encoder::max_tokens`] are left out and an id outside the vocabulary reads as `[UNK]`, so
    /// any slice gives a vector; an empty one gives the zero vector.
    pub fn embed_ids(&self, ids: &[u32]) -> Vec<f32> {
        forward::run(Sums::detect(), &self.weights, ids, self.unknown, 1)
    }

    /// [`Encoder::embed_ids`] on two threads when the CPU has a core to spare, for a vector
    /// someone waits for: the same bits in about half the time. With as many passes in flight as
    /// the cores can take two threads each, it takes one: the cores are busy already, and the
    /// second thread would only add its hand-offs.
    pub fn embed_ids_now(&self, ids: &[u32]) -> Vec<f32> {
        let others = IN_FLIGHT.fetch_add(1, Ordering::AcqRel);
        let _done = InFlight;
        let threads = if (others + 1) * 2 <= *CORES { 2 } else { 1 };
        forward::run(Sums::detect(), &self.weights, ids, self.unknown, threads)
    }
}

/// Passes of [`Encoder::embed_ids_now`] running now, in every thread of the process.
static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);

/// The cores the process may use (1 where the system will not say).
static CORES: LazyLock<usize> = LazyLock::new(|| std::thread::available_parallelism().map_or(1, usize::from));

/// Counts a pass out of [`IN_FLIGHT`] when it ends, a panic included.
struct InFlight;

impl Drop for InFlight {
    fn drop(&mut self) {
        IN_FLIGHT.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytes::fnv1a;
    use crate::Json;
    use std::sync::OnceLock;

    fn shipped() -> &'static Encoder {
        static ENCODER: OnceLock<Encoder> = OnceLock::new();
        ENCODER.get_or_init(|| {
            Encoder::from_file(&Path::new(env!("CARGO_MANIFEST_DIR")).join("model/encoder.bin")).unwrap()
        })
    }

    /// The fixture's (ids, expected vector) pairs.
    fn fixture() -> Vec<(Vec<u32>, Vec<f32>)> {
        let text = include_str!("testdata/vectors.json");
        let json = Json::parse(text).unwrap();
        let numbers = |id| -> Vec<f64> {
            json.items(id)
                .unwrap()
                .iter()
                .map(|&n| if let crate::Node::Number(v) = json.node(n) { *v } else { panic!("not a number") })
                .collect()
        };
        let cases = json.get(json.root(), "cases").unwrap();
        json.items(cases)
            .unwrap()
            .iter()
            .map(|&case| {
                let ids = numbers(json.get(case, "ids").unwrap()).into_iter().map(|v| v as u32).collect();
                let vector = numbers(json.get(case, "embedding").unwrap()).into_iter().map(|v| v as f32).collect();
                (ids, vector)
            })
            .collect()
    }

    /// The fixture is a float64 forward pass over the same weights: what the integer products
    /// (a byte per input, see `int8`) cost against exact arithmetic. Under 1e-3 of cosine, where
    /// two tools' vectors differ by far more (their cosine rarely passes 0.9).
    #[test]
    fn the_shipped_encoder_stays_near_the_float64_reference() {
        let encoder = shipped();
        assert_eq!((encoder.dims(), encoder.max_tokens()), (384, 512));
        assert_eq!(encoder.vocab().count(), 30522);
        assert_eq!(encoder.vocab().nth(101), Some("[CLS]"));
        let cases = fixture();
        assert!(cases.iter().any(|c| c.0.len() == 2) && cases.iter().any(|c| c.0.len() == 128));
        for (ids, expected) in cases {
            let got = encoder.embed_ids(&ids);
            let cosine: f64 = got.iter().zip(&expected).map(|(&g, &e)| f64::from(g) * f64::from(e)).sum();
            assert!(cosine > 0.999, "{} tokens: cosine {cosine}", ids.len());
        }
    }

    /// The vector loops are only faster: every one this CPU has gives the portable loop's bits,
    /// the float steps between the products included.
    #[test]
    fn every_pass_gives_the_portable_bits() {
        let encoder = shipped();
        let mut compared = Vec::new();
        for how in other_loops() {
            if !how.available() {
                continue;
            }
            compared.push(how.name());
            for (ids, _) in fixture() {
                let portable = forward::run(Sums::Portable, &encoder.weights, &ids, encoder.unknown, 1);
                let other = forward::run(how, &encoder.weights, &ids, encoder.unknown, 1);
                assert!(
                    portable.iter().zip(&other).all(|(p, o)| p.to_bits() == o.to_bits()),
                    "{} at {} tokens",
                    how.name(),
                    ids.len()
                );
            }
        }
        eprintln!("compared: {compared:?}");
    }

    /// A pass shared by two threads gives one thread's bits, whichever loop, at every length
    /// from a single token to the model's limit (odd ones split unevenly).
    #[test]
    fn two_threads_give_one_threads_bits() {
        let encoder = shipped();
        let ids: Vec<u32> = (0..600).map(|i| 1000 + i * 37 % 20000).collect();
        for how in [Sums::Portable].into_iter().chain(other_loops()).filter(|how| how.available()) {
            for tokens in [1, 7, 8, 9, 12, 33, 128, 600] {
                let one = forward::run(how, &encoder.weights, &ids[..tokens], encoder.unknown, 1);
                let two = forward::run(how, &encoder.weights, &ids[..tokens], encoder.unknown, 2);
                assert!(
                    one.iter().zip(&two).all(|(a, b)| a.to_bits() == b.to_bits()),
                    "{} at {tokens} tokens",
                    how.name()
                );
            }
        }
    }

    fn other_loops() -> Vec<Sums> {
        #[cfg(target_arch = "x86_64")]
        return vec![Sums::Avx2, Sums::Vnni];
        #[cfg(not(target_arch = "x86_64"))]
        return Vec::new();
    }

    /// The cross-platform check: these are the bits every machine must produce for two fixture
    /// sequences (on any CPU, either copy of the pass). A change here means vectors built on one
    /// machine no longer match queries embedded on another; only a deliberate change to the
    /// arithmetic or the file may change it, and it then changes the constant.
    #[test]
    fn embeddings_have_pinned_bits() {
        let encoder = shipped();
        let cases = fixture();
        let mut bytes = Vec::new();
        for ids in [&cases[3].0, &cases[7].0] {
            for v in encoder.embed_ids(ids) {
                bytes.extend_from_slice(&v.to_bits().to_le_bytes());
            }
        }
        assert_eq!(format!("{:016x}", fnv1a(&bytes)), "1fdd5b8879e535d7");
    }

    #[test]
    fn any_ids_give_a_vector() {
        let encoder = shipped();
        assert_eq!(encoder.embed_ids(&[]), vec![0.0; 384]);
        let unknown = encoder.embed_ids(&[101, 100, 102]);
        assert_eq!(encoder.embed_ids(&[101, 30522, 102]), unknown);
        assert_eq!(encoder.embed_ids(&[101, u32::MAX, 102]), unknown);
    }

    #[test]
    fn a_truncated_copy_of_the_shipped_file_is_refused() {
        let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("model/encoder.bin")).unwrap();
        let error = Encoder::from_bytes(bytes[..bytes.len() - 1000].to_vec()).unwrap_err();
        assert!(error.to_string().contains("where the header describes"), "{error}");
    }

    const TOKENS: [&str; 4] = ["[PAD]", "[UNK]", "a", "##b"];
    /// hidden, layers, heads, intermediate, positions.
    const SMALL: [usize; 5] = [8, 2, 1, 16, 6];

    /// Also where cutting at the positions is tested: a sequence past 512 on the shipped encoder
    /// is costly to run in a test, and the cut is the same code at any size.
    #[test]
    fn a_small_written_encoder_reads_back_and_embeds() {
        let encoder = Encoder::from_bytes(file::encode(&TOKENS, SMALL)).unwrap();
        assert_eq!(encoder.vocab().collect::<Vec<_>>(), TOKENS);
        assert_eq!((encoder.dims(), encoder.max_tokens()), (8, 6));
        let v = encoder.embed_ids(&[2, 3, 9, 2, 3, 2, 3, 3]);
        assert_eq!(v, encoder.embed_ids(&[2, 3, 1, 2, 3, 2]));
        assert!((v.iter().map(|x| x * x).sum::<f32>() - 1.0).abs() < 1e-5, "{v:?}");
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let good = file::encode(&TOKENS, SMALL);
        let refused = |bytes: Vec<u8>| Encoder::from_bytes(bytes).unwrap_err().to_string();
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(refused(flipped).contains("checksum"));
        let mut extra = good.clone();
        extra.push(0);
        assert!(refused(extra).contains("where the header describes"));
        let mut magic = good.clone();
        magic[..8].copy_from_slice(b"DSHTSEMB");
        assert!(refused(magic).contains("header"));
        let mut version = good.clone();
        version[8] = 2;
        assert!(refused(version).contains("format version 2"));
        // Every prefix, the header's included, is refused without a panic.
        for len in 0..good.len() {
            assert!(Encoder::from_bytes(good[..len].to_vec()).is_err(), "a prefix of {len} bytes was taken");
        }
    }

    #[test]
    fn sizes_outside_the_format_are_refused_before_allocating() {
        let body = &file::encode(&TOKENS, SMALL)[48..];
        let [hidden, layers, heads, intermediate, positions] = SMALL;
        let vocab_bytes = 14;
        for (sizes, why) in [
            ([4, u32::MAX as usize, layers, heads, intermediate, positions, vocab_bytes], "outside"),
            ([4, hidden, layers, 3, intermediate, positions, vocab_bytes], "outside"),
            ([4, 16, layers, 4, intermediate, positions, vocab_bytes], "outside"),
            ([4, 12, layers, heads, intermediate, positions, vocab_bytes], "outside"),
            ([4, hidden, layers, heads, 20, positions, vocab_bytes], "outside"),
            ([4, hidden, 100_000, heads, intermediate, positions, vocab_bytes], "outside"),
            ([4, hidden, layers, heads, intermediate, 0, vocab_bytes], "outside"),
            ([1_000_000, 4096, 64, 64, 16384, 4096, vocab_bytes], "where the header describes"),
        ] {
            let error = Encoder::from_bytes(file::with_header(body, sizes)).unwrap_err().to_string();
            assert!(error.contains(why), "{sizes:?}: {error}");
        }
    }

    #[test]
    fn bad_vocabularies_and_weights_are_refused() {
        for (tokens, why) in [(["[PAD]", "", "a"], "empty"), (["[PAD]", "a", "b"], "no [UNK]")] {
            let error = Encoder::from_bytes(file::encode(&tokens, SMALL)).unwrap_err().to_string();
            assert!(error.contains(why), "{tokens:?}: {error}");
        }
        // "[PAD]" is token 0, so body byte 4 is the first of its text: a lone continuation byte.
        assert!(overwritten(4, &[0x80]).contains("token 0 is not UTF-8"));
        // The first word scale, after the 4 lengths and 14 bytes of token text.
        assert!(overwritten(18, &f32::NAN.to_le_bytes()).contains("finite"));
    }

    /// A file whose checksum matches may still hold anything: whatever a body byte is, the file
    /// is refused or it embeds, to a finite vector, without a panic.
    #[test]
    fn any_body_byte_is_refused_or_embeds() {
        let file = file::encode(&TOKENS, SMALL);
        let sizes = header_sizes(&file);
        for at in 48..file.len() {
            for value in [0x00, 0x7f, 0x80, 0xff] {
                let mut body = file[48..].to_vec();
                body[at - 48] = value;
                if let Ok(encoder) = Encoder::from_bytes(file::with_header(&body, sizes)) {
                    let v = encoder.embed_ids(&[0, 1, 2, 3, 4, 3, 2]);
                    assert!(v.iter().all(|x| x.is_finite()), "byte {at} = {value:#x}");
                }
            }
        }
    }

    /// Why the small file is refused with `bytes` written at `at` in its body, under a header
    /// whose checksum matches, so the check reached is the one meant.
    fn overwritten(at: usize, bytes: &[u8]) -> String {
        let file = file::encode(&TOKENS, SMALL);
        let mut body = file[48..].to_vec();
        body[at..at + bytes.len()].copy_from_slice(bytes);
        Encoder::from_bytes(file::with_header(&body, header_sizes(&file))).unwrap_err().to_string()
    }

    fn header_sizes(file: &[u8]) -> [usize; 7] {
        std::array::from_fn(|i| crate::bytes::u32_at(file, 12 + 4 * i) as usize)
    }
}
