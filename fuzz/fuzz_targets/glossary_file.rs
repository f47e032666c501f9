//! Glossary file bytes: reading them either refuses them with a reason or yields a glossary that a
//! hybrid index (with the shipped word table) reads Chinese queries with, like any other. Each
//! input is read as it is and with its checksum made right, so the checks behind the checksum
//! (sizes, keys, glosses, costs, flags) are fuzzed too.
#![no_main]

use std::sync::{Arc, LazyLock};

use dsh_tool_search::{Glossary, Index, Model, Params, Searcher, SemanticModel};
use libfuzzer_sys::fuzz_target;

static TABLE: LazyLock<Arc<Model>> = LazyLock::new(|| {
    Arc::new(Model::from_bytes(include_bytes!("../../model/model.bin").to_vec()).expect("the shipped table"))
});

/// FNV-1a 64 over the bytes after the 40-byte header, which the header's last 8 bytes hold.
fn with_checksum(data: &[u8]) -> Option<Vec<u8>> {
    let mut bytes = data.get(40..).map(|_| data.to_vec())?;
    let hash = bytes[40..]
        .iter()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3));
    bytes[32..40].copy_from_slice(&hash.to_le_bytes());
    Some(bytes)
}

fuzz_target!(|data: &[u8]| {
    read(data.to_vec());
    if let Some(bytes) = with_checksum(data) {
        read(bytes);
    }
});

fn read(data: Vec<u8>) {
    let Ok(glossary) = Glossary::from_bytes(data) else { return };
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
}
