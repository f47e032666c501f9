//! The transformer's tool vectors on disk, keyed by their text, so that a new process (DSH
//! started again, the command line run again) has the vectors of every tool it has embedded
//! before at once, where embedding 1,000 tools takes the background worker a quarter of a minute.
//!
//! One file per way of embedding in the directory the host names (`vectors-<fingerprint>.bin`):
//! a header, then fixed-size records appended as the worker embeds. Only the worker reads and
//! writes it, off the caller's thread.
//!
//! ```text
//! header   magic "DSHTSVEC", format version u32, dims u32, fingerprint u64
//! record   text FNV-1a u64, text length u32, 0 u32, dims f32, FNV-1a u64 of the bytes before it
//! ```
//!
//! It is only ever a shortcut: a record that fails its checksum, or holds a vector no encoder
//! gives (not finite, not of unit length), is skipped; a file that is damaged, too large or from
//! another build is started again; a directory that cannot be written to means no cache. The
//! vectors it holds are the bits the encoder gives on every machine, so a cached vector ranks as
//! a computed one would. The fingerprint is the hash of the vector the encoder gives a fixed text
//! (`Contextual::fingerprint`): another model, tokenizer, token limit or arithmetic gives another,
//! so a build that embeds differently never reads an older one's vectors.

use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use rustc_hash::FxHashSet;

use super::model::fnv1a;

const MAGIC: &[u8; 8] = b"DSHTSVEC";
const VERSION: u32 = 1;
const HEADER: usize = 24;
/// Records a file holds at most: as many as the process remembers, 31 MB at MiniLM's 384 values.
pub(crate) const MAX_RECORDS: usize = 20_000;
/// Records written before the buffer goes to the file, so a process that is stopped mid-catalog
/// keeps most of what it embedded.
const FLUSH_EVERY: usize = 64;

/// The directory the host named, if any.
static DIR: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Names the directory vector files go in (`None`: no cache). It need not exist yet.
pub fn set_dir(dir: Option<PathBuf>) {
    *DIR.lock().unwrap_or_else(PoisonError::into_inner) = dir;
}

/// The directory named now.
pub(crate) fn dir() -> Option<PathBuf> {
    DIR.lock().unwrap_or_else(PoisonError::into_inner).clone()
}

/// What a vector is filed under: its text's FNV-1a and length, so the file need not hold texts.
/// Two texts share a key with a chance of about one in 10^19 per pair.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct TextKey {
    hash: u64,
    len: u32,
}

impl TextKey {
    pub(crate) fn of(text: &str) -> TextKey {
        TextKey { hash: fnv1a(text.as_bytes()), len: text.len() as u32 }
    }
}

/// One model's file, open for appending.
pub(crate) struct VectorFile {
    path: PathBuf,
    dims: usize,
    records: usize,
    out: BufWriter<File>,
    unflushed: usize,
}

impl VectorFile {
    /// Opens `dir`'s file for `dims`-value vectors made the way `fingerprint` names. A file that cannot
    /// be appended to as it is (a torn record at its end, another build's header, over the
    /// bound) is written again with its sound records first. `None` when the directory cannot be
    /// written to.
    pub(crate) fn open(dir: &Path, fingerprint: u64, dims: usize) -> Option<VectorFile> {
        let path = dir.join(format!("vectors-{fingerprint:016x}.bin"));
        let header = header(fingerprint, dims);
        let record = record_len(dims);
        let mut head = Vec::new();
        let length = File::open(&path).and_then(|file| {
            let length = file.metadata()?.len();
            file.take(HEADER as u64).read_to_end(&mut head)?;
            Ok(length)
        });
        let whole =
            |length: u64| head == header && length <= limit(dims) && (length as usize - HEADER).is_multiple_of(record);
        let records = match length {
            Ok(length) if whole(length) => (length as usize - HEADER) / record,
            _ => {
                let sound = if head == header { read_records(&path, dims, |_| true) } else { Vec::new() };
                rewrite(dir, &path, &header, &sound).ok()?;
                sound.len()
            }
        };
        let file = OpenOptions::new().append(true).open(&path).ok()?;
        Some(VectorFile { path, dims, records, out: BufWriter::new(file), unflushed: 0 })
    }

