//! The model hybrid indexes use by default. The package entry (`index.js`) names the installed
//! model package's file once, when it is imported; the file is read on first use and shared by
//! every index after it, so a process that only ranks lexically never reads it.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use napi::bindgen_prelude::Unknown;
use napi::Result;
use napi_derive::napi;

use super::args;
use crate::Model;

/// The package that carries the model, for messages.
pub(super) const MODEL_PACKAGE: &str = "@anionex/dsh-tool-search-model";

struct DefaultModel {
    path: Option<PathBuf>,
    /// The outcome of reading `path`, once it has been read.
    loaded: Option<std::result::Result<Arc<Model>, String>>,
}

static DEFAULT: Mutex<DefaultModel> = Mutex::new(DefaultModel { path: None, loaded: None });

/// Names the model file hybrid indexes use by default (null: none, so indexes are lexical
/// unless a model is named). The package entry calls it with the installed
/// `@anionex/dsh-tool-search-model` file; the file is read when the first hybrid index is built.
#[napi(js_name = "setModelPath", catch_unwind, ts_args_type = "path: string | null")]
pub fn set_model_path(path: Option<Unknown<'_>>) -> Result<()> {
    let path = args::model_path(path)?.map(PathBuf::from);
    let mut default = DEFAULT.lock().unwrap_or_else(PoisonError::into_inner);
    if default.path != path {
        *default = DefaultModel { path, loaded: None };
    }
    Ok(())
}

/// The default model: `Ok(None)` when none is named, an error when the named file cannot be used.
pub(super) fn default_model() -> std::result::Result<Option<Arc<Model>>, String> {
    let mut default = DEFAULT.lock().unwrap_or_else(PoisonError::into_inner);
    let Some(path) = default.path.clone() else { return Ok(None) };
    let loaded = default.loaded.get_or_insert_with(|| {
        Model::from_file(&path).map(Arc::new).map_err(|error| format!("{error} ({})", path.display()))
    });
    loaded.clone().map(Some)
}
