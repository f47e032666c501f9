//! How strongly a tool matches a query, in a unit that means the same in a catalog of ten tools
//! and in one of ten thousand: the tool's BM25F score for the whole query (the sum of what each
//! matched query term contributes, as `explain` lists them), over the idf of a word that only one
//! tool of the catalog has. A strength of 1 is a match worth one rare word found once.
//!
//! A hit's own score cannot serve: for a query of several requests it is a fusion of ranks, near
//! 3 for the first tool whatever it matched, and a raw BM25F score grows with the catalog (idf
//! rises with the number of tools), so no one floor would fit a small and a large catalog.
//!
//! In a hybrid index a tool can match by meaning alone ("will it rain" and a forecast tool share
//! no word); the strength of such a match is its similarity, counted in units of
//! [`SIMILARITY_UNIT`] (the better of the word table's and the transformer's, when that took
//! part). A tool the words do match keeps the words' strength: a word every tool of a group
//! shares ("github") makes them all similar to the query too, and is no stronger a match for that.

use crate::index::{bm25, Index};
use crate::search::{Ranking, StrengthSignals};

/// The similarity (cosine) that counts as a strength of 1, as much as a rare word found once:
/// about where a tool a request describes in other words lies (a forecast tool for "will it rain
/// tomorrow"), well above the similarity of unrelated texts. The transformer's cosines lie on
/// about the same scale.
pub const SIMILARITY_UNIT: f64 = 0.5;

/// The strength of `name`'s match for `query`; 0 when it matches nothing, or is not indexed.
pub fn match_strength(index: &Index, query: &str, name: &str) -> f64 {
    let Some(doc) = index.doc_named(name) else { return 0.0 };
    strength(index, StrengthSignals::new(index, &Ranking::new(index, query), query).of(doc))
}

/// A strength from what [`StrengthSignals::of`] read of a tool.
pub(crate) fn strength(index: &Index, signals: Option<(f64, Option<f64>)>) -> f64 {
    let Some((score, similarity)) = signals else { return 0.0 };
    if score > 0.0 {
        return score / bm25::idf(index.len().max(1), 1);
    }
    similarity.map_or(0.0, |similarity| similarity / SIMILARITY_UNIT)
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
        let mut tools: Vec<String> =
            (0..2000).map(|i| format!(r#"{{"name": "tool_{i}", "description": "Does thing {i}."}}"#)).collect();
        tools.push(r#"{"name": "get_weather", "description": "Forecast for a city."}"#.to_string());
        let large = format!("[{}]", tools.join(","));
        let (a, b) = (strength(small, "weather", "get_weather"), strength(&large, "weather", "get_weather"));
        assert!(a > 1.0 && b > 1.0, "{a} {b}");
        assert!((a / b - 1.0).abs() < 0.5, "the unit follows the catalog: {a} vs {b}");
    }

    #[test]
    fn in_a_hybrid_index_a_match_by_meaning_alone_has_the_strength_of_its_similarity() {
        let rows = [("rain", 100, vec![120, 10]), ("forecast", 100, vec![110, 30]), ("mail", 100, vec![0, 127])];
        let model = std::sync::Arc::new(crate::semantic::Model::from_bytes(crate::semantic::encode(2, &rows)).unwrap());
        let catalog =
            r#"[{"name": "forecast", "description": "Forecast."}, {"name": "send_mail", "description": "Mail."}]"#;
        let index = Index::from_catalog_ranked(catalog, crate::Params::default(), Some(model.into())).unwrap();
        let similarity = crate::Searcher::new(&index).explain("rain", "forecast").unwrap().semantic.unwrap().similarity;
        assert!(similarity > 0.9);
        assert!((match_strength(&index, "rain", "forecast") - similarity / SIMILARITY_UNIT).abs() < 1e-9);
        assert_eq!(strength(catalog, "rain", "forecast"), 0.0, "lexically there is no match");
        assert_eq!(match_strength(&index, "rain", "send_mail"), 0.0, "too far to rank at all");
    }

    #[test]
    fn a_word_most_tools_share_is_weak_and_no_match_is_zero() {
        let catalog = r#"[{"name": "get_a"}, {"name": "get_b"}, {"name": "get_c"}, {"name": "put_d"}]"#;
        assert!(strength(catalog, "get", "get_a") < 0.5);
        assert_eq!(strength(catalog, "weather", "get_a"), 0.0);
        assert_eq!(strength(catalog, "get", "no_such_tool"), 0.0);
    }
}
