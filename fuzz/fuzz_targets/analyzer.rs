//! Any text through the analyzer (identifier splitting, folding, CJK pieces, stemming), the
//! query forms, and the summary a hit carries.
#![no_main]

use dsh_tool_search::{
    check_query, fold_into, requests, summarize, term_of, Analyzer, Piece, Query, MAX_SUMMARY_CHARS,
};
use libfuzzer_sys::fuzz_target;

fn pieces(analyzer: &mut Analyzer, text: &str) -> Vec<(u8, String, Option<String>)> {
    let mut out = Vec::new();
    analyzer.pieces(text, |piece| {
        let (kind, body) = match piece {
            Piece::Word(w) => (0, w),
            Piece::Whole(w) => (1, w),
            Piece::Gram(w) => (2, w),
        };
        out.push((kind, body.to_string(), term_of(piece)));
    });
    out
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let fresh = pieces(&mut Analyzer::new(), &text);
    for (_, body, term) in &fresh {
        assert!(!body.is_empty());
        assert!(term.as_ref().is_none_or(|t| !t.is_empty()));
    }
    // An analyzer's buffers carry nothing from one text to the next.
    let mut reused = Analyzer::new();
    pieces(&mut reused, "getCurrentWeather 天气预报 Café HTTPServer v1.2 don't");
    assert_eq!(pieces(&mut reused, &text), fresh);

    let mut folded = String::from("stale");
    fold_into(&text, &mut folded);
    let _ = Query::parse(&text);
    for part in requests(&text) {
        assert!(text.contains(part));
    }
    assert!(summarize(&text).chars().count() <= MAX_SUMMARY_CHARS);
    let _ = check_query(&text);
});
