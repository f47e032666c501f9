//! The core of the DSH tool-search plugin: a BM25F index over a tool catalog, searched for the
//! model's `tool_search` calls, and the replay that rebuilds an Agent's selected tools from its
//! session log. Plain Rust, exercised by `cargo test` without Node; the Node-API boundary is
//! `node/`, compiled only with the `node` feature (the default), so the fuzz targets in `fuzz/`
//! link the core alone.
//!
//! The stages, in the order a catalog and a query pass through them:
//! - `input/`: JSON text read without recursion, tool catalogs in their shapes, the projection of
//!   a tool into weighted fields, the summary a hit carries;
//! - `analysis/`: text to terms (identifier splitting, folding, CJK pieces, stop words, stemming),
//!   the same for tools and queries;
//! - `index/`: the inverted index and the BM25 arithmetic, built once per catalog;
//! - `semantic/`: a static embedding model, a sentence encoder (a small transformer), and each
//!   tool's vector in a hybrid index;
//! - `gloss/`: a hybrid index's reading of a query's CJK text: the glossary, jieba's
//!   segmentation, each content word's English gloss;
//! - `search/`: a [`Searcher`] answers a query from an index (query forms, term expansion, BM25F
//!   scores, fusion of compound queries, the blend with the semantic signal, order,
//!   explanations);
//! - `hints/`: what the model is told besides ranked hits (the catalog's outline, a match's
//!   strength, the names spelled like a query);
//! - `answer/`: what one `tool_search` call answers, decided once: what loads, what is only
//!   shown, and the next move when nothing fits;
//! - `replay.rs` rebuilds a selection from session events; `limits.rs` holds every bound on what
//!   the core takes.
//!
//! The modules are private; what is public below is the whole surface the addon, the fuzz targets
//! and the examples (`examples/`: the ablation, the model build's term list, the encoder's speed,
//! the training texts) use.

mod analysis;
mod answer;
mod bytes;
mod contract;
mod gloss;
mod hints;
mod index;
mod input;
mod limits;
// Its exports are called from JavaScript only, and test builds leave napi's registration out.
#[cfg(feature = "node")]
#[cfg_attr(test, allow(dead_code))]
mod node;
mod priority;
mod replay;
mod search;
mod semantic;
#[cfg(test)]
mod tests;
mod work;

// Text to terms, exactly as tools and queries are analyzed.
pub use analysis::{fold_into, term_of, Analyzer, Piece};
// The index and its ranking parameters; [`round6`] is the rounding every reported score has.
pub use index::{bm25::round6, Index, Params};
// Catalog text read as the index reads it.
pub use input::catalog::{read_catalog, CatalogEntry, CatalogError, ToolSpec};
// The JSON reader (schemas and session events are read with it too).
pub use input::json::{Json, JsonError, Node, NodeId, MAX_JSON_DEPTH};
// The schema walk: a tool's fielded, searchable text.
pub use input::projection::{project, Field, Projection, FIELDS};
pub use input::summary::{summarize, MAX_SUMMARY_CHARS};
// Every bound on what the core takes, and the checks the addon makes before it reads a value.
pub use limits::{
    check_exclusions, check_query, check_query_units, result_count, TextLimit, CACHE_DIR, CATALOG_TEXT, EVENTS_TEXT,
    MAX_CATALOG_BYTES, MAX_EVENTS_BYTES, MAX_NAME_BYTES, MAX_QUERY_CHARS, MAX_SCHEMA_DEPTH, MAX_TOOLS, MODEL_PATH,
    PAYLOAD_TEXT, RESULT_TEXT, TOOL_NAME,
};
// What the model is told about the catalog besides ranked hits.
pub use hints::{match_strength, nearest, outline, Group, Outline};
// What one `tool_search` call answers, and the reads `answerAsync` gives.
pub use answer::{answer, check, decide, Answer, Decision, EmptyDiscover, Load, NextMove, NextMoveRule, Rules};
// The glossary a hybrid index reads a Chinese query with.
pub use gloss::{Glossary, GlossaryError, MAX_GLOSSARY_BYTES};
// Selections rebuilt from session events.
pub use replay::{
    selection_from_events, selection_from_payload, selection_from_result, ReplayError, Selection, SEARCH_TOOL,
};
// Searching an index: hits, query forms, explanations.
pub use search::{
    discovered, ranked_text, requests, Explanation, Form, Hit, Match, MissingTerm, Query, Searcher, SemanticPart,
    Stage, StagePart, TermMatch,
};
// The semantic model a hybrid index embeds tools and queries with, and the text it embeds a tool as.
pub use semantic::{
    set_vector_cache, tool_text, Contextual, Encoder, Model, ModelError, SemanticModel, MAX_MODEL_BYTES,
};
