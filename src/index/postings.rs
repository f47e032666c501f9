//! Postings: for every term, the documents that hold it, with its frequency in each field and
//! its whole BM25F contribution to each.

use crate::input::projection::FIELDS;

use super::bm25;
use super::{Doc, DocId, TermId, Tf};

/// One document's occurrences of one term, as the build collects them.
#[derive(Clone, Copy)]
pub(super) struct Posting {
    pub(super) doc: DocId,
    pub(super) tf: [Tf; FIELDS],
}

/// Every term's postings in flat arrays: term `t`'s postings are positions
/// `starts[t]..starts[t + 1]`, in document order. Flat arrays instead of a growing list per
/// term: building them costs a counting sort rather than thousands of reallocations. Documents,
/// frequencies and impacts are kept apart so a search reads only what it sums: 12 bytes per
/// posting, in order.
#[derive(Default)]
pub(crate) struct Postings {
    starts: Vec<u32>,
    docs: Vec<DocId>,
    /// Frequency per field, for explanations.
    tfs: Vec<[Tf; FIELDS]>,
    /// The term's whole BM25F contribution to the document, fixed once the catalog is known.
    impacts: Vec<f64>,
}

impl Postings {
    /// Groups `(term, posting)` pairs by term, keeping their order (document order) within each.
    pub(super) fn group(terms: usize, pairs: Vec<(TermId, Posting)>) -> Postings {
        let mut starts = vec![0u32; terms + 1];
        for &(term, _) in &pairs {
            starts[term as usize + 1] += 1;
        }
        for t in 1..=terms {
            starts[t] += starts[t - 1];
        }
        let mut cursor = starts.clone();
        let mut docs = vec![0; pairs.len()];
        let mut tfs = vec![[0; FIELDS]; pairs.len()];
        for (term, posting) in pairs {
            let slot = &mut cursor[term as usize];
            docs[*slot as usize] = posting.doc;
            tfs[*slot as usize] = posting.tf;
            *slot += 1;
        }
        Postings { starts, docs, tfs, impacts: Vec::new() }
    }

    fn range(&self, term: TermId) -> std::ops::Range<usize> {
        self.starts[term as usize] as usize..self.starts[term as usize + 1] as usize
    }

    /// How many documents hold `term`.
    pub(crate) fn count(&self, term: TermId) -> usize {
        self.range(term).len()
    }

    /// The documents holding `term` with its impact in each, in document order.
    pub(crate) fn scored(&self, term: TermId) -> impl Iterator<Item = (DocId, f64)> + '_ {
        let range = self.range(term);
        self.docs[range.clone()].iter().copied().zip(self.impacts[range].iter().copied())
    }

    /// `term`'s frequencies per field and impact in `doc`, if `doc` holds it.
    pub(crate) fn find(&self, term: TermId, doc: DocId) -> Option<([Tf; FIELDS], f64)> {
        let range = self.range(term);
        let at = range.start + self.docs[range].binary_search(&doc).ok()?;
        Some((self.tfs[at], self.impacts[at]))
    }

    /// Fixes every posting's impact from its term's idf and its document's field factors.
    pub(super) fn weigh(&mut self, idf: &[f64], docs: &[Doc], k1: f64) {
        let mut impacts = Vec::with_capacity(self.docs.len());
        for (term, &idf) in idf.iter().enumerate() {
            for at in self.range(term as TermId) {
                let factor = &docs[self.docs[at] as usize].field_factor;
                let fielded: f64 = (0..FIELDS).map(|f| self.tfs[at][f] as f64 * factor[f]).sum();
                impacts.push(bm25::saturate(idf, fielded, k1));
            }
        }
        self.impacts = impacts;
    }
}
