//! A parameter schema: the JSON reader, then the projection walk, checked against the same
//! schema indexed as one tool of a catalog.
#![no_main]

use dsh_tool_search::{project, Index, Json, ToolSpec};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let catalog = format!(r#"[{{"name":"t","description":"d","parameters":{text}}}]"#);
    let index = Index::from_catalog(&catalog);
    let Ok(json) = Json::parse(&text) else { return };
    let index = index.expect("a valid schema makes a valid catalog");

    // The catalog reads a schema only when it is an object.
    let root = json.root();
    let parameters = json.members(root).map(|_| root);
    let projection = project(&json, &ToolSpec { name: "t", description: "d", parameters });
    assert_eq!(index.search_text("t"), Some(projection.text.as_str()));
    assert_eq!(projection.too_deep, !index.warnings().is_empty());

    let mut joined = String::new();
    for (_, part) in projection.fields() {
        assert!(!part.is_empty() && part.trim() == part);
        if !joined.is_empty() {
            joined.push(' ');
        }
        joined.push_str(part);
    }
    assert_eq!(joined, projection.text, "the parts are the text, in order");
});
