//! The semantic stage: a static embedding model that relates words BM25F cannot ("open" and
//! "create", "forecast" and "weather"), fused with the lexical scores in [`crate::Searcher`].
//!
//! The model is a table of one weighted row per analysis term (see `model`): a text's vector is
//! the sum of its terms' rows, so embedding a catalog costs a table lookup per word and a query a
//! few microseconds, with no model runtime, no threads and no float kernels whose results differ
//! between machines (see `vector`). An index embeds each tool's name and description once, when
//! it is built.
//!
//! `encoder` is the heavier alternative: a small transformer (all-MiniLM-L6-v2) that reads a
//! whole token sequence, in plain Rust with float loops written to give the same bits everywhere.

mod background;
mod contextual;
mod encoder;
mod model;
mod vector;
mod wordpiece;

pub use encoder::Encoder;
use std::sync::Arc;

pub(crate) use background::ToolVectors;
pub use contextual::Contextual;
pub(crate) use contextual::{cosine as contextual_cosine, tool_text};
#[cfg(test)]
pub(crate) use contextual::MAX_TOKENS;
pub use model::{Model, ModelError, MAX_MODEL_BYTES};
#[cfg(test)]
pub(crate) use model::encode;
pub(crate) use vector::{cosine, Embedder};

/// The models a hybrid index embeds with: the static table always, the transformer when its file
/// is installed too.
#[derive(Clone, Debug)]
pub struct SemanticModel {
    pub table: Arc<Model>,
    pub contextual: Option<Arc<Contextual>>,
}

impl From<Arc<Model>> for SemanticModel {
    fn from(table: Arc<Model>) -> Self {
        SemanticModel { table, contextual: None }
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
