//! Projection: the text a tool is searched under, split into fields that are weighted apart.
//!
//! A tool's document is its name, its description, then a walk of its parameter schema: each
//! node's description, title and string enum values, then each property name (sorted) followed
//! by that property's own text, then `items`, `anyOf`, `oneOf` and `allOf`. This extends the seed
//! plugin's (and Codex's) document with the schema text those leave out. The walk keeps its own
//! stack: a schema nested 100,000 levels deep costs memory in proportion to its size, never
//! call-stack depth. It reads [`MAX_SCHEMA_DEPTH`] levels and notes whether there was more.

use std::borrow::Cow;
use std::ops::Range;

use crate::input::catalog::ToolSpec;
use crate::input::json::{Json, Node, NodeId};
use crate::limits::MAX_SCHEMA_DEPTH;

/// Where a piece of text sits in a tool definition. Evidence from a name counts more than
/// evidence buried in a long schema; see [`crate::Params`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Name = 0,
    Description = 1,
    /// Property names.
    Parameter = 2,
    /// Descriptions, titles and enum values inside the schema.
    Schema = 3,
}

pub const FIELDS: usize = 4;

/// The projected text of one tool: `text` is every part joined by spaces in document order, and
/// each part's byte range is listed with its field.
#[derive(Debug, Default)]
pub struct Projection {
    pub text: String,
    pub parts: Vec<(Field, Range<usize>)>,
    /// The schema nests deeper than [`MAX_SCHEMA_DEPTH`]; the text below that depth is left out.
    pub too_deep: bool,
}

impl Projection {
    fn push(&mut self, field: Field, part: &str) {
        let part = part.trim();
        if part.is_empty() {
            return;
        }
        if !self.text.is_empty() {
            self.text.push(' ');
        }
        let start = self.text.len();
        self.text.push_str(part);
        self.parts.push((field, start..self.text.len()));
    }

    /// Each part's text with its field, in document order.
    pub fn fields(&self) -> impl Iterator<Item = (Field, &str)> {
        self.parts.iter().map(|(field, range)| (*field, &self.text[range.clone()]))
    }
}

pub fn project(json: &Json, tool: &ToolSpec) -> Projection {
    let mut projection = Projection::default();
    project_into(json, tool, &mut projection);
    projection
}

/// [`project`] into `out`, whose buffers are cleared and reused: an index builder projects every
/// tool of a catalog in turn, and growing a fresh text for each was a good part of its
/// allocations.
pub(crate) fn project_into(json: &Json, tool: &ToolSpec, out: &mut Projection) {
    out.text.clear();
    out.parts.clear();
    out.push(Field::Name, tool.name);
    out.push(Field::Description, tool.description);
    out.too_deep = false;
    if let Some(schema) = tool.parameters {
        out.too_deep = walk_schema(json, schema, out);
    }
}

/// What is left to emit: a schema node to expand (with its depth), or a property name.
enum Step<'a> {
    Node(NodeId, usize),
    Name(&'a str),
}

/// Projects the schema at `root` (depth 1) into `out`; true when some of it lies deeper than
/// [`MAX_SCHEMA_DEPTH`] and was left out. A property name is its schema's first text, so both
/// are left out together.
fn walk_schema(json: &Json, root: NodeId, out: &mut Projection) -> bool {
    let mut too_deep = false;
    let mut stack = vec![Step::Node(root, 1)];
    let mut children = Vec::new();
    while let Some(step) = stack.pop() {
        let (keywords, depth) = match step {
            Step::Name(name) => {
                out.push(Field::Parameter, name);
                continue;
            }
            Step::Node(node, depth) => match json.members(node) {
                Some(members) => (Keywords::of(json, members), depth),
                None => continue,
            },
        };
        for text in [keywords.description, keywords.title].into_iter().flatten() {
            out.push(Field::Schema, text);
        }
        for &value in keywords.values {
            if let Some(text) = json.str_of(value) {
                out.push(Field::Schema, text);
            }
        }
        children.clear();
        let below = depth + 1;
        for (name, schema) in sorted_properties(keywords.properties) {
            children.push(Step::Name(name));
            children.push(Step::Node(schema, below));
        }
        if let Some(items) = keywords.items {
            match json.items(items) {
                Some(tuple) => children.extend(tuple.iter().map(|&i| Step::Node(i, below))),
                None => children.push(Step::Node(items, below)),
            }
        }
        for branches in keywords.branches {
            children.extend(branches.iter().map(|&b| Step::Node(b, below)));
        }
        if depth == MAX_SCHEMA_DEPTH {
            // Only an object below is a schema level with text of its own.
            too_deep |= children.iter().any(|step| matches!(step, Step::Node(n, _) if json.members(*n).is_some()));
            continue;
        }
        // Reversed, so the stack hands them back in document order.
        stack.extend(children.drain(..).rev());
    }
    too_deep
}

