//! The glossary in a hybrid index, with the shipped files (`model/`): what it changes for a
//! Chinese query, and that it changes nothing for any other.

use std::path::Path;
use std::sync::{Arc, LazyLock};

use crate::{Contextual, Glossary, Index, Match, Model, Params, Searcher, SemanticModel, Stage, MAX_QUERY_CHARS};

static TABLE: LazyLock<Arc<Model>> = LazyLock::new(|| Arc::new(Model::from_file(&shipped("model.bin")).unwrap()));
static GLOSSARY: LazyLock<Arc<Glossary>> =
    LazyLock::new(|| Arc::new(Glossary::from_file(&shipped("glossary.bin")).unwrap()));

fn shipped(file: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("model").join(file)
}

/// The GitHub server's tools, and HowToCook's, described in Chinese: their MCP definitions in one
/// catalog.
static CATALOG: LazyLock<String> = LazyLock::new(|| {
    let tools = |server: &str| {
        let text =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("catalogs/mcp/{server}.json")))
                .unwrap();
        let json = crate::Json::parse_with_spans(&text).unwrap();
        let list = json.items(json.get(json.root(), "tools").unwrap()).unwrap();
        list.iter().map(|&tool| json.source_text(tool).unwrap().to_string()).collect::<Vec<_>>()
    };
    format!("[{}]", [tools("github"), tools("howtocook")].concat().join(","))
});

fn index(glossary: bool, params: Params) -> Index {
    let model = SemanticModel { table: TABLE.clone(), contextual: None, glossary: glossary.then(|| GLOSSARY.clone()) };
    Index::from_catalog_ranked(&CATALOG, params, Some(model)).unwrap()
}

/// An index of the catalog with the shipped transformer (without its reader of glossed queries)
/// and the glossary, every tool vector in place.
fn with_transformer(params: Params) -> Index {
    static TRANSFORMER: LazyLock<Arc<Contextual>> =
        LazyLock::new(|| Arc::new(Contextual::from_file(&shipped("encoder.bin")).unwrap()));
    let model =
        SemanticModel { table: TABLE.clone(), contextual: Some(TRANSFORMER.clone()), glossary: Some(GLOSSARY.clone()) };
    let index = Index::from_catalog_ranked(&CATALOG, params, Some(model)).unwrap();
    index.wait_for_vectors();
    index
}

fn top(index: &Index, query: &str, n: usize) -> Vec<String> {
    Searcher::new(index).search_filled(query, n, &[]).iter().map(|hit| hit.name.to_string()).collect()
}

#[test]
fn a_chinese_request_finds_an_english_described_tool_by_its_gloss() {
    let glossed = index(true, Params::default());
    let plain = index(false, Params::default());
    let off = index(true, Params { gloss_weight: 0.0, ..Params::default() });
    for (query, tool) in [
        ("合并这个拉取请求", "merge_pull_request"),
        ("搜索代码", "search_code"),
        ("给这个问题加个评论", "add_issue_comment"),
    ] {
        assert_eq!(top(&glossed, query, 1), [tool], "{query}");
        // Without it the characters match nothing, and the table knows no word of them.
        assert!(top(&plain, query, 5).is_empty(), "{query}");
        // gloss_weight 0 is the off switch.
        assert!(top(&off, query, 5).is_empty(), "{query}");
    }
}

#[test]
fn a_chinese_described_tool_still_matches_by_its_own_characters() {
    let glossed = index(true, Params::default());
    let plain = index(false, Params::default());
    for (query, tool) in [
        ("给我看看这个菜谱的完整步骤", "mcp_howtocook_getRecipeById"),
        ("早餐吃什么", "mcp_howtocook_whatToEat"),
        ("查询水产分类的菜谱", "mcp_howtocook_getRecipesByCategory"),
    ] {
        assert_eq!(top(&glossed, query, 1), [tool], "{query}");
        assert_eq!(top(&plain, query, 1), [tool], "{query}");
        let explained = Searcher::new(&glossed).explain(query, tool).unwrap();
        assert!(explained.terms.iter().any(|term| term.kind == Match::Gram), "{query}: {:?}", explained.terms);
    }
}

#[test]
fn gloss_terms_are_explained_and_the_stages_still_add_up() {
    let glossed = index(true, Params::default());
    let searcher = Searcher::new(&glossed);
    let query = "合并这个拉取请求";
    for hit in searcher.search(query, 5, &[]) {
        let explained = searcher.explain(query, hit.name).unwrap();
        assert_eq!(explained.score, hit.score);
        let sum: f64 = explained.stages.iter().map(|part| part.part).sum();
        assert!((sum - hit.score).abs() < 1e-5, "{}: {sum} against {}", hit.name, hit.score);
        assert_eq!(explained.stages[0].stage, Stage::Lexical);
        let lexical = explained.stages[0].signal.unwrap();
        let terms: f64 = explained.terms.iter().map(|term| term.contribution).sum();
        assert!((terms - lexical).abs() < 1e-5, "{}: terms {terms} against the lexical {lexical}", hit.name);
    }
    let explained = searcher.explain(query, "merge_pull_request").unwrap();
    let merge = explained.terms.iter().find(|term| term.term == "merg").unwrap();
    assert_eq!((merge.kind, merge.query_word.as_str()), (Match::Gloss, "合并"));
    assert!(explained.terms.iter().all(|term| term.kind == Match::Gloss), "no English word, no CJK piece of a tool");
}

