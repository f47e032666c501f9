//! The Node-API boundary: JavaScript values in, plain Rust calls, JavaScript errors out.
//!
//! Everything behind it is ordinary Rust that `cargo test` exercises without Node; the modules
//! are public so the fuzz targets (fuzz/) can drive them too, built without the `node` feature
//! and so without this boundary. Every export is built with `catch_unwind`, getters included, so
//! even a bug that panics reaches JavaScript as an `Error` instead of aborting the host process
//! (a panic unwinding into Node-API's C frames would abort it). What `catch_unwind` cannot catch
//! is kept out by construction: nothing in the core recurses on its input (the JSON reader, the
//! schema walk and the drop of a document all use heap, not the call stack), and the limits in
//! `limits.rs` bound memory.

pub mod bm25;
mod build;
pub mod catalog;
pub mod document;
pub mod explain;
mod fusion;
mod hash;
pub mod index;
pub mod json;
pub mod limits;
pub mod params;
pub mod query;
pub mod replay;
mod scores;
pub mod search;
mod stopwords;
pub mod summary;
pub mod text;
pub mod value_words;
#[cfg(test)]
mod hostile;
#[cfg(test)]
mod properties;
#[cfg(test)]
mod tuning;

/// The exported classes and functions, compiled only for the Node addon.
#[cfg(feature = "node")]
pub mod node {
    use napi::bindgen_prelude::{Either, Null};
    use napi::{Error, Result, Status};
    use napi_derive::napi;

    use crate::{bm25, catalog, explain, index, limits, replay, search};

    /// One ranked tool.
    #[napi(object)]
    pub struct SearchHit {
        pub name: String,
        /// Whitespace collapsed, at most 240 characters ("..." ending when cut).
        pub description: String,
        /// BM25 score rounded to 6 decimals.
        pub score: f64,
    }

    #[napi(object)]
    pub struct SearchOptions {
        /// Names to leave out of the ranked results (for example tools the caller can already use).
        /// A query equal to an excluded name still returns that tool first.
        pub exclude: Option<Vec<String>>,
    }

    /// A BM25 index over a tool catalog. Build it once per catalog and keep it: searching a kept index
    /// costs microseconds, building one costs about as much as parsing the catalog.
    #[napi]
    pub struct ToolIndex {
        index: index::Index,
    }

    #[napi]
    impl ToolIndex {
        /// Indexes a JSON array of `{name, description?, parameters?}` (OpenAI function tools and MCP
        /// `{name, description, inputSchema}` or `{tools: [...]}` are read too). Duplicate names: the
        /// first wins.
        #[napi(factory, js_name = "fromJson", catch_unwind)]
        pub fn from_json(tools_json: String) -> Result<ToolIndex> {
            let index = index::Index::from_catalog(&tools_json).map_err(invalid)?;
            Ok(ToolIndex { index })
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
            self.index.warnings().to_vec()
        }

        /// At most `limit` tools, best first: a tool named exactly by the trimmed query first, then by
        /// score, then by name in code-point order. `limit` must be a whole number >= 0.
        #[napi(catch_unwind)]
        pub fn search(&self, query: String, limit: f64, options: Option<SearchOptions>) -> Result<Vec<SearchHit>> {
            check_query(&query)?;
            let limit = whole_limit(limit)?;
            let exclude = options.and_then(|o| o.exclude).unwrap_or_default();
            let exclude: Vec<&str> = exclude.iter().map(String::as_str).collect();
            let hits = self.index.search(&query, limit, &exclude);
            Ok(hits
                .into_iter()
                .map(|hit| SearchHit { name: hit.name.to_string(), description: hit.summary.to_string(), score: hit.score })
                .collect())
        }

        /// The projected text a tool is indexed under, or null for an unknown name.
        #[napi(js_name = "searchText", catch_unwind)]
        pub fn search_text(&self, name: String) -> Option<String> {
            self.index.search_text(&name).map(str::to_string)
        }

        /// Every indexed tool name, in catalog order.
        #[napi(catch_unwind)]
        pub fn names(&self) -> Vec<String> {
            self.index.names().map(str::to_string).collect()
        }

        /// Why `name` ranks where it does for `query`: its rank and score, the query terms it
        /// matched with their weight and fields, and its projected text. Null for an unknown name.
        #[napi(catch_unwind)]
        pub fn explain(&self, query: String, name: String) -> Result<Option<Explanation>> {
            check_query(&query)?;
            Ok(self.index.explain(&query, &name).map(Explanation::from))
        }
    }

