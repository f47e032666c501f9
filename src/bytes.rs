//! The byte helpers of the crate's binary files (the word table, the transformer, the glossary and
//! the vector cache): little-endian integers at an offset, the checksum every file carries, and
//! the frame the tests write files in. A module of its own so that each reader imports it, not the
//! reader of another file.

pub(crate) fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

pub(crate) fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// FNV-1a, 64 bits: enough to tell a damaged or truncated download from the file that was built.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// A file's frame around `body`, for tests: the magic, the header's little-endian fields, the
/// body's checksum, the body. The word table and the glossary share it.
#[cfg(test)]
pub(crate) fn framed(magic: &[u8], fields: &[u32], body: Vec<u8>) -> Vec<u8> {
    let mut file = magic.to_vec();
    for value in fields {
        file.extend_from_slice(&value.to_le_bytes());
    }
    file.extend_from_slice(&fnv1a(&body).to_le_bytes());
    file.extend(body);
    file
}
