//! The transformer's tool vectors on disk, keyed by their text, so that a new process (DSH
//! started again, the command line run again) has the vectors of every tool it has embedded
//! before at once, where embedding 1,000 tools takes the background worker seconds.
//!
//! One file per way of embedding in the directory the host names (`vectors-<fingerprint>.bin`):
//! a header, then fixed-size records appended as the worker embeds. Only the worker reads and
//! writes it, off the caller's thread.
//!
//! ```text
//! header   magic "DSHTSVEC", format version u32 (2), dims u32, fingerprint u64, key 16 bytes
//! record   text key u128, dims f32, FNV-1a u64 of the bytes before it
//! ```
//!
//! A record's key is its text's SipHash-2-4 (128 bits) under the file's own key, drawn from the
//! system's randomness when the file is made and kept in its header: whoever writes a tool's
//! description cannot know the key, so cannot write a text whose key another tool's text has
//! and have that tool read its vector. (With a public hash a crafted description could collide
//! on purpose, and a shared cache would hand the wrong vector to every process.)
//!
//! Several processes may share the directory (two `dsh` on one `$DSH_HOME`, the command line
//! beside DSH). Every change to the file is made under an exclusive lock on `vectors-
//! <fingerprint>.lock` beside it (an advisory lock, `File::lock`, which the system drops when a
//! process dies), and each is whole: a batch of whole records appended to the file as it is at
//! that moment (opened again for each batch, so one process's repair never strands another's
//! appends), or a repair (a torn record at the end cut off, a file over its bound cut to it, a
//! damaged or foreign header started again). Reads take the lock shared. So one process never
//! loses another's records, and never reads one written halfway; a record that fails its
//! checksum anyway (a damaged disk, a process killed mid-write where locks are not kept) is
//! skipped. What can be lost is documented in docs/model.md: the records a process had not yet
//! written when it stopped (at most [`FLUSH_EVERY`]), a batch that waited [`LOCK_WAIT`] for the
//! lock in vain or found locks unsupported where the file lives, and, when the file is full, the
//! records of texts no index of the writing process holds: a full file is compacted to those that
//! are (the live keys), so a long-used cache keeps the catalogs in use instead of refusing them.
//!
//! It is only ever a shortcut: a record that fails its checksum, or holds a vector no encoder
//! gives (not finite, not of unit length), is skipped; a directory that cannot be written to means
//! no cache. The vectors it holds are the bits the encoder gives on every machine, so a cached
//! vector ranks as a computed one would. The fingerprint is the hash of the vector the encoder
//! gives a fixed text (`Contextual::fingerprint`): another model, tokenizer, token limit or
//! arithmetic gives another, so a build that embeds differently never reads an older one's
//! vectors.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::hash::{BuildHasher, Hasher, RandomState};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use rustc_hash::FxHashSet;
use siphasher::sip128::{Hasher128, SipHasher24};

use crate::bytes::fnv1a;

const MAGIC: &[u8; 8] = b"DSHTSVEC";
const VERSION: u32 = 2;
const HEADER: usize = 40;
/// Where the header's key starts; the bytes before it name the file's kind.
const KEY_AT: usize = 24;
/// Records a file holds at most: 31 MB at MiniLM's 384 values. A full file is compacted to the
/// live keys before it takes more.
pub(crate) const MAX_RECORDS: usize = 20_000;
/// Records kept before they go to the file, so a process that is stopped mid-catalog keeps most
/// of what it embedded, and takes the lock once per batch.
const FLUSH_EVERY: usize = 64;
/// How long a batch waits for another process's lock (a repair takes milliseconds) before it is
/// dropped: a process that holds it longer is stuck, and this one's worker must go on.
const LOCK_WAIT: Duration = Duration::from_secs(10);

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

/// What a vector is filed under: its text's keyed hash (see the module's documentation), so the
/// file need not hold texts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct TextKey(u128);

/// A file's secret: the two halves of its SipHash key.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Secret([u64; 2]);

impl Secret {
    /// A new key from the system's randomness (std seeds `RandomState` from it).
    fn new() -> Secret {
        Secret([0u8, 1].map(|half| RandomState::new().hash_one(half)))
    }

