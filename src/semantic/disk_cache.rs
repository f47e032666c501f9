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
//! written when it stopped (at most [`FLUSH_EVERY`]), those past [`MAX_RECORDS`], and a batch
//! that waited [`LOCK_WAIT`] for the lock in vain, or found locks unsupported where the file
//! lives.
//!
//! It is only ever a shortcut: a record that fails its checksum, or holds a vector no encoder
//! gives (not finite, not of unit length), is skipped; a directory that cannot be written to means
//! no cache. The vectors it holds are the bits the encoder gives on every machine, so a cached
//! vector ranks as a computed one would. The fingerprint is the hash of the vector the encoder
//! gives a fixed text (`Contextual::fingerprint`): another model, tokenizer, token limit or
//! arithmetic gives another, so a build that embeds differently never reads an older one's
//! vectors.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use rustc_hash::FxHashSet;

use crate::bytes::fnv1a;

const MAGIC: &[u8; 8] = b"DSHTSVEC";
const VERSION: u32 = 1;
const HEADER: usize = 24;
/// Records a file holds at most: as many as the process remembers, 31 MB at MiniLM's 384 values.
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

/// One model's file, for finding vectors in and appending vectors to.
pub(crate) struct VectorFile {
    path: PathBuf,
    /// `vectors-<fingerprint>.lock`: never replaced, so every process locks the same file.
    lock: File,
    header: Vec<u8>,
    dims: usize,
    /// Whole records not yet written.
    pending: Vec<u8>,
}

impl VectorFile {
    /// Opens `dir`'s file for `dims`-value vectors made the way `fingerprint` names, repairing it
    /// first (see the module's documentation). `None` when the directory cannot be written to.
    pub(crate) fn open(dir: &Path, fingerprint: u64, dims: usize) -> Option<VectorFile> {
        fs::create_dir_all(dir).ok()?;
        let name = format!("vectors-{fingerprint:016x}");
        let lock =
            OpenOptions::new().create(true).truncate(false).write(true).open(dir.join(format!("{name}.lock"))).ok()?;
        let file = VectorFile {
            path: dir.join(format!("{name}.bin")),
            lock,
            header: header(fingerprint, dims),
            dims,
            pending: Vec::with_capacity(FLUSH_EVERY * record_len(dims)),
        };
        let repaired = Held::exclusive(&file.lock).and_then(|_held| file.repaired().ok()).is_some();
        repaired.then_some(file)
    }

    /// The sound records of the keys in `wanted`: only those are kept, so a process holds the
    /// vectors of the catalogs it ranks, not every one the file has.
    pub(crate) fn find(&mut self, wanted: &FxHashSet<TextKey>) -> Vec<(TextKey, Vec<f32>)> {
        self.flush();
        // Without the lock (another process stuck, or locks unsupported) the checksums still keep
        // out anything written halfway.
        let _held = Held::shared(&self.lock);
        read_records(&self.path, self.dims, |key| wanted.contains(&key))
    }

    /// Keeps a vector for the file; every [`FLUSH_EVERY`] of them go to it.
    pub(crate) fn append(&mut self, key: TextKey, vector: &[f32]) {
        if vector.len() != self.dims {
            return;
        }
        self.pending.extend_from_slice(&record_bytes(key, vector));
        if self.pending.len() >= FLUSH_EVERY * record_len(self.dims) {
            self.flush();
        }
    }

    /// Writes the kept records to the file as it is now, under the lock, as far as
    /// [`MAX_RECORDS`] allows. A batch that cannot be written is dropped: the file is a shortcut.
    pub(crate) fn flush(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        if let Some(_held) = Held::exclusive(&self.lock) {
            let _ = self.write_pending();
        }
        self.pending.clear();
    }

    fn write_pending(&self) -> std::io::Result<()> {
        let (mut file, length) = self.repaired()?;
        let room = (limit(self.dims).saturating_sub(length) as usize) / record_len(self.dims) * record_len(self.dims);
        let batch = &self.pending[..room.min(self.pending.len())];
        if !batch.is_empty() {
            file.seek(SeekFrom::End(0))?;
            file.write_all(batch)?;
        }
        Ok(())
    }

    /// The file, opened now and made whole, and its length; the lock must be held exclusively.
    /// A header that is not this file's (none yet, damaged, another format) starts the file
    /// again; a file over the bound is cut to it; a torn record at the end is cut off.
    fn repaired(&self) -> std::io::Result<(File, u64)> {
        let mut file = OpenOptions::new().create(true).truncate(false).read(true).write(true).open(&self.path)?;
        let mut head = Vec::with_capacity(HEADER);
        (&mut file).take(HEADER as u64).read_to_end(&mut head)?;
        let length = file.metadata()?.len();
        let record = record_len(self.dims) as u64;
        let whole = if head != self.header {
            file.set_len(0)?;
            file.seek(SeekFrom::Start(0))?;
            file.write_all(&self.header)?;
            HEADER as u64
        } else {
            HEADER as u64 + (length.min(limit(self.dims)) - HEADER as u64) / record * record
        };
        if whole < file.metadata()?.len() {
            file.set_len(whole)?;
        }
        Ok((file, whole))
    }
}

impl Drop for VectorFile {
    fn drop(&mut self) {
        self.flush();
    }
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
            [(TextKey::of("a"), unit(4, 0)), (TextKey::of("b"), unit(4, 3))]
        );
        // Vectors made another way, or of another width, are not these.
        assert!(read_back(&dir, 8, 4, &["a"]).is_empty());
        assert!(read_back(&dir, 7, 8, &["a"]).is_empty());
        let _ = fs::remove_dir_all(&dir);
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
        assert_eq!(found.iter().map(|(key, _)| *key).collect::<Vec<_>>(), [TextKey::of("a"), TextKey::of("c")]);
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
        for bytes in [vec![], b"DSHTSVEC".to_vec(), vec![0xff; 5000], header(3, 2)[..23].to_vec()] {
            fs::write(&path, &bytes).unwrap();
            assert!(read_back(&dir, 3, 2, &["a"]).is_empty());
            assert_eq!(fs::read(&path).unwrap(), header(3, 2), "started again");
        }
        // A full file takes no more; one over the bound (an older build's) is cut to it.
        let full: Vec<u8> = header(3, 2)
            .into_iter()
            .chain((0..MAX_RECORDS + 5).flat_map(|i| record_bytes(TextKey::of(&format!("t{i}")), &unit(2, i % 2))))
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
            writer.append(TextKey::of(text), &unit(4, i % 4));
            if i == 100 {
                // A torn record at the end, as a process killed mid-write leaves it: the next
                // batch cuts it off and goes on, and nothing before it is lost.
                one.flush();
                two.flush();
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
            file.append(TextKey::of(&shared::text(writer, at)), &shared::vector(writer, at));
            if at % 300 == 299 {
                let wanted = (0..=at).map(|earlier| TextKey::of(&shared::text(writer, earlier))).collect();
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
            let wanted: FxHashSet<TextKey> = texts.iter().map(|&(w, at)| TextKey::of(&shared::text(w, at))).collect();
            let found: rustc_hash::FxHashMap<TextKey, Vec<f32>> =
                VectorFile::open(&dir, shared::FINGERPRINT, shared::DIMS).unwrap().find(&wanted).into_iter().collect();
            for &(w, at) in &texts {
                assert_eq!(
                    found.get(&TextKey::of(&shared::text(w, at))),
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
