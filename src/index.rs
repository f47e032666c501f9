//! The inverted index: built once per catalog, then searched many times.
//!
//! Each term keeps a postings list of the documents that contain it, so a search reads only the
//! postings of its own terms and scores only the documents found there.

use std::collections::{HashMap, HashSet};

use crate::bm25;
use crate::catalog::{self, CatalogError, ToolSpec};
use crate::document::project;
use crate::json::Json;
use crate::summary::summarize;
use crate::text::Analyzer;

type DocId = u32;
type TermId = u32;

struct Doc {
    name: String,
    summary: String,
    /// The projected text, kept for `search_text`.
    text: String,
    /// [`bm25::length_norm`] of this document, fixed at build time.
    norm: f64,
}

#[derive(Clone, Copy)]
struct Posting {
    doc: DocId,
    tf: u32,
}

pub struct Index {
    docs: Vec<Doc>,
    by_name: HashMap<String, DocId>,
    terms: HashMap<String, TermId>,
    postings: Vec<Vec<Posting>>,
    idf: Vec<f64>,
}

/// One ranked tool. `score` is rounded to six decimals.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit<'a> {
    pub name: &'a str,
    pub summary: &'a str,
    pub score: f64,
}

impl Index {
    /// Parses catalog JSON (see [`catalog`]) and indexes it. A repeated name keeps its first tool.
    pub fn from_catalog(text: &str) -> Result<Index, CatalogError> {
        let json = catalog::parse(text)?;
        let tools = catalog::tools(&json)?;
        Ok(Self::build(&json, &tools))
    }

    fn build(json: &Json, tools: &[ToolSpec]) -> Index {
        let mut analyzer = Analyzer::new();
        let mut index = Index {
            docs: Vec::with_capacity(tools.len()),
            by_name: HashMap::with_capacity(tools.len()),
            terms: HashMap::new(),
            postings: Vec::new(),
            idf: Vec::new(),
        };
        let mut lengths = Vec::with_capacity(tools.len());
        let mut doc_terms: Vec<TermId> = Vec::new();
        for tool in tools {
            if index.by_name.contains_key(tool.name) {
                continue;
            }
            let doc = index.docs.len() as DocId;
            let text = project(json, tool);
            doc_terms.clear();
            analyzer.analyze(&text, |term| doc_terms.push(index.term_id(term)));
            lengths.push(doc_terms.len());
            index.add_postings(doc, &mut doc_terms);
            index.by_name.insert(tool.name.to_string(), doc);
            index.docs.push(Doc {
                name: tool.name.to_string(),
                summary: summarize(tool.description),
                text,
                norm: 0.0,
            });
        }
        // An integer total keeps the average independent of catalog order.
        let total: usize = lengths.iter().sum();
        let avg_len = if lengths.is_empty() { 0.0 } else { total as f64 / lengths.len() as f64 };
        for (doc, len) in index.docs.iter_mut().zip(lengths) {
            doc.norm = bm25::length_norm(len, avg_len);
        }
        let n = index.docs.len();
        index.idf = index.postings.iter().map(|list| bm25::idf(n, list.len())).collect();
        index
    }

    fn term_id(&mut self, term: &str) -> TermId {
        if let Some(&id) = self.terms.get(term) {
            return id;
        }
        let id = self.postings.len() as TermId;
        self.terms.insert(term.to_string(), id);
        self.postings.push(Vec::new());
        id
    }

    /// Adds one posting per distinct term of a document, with its frequency.
    fn add_postings(&mut self, doc: DocId, terms: &mut [TermId]) {
        terms.sort_unstable();
        for run in terms.chunk_by(|a, b| a == b) {
            self.postings[run[0] as usize].push(Posting { doc, tf: run.len() as u32 });
        }
    }

    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// The projected text a tool is indexed under.
    pub fn search_text(&self, name: &str) -> Option<&str> {
        self.by_name.get(name).map(|&doc| self.docs[doc as usize].text.as_str())
    }

