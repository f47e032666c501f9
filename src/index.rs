//! The inverted index: built once per catalog, then searched many times.
//!
//! Ranking is BM25F: a term's frequency in each field (name, description, parameter names,
//! schema text) is normalized by that field's length and weighted before BM25's saturation, so a
//! word in a short name counts for more than the same word deep in a long schema. Each term keeps
//! a postings list of the documents that contain it, so a search reads only its own terms'
//! postings and scores only the documents found there.

use crate::bm25;
use crate::catalog::{self, CatalogError, ToolSpec};
use crate::document::{project, FIELDS};
use crate::hash::{FastMap, FastSet};
use crate::json::Json;
use crate::query::Query;
use crate::summary::summarize;
use crate::text::{term_of, Analyzer, Piece};

type DocId = u32;
type TermId = u32;

/// Ranking parameters. The defaults were chosen on the BFCL dev set's tuning part and checked on
/// its held-back part (`cargo run --release --example tune`, `pnpm eval`).
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Term-frequency saturation.
    pub k1: f64,
    /// Weight of one occurrence in each field, by [`crate::document::Field`] order.
    pub weights: [f64; FIELDS],
    /// Length normalization of each field (0: none, 1: full).
    pub b: [f64; FIELDS],
    /// Weight of a related word: an index word that is a prefix of a query word or starts with
    /// it ("calc" and "calculate", "discov" and "discover"). 0 turns prefix matching off.
    pub prefix_weight: f64,
    /// Shortest word taking part in prefix matching, in bytes.
    pub prefix_min: usize,
    /// Bonus for a tool whose name words the query covers, times the idf-weighted share covered.
    pub name_coverage: f64,
    /// Reciprocal-rank fusion constant for queries of several requests (0: no fusion).
    pub fusion_k: f64,
    /// Weight of the whole query's ranking in the fusion (each request's ranking weighs 1).
    pub fusion_whole: f64,
    /// How deep each ranking taking part in a fusion is read.
    pub fusion_depth: usize,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            k1: 1.5,
            weights: [3.0, 1.0, 1.5, 0.5],
            b: [1.0, 0.75, 0.5, 1.0],
            prefix_weight: 0.3,
            prefix_min: 4,
            name_coverage: 0.0,
            fusion_k: 1.0,
            fusion_whole: 1.5,
            fusion_depth: 20,
        }
    }
}

struct Doc {
    name: String,
    summary: String,
    /// The projected text, kept for `search_text`.
    text: String,
    /// Per field: weight / length normalization, so a term's fielded frequency is a dot product.
    field_factor: [f64; FIELDS],
    /// Distinct word terms of the name, for the name-coverage bonus.
    name_terms: Vec<TermId>,
}

#[derive(Clone, Copy)]
struct Posting {
    doc: DocId,
    tf: [u32; FIELDS],
}

