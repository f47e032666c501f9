//! Per-document score slots for one query.

use crate::index::DocId;

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
