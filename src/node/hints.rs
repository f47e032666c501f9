//! The catalog hints `tool_search` gives beside ranked hits, as methods of [`ToolIndex`]: the
//! outline of the indexed tools, the strength of a match and the names nearest a query.

use napi::bindgen_prelude::Unknown;
use napi::Result;
use napi_derive::napi;

use super::{args, ToolIndex};
use crate::hints;
use crate::limits::{self, TOOL_NAME};

/// Words an outline gives each group, at most.
const WORDS_PER_GROUP: usize = 4;

/// One MCP server's deferred tools.
#[napi(object)]
pub struct OutlineGroup {
    /// `mcp__<server>`.
    pub name: String,
    pub tools: u32,
    /// The words that set its tool names apart from the rest of the catalog, best first.
    pub words: Vec<String>,
}

/// The indexed tools in outline.
#[napi(object)]
pub struct CatalogOutline {
    /// Largest first, then by name.
    pub groups: Vec<OutlineGroup>,
    /// Tools of no group, in catalog order.
    pub ungrouped: Vec<String>,
}

#[napi]
impl ToolIndex {
    /// The indexed tools, leaving out `exclude`, grouped by MCP server (`mcp__<server>__<tool>`)
    /// with each group's most distinctive name words (at most 4), and the rest by name.
    #[napi(catch_unwind, ts_args_type = "options?: SearchOptions | undefined | null")]
    pub fn outline(&self, options: Option<Unknown<'_>>) -> Result<CatalogOutline> {
        let exclude = args::search_options(options)?.exclude.unwrap_or_default();
        let exclude: rustc_hash::FxHashSet<&str> = exclude.iter().map(String::as_str).collect();
        let outline = hints::outline(self.index.names().filter(|name| !exclude.contains(name)), WORDS_PER_GROUP);
        Ok(CatalogOutline {
            groups: outline
                .groups
                .into_iter()
                .map(|g| OutlineGroup { name: g.name, tools: g.tools as u32, words: g.words })
                .collect(),
            ungrouped: outline.ungrouped,
        })
    }

    /// How strongly `name` matches `query`: its BM25F score for the whole query over the idf of a
    /// word only one tool has, so 1 is a match worth one rare word whatever the catalog's size;
    /// 0 when it matches nothing or is not indexed. The unit of the floors `decideAsync` and
    /// `strongHitsAsync` take, read one match at a time (`bench/calibrate-floor.mjs` chooses the
    /// weak-match floor with it). The query at most 4,096 characters, the name 1,024 bytes.
    #[napi(js_name = "matchStrength", catch_unwind, ts_args_type = "query: string, name: string")]
    pub fn match_strength(&self, query: Unknown<'_>, name: Unknown<'_>) -> Result<f64> {
        let query = args::query(query)?;
        let name = args::text(name, TOOL_NAME)?;
        Ok(hints::match_strength(&self.index, &query, &name))
    }

    /// At most `limit` indexed names, leaving out `exclude`, that look most like the query's
    /// words (shared character trigrams), best first, ties by name; names sharing nothing with it
    /// are left out. For a query that matched nothing. The query at most 4,096 characters.
    #[napi(catch_unwind, ts_args_type = "query: string, limit: number, options?: SearchOptions | undefined | null")]
    pub fn nearest(&self, query: Unknown<'_>, limit: f64, options: Option<Unknown<'_>>) -> Result<Vec<String>> {
        let query = args::query(query)?;
        let limit = limits::result_count(limit).map_err(super::invalid)?;
        let exclude = args::search_options(options)?.exclude.unwrap_or_default();
        let exclude: Vec<&str> = exclude.iter().map(String::as_str).collect();
        Ok(hints::nearest(&query, self.index.names(), &exclude, limit).into_iter().map(str::to_string).collect())
    }
}
