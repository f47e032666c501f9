//! Answering a query from an [`Index`], the crate's last stage. A [`Searcher`] holds every
//! query-time step: the query's form ([`Query`]), its terms and their expansion (`expansion`),
//! BM25F scores (`scores`), the fusion of a compound query's requests (`fusion`), the semantic
//! blend (`hybrid`), the name-agreement rerank (`agreement`) and the tools a query quotes
//! (`phrase`), all run once per query by `ranking`, which the page, the explanation of a tool's
//! place (`explain`) and the match strength read.
//!
//! A term's weight in a document is BM25F: its frequency in each field is normalized by that
//! field's length and weighted (see [`crate::Params`]) before BM25's saturation, so a word in a
//! short name counts for more than the same word deep in a long schema.

mod agreement;
mod expansion;
mod explain;
mod fusion;
mod hybrid;
mod phrase;
mod query;
mod ranking;
mod scores;

pub use expansion::Match;
pub use explain::{Explanation, MissingTerm, SemanticPart, TermMatch};
pub use query::{discovered, ranked_text, requests, Form, Query};
pub use ranking::{Stage, StagePart};

use crate::analysis::Analyzer;
use crate::index::{bm25, DocId, Index};
use expansion::distinct_terms;
pub(crate) use explain::StrengthSignals;
pub(crate) use ranking::Ranking;
use scores::Scores;

/// One ranked tool. `score` is rounded to six decimals.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit<'a> {
    pub name: &'a str,
    pub summary: &'a str,
    pub score: f64,
}

/// The query side of one index. Cheap to make (it borrows the index), so a caller makes one per
/// search or keeps one beside its index.
pub struct Searcher<'i> {
    index: &'i Index,
}

impl<'i> Searcher<'i> {
    pub fn new(index: &'i Index) -> Self {
        Searcher { index }
    }

