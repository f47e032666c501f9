//! Embedding a hybrid index's tools with the transformer, off the caller's thread.
//!
//! One worker thread serves the whole process, newest index first: a host that rebuilds its index
//! whenever its tools change (an MCP server connecting) keeps at most one core busy, and an index
//! that was dropped before its turn costs nothing (its queued texts are let go as soon as another
//! index is queued). The process remembers each text's vector, so a rebuilt catalog re-embeds
//! only the tools it has not seen, and one whose every tool was seen has its vectors at once,
//! without the worker: its searches never change under it. With a cache directory named
//! (`disk_cache`), the worker also files each vector there, and looks there first for a job's
//! texts the process does not remember, so tools an earlier process embedded are not embedded
//! again.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, LazyLock, Mutex, MutexGuard, PoisonError, Weak};

use rustc_hash::{FxHashMap, FxHashSet};

use super::contextual::Contextual;
use super::disk_cache::{self, TextKey, VectorFile, MAX_RECORDS};

/// Texts whose vectors the process keeps: a few large catalogs' worth (a vector is 1.5 KB), and
/// as many as a cache file holds.
const MAX_REMEMBERED: usize = MAX_RECORDS;

/// Where an index's tool vectors stand.
enum State {
    Pending,
    /// Every tool's vector, one after another, in document order.
    Ready(Arc<[f32]>),
    /// The worker could not embed them (it panicked): searches go on with the static table.
    Failed,
}

/// A hybrid index's transformer vectors: pending until the worker has embedded every tool.
pub(crate) struct ToolVectors {
    state: Mutex<State>,
    settled: Condvar,
}

impl ToolVectors {
    /// Queues `texts` (one per tool, in document order) for the worker.
    pub(crate) fn embed(model: Arc<Contextual>, texts: Vec<String>) -> Arc<ToolVectors> {
        if let Some(values) = lock(&REMEMBERED).all(&model, &texts) {
            return Arc::new(ToolVectors { state: Mutex::new(State::Ready(values.into())), settled: Condvar::new() });
        }
        let vectors = Arc::new(ToolVectors { state: Mutex::new(State::Pending), settled: Condvar::new() });
        let job = Job { model, texts, target: Arc::downgrade(&vectors) };
        let mut queue = lock(&WORKER.queue);
        queue.retain(|queued| queued.target.strong_count() > 0);
        queue.push_back(job);
        WORKER.wake.notify_one();
        drop(queue);
        WORKER.start();
        vectors
    }

    /// The vectors once they are in place.
    pub(crate) fn ready(&self) -> Option<Arc<[f32]>> {
        match &*lock(&self.state) {
            State::Ready(values) => Some(values.clone()),
            State::Pending | State::Failed => None,
        }
    }

    /// Blocks until the worker is done with these vectors (or gave up on them).
    pub(crate) fn wait(&self) {
        let mut state = lock(&self.state);
        while matches!(*state, State::Pending) {
            state = self.settled.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn settle(&self, state: State) {
        *lock(&self.state) = state;
        self.settled.notify_all();
    }
}

struct Job {
    model: Arc<Contextual>,
    texts: Vec<String>,
    /// Weak, so that dropping the index abandons the job.
    target: Weak<ToolVectors>,
}

struct Worker {
    queue: Mutex<VecDeque<Job>>,
    wake: Condvar,
    started: std::sync::Once,
}

static WORKER: LazyLock<Worker> = LazyLock::new(|| Worker {
    queue: Mutex::new(VecDeque::new()),
    wake: Condvar::new(),
    started: std::sync::Once::new(),
});

impl Worker {
    fn start(&'static self) {
        self.started.call_once(|| {
            let spawned = std::thread::Builder::new().name("dsh-tool-search-embed".into()).spawn(|| WORKER.run());
            if spawned.is_err() {
                // No thread: every queued index stays on the static table, and waits end now.
                for job in lock(&self.queue).drain(..) {
                    if let Some(target) = job.target.upgrade() {
                        target.settle(State::Failed);
                    }
                }
            }
        });
    }

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
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut file = disk.file_for(&job.model);
                if let Some(file) = file.as_deref_mut() {
                    recall(&job, file);
                }
                let values = embed_all(&job, file.as_deref_mut());
                if let Some(file) = file {
                    file.flush();
                }
                values
            }));
            match (job.target.upgrade(), outcome) {
                (Some(target), Ok(Some(values))) => target.settle(State::Ready(values.into())),
                (Some(target), Err(_)) => {
                    lock(&REMEMBERED).clear();
                    target.settle(State::Failed);
                }
                // Abandoned: nobody waits on it.
                (_, Ok(None)) | (None, _) => {}
            }
        }
    }
}

