//! The build script: napi's link settings for the addon, and the facts the crate shares with the
//! plugin's TypeScript, read from their one source, `plugin/contract.ts`, into `$OUT_DIR/contract.rs`
//! (included by `src/contract.rs`). A changed value there is a changed value here at the next build;
//! a name the crate needs that is missing, or written in a form this reader does not take, fails
//! the build with the line to fix.

use std::path::Path;

/// What the crate reads from `plugin/contract.ts`: each name and its Rust type. The TypeScript
/// must write each as `export const NAME = <value>` on one line: a whole number (digits and `_`)
/// for `usize`, a single-quoted string without escapes for `&str`.
const SHARED: [(&str, &str); 16] = [
    ("TOOL_SEARCH_NAME", "&str"),
    ("MODEL_PACKAGE", "&str"),
    ("MAX_QUERY_CHARS", "usize"),
    ("MAX_NAME_BYTES", "usize"),
    ("PAYLOAD_SCHEMA_VERSION", "usize"),
    ("VERSION_FIELD", "&str"),
    ("TOOLS_FIELD", "&str"),
    ("TOOL_NAME_FIELD", "&str"),
    ("DISCOVER_FIELD", "&str"),
    ("RECORD_ID_PREFIX", "&str"),
    ("PREFETCH_RECORD", "&str"),
    ("DESELECT_FIELD", "&str"),
    ("TOOL_CALL_EVENT", "&str"),
    ("TOOL_RESULT_EVENT", "&str"),
    ("CODE_DISPATCH_EVENT", "&str"),
    ("PTC_DISPATCH_EVENT", "&str"),
];

fn main() {
    // Only the Node addon needs napi's link settings; the core alone (fuzz/) builds without them.
    #[cfg(feature = "node")]
    napi_build::setup();

    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let source = Path::new(&root).join("plugin/contract.ts");
    println!("cargo:rerun-if-changed={}", source.display());
    println!("cargo:rerun-if-changed=build.rs");
    let text = std::fs::read_to_string(&source).unwrap_or_else(|e| panic!("cannot read {}: {e}", source.display()));
    let mut out = String::from("// Written by build.rs from plugin/contract.ts; edit that file, not this one.\n");
    for (name, kind) in SHARED {
        let value = value_of(&text, name).unwrap_or_else(|why| panic!("plugin/contract.ts: {name}: {why}"));
        let literal = match kind {
            "usize" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit() || b == b'_') => value.to_string(),
            "&str" if value.len() >= 2 && value.starts_with('\'') && value.ends_with('\'') => {
                let inner = &value[1..value.len() - 1];
                if inner.contains(['\'', '\\', '"']) {
                    panic!("plugin/contract.ts: {name}: a string with quotes or escapes is not read here: {value}");
                }
                format!("\"{inner}\"")
            }
            _ => panic!("plugin/contract.ts: {name} must be {kind}, written plainly; found {value}"),
        };
        out.push_str(&format!("/// `{name}` of `plugin/contract.ts`.\npub const {name}: {kind} = {literal};\n"));
    }
    let target = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("contract.rs");
    std::fs::write(&target, out).unwrap_or_else(|e| panic!("cannot write {}: {e}", target.display()));
}

/// The value written after `export const NAME = ` on its line, trimmed.
fn value_of<'t>(text: &'t str, name: &str) -> Result<&'t str, String> {
    let start = format!("export const {name} = ");
    let mut lines = text.lines().filter_map(|line| line.strip_prefix(start.as_str()));
    let value = lines.next().ok_or_else(|| format!("no line `{start}...`"))?;
    if lines.next().is_some() {
        return Err(format!("more than one line `{start}...`"));
    }
    Ok(value.trim())
}
