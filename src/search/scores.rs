//! Per-document score slots for one query, and the BM25F scores of a query's terms added into
//! them.

use crate::index::{DocId, Index};
use crate::work::{self, Step};

use super::expansion::QueryTerm;

/// Adds the BM25F scores of weighted query terms (see [`super::expansion::distinct_terms`]) to
/// cleared score slots, then keeps only the documents that hold every required term.
pub(crate) fn add_bm25f(index: &Index, scores: &mut Scores, terms: &[QueryTerm], required: &[String]) {
    for term in terms {
        work::add(Step::Posting, index.postings().count(term.id));
        for (doc, impact) in index.postings().scored(term.id) {
            scores.add(doc, contribution(impact, term.weight));
        }
    }
    for term in required {
        work::add(Step::Posting, scores.touched.len());
        let id = index.term(term);
        scores.retain(|doc| id.is_some_and(|id| index.holds(id, doc)));
    }
}

/// A query term's part of a document's BM25F score: the term's impact in the document (fixed when
/// the index was built) times the weight the query gives the term. Scores add these up and
/// explanations report them, so the two cannot disagree.
pub(crate) fn contribution(impact: f64, weight: f64) -> f64 {
    impact * weight
}

/// Scores of the documents one query touched: dense by document, plus the list of those touched,
/// so adding a posting's weight is an array update and only matching documents are read back.
pub(crate) struct Scores {
    value: Vec<f64>,
    touched: Vec<DocId>,
}

impl Scores {
    pub(crate) fn new(docs: usize) -> Self {
        Scores { value: vec![0.0; docs], touched: Vec::new() }
    }

    /// Forgets every score, touching only the documents that have one.
    pub(crate) fn clear(&mut self) {
        for &doc in &self.touched {
            self.value[doc as usize] = 0.0;
        }
        self.touched.clear();
    }

    /// Adds a (positive) weight to a document's score.
    pub(crate) fn add(&mut self, doc: DocId, weight: f64) {
        let slot = &mut self.value[doc as usize];
        if *slot == 0.0 {
            if weight <= 0.0 {
                return;
            }
            self.touched.push(doc);
        }
        *slot += weight;
    }

    /// Raises a document's score to a (positive) value if that is higher.
    pub(crate) fn raise(&mut self, doc: DocId, value: f64) {
        let current = self.get(doc);
        if value > current {
            self.add(doc, value - current);
        }
    }

    /// A document's score; 0 when the query did not touch it.
    pub(crate) fn get(&self, doc: DocId) -> f64 {
        self.value[doc as usize]
    }

    /// The touched documents with their scores, in the order first touched.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (DocId, f64)> + '_ {
        self.touched.iter().map(|&doc| (doc, self.value[doc as usize]))
    }

    pub(crate) fn retain(&mut self, keep: impl Fn(DocId) -> bool) {
        let value = &mut self.value;
        self.touched.retain(|&doc| {
            let kept = keep(doc);
            if !kept {
                value[doc as usize] = 0.0;
            }
            kept
        });
    }
}