    /// At most `limit` tools the query matches, best first. A tool whose name equals the trimmed
    /// query (after any `discover:`) comes first whatever its score, even when `exclude` lists it:
    /// a query that names a tool always finds it. Everything else is ordered by score, then by
    /// name in code-point order; `exclude` only removes names from that ranked part. See `query`
    /// for `discover:`, `select:` and `+word`, and [`ranking`] for the stages.
    pub fn search(&self, query: &str, limit: usize, exclude: &[&str]) -> Vec<Hit<'i>> {
        self.hits(Ranking::new(self.index, query).page(limit, exclude, false))
    }

    /// [`Self::search`], with the page filled: in a hybrid index, when fewer than `limit` tools
    /// match, the nearest of the others by meaning take the places left, each with the score the
    /// blend gives it, and the page is ordered by score as before. A tool that fills a place is
    /// not a match (it holds no query word and is less similar than the floors that let a tool in
    /// on meaning alone), so it never pushes a matching tool off the page, though its score may
    /// place it above a weak one; it is what a reader of the page looks at next. In a small
    /// catalog a request put in other words often matches too few tools or none. A lexical
    /// index, a query with a required word and `select:` are not filled.
    pub fn search_filled(&self, query: &str, limit: usize, exclude: &[&str]) -> Vec<Hit<'i>> {
        self.hits(Ranking::new(self.index, query).page(limit, exclude, true))
    }

    pub(crate) fn hits(&self, page: Vec<(f64, DocId)>) -> Vec<Hit<'i>> {
        page.into_iter().map(|(score, doc)| self.hit(doc, score)).collect()
    }

    /// Whether a query's requests are ranked on their own and their rankings fused.
    fn fuses_requests(&self, requests: &[&str]) -> bool {
        self.index.params().fusion_k > 0.0 && requests.len() > 1
    }

    /// BM25F scores of the documents that contain at least one term of `text` and every required
    /// term.
    fn scores(&self, text: &str, required: &[String]) -> Scores {
        let mut scores = Scores::new(self.index.len());
        let terms = distinct_terms(self.index, &mut Analyzer::new(), text, |_| {});
        scores::add_bm25f(self.index, &mut scores, &terms, required);
        scores
    }

    /// The best `n` of raw `(score, doc)` pairs, with their scores rounded as reported, ordered
    /// by rounded score, then name. Only candidates that can still round into the top `n` are
    /// rounded and compared by name: names are compared only to break ties.
    fn top(&self, mut raw: Vec<(f64, DocId)>, n: usize) -> Vec<(f64, DocId)> {
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
        let rank = |doc: DocId| self.index.name_rank(doc);
        ranked.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then_with(|| rank(a.1).cmp(&rank(b.1))));
        ranked.truncate(n);
        ranked
    }

    fn hit(&self, doc: DocId, score: f64) -> Hit<'i> {
        let doc = self.index.doc(doc);
        Hit { name: doc.name(), summary: doc.summary(), score }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Params;
    use crate::input::catalog::{self, ToolSpec};

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
        assert_eq!(
            names(&Searcher::new(&index).search("convert dollars to another currency", 1, &[])),
            ["convert_currency"]
        );
        assert_eq!(names(&Searcher::new(&index).search("forecast for Paris", 1, &[])), ["get_weather"]);
        let mut issues = names(&Searcher::new(&index).search("open an issue on the repository", 5, &[]));
        issues.truncate(2);
        issues.sort();
        assert_eq!(issues, ["create_issue", "list_issues"]);
    }

    #[test]
    fn an_exact_name_comes_first_even_when_others_score_higher() {
        let catalog = r#"[{"name": "forecast", "description": "Returns tomorrow's outlook from a remote service with many details."},
                          {"name": "get_forecast", "description": "Forecast, forecast, forecast."}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        assert_eq!(names(&Searcher::new(&index).search("get forecast", 2, &[])), ["get_forecast", "forecast"]);
        let hits = Searcher::new(&index).search("  forecast  ", 2, &[]);
        assert_eq!(names(&hits), ["forecast", "get_forecast"]);
        assert!(hits[1].score > hits[0].score);
    }

    #[test]
    fn an_exact_name_is_found_even_when_excluded_but_exclusions_leave_the_ranking() {
        let index = index();
        let hits = Searcher::new(&index).search("create_issue", 5, &["create_issue", "list_issues"]);
        assert_eq!(hits[0].name, "create_issue");
        assert!(!names(&hits).contains(&"list_issues".to_string()));
    }

    #[test]
    fn exact_match_with_no_shared_terms_scores_zero_but_is_returned() {
        let index = Index::from_catalog(r#"[{"name": "the"}, {"name": "b", "description": "the b tool"}]"#).unwrap();
        let hits = Searcher::new(&index).search("the", 5, &[]);
        assert_eq!(names(&hits), ["the"]);
        assert_eq!(hits[0].score, 0.0);
    }

    #[test]
    fn limits_are_respected() {
        let index = index();
        assert!(Searcher::new(&index).search("weather", 0, &[]).is_empty());
        assert_eq!(Searcher::new(&index).search("issue repository weather currency", 2, &[]).len(), 2);
        assert_eq!(Searcher::new(&index).search("issue repository weather currency", 1000, &[]).len(), 5);
        assert_eq!(Searcher::new(&index).search("weather", 1, &[])[0].name, "weather");
    }

    #[test]
    fn queries_without_known_terms_find_nothing() {
        let index = index();
        assert!(Searcher::new(&index).search("", 5, &[]).is_empty());
        assert!(Searcher::new(&index).search("the and of", 5, &[]).is_empty());
        assert!(Searcher::new(&index).search("zebra", 5, &[]).is_empty());
    }

    #[test]
    fn equal_scores_are_ordered_by_name_in_code_point_order() {
        let catalog = r#"[{"name": "c_tool", "description": "same words"}, {"name": "b_tool", "description": "same words"},
                          {"name": "Z_tool", "description": "same words"}, {"name": "é_tool", "description": "same words"}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        let hits = Searcher::new(&index).search("same words", 10, &[]);
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
            let expected = Searcher::new(&forward).search(query, 10, &[]);
            assert_eq!(Searcher::new(&backward).search(query, 10, &[]), expected, "{query}");
            assert_eq!(Searcher::new(&rotated).search(query, 10, &[]), expected, "{query}");
        }
    }

    #[test]
    fn a_repeated_name_keeps_the_first_tool() {
        let index =
            Index::from_catalog(r#"[{"name": "t", "description": "first"}, {"name": "t", "description": "second"}]"#)
                .unwrap();
        assert_eq!(index.len(), 1);
        assert_eq!(Searcher::new(&index).search("t", 1, &[])[0].summary, "first");
        assert!(Searcher::new(&index).search("second", 1, &[]).is_empty());
    }

    #[test]
    fn hits_carry_the_summary_and_rounded_scores() {
        let long = "word ".repeat(100);
        let index = Index::from_catalog(&format!(r#"[{{"name": "t", "description": "{long}"}}]"#)).unwrap();
        let hit = &Searcher::new(&index).search("word", 1, &[])[0];
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
        assert!(Searcher::new(&index).search("anything", 5, &[]).is_empty());
    }

    #[test]
    fn identifier_styles_meet_each_other() {
        let catalog = r#"[{"name": "getCurrentWeather"}, {"name": "math.factorial"}, {"name": "mcp__github__create_issue"},
                          {"name": "other_tool", "description": "unrelated"}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        assert_eq!(Searcher::new(&index).search("current weather", 1, &[])[0].name, "getCurrentWeather");
        assert_eq!(Searcher::new(&index).search("get_current_weather", 1, &[])[0].name, "getCurrentWeather");
        assert_eq!(Searcher::new(&index).search("factorial of 5", 1, &[])[0].name, "math.factorial");
        assert_eq!(Searcher::new(&index).search("github issue", 1, &[])[0].name, "mcp__github__create_issue");
    }

    #[test]
    fn a_name_match_outweighs_the_same_word_deep_in_a_schema() {
        let catalog = r#"[{"name": "send_email", "description": "Send a message."},
                          {"name": "create_contact", "description": "Create a contact.",
                           "parameters": {"properties": {"note": {"description": "Free text, for example an email about the contact."}}}}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        assert_eq!(names(&Searcher::new(&index).search("email", 2, &[])), ["send_email", "create_contact"]);
    }

    #[test]
    fn enum_values_are_searchable() {
        let catalog = r#"[{"name": "set_mode", "parameters": {"properties": {"mode": {"enum": ["turbo", "eco"]}}}},
                          {"name": "other", "description": "nothing"}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        assert_eq!(names(&Searcher::new(&index).search("eco", 5, &[])), ["set_mode"]);
    }

    #[test]
    fn chinese_queries_find_chinese_descriptions() {
        let catalog = r#"[{"name": "weather_cn", "description": "查询城市的天气预报"},
                          {"name": "stock_cn", "description": "查询股票的实时价格"},
                          {"name": "weather_en", "description": "Weather forecast for a city"}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        assert_eq!(Searcher::new(&index).search("明天北京天气怎么样", 1, &[])[0].name, "weather_cn");
        assert_eq!(Searcher::new(&index).search("股票价格", 1, &[])[0].name, "stock_cn");
        assert_eq!(names(&Searcher::new(&index).search("weather 天气", 2, &[])).len(), 2);
    }

    #[test]
    fn a_repeated_query_word_counts_once() {
        let catalog = r#"[{"name": "triangle_area", "description": "Area of a triangle."},
                          {"name": "circle_area", "description": "Area of a circle from its radius."}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        let once = Searcher::new(&index).search("radius of the circle", 2, &[]);
        let again = Searcher::new(&index).search("radius of the circle, a circle, that circle", 2, &[]);
        assert_eq!(names(&once), ["circle_area"]);
        assert_eq!(again[0].score, once[0].score);
    }

    #[test]
    fn select_returns_exactly_the_named_tools_in_order() {
        let index = index();
        let hits =
            Searcher::new(&index).search("select:list_issues, get_weather,missing,list_issues", 10, &["get_weather"]);
        assert_eq!(names(&hits), ["list_issues", "get_weather"]);
        assert_eq!(names(&Searcher::new(&index).search("select:list_issues,get_weather", 1, &[])), ["list_issues"]);
    }

    #[test]
    fn a_tool_named_like_a_select_query_is_still_found_first_by_its_name() {
        let index = Index::from_catalog(r#"[{"name": "a"}, {"name": "select:a"}, {"name": "b"}]"#).unwrap();
        assert_eq!(names(&Searcher::new(&index).search("select:a", 5, &[])), ["select:a", "a"]);
        assert_eq!(names(&Searcher::new(&index).search(" select:a ", 1, &[])), ["select:a"]);
        assert_eq!(names(&Searcher::new(&index).search("select:b,a", 5, &[])), ["b", "a"]);
    }

    #[test]
    fn a_plus_word_is_required() {
        let index = index();
        let all = names(&Searcher::new(&index).search("weather issue", 5, &[]));
        assert!(all.contains(&"create_issue".to_string()) && all.contains(&"get_weather".to_string()));
        let required = names(&Searcher::new(&index).search("weather +issue", 5, &[]));
        assert!(!required.is_empty());
        assert!(required.iter().all(|n| n.contains("issue")), "{required:?}");
        assert!(Searcher::new(&index).search("weather +zebra", 5, &[]).is_empty());
    }
}