    /// The sound records of the keys in `wanted`: only those are kept, so a process holds the
    /// vectors of the catalogs it ranks, not every one the file has.
    pub(crate) fn find(&mut self, wanted: &FxHashSet<TextKey>) -> Vec<(TextKey, Vec<f32>)> {
        self.flush();
        read_records(&self.path, self.dims, |key| wanted.contains(&key))
    }

    /// Appends a vector, until the file holds [`MAX_RECORDS`]. A failed write is dropped: the
    /// file's next reader skips what it left.
    pub(crate) fn append(&mut self, key: TextKey, vector: &[f32]) {
        if self.records >= MAX_RECORDS || vector.len() != self.dims {
            return;
        }
        let _ = self.out.write_all(&record_bytes(key, vector));
        self.records += 1;
        self.unflushed += 1;
        if self.unflushed >= FLUSH_EVERY {
            self.flush();
        }
    }

    pub(crate) fn flush(&mut self) {
        let _ = self.out.flush();
        self.unflushed = 0;
    }
}

impl Drop for VectorFile {
    fn drop(&mut self) {
        self.flush();
    }
}

fn header(fingerprint: u64, dims: usize) -> Vec<u8> {
    let mut header = Vec::with_capacity(HEADER);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&VERSION.to_le_bytes());
    header.extend_from_slice(&(dims as u32).to_le_bytes());
    header.extend_from_slice(&fingerprint.to_le_bytes());
    header
}

fn record_len(dims: usize) -> usize {
    16 + dims * 4 + 8
}

fn record_bytes(key: TextKey, vector: &[f32]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(record_len(vector.len()));
    bytes.extend_from_slice(&key.hash.to_le_bytes());
    bytes.extend_from_slice(&key.len.to_le_bytes());
    bytes.extend_from_slice(&0u32.to_le_bytes());
    for v in vector {
        bytes.extend_from_slice(&v.to_bits().to_le_bytes());
    }
    let check = fnv1a(&bytes);
    bytes.extend_from_slice(&check.to_le_bytes());
    bytes
}

/// Most bytes a file of `dims`-value vectors may have.
fn limit(dims: usize) -> u64 {
    (HEADER + MAX_RECORDS * record_len(dims)) as u64
}

/// The sound records of `path` whose key `keep` takes, reading at most [`limit`] bytes.
fn read_records(path: &Path, dims: usize, keep: impl Fn(TextKey) -> bool) -> Vec<(TextKey, Vec<f32>)> {
    let mut bytes = Vec::new();
    if File::open(path).and_then(|file| file.take(limit(dims)).read_to_end(&mut bytes)).is_err() || bytes.len() < HEADER
    {
        return Vec::new();
    }
    bytes[HEADER..]
        .chunks(record_len(dims))
        .filter(|bytes| bytes.len() >= 16 && keep(key_of(bytes)))
        .filter_map(|bytes| parse_record(bytes, dims))
        .collect()
}

fn key_of(record: &[u8]) -> TextKey {
    TextKey { hash: u64_le(&record[..8]), len: u32::from_le_bytes([record[8], record[9], record[10], record[11]]) }
}

/// A record's key and vector, when its checksum holds and the vector is one the encoder gives:
/// finite, and of unit length or all zero.
fn parse_record(bytes: &[u8], dims: usize) -> Option<(TextKey, Vec<f32>)> {
    let record = record_len(dims);
    if bytes.len() != record || u64_le(&bytes[record - 8..]) != fnv1a(&bytes[..record - 8]) {
        return None;
    }
    let key = key_of(bytes);
    let vector: Vec<f32> =
        bytes[16..record - 8].chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    let norm: f64 = vector.iter().map(|&v| f64::from(v) * f64::from(v)).sum();
    let unit = (norm - 1.0).abs() < 1e-3 || vector.iter().all(|&v| v == 0.0);
    (vector.iter().all(|v| v.is_finite()) && unit).then_some((key, vector))
}

fn u64_le(bytes: &[u8]) -> u64 {
    let mut le = [0u8; 8];
    le.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(le)
}

