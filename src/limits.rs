//! The bounds on what the core takes, in one place; README.md ("Limits") documents them.
//!
//! Input past a hard bound is refused with an error that names the bound: an over-long query, a
//! result count that is not a whole number, catalog text over the size limit. Input past a soft
//! bound is still served: a catalog with more tools, or schemas nested deeper, than the index
//! takes is indexed up to the bound and the rest is reported in the index's warnings. One
//! oversized tool or producer must not cost the user every search.

/// Longest query, in characters (Unicode scalar values): the plugin contract's bound, enforced
/// here too so every caller of the addon gets the same clear error. It also bounds the work of
/// one search, which grows with the number of query words.
pub const MAX_QUERY_CHARS: usize = 4096;

/// Largest catalog text, in bytes. Far above any real catalog (10,000 real tools are ~6 MB), low
/// enough that a runaway producer fails fast with a clear message.
pub const MAX_CATALOG_BYTES: usize = 128 * 1024 * 1024;

/// Most tools one index holds (distinct names, first in catalog order). A search allocates and
/// reads per-tool score slots, so this bounds the time and memory of every search; it is ten
/// times the largest catalog the budgets in DESIGN.md plan for.
pub const MAX_TOOLS: usize = 100_000;

/// Deepest schema level whose text is indexed (the parameters object is level 1; a property's,
/// an item's or a branch's schema is one level below its parent). The deepest schema in the real
/// catalogs measured (BFCL, DSH's own tools, the GitHub, Notion and Playwright MCP servers) is 6
/// levels; text further down is generated nesting (a recursive type expanded many times) that
/// repeats the same words and describes nothing a user asks for. The walk itself uses no call
/// stack, so this is about what is worth indexing, not about safety.
pub const MAX_SCHEMA_DEPTH: usize = 32;

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
