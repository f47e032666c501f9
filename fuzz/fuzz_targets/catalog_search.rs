//! Catalog text, a query and a result count: parse and index the catalog, search it, explain the
//! results. Input: `[count byte][query] 0xFF [catalog]` (0xFF never occurs in UTF-8, so seeds
//! keep real text on both sides); without 0xFF the whole input is the catalog, searched for its
//! words by a fixed query.
#![no_main]

use dsh_tool_search::{
    check_query, ranked_text, round6, Index, Query, Searcher, MAX_QUERY_CHARS, MAX_SUMMARY_CHARS, MAX_TOOLS,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (head, catalog) = match data.iter().position(|&b| b == 0xFF) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (&b"\x05weather"[..], data),
    };
    let (limit, query) = match head.split_first() {
        // 0xFE: "every match", as a JavaScript caller asking for Number.MAX_SAFE_INTEGER gets.
        Some((0xFE, query)) => (usize::MAX, query),
        Some((&count, query)) => (usize::from(count % 24), query),
        None => (5, &b""[..]),
    };
    let query = String::from_utf8_lossy(query);
    let catalog = String::from_utf8_lossy(catalog);
    if check_query(&query).is_err() {
        assert!(query.chars().count() > MAX_QUERY_CHARS);
    }
    let Ok(index) = Index::from_catalog(&catalog) else { return };
    assert!(index.len() <= MAX_TOOLS);
    assert_eq!(index.names().count(), index.len());

    let searcher = Searcher::new(&index);
    let names: Vec<&str> = index.names().collect();
    let exclude: Vec<&str> = names.iter().copied().step_by(2).take(4).collect();
    let hits = searcher.search(&query, limit, &exclude);
    assert!(hits.len() <= limit);
    assert_eq!(hits, searcher.search(&query, limit, &exclude), "same input, same output");

    // A tool named by the query's text after any `discover:` comes first.
    let exact = ranked_text(&query).trim();
    let has_exact = index.search_text(exact).is_some();
    if limit > 0 && has_exact {
        assert_eq!(hits[0].name, exact, "a tool named by the query comes first");
    }
    let ranked = matches!(Query::parse(ranked_text(&query)), Query::Ranked { .. });
    for (i, hit) in hits.iter().enumerate() {
        assert!(index.search_text(hit.name).is_some());
        assert!(hits[..i].iter().all(|earlier| earlier.name != hit.name), "no tool twice");
        assert!(hit.score.is_finite() && hit.score >= 0.0 && hit.score == round6(hit.score));
        assert!(hit.summary.chars().count() <= MAX_SUMMARY_CHARS);
        let is_exact = i == 0 && has_exact;
        if ranked && !is_exact {
            assert!(!exclude.contains(&hit.name), "excluded names leave the ranking");
            if i > 0 && !(i == 1 && has_exact) {
                let prev = &hits[i - 1];
                assert!(
                    prev.score > hit.score || (prev.score == hit.score && prev.name < hit.name),
                    "score, then name"
                );
            }
        }
    }

    // Explanations agree with the full ranking they describe.
    let all = searcher.search(&query, usize::MAX, &[]);
    for (position, hit) in all.iter().enumerate().take(3) {
        let explained = searcher.explain(&query, hit.name).expect("an indexed name");
        assert_eq!(explained.rank, Some(position + 1));
        assert_eq!(explained.score, hit.score);
    }
    let _ = index.warnings();
});