/// The schema keywords the projection reads, found in one pass over a node's members (a
/// repeated key keeps its last value, as `JSON.parse` does).
#[derive(Default)]
struct Keywords<'j> {
    description: Option<&'j str>,
    title: Option<&'j str>,
    /// `enum` values (or the single `const`).
    values: &'j [NodeId],
    properties: &'j [(Cow<'j, str>, NodeId)],
    items: Option<NodeId>,
    /// `anyOf`, `oneOf`, `allOf`, in that order.
    branches: [&'j [NodeId]; 3],
}

impl<'j> Keywords<'j> {
    fn of(json: &'j Json<'j>, members: &'j [(Cow<'j, str>, NodeId)]) -> Self {
        let mut found = Keywords::default();
        for (key, slot) in members {
            let value = *slot;
            match key.as_ref() {
                "description" => found.description = json.str_of(value),
                "title" => found.title = json.str_of(value),
                "enum" => found.values = json.items(value).unwrap_or_default(),
                "const" if matches!(json.node(value), Node::String(_)) => found.values = std::slice::from_ref(slot),
                "properties" => found.properties = json.members(value).unwrap_or_default(),
                "items" => found.items = Some(value),
                "anyOf" => found.branches[0] = json.items(value).unwrap_or_default(),
                "oneOf" => found.branches[1] = json.items(value).unwrap_or_default(),
                "allOf" => found.branches[2] = json.items(value).unwrap_or_default(),
                _ => {}
            }
        }
        found
    }
}

