//! `tool_search`'s one call into the core, as methods of [`ToolIndex`]: the decision of a search
//! (`decideAsync`) and of a prefetch (`strongHitsAsync`), each ranked once and off JavaScript's
//! thread; and one answer's reads (`answerAsync`: the matches, their strengths, the next move),
//! by the same rules, for a caller of the JavaScript API that looks at the parts rather than the
//! decision (`bench/limits.mjs` times the most a search can ask of the core with it).

use napi::bindgen_prelude::{Object, Unknown};
use napi::{Env, Result};
use napi_derive::napi;

use super::calls::{AnswerCall, DecideCall};
use super::{off_thread, SearchHit, ToolIndex};

/// What a `tool_search` call answers, decided by the core.
#[napi(object)]
pub struct SearchDecision {
    /// What the query asks for: ranked words (`plain`), ranked words with a `+word` every match
    /// holds (`required`), named tools (`select`), or to see tools without loading them
    /// (`discover`).
    #[napi(ts_type = "'plain' | 'required' | 'select' | 'discover'")]
    pub form: String,
    /// The hits that load, best first: every tool `select:` names; the tool a query names exactly,
    /// alone; else, when the best match is as strong as `floor`, the leaders (each hit scoring at
    /// least `leaderShare` of the best hit's score).
    pub loaded: Vec<SearchHit>,
    /// The hits shown and not loaded, best first: the other hits beside an exact name or below
    /// the leader cut, or every match of a `discover:` query.
    pub shown: Vec<SearchHit>,
    /// When the search loads and shows nothing.
    pub next_move: Option<NextMove>,
}

/// What a search that loads nothing offers instead.
#[napi(object)]
pub struct NextMove {
    /// Whether any tool matched, too weakly to load; else none did.
    pub matched: bool,
    /// What `search(query, limit, { exclude })` returns (the page filled by meaning in a hybrid
    /// index); none for `select:`.
    pub candidates: Vec<SearchHit>,
    /// What `nearest(query, n, { exclude: exclude and the candidates })` returns; none for
    /// `select:`.
    pub nearest: Vec<String>,
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

fn hits(hits: Vec<crate::Hit<'_>>) -> Vec<SearchHit> {
    hits.into_iter().map(SearchHit::from).collect()
}

#[napi]
impl ToolIndex {
    /// What `tool_search` answers for `query` at `limit`, decided once, ranked once and off
    /// JavaScript's thread: the query's form, the hits that load, the hits only shown and, when
    /// there are neither, the next move. `options.floor` (the weak-match floor) and
    /// `options.leaderShare` (the leader cut) are the caller's parameters. A `discover:` query
    /// ranks the rest of its text and loads nothing; with nothing after it, the promise rejects.
    /// Bad arguments reject it with `search`'s errors.
    #[napi(
        js_name = "decideAsync",
        catch_unwind,
        ts_args_type = "query: string, limit: number, options: DecideOptions",
        ts_return_type = "Promise<SearchDecision>"
    )]
    pub fn decide_async<'env>(
        &self,
        env: &'env Env,
        query: Unknown<'_>,
        limit: f64,
        options: Option<Unknown<'_>>,
    ) -> Result<Object<'env>> {
        let index = self.index.clone();
        off_thread(env, DecideCall::search(query, limit, options), move |call| {
            let decision = call.run(&index)?;
            Ok(SearchDecision {
                form: decision.form.name().to_string(),
                loaded: hits(decision.loaded),
                shown: hits(decision.shown),
                next_move: decision.next_move.map(|next| NextMove {
                    matched: next.matched,
                    candidates: hits(next.candidates),
                    nearest: next.nearest.into_iter().map(str::to_string).collect(),
                }),
            })
        })
    }

    /// The hits a prefetch loads for `query` (a user's message) at `limit`: each match whose
    /// strength reaches `options.floor`, the tool the query names exactly, every tool a `select:`
    /// names; none for `discover:`. Ranked once, off JavaScript's thread.
    #[napi(
        js_name = "strongHitsAsync",
        catch_unwind,
        ts_args_type = "query: string, limit: number, options: StrongHitsOptions",
        ts_return_type = "Promise<SearchHit[]>"
    )]
    pub fn strong_hits_async<'env>(
        &self,
        env: &'env Env,
        query: Unknown<'_>,
        limit: f64,
        options: Option<Unknown<'_>>,
    ) -> Result<Object<'env>> {
        let index = self.index.clone();
        off_thread(env, DecideCall::prefetch(query, limit, options), move |call| Ok(hits(call.run(&index)?.loaded)))
    }

    /// One `tool_search` answer's reads, ranked once and off JavaScript's thread: the matches,
    /// their strengths and, when `options.weakBelow` asks for it, the next move. Each part is
    /// exactly what the separate call it names returns. Bad arguments reject the promise with
    /// those calls' errors. `decideAsync` decides from the same reads.
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
            let answer = crate::answer(&index, &call.query, call.limit, &exclude, call.rule);
            let (candidates, nearest) = answer.next_move.map_or((None, None), |next| {
                (Some(hits(next.candidates)), Some(next.nearest.into_iter().map(str::to_string).collect()))
            });
            Ok(SearchAnswer { hits: hits(answer.hits), strengths: answer.strengths, candidates, nearest })
        })
    }
}