/// Writes the file afresh, beside it and then in its place, so a reader never sees half of it.
fn rewrite(dir: &Path, path: &Path, header: &[u8], records: &[(TextKey, Vec<f32>)]) -> std::io::Result<()> {
    fs::create_dir_all(dir)?;
    let fresh = path.with_extension(format!("{}.tmp", std::process::id()));
    let mut out = BufWriter::new(File::create(&fresh)?);
    out.write_all(header)?;
    for (key, vector) in records {
        out.write_all(&record_bytes(*key, vector))?;
    }
    out.into_inner().map_err(|error| error.into_error())?.sync_all()?;
    fs::rename(&fresh, path).inspect_err(|_| {
        let _ = fs::remove_file(&fresh);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(dims: usize, at: usize) -> Vec<f32> {
        (0..dims).map(|i| if i == at { 1.0 } else { 0.0 }).collect()
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("dsh-tool-search-cache-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    /// What a new opening of the file finds of `texts`' vectors.
    fn read_back(dir: &Path, fingerprint: u64, dims: usize, texts: &[&str]) -> Vec<(TextKey, Vec<f32>)> {
        let wanted = texts.iter().map(|text| TextKey::of(text)).collect();
        VectorFile::open(dir, fingerprint, dims).expect("a writable directory").find(&wanted)
    }

    fn filed(dir: &Path, fingerprint: u64, dims: usize, vectors: &[(&str, Vec<f32>)]) {
        let mut file = VectorFile::open(dir, fingerprint, dims).unwrap();
        for (text, vector) in vectors {
            file.append(TextKey::of(text), vector);
        }
    }

    fn only_file(dir: &Path) -> PathBuf {
        let files: Vec<_> = fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().path()).collect();
        assert_eq!(files.len(), 1, "{files:?}");
        files[0].clone()
    }

    #[test]
    fn vectors_written_by_one_opening_are_found_by_the_next() {
        let dir = scratch("round-trip");
        filed(&dir, 7, 4, &[("a", unit(4, 0)), ("b", unit(4, 3)), ("c", unit(4, 1))]);
        assert_eq!(
            read_back(&dir, 7, 4, &["a", "b", "z"]),
            [(TextKey::of("a"), unit(4, 0)), (TextKey::of("b"), unit(4, 3))]
        );
        // Vectors made another way, or of another width, are not these.
        assert!(read_back(&dir, 8, 4, &["a"]).is_empty());
        assert!(read_back(&dir, 7, 8, &["a"]).is_empty());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn damaged_records_are_skipped_and_a_torn_file_is_written_again() {
        let dir = scratch("damaged");
        filed(&dir, 1, 4, &[("a", unit(4, 0)), ("b", unit(4, 1)), ("c", unit(4, 2))]);
        let path = only_file(&dir);
        let mut bytes = fs::read(&path).unwrap();
        let record = record_len(4);
        bytes[HEADER + record + 20] ^= 0x40; // the second record's vector
        bytes.extend_from_slice(&[1, 2, 3]); // a torn append
        fs::write(&path, &bytes).unwrap();
        let found = read_back(&dir, 1, 4, &["a", "b", "c"]);
        assert_eq!(found.iter().map(|(key, _)| *key).collect::<Vec<_>>(), [TextKey::of("a"), TextKey::of("c")]);
        assert_eq!(
            fs::metadata(&path).unwrap().len() as usize,
            HEADER + 2 * record,
            "written again with the sound records"
        );
        // A vector no encoder gives is refused even under a good checksum.
        filed(&dir, 1, 4, &[("long", vec![2.0, 0.0, 0.0, 0.0]), ("nan", vec![f32::NAN, 0.0, 0.0, 0.0])]);
        assert!(read_back(&dir, 1, 4, &["long", "nan"]).is_empty());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn any_file_is_read_without_a_panic_and_a_full_one_takes_no_more() {
        let dir = scratch("hostile");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("vectors-{:016x}.bin", 3));
        for bytes in [vec![], b"DSHTSVEC".to_vec(), vec![0xff; 5000], header(3, 2)[..23].to_vec()] {
            fs::write(&path, &bytes).unwrap();
            assert!(read_back(&dir, 3, 2, &["a"]).is_empty());
            assert_eq!(fs::read(&path).unwrap(), header(3, 2), "started again");
        }
        let mut file = VectorFile::open(&dir, 3, 2).unwrap();
        file.records = MAX_RECORDS;
        file.append(TextKey::of("one too many"), &unit(2, 0));
        drop(file);
        assert!(read_back(&dir, 3, 2, &["one too many"]).is_empty());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_directory_that_cannot_be_made_means_no_cache() {
        let dir = scratch("blocked");
        fs::write(&dir, b"a file where the directory would be").unwrap();
        assert!(VectorFile::open(&dir.join("inside"), 1, 4).is_none());
        let _ = fs::remove_file(&dir);
    }
}