pub struct Index {
    params: Params,
    docs: Vec<Doc>,
    by_name: FastMap<String, DocId>,
    terms: FastMap<String, TermId>,
    postings: Vec<Vec<Posting>>,
    idf: Vec<f64>,
    /// Word terms (stems, not joined identifiers or CJK pieces) in text order, for prefix lookups.
    words_sorted: Vec<(Box<str>, TermId)>,
    /// Which terms are stemmed words.
    is_word: Vec<bool>,
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
        Self::from_catalog_with(text, Params::default())
    }

    pub fn from_catalog_with(text: &str, params: Params) -> Result<Index, CatalogError> {
        let json = catalog::parse(text)?;
        let tools = catalog::tools(&json)?;
        Ok(Self::build(&json, &tools, params))
    }

    fn build(json: &Json, tools: &[ToolSpec], params: Params) -> Index {
        let mut index = Index {
            params,
            docs: Vec::with_capacity(tools.len()),
            by_name: FastMap::default(),
            terms: FastMap::default(),
            postings: Vec::new(),
            idf: Vec::new(),
            words_sorted: Vec::new(),
            is_word: Vec::new(),
        };
        let mut builder = Builder::default();
        let mut lengths: Vec<[usize; FIELDS]> = Vec::with_capacity(tools.len());
        for tool in tools {
            if index.by_name.contains_key(tool.name) {
                continue;
            }
            let doc = index.docs.len() as DocId;
            let projection = project(json, tool);
            builder.doc_terms.clear();
            for (field, text) in projection.fields() {
                builder.add_text(&mut index, field as usize, text);
            }
            lengths.push(builder.field_lengths());
            index.add_postings(doc, &mut builder.doc_terms);
            index.by_name.insert(tool.name.to_string(), doc);
            index.docs.push(Doc {
                name: tool.name.to_string(),
                summary: summarize(tool.description),
                text: projection.text,
                field_factor: [0.0; FIELDS],
                name_terms: builder.name_terms(&index),
            });
        }
        index.normalize_lengths(&lengths);
        let n = index.docs.len();
        index.idf = index.postings.iter().map(|list| bm25::idf(n, list.len())).collect();
        let mut words: Vec<(Box<str>, TermId)> = index
            .terms
            .iter()
            .filter(|(_, &id)| index.is_word[id as usize])
            .map(|(text, &id)| (text.as_str().into(), id))
            .collect();
        words.sort_unstable();
        index.words_sorted = words;
        index
    }

    /// Fixes each document's field factors once every length is known. Integer totals keep the
    /// averages independent of catalog order.
    fn normalize_lengths(&mut self, lengths: &[[usize; FIELDS]]) {
        let n = lengths.len().max(1) as f64;
        let mut avg = [0.0; FIELDS];
        for (f, slot) in avg.iter_mut().enumerate() {
            *slot = lengths.iter().map(|l| l[f]).sum::<usize>() as f64 / n;
        }
        let params = &self.params;
        for (doc, len) in self.docs.iter_mut().zip(lengths) {
            for f in 0..FIELDS {
                let ratio = if avg[f] > 0.0 { len[f] as f64 / avg[f] } else { 0.0 };
                let norm = 1.0 - params.b[f] + params.b[f] * ratio;
                // An empty field contributes nothing (and with b = 1 its norm would be 0).
                doc.field_factor[f] = if len[f] == 0 { 0.0 } else { params.weights[f] / norm };
            }
        }
    }

    fn term_id(&mut self, term: &str, is_word: bool) -> TermId {
        if let Some(&id) = self.terms.get(term) {
            self.is_word[id as usize] |= is_word;
            return id;
        }
        let id = self.postings.len() as TermId;
        self.terms.insert(term.to_string(), id);
        self.postings.push(Vec::new());
        self.is_word.push(is_word);
        id
    }

    /// Adds one posting per distinct term of a document, with its per-field frequencies.
    fn add_postings(&mut self, doc: DocId, terms: &mut [(TermId, u8)]) {
        terms.sort_unstable_by_key(|&(term, _)| term);
        for run in terms.chunk_by(|a, b| a.0 == b.0) {
            let mut tf = [0; FIELDS];
            for &(_, field) in run {
                tf[field as usize] += 1;
            }
            self.postings[run[0].0 as usize].push(Posting { doc, tf });
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
    /// removes names from that ranked part. See [`Query`] for `select:` and `+word`.
    pub fn search(&self, query: &str, limit: usize, exclude: &[&str]) -> Vec<Hit<'_>> {
        if limit == 0 {
            return Vec::new();
        }
        let query = Query::parse(query);
        if let Query::Select(names) = &query {
            let found = names.iter().filter_map(|name| self.by_name.get(*name));
            return found.take(limit).map(|&doc| self.hit(doc, 0.0)).collect();
        }
        let Query::Ranked { text, required } = query else { unreachable!() };
        let exact = self.by_name.get(text.trim()).copied();
        let clauses = crate::query::requests(text);
        let scores = if self.params.fusion_k > 0.0 && clauses.len() > 1 {
            self.fused(text, &clauses, &required)
        } else {
            self.score(text, &required)
        };
        let excluded: FastSet<&str> = exclude.iter().copied().collect();
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

    /// BM25F scores of the documents that contain at least one query term and every required
    /// term. A repeated query word counts again.
    fn score(&self, text: &str, required: &[String]) -> FastMap<DocId, f64> {
        let mut query_terms: Vec<(TermId, f64)> = Vec::new();
        let mut analyzer = Analyzer::new();
        crate::text::for_each_term(&mut analyzer, text, |term| {
            if let Some(&id) = self.terms.get(term) {
                query_terms.push((id, 1.0));
            }
            if self.params.prefix_weight > 0.0 {
                for id in self.related_words(term) {
                    query_terms.push((id, self.params.prefix_weight));
                }
            }
        });
        let mut scores: FastMap<DocId, f64> = FastMap::default();
        for &(term, weight) in &query_terms {
            let idf = self.idf[term as usize] * weight;
            for posting in &self.postings[term as usize] {
                let factor = &self.docs[posting.doc as usize].field_factor;
                let tf: f64 = (0..FIELDS).map(|f| posting.tf[f] as f64 * factor[f]).sum();
                *scores.entry(posting.doc).or_default() += bm25::saturate(idf, tf, self.params.k1);
            }
        }
        if self.params.name_coverage > 0.0 {
            let asked: FastSet<TermId> = query_terms.iter().map(|&(t, _)| t).collect();
            for (&doc, score) in scores.iter_mut() {
                let names = &self.docs[doc as usize].name_terms;
                let total: f64 = names.iter().map(|&t| self.idf[t as usize]).sum();
                let covered: f64 = names.iter().filter(|t| asked.contains(t)).map(|&t| self.idf[t as usize]).sum();
                if total > 0.0 {
                    *score += self.params.name_coverage * covered / total;
                }
            }
        }
        for term in required {
            let holders: FastSet<DocId> = match self.terms.get(term.as_str()) {
                Some(&id) => self.postings[id as usize].iter().map(|p| p.doc).collect(),
                None => FastSet::default(),
            };
            scores.retain(|doc, _| holders.contains(doc));
        }
        scores
    }

    /// One score per document from the rankings of the whole query and of each request in it
    /// (reciprocal-rank fusion), so that every request of a compound query places its best tools
    /// near the top instead of the longest request taking every slot.
    fn fused(&self, text: &str, clauses: &[&str], required: &[String]) -> FastMap<DocId, f64> {
        let p = &self.params;
        let mut fused: FastMap<DocId, f64> = FastMap::default();
        let whole = self.score(text, required);
        let lists = std::iter::once((p.fusion_whole, whole.clone()))
            .chain(clauses.iter().map(|clause| (1.0, self.score(clause, required))));
        for (weight, scores) in lists {
            let mut ranked: Vec<(f64, DocId)> = scores.into_iter().map(|(d, s)| (bm25::round6(s), d)).collect();
            ranked.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then_with(|| self.name(a.1).cmp(self.name(b.1))));
            for (rank, &(_, doc)) in ranked.iter().take(p.fusion_depth).enumerate() {
                *fused.entry(doc).or_default() += weight * (p.fusion_k + 1.0) / (p.fusion_k + 1.0 + rank as f64);
            }
        }
        // Documents past every list's depth keep a trace of their whole-query score below all
        // fused ones, so the tail still follows relevance.
        for (doc, score) in whole {
            fused.entry(doc).or_insert(score * 1e-6);
        }
        fused
    }

    /// Index words related to a query word by a shared start: shorter words it begins with, and
    /// longer words that begin with it. Both must be at least `prefix_min` bytes long.
    fn related_words(&self, term: &str) -> Vec<TermId> {
        let min = self.params.prefix_min;
        let mut related = Vec::new();
        if term.len() < min {
            return related;
        }
        for end in (min..term.len()).filter(|&end| term.is_char_boundary(end)) {
            if let Some(&id) = self.terms.get(&term[..end]) {
                if self.is_word[id as usize] {
                    related.push(id);
                }
            }
        }
        let start = self.words_sorted.partition_point(|(text, _)| text.as_ref() <= term);
        for (text, id) in &self.words_sorted[start..] {
            if !text.starts_with(term) {
                break;
            }
            related.push(*id);
        }
        related
    }

    fn name(&self, doc: DocId) -> &str {
        &self.docs[doc as usize].name
    }

    fn hit(&self, doc: DocId, score: f64) -> Hit<'_> {
        let doc = &self.docs[doc as usize];
        Hit { name: &doc.name, summary: &doc.summary, score }
    }
}

