//! The Node-API boundary: JavaScript values in, plain Rust calls, JavaScript errors out. Compiled
//! only for the addon (the `node` feature); the core behind it is the crate's plain-Rust surface.
//!
//! Every export is built with `catch_unwind`, getters included, so even a bug that panics reaches
//! JavaScript as an `Error` instead of aborting the host process (a panic unwinding into
//! Node-API's C frames would abort it). What `catch_unwind` cannot catch is kept out by
//! construction: nothing in the core recurses on its input (the JSON reader, the schema walk and
//! the drop of a document all use heap, not the call stack), and the limits in `limits.rs` bound
//! memory. No length JavaScript controls sizes an allocation: the exports take plain JavaScript
//! values and read them through `args`, which checks each length against its bound first.
//!
//! The asynchronous exports (`searchAsync`, and `decideAsync` and the others of `answer`) read
//! their arguments that way on JavaScript's thread, then rank on the core's own threads (`pool`),
//! each job under `catch_unwind` too, so that a search never holds the host's event loop and
//! every promise settles.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use napi::bindgen_prelude::{Either, Null, Object, ToNapiValue, Unknown};
use napi::{Env, Error, Result, Status};
use napi_derive::napi;

use crate::input::catalog;
use crate::limits::{CATALOG_TEXT, EVENTS_TEXT, PAYLOAD_TEXT, RESULT_TEXT, TOOL_NAME};
use crate::{replay, Hit, Index, Params, Searcher};

mod answer;
mod args;
mod calls;
mod explanation;
mod hints;
mod model;
mod pool;

use args::Ranking;
use calls::SearchCall;
use explanation::Explanation;
use model::{default_model, MODEL_PACKAGE};

/// One ranked tool.
#[napi(object)]
pub struct SearchHit {
    pub name: String,
    /// Whitespace collapsed, at most 240 characters ("..." ending when cut).
    pub description: String,
    /// BM25 score rounded to 6 decimals.
    pub score: f64,
}

impl From<Hit<'_>> for SearchHit {
    fn from(hit: Hit<'_>) -> Self {
        SearchHit { name: hit.name.to_string(), description: hit.summary.to_string(), score: hit.score }
    }
}

/// The options of a search.
// Read field by field with bounds (`args.rs`), never by napi's own conversion, which would size
// a list by whatever length JavaScript gives it.
#[napi(object, object_from_js = false, object_to_js = false)]
pub struct SearchOptions {
    /// Names to leave out of the ranked results (for example tools the caller can already use).
    /// A query equal to an excluded name still returns that tool first. At most 100,000 names,
    /// each at most 1,024 bytes.
    pub exclude: Option<Vec<String>>,
    /// `search` only: in a hybrid index, fill the places the matching tools leave with the
    /// nearest of the others by meaning (default `true`); `false` returns matches only. `outline`
    /// and `nearest` ignore it.
    pub fill: Option<bool>,
}

/// A tool search index over a catalog: BM25F, fused with a semantic model in a hybrid index.
/// Build it once per catalog and keep it: searching a kept index costs microseconds, building one
/// costs about as much as parsing the catalog.
#[napi]
pub struct ToolIndex {
    /// Shared with the searches running off JavaScript's thread (`pool`), which may outlive the
    /// JavaScript object.
    index: Arc<Index>,
    /// What building it had to say beyond the index's own warnings (a model that could not be read).
    notes: Vec<String>,
}

