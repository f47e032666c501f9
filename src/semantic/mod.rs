//! The semantic stage: two models that relate what BM25F cannot ("forecast" and "weather", a
//! request and the tool it describes in other words), fused with the lexical scores in
//! [`crate::Searcher`].
//!
//! The word table (see `model`) has one weighted row per analysis term: a text's vector is the
//! sum of its terms' rows, so embedding a catalog costs a table lookup per word and a query a few
//! microseconds, in integers that are the same on every machine (see `vector`). An index embeds
//! each tool's name and description with it once, when it is built.
//!
//! The transformer (all-MiniLM-L6-v2: `wordpiece`, `encoder`, read as `contextual`) reads a text
//! as a sentence, in plain Rust with float loops written to give the same bits everywhere. It
//! costs milliseconds a text, so an index's tools are embedded with it off the caller's thread
//! (`background`), each into its slot (`tool_vectors`), and a search that needs a vector the
//! worker has not made yet makes it itself; the process remembers every text's vector
//! (`memory`), and keeps them on disk (`disk_cache`) for the next process.

mod background;
mod contextual;
mod disk_cache;
mod encoder;
mod memory;
mod model;
mod tool_vectors;
mod vector;
mod wordpiece;

pub use encoder::Encoder;
use std::sync::Arc;

use crate::gloss::Glossary;

pub(crate) use background::embed as embed_tools;
pub(crate) use contextual::cosine as contextual_cosine;
pub use contextual::tool_text;
pub use contextual::Contextual;
pub(crate) use contextual::QueryReading;
#[cfg(test)]
pub(crate) use contextual::MAX_TOKENS;
pub use disk_cache::set_dir as set_vector_cache;
#[cfg(test)]
pub(crate) use model::encode;
pub use model::{Model, ModelError, MAX_MODEL_BYTES};
pub(crate) use tool_vectors::ToolVectors;
pub(crate) use vector::{cosine, Embedder};

/// The models a hybrid index embeds with: the static table always, the transformer when its file
/// is installed too; and the glossary it reads a Chinese query with, when its file is installed.
#[derive(Clone, Debug)]
pub struct SemanticModel {
    pub table: Arc<Model>,
    pub contextual: Option<Arc<Contextual>>,
    pub glossary: Option<Arc<Glossary>>,
}

impl From<Arc<Model>> for SemanticModel {
    fn from(table: Arc<Model>) -> Self {
        SemanticModel { table, contextual: None, glossary: None }
    }
}

/// Every tool's vector, in document order, `dims` values each (all zero for a tool whose text
/// has no word the model knows).
pub(crate) struct DocVectors {
    dims: usize,
    values: Vec<i16>,
}

impl DocVectors {
    pub(crate) fn new(dims: usize, values: Vec<i16>) -> Self {
        DocVectors { dims, values }
    }

    /// The cosine of `query` with every document, in document order.
    pub(crate) fn similarities<'a>(&'a self, query: &'a [i16]) -> impl Iterator<Item = f64> + 'a {
        self.values.chunks_exact(self.dims).map(move |doc| cosine(query, doc))
    }
}