/// Properties by name in code-point order; a repeated name keeps its last schema, as `JSON.parse`.
fn sorted_properties<'j>(members: &'j [(Cow<'_, str>, NodeId)]) -> Vec<(&'j str, NodeId)> {
    let mut sorted: Vec<(&str, NodeId)> = members.iter().map(|(k, v)| (k.as_ref(), *v)).collect();
    sorted.sort_by(|a, b| a.0.cmp(b.0)); // stable: equal names keep document order
                                         // Of a run of equal names the first stays, carrying the schema of the run's last.
    sorted.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            kept.1 = later.1;
        }
        same
    });
    sorted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::catalog;

    fn projected(tool_json: &str) -> Projection {
        let text = format!("[{tool_json}]");
        let json = catalog::parse(&text).unwrap();
        let tools = catalog::tools(&json).unwrap();
        project(&json, &tools[0])
    }

    fn fields(projection: &Projection) -> Vec<(Field, String)> {
        projection.fields().map(|(f, t)| (f, t.to_string())).collect()
    }

    #[test]
    fn name_description_then_schema_in_order() {
        let projection = projected(
            r#"{"name": "get_weather", "description": " Current weather. ",
                "parameters": {"type": "object", "description": "Args",
                  "properties": {
                    "unit": {"type": "string", "description": "Temperature unit", "enum": ["celsius", "fahrenheit", 3]},
                    "city": {"type": "string", "title": "City", "description": "City name"},
                    "days": {"type": "array", "items": {"description": "a day"}},
                    "when": {"anyOf": [{"description": "today"}, {"const": "tomorrow"}]}
                  }}}"#,
        );
        assert_eq!(
            projection.text,
            "get_weather Current weather. Args city City name City days a day \
             unit Temperature unit celsius fahrenheit when today tomorrow"
        );
        use Field::*;
        let expected = [
            (Name, "get_weather"),
            (Description, "Current weather."),
            (Schema, "Args"),
            (Parameter, "city"),
            (Schema, "City name"),
            (Schema, "City"),
            (Parameter, "days"),
            (Schema, "a day"),
            (Parameter, "unit"),
            (Schema, "Temperature unit"),
            (Schema, "celsius"),
            (Schema, "fahrenheit"),
            (Parameter, "when"),
            (Schema, "today"),
            (Schema, "tomorrow"),
        ];
        assert_eq!(fields(&projection), expected.map(|(f, t)| (f, t.to_string())));
    }

    #[test]
    fn nested_properties_come_right_after_their_parent_name() {
        let text = projected(
            r#"{"name": "t", "parameters": {"properties": {
                "b": {"properties": {"y": {"description": "why"}, "x": {}}},
                "a": {"description": "first"}}}}"#,
        )
        .text;
        assert_eq!(text, "t a first b x y why");
    }

    #[test]
    fn one_of_all_of_and_tuple_items_are_walked() {
        let text = projected(
            r#"{"name": "t", "parameters": {"oneOf": [{"description": "one"}], "allOf": [{"title": "all"}],
                "anyOf": [{"description": "any"}], "items": [{"description": "first item"}, {"enum": ["second"]}]}}"#,
        )
        .text;
        assert_eq!(text, "t first item second any one all");
    }

    #[test]
    fn repeated_property_keeps_its_last_schema() {
        let text = projected(r#"{"name": "t", "parameters": {"properties": {"p": {"description": "old"}, "p": {"description": "new"}}}}"#).text;
        assert_eq!(text, "t p new");
    }

    #[test]
    fn three_repeats_keep_the_last_and_neighbours_stay_apart() {
        let text = projected(
            r#"{"name": "t", "parameters": {"properties": {"b": {"description": "1"}, "a": {"description": "x"}, "b": {"description": "2"}, "b": {"description": "3"}}}}"#,
        )
        .text;
        assert_eq!(text, "t a x b 3");
    }

    #[test]
    fn a_reused_projection_holds_only_the_last_tool() {
        let text = r#"[{"name": "deep", "description": "d", "parameters": {"properties": {"p": {"description": "x"}}}},
                       {"name": "flat", "description": "f"}]"#;
        let json = catalog::parse(text).unwrap();
        let tools = catalog::tools(&json).unwrap();
        let mut reused = Projection::default();
        project_into(&json, &tools[0], &mut reused);
        reused.too_deep = true;
        project_into(&json, &tools[1], &mut reused);
        let fresh = project(&json, &tools[1]);
        assert_eq!((reused.text.as_str(), &reused.parts, reused.too_deep), (fresh.text.as_str(), &fresh.parts, false));
    }

    #[test]
    fn ignores_non_object_schemas_and_non_string_text() {
        let text = projected(
            r#"{"name": "t", "parameters": {"description": 5, "title": [], "enum": "x", "const": 3,
                "properties": {"a": true, "b": [1]}, "items": "x", "anyOf": {"no": 1}}}"#,
        )
        .text;
        assert_eq!(text, "t a b");
    }

    #[test]
    fn a_schema_a_hundred_thousand_levels_deep_projects_its_first_levels_without_overflow() {
        let depth = 100_000;
        let mut schema = String::from(r#"{"description": "bottom"}"#);
        for _ in 0..depth {
            schema = format!(r#"{{"properties": {{"n": {schema}}}}}"#);
        }
        let projection = projected(&format!(r#"{{"name": "deep", "parameters": {schema}}}"#));
        assert!(projection.too_deep);
        assert_eq!(projection.text, format!("deep{}", " n".repeat(MAX_SCHEMA_DEPTH - 1)));
    }

    #[test]
    fn text_down_to_the_depth_limit_is_indexed_and_below_it_is_not() {
        // `items` adds one level per object: the deepest description sits at `levels`.
        let nested = |levels: usize| {
            let mut schema = format!(r#"{{"description": "level{levels}"}}"#);
            for level in (1..levels).rev() {
                schema = format!(r#"{{"description": "level{level}", "items": {schema}}}"#);
            }
            projected(&format!(r#"{{"name": "t", "parameters": {schema}}}"#))
        };
        let at_limit = nested(MAX_SCHEMA_DEPTH);
        assert!(!at_limit.too_deep);
        assert!(at_limit.text.ends_with(&format!("level{MAX_SCHEMA_DEPTH}")));
        let past = nested(MAX_SCHEMA_DEPTH + 1);
        assert!(past.too_deep);
        assert_eq!(past.text, at_limit.text);
        // A value below the last level that is not an object is no schema level: nothing is lost.
        let scalar_below = format!("{}7{}", r#"{"items": "#.repeat(MAX_SCHEMA_DEPTH), "}".repeat(MAX_SCHEMA_DEPTH));
        assert!(!projected(&format!(r#"{{"name": "t", "parameters": {scalar_below}}}"#)).too_deep);
    }
}