#[napi]
impl ToolIndex {
    /// Indexes a JSON array of `{name, description?, parameters?}` (OpenAI function tools and MCP
    /// `{name, description, inputSchema}` or `{tools: [...]}` are read too). Duplicate names: the
    /// first wins. At most 128 MiB of text. `options.ranking`: 'lexical' for BM25F alone,
    /// 'hybrid' for BM25F fused with the semantic model's similarity (an error when the model
    /// package is not installed); omitted, 'hybrid' when the model package resolves, else 'lexical'.
    #[napi(
        factory,
        js_name = "fromJson",
        catch_unwind,
        ts_args_type = "toolsJson: string, options?: { ranking?: 'lexical' | 'hybrid' } | undefined | null"
    )]
    pub fn from_json(tools_json: Unknown<'_>, options: Option<Unknown<'_>>) -> Result<ToolIndex> {
        let tools_json = args::text(tools_json, CATALOG_TEXT)?;
        build_index(&tools_json, args::index_options(options)?)
    }

    /// `fromJson`, built off JavaScript's thread: a promise of the index, or of `fromJson`'s error.
    /// A hybrid index's build embeds every tool with the word table, which at 10,000 tools holds
    /// a thread for a tenth of a second; the plugin builds its indexes this way.
    #[napi(
        js_name = "fromJsonAsync",
        catch_unwind,
        ts_args_type = "toolsJson: string, options?: { ranking?: 'lexical' | 'hybrid' } | undefined | null",
        ts_return_type = "Promise<ToolIndex>"
    )]
    pub fn from_json_async<'env>(
        env: &'env Env,
        tools_json: Unknown<'_>,
        options: Option<Unknown<'_>>,
    ) -> Result<Object<'env>> {
        let call = args::text(tools_json, CATALOG_TEXT).and_then(|text| Ok((text, args::index_options(options)?)));
        off_thread(env, call, |(text, asked)| build_index(&text, asked))
    }

    /// How this index ranks: 'hybrid' (BM25F fused with the semantic model) or 'lexical'.
    #[napi(getter, catch_unwind, ts_return_type = "'lexical' | 'hybrid'")]
    pub fn ranking(&self) -> &'static str {
        if self.index.is_hybrid() {
            Ranking::Hybrid.name()
        } else {
            Ranking::Lexical.name()
        }
    }

    /// Resolves once every tool's semantic vector is in place. The word table's are computed while
    /// the index is built; the transformer's, when its model is installed, by a background thread.
    /// Searches never need to wait for it: one that needs a vector not made yet makes it, so it
    /// answers exactly as it will after. Resolves at once for a lexical index; never rejects.
    /// Resolved by the background thread itself, so a pending `ready()` holds none of libuv's
    /// threads and never delays the process's exit.
    #[napi(catch_unwind, ts_return_type = "Promise<void>")]
    pub fn ready<'env>(&self, env: &'env Env) -> Result<Object<'env>> {
        let (deferred, promise) = env.create_deferred()?;
        let settle = move || deferred.resolve(|_| Ok(()));
        match self.index.transformer_vectors() {
            Some(vectors) => vectors.when_ready(settle),
            None => settle(),
        }
        Ok(promise)
    }

    /// Number of distinct tools indexed.
    #[napi(getter, catch_unwind)]
    pub fn size(&self) -> u32 {
        self.index.len() as u32
    }

    /// What the index left out of an oversized catalog, one sentence each: tools past the
    /// tool limit, schema text past the depth limit. Empty for any real catalog; log it once.
    #[napi(getter, catch_unwind)]
    pub fn warnings(&self) -> Vec<String> {
        self.index.warnings().iter().chain(&self.notes).cloned().collect()
    }

    /// At most `limit` tools, best first: a tool named exactly by the trimmed query first, then by
    /// score, then by name in code-point order. In a hybrid index, places the matching tools
    /// leave are filled with the nearest others by meaning unless `options.fill` is `false`.
    /// The query's forms are `tool_search`'s: `select:a,b` names tools, `+word` requires a word,
    /// and a `discover:` query is ranked by the rest of its text. `limit` must be a whole number
    /// >= 0; the query at most 4,096 characters.
    #[napi(catch_unwind, ts_args_type = "query: string, limit: number, options?: SearchOptions | undefined | null")]
    pub fn search(&self, query: Unknown<'_>, limit: f64, options: Option<Unknown<'_>>) -> Result<Vec<SearchHit>> {
        Ok(SearchCall::read(query, limit, options)?.run(&self.index))
    }

    /// `search`, ranked off JavaScript's thread: a promise of exactly the hits `search` returns
    /// for the same arguments. Bad arguments reject it with `search`'s errors.
    #[napi(
        js_name = "searchAsync",
        catch_unwind,
        ts_args_type = "query: string, limit: number, options?: SearchOptions | undefined | null",
        ts_return_type = "Promise<SearchHit[]>"
    )]
    pub fn search_async<'env>(
        &self,
        env: &'env Env,
        query: Unknown<'_>,
        limit: f64,
        options: Option<Unknown<'_>>,
    ) -> Result<Object<'env>> {
        let index = self.index.clone();
        off_thread(env, SearchCall::read(query, limit, options), move |call| Ok(call.run(&index)))
    }

    /// The projected text a tool is indexed under, or null for an unknown name. Names are at most
    /// 1,024 bytes.
    #[napi(js_name = "searchText", catch_unwind, ts_args_type = "name: string")]
    pub fn search_text(&self, name: Unknown<'_>) -> Result<Option<String>> {
        let name = args::text(name, TOOL_NAME)?;
        Ok(self.index.search_text(&name).map(str::to_string))
    }

    /// Every indexed tool name, in catalog order.
    #[napi(catch_unwind)]
    pub fn names(&self) -> Vec<String> {
        self.index.names().map(str::to_string).collect()
    }

    /// Why `name` ranks where it does for `query`: its rank and score, the query terms it
    /// matched with their weight and fields, and its projected text. Null for an unknown name.
    /// The query is read as `tool_search` reads it (`form`: a `discover:` query's rest is ranked,
    /// and with nothing after it, it throws `decideAsync`'s error).
    #[napi(catch_unwind, ts_args_type = "query: string, name: string")]
    pub fn explain(&self, query: Unknown<'_>, name: Unknown<'_>) -> Result<Option<Explanation>> {
        let query = args::query(query)?;
        crate::check(&query).map_err(invalid)?;
        let name = args::text(name, TOOL_NAME)?;
        Ok(Searcher::new(&self.index).explain(&query, &name).map(Explanation::from))
    }
}