/// The worker's cache file: the one for the directory named now and the model of the job at hand.
#[derive(Default)]
struct Disk {
    /// What the open file (or its absence) is for: the directory and the model's checksum.
    opened_for: Option<(Option<std::path::PathBuf>, u64)>,
    file: Option<VectorFile>,
}

impl Disk {
    /// The file for `model`, opened when the directory or the model changed since the last job.
    fn file_for(&mut self, model: &Contextual) -> Option<&mut VectorFile> {
        let wanted = (disk_cache::dir(), model.checksum());
        if self.opened_for.as_ref() != Some(&wanted) {
            self.file = wanted.0.as_deref().and_then(|dir| VectorFile::open(dir, model.fingerprint(), model.dims()));
            self.opened_for = Some(wanted);
        }
        self.file.as_mut()
    }
}

/// Remembers the vectors `file` holds of the job's texts the process does not remember yet.
fn recall(job: &Job, file: &mut VectorFile) {
    let wanted: FxHashSet<TextKey> = {
        let mut remembered = lock(&REMEMBERED);
        job.texts
            .iter()
            .filter(|text| remembered.get(&job.model, text).is_none())
            .map(|text| TextKey::of(text))
            .collect()
    };
    if !wanted.is_empty() {
        let found = file.find(&wanted);
        let mut remembered = lock(&REMEMBERED);
        for (key, vector) in found {
            remembered.insert(key, vector.into());
        }
    }
}

/// The vectors of texts embedded before, with the model they came from.
struct Remembered {
    model: u64,
    vectors: FxHashMap<TextKey, Box<[f32]>>,
}

static REMEMBERED: Mutex<Remembered> =
    Mutex::new(Remembered { model: 0, vectors: FxHashMap::with_hasher(rustc_hash::FxBuildHasher) });

impl Remembered {
    fn clear(&mut self) {
        self.vectors.clear();
    }

    /// A remembered vector, from `model`.
    fn get(&mut self, model: &Contextual, text: &str) -> Option<&[f32]> {
        if self.model != model.checksum() {
            self.model = model.checksum();
            self.clear();
        }
        self.vectors.get(&TextKey::of(text)).map(|vector| &vector[..])
    }

    fn insert(&mut self, key: TextKey, vector: Box<[f32]>) {
        if self.vectors.len() >= MAX_REMEMBERED {
            self.clear();
        }
        self.vectors.insert(key, vector);
    }

    /// Every text's vector, when all are remembered.
    fn all(&mut self, model: &Contextual, texts: &[String]) -> Option<Vec<f32>> {
        let mut values = Vec::with_capacity(texts.len() * model.dims());
        for text in texts {
            values.extend_from_slice(self.get(model, text)?);
        }
        Some(values)
    }
}

/// Every text's vector, or `None` once the index is gone. Each one embedded is also filed in
/// `file`.
fn embed_all(job: &Job, mut file: Option<&mut VectorFile>) -> Option<Vec<f32>> {
    let mut values = Vec::with_capacity(job.texts.len() * job.model.dims());
    for text in &job.texts {
        if job.target.strong_count() == 0 {
            return None;
        }
        let known = lock(&REMEMBERED).get(&job.model, text).map(<[f32]>::to_vec);
        let vector = known.unwrap_or_else(|| {
            let vector = job.model.embed(text);
            let key = TextKey::of(text);
            if let Some(file) = file.as_deref_mut() {
                file.append(key, &vector);
            }
            lock(&REMEMBERED).insert(key, vector.as_slice().into());
            vector
        });
        values.extend_from_slice(&vector);
    }
    Some(values)
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
