//! Glossary file bytes: reading them either refuses them with a reason or yields a glossary that a
//! hybrid index (with the shipped word table) reads Chinese queries with, like any other.
#![no_main]

use std::sync::{Arc, LazyLock};

use dsh_tool_search::{Glossary, Index, Model, Params, Searcher, SemanticModel};
use libfuzzer_sys::fuzz_target;

static TABLE: LazyLock<Arc<Model>> = LazyLock::new(|| {
    Arc::new(Model::from_bytes(include_bytes!("../../model/model.bin").to_vec()).expect("the shipped table"))
});

fuzz_target!(|data: &[u8]| {
    let Ok(glossary) = Glossary::from_bytes(data.to_vec()) else { return };
    assert!(glossary.words() > 0);
    let catalog = r#"[{"name": "merge_pull_request", "description": "Merge a pull request"}, {"name": "get_weather", "description": "天气预报 for a city"}]"#;
    let model = SemanticModel { table: TABLE.clone(), contextual: None, glossary: Some(Arc::new(glossary)) };
    let index = Index::from_catalog_ranked(catalog, Params::default(), Some(model)).expect("a valid catalog");
    let searcher = Searcher::new(&index);
    for query in [
        "合并这个拉取请求",
        "明天北京天气怎么样",
        "merge 的 PR，我的天气",
        "ｶﾀｶﾅ と 한국어 〇〇",
        "\u{F9F4}林\u{20000}",
    ] {
        let hits = searcher.search_filled(query, 5, &[]);
        assert!(hits.len() <= 2);
        assert!(hits.iter().all(|hit| hit.score.is_finite()));
        for hit in &hits {
            assert!(searcher.explain(query, hit.name).is_some());
        }
    }
});
