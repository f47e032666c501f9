//! Searching an [`Index`]: query terms, BM25F scores and ordering. Compound queries are fused in
//! [`crate::fusion`]; [`crate::explain`] tells why a tool ranks where it does.
//!
//! A term's weight in a document is BM25F: its frequency in each field is normalized by that
//! field's length and weighted (see [`crate::params::Params`]) before BM25's saturation, so a
//! word in a short name counts for more than the same word deep in a long schema.

use crate::bm25;
use rustc_hash::FxHashSet;
use crate::index::{DocId, Index, TermId, TermKind};
use crate::query::{self, Query};
use crate::scores::Scores;
use crate::analysis::{term_of, Analyzer, Piece};
use crate::value_words;

/// One ranked tool. `score` is rounded to six decimals.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit<'a> {
    pub name: &'a str,
    pub summary: &'a str,
    pub score: f64,
}

/// How a query term relates to the query text it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Match {
    /// The query word's own stem.
    Word,
    /// An index word sharing a start with the query word (see `Params::prefix_weight`).
    Related,
    /// A whole identifier written in the query.
    Whole,
    /// A CJK piece.
    Gram,
    /// The kind of value a query word names: "currency" for "yen" (see [`crate::value_words`]).
    Value,
}

/// A query term: the index term, its weight in the score, and where it came from.
pub(crate) struct QueryTerm<'q> {
    pub id: TermId,
    pub weight: f64,
    pub kind: Match,
    pub word: &'q str,
}

