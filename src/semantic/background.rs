//! The one background worker that fills hybrid indexes' transformer vectors (`tool_vectors`)
//! off the caller's thread, newest index first: a host that rebuilds its index whenever its tools
//! change (an MCP server connecting) keeps one pass at a time busy (on two threads, at the core's
//! lowered priority, so the host's thread gets a core first), and an index dropped before its turn
//! costs nothing. With a cache directory named (`disk_cache`) the worker looks there first
//! for the texts the process has no vector of, and files there every vector it does not find,
//! those searches made included, so that the next process need not make them again.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, LazyLock, Mutex, MutexGuard, PoisonError, Weak};

use rustc_hash::FxHashSet;

use super::contextual::Contextual;
use super::disk_cache::{self, TextKey, VectorFile};
use super::memory;
use super::tool_vectors::ToolVectors;

struct Worker {
    /// Indexes with empty slots, newest last.
    queue: Mutex<VecDeque<Weak<ToolVectors>>>,
    wake: Condvar,
    started: std::sync::Once,
}

static WORKER: LazyLock<Worker> = LazyLock::new(|| Worker {
    queue: Mutex::new(VecDeque::new()),
    wake: Condvar::new(),
    started: std::sync::Once::new(),
});

/// The transformer's vectors of `texts` (one per tool, in document order): those the process has
/// made before at once, the rest queued for the worker.
pub(crate) fn embed(model: Arc<Contextual>, texts: Vec<String>) -> Arc<ToolVectors> {
    let vectors = ToolVectors::new(model, texts);
    if !vectors.complete() {
        queue(Arc::downgrade(&vectors));
    }
    vectors
}

/// Queues an index's vectors for the worker. Without a thread for it, their waiters are let go at
/// once, and searches make the vectors they need themselves.
fn queue(vectors: Weak<ToolVectors>) {
    let mut queue = lock(&WORKER.queue);
    queue.retain(|queued| queued.strong_count() > 0);
    queue.push_back(vectors);
    WORKER.wake.notify_one();
    drop(queue);
    WORKER.started.call_once(|| {
        let spawned = std::thread::Builder::new().name("dsh-tool-search-embed".into()).spawn(|| WORKER.run());
        if spawned.is_err() {
            for queued in lock(&WORKER.queue).drain(..) {
                if let Some(vectors) = queued.upgrade() {
                    vectors.settle();
                }
            }
        }
    });
}

impl Worker {
    fn run(&self) {
        crate::priority::lower_this_thread();
        let mut disk = Disk::default();
        loop {
            let job = {
                let mut queue = lock(&self.queue);
                loop {
                    match queue.pop_back() {
                        Some(job) => break job,
                        None => queue = self.wake.wait(queue).unwrap_or_else(PoisonError::into_inner),
                    }
                }
            };
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| fill(&job, &mut disk)));
            if outcome.is_err() {
                // A vector it made may be wrong: none is kept, and the index's searches make
                // their own from now on.
                if let Some(vectors) = job.upgrade() {
                    memory::with(vectors.model().checksum(), memory::Memory::clear);
                    vectors.settle();
                }
            }
        }
    }
}

/// Fills every empty slot of the index, files what the cache lacks, and stops as soon as the
/// index is dropped (it holds the index only for one tool at a time).
fn fill(job: &Weak<ToolVectors>, disk: &mut Disk) {
    let Some(vectors) = job.upgrade() else { return };
    let (len, checksum) = (vectors.len(), vectors.model().checksum());
    let mut file = disk.file_for(vectors.model());
    if let Some(file) = file.as_deref_mut() {
        recall(&vectors, file);
    }
    drop(vectors);
    for doc in 0..len {
        let Some(vectors) = job.upgrade() else { return };
        let vector = vectors.vector(doc);
        let text = vectors.text(doc);
        if let Some(file) = file.as_deref_mut() {
            if !memory::with(checksum, |memory| memory.filed(text)) {
                file.append(file.key_of(text), vector);
                memory::with(checksum, |memory| memory.mark_filed(text));
            }
            if file.due() {
                flush(file, checksum);
            }
        }
    }
    if let Some(file) = file {
        flush(file, checksum);
    }
}

/// Fills the index's empty slots whose texts the cache file holds.
fn recall(vectors: &ToolVectors, file: &mut VectorFile) {
    let mut by_key: rustc_hash::FxHashMap<TextKey, Vec<usize>> = Default::default();
    for doc in (0..vectors.len()).filter(|&doc| vectors.made(doc).is_none()) {
        by_key.entry(file.key_of(vectors.text(doc))).or_default().push(doc);
    }
    if by_key.is_empty() {
        return;
    }
    let wanted: FxHashSet<TextKey> = by_key.keys().copied().collect();
    for (key, vector) in file.find(&wanted) {
        let vector: Arc<[f32]> = vector.into();
        for &doc in &by_key[&key] {
            vectors.fill_with(doc, || vector.clone(), true);
        }
    }
}

/// Writes what waits for the file; a full file is compacted to the vectors live indexes hold.
fn flush(file: &mut VectorFile, checksum: u64) {
    let live: FxHashSet<TextKey> =
        memory::with(checksum, |memory| memory.live_texts().map(|text| file.key_of(text)).collect());
    file.flush(Some(&|key| live.contains(&key)));
}

/// The worker's cache file: the one for the directory named now and the model of the job at hand.
#[derive(Default)]
struct Disk {
    /// What the open file (or its absence) is for: the directory and the model's checksum.
    opened_for: Option<(Option<PathBuf>, u64)>,
    file: Option<VectorFile>,
}

impl Disk {
    /// The file for `model`, opened when the directory or the model changed since the last job.
    fn file_for(&mut self, model: &Contextual) -> Option<&mut VectorFile> {
        let wanted = (disk_cache::dir(), model.checksum());
        if self.opened_for.as_ref() != Some(&wanted) {
            if self.opened_for.as_ref().is_some_and(|(dir, _)| *dir != wanted.0) {
                memory::with(model.checksum(), memory::Memory::unfiled);
            }
            self.file = wanted.0.as_deref().and_then(|dir| VectorFile::open(dir, model.fingerprint(), model.dims()));
            self.opened_for = Some(wanted);
        }
        self.file.as_mut()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
