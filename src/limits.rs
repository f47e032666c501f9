//! The bounds on what the core takes, in one place; docs/limits.md ("Bounds on input") documents them.
//!
//! Input past a hard bound is refused with an error that names the bound: an over-long query, a
//! result count that is not a whole number, text over its size limit, an exclusion list or a tool
//! name too long. Input past a soft bound is still served: a catalog with more tools, or schemas
//! nested deeper, than the index takes is indexed up to the bound and the rest is reported in the
//! index's warnings. One oversized tool or producer must not cost the user every search.
//!
//! Every length the addon takes from JavaScript is checked here before anything is allocated
//! from it: a string first by its length in UTF-16 code units, which JavaScript knows without
//! reading it ([`TextLimit::check_units`], [`check_query_units`]), an array by its length
//! ([`check_exclusions`]); only then is it read.

/// Longest query, in characters (Unicode scalar values): the plugin contract's bound (read from
/// `plugin/contract.ts`), enforced here too so every caller of the addon gets the same clear
/// error. It also bounds the work of one search, which grows with the number of query words.
pub const MAX_QUERY_CHARS: usize = crate::contract::MAX_QUERY_CHARS;

/// Largest catalog text, in bytes. Far above any real catalog (10,000 real tools are ~6 MB), low
/// enough that a runaway producer fails fast with a clear message.
pub const MAX_CATALOG_BYTES: usize = 128 * 1024 * 1024;

/// Largest session-events text, and largest `tool_search` payload text, in bytes. The plugin
/// sends replay only the events it reads: every tool call cut to its id and name (about a hundred
/// bytes), and the `tool_search` calls and results in full (a result holds at most 20 hits, each
/// a name and a summary of at most 240 characters: a few kilobytes). This bound holds over a
/// million calls or tens of thousands of searches, beyond any session, and stays well within
/// what one JavaScript string can hold. A payload is one result of those events, so it gets the
/// same bound: every payload replay can read, the live commit can read too.
pub const MAX_EVENTS_BYTES: usize = 128 * 1024 * 1024;

/// Longest tool name the addon takes from JavaScript (an `exclude` entry, the name `explain` and
/// `searchText` look up), in bytes. Model APIs take function names of at most 64 characters
/// (DeepSeek's and OpenAI's contract), so no tool a model can call comes near it; and an
/// exclusion list of [`MAX_TOOLS`] such names stays below [`MAX_CATALOG_BYTES`]. A catalog may
/// still hold a longer name (the index keeps it, and searches return it): only looking it up by
/// name is refused. Read from `plugin/contract.ts`, where the plugin leaves longer names out of
/// what it hands the core.
pub const MAX_NAME_BYTES: usize = crate::contract::MAX_NAME_BYTES;

/// Most tools one index holds (distinct names, first in catalog order). A search allocates and
/// reads per-tool score slots, so this bounds the time and memory of every search; it is ten
/// times the largest catalog the project's budgets plan for (10,000 tools, docs/benchmark.md).
pub const MAX_TOOLS: usize = 100_000;

/// Deepest schema level whose text is indexed (the parameters object is level 1; a property's,
/// an item's or a branch's schema is one level below its parent). The deepest schema in the real
/// catalogs measured (BFCL, DSH's own tools, the GitHub, Notion and Playwright MCP servers) is 6
/// levels; text further down is generated nesting (a recursive type expanded many times) that
/// repeats the same words and describes nothing a user asks for. The walk itself uses no call
/// stack, so this is about what is worth indexing, not about safety.
pub const MAX_SCHEMA_DEPTH: usize = 32;

/// Most index words one query word brings in by sharing its start (`Params::prefix_weight`), the
/// first in text order. Every one of them is a query term whose postings are read, so without a
/// bound a catalog of many words that begin alike (a huge enum of `data1`, `data2`, ...) made each
/// query word cost a pass over its whole vocabulary. The real catalogs measured bring in at most 7
/// per word (`time` in BFCL), so no real search reaches it.
pub const MAX_RELATED_WORDS: usize = 128;

