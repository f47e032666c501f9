//! How strongly a tool matches a query, in a unit that means the same in a catalog of ten tools
//! and in one of ten thousand: the tool's BM25F score for the whole query (the sum of what each
//! matched query term contributes, as `explain` lists them), over the idf of a word that only one
//! tool of the catalog has. A strength of 1 is a match worth one rare word found once.
//!
//! A hit's own score cannot serve: for a query of several requests it is a fusion of ranks, near
//! 3 for the first tool whatever it matched, and a raw BM25F score grows with the catalog (idf
//! rises with the number of tools), so no one floor would fit a small and a large catalog.

use crate::index::{bm25, Index};
use crate::search::Searcher;

/// The strength of `name`'s match for `query`; 0 when it matches nothing, or is not indexed.
pub fn match_strength(index: &Index, query: &str, name: &str) -> f64 {
    let Some(explanation) = Searcher::new(index).explain(query, name) else { return 0.0 };
    let score = explanation.terms.iter().fold(0.0, |sum, term| sum + term.contribution);
    score / bm25::idf(index.len().max(1), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strength(catalog: &str, query: &str, name: &str) -> f64 {
        match_strength(&Index::from_catalog(catalog).unwrap(), query, name)
    }

    #[test]
    fn a_rare_word_in_a_name_is_a_strong_match_in_a_small_and_in_a_large_catalog() {
        let small = r#"[{"name": "get_weather", "description": "Forecast for a city."}, {"name": "send_mail"}]"#;
        let mut tools: Vec<String> = (0..2000).map(|i| format!(r#"{{"name": "tool_{i}", "description": "Does thing {i}."}}"#)).collect();
        tools.push(r#"{"name": "get_weather", "description": "Forecast for a city."}"#.to_string());
        let large = format!("[{}]", tools.join(","));
        let (a, b) = (strength(small, "weather", "get_weather"), strength(&large, "weather", "get_weather"));
        assert!(a > 1.0 && b > 1.0, "{a} {b}");
        assert!((a / b - 1.0).abs() < 0.5, "the unit follows the catalog: {a} vs {b}");
    }

    #[test]
    fn a_word_most_tools_share_is_weak_and_no_match_is_zero() {
        let catalog = r#"[{"name": "get_a"}, {"name": "get_b"}, {"name": "get_c"}, {"name": "put_d"}]"#;
        assert!(strength(catalog, "get", "get_a") < 0.5);
        assert_eq!(strength(catalog, "weather", "get_a"), 0.0);
        assert_eq!(strength(catalog, "get", "no_such_tool"), 0.0);
    }
}
