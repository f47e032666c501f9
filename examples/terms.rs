//! The crate's own analysis of texts, for the semantic model's build (`model/build/build.py`):
//! the model's rows are keyed by the very terms tools and queries are analyzed into, so the build
//! asks the analyzer rather than imitating it.
//!
//! Reads one JSON string per line on standard input; writes, per line, a JSON array of the text's
//! words as `[folded word, term]` pairs, `term` null for a word the analysis drops (a stop word,
//! a number). Identifiers come out as their parts; CJK pieces are left out (the model has none).
//!
//!     cargo run --release --no-default-features --example terms < texts.jsonl > terms.jsonl

/// Built with the boundary on, the program only says how to run it (see `ablation.rs`).
#[cfg(feature = "node")]
fn main() {
    eprintln!("run it without the Node-API boundary: cargo run --release --no-default-features --example terms");
    std::process::exit(2);
}

#[cfg(not(feature = "node"))]
fn main() {
    use std::io::{BufRead, Write};

    use dsh_tool_search::{term_of, Analyzer, Json, Piece};

    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut analyzer = Analyzer::new();
    for (number, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.expect("standard input is UTF-8 text");
        let json = Json::parse(&line).unwrap_or_else(|e| panic!("line {}: not JSON: {e}", number + 1));
        let text = json.str_of(json.root()).unwrap_or_else(|| panic!("line {}: not a JSON string", number + 1));
        let mut words = Vec::new();
        analyzer.pieces(text, |piece| {
            if let Piece::Word(word) = piece {
                let term = term_of(piece).map_or("null".to_string(), |t| quoted(&t));
                words.push(format!("[{},{term}]", quoted(word)));
            }
        });
        writeln!(out, "[{}]", words.join(",")).expect("standard output is writable");
    }
}

/// A JSON string literal.
#[cfg(not(feature = "node"))]
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
