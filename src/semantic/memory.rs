//! The vectors of texts this process has embedded or read from the cache, shared by every index:
//! a catalog rebuilt because an MCP server connected embeds only its new tools, and one whose
//! every tool was seen before has all its vectors at once.
//!
//! Keyed by the text itself, so no two texts can share an entry, in a map whose hasher is seeded
//! per process (std's `RandomState`), so no catalog can be written to make its lookups slow. It
//! holds at most [`MAX_TOOLS`] vectors that no live index holds as well: past that, those are let
//! go (an index's own vectors are its to keep, and cost the memory nothing more).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::limits::MAX_TOOLS;

/// A text's vector, and whether it is known to be in the cache file of the directory named now.
struct Entry {
    vector: Arc<[f32]>,
    filed: bool,
}

/// The entries, all from the encoder whose checksum is `model`.
pub(crate) struct Memory {
    model: u64,
    entries: HashMap<Arc<str>, Entry>,
    /// How many entries no live index holds it may keep.
    cap: usize,
}

static MEMORY: Mutex<Option<Memory>> = Mutex::new(None);

/// `f` of the process's memory, for the encoder whose checksum is `model`: another encoder's
/// vectors are let go.
pub(crate) fn with<R>(model: u64, f: impl FnOnce(&mut Memory) -> R) -> R {
    let mut guard = MEMORY.lock().unwrap_or_else(PoisonError::into_inner);
    let memory = match guard.as_mut() {
        Some(memory) if memory.model == model => memory,
        _ => guard.insert(Memory::new(model, MAX_TOOLS)),
    };
    f(memory)
}

impl Memory {
    fn new(model: u64, cap: usize) -> Memory {
        Memory { model, entries: HashMap::new(), cap }
    }

    pub(crate) fn get(&self, text: &str) -> Option<Arc<[f32]>> {
        self.entries.get(text).map(|entry| entry.vector.clone())
    }

    /// Whether `text`'s vector is known to be in the cache file.
    pub(crate) fn filed(&self, text: &str) -> bool {
        self.entries.get(text).is_some_and(|entry| entry.filed)
    }

    /// Remembers `text`'s vector (`filed`: it is in the cache file, or on its way there).
    pub(crate) fn insert(&mut self, text: Arc<str>, vector: Arc<[f32]>, filed: bool) {
        if self.entries.len() >= self.cap && !self.entries.contains_key(&*text) {
            self.entries.retain(|_, entry| Arc::strong_count(&entry.vector) > 1);
        }
        let entry = self.entries.entry(text).or_insert(Entry { vector, filed });
        entry.filed |= filed;
    }

    /// Notes that `text`'s vector is on its way to the cache file.
    pub(crate) fn mark_filed(&mut self, text: &str) {
        if let Some(entry) = self.entries.get_mut(text) {
            entry.filed = true;
        }
    }

    /// Forgets which vectors the cache file holds: another directory was named.
    pub(crate) fn unfiled(&mut self) {
        for entry in self.entries.values_mut() {
            entry.filed = false;
        }
    }

    /// The texts whose vectors a live index holds.
    pub(crate) fn live_texts(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().filter(|(_, entry)| Arc::strong_count(&entry.vector) > 1).map(|(text, _)| &**text)
    }

    /// Lets every vector go (the worker failed on one: it may be wrong).
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_memory_lets_go_of_what_no_index_holds() {
        let vector = |v: f32| -> Arc<[f32]> { Arc::from(vec![v; 2]) };
        let held = vector(1.0);
        let mut memory = Memory::new(7, 100);
        memory.insert("held".into(), held.clone(), false);
        for i in 0..99 {
            memory.insert(format!("t{i}").into(), vector(0.5), false);
        }
        assert!(memory.get("t0").is_some() && memory.entries.len() == 100);
        memory.insert("t0".into(), vector(0.5), true);
        assert_eq!(memory.entries.len(), 100, "a text already there takes no room");
        assert!(memory.filed("t0"));
        memory.insert("one more".into(), vector(0.25), true);
        assert_eq!(memory.entries.len(), 2, "only what an index holds, and the new one");
        assert_eq!(memory.get("held").as_deref(), Some(&held[..]));
        assert!(memory.filed("one more") && !memory.filed("held"));
        assert_eq!(memory.live_texts().collect::<Vec<_>>(), ["held"]);
        memory.unfiled();
        assert!(!memory.filed("one more"));
    }
}
