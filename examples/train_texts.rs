//! The texts the transformer reads, for its training data (`model/build/train/`): a tool's text
//! (its name's words, then its description, as a hybrid index embeds it) and a query's (its CJK
//! runs read through the glossary, as the semantic stage reads it). Both are the crate's own
//! functions, `tool_text` and `Glossary::reading`, the ones a hybrid index calls, so the training
//! script trains on exactly what the shipped ranking embeds.
//!
//! Reads one JSON value per line on standard input: `["tool", name, description]` or
//! `["query", text]`; writes, per line, the text as a JSON string.
//!
//!     cargo run --release --no-default-features --example train_texts -- model/glossary.bin < in.jsonl > out.jsonl

/// Built with the boundary on, the program only says how to run it (see `ablation.rs`).
#[cfg(feature = "node")]
fn main() {
    eprintln!("run it without the Node-API boundary: cargo run --release --no-default-features --example train_texts");
    std::process::exit(2);
}

#[cfg(not(feature = "node"))]
fn main() {
    use std::io::{BufRead, Write};

    use dsh_tool_search::{tool_text, Analyzer, Glossary, Json};

    let path = std::env::args().nth(1).expect("usage: train_texts GLOSSARY_BIN < in.jsonl");
    let glossary = Glossary::from_file(std::path::Path::new(&path)).expect("the glossary");
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut analyzer = Analyzer::new();
    for (number, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.expect("standard input is UTF-8 text");
        let json = Json::parse(&line).unwrap_or_else(|e| panic!("line {}: not JSON: {e}", number + 1));
        let items: Vec<&str> =
            json.items(json.root()).unwrap_or(&[]).iter().filter_map(|&item| json.str_of(item)).collect();
        let text = match items.as_slice() {
            ["tool", name, description] => tool_text(&mut analyzer, name, description),
            ["query", text] => glossary.reading(text).into_owned(),
            _ => panic!("line {}: not [\"tool\", name, description] or [\"query\", text]", number + 1),
        };
        writeln!(out, "{}", quoted(&text)).expect("standard output is writable");
    }
}

#[cfg(not(feature = "node"))]
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