    /// Why one tool ranks where it does.
    #[napi(object)]
    pub struct Explanation {
        pub name: String,
        /// 1-based rank among every tool the query matches; null when it does not match.
        pub rank: Either<u32, Null>,
        pub score: f64,
        /// The query is exactly this tool's name (which always ranks first).
        pub exact: bool,
        /// The query was read as several requests whose rankings were fused; term contributions
        /// are then those of the whole query's score.
        pub fused: bool,
        pub terms: Vec<TermExplanation>,
        /// Query terms the tool lacks (adding such a word to its definition would make it match).
        pub missing: Vec<MissingTerm>,
        /// How many tools the query matches in all.
        pub matches: u32,
        /// The projected text the tool is indexed under.
        pub text: String,
    }

    /// A query term the explained tool does not contain.
    #[napi(object)]
    pub struct MissingTerm {
        pub term: String,
        pub query_word: String,
        /// Its idf in this catalog; null when no tool contains it.
        pub idf: Either<f64, Null>,
    }

    /// One query term found in the explained tool.
    #[napi(object)]
    pub struct TermExplanation {
        /// The index term (stemmed).
        pub term: String,
        /// The folded query text it came from.
        pub query_word: String,
        /// "word" (the query word's stem), "related" (shares a start with it), "whole" (a whole
        /// identifier), "gram" (a CJK piece) or "value" (the kind of value a query word names,
        /// "currency" for "yen").
        pub kind: String,
        pub idf: f64,
        /// Its part of the score.
        pub contribution: f64,
        /// Occurrences in each field of the tool.
        pub fields: FieldCounts,
    }

    #[napi(object)]
    pub struct FieldCounts {
        pub name: u32,
        pub description: u32,
        pub parameter: u32,
        pub schema: u32,
    }

    impl From<explain::Explanation<'_>> for Explanation {
        fn from(e: explain::Explanation<'_>) -> Self {
            let terms = e
                .terms
                .into_iter()
                .map(|t| TermExplanation {
                    kind: match t.kind {
                        search::Match::Word => "word",
                        search::Match::Related => "related",
                        search::Match::Whole => "whole",
                        search::Match::Gram => "gram",
                        search::Match::Value => "value",
                    }
                    .to_string(),
                    term: t.term,
                    query_word: t.query_word,
                    idf: bm25::round6(t.idf),
                    contribution: t.contribution,
                    fields: FieldCounts { name: t.fields[0], description: t.fields[1], parameter: t.fields[2], schema: t.fields[3] },
                })
                .collect();
            Explanation {
                name: e.name.to_string(),
                rank: e.rank.map_or(Either::B(Null), |r| Either::A(r as u32)),
                score: e.score,
                exact: e.exact,
                fused: e.fused,
                terms,
                missing: e
                    .missing
                    .into_iter()
                    .map(|m| MissingTerm {
                        term: m.term,
                        query_word: m.query_word,
                        idf: m.idf.map_or(Either::B(Null), Either::A),
                    })
                    .collect(),
                matches: e.matches as u32,
                text: e.text.to_string(),
            }
        }
    }

    /// The names selected by successful `tool_search` results in a session's events (a JSON array of
    /// `{type, data}` events), in order of first appearance.
    #[napi(js_name = "selectionFromEvents", catch_unwind)]
    pub fn selection_from_events(events_json: String) -> Result<Vec<String>> {
        replay::selection_from_events(&events_json).map_err(invalid)
    }

    /// The names one tool_search result payload selects: the same rule replay applies to each
    /// persisted result (schemaVersion 1, tools[].name non-empty strings, first occurrence kept);
    /// [] for any text that is not such a payload.
    #[napi(js_name = "selectionFromPayload", catch_unwind)]
    pub fn selection_from_payload(payload_json: String) -> Vec<String> {
        replay::selection_from_payload(&payload_json)
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
    #[napi(js_name = "readCatalog", catch_unwind)]
    pub fn read_catalog(tools_json: String) -> Result<Vec<CatalogEntry>> {
        let entries = catalog::entries(&tools_json).map_err(invalid)?;
        Ok(entries
            .into_iter()
            .map(|entry| CatalogEntry {
                name: entry.name,
                description: entry.description,
                parameters: entry.parameters.map_or(Either::B(Null), Either::A),
            })
            .collect())
    }

    fn check_query(query: &str) -> Result<()> {
        limits::check_query(query).map_err(invalid)
    }

    fn whole_limit(limit: f64) -> Result<usize> {
        limits::result_count(limit).map_err(invalid)
    }

    fn invalid(message: impl ToString) -> Error {
        Error::new(Status::InvalidArg, message.to_string())
    }
}
