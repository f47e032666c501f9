//! A fast hasher for the index's string-keyed maps.
//!
//! The default SipHash guards against collision attacks on inputs from the network; here keys
//! are words of a local tool catalog, and hashing them was a tenth of the index build time. This
//! is the multiply-rotate hash rustc uses for its own tables (FxHash), which is all a word needs.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default, Clone, Copy)]
pub struct WordHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl WordHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().unwrap_or_default()));
        }
        let mut tail = [0u8; 8];
        tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        self.add(u64::from_le_bytes(tail));
    }

    fn write_u8(&mut self, n: u8) {
        self.add(n as u64);
    }

    fn write_u32(&mut self, n: u32) {
        self.add(n as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    /// Rotated, as rustc-hash 2 does: the multiply leaves the low bits depending only on the low
    /// bits of each word, and the table picks buckets by the low bits, so names that differ only
    /// after a shared start (`mcp__server__tool_1`, `_2`, ...) piled into a few buckets: 100,000
    /// of them took ten times as long to index as names of other shapes.
    fn finish(&self) -> u64 {
        self.hash.rotate_left(26)
    }
}

pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;
pub type FastSet<K> = HashSet<K, BuildHasherDefault<WordHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash_of(value: impl Hash) -> u64 {
        BuildHasherDefault::<WordHasher>::default().hash_one(value)
    }

    #[test]
    fn equal_keys_hash_equal_and_near_keys_differ() {
        assert_eq!(hash_of("weather"), hash_of(String::from("weather")));
        let words = ["a", "b", "ab", "ba", "weather", "weathe", "weatherr", "", "abcdefgh", "abcdefghi"];
        let hashes: FastSet<u64> = words.iter().map(hash_of).collect();
        assert_eq!(hashes.len(), words.len());
    }

    #[test]
    fn names_sharing_a_start_spread_over_the_low_bits_that_pick_buckets() {
        let buckets: FastSet<u64> = (0..4096).map(|i| hash_of(format!("mcp__server__tool_{i}")) & 4095).collect();
        // Uniform hashing fills about 63% of 4096 buckets with 4096 keys.
        assert!(buckets.len() > 2400, "{} of 4096 buckets used", buckets.len());
    }

    #[test]
    fn maps_work_as_maps() {
        let mut map: FastMap<String, u32> = FastMap::default();
        for (i, word) in ["x", "y", "z", "x"].iter().enumerate() {
            map.insert(word.to_string(), i as u32);
        }
        assert_eq!((map.len(), map["x"], map["y"]), (3, 3, 1));
    }
}
