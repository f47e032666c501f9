//! What the model is told about the catalog besides ranked hits: an outline of the deferred tools
//! (`outline`), how strong a match is (`strength`: a weak best match loads nothing) and, when a
//! search finds nothing strong, the names nearest to what it asked (`nearest`). The outline and
//! the nearest names read tool names only, split into words by the same analyzer the index
//! uses, so `getWeather`, `get_weather` and `mcp__weather__get` all show `get` and `weather`.

mod nearest;
mod outline;
mod strength;

pub use nearest::nearest;
pub use outline::{outline, Group, Outline};
pub use strength::match_strength;

use crate::analysis::{term_of, Analyzer, Piece};

/// One word of a name: as folded (lowercase, without accents) and the term it indexes under,
/// which two spellings of one word share (`issue` and `issues`).
struct Word {
    text: String,
    term: String,
}

/// The words of `text` that mean something on their own: no stop words, numbers or single
/// letters (what [`term_of`] drops), no CJK pieces, each term once, in order.
fn words(analyzer: &mut Analyzer, text: &str) -> Vec<Word> {
    let mut found: Vec<Word> = Vec::new();
    analyzer.pieces(text, |piece| {
        let Piece::Word(word) = piece else { return };
        if let Some(term) = term_of(piece) {
            if !found.iter().any(|w| w.term == term) {
                found.push(Word { text: word.to_string(), term });
            }
        }
    });
    found
}

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

    #[test]
    fn words_drop_noise_and_repeat_each_term_once() {
        let texts: Vec<String> =
            words(&mut Analyzer::new(), "get_the_issues_2_issue-x").into_iter().map(|w| w.text).collect();
        assert_eq!(texts, ["get", "issues"]);
    }
}
