//! The tool names nearest to a query that matched nothing, by how the words look rather than what
//! they mean: the character trigrams of each query word against those of the name's words. A
//! misspelled word (`wether`), a different inflection (`scheduling`) or a fragment of a name
//! still lands near the tools it was after, where BM25 found no shared term at all.

use rustc_hash::FxHashSet;

use super::{words, Word};
use crate::analysis::Analyzer;

/// At most `limit` of `names`, leaving out `exclude`, by closeness to `query`, best first, ties by
/// name in code-point order. A name shares at least one trigram with the query, or is left out.
pub fn nearest<'a>(
    query: &str,
    names: impl IntoIterator<Item = &'a str>,
    exclude: &[&str],
    limit: usize,
) -> Vec<&'a str> {
    let mut analyzer = Analyzer::new();
    let wanted: Vec<Vec<[char; 3]>> = words(&mut analyzer, query).iter().map(trigrams).collect();
    if wanted.is_empty() || limit == 0 {
        return Vec::new();
    }
    let excluded: FxHashSet<&str> = exclude.iter().copied().collect();
    let mut scored: Vec<(f64, &str)> = Vec::new();
    for name in names {
        if excluded.contains(name) {
            continue;
        }
        let own: Vec<Vec<[char; 3]>> = words(&mut analyzer, name).iter().map(trigrams).collect();
        // Each query word counts with its best match among the name's words. Only `+` and `/` of
        // small integers (exact IEEE operations everywhere): the order is the same on every machine.
        let closeness: f64 =
            wanted.iter().map(|query| own.iter().map(|word| dice(query, word)).fold(0.0, f64::max)).sum();
        if closeness > 0.0 {
            scored.push((closeness, name));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    scored.into_iter().take(limit).map(|(_, name)| name).collect()
}

/// The sorted, distinct trigrams of a word padded with a space at each end, so a word's first and
/// last letters count, and a two-letter word still has two.
fn trigrams(word: &Word) -> Vec<[char; 3]> {
    let padded: Vec<char> = std::iter::once(' ').chain(word.text.chars()).chain([' ']).collect();
    let mut grams: Vec<[char; 3]> = padded.windows(3).map(|w| [w[0], w[1], w[2]]).collect();
    grams.sort_unstable();
    grams.dedup();
    grams
}

/// Dice's coefficient of two sorted sets: twice the shared count over the sum of the sizes.
fn dice(a: &[[char; 3]], b: &[[char; 3]]) -> f64 {
    let (mut i, mut j, mut shared) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    (2 * shared) as f64 / (a.len() + b.len()) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 5] =
        ["get_weather_forecast", "convert_currency", "create_issue", "search_issues", "mcp__mail__send_email"];

    #[test]
    fn a_misspelled_word_finds_the_name_it_meant() {
        assert_eq!(nearest("wether forcast", NAMES, &[], 2)[0], "get_weather_forecast");
        assert_eq!(
            nearest("isues", NAMES, &[], 2),
            ["search_issues", "create_issue"],
            "closer to issues than to issue"
        );
        assert_eq!(nearest("emails", NAMES, &[], 1), ["mcp__mail__send_email"]);
    }

    #[test]
    fn names_sharing_nothing_are_left_out_and_exclusions_never_come_back() {
        assert!(nearest("zzzz", NAMES, &[], 5).is_empty());
        assert!(nearest("the of and", NAMES, &[], 5).is_empty(), "stop words carry no letters to compare");
        assert_eq!(nearest("issues", NAMES, &["search_issues"], 5), ["create_issue"]);
        assert!(nearest("issue", NAMES, &[], 0).is_empty());
    }

    #[test]
    fn equal_closeness_is_ordered_by_name() {
        assert_eq!(nearest("tool", ["b_tool", "a_tool"], &[], 2), ["a_tool", "b_tool"]);
    }
}