    fn key(self, text: &str) -> TextKey {
        let mut hasher = SipHasher24::new_with_keys(self.0[0], self.0[1]);
        hasher.write(text.as_bytes());
        TextKey(hasher.finish128().as_u128())
    }

    fn bytes(self) -> [u8; 16] {
        let mut bytes = [0; 16];
        bytes[..8].copy_from_slice(&self.0[0].to_le_bytes());
        bytes[8..].copy_from_slice(&self.0[1].to_le_bytes());
        bytes
    }

    fn from_bytes(bytes: &[u8]) -> Secret {
        Secret([u64_le(&bytes[..8]), u64_le(&bytes[8..16])])
    }
}

/// One model's file, for finding vectors in and appending vectors to.
pub(crate) struct VectorFile {
    path: PathBuf,
    /// `vectors-<fingerprint>.lock`: never replaced, so every process locks the same file.
    lock: File,
    /// The header's first bytes, which name the kind of file (magic, version, dims, fingerprint).
    kind: Vec<u8>,
    /// The file's key, as its header had it when this process last read it.
    secret: Secret,
    dims: usize,
    /// Whole records not yet written, keyed under `secret`.
    pending: Vec<u8>,
}

impl VectorFile {
    /// Opens `dir`'s file for `dims`-value vectors made the way `fingerprint` names, repairing it
    /// first (see the module's documentation) and taking its key, or giving a new file one.
    /// `None` when the directory cannot be written to.
    pub(crate) fn open(dir: &Path, fingerprint: u64, dims: usize) -> Option<VectorFile> {
        fs::create_dir_all(dir).ok()?;
        let name = format!("vectors-{fingerprint:016x}");
        let lock =
            OpenOptions::new().create(true).truncate(false).write(true).open(dir.join(format!("{name}.lock"))).ok()?;
        let mut file = VectorFile {
            path: dir.join(format!("{name}.bin")),
            lock,
            kind: kind(fingerprint, dims),
            secret: Secret::new(),
            dims,
            pending: Vec::with_capacity(FLUSH_EVERY * record_len(dims)),
        };
        let held = Held::exclusive(&file.lock)?;
        repair(&file.path, &file.kind, &mut file.secret).ok()?;
        drop(held);
        Some(file)
    }

    /// What `text`'s vector is filed under in this file.
    pub(crate) fn key_of(&self, text: &str) -> TextKey {
        self.secret.key(text)
    }

    /// The sound records of the keys in `wanted`: only those are kept, so a process holds the
    /// vectors of the catalogs it ranks, not every one the file has. Nothing when the file has
    /// been started again under another key since `wanted` was made (its keys then name nothing).
    pub(crate) fn find(&mut self, wanted: &FxHashSet<TextKey>) -> Vec<(TextKey, Vec<f32>)> {
        self.flush(None);
        // Without the lock (another process stuck, or locks unsupported) the checksums still keep
        // out anything written halfway.
        let _held = Held::shared(&self.lock);
        let Ok(bytes) = read_file(&self.path, self.dims) else { return Vec::new() };
        if !bytes.starts_with(&self.kind) || bytes[KEY_AT..HEADER] != self.secret.bytes() {
            return Vec::new();
        }
        records(&bytes, self.dims).filter(|(key, _)| wanted.contains(key)).collect()
    }

    /// Keeps a vector for the file, until [`Self::flush`]; [`Self::due`] says when enough wait.
    pub(crate) fn append(&mut self, key: TextKey, vector: &[f32]) {
        if vector.len() == self.dims {
            self.pending.extend_from_slice(&record_bytes(key, vector));
        }
    }

    /// Whether [`FLUSH_EVERY`] records wait for the file.
    pub(crate) fn due(&self) -> bool {
        self.pending.len() >= FLUSH_EVERY * record_len(self.dims)
    }

    /// Writes the kept records to the file as it is now, under the lock. A file too full to take
    /// them is first compacted to the records whose key `live` takes, each once (with no `live`,
    /// not compacted); what still does not fit is dropped, as is a batch that cannot be written
    /// (the file is a shortcut) or whose keys are stale (the file was started again, under a new
    /// key, by another process).
    pub(crate) fn flush(&mut self, live: Option<&dyn Fn(TextKey) -> bool>) {
        if self.pending.is_empty() {
            return;
        }
        if let Some(_held) = Held::exclusive(&self.lock) {
            let keyed_under = self.secret;
            if let Ok((mut file, length)) = repair(&self.path, &self.kind, &mut self.secret) {
                if self.secret == keyed_under {
                    let _ = write_batch(&mut file, length, &self.pending, self.dims, live);
                }
            }
        }
        self.pending.clear();
    }
}

