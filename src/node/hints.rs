//! The catalog hints `tool_search` gives beside ranked hits, as methods of [`ToolIndex`]: the
//! outline of the indexed tools, the strength of a match and the names nearest a query.

use napi::bindgen_prelude::{Object, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use super::calls::AnswerCall;
use super::{args, off_thread, SearchHit, ToolIndex};
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

/// Everything one `tool_search` answer reads from the index, from one ranking of its query.
#[napi(object)]
pub struct SearchAnswer {
    /// The matches: what `search(query, limit, { exclude, fill: false })` returns.
    pub hits: Vec<SearchHit>,
    /// Each hit's `matchStrength(query, hit.name)`, in the same order.
    pub strengths: Vec<f64>,
    /// With the next move: what `search(query, limit, { exclude })` returns (the page filled by
    /// meaning in a hybrid index).
    pub candidates: Option<Vec<SearchHit>>,
    /// With the next move: what `nearest(query, n, { exclude: exclude and the candidates })`
    /// returns.
    pub nearest: Option<Vec<String>>,
}

#[napi]
impl ToolIndex {
    /// One `tool_search` answer's reads, ranked once and off JavaScript's thread: the matches,
    /// their strengths and, when `options.weakBelow` asks for it, the next move. Each part is
    /// exactly what the separate call it names returns. Bad arguments reject the promise with
    /// those calls' errors.
    #[napi(
        js_name = "answerAsync",
        catch_unwind,
        ts_args_type = "query: string, limit: number, options?: AnswerOptions | undefined | null",
        ts_return_type = "Promise<SearchAnswer>"
    )]
    pub fn answer_async<'env>(
        &self,
        env: &'env Env,
        query: Unknown<'_>,
        limit: f64,
        options: Option<Unknown<'_>>,
    ) -> Result<Object<'env>> {
        let index = self.index.clone();
        off_thread(env, AnswerCall::read(query, limit, options), move |call| {
            let exclude: Vec<&str> = call.exclude.iter().map(String::as_str).collect();
            let answer = hints::answer(&index, &call.query, call.limit, &exclude, call.rule);
            let (candidates, nearest) = answer.next_move.map_or((None, None), |next| {
                let candidates = next.candidates.into_iter().map(SearchHit::from).collect();
                (Some(candidates), Some(next.nearest.into_iter().map(str::to_string).collect()))
            });
            Ok(SearchAnswer {
                hits: answer.hits.into_iter().map(SearchHit::from).collect(),
                strengths: answer.strengths,
                candidates,
                nearest,
            })
        })
    }

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
    /// 0 when it matches nothing or is not indexed. The query at most 4,096 characters, the name
    /// 1,024 bytes.
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

/// Whether a query names its tools (`select:a,b`) rather than describing them: its results are
/// what it named, in its order, with no score to judge them by. The query at most 4,096
/// characters.
#[napi(js_name = "namesTools", catch_unwind, ts_args_type = "query: string")]
pub fn names_tools(query: Unknown<'_>) -> Result<bool> {
    let query = args::query(query)?;
    Ok(matches!(crate::Query::parse(&query), crate::Query::Select(_)))
}
