//! Projection: the text a tool is searched under.
//!
//! A tool's document is its name, its name with `_` read as spaces, its description, then a walk
//! of its parameter schema: each node's description, then each property name (sorted) followed by
//! that property's own text, then `items`, then `anyOf` branches. This is the seed plugin's (and
//! Codex's) document, so rankings stay comparable. The walk keeps its own stack: a schema nested
//! 100,000 levels deep costs memory in proportion to its size, never call-stack depth.

use crate::catalog::ToolSpec;
use crate::json::{Json, NodeId};

/// The projected text of one tool, in document order.
pub fn project(json: &Json, tool: &ToolSpec) -> String {
    let mut parts = Parts::default();
    parts.push(tool.name);
    parts.push(&tool.name.replace('_', " "));
    parts.push(tool.description);
    if let Some(schema) = tool.parameters {
        walk_schema(json, schema, &mut parts);
    }
    parts.text
}

/// Space-joined, trimmed, non-empty parts.
#[derive(Default)]
struct Parts {
    text: String,
}

impl Parts {
    fn push(&mut self, part: &str) {
        let part = part.trim();
        if part.is_empty() {
            return;
        }
        if !self.text.is_empty() {
            self.text.push(' ');
        }
        self.text.push_str(part);
    }
}

/// What is left to emit: a schema node to expand, or a property name.
enum Step<'a> {
    Node(NodeId),
    Name(&'a str),
}

fn walk_schema<'a>(json: &'a Json, root: NodeId, parts: &mut Parts) {
    let mut stack = vec![Step::Node(root)];
    let mut children = Vec::new();
    while let Some(step) = stack.pop() {
        let node = match step {
            Step::Name(name) => {
                parts.push(name);
                continue;
            }
            Step::Node(node) if json.members(node).is_some() => node,
            Step::Node(_) => continue,
        };
        if let Some(description) = json.get_str(node, "description") {
            parts.push(description);
        }
        children.clear();
        if let Some(properties) = json.get(node, "properties").and_then(|p| json.members(p)) {
            for (name, schema) in sorted_properties(properties) {
                children.push(Step::Name(name));
                children.push(Step::Node(schema));
            }
        }
        if let Some(items) = json.get(node, "items") {
            children.push(Step::Node(items));
        }
        if let Some(branches) = json.get(node, "anyOf").and_then(|a| json.items(a)) {
            children.extend(branches.iter().map(|&b| Step::Node(b)));
        }
        // Reversed, so the stack hands them back in document order.
        stack.extend(children.drain(..).rev());
    }
}

/// Properties by name in code-point order; a repeated name keeps its last schema, as `JSON.parse`.
fn sorted_properties(members: &[(String, NodeId)]) -> Vec<(&str, NodeId)> {
    let mut sorted: Vec<(&str, NodeId)> = members.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    sorted.sort_by(|a, b| a.0.cmp(b.0)); // stable: equal names keep document order
    let mut unique: Vec<(&str, NodeId)> = Vec::with_capacity(sorted.len());
    for entry in sorted {
        match unique.last_mut() {
            Some(last) if last.0 == entry.0 => *last = entry,
            _ => unique.push(entry),
        }
    }
    unique
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    fn projected(tool_json: &str) -> String {
        let json = catalog::parse(&format!("[{tool_json}]")).unwrap();
        let tools = catalog::tools(&json).unwrap();
        project(&json, &tools[0])
    }

    #[test]
    fn name_split_name_description_then_schema_in_order() {
        let text = projected(
            r#"{"name": "get_weather", "description": " Current weather. ",
                "parameters": {"type": "object", "description": "Args",
                  "properties": {
                    "unit": {"type": "string", "description": "celsius or fahrenheit"},
                    "city": {"type": "string", "description": "City name"},
                    "days": {"type": "array", "items": {"description": "a day"}},
                    "when": {"anyOf": [{"description": "today"}, {"description": "date"}]}
                  }}}"#,
        );
        assert_eq!(
            text,
            "get_weather get weather Current weather. Args city City name days a day \
             unit celsius or fahrenheit when today date"
        );
    }

    #[test]
    fn nested_properties_come_right_after_their_parent_name() {
        let text = projected(
            r#"{"name": "t", "parameters": {"properties": {
                "b": {"properties": {"y": {"description": "why"}, "x": {}}},
                "a": {"description": "first"}}}}"#,
        );
        assert_eq!(text, "t t a first b x y why");
    }

    #[test]
    fn repeated_property_keeps_its_last_schema() {
        let text = projected(
            r#"{"name": "t", "parameters": {"properties": {"p": {"description": "old"}, "p": {"description": "new"}}}}"#,
        );
        assert_eq!(text, "t t p new");
    }

    #[test]
    fn ignores_non_object_schemas_and_non_string_descriptions() {
        let text = projected(
            r#"{"name": "t", "parameters": {"description": 5, "properties": {"a": true, "b": [1]}, "items": "x", "anyOf": {"no": 1}}}"#,
        );
        assert_eq!(text, "t t a b");
    }

    #[test]
    fn a_schema_a_hundred_thousand_levels_deep_projects_without_overflow() {
        let depth = 100_000;
        let mut schema = String::from(r#"{"description": "bottom"}"#);
        for _ in 0..depth {
            schema = format!(r#"{{"properties": {{"n": {schema}}}}}"#);
        }
        let text = projected(&format!(r#"{{"name": "deep", "parameters": {schema}}}"#));
        assert!(text.starts_with("deep deep n n n"));
        assert!(text.ends_with("n bottom"));
        assert_eq!(text.matches(" n").count(), depth);
    }
}
