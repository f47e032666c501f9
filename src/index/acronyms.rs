//! The acronyms a catalog's tool names spell: the initials of every run of two to
//! [`MAX_ACRONYM`] consecutive words of a name, each with the words that spell it. People write
//! "PR" for a pull request and "DM" for a direct message; a tool named `get_pull_request_files`
//! holds the words, and its name's runs spell "pr", "prf", "gpr" and so on. A query word that is
//! such an acronym asks for those words (see `search::expansion`). Built from the names alone, the
//! first time a query needs it, so an index whose queries never hold a short word never pays.

use rustc_hash::FxHashMap;

use crate::analysis::{term_of, Analyzer, Piece};
use crate::limits::NAME_READ_BYTES;

use super::{Index, TermId};

/// Most words an acronym spells: longer runs spell letter strings no one types.
pub(crate) const MAX_ACRONYM: usize = 4;

/// Acronym to the word terms of every run that spells it, each once, in term-id order.
#[derive(Default)]
pub(crate) struct Acronyms {
    words: FxHashMap<Box<str>, Vec<TermId>>,
}

impl Acronyms {
    pub(crate) fn of(index: &Index) -> Acronyms {
        let mut words: FxHashMap<Box<str>, Vec<TermId>> = FxHashMap::default();
        let mut analyzer = Analyzer::new();
        let mut name: Vec<(char, TermId)> = Vec::new();
        for doc in 0..index.len() as u32 {
            name.clear();
            // A name is read as far as the other name stages read it, so a hostile name of a
            // megabyte adds no more acronyms than a real one.
            let full = index.doc(doc).name();
            analyzer.pieces(&full[..full.floor_char_boundary(NAME_READ_BYTES)], |piece| {
                let Piece::Word(word) = piece else { return };
                let (Some(initial), Some(id)) = (
                    word.chars().next().filter(char::is_ascii_alphabetic),
                    term_of(piece).and_then(|t| index.term(&t)),
                ) else {
                    return;
                };
                name.push((initial, id));
            });
            for start in 0..name.len() {
                let mut acronym = String::with_capacity(MAX_ACRONYM);
                for (len, &(initial, _)) in name[start..].iter().take(MAX_ACRONYM).enumerate() {
                    acronym.push(initial);
                    if len == 0 {
                        continue;
                    }
                    let spelled = words.entry(acronym.as_str().into()).or_default();
                    spelled.extend(name[start..=start + len].iter().map(|&(_, id)| id));
                }
            }
        }
        for ids in words.values_mut() {
            ids.sort_unstable();
            ids.dedup();
        }
        Acronyms { words }
    }

    /// The words `acronym` spells in some tool's name; empty when it spells none.
    pub(crate) fn words(&self, acronym: &str) -> &[TermId] {
        self.words.get(acronym).map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Index, Searcher};

    const CATALOG: &str = r#"[
        {"name": "mcp__github__get_pull_request_files", "description": "Files changed in a pull request."},
        {"name": "mcp__github__list_issues", "description": "List the issues of a repository."},
        {"name": "send_direct_message", "description": "Send a private message to a user."},
        {"name": "read_file", "description": "Read a file from disk."}
    ]"#;

    #[test]
    fn a_name_spells_the_acronyms_of_its_runs_of_words() {
        let index = Index::from_catalog(CATALOG).unwrap();
        let words = |acronym: &str| -> Vec<&str> {
            index.acronym_words(acronym).iter().map(|&id| index.term_text(id)).collect()
        };
        let mut pr = words("pr");
        pr.sort_unstable();
        assert_eq!(pr, ["pull", "request"]);
        assert_eq!(words("dm").len(), 2, "direct, messag");
        assert!(words("gprf").contains(&"file"), "four words");
        assert!(words("mggprf").is_empty(), "no longer than four");
        assert!(words("zz").is_empty());
    }

    #[test]
    fn a_short_word_no_tool_uses_reads_as_an_acronym_and_a_known_word_does_not() {
        let index = Index::from_catalog(CATALOG).unwrap();
        let top = |query: &str| Searcher::new(&index).search(query, 1, &[]).first().map(|hit| hit.name.to_string());
        assert_eq!(top("what files does PR 301 touch").as_deref(), Some("mcp__github__get_pull_request_files"));
        assert_eq!(top("DM jake").as_deref(), Some("send_direct_message"));
        // "file" is a word the catalog uses: it is read as that word, not as an acronym of f...
        let explained = Searcher::new(&index).explain("file", "read_file").unwrap();
        assert!(explained.terms.iter().all(|term| term.kind != crate::Match::Acronym));
        let off = crate::Params { acronym_weight: 0.0, ..crate::Params::default() };
        let plain = Index::from_catalog_with(CATALOG, off).unwrap();
        assert!(Searcher::new(&plain).search("DM jake", 1, &[]).is_empty());
    }
}