    /// At most `limit` tools, best first. A tool whose name equals the trimmed query comes first
    /// whatever its score, even when `exclude` lists it: a query that names a tool always finds
    /// it. Everything else is ordered by score, then by name in code-point order; `exclude` only
    /// removes names from that ranked part.
    pub fn search(&self, query: &str, limit: usize, exclude: &[&str]) -> Vec<Hit<'_>> {
        if limit == 0 {
            return Vec::new();
        }
        let exact = self.by_name.get(query.trim()).copied();
        let scores = self.score(query);
        let excluded: HashSet<&str> = exclude.iter().copied().collect();
        let mut ranked: Vec<(f64, DocId)> = scores
            .iter()
            .filter(|&(&doc, _)| Some(doc) != exact && !excluded.contains(self.name(doc)))
            .map(|(&doc, &score)| (bm25::round6(score), doc))
            .collect();
        let room = limit - usize::from(exact.is_some());
        let order = |a: &(f64, DocId), b: &(f64, DocId)| {
            b.0.total_cmp(&a.0).then_with(|| self.name(a.1).cmp(self.name(b.1)))
        };
        if ranked.len() > room && room > 0 {
            ranked.select_nth_unstable_by(room - 1, order);
        }
        ranked.truncate(room);
        ranked.sort_unstable_by(order);
        let exact = exact.map(|doc| (bm25::round6(scores.get(&doc).copied().unwrap_or(0.0)), doc));
        exact.into_iter().chain(ranked).map(|(score, doc)| self.hit(doc, score)).collect()
    }

    /// BM25 scores of the documents that contain at least one query term. A repeated query word
    /// counts again, as in the seed's ranking.
    fn score(&self, query: &str) -> HashMap<DocId, f64> {
        let mut scores: HashMap<DocId, f64> = HashMap::new();
        Analyzer::new().analyze(query, |term| {
            let Some(&term) = self.terms.get(term) else { return };
            let idf = self.idf[term as usize];
            for posting in &self.postings[term as usize] {
                let norm = self.docs[posting.doc as usize].norm;
                *scores.entry(posting.doc).or_default() += bm25::term_score(idf, posting.tf as f64, norm);
            }
        });
        scores
    }

    fn name(&self, doc: DocId) -> &str {
        &self.docs[doc as usize].name
    }

    fn hit(&self, doc: DocId, score: f64) -> Hit<'_> {
        let doc = &self.docs[doc as usize];
        Hit { name: &doc.name, summary: &doc.summary, score }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CATALOG: &str = r#"[
        {"name": "get_weather", "description": "Get the current weather and forecast for a city.",
         "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}}}},
        {"name": "convert_currency", "description": "Convert an amount of money between currencies.",
         "parameters": {"type": "object", "properties": {"amount": {"type": "number"}, "to": {"type": "string", "description": "target currency code"}}}},
        {"name": "create_issue", "description": "Create an issue in a repository issue tracker."},
        {"name": "weather", "description": "Unrelated tool that happens to be named weather."},
        {"name": "list_issues", "description": "List the issues of a repository."}
    ]"#;

    fn index() -> Index {
        Index::from_catalog(CATALOG).unwrap()
    }

    fn names(hits: &[Hit]) -> Vec<String> {
        hits.iter().map(|h| h.name.to_string()).collect()
    }

    #[test]
    fn finds_tools_by_meaningful_words() {
        let index = index();
        assert_eq!(index.len(), 5);
        assert_eq!(names(&index.search("convert dollars to another currency", 1, &[])), ["convert_currency"]);
        assert_eq!(names(&index.search("forecast for Paris", 1, &[])), ["get_weather"]);
        let mut issues = names(&index.search("open an issue on the repository", 5, &[]));
        issues.truncate(2);
        issues.sort();
        assert_eq!(issues, ["create_issue", "list_issues"]);
    }

    #[test]
    fn an_exact_name_comes_first_even_when_others_score_higher() {
        let catalog = r#"[{"name": "forecast", "description": "Returns tomorrow's outlook from a remote service with many details."},
                          {"name": "get_forecast", "description": "Forecast, forecast, forecast."}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        let ranked = index.search("get forecast", 2, &[]);
        assert_eq!(names(&ranked), ["get_forecast", "forecast"]);
        let hits = index.search("  forecast  ", 2, &[]);
        assert_eq!(names(&hits), ["forecast", "get_forecast"]);
        assert!(hits[1].score > hits[0].score);
    }

    #[test]
    fn an_exact_name_is_found_even_when_excluded_but_exclusions_leave_the_ranking() {
        let index = index();
        let hits = index.search("create_issue", 5, &["create_issue", "list_issues"]);
        assert_eq!(hits[0].name, "create_issue");
        assert!(!names(&hits).contains(&"list_issues".to_string()));
    }

    #[test]
    fn exact_match_with_no_shared_terms_scores_zero_but_is_returned() {
        let index = Index::from_catalog(r#"[{"name": "the"}, {"name": "b", "description": "the b tool"}]"#).unwrap();
        let hits = index.search("the", 5, &[]);
        assert_eq!(names(&hits), ["the"]);
        assert_eq!(hits[0].score, 0.0);
    }

    #[test]
    fn limits_are_respected() {
        let index = index();
        assert!(index.search("weather", 0, &[]).is_empty());
        assert_eq!(index.search("issue repository weather currency", 2, &[]).len(), 2);
        assert_eq!(index.search("issue repository weather currency", 1000, &[]).len(), 5);
        assert_eq!(index.search("weather", 1, &[])[0].name, "weather");
    }

    #[test]
    fn queries_without_known_terms_find_nothing() {
        let index = index();
        assert!(index.search("", 5, &[]).is_empty());
        assert!(index.search("the and of", 5, &[]).is_empty());
        assert!(index.search("zebra", 5, &[]).is_empty());
    }

    #[test]
    fn equal_scores_are_ordered_by_name_in_code_point_order() {
        let catalog = r#"[{"name": "c_tool", "description": "same words"}, {"name": "b_tool", "description": "same words"},
                          {"name": "Z_tool", "description": "same words"}, {"name": "é_tool", "description": "same words"}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        let hits = index.search("same words", 10, &[]);
        assert_eq!(names(&hits), ["Z_tool", "b_tool", "c_tool", "é_tool"]);
        assert!(hits.windows(2).all(|w| w[0].score == w[1].score));
    }

    #[test]
    fn the_same_catalog_in_any_order_ranks_the_same() {
        let json = crate::json::Json::parse(CATALOG).unwrap();
        let tools = catalog::tools(&json).unwrap();
        let forward = Index::build(&json, &tools);
        let reversed: Vec<_> = tools.iter().rev().copied().collect();
        let backward = Index::build(&json, &reversed);
        let rotated: Vec<_> = tools[2..].iter().chain(&tools[..2]).copied().collect();
        let rotated = Index::build(&json, &rotated);
        for query in ["weather", "issue", "currency money city", "repository tracker", "create_issue"] {
            let expected = forward.search(query, 10, &[]);
            assert_eq!(backward.search(query, 10, &[]), expected, "{query}");
            assert_eq!(rotated.search(query, 10, &[]), expected, "{query}");
        }
    }

    #[test]
    fn a_repeated_name_keeps_the_first_tool() {
        let index = Index::from_catalog(r#"[{"name": "t", "description": "first"}, {"name": "t", "description": "second"}]"#).unwrap();
        assert_eq!(index.len(), 1);
        assert_eq!(index.search("t", 1, &[])[0].summary, "first");
        assert!(index.search("second", 1, &[]).is_empty());
    }

    #[test]
    fn hits_carry_the_summary_and_rounded_scores() {
        let long = "word ".repeat(100);
        let catalog = format!(r#"[{{"name": "t", "description": "{long}"}}]"#);
        let index = Index::from_catalog(&catalog).unwrap();
        let hit = &index.search("word", 1, &[])[0];
        assert_eq!(hit.summary.chars().count(), 240);
        assert_eq!(hit.score, bm25::round6(hit.score));
        assert!(hit.score > 0.0);
    }

    #[test]
    fn search_text_is_the_projection() {
        let index = index();
        assert_eq!(
            index.search_text("convert_currency"),
            Some("convert_currency convert currency Convert an amount of money between currencies. amount to target currency code")
        );
        assert_eq!(index.search_text("missing"), None);
    }

    #[test]
    fn an_empty_catalog_searches_to_nothing() {
        let index = Index::from_catalog("[]").unwrap();
        assert_eq!(index.len(), 0);
        assert!(index.search("anything", 5, &[]).is_empty());
    }
}