/// Per-build scratch state: the terms of the document being indexed and a cache from analyzer
/// pieces to term ids, so a word the catalog repeats is resolved once per build.
#[derive(Default)]
struct Builder {
    analyzer: Analyzer,
    words: FastMap<String, Option<TermId>>,
    verbatim: FastMap<String, TermId>,
    /// (term, field) of every term occurrence in the current document.
    doc_terms: Vec<(TermId, u8)>,
}

impl Builder {
    fn add_text(&mut self, index: &mut Index, field: usize, text: &str) {
        let Builder { analyzer, words, verbatim, doc_terms } = self;
        analyzer.pieces(text, |piece| {
            let id = match piece {
                Piece::Word(word) => match words.get(word) {
                    Some(&id) => id,
                    None => {
                        let id = term_of(piece).map(|term| index.term_id(&term, true));
                        words.insert(word.to_string(), id);
                        id
                    }
                },
                Piece::Whole(text) | Piece::Gram(text) => Some(match verbatim.get(text) {
                    Some(&id) => id,
                    None => {
                        let id = index.term_id(text, false);
                        verbatim.insert(text.to_string(), id);
                        id
                    }
                }),
            };
            if let Some(id) = id {
                doc_terms.push((id, field as u8));
            }
        });
    }

    /// Distinct word terms of the current document's name field.
    fn name_terms(&self, index: &Index) -> Vec<TermId> {
        let mut terms: Vec<TermId> = self
            .doc_terms
            .iter()
            .filter(|&&(id, field)| field == 0 && index.is_word[id as usize])
            .map(|&(id, _)| id)
            .collect();
        terms.sort_unstable();
        terms.dedup();
        terms
    }