/// What a session's events select.
#[napi(object)]
pub struct SessionSelection {
    /// Every name selected by a successful `tool_search` result or a selection record, in order
    /// of first appearance.
    pub selected: Vec<String>,
    /// The names among them that a prefetch record selected first.
    pub prefetched: Vec<String>,
    /// The names a selection once held and an eviction (`maxSelected`) took out since, in order
    /// of first selection.
    pub dropped: Vec<String>,
    /// Every name a successful call used, the one used longest ago first: the tool a call ran
    /// (other than `tool_search`), and the names a successful `tool_search` result or selection
    /// record selects (within one result, the better match counts as used later). `maxSelected`
    /// evicts from its front.
    pub last_used: Vec<String>,
}

/// The names selected in a session's events (a JSON array of `{type, data}` events): by
/// successful `tool_search` results, in or out of `run_code`, and by the plugin's selection
/// records; and the order every name was last used in. A call failed when its result's `isError`
/// is there and not `false`, or its event's `error` is there and not `null`. At most 128 MiB of
/// text.
#[napi(js_name = "selectionFromEvents", catch_unwind, ts_args_type = "eventsJson: string")]
pub fn selection_from_events(events_json: Unknown<'_>) -> Result<SessionSelection> {
    let events_json = args::text(events_json, EVENTS_TEXT)?;
    let selection = replay::selection_from_events(&events_json).map_err(invalid)?;
    let replay::Selection { selected, prefetched, dropped, last_used } = selection;
    Ok(SessionSelection { selected, prefetched, dropped, last_used })
}

/// The names one `tool_search` result selects, by the rule `selectionFromEvents` reads the logged
/// result with: a JSON object `{isError?, error?, content}` (DSH's `tools/result` outcome without
/// its value) selects nothing when it failed (`isError` there and not `false`, or `error` there
/// and not `null`), else what `selectionFromPayload` reads from each of its text parts, each name
/// once. Throws for text that is not such an object, and for text over 128 MiB.
#[napi(js_name = "selectionFromResult", catch_unwind, ts_args_type = "resultJson: string")]
pub fn selection_from_result(result_json: Unknown<'_>) -> Result<Vec<String>> {
    let result_json = args::text(result_json, RESULT_TEXT)?;
    replay::selection_from_result(&result_json).map_err(invalid)
}

