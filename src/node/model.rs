//! The models hybrid indexes use by default. The package entry (`index.js`) names the installed
//! model package's table file once, when it is imported; the files are read on first use and
//! shared by every index after it, so a process that only ranks lexically never reads them. The
//! transformer's file, `encoder.bin`, the query reader trained against it, `encoder-query.bin`,
//! and the glossary, `glossary.bin`, sit beside the table in the same package; without the
//! transformer (or when it cannot be read) hybrid indexes blend the table alone, without the
//! query reader the transformer reads queries as well as tools, and without the glossary they
//! read a query's CJK text by its characters alone.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use napi::bindgen_prelude::Unknown;
use napi::Result;
use napi_derive::napi;

use super::args;
use crate::contract;
use crate::limits::{CACHE_DIR, MODEL_PATH};
use crate::{set_vector_cache, Contextual, Glossary, Model, SemanticModel};

/// The transformer's file, next to the table's.
const ENCODER_FILE: &str = "encoder.bin";
/// The query reader's file, next to the table's.
const QUERY_READER_FILE: &str = "encoder-query.bin";
/// The glossary's file, next to the table's.
const GLOSSARY_FILE: &str = "glossary.bin";

/// The package that carries the model: the addon's entry resolves the model file in it, and
/// messages name it. From `plugin/contract.ts`, like every name the two sides share.
#[napi]
pub const MODEL_PACKAGE: &str = contract::MODEL_PACKAGE;

struct DefaultModel {
    path: Option<PathBuf>,
    /// The outcome of reading `path`, once it has been read.
    loaded: Option<std::result::Result<Loaded, String>>,
}

#[derive(Clone)]
struct Loaded {
    model: SemanticModel,
    /// Why the transformer or the glossary is not part of it, when its file is there but cannot
    /// be used.
    notes: Vec<String>,
}

static DEFAULT: Mutex<DefaultModel> = Mutex::new(DefaultModel { path: None, loaded: None });

/// Names the model file hybrid indexes use by default (null: none, so indexes are lexical
/// unless a model is named). The package entry calls it with the installed
/// `@anionex/dsh-tool-search-model` file; the file is read when the first hybrid index is built.
#[napi(js_name = "setModelPath", catch_unwind, ts_args_type = "path: string | null")]
pub fn set_model_path(path: Option<Unknown<'_>>) -> Result<()> {
    let path = args::path(path, MODEL_PATH)?.map(PathBuf::from);
    let mut default = DEFAULT.lock().unwrap_or_else(PoisonError::into_inner);
    if default.path != path {
        *default = DefaultModel { path, loaded: None };
    }
    Ok(())
}

/// Names the directory where the transformer's tool vectors are kept between processes (null:
/// none). The package entry calls it with `$DSH_HOME/cache/dsh-tool-search` unless
/// `DSH_TOOL_SEARCH_CACHE` names another (or is empty, for none). The directory is made when the
/// first vector is filed; one that cannot be written to means no cache, and nothing else changes.
#[napi(js_name = "setVectorCache", catch_unwind, ts_args_type = "dir: string | null")]
pub fn set_vector_cache_dir(dir: Option<Unknown<'_>>) -> Result<()> {
    set_vector_cache(args::path(dir, CACHE_DIR)?.map(PathBuf::from));
    Ok(())
}

/// The default models, with a note for each of the transformer's and the glossary's files that is
/// there but unusable: `Ok(None)` when none is named, an error when the named table cannot be used.
pub(super) fn default_model() -> std::result::Result<Option<(SemanticModel, Vec<String>)>, String> {
    let mut default = DEFAULT.lock().unwrap_or_else(PoisonError::into_inner);
    let Some(path) = default.path.clone() else { return Ok(None) };
    let loaded = default.loaded.get_or_insert_with(|| load(&path));
    loaded.clone().map(|Loaded { model, notes }| Some((model, notes)))
}

fn load(path: &Path) -> std::result::Result<Loaded, String> {
    let table = Model::from_file(path).map(Arc::new).map_err(|error| format!("{error} ({})", path.display()))?;
    let mut notes = Vec::new();
    let contextual = read_transformers(path, &mut notes).map(Arc::new);
    release_read_buffers();
    let glossary = read_if_there(path.with_file_name(GLOSSARY_FILE), Glossary::from_file).unwrap_or_else(|note| {
        notes
            .push(format!("the glossary is left out, so a query's Chinese is matched by its characters alone: {note}"));
        None
    });
    Ok(Loaded { model: SemanticModel { table, contextual, glossary: glossary.map(Arc::new) }, notes })
}

/// The transformer beside the table at `path`, with its query reader where that one is there and
/// fits it.
fn read_transformers(path: &Path, notes: &mut Vec<String>) -> Option<Contextual> {
    let mut contextual =
        read_if_there(path.with_file_name(ENCODER_FILE), Contextual::from_file).unwrap_or_else(|note| {
            notes.push(format!("the transformer is left out, so searches blend the word table alone: {note}"));
            None
        })?;
    let reader = path.with_file_name(QUERY_READER_FILE);
    if reader.exists() {
        if let Err(error) = contextual.read_query_reader_from(&reader) {
            notes.push(format!(
                "queries are read by the transformer that reads the tools: {error} ({})",
                reader.display()
            ));
        }
    }
    Some(contextual)
}

/// The file at `path` read by `read`; `Ok(None)` when there is none, and why it cannot be used
/// when it is there.
fn read_if_there<T, E: std::fmt::Display>(
    path: PathBuf,
    read: impl FnOnce(&Path) -> std::result::Result<T, E>,
) -> std::result::Result<Option<T>, String> {
    if !path.exists() {
        return Ok(None);
    }
    read(&path).map(Some).map_err(|error| format!("{error} ({})", path.display()))
}

/// Gives the heap that the transformers' files were read through back to the system. Each file
/// is read whole before its weights are checked and copied out; glibc keeps a freed buffer that
/// size for reuse instead of unmapping it, so part of it would stay in the process's RSS though
/// nothing holds it (2.4 MiB of the model's 43.3 here, `pnpm benchmark --model-memory`; 35 MiB
/// when the reader was a whole encoder).
fn release_read_buffers() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: it only returns free heap memory to the system; allocations are untouched.
        unsafe {
            malloc_trim(0);
        }
    }
}
