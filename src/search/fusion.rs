//! Ranking a compound query ("Book a flight to Boston. Also find a hotel there."): each of its
//! requests, each pair of neighbouring requests and the whole query are ranked on their own and
//! the rankings fused, so that every request places its best tools near the top.

use crate::analysis::Analyzer;

use super::expansion::{distinct_terms, QueryTerm};
use super::scores::{add_bm25f, Scores};
use super::Searcher;

impl Searcher<'_> {
    /// One score per document from the rankings of the parts of a compound query (reciprocal-rank
    /// fusion), so that the longest request cannot take every slot. The parts:
    /// - the whole query (weight `fusion_whole`);
    /// - each request, of which a tool keeps its best placement only: when several sentences
    ///   dwell on one subject ("book the hotel ... this hotel ... from the hotel"), adding up
    ///   their votes let that subject's look-alike tools crowd out the other requests' tools;
    /// - each pair of neighbouring requests, their terms taken together (weight `fusion_pair`): a
    ///   request often takes two sentences, what it is about and then what to do ("... the
    ///   Battle of Gettysburg. Do you know when that took place?").
    ///
    /// Each request is analyzed once; a pair reuses its two requests' terms.
    pub(super) fn fused(&self, text: &str, requests: &[&str], required: &[String]) -> Scores {
        let index = self.index;
        let p = index.params();
        let whole = self.scores(text, required);
        let mut fused = Scores::new(index.len());
        let credits = |scores: &Scores| {
            let ranked = self.top(scores.iter().map(|(d, s)| (s, d)).collect(), p.fusion_depth);
            ranked.into_iter().enumerate().map(|(rank, (_, doc))| (doc, (p.fusion_k + 1.0) / (p.fusion_k + 1.0 + rank as f64)))
        };
        for (doc, credit) in credits(&whole) {
            fused.add(doc, p.fusion_whole * credit);
        }
        // One set of score slots for every part: a query can hold hundreds of them, and slots
        // for the whole catalog per part made such a query cost seconds on a large catalog.
        let mut part_scores = Scores::new(index.len());
        let mut best = Scores::new(index.len());
        let mut analyzer = Analyzer::new();
        let terms: Vec<Vec<QueryTerm>> = requests.iter().map(|request| distinct_terms(index, &mut analyzer, request, |_| {})).collect();
        for request_terms in &terms {
            part_scores.clear();
            add_bm25f(index, &mut part_scores, request_terms, required);
            for (doc, credit) in credits(&part_scores) {
                best.raise(doc, credit);
            }
        }
        for (doc, credit) in best.iter() {
            fused.add(doc, credit);
        }
        if p.fusion_pair > 0.0 {
            for pair in terms.windows(2) {
                part_scores.clear();
                add_bm25f(index, &mut part_scores, &union(&pair[0], &pair[1]), required);
                for (doc, credit) in credits(&part_scores) {
                    fused.add(doc, p.fusion_pair * credit);
                }
            }
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

/// The terms of two requests read together: every term of either, with the larger weight. Both
/// lists are in term-id order, and so is the result.
fn union(a: &[QueryTerm], b: &[QueryTerm]) -> Vec<QueryTerm> {
    let mut both = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    loop {
        let next = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x.id == y.id => {
                (i, j) = (i + 1, j + 1);
                QueryTerm { weight: x.weight.max(y.weight), ..x }
            }
            (Some(&x), Some(&y)) if x.id < y.id => {
                i += 1;
                x
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (_, Some(&y)) => {
                j += 1;
                y
            }
            (None, None) => break,
        };
        both.push(next);
    }
    both
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{Index, Params, TermId};
    use crate::search::Match;

    fn terms(list: &[(TermId, f64)]) -> Vec<QueryTerm> {
        list.iter().map(|&(id, weight)| QueryTerm { id, weight, kind: Match::Word, at: 0 }).collect()
    }

    fn pairs(list: &[QueryTerm]) -> Vec<(TermId, f64)> {
        list.iter().map(|term| (term.id, term.weight)).collect()
    }

    #[test]
    fn the_union_of_two_requests_keeps_every_term_once_with_its_larger_weight() {
        let a = terms(&[(1, 1.0), (4, 0.3), (7, 1.0)]);
        let b = terms(&[(2, 1.0), (4, 1.0), (9, 0.5)]);
        assert_eq!(pairs(&union(&a, &b)), [(1, 1.0), (2, 1.0), (4, 1.0), (7, 1.0), (9, 0.5)]);
        assert_eq!(union(&b, &a), union(&a, &b));
        assert_eq!(union(&a, &[]), a);
        assert!(union(&[], &[]).is_empty());
    }

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
        let query = "I need a hotel in Rome. The hotel should be central. Pick a quiet hotel. Convert 300 dollars to euros.";
        let found = top(&index, query, 2);
        assert!(found.contains(&"convert_currency".to_string()), "{found:?}");
    }

    #[test]
    fn neighbouring_requests_are_also_read_together() {
        let catalog = r#"[{"name": "event_date", "description": "Date of a battle."},
                          {"name": "battle_facts", "description": "Facts about a battle."},
                          {"name": "date_calc", "description": "Add days to a date."},
                          {"name": "flight_book", "description": "Book a flight."}]"#;
        let query = "Book a flight to Rome. Tell me about the Battle of Hastings. When did it take place?";
        let with_pairs = Index::from_catalog(catalog).unwrap();
        let without = Index::from_catalog_with(catalog, Params { fusion_pair: 0.0, ..Params::default() }).unwrap();
        // The tool that needs both sentences gains on the one that serves the first alone.
        let lead = |index: &Index| {
            let score = |name: &str| Searcher::new(index).explain(query, name).unwrap().score;
            score("event_date") - score("battle_facts")
        };
        assert!(lead(&with_pairs) > lead(&without) + 0.01, "{} vs {}", lead(&with_pairs), lead(&without));
    }
}
