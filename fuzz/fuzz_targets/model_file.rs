//! Model file bytes: reading them either refuses them with a reason or yields a model whose rows
//! can all be looked up, and a hybrid index built with it searches like any other.
#![no_main]

use std::sync::Arc;

use dsh_tool_search::{Index, Model, Params, Searcher};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(model) = Model::from_bytes(data.to_vec()) else { return };
    assert!(model.dims() > 0 && model.terms() > 0);
    let catalog = r#"[{"name": "get_weather", "description": "Weather forecast for a city"}, {"name": "convert", "description": "Convert money"}]"#;
    let index =
        Index::from_catalog_ranked(catalog, Params::default(), Some(Arc::new(model).into())).expect("a valid catalog");
    let hits = Searcher::new(&index).search("will it rain in Paris", 5, &[]);
    assert!(hits.len() <= 2);
    assert!(hits.iter().all(|hit| hit.score.is_finite()));
});