/// The names one tool_search result payload selects: the same rule replay applies to each
/// persisted result (`schemaVersion` the contract's `PAYLOAD_SCHEMA_VERSION`, `tools[].name`
/// non-empty strings, first occurrence kept, nothing for a `discover` payload);
/// [] for any text that is not such a payload. Throws for text over 128 MiB, the bound of the
/// session events a persisted payload is part of.
#[napi(js_name = "selectionFromPayload", catch_unwind, ts_args_type = "payloadJson: string")]
pub fn selection_from_payload(payload_json: Unknown<'_>) -> Result<Vec<String>> {
    let payload_json = args::text(payload_json, PAYLOAD_TEXT)?;
    Ok(replay::selection_from_payload(&payload_json))
}

/// One catalog entry as the core reads it.
#[napi(object)]
pub struct CatalogEntry {
    pub name: String,
    /// '' when missing or not a string.
    pub description: String,
    /// The parameter schema's JSON text exactly as written; null when absent or not an object.
    pub parameters: Either<String, Null>,
}

/// A catalog as the core reads it (the same shapes fromJson accepts): every entry in catalog
/// order, repeated names included, reduced to its name, its description ('' when missing or
/// not a string) and its parameter schema's JSON text exactly as written (null when absent or
/// not an object). Throws what fromJson throws for what fromJson refuses.
#[napi(js_name = "readCatalog", catch_unwind, ts_args_type = "toolsJson: string")]
pub fn read_catalog(tools_json: Unknown<'_>) -> Result<Vec<CatalogEntry>> {
    let tools_json = args::text(tools_json, CATALOG_TEXT)?;
    let entries = catalog::read_catalog(&tools_json).map_err(invalid)?;
    Ok(entries
        .into_iter()
        .map(|entry| CatalogEntry {
            name: entry.name,
            description: entry.description,
            parameters: entry.parameters.map_or(Either::B(Null), Either::A),
        })
        .collect())
}

/// An index of `tools_json` for the ranking asked for (see `ToolIndex.fromJson`).
fn build_index(tools_json: &str, asked: Option<Ranking>) -> Result<ToolIndex> {
    let mut notes = Vec::new();
    // A lexical index never reads the model file.
    let model = match asked {
        Some(Ranking::Lexical) => None,
        Some(Ranking::Hybrid) => match default_model().map_err(invalid)? {
            Some(model) => Some(model),
            None => {
                return Err(invalid(format!(
                    "ranking 'hybrid' needs the semantic model, and the package {MODEL_PACKAGE} is not installed"
                )))
            }
        },
        None => default_model().unwrap_or_else(|error| {
            notes.push(format!("the semantic model cannot be used, so searches are lexical: {error}"));
            None
        }),
    };
    let model = model.map(|(model, note)| {
        notes.extend(note);
        model
    });
    let index = Index::from_catalog_ranked(tools_json, Params::default(), model).map_err(invalid)?;
    Ok(ToolIndex { index: Arc::new(index), notes })
}

/// Runs `work` with `call`'s arguments on the pool's threads and settles the promise it returns
/// with the outcome. Arguments JavaScript gave wrong (`call`'s error) reject it at once, an error
/// of `work`'s when it ends; a panic rejects it with an error that says so (a bug), so every
/// promise settles.
fn off_thread<'env, A, T>(
    env: &'env Env,
    call: Result<A>,
    work: impl FnOnce(A) -> Result<T> + Send + 'static,
) -> Result<Object<'env>>
where
    A: Send + 'static,
    T: ToNapiValue + Send + 'static,
{
    let (deferred, promise) = env.create_deferred()?;
    match call {
        Err(error) => deferred.reject(error),
        Ok(call) => pool::spawn(move || match catch_unwind(AssertUnwindSafe(|| work(call))) {
            Ok(Ok(value)) => deferred.resolve(move |_| Ok(value)),
            Ok(Err(error)) => deferred.reject(error),
            Err(_) => deferred.reject(Error::from_reason("dsh-tool-search: the ranking failed unexpectedly (a bug)")),
        }),
    }
    Ok(promise)
}

fn invalid(message: impl ToString) -> Error {
    Error::new(Status::InvalidArg, message.to_string())
}