#[test]
fn an_english_query_ranks_bit_for_bit_as_without_the_glossary() {
    let glossed = index(true, Params::default());
    let plain = index(false, Params::default());
    for query in [
        "open a pull request",
        "merge the PR and delete the branch",
        "who reviewed my pull request? Also list the open issues.",
        "select:create_issue",
        "issues +label",
        "Ünïcode café, naïve résumé",
        "",
    ] {
        let (a, b) = (Searcher::new(&glossed), Searcher::new(&plain));
        assert_eq!(a.search_filled(query, 20, &[]), b.search_filled(query, 20, &[]), "{query}");
        let name = "create_pull_request";
        assert_eq!(a.explain(query, name), b.explain(query, name), "{query}");
    }
}

/// `glossed_semantic_weight` against `semantic_weight`: where the transformer reads a glossed
/// query, its lexical part is `1 - w` of the words' share with `w` its own weight; every other
/// query ranks to the bit as with the typed queries' weight.
#[test]
fn a_glossed_query_read_by_the_transformer_weighs_its_meaning_at_its_own_weight() {
    let typed = Params::default().semantic_weight;
    let glossed = Params::default().glossed_semantic_weight;
    assert_ne!(glossed, typed);
    let as_typed = Params { glossed_semantic_weight: typed, ..Params::default() };
    let (shipped, shipped_as_typed) = (with_transformer(Params::default()), with_transformer(as_typed.clone()));
    let lexical = |index: &Index| {
        let explained = Searcher::new(index).explain("合并这个拉取请求", "merge_pull_request").unwrap();
        assert_eq!(explained.stages[0].stage, Stage::Lexical);
        explained.stages[0].part
    };
    let ratio = lexical(&shipped) / lexical(&shipped_as_typed);
    assert!((ratio - (1.0 - glossed) / (1.0 - typed)).abs() < 1e-5, "{ratio}");

    let same = |a: &Index, b: &Index, query: &str| {
        assert_eq!(
            Searcher::new(a).search_filled(query, 20, &[]),
            Searcher::new(b).search_filled(query, 20, &[]),
            "{query}"
        );
    };
    for query in ["merge this pull request", "search code"] {
        same(&shipped, &shipped_as_typed, query);
    }
    // Read by the word table alone, a glossed query keeps the typed queries' weight.
    same(&index(true, Params::default()), &index(true, as_typed), "合并这个拉取请求");
}

/// The transformer compares a glossed query with `glossed_contextual_candidates` tools, a typed
/// one with `contextual_candidates`.
#[test]
fn a_glossed_query_has_its_own_candidate_bound() {
    let params = Params { contextual_candidates: 5, glossed_contextual_candidates: 12, ..Params::default() };
    let index = with_transformer(params);
    let searcher = Searcher::new(&index);
    let compared = |query: &str| {
        let names: Vec<String> = index.names().map(str::to_string).collect();
        names
            .iter()
            .filter(|name| {
                searcher.explain(query, name).unwrap().semantic.is_some_and(|part| part.contextual.is_some())
            })
            .count()
    };
    assert_eq!(compared("merge this pull request"), 5);
    assert_eq!(compared("合并这个拉取请求"), 12);
}

#[test]
fn the_same_chinese_query_gives_the_same_bits() {
    let (first, second) = (index(true, Params::default()), index(true, Params::default()));
    for query in ["合并这个拉取请求", "帮我开个 issue：Safari 上登录页崩了", "红烧肉要准备哪些材料"]
    {
        let hits = Searcher::new(&first).search_filled(query, 10, &[]);
        let bits = |hits: &[crate::Hit]| {
            hits.iter().map(|hit| (hit.name.to_string(), hit.score.to_bits())).collect::<Vec<_>>()
        };
        assert_eq!(bits(&hits), bits(&Searcher::new(&second).search_filled(query, 10, &[])), "{query}");
        assert_eq!(bits(&hits), bits(&Searcher::new(&first).search_filled(query, 10, &[])), "{query}");
    }
}

#[test]
fn a_query_of_the_longest_cjk_text_is_read_within_bounds() {
    // 4,096 characters of Chinese: every word is segmented and glossed once, and the query's
    // gloss terms are each asked for once, however often the words repeat.
    let query: String = "合并这个拉取请求然后删除分支".chars().cycle().take(MAX_QUERY_CHARS).collect();
    let glossed = index(true, Params::default());
    let hits = Searcher::new(&glossed).search(&query, 5, &[]);
    assert!(hits.iter().any(|hit| hit.name == "merge_pull_request"), "{hits:?}");
    let unknown: String = "가".repeat(MAX_QUERY_CHARS);
    assert!(Searcher::new(&glossed).search(&unknown, 5, &[]).is_empty());
}
