//! Our own small JSON reader: a document is a flat arena of nodes, read by [`Json::parse`] and
//! walked through [`Json`]'s accessors here.
//!
//! Why not `serde_json::Value` (or any reader built the same way): the catalog and session events
//! come from other plugins and from disk, so they can be hostile, and two of their properties
//! rule the usual readers out.
//!
//! - **Depth without recursion.** serde_json parses nested values by recursion and refuses input
//!   deeper than 128 levels, and a `Value` is freed by recursion too, so a schema nested 100,000
//!   levels deep would either fail the whole catalog or overflow the stack. Here nesting costs
//!   heap, not stack: parsing keeps an explicit stack of open containers, and the nodes live in
//!   one `Vec` that is freed flat. Containers nested deeper than [`MAX_JSON_DEPTH`] are checked
//!   but not kept (they read as `null`), so deep input costs one byte per level instead of a
//!   node, a stack entry and a child list per level.
//! - **Lone surrogates.** `JSON.stringify` writes an unpaired UTF-16 surrogate as a `\udXXX`
//!   escape, which strict readers (serde_json among them) reject, failing a whole catalog or
//!   session over one odd character; here such an escape becomes U+FFFD.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use crate::limits::MAX_SCHEMA_DEPTH;

mod parse;

use parse::Parser;

/// Deepest container kept. Every value the core reads sits far above it: a tool's schema text
/// at the walk's last level is at most `2 * MAX_SCHEMA_DEPTH + 4` levels down (two per schema
/// level, four for the catalog's own wrapping), and session events are a few levels deep.
pub const MAX_JSON_DEPTH: usize = 4 * MAX_SCHEMA_DEPTH;

/// Index of a node in its [`Json`] document.
pub type NodeId = usize;

/// One parsed JSON value. A container holds the range of its children in the document's shared
/// child lists, so a whole document costs a handful of allocations, not one per container.
/// Strings without escapes borrow the input text instead of copying it: most catalog text is
/// plain, and allocating every string was the largest cost of building an index.
#[derive(Debug, Clone, PartialEq)]
pub enum Node<'a> {
    Null,
    Bool(bool),
    Number(f64),
    String(Cow<'a, str>),
    /// Its items: a range of [`Json::items`].
    Array(Range<usize>),
    /// Its members, in document order: a range of [`Json::members`]. A repeated key keeps every
    /// occurrence (see [`Json::get`]).
    Object(Range<usize>),
}

/// A parsed JSON document, borrowing the text it was parsed from.
#[derive(Debug)]
pub struct Json<'a> {
    nodes: Vec<Node<'a>>,
    items: Vec<NodeId>,
    members: Vec<(Cow<'a, str>, NodeId)>,
    root: NodeId,
    source: &'a str,
    /// Each node's byte range in `source`, when the document was parsed with
    /// [`Json::parse_with_spans`]; empty otherwise (most callers never need them).
    spans: Vec<Range<usize>>,
}

/// Why a text is not JSON, with the place it went wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonError {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at line {}, column {}", self.message, self.line, self.column)
    }
}

impl<'a> Json<'a> {
    pub fn parse(text: &'a str) -> Result<Json<'a>, JsonError> {
        Parser::new(text, None).document()
    }

    /// [`Json::parse`], also recording where each value is written, for [`Json::source_text`].
    pub fn parse_with_spans(text: &'a str) -> Result<Json<'a>, JsonError> {
        Parser::new(text, Some(Vec::new())).document()
    }

    /// A value's JSON text exactly as written (escapes, spacing and all), when the document was
    /// parsed with [`Json::parse_with_spans`]; `None` otherwise. A container past the depth
    /// limit, which reads as `null`, still has all of its text here.
    pub fn source_text(&self, id: NodeId) -> Option<&'a str> {
        self.spans.get(id).map(|span| &self.source[span.clone()])
    }

    pub fn root(&self) -> NodeId {
        self.root
    }

    pub fn node(&self, id: NodeId) -> &Node<'a> {
        &self.nodes[id]
    }

    /// The member `key` of an object node. A repeated key resolves to its last occurrence, as in
    /// `JSON.parse`, so both sides of the Node-API boundary read the same value.
    pub fn get(&self, id: NodeId, key: &str) -> Option<NodeId> {
        self.members(id)?.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v)
    }

    pub fn str_of(&self, id: NodeId) -> Option<&str> {
        match &self.nodes[id] {
            Node::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn items(&self, id: NodeId) -> Option<&[NodeId]> {
        match &self.nodes[id] {
            Node::Array(range) => Some(&self.items[range.clone()]),
            _ => None,
        }
    }

    pub fn members(&self, id: NodeId) -> Option<&[(Cow<'a, str>, NodeId)]> {
        match &self.nodes[id] {
            Node::Object(range) => Some(&self.members[range.clone()]),
            _ => None,
        }
    }

    /// `get` followed by `str_of`: the string member `key`, if there is one.
    pub fn get_str(&self, id: NodeId, key: &str) -> Option<&str> {
        self.get(id, key).and_then(|v| self.str_of(v))
    }

    /// The JSON type name of a node, for error messages.
    pub fn kind(&self, id: NodeId) -> &'static str {
        match &self.nodes[id] {
            Node::Null => "null",
            Node::Bool(_) => "a boolean",
            Node::Number(_) => "a number",
            Node::String(_) => "a string",
            Node::Array(_) => "an array",
            Node::Object(_) => "an object",
        }
    }
}
