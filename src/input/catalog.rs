//! Reading a tool catalog: the JSON shapes tools arrive in, reduced to name, description and
//! parameter schema.
//!
//! Accepted: an array of `{name, description?, parameters?}` (what the plugin sends), of OpenAI
//! function tools `{type: "function", function: {...}}`, or of MCP tools `{name, description,
//! inputSchema}`; or an MCP `tools/list` result `{tools: [...]}`. Structural mistakes (not an
//! array, a tool that is not an object or has no name) are errors that name the tool; content
//! that is merely odd (a description that is not a string, a schema that is not an object) is
//! ignored, because one sloppy tool must not cost the whole catalog its search.

use std::fmt;

use crate::input::json::{Json, JsonError, NodeId};
use crate::limits::CATALOG_TEXT;

/// One tool as the index sees it. `parameters` points into the catalog's [`Json`].
#[derive(Debug, Clone, Copy)]
pub struct ToolSpec<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub parameters: Option<NodeId>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum CatalogError {
    TooLarge(usize),
    Json(JsonError),
    NotAList(&'static str),
    NotATool { index: usize, kind: &'static str },
    NoName { index: usize },
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge(bytes) => f.write_str(&CATALOG_TEXT.too_large(*bytes)),
            Self::Json(error) => write!(f, "tool catalog is not valid JSON: {error}"),
            Self::NotAList(kind) => write!(
                f,
                "tool catalog must be a JSON array of tools (or an object with a \"tools\" array), got {kind}"
            ),
            Self::NotATool { index, kind } => {
                write!(f, "tool at index {index} must be an object, got {kind}")
            }
            Self::NoName { index } => {
                write!(f, "tool at index {index} has no \"name\" string (it must be non-empty)")
            }
        }
    }
}

/// Parses catalog text. The returned [`Json`] owns the text the specs borrow.
pub fn parse(text: &str) -> Result<Json<'_>, CatalogError> {
    check_size(text)?;
    Json::parse(text).map_err(CatalogError::Json)
}

fn check_size(text: &str) -> Result<(), CatalogError> {
    CATALOG_TEXT.check_bytes(text.len()).map_err(|_| CatalogError::TooLarge(text.len()))
}

/// One catalog entry as the core reads it, for callers that need the catalog itself rather than
/// an index over it (the command line's `lint`, for example): the same reading as the index's, so
/// no caller has to restate the catalog shapes.
#[derive(Debug, Clone, PartialEq)]
pub struct CatalogEntry {
    pub name: String,
    /// Empty when missing or not a string.
    pub description: String,
    /// The parameter schema's JSON text exactly as written; `None` when absent or not an object.
    pub parameters: Option<String>,
}

/// Every entry of catalog text in catalog order, repeated names included; refuses what
/// [`crate::Index::from_catalog`] refuses, with the same errors.
pub fn read_catalog(text: &str) -> Result<Vec<CatalogEntry>, CatalogError> {
    check_size(text)?;
    let json = Json::parse_with_spans(text).map_err(CatalogError::Json)?;
    let specs = tools(&json)?;
    Ok(specs
        .iter()
        .map(|spec| CatalogEntry {
            name: spec.name.to_string(),
            description: spec.description.to_string(),
            parameters: spec.parameters.and_then(|schema| json.source_text(schema)).map(str::to_string),
        })
        .collect())
}

/// The tools of a parsed catalog, in catalog order (duplicates included; the index keeps the first).
pub fn tools<'j>(json: &'j Json) -> Result<Vec<ToolSpec<'j>>, CatalogError> {
    let root = json.root();
    let list = json.get(root, "tools").filter(|_| json.members(root).is_some()).unwrap_or(root);
    let items = json.items(list).ok_or(CatalogError::NotAList(json.kind(list)))?;
    items.iter().enumerate().map(|(index, &item)| tool(json, index, item)).collect()
}