impl Drop for VectorFile {
    fn drop(&mut self) {
        self.flush(None);
    }
}

/// The file at `path`, opened now and made whole, and its length; the lock must be held
/// exclusively. A header of another kind (none yet, damaged, another format) starts the file
/// again under `secret`; a header of this kind gives `secret` its key; a file over the bound is
/// cut to it; a torn record at the end is cut off.
fn repair(path: &Path, kind: &[u8], secret: &mut Secret) -> std::io::Result<(File, u64)> {
    let mut file = OpenOptions::new().create(true).truncate(false).read(true).write(true).open(path)?;
    let mut head = Vec::with_capacity(HEADER);
    (&mut file).take(HEADER as u64).read_to_end(&mut head)?;
    let length = file.metadata()?.len();
    let dims = u32_le(&kind[12..16]) as usize;
    let record = record_len(dims) as u64;
    let whole = if head.len() == HEADER && head.starts_with(kind) {
        *secret = Secret::from_bytes(&head[KEY_AT..]);
        HEADER as u64 + (length.min(limit(dims)) - HEADER as u64) / record * record
    } else {
        file.set_len(0)?;
        file.seek(SeekFrom::Start(0))?;
        file.write_all(kind)?;
        file.write_all(&secret.bytes())?;
        HEADER as u64
    };
    if whole < file.metadata()?.len() {
        file.set_len(whole)?;
    }
    Ok((file, whole))
}

/// Appends `batch` (whole records) to `file`, a repaired file of `length` bytes, compacting it to
/// the live records first (given `live`) when they would not fit; as much of the batch as there
/// is room for.
fn write_batch(
    file: &mut File,
    mut length: u64,
    batch: &[u8],
    dims: usize,
    live: Option<&dyn Fn(TextKey) -> bool>,
) -> std::io::Result<()> {
    let record = record_len(dims) as u64;
    if let Some(live) = live.filter(|_| length + batch.len() as u64 > limit(dims)) {
        length = compact(file, length, dims, live)?;
    }
    let room = (limit(dims).saturating_sub(length) / record * record) as usize;
    let batch = &batch[..room.min(batch.len())];
    if !batch.is_empty() {
        file.seek(SeekFrom::Start(length))?;
        file.write_all(batch)?;
    }
    Ok(())
}

/// Rewrites `file` in place with its sound records whose key `live` takes, each once, and
/// returns its new length. A process killed halfway leaves whole records (some twice, which is
/// harmless) and at most a torn one, which the next repair cuts off.
fn compact(file: &mut File, length: u64, dims: usize, live: &dyn Fn(TextKey) -> bool) -> std::io::Result<u64> {
    let mut bytes = Vec::with_capacity(length as usize);
    file.seek(SeekFrom::Start(0))?;
    (&mut *file).take(length).read_to_end(&mut bytes)?;
    let mut seen = FxHashSet::default();
    let kept: Vec<u8> = bytes[HEADER.min(bytes.len())..]
        .chunks_exact(record_len(dims))
        .filter(|record| parse_record(record, dims).is_some_and(|(key, _)| live(key) && seen.insert(key)))
        .flatten()
        .copied()
        .collect();
    file.seek(SeekFrom::Start(HEADER as u64))?;
    file.write_all(&kept)?;
    let length = (HEADER + kept.len()) as u64;
    file.set_len(length)?;
    Ok(length)
}

/// The lock on a vector file's lock file, held until dropped.
struct Held<'f>(&'f File);