impl Index {
    /// At most `limit` tools, best first. A tool whose name equals the trimmed query comes first
    /// whatever its score, even when `exclude` lists it: a query that names a tool always finds
    /// it. Everything else is ordered by score, then by name in code-point order; `exclude` only
    /// removes names from that ranked part. See [`Query`] for `select:` and `+word`.
    pub fn search(&self, query: &str, limit: usize, exclude: &[&str]) -> Vec<Hit<'_>> {
        if limit == 0 {
            return Vec::new();
        }
        let exact = self.doc_named(query.trim());
        let (text, required) = match Query::parse(query) {
            // A tool literally named `select:...` is still an exact name.
            Query::Select(names) => {
                let found = names.iter().filter_map(|name| self.doc_named(name));
                let listed = exact.into_iter().chain(found.filter(|&doc| Some(doc) != exact));
                return listed.take(limit).map(|doc| self.hit(doc, 0.0)).collect();
            }
            Query::Ranked { text, required } => (text, required),
        };
        let mut scores = self.ranking_scores(text, &required);
        self.raise_mentioned(&mut scores, text);
        let excluded: FxHashSet<&str> = exclude.iter().copied().collect();
        let candidates = scores.iter().filter(|&(doc, _)| Some(doc) != exact && !excluded.contains(self.name(doc)));
        let room = limit - usize::from(exact.is_some());
        let ranked = self.top(candidates.map(|(doc, score)| (score, doc)).collect(), room);
        let exact = exact.map(|doc| (bm25::round6(scores.get(doc)), doc));
        exact.into_iter().chain(ranked).map(|(score, doc)| self.hit(doc, score)).collect()
    }

    /// Lifts every matching tool whose name the query writes as an identifier (see
    /// [`query::mentions`]) above every tool it does not name, by adding the best score to its own:
    /// a request that says which tool to use is followed, and named tools keep their order.
    fn raise_mentioned(&self, scores: &mut Scores, text: &str) {
        let mut mentioned: Vec<DocId> = query::mentions(text).filter_map(|name| self.doc_named(name)).collect();
        if mentioned.is_empty() {
            return;
        }
        // A tool named twice is raised once.
        mentioned.sort_unstable();
        mentioned.dedup();
        let best = scores.iter().map(|(_, score)| score).fold(0.0, f64::max);
        for doc in mentioned {
            if scores.get(doc) > 0.0 {
                scores.add(doc, best);
            }
        }
    }

    /// The score every matching document is ranked by: BM25F of the whole query, or for a
    /// compound query the fusion of its requests' rankings.
    fn ranking_scores(&self, text: &str, required: &[String]) -> Scores {
        let requests = query::requests(text);
        if self.params.fusion_k > 0.0 && requests.len() > 1 {
            self.fused(text, &requests, required)
        } else {
            self.scores(text, required)
        }
    }

    pub(crate) fn fuses(&self, text: &str) -> bool {
        self.params.fusion_k > 0.0 && query::requests(text).len() > 1
    }

    /// BM25F scores of the documents that contain at least one query term and every required
    /// term.
    pub(crate) fn scores(&self, text: &str, required: &[String]) -> Scores {
        let mut scores = Scores::new(self.docs.len());
        self.score_into(&mut scores, text, required);
        scores
    }

    /// [`Self::scores`] into cleared score slots, so that scoring many requests allocates once.
    pub(crate) fn score_into(&self, scores: &mut Scores, text: &str, required: &[String]) {
        let terms = self.distinct_terms(&mut Analyzer::new(), text);
        self.score_terms(scores, &terms, required);
    }

    /// BM25F scores of weighted query terms (see [`Self::distinct_terms`]) into cleared score
    /// slots.
    pub(crate) fn score_terms(&self, scores: &mut Scores, terms: &[(TermId, f64)], required: &[String]) {
        for &(id, weight) in terms {
            for (doc, impact) in self.postings.scored(id) {
                scores.add(doc, impact * weight);
            }
        }
        for term in required {
            let holds = |doc: DocId| self.terms.get(term.as_str()).is_some_and(|&id| self.holds(id, doc));
            scores.retain(holds);
        }
    }

    /// Each index term the query text asks for, once, with the largest weight any of its words
    /// gives it. A word repeated in a request counts once: a long request names its subject again
    /// and again ("the triangle ... this triangle"), and counting every mention let that subject
    /// outweigh the rest of the request (BFCL dev set: R@5 0.940 to 0.948). In term-id order, so
    /// that scores add up in the same order on every machine.
    pub(crate) fn distinct_terms(&self, analyzer: &mut Analyzer, text: &str) -> Vec<(TermId, f64)> {
        let mut asked: Vec<(TermId, f64)> = Vec::new();
        self.query_terms(analyzer, text, |qt| asked.push((qt.id, qt.weight)));
        // By id, heaviest first: the first of each id is the one to keep.
        asked.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
        asked.dedup_by_key(|term| term.0);
        asked
    }

    /// Calls `visit` with every index term the query text asks for, as often as it asks: each
    /// piece's own term, for words the index words related to them by prefix, and for words that
    /// name a value the word for its kind.
    pub(crate) fn query_terms(&self, analyzer: &mut Analyzer, text: &str, mut visit: impl FnMut(QueryTerm<'_>)) {
        analyzer.pieces(text, |piece| {
            if let Piece::Word(word) = piece {
                let kind = value_words::kind_of(word).and_then(|kind| term_of(Piece::Word(kind)));
                if let Some(&id) = kind.and_then(|kind| self.terms.get(kind.as_str())) {
                    visit(QueryTerm { id, weight: self.params.value_weight, kind: Match::Value, word });
                }
            }
            let Some(term) = term_of(piece) else { return };
            let (kind, word) = match piece {
                Piece::Word(w) => (Match::Word, w),
                Piece::Whole(w) => (Match::Whole, w),
                Piece::Gram(w) => (Match::Gram, w),
            };
            if let Some(&id) = self.terms.get(term.as_str()) {
                visit(QueryTerm { id, weight: 1.0, kind, word });
            }
            if kind == Match::Word && self.params.prefix_weight > 0.0 {
                for id in self.related_words(&term) {
                    visit(QueryTerm { id, weight: self.params.prefix_weight, kind: Match::Related, word });
                }
            }
        });
    }

    /// The best `n` of raw `(score, doc)` pairs, with their scores rounded as reported, ordered
    /// by rounded score, then name. Only candidates that can still round into the top `n` are
    /// rounded and compared by name: names are compared only to break ties.
    pub(crate) fn top(&self, mut raw: Vec<(f64, DocId)>, n: usize) -> Vec<(f64, DocId)> {
        if n == 0 {
            return Vec::new();
        }
        if raw.len() > n {
            raw.select_nth_unstable_by(n - 1, |a, b| b.0.total_cmp(&a.0));
            // Scores that round to the same six decimals differ by less than 1e-6; a margin of
            // twice that keeps every candidate that could tie with the n-th after rounding.
            let floor = raw[n - 1].0 - 2e-6;
            raw.retain(|&(score, _)| score >= floor);
        }
        let mut ranked: Vec<(f64, DocId)> = raw.into_iter().map(|(score, doc)| (bm25::round6(score), doc)).collect();
        ranked.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then_with(|| self.name(a.1).cmp(self.name(b.1))));
        ranked.truncate(n);
        ranked
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
                if self.kinds[id as usize] == TermKind::Word {
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

    pub(crate) fn name(&self, doc: DocId) -> &str {
        self.docs[doc as usize].name()
    }

    fn hit(&self, doc: DocId, score: f64) -> Hit<'_> {
        let doc = &self.docs[doc as usize];
        Hit { name: doc.name(), summary: doc.summary(), score }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::catalog::{self, ToolSpec};
    use crate::params::Params;

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
        let json = crate::input::json::Json::parse(CATALOG).unwrap();
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
    fn a_repeated_query_word_counts_once() {
        let catalog = r#"[{"name": "triangle_area", "description": "Area of a triangle."},
                          {"name": "circle_area", "description": "Area of a circle from its radius."}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        let once = index.search("radius of the circle", 2, &[]);
        let again = index.search("radius of the circle, a circle, that circle", 2, &[]);
        assert_eq!(names(&once), ["circle_area"]);
        assert_eq!(again[0].score, once[0].score);
    }

    #[test]
    fn a_value_word_asks_for_its_kind() {
        let index = index();
        let hits = index.search("how much is 20000 yen", 5, &[]);
        assert_eq!(names(&hits), ["convert_currency"]);
        let explained = index.explain("how much is 20000 yen", "convert_currency").unwrap();
        let kinds: Vec<(&str, Match, &str)> =
            explained.terms.iter().map(|t| (t.term.as_str(), t.kind, t.query_word.as_str())).collect();
        assert_eq!(kinds, [("currenc", Match::Value, "yen")]);
        let off = Index::from_catalog_with(CATALOG, Params { value_weight: 0.0, ..Params::default() }).unwrap();
        assert!(off.search("how much is 20000 yen", 5, &[]).is_empty());
    }

    #[test]
    fn a_tool_named_in_the_query_ranks_above_the_rest() {
        let index = index();
        let query = "get the current weather forecast for a city, and list_issues";
        let hits = index.search(query, 5, &[]);
        assert_eq!(hits[0].name, "list_issues", "{hits:?}");
        assert!(hits[0].score > hits[1].score);
        let both = names(&index.search("use 'list_issues' and create_issue.", 2, &[]));
        assert_eq!(both.len(), 2);
        assert!(both.contains(&"list_issues".to_string()) && both.contains(&"create_issue".to_string()));
        assert_eq!(names(&index.search("weather +city with create_issue", 5, &[])), ["get_weather"], "+city still rules");
    }

    #[test]
    fn select_returns_exactly_the_named_tools_in_order() {
        let index = index();
        let hits = index.search("select:list_issues, get_weather,missing,list_issues", 10, &["get_weather"]);
        assert_eq!(names(&hits), ["list_issues", "get_weather"]);
        assert_eq!(names(&index.search("select:list_issues,get_weather", 1, &[])), ["list_issues"]);
    }

    #[test]
    fn a_tool_named_like_a_select_query_is_still_found_first_by_its_name() {
        let index = Index::from_catalog(r#"[{"name": "a"}, {"name": "select:a"}, {"name": "b"}]"#).unwrap();
        assert_eq!(names(&index.search("select:a", 5, &[])), ["select:a", "a"]);
        assert_eq!(names(&index.search(" select:a ", 1, &[])), ["select:a"]);
        assert_eq!(names(&index.search("select:b,a", 5, &[])), ["b", "a"]);
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