fn tool<'j>(json: &'j Json, index: usize, item: NodeId) -> Result<ToolSpec<'j>, CatalogError> {
    if json.members(item).is_none() {
        return Err(CatalogError::NotATool { index, kind: json.kind(item) });
    }
    // OpenAI's wire form nests the definition one level down.
    let def = match json.get(item, "function") {
        Some(inner) if json.get_str(item, "type") == Some("function") && json.members(inner).is_some() => inner,
        _ => item,
    };
    let name = json.get_str(def, "name").filter(|n| !n.is_empty()).ok_or(CatalogError::NoName { index })?;
    let parameters = ["parameters", "inputSchema", "input_schema"]
        .iter()
        .filter_map(|key| json.get(def, key))
        .find(|&schema| json.members(schema).is_some());
    Ok(ToolSpec { name, description: json.get_str(def, "description").unwrap_or(""), parameters })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::MAX_CATALOG_BYTES;

    fn read(text: &str) -> Result<Vec<(String, String, bool)>, String> {
        let json = parse(text).map_err(|e| e.to_string())?;
        let specs = tools(&json).map_err(|e| e.to_string())?;
        Ok(specs.iter().map(|t| (t.name.to_string(), t.description.to_string(), t.parameters.is_some())).collect())
    }

    #[test]
    fn reads_plain_openai_and_mcp_shapes() {
        let plain = r#"[{"name": "a", "description": "A", "parameters": {"type": "object"}}]"#;
        let openai = r#"[{"type": "function", "function": {"name": "a", "description": "A", "parameters": {}}}]"#;
        let mcp = r#"{"tools": [{"name": "a", "description": "A", "inputSchema": {"type": "object"}}]}"#;
        for text in [plain, openai, mcp] {
            assert_eq!(read(text).unwrap(), [("a".into(), "A".into(), true)], "{text}");
        }
    }

    #[test]
    fn odd_content_is_ignored_not_fatal() {
        let text = r#"[{"name": "a", "description": 42, "parameters": "nope"}, {"name": "b", "parameters": []}]"#;
        assert_eq!(read(text).unwrap(), [("a".into(), "".into(), false), ("b".into(), "".into(), false)]);
    }

    #[test]
    fn structural_mistakes_name_the_tool() {
        let cases = [
            (
                "{\"a\": 1}",
                "tool catalog must be a JSON array of tools (or an object with a \"tools\" array), got an object",
            ),
            ("7", "tool catalog must be a JSON array of tools (or an object with a \"tools\" array), got a number"),
            ("[{\"name\": \"a\"}, \"b\"]", "tool at index 1 must be an object, got a string"),
            ("[{\"description\": \"x\"}]", "tool at index 0 has no \"name\" string (it must be non-empty)"),
            ("[{\"name\": 5}]", "tool at index 0 has no \"name\" string (it must be non-empty)"),
            ("[{\"name\": \"\"}]", "tool at index 0 has no \"name\" string (it must be non-empty)"),
            ("[{\"name\": \"a\"", "tool catalog is not valid JSON: unexpected end of JSON input at line 1, column 14"),
        ];
        for (text, expected) in cases {
            assert_eq!(read(text).unwrap_err(), expected, "{text}");
        }
    }

    #[test]
    fn entries_keep_every_tool_in_order_with_its_schema_text_as_written() {
        let text = r#"{"tools": [
            {"name": "b", "description": "B", "inputSchema": { "type" : "object",
              "properties": {"q": {"description": "caf\u00e9"}} }},
            {"type": "function", "function": {"name": "a", "parameters": {"x": [1, 2]}}},
            {"name": "b", "description": 7, "parameters": [1]},
            {"name": "c", "parameters": {}, "inputSchema": {"ignored": true}}
        ]}"#;
        let entry = |name: &str, description: &str, parameters: Option<&str>| CatalogEntry {
            name: name.into(),
            description: description.into(),
            parameters: parameters.map(String::from),
        };
        assert_eq!(
            read_catalog(text).unwrap(),
            [
                entry(
                    "b",
                    "B",
                    Some(
                        r#"{ "type" : "object",
              "properties": {"q": {"description": "caf\u00e9"}} }"#
                    )
                ),
                entry("a", "", Some(r#"{"x": [1, 2]}"#)),
                entry("b", "", None),
                entry("c", "", Some("{}")),
            ]
        );
    }

    #[test]
    fn entries_refuse_what_the_index_refuses_with_the_same_errors() {
        for text in ["{\"a\": 1}", "[{\"name\": \"a\"}, \"b\"]", "[{\"description\": \"x\"}]", "[{\"name\": \"a\""] {
            let index_error = crate::index::Index::from_catalog(text).err().unwrap();
            assert_eq!(read_catalog(text).unwrap_err(), index_error, "{text}");
        }
        let over = " ".repeat(MAX_CATALOG_BYTES + 1);
        assert_eq!(read_catalog(&over).unwrap_err(), CatalogError::TooLarge(MAX_CATALOG_BYTES + 1));
    }

    #[test]
    fn an_empty_list_is_an_empty_catalog() {
        assert_eq!(read("[]").unwrap(), []);
        assert_eq!(read("{\"tools\": []}").unwrap(), []);
    }
}