    fn field_lengths(&self) -> [usize; FIELDS] {
        let mut lengths = [0; FIELDS];
        for &(_, field) in &self.doc_terms {
            lengths[field as usize] += 1;
        }
        lengths
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
        assert_eq!(names(&index.search("get forecast", 2, &[])), ["get_forecast", "forecast"]);
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
        let json = Json::parse(CATALOG).unwrap();
        let tools = catalog::tools(&json).unwrap();
        let build = |order: Vec<ToolSpec>| Index::build(&json, &order, Params::default());
        let forward = build(tools.clone());
        let backward = build(tools.iter().rev().copied().collect());
        let rotated = build(tools[2..].iter().chain(&tools[..2]).copied().collect());
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
        let index = Index::from_catalog(&format!(r#"[{{"name": "t", "description": "{long}"}}]"#)).unwrap();
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
            Some("convert_currency Convert an amount of money between currencies. amount to target currency code")
        );
        assert_eq!(index.search_text("missing"), None);
    }

    #[test]
    fn an_empty_catalog_searches_to_nothing() {
        let index = Index::from_catalog("[]").unwrap();
        assert_eq!(index.len(), 0);
        assert!(index.search("anything", 5, &[]).is_empty());
    }

    #[test]
    fn identifier_styles_meet_each_other() {
        let catalog = r#"[{"name": "getCurrentWeather"}, {"name": "math.factorial"}, {"name": "mcp__github__create_issue"},
                          {"name": "other_tool", "description": "unrelated"}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        assert_eq!(index.search("current weather", 1, &[])[0].name, "getCurrentWeather");
        assert_eq!(index.search("get_current_weather", 1, &[])[0].name, "getCurrentWeather");
        assert_eq!(index.search("factorial of 5", 1, &[])[0].name, "math.factorial");
        assert_eq!(index.search("github issue", 1, &[])[0].name, "mcp__github__create_issue");
    }

    #[test]
    fn a_name_match_outweighs_the_same_word_deep_in_a_schema() {
        let catalog = r#"[{"name": "send_email", "description": "Send a message."},
                          {"name": "create_contact", "description": "Create a contact.",
                           "parameters": {"properties": {"note": {"description": "Free text, for example an email about the contact."}}}}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        assert_eq!(names(&index.search("email", 2, &[])), ["send_email", "create_contact"]);
    }

    #[test]
    fn enum_values_are_searchable() {
        let catalog = r#"[{"name": "set_mode", "parameters": {"properties": {"mode": {"enum": ["turbo", "eco"]}}}},
                          {"name": "other", "description": "nothing"}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        assert_eq!(names(&index.search("eco", 5, &[])), ["set_mode"]);
    }

    #[test]
    fn chinese_queries_find_chinese_descriptions() {
        let catalog = r#"[{"name": "weather_cn", "description": "查询城市的天气预报"},
                          {"name": "stock_cn", "description": "查询股票的实时价格"},
                          {"name": "weather_en", "description": "Weather forecast for a city"}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        assert_eq!(index.search("明天北京天气怎么样", 1, &[])[0].name, "weather_cn");
        assert_eq!(index.search("股票价格", 1, &[])[0].name, "stock_cn");
        assert_eq!(names(&index.search("weather 天气", 2, &[])).len(), 2);
    }

    #[test]
    fn select_returns_exactly_the_named_tools_in_order() {
        let index = index();
        let hits = index.search("select:list_issues, get_weather,missing,list_issues", 10, &["get_weather"]);
        assert_eq!(names(&hits), ["list_issues", "get_weather"]);
        assert_eq!(names(&index.search("select:list_issues,get_weather", 1, &[])), ["list_issues"]);
    }

    #[test]
    fn a_plus_word_is_required() {
        let index = index();
        let all = names(&index.search("weather issue", 5, &[]));
        assert!(all.contains(&"create_issue".to_string()) && all.contains(&"get_weather".to_string()));
        let required = names(&index.search("weather +issue", 5, &[]));
        assert!(!required.is_empty());
        assert!(required.iter().all(|n| n.contains("issue")), "{required:?}");
        assert!(index.search("weather +zebra", 5, &[]).is_empty());
    }
}
