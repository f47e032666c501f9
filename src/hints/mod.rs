//! What the model is told about the catalog besides ranked hits: an outline of the deferred tools
//! (`outline`), how strong a match is (`strength`, which the answer's weak-match floor reads)
//! and, when a search finds nothing strong, the names nearest to what it asked (`nearest`). The
//! outline and the nearest names read tool names only, split into words by the same analyzer the
//! index uses, so `getWeather`, `get_weather` and `mcp__weather__get` all show `get` and `weather`;
//! each name as far as `analysis::name_words` reads one, so a name of any length costs no more
//! than a long real one.

mod nearest;
mod outline;
mod strength;

pub use nearest::nearest;
pub use outline::{outline, Group, Outline};
pub use strength::match_strength;
pub(crate) use strength::strength;

/// `mcp__<server>__<tool>`, the name DSH's MCP bridge gives a server's tool, as the group name
/// `mcp__<server>` and the tool's own part; `None` for any other name.
fn mcp_parts(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("mcp__")?;
    let cut = rest.find("__").filter(|&at| at > 0)?;
    let tool = &rest[cut + 2..];
    (!tool.is_empty()).then(|| (&name[..5 + cut], tool))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcp_names_split_into_group_and_tool() {
        assert_eq!(mcp_parts("mcp__github__create_issue"), Some(("mcp__github", "create_issue")));
        assert_eq!(mcp_parts("mcp__my-server__a__b"), Some(("mcp__my-server", "a__b")));
        for other in ["mcp__github", "mcp____x", "mcp__github__", "mcp_github__x", "get_weather", ""] {
            assert_eq!(mcp_parts(other), None, "{other}");
        }
    }
}