/// How much of a tool name the stages that compare names word by word read (the name agreement,
/// the outline and the nearest names): its first `NAME_READ_BYTES` bytes, and of those at most
/// [`MAX_NAME_WORDS`] distinct words. Without it a name of a megabyte of distinct words was read,
/// and compared with every query word, whole: 220 s for one search. Model APIs take names of at
/// most 64 characters, and the longest real name measured has 70 bytes and 9 words; the BM25F
/// index still reads every name whole.
pub const NAME_READ_BYTES: usize = 256;

/// Distinct words of a name the name stages compare (see [`NAME_READ_BYTES`]).
pub const MAX_NAME_WORDS: usize = 32;

/// Distinct query words the nearest names compare with each name's words, the first in the
/// query: each is compared with every name of the catalog. A query that finds nothing is a few
/// words, often misspelled; the longest real request measured has 203 distinct words, of which
/// the first 64 say what it is about.
pub const MAX_NEAREST_WORDS: usize = 64;

/// Checks a query against [`MAX_QUERY_CHARS`].
pub fn check_query(query: &str) -> Result<(), String> {
    // A UTF-8 byte count bounds the character count from above: most queries need no count.
    if query.len() <= MAX_QUERY_CHARS {
        return Ok(());
    }
    let chars = query.chars().count();
    if chars > MAX_QUERY_CHARS {
        return Err(format!("query is {chars} characters long; the limit is {MAX_QUERY_CHARS}"));
    }
    Ok(())
}

/// Checks, before a JavaScript string of `units` UTF-16 code units is read, that it can be a
/// query of at most [`MAX_QUERY_CHARS`] characters: a character takes one or two code units, so
/// `units` of them hold at least half as many characters. [`check_query`] then counts exactly.
pub fn check_query_units(units: usize) -> Result<(), String> {
    if units <= 2 * MAX_QUERY_CHARS {
        return Ok(());
    }
    Err(format!("query is at least {} characters long; the limit is {MAX_QUERY_CHARS}", units.div_ceil(2)))
}

/// A text the core takes, named as errors name it, with its bound in UTF-8 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextLimit {
    pub name: &'static str,
    pub max_bytes: usize,
}

pub const CATALOG_TEXT: TextLimit = TextLimit { name: "tool catalog", max_bytes: MAX_CATALOG_BYTES };
pub const EVENTS_TEXT: TextLimit = TextLimit { name: "session events text", max_bytes: MAX_EVENTS_BYTES };
pub const PAYLOAD_TEXT: TextLimit = TextLimit { name: "payload text", max_bytes: MAX_EVENTS_BYTES };
/// One tool result as the live commit hands it over: a result of those events, so the same bound.
pub const RESULT_TEXT: TextLimit = TextLimit { name: "tool result text", max_bytes: MAX_EVENTS_BYTES };
pub const TOOL_NAME: TextLimit = TextLimit { name: "tool name", max_bytes: MAX_NAME_BYTES };
/// A model file's path: far longer than any file system takes.
pub const MODEL_PATH: TextLimit = TextLimit { name: "model path", max_bytes: 4096 };
/// The vector cache's directory: the same bound.
pub const CACHE_DIR: TextLimit = TextLimit { name: "vector cache directory", max_bytes: 4096 };

impl TextLimit {
    /// Refuses a text of `bytes` bytes of UTF-8 over the bound.
    pub fn check_bytes(&self, bytes: usize) -> Result<(), String> {
        if bytes <= self.max_bytes {
            return Ok(());
        }
        Err(self.too_large(bytes))
    }

    /// What a text of `bytes` bytes over the bound is told.
    pub fn too_large(&self, bytes: usize) -> String {
        format!("{} is {bytes} bytes; the limit is {} bytes", self.name, self.max_bytes)
    }

    /// Refuses, before it is read, a JavaScript string of `units` UTF-16 code units that cannot
    /// fit the bound: every code unit takes at least one byte of UTF-8.
    pub fn check_units(&self, units: usize) -> Result<(), String> {
        if units <= self.max_bytes {
            return Ok(());
        }
        Err(format!("{} is at least {units} bytes; the limit is {} bytes", self.name, self.max_bytes))
    }
}

