//! The deferred catalog in a few lines: its MCP tools grouped by server, each group with the words
//! that set its tool names apart from the rest of the catalog, and the tools that belong to no
//! group. The plugin puts this in `tool_search`'s description, so a model can tell that a GitHub
//! or Notion server is installed before it searches.
//!
//! A group's words are read from the data, never from a list: a word scores the share of the
//! group's tools that carry it, times the log of how rare it is in the whole outlined catalog
//! (total tools over tools carrying it), so `issue` (in a third of the GitHub tools and nowhere
//! else) beats `get` (in half of every server's tools), and a word every tool carries scores 0.

use rustc_hash::FxHashMap;

use super::mcp_parts;
use crate::analysis::{name_words, Analyzer};
use crate::index::bm25::ln;

/// One MCP server's tools.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// `mcp__<server>`.
    pub name: String,
    pub tools: usize,
    /// Its most distinctive words, best first.
    pub words: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Outline {
    /// Largest group first, then by name.
    pub groups: Vec<Group>,
    /// The names of no group, in the order given.
    pub ungrouped: Vec<String>,
}

/// How often one term occurs in a group, and how it is spelled there.
#[derive(Default)]
struct TermCount {
    tools: usize,
    spellings: FxHashMap<String, usize>,
}

#[derive(Default)]
struct GroupCount {
    tools: usize,
    terms: FxHashMap<String, TermCount>,
}

/// The outline of `names`, each a distinct tool name, with at most `words_per_group` words per
/// group.
pub fn outline<'a>(names: impl IntoIterator<Item = &'a str>, words_per_group: usize) -> Outline {
    let mut analyzer = Analyzer::new();
    let mut groups: FxHashMap<&str, GroupCount> = FxHashMap::default();
    // Per term, how many tools of the whole catalog carry it.
    let mut tools_with: FxHashMap<String, usize> = FxHashMap::default();
    let mut total = 0;
    let mut ungrouped = Vec::new();
    for name in names {
        total += 1;
        let (group, own) = mcp_parts(name).map_or((None, name), |(group, tool)| (Some(group), tool));
        let found = name_words(&mut analyzer, own);
        for word in &found {
            *tools_with.entry(word.term.clone()).or_default() += 1;
        }
        let Some(group) = group else {
            ungrouped.push(name.to_string());
            continue;
        };
        let count = groups.entry(group).or_default();
        count.tools += 1;
        for word in found {
            let term = count.terms.entry(word.term).or_default();
            term.tools += 1;
            *term.spellings.entry(word.text).or_default() += 1;
        }
    }
    let mut groups: Vec<Group> = groups
        .into_iter()
        .map(|(name, count)| Group {
            name: name.to_string(),
            tools: count.tools,
            words: distinctive(&mut analyzer, name, &count, &tools_with, total, words_per_group),
        })
        .collect();
    groups.sort_by(|a, b| b.tools.cmp(&a.tools).then_with(|| a.name.cmp(&b.name)));
    Outline { groups, ungrouped }
}

/// The best `limit` words of one group, leaving out the words of its server's name (the group
/// name already says them) and words every tool of the catalog carries (idf 0 tells nothing).
fn distinctive(
    analyzer: &mut Analyzer,
    group: &str,
    count: &GroupCount,
    tools_with: &FxHashMap<String, usize>,
    total: usize,
    limit: usize,
) -> Vec<String> {
    let server: Vec<String> = name_words(analyzer, group).into_iter().map(|w| w.term).collect();
    let mut scored: Vec<(f64, &str)> = count
        .terms
        .iter()
        .filter(|(term, _)| !server.contains(term))
        .map(|(term, seen)| {
            let share = seen.tools as f64 / count.tools as f64;
            (share * ln(total as f64 / tools_with[term] as f64), spelling(&seen.spellings))
        })
        .filter(|&(score, _)| score > 0.0)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    scored.into_iter().take(limit).map(|(_, word)| word.to_string()).collect()
}

/// The spelling a group uses most; on a tie the shorter, then the first in code-point order.
fn spelling(spellings: &FxHashMap<String, usize>) -> &str {
    let best =
        spellings.iter().min_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.len().cmp(&b.0.len())).then_with(|| a.0.cmp(b.0)));
    best.map_or("", |(text, _)| text.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outlined(names: &[&str]) -> Outline {
        outline(names.iter().copied(), 3)
    }

    #[test]
    fn mcp_tools_group_by_server_largest_first_and_other_names_keep_their_order() {
        let found = outlined(&["web_search", "mcp__b__x_one", "mcp__a__y_two", "mcp__b__x_three", "ralph"]);
        let sizes: Vec<(&str, usize)> = found.groups.iter().map(|g| (g.name.as_str(), g.tools)).collect();
        assert_eq!(sizes, [("mcp__b", 2), ("mcp__a", 1)]);
        assert_eq!(found.ungrouped, ["web_search", "ralph"]);
    }

    #[test]
    fn a_group_is_described_by_the_words_that_set_it_apart() {
        let found = outlined(&[
            "mcp__github__create_issue",
            "mcp__github__list_issues",
            "mcp__github__get_issue",
            "mcp__github__create_pull_request",
            "mcp__github__get_github_user",
            "mcp__notion__create_page",
            "mcp__notion__get_page",
            "mcp__notion__search",
        ]);
        let github = &found.groups[0];
        assert_eq!(github.name, "mcp__github");
        // `issue` (three tools, only here) first, spelled as most of them spell it; `create` and
        // `get` occur in both servers; `github` is the server's own name.
        assert_eq!(github.words[0], "issue");
        assert!(!github.words.iter().any(|w| w == "github"), "{:?}", github.words);
        assert_eq!(found.groups[1].words[0], "page");
    }

    #[test]
    fn words_every_tool_carries_say_nothing() {
        let found = outlined(&["mcp__a__get", "mcp__b__get"]);
        assert!(found.groups.iter().all(|g| g.words.is_empty()), "{found:?}");
    }

    #[test]
    fn the_same_names_in_any_order_give_the_same_groups() {
        let names = ["mcp__x__alpha_beta", "mcp__y__gamma", "mcp__x__beta_delta", "mcp__y__gamma_delta", "z"];
        let mut reversed = names;
        reversed.reverse();
        assert_eq!(outlined(&names).groups, outlined(&reversed).groups);
        assert!(outlined(&[]).groups.is_empty());
    }
}
