//! A hybrid index's transformer vectors: one slot per tool, filled by whoever needs it first.
//!
//! The background worker (`background`) fills every slot in turn, so that searches soon find
//! every vector made. A search that needs a tool's vector before the worker has reached it makes
//! it there and then, and the worker later finds the slot filled. Either way a slot holds the
//! bits the encoder gives the tool's text, so what a search answers never depends on how far the
//! worker has got: only on the catalog, the query and the settings.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, PoisonError};

use super::contextual::Contextual;
use super::memory;

/// Something to do once every slot is filled.
type Waiter = Box<dyn FnOnce() + Send>;

pub(crate) struct ToolVectors {
    model: Arc<Contextual>,
    /// What each tool is embedded as, in document order.
    texts: Vec<Arc<str>>,
    slots: Vec<OnceLock<Arc<[f32]>>>,
    /// Slots not yet filled.
    missing: AtomicUsize,
    /// Who waits for every slot, until the last is filled (then `None`).
    waiters: Mutex<Option<Vec<Waiter>>>,
    settled: Condvar,
}

impl ToolVectors {
    /// The vectors of `texts` (one per tool, in document order), with those the process has made
    /// before in place (`background::embed` queues the rest for the worker).
    pub(crate) fn new(model: Arc<Contextual>, texts: Vec<String>) -> Arc<ToolVectors> {
        let texts: Vec<Arc<str>> = texts.into_iter().map(Arc::from).collect();
        let slots: Vec<OnceLock<Arc<[f32]>>> = memory::with(model.checksum(), |memory| {
            texts.iter().map(|text| memory.get(text).map(OnceLock::from).unwrap_or_default()).collect()
        });
        let missing = slots.iter().filter(|slot| slot.get().is_none()).count();
        Arc::new(ToolVectors {
            model,
            texts,
            slots,
            missing: AtomicUsize::new(missing),
            waiters: Mutex::new((missing > 0).then(Vec::new)),
            settled: Condvar::new(),
        })
    }

    /// Whether every slot is filled.
    pub(crate) fn complete(&self) -> bool {
        self.missing.load(Ordering::Acquire) == 0
    }

    pub(crate) fn model(&self) -> &Contextual {
        &self.model
    }

    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    pub(crate) fn text(&self, doc: usize) -> &Arc<str> {
        &self.texts[doc]
    }

    /// Tool `doc`'s vector, made now if no one has made it yet.
    pub(crate) fn vector(&self, doc: usize) -> &Arc<[f32]> {
        self.fill_with(doc, || self.model.embed(&self.texts[doc]).into(), false)
    }

    /// Tool `doc`'s vector, which `make` gives if the slot is empty (`filed`: it came from the
    /// cache file). Whoever fills a slot also tells the process's memory.
    pub(crate) fn fill_with(&self, doc: usize, make: impl FnOnce() -> Arc<[f32]>, filed: bool) -> &Arc<[f32]> {
        let mut made = None;
        let vector = self.slots[doc].get_or_init(|| {
            let vector = make();
            made = Some(vector.clone());
            vector
        });
        if let Some(vector) = made {
            memory::with(self.model.checksum(), |memory| memory.insert(self.texts[doc].clone(), vector, filed));
            if self.missing.fetch_sub(1, Ordering::AcqRel) == 1 {
                self.settle();
            }
        }
        vector
    }

    /// Tool `doc`'s vector, if it has one yet.
    pub(crate) fn made(&self, doc: usize) -> Option<&Arc<[f32]>> {
        self.slots[doc].get()
    }

    /// Runs `then` once every slot is filled (now, if they are), on the thread that fills the
    /// last; or when the worker gives up on them, or this index is dropped.
    #[cfg(any(feature = "node", test))]
    pub(crate) fn when_ready(&self, then: impl FnOnce() + Send + 'static) {
        let mut waiters = self.waiters.lock().unwrap_or_else(PoisonError::into_inner);
        match waiters.as_mut() {
            Some(waiting) => waiting.push(Box::new(then)),
            None => {
                drop(waiters);
                then();
            }
        }
    }

    /// Blocks until [`Self::when_ready`] would run.
    pub(crate) fn wait(&self) {
        let mut waiters = self.waiters.lock().unwrap_or_else(PoisonError::into_inner);
        while waiters.is_some() {
            waiters = self.settled.wait(waiters).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Ends the wait for every slot: all are filled, or the worker gave up on them (searches then
    /// make the vectors they need themselves).
    pub(crate) fn settle(&self) {
        let waiting = self.waiters.lock().unwrap_or_else(PoisonError::into_inner).take();
        self.settled.notify_all();
        for then in waiting.into_iter().flatten() {
            then();
        }
    }
}

impl Drop for ToolVectors {
    /// Nobody waits for an index that is gone.
    fn drop(&mut self) {
        self.settle();
    }
}
