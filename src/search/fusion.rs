//! Ranking a compound query ("Book a flight to Boston. Also find a hotel there."): each of its
//! requests and the whole query are ranked on their own and the rankings fused, so that every
//! request places its best tools near the top.

use crate::analysis::Analyzer;

use super::expansion::distinct_terms;
use super::scores::{add_bm25f, Scores};
use super::Searcher;

impl Searcher<'_> {
    /// One score per document from the rankings of the parts of a compound query (reciprocal-rank
    /// fusion), so that the longest request cannot take every slot. The parts:
    /// - the whole query (weight `fusion_whole`);
    /// - each request, of which a tool keeps its best placement only: when several sentences
    ///   dwell on one subject ("book the hotel ... this hotel ... from the hotel"), adding up
    ///   their votes let that subject's look-alike tools crowd out the other requests' tools.
    pub(super) fn fused(&self, text: &str, requests: &[&str], required: &[String]) -> Scores {
        let index = self.index;
        let p = index.params();
        let whole = self.scores(text, required);
        let mut fused = Scores::new(index.len());
        let credits = |scores: &Scores| {
            let ranked = self.top(scores.iter().map(|(d, s)| (s, d)).collect(), p.fusion_depth);
            ranked
                .into_iter()
                .enumerate()
                .map(|(rank, (_, doc))| (doc, (p.fusion_k + 1.0) / (p.fusion_k + 1.0 + rank as f64)))
        };
        for (doc, credit) in credits(&whole) {
            fused.add(doc, p.fusion_whole * credit);
        }
        // One set of score slots for every part: a query can hold hundreds of them, and slots
        // for the whole catalog per part made such a query cost seconds on a large catalog.
        let mut part_scores = Scores::new(index.len());
        let mut best = Scores::new(index.len());
        let mut analyzer = Analyzer::new();
        for request in requests {
            part_scores.clear();
            add_bm25f(index, &mut part_scores, &distinct_terms(index, &mut analyzer, request, |_| {}), required);
            for (doc, credit) in credits(&part_scores) {
                best.raise(doc, credit);
            }
        }
        for (doc, credit) in best.iter() {
            fused.add(doc, credit);
        }
        // Documents past every list's depth keep a trace of their whole-query score, below every
        // fused one, so the tail still follows relevance.
        for (doc, score) in whole.iter() {
            if fused.get(doc) == 0.0 {
                fused.add(doc, score * 1e-6);
            }
        }
        fused
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Index;

    fn top(index: &Index, query: &str, n: usize) -> Vec<String> {
        Searcher::new(index).search(query, n, &[]).iter().map(|h| h.name.to_string()).collect()
    }

    #[test]
    fn a_subject_repeated_across_requests_does_not_crowd_out_another_request() {
        let catalog = r#"[{"name": "hotel_book", "description": "Book a hotel room."},
                          {"name": "hotel_price", "description": "Price of a hotel room."},
                          {"name": "hotel_reviews", "description": "Reviews of a hotel."},
                          {"name": "convert_currency", "description": "Convert an amount between currencies at the exchange rate."},
                          {"name": "flight_book", "description": "Book a flight."}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        let query =
            "I need a hotel in Rome. The hotel should be central. Pick a quiet hotel. Convert 300 dollars to euros.";
        let found = top(&index, query, 2);
        assert!(found.contains(&"convert_currency".to_string()), "{found:?}");
    }
}