/// Checks the length of an exclusion list from JavaScript (an array's length, before any of it is
/// read) against [`MAX_TOOLS`]: an index holds no more tools than that to exclude.
pub fn check_exclusions(len: usize) -> Result<(), String> {
    if len <= MAX_TOOLS {
        return Ok(());
    }
    Err(format!("exclude holds {len} entries; the limit is {MAX_TOOLS}"))
}

/// A result count from JavaScript: a whole, non-negative number. Counts beyond the catalog are
/// simply "all of them", so any whole number is accepted.
pub fn result_count(limit: f64) -> Result<usize, String> {
    if !limit.is_finite() || limit.fract() != 0.0 || limit < 0.0 {
        return Err(format!("limit must be a whole number of results (0 or more), got {limit}"));
    }
    // `as` saturates at usize::MAX.
    Ok(limit as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_of_exactly_the_limit_passes_and_one_more_character_fails() {
        assert!(check_query(&"é".repeat(MAX_QUERY_CHARS)).is_ok(), "counted in characters, not bytes");
        assert_eq!(
            check_query(&"w".repeat(MAX_QUERY_CHARS + 1)).unwrap_err(),
            "query is 4097 characters long; the limit is 4096"
        );
    }

    #[test]
    fn a_query_of_any_characters_within_the_limit_passes_the_check_before_reading() {
        for query in ["w".repeat(MAX_QUERY_CHARS), "🌦".repeat(MAX_QUERY_CHARS)] {
            assert!(check_query_units(query.encode_utf16().count()).is_ok());
        }
        assert_eq!(
            check_query_units(2 * MAX_QUERY_CHARS + 1).unwrap_err(),
            "query is at least 4097 characters long; the limit is 4096"
        );
        assert_eq!(
            check_query_units(u32::MAX as usize).unwrap_err(),
            "query is at least 2147483648 characters long; the limit is 4096"
        );
    }

    #[test]
    fn texts_are_checked_by_code_units_before_reading_and_by_bytes_after() {
        for limit in [CATALOG_TEXT, EVENTS_TEXT, PAYLOAD_TEXT, TOOL_NAME] {
            assert!(
                limit.check_units(limit.max_bytes).is_ok() && limit.check_bytes(limit.max_bytes).is_ok(),
                "{limit:?}"
            );
            let over = limit.max_bytes + 1;
            assert_eq!(
                limit.check_units(over).unwrap_err(),
                format!("{} is at least {over} bytes; the limit is {} bytes", limit.name, limit.max_bytes)
            );
            assert_eq!(
                limit.check_bytes(over).unwrap_err(),
                format!("{} is {over} bytes; the limit is {} bytes", limit.name, limit.max_bytes)
            );
        }
        // One code unit can take three bytes: a text within the bound by units may still be over it.
        let name = "é".repeat(MAX_NAME_BYTES / 2 + 1);
        assert!(TOOL_NAME.check_units(name.encode_utf16().count()).is_ok());
        assert_eq!(TOOL_NAME.check_bytes(name.len()).unwrap_err(), "tool name is 1026 bytes; the limit is 1024 bytes");
    }

    #[test]
    fn an_exclusion_list_holds_at_most_one_entry_per_tool() {
        assert!(check_exclusions(0).is_ok() && check_exclusions(MAX_TOOLS).is_ok());
        assert_eq!(check_exclusions(MAX_TOOLS + 1).unwrap_err(), "exclude holds 100001 entries; the limit is 100000");
        assert_eq!(
            check_exclusions(u32::MAX as usize).unwrap_err(),
            "exclude holds 4294967295 entries; the limit is 100000"
        );
    }

    #[test]
    fn bounded_lists_of_bounded_names_stay_below_the_catalog_bound() {
        const { assert!(MAX_TOOLS * MAX_NAME_BYTES < MAX_CATALOG_BYTES) };
    }

    #[test]
    fn result_counts_are_whole_non_negative_numbers_of_any_size() {
        assert_eq!(result_count(0.0), Ok(0));
        assert_eq!(result_count(20.0), Ok(20));
        assert_eq!(result_count(1e300), Ok(usize::MAX));
        assert_eq!(result_count(9007199254740991.0), Ok(9007199254740991));
        for bad in [-1.0, 2.5, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.5] {
            assert!(result_count(bad).unwrap_err().starts_with("limit must be a whole number"), "{bad}");
        }
    }
}
