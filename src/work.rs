//! Counts of the steps whose number the bounds in `limits.rs` keep small, kept by test builds
//! only, per thread (tests run side by side). The hostile-input tests (`tests/hostile.rs`) bound
//! the work one search does this way, never its time; other builds count nothing.

/// A step of a search whose count grows with what the catalog or the query holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// A query term asked for (a word's own, a related word's), before repeats are merged.
    QueryTerm,
    /// A posting read, or a document checked for a required term.
    Posting,
    /// A tool's vector compared with a query's (the word table's, a request's, the transformer's).
    Similarity,
    /// A byte of a tool name read by the stages that compare names word by word.
    NameByte,
    /// A name word compared with a query word by the name agreement.
    WordPair,
    /// A trigram of a name word looked up by the nearest names.
    Trigram,
    /// A byte of a tool's text read for a phrase the query quotes (`search::phrase`).
    PhraseByte,
}

#[cfg(test)]
const STEPS: usize = 7;

#[cfg(test)]
thread_local! {
    static COUNTS: std::cell::Cell<[usize; STEPS]> = const { std::cell::Cell::new([0; STEPS]) };
}

/// Counts `n` steps (in a test build; otherwise nothing).
#[inline(always)]
pub(crate) fn add(step: Step, n: usize) {
    #[cfg(test)]
    COUNTS.with(|counts| {
        let mut now = counts.get();
        now[step as usize] += n;
        counts.set(now);
    });
    #[cfg(not(test))]
    let _ = (step, n);
}

/// The steps `f` took on this thread, by kind.
#[cfg(test)]
pub(crate) fn measure<R>(f: impl FnOnce() -> R) -> (R, Counts) {
    let before = COUNTS.with(std::cell::Cell::get);
    let result = f();
    let after = COUNTS.with(std::cell::Cell::get);
    (result, Counts(std::array::from_fn(|i| after[i] - before[i])))
}

/// Steps counted by [`measure`].
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Counts([usize; STEPS]);

#[cfg(test)]
impl Counts {
    pub(crate) fn of(&self, step: Step) -> usize {
        self.0[step as usize]
    }

    pub(crate) fn total(&self) -> usize {
        self.0.iter().sum()
    }
}