impl<'f> Held<'f> {
    /// The lock, exclusive; `None` when it cannot be had within [`LOCK_WAIT`] or is unsupported.
    fn exclusive(lock: &'f File) -> Option<Held<'f>> {
        Self::wait(lock, File::try_lock)
    }

    /// The lock, shared with other readers; `None` as for [`Self::exclusive`].
    fn shared(lock: &'f File) -> Option<Held<'f>> {
        Self::wait(lock, File::try_lock_shared)
    }

    /// Tries for [`LOCK_WAIT`]: a bounded wait, where `File::lock` would wait for ever on a
    /// process that never lets go.
    fn wait(lock: &'f File, attempt: fn(&File) -> Result<(), TryLockError>) -> Option<Held<'f>> {
        let started = Instant::now();
        loop {
            match attempt(lock) {
                Ok(()) => return Some(Held(lock)),
                Err(TryLockError::WouldBlock) if started.elapsed() < LOCK_WAIT => {
                    std::thread::sleep(Duration::from_millis(2))
                }
                Err(_) => return None,
            }
        }
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

/// The header's bytes before its key: what kind of file it is.
fn kind(fingerprint: u64, dims: usize) -> Vec<u8> {
    let mut kind = Vec::with_capacity(KEY_AT);
    kind.extend_from_slice(MAGIC);
    kind.extend_from_slice(&VERSION.to_le_bytes());
    kind.extend_from_slice(&(dims as u32).to_le_bytes());
    kind.extend_from_slice(&fingerprint.to_le_bytes());
    kind
}

fn record_len(dims: usize) -> usize {
    16 + dims * 4 + 8
}

fn record_bytes(key: TextKey, vector: &[f32]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(record_len(vector.len()));
    bytes.extend_from_slice(&key.0.to_le_bytes());
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

/// The file's bytes, at most [`limit`] of them.
fn read_file(path: &Path, dims: usize) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    File::open(path)?.take(limit(dims)).read_to_end(&mut bytes)?;
    if bytes.len() < HEADER {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    Ok(bytes)
}

/// The sound records of a file's bytes.
fn records(bytes: &[u8], dims: usize) -> impl Iterator<Item = (TextKey, Vec<f32>)> + '_ {
    bytes[HEADER..].chunks(record_len(dims)).filter_map(move |record| parse_record(record, dims))
}

/// A record's key and vector, when its checksum holds and the vector is one the encoder gives:
/// finite, and of unit length or all zero.
fn parse_record(bytes: &[u8], dims: usize) -> Option<(TextKey, Vec<f32>)> {
    let record = record_len(dims);
    if bytes.len() != record || u64_le(&bytes[record - 8..]) != fnv1a(&bytes[..record - 8]) {
        return None;
    }
    let key = TextKey(u128::from_le_bytes(bytes[..16].try_into().ok()?));
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

fn u32_le(bytes: &[u8]) -> u32 {
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
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

    /// What a new opening of the file finds of `texts`' vectors, by text, in file order.
    fn read_back(dir: &Path, fingerprint: u64, dims: usize, texts: &[&str]) -> Vec<(String, Vec<f32>)> {
        let mut file = VectorFile::open(dir, fingerprint, dims).expect("a writable directory");
        let keyed: Vec<(TextKey, &str)> = texts.iter().map(|&text| (file.key_of(text), text)).collect();
        let wanted = keyed.iter().map(|&(key, _)| key).collect();
        let text_of = |key: TextKey| keyed.iter().find(|&&(k, _)| k == key).unwrap().1.to_string();
        file.find(&wanted).into_iter().map(|(key, vector)| (text_of(key), vector)).collect()
    }

    fn filed(dir: &Path, fingerprint: u64, dims: usize, vectors: &[(&str, Vec<f32>)]) {
        let mut file = VectorFile::open(dir, fingerprint, dims).unwrap();
        for (text, vector) in vectors {
            file.append(file.key_of(text), vector);
        }
    }

    fn only_file(dir: &Path) -> PathBuf {
        let files: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "bin"))
            .collect();
        assert_eq!(files.len(), 1, "{files:?}");
        files[0].clone()
    }

    #[test]
    fn vectors_written_by_one_opening_are_found_by_the_next() {
        let dir = scratch("round-trip");
        filed(&dir, 7, 4, &[("a", unit(4, 0)), ("b", unit(4, 3)), ("c", unit(4, 1))]);
        assert_eq!(
            read_back(&dir, 7, 4, &["a", "b", "z"]),
            [("a".to_string(), unit(4, 0)), ("b".to_string(), unit(4, 3))]
        );
        // Vectors made another way, or of another width, are not these.
        assert!(read_back(&dir, 8, 4, &["a"]).is_empty());
        assert!(read_back(&dir, 7, 8, &["a"]).is_empty());
        let _ = fs::remove_dir_all(&dir);
    }

    /// Two texts of one length with one 64-bit FNV-1a (found by Pollard's rho in a few minutes),
    /// which the cache's first format filed under one key: a tool described by one read the
    /// other's vector, and so would every process sharing the cache. Under the file's secret key
    /// each keeps its own, and the same text has another key in another cache.
    #[test]
    fn texts_that_collide_under_a_public_hash_keep_their_own_vectors() {
        const A: &str = "Returns the weather forecast for a city. 9b3440f970c69f75";
        const B: &str = "Returns the weather forecast for a city. b755fe5fd9e00740";
        assert_eq!((fnv1a(A.as_bytes()), A.len()), (fnv1a(B.as_bytes()), B.len()));
        let dir = scratch("collision");
        filed(&dir, 9, 4, &[(A, unit(4, 0)), (B, unit(4, 1))]);
        assert_eq!(read_back(&dir, 9, 4, &[B, A]), [(A.to_string(), unit(4, 0)), (B.to_string(), unit(4, 1))]);
        let other = scratch("collision-other");
        let key = |dir: &Path| VectorFile::open(dir, 9, 4).unwrap().key_of(A);
        assert_ne!(key(&dir), key(&other));
        assert_eq!(key(&dir), key(&dir), "a file keeps its key");
        let _ = fs::remove_dir_all(&dir);
        let _ = fs::remove_dir_all(&other);
    }

    #[test]
    fn damaged_records_are_skipped_and_a_torn_end_is_cut_off() {
        let dir = scratch("damaged");
        filed(&dir, 1, 4, &[("a", unit(4, 0)), ("b", unit(4, 1)), ("c", unit(4, 2))]);
        let path = only_file(&dir);
        let mut bytes = fs::read(&path).unwrap();
        let record = record_len(4);
        bytes[HEADER + record + 20] ^= 0x40; // the second record's vector
        bytes.extend_from_slice(&[1, 2, 3]); // a torn append
        fs::write(&path, &bytes).unwrap();
        let found = read_back(&dir, 1, 4, &["a", "b", "c"]);
        assert_eq!(found.iter().map(|(text, _)| text.as_str()).collect::<Vec<_>>(), ["a", "c"]);
        assert_eq!(fs::metadata(&path).unwrap().len() as usize, HEADER + 3 * record, "the torn end is cut off");
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
        for bytes in [vec![], b"DSHTSVEC".to_vec(), vec![0xff; 5000], kind(3, 2)[..23].to_vec(), kind(3, 2)] {
            fs::write(&path, &bytes).unwrap();
            assert!(read_back(&dir, 3, 2, &["a"]).is_empty());
            let started = fs::read(&path).unwrap();
            assert_eq!((started.len(), &started[..KEY_AT]), (HEADER, &kind(3, 2)[..]), "started again");
        }
        // A full file takes no more without knowing what is live; one over the bound (an older
        // build's) is cut to it.
        let secret = Secret::from_bytes(&fs::read(&path).unwrap()[KEY_AT..]);
        let full: Vec<u8> = fs::read(&path)
            .unwrap()
            .into_iter()
            .chain((0..MAX_RECORDS + 5).flat_map(|i| record_bytes(secret.key(&format!("t{i}")), &unit(2, i % 2))))
            .collect();
        fs::write(&path, &full).unwrap();
        filed(&dir, 3, 2, &[("one too many", unit(2, 0))]);
        assert!(read_back(&dir, 3, 2, &["one too many"]).is_empty());
        assert_eq!(fs::metadata(&path).unwrap().len(), limit(2));
        assert_eq!(
            read_back(&dir, 3, 2, &["t0", &format!("t{}", MAX_RECORDS - 1), &format!("t{MAX_RECORDS}")]).len(),
            2
        );
        let _ = fs::remove_dir_all(&dir);
    }

    /// A full file asked to take more keeps the live records, each once, and takes the batch.
    #[test]
    fn a_full_file_is_compacted_to_the_live_keys() {
        let dir = scratch("compact");
        let mut file = VectorFile::open(&dir, 4, 2).unwrap();
        // The file filled up, with one text filed twice (compaction keeps one).
        let texts: Vec<String> = (0..MAX_RECORDS - 1).map(|i| format!("t{i}")).chain(["t3".to_string()]).collect();
        for (i, text) in texts.iter().enumerate() {
            file.append(file.key_of(text), &unit(2, i % 2));
            if file.due() {
                file.flush(None);
            }
        }
        file.flush(None);
        assert_eq!(fs::metadata(only_file(&dir)).unwrap().len(), limit(2));
        let live: FxHashSet<TextKey> = ["t3", "t7", "t19998"].iter().map(|text| file.key_of(text)).collect();
        file.append(file.key_of("new"), &unit(2, 0));
        file.flush(Some(&|key| live.contains(&key)));
        drop(file);
        let found = read_back(&dir, 4, 2, &["t3", "t7", "t19998", "new", "t4"]);
        let mut names: Vec<&str> = found.iter().map(|(text, _)| text.as_str()).collect();
        names.sort();
        assert_eq!(names, ["new", "t19998", "t3", "t7"]);
        assert_eq!(fs::metadata(only_file(&dir)).unwrap().len() as usize, HEADER + 4 * record_len(2));
        let _ = fs::remove_dir_all(&dir);
    }

    /// Two openings of one file take the lock as two processes do (a lock belongs to an open
    /// file): what one appends survives the other's repair, and each finds everything.
    #[test]
    fn two_writers_keep_each_others_records_through_a_repair() {
        let dir = scratch("two-writers");
        let mut one = VectorFile::open(&dir, 5, 4).unwrap();
        let mut two = VectorFile::open(&dir, 5, 4).unwrap();
        let texts: Vec<String> = (0..200).map(|i| format!("text {i}")).collect();
        for (i, text) in texts.iter().enumerate() {
            let writer = if i % 3 == 0 { &mut one } else { &mut two };
            writer.append(writer.key_of(text), &unit(4, i % 4));
            if writer.due() {
                writer.flush(None);
            }
            if i == 100 {
                // A torn record at the end, as a process killed mid-write leaves it: the next
                // batch cuts it off and goes on, and nothing before it is lost.
                one.flush(None);
                two.flush(None);
                OpenOptions::new()
                    .append(true)
                    .open(dir.join("vectors-0000000000000005.bin"))
                    .unwrap()
                    .write_all(&[9; 7])
                    .unwrap();
                drop(VectorFile::open(&dir, 5, 4).unwrap());
            }
        }
        drop((one, two));
        let keys: Vec<&str> = texts.iter().map(String::as_str).collect();
        assert_eq!(read_back(&dir, 5, 4, &keys).len(), texts.len());
        let length = fs::metadata(only_file(&dir)).unwrap().len() as usize;
        assert_eq!(length, HEADER + texts.len() * record_len(4), "every record once and whole");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_directory_that_cannot_be_made_means_no_cache() {
        let dir = scratch("blocked");
        fs::write(&dir, b"a file where the directory would be").unwrap();
        assert!(VectorFile::open(&dir.join("inside"), 1, 4).is_none());
        let _ = fs::remove_file(&dir);
    }

    /// What a writer process files: `RECORDS` vectors of its own texts, each pointing one way.
    mod shared {
        use super::*;

        pub(super) const DIMS: usize = 16;
        pub(super) const RECORDS: usize = 1_500;
        pub(super) const FINGERPRINT: u64 = 0x5eed;

        pub(super) fn text(writer: usize, at: usize) -> String {
            format!("writer {writer}, tool {at}")
        }

        pub(super) fn vector(writer: usize, at: usize) -> Vec<f32> {
            let mut vector = unit(DIMS, at % DIMS);
            vector[at % DIMS] = if writer.is_multiple_of(2) { 1.0 } else { -1.0 };
            vector
        }
    }

    /// One writer of [`two_processes_embedding_different_catalogs_into_one_directory_lose_nothing`],
    /// run in a process of its own: it appends its vectors in batches, opens the file again every
    /// few hundred (each opening repairs it under the lock), reads its own back as it goes, and
    /// now and then leaves a torn record at the end under the lock, as a process killed
    /// mid-write does.
    #[test]
    #[ignore = "a child process of two_processes_embedding_different_catalogs_into_one_directory_lose_nothing"]
    fn cache_writer_process() {
        let (Ok(dir), Ok(writer)) =
            (std::env::var("DSH_TOOL_SEARCH_TEST_CACHE"), std::env::var("DSH_TOOL_SEARCH_TEST_WRITER"))
        else {
            return;
        };
        let (dir, writer) = (PathBuf::from(dir), writer.parse::<usize>().unwrap());
        let mut file = VectorFile::open(&dir, shared::FINGERPRINT, shared::DIMS).unwrap();
        for at in 0..shared::RECORDS {
            file.append(file.key_of(&shared::text(writer, at)), &shared::vector(writer, at));
            if file.due() {
                file.flush(None);
            }
            if at % 300 == 299 {
                let wanted = (0..=at).map(|earlier| file.key_of(&shared::text(writer, earlier))).collect();
                assert_eq!(file.find(&wanted).len(), at + 1, "writer {writer} finds its own");
                file = VectorFile::open(&dir, shared::FINGERPRINT, shared::DIMS).unwrap();
            }
            if at % 500 == 250 {
                let _held = Held::exclusive(&file.lock).unwrap();
                OpenOptions::new().append(true).open(&file.path).unwrap().write_all(&[7; 11]).unwrap();
            }
        }
    }

    /// Two processes file vectors of different catalogs into one directory at once, twenty times
    /// over: afterwards every vector each wrote is found, and the file is whole records, each
    /// sound, each once.
    #[test]
    fn two_processes_embedding_different_catalogs_into_one_directory_lose_nothing() {
        for run in 0..20 {
            let dir = scratch(&format!("two-processes-{run}"));
            let writers: Vec<std::process::Child> = (0..2)
                .map(|writer| {
                    std::process::Command::new(std::env::current_exe().unwrap())
                        .args(["--exact", "semantic::disk_cache::tests::cache_writer_process", "--ignored", "--quiet"])
                        .env("DSH_TOOL_SEARCH_TEST_CACHE", &dir)
                        .env("DSH_TOOL_SEARCH_TEST_WRITER", writer.to_string())
                        .stdout(std::process::Stdio::null())
                        .spawn()
                        .unwrap()
                })
                .collect();
            for mut child in writers {
                let started = Instant::now();
                let status = loop {
                    if let Some(status) = child.try_wait().unwrap() {
                        break status;
                    }
                    if started.elapsed() > Duration::from_secs(300) {
                        let _ = child.kill();
                        panic!("run {run}: a writer is stuck");
                    }
                    std::thread::sleep(Duration::from_millis(10));
                };
                assert!(status.success(), "run {run}: a writer failed");
            }
            let texts: Vec<(usize, usize)> = (0..2).flat_map(|w| (0..shared::RECORDS).map(move |at| (w, at))).collect();
            let mut file = VectorFile::open(&dir, shared::FINGERPRINT, shared::DIMS).unwrap();
            let wanted: FxHashSet<TextKey> = texts.iter().map(|&(w, at)| file.key_of(&shared::text(w, at))).collect();
            let found: rustc_hash::FxHashMap<TextKey, Vec<f32>> = file.find(&wanted).into_iter().collect();
            for &(w, at) in &texts {
                assert_eq!(
                    found.get(&file.key_of(&shared::text(w, at))),
                    Some(&shared::vector(w, at)),
                    "run {run}: writer {w}, tool {at}"
                );
            }
            let bytes = fs::read(only_file(&dir)).unwrap();
            let record = record_len(shared::DIMS);
            assert_eq!((bytes.len() - HEADER) % record, 0, "run {run}: whole records");
            let records: Vec<_> =
                bytes[HEADER..].chunks(record).map(|bytes| parse_record(bytes, shared::DIMS)).collect();
            assert!(records.iter().all(Option::is_some), "run {run}: a torn record");
            assert_eq!(records.len(), texts.len(), "run {run}: each record once");
            let _ = fs::remove_dir_all(&dir);
        }
    }
}
