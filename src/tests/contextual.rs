//! The transformer in a hybrid index, with the shipped model files (`model/`): what it changes
//! once its vectors are in place, and what it leaves alone.

use std::path::Path;
use std::sync::{Arc, LazyLock};

use crate::semantic::{contextual_cosine as cosine, tool_text, MAX_TOKENS};
use crate::{Contextual, Index, Model, Params, Searcher, SemanticModel};

static TABLE: LazyLock<Arc<Model>> = LazyLock::new(|| Arc::new(Model::from_file(&shipped("model.bin")).unwrap()));
static ENCODER: LazyLock<Arc<Contextual>> =
    LazyLock::new(|| Arc::new(Contextual::from_file(&shipped("encoder.bin")).unwrap()));

fn shipped(file: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("model").join(file)
}

fn github() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("catalogs/mcp/github.json")).unwrap()
}

fn index(catalog: &str, contextual: bool) -> Index {
    let model = SemanticModel { table: TABLE.clone(), contextual: contextual.then(|| ENCODER.clone()), glossary: None };
    let index = Index::from_catalog_ranked(catalog, Params::default(), Some(model)).unwrap();
    index.wait_for_vectors();
    index
}

fn top(index: &Index, query: &str, n: usize) -> Vec<(String, f64)> {
    Searcher::new(index).search(query, n, &[]).iter().map(|hit| (hit.name.to_string(), hit.score)).collect()
}

fn names(hits: &[(String, f64)]) -> Vec<&str> {
    hits.iter().map(|(name, _)| name.as_str()).collect()
}

#[test]
fn once_in_place_the_transformer_orders_what_the_words_tie() {
    // Every pull-request tool matches the query's words; with the semantic part all the
    // transformer's, they come out in the order of its cosines, computed here on their own.
    let params = Params { semantic_weight: 1.0, contextual_share: 1.0, ..Params::default() };
    let catalog = github();
    let model = SemanticModel { table: TABLE.clone(), contextual: Some(ENCODER.clone()), glossary: None };
    let index = Index::from_catalog_ranked(&catalog, params, Some(model)).unwrap();
    index.wait_for_vectors();
    let query = "pull request";
    let ranked = top(&index, query, 40);
    let query_vector = ENCODER.embed_query(query).unwrap();
    let mut analyzer = crate::Analyzer::new();
    let mut expected: Vec<(f64, String)> = crate::read_catalog(&catalog)
        .unwrap()
        .into_iter()
        .filter(|tool| ranked.iter().any(|(name, _)| name == &tool.name))
        .map(|tool| {
            (cosine(&query_vector, &ENCODER.embed(&tool_text(&mut analyzer, &tool.name, &tool.description))), tool.name)
        })
        .collect();
    expected.sort_by(|a, b| b.0.total_cmp(&a.0));
    assert!(ranked.len() > 5, "{ranked:?}");
    assert_eq!(names(&ranked), expected.iter().map(|(_, name)| name.as_str()).collect::<Vec<_>>());
    let explained = Searcher::new(&index).explain(query, &ranked[0].0).unwrap();
    assert_eq!(explained.semantic.and_then(|part| part.contextual), Some(crate::round6(expected[0].0)));
}

#[test]
fn the_same_catalog_and_query_rank_the_same_in_every_index() {
    let catalog = github();
    let (a, b) = (index(&catalog, true), index(&catalog, true));
    for query in ["open a pull request", "who changed this file last", "merge the branch after review", "list issues"] {
        assert_eq!(top(&a, query, 10), top(&b, query, 10), "{query}");
    }
}

#[test]
fn a_query_longer_than_the_transformer_reads_is_ranked_by_the_word_table() {
    let catalog = github();
    let long = "Please look at the repository and tell me what changed. ".repeat(MAX_TOKENS / 8);
    assert_eq!(top(&index(&catalog, true), &long, 10), top(&index(&catalog, false), &long, 10));
}

#[test]
fn an_index_dropped_before_its_vectors_are_made_does_not_hold_up_the_next() {
    let catalog = github();
    for _ in 0..3 {
        let model = SemanticModel { table: TABLE.clone(), contextual: Some(ENCODER.clone()), glossary: None };
        drop(Index::from_catalog_ranked(&catalog, Params::default(), Some(model)).unwrap());
    }
    let kept = index(&catalog, true);
    assert!(kept.contextual().is_some());
}

#[test]
fn within_a_family_of_tools_the_rest_of_the_name_decides() {
    // Ten pull-request tools hold the query's object; both models read the whole of "raise a pull
    // request" as nearest the tools that get one. Only "raise", which no tool holds, tells them
    // apart, and the table puts it nearer "create" than "get", "list" or "merge".
    let catalog = github();
    let query = "raise a pull request";
    let ranked = top(&index(&catalog, true), query, 10);
    assert_eq!(ranked[0].0, "create_pull_request");
    assert!(
        ranked.iter().all(|&(_, score)| (0.0..=1.0).contains(&score)),
        "scores stay in the fused scale: {ranked:?}"
    );
    let model = SemanticModel { table: TABLE.clone(), contextual: Some(ENCODER.clone()), glossary: None };
    let without =
        Index::from_catalog_ranked(&catalog, Params { agreement_weight: 0.0, ..Params::default() }, Some(model))
            .unwrap();
    without.wait_for_vectors();
    // Without the rule it is not first: the rule is what puts it there.
    let ranked = top(&without, query, 10);
    assert_ne!(names(&ranked).first(), Some(&"create_pull_request"), "{ranked:?}");
    // A request that names the action is left as it was.
    assert_eq!(top(&index(&catalog, true), "create a pull request", 1)[0].0, "create_pull_request");
    // "Open" is both the action and a state: the trained table learned it from requests for open
    // pull requests as well, and list_pull_requests holds it in its description, so there the
    // tool that creates one comes second (docs/model.md, "The word table's training").
    let open = top(&index(&catalog, true), "open a pull request", 2);
    assert!(names(&open).contains(&"create_pull_request"), "{open:?}");
}

#[test]
fn explain_reads_the_query_once_and_its_stage_parts_add_up_to_each_hit() {
    // An encoder of its own, so that no other test's queries reach its counts.
    let encoder = Arc::new(Contextual::from_file(&shipped("encoder.bin")).unwrap());
    let model = SemanticModel { table: TABLE.clone(), contextual: Some(encoder.clone()), glossary: None };
    let index = Index::from_catalog_ranked(&github(), Params::default(), Some(model)).unwrap();
    index.wait_for_vectors();
    let searcher = Searcher::new(&index);
    for query in ["open a pull request", "who changed this file last", "search code for a function"] {
        let before = encoder.query_reads();
        let explained = searcher.explain(query, "create_pull_request").unwrap();
        let after = encoder.query_reads();
        assert_eq!((after.0 - before.0, after.1 - before.1), (1, 1), "{query}: asked once, one pass");
        assert!(explained.semantic.is_some_and(|part| part.contextual.is_some()));
        for hit in searcher.search(query, 10, &[]) {
            let stages = searcher.explain(query, hit.name).unwrap().stages;
            let names: Vec<&str> = stages.iter().map(|part| part.stage.name()).collect();
            assert!(names.starts_with(&["lexical", "semantic"]), "{names:?}");
            let semantic = &stages[1];
            assert_eq!(
                semantic.parts.iter().map(|part| part.stage.name()).collect::<Vec<_>>(),
                ["table", "transformer"]
            );
            let inner: f64 = semantic.parts.iter().map(|part| part.part).sum();
            assert!((inner - semantic.part).abs() < 2e-6, "{query} {}: {semantic:?}", hit.name);
            let sum: f64 = stages.iter().map(|part| part.part).sum();
            assert!((sum - hit.score).abs() < 4e-6, "{query} {}: {sum} against {}", hit.name, hit.score);
        }
    }
    // The name agreement has a part of its own where it adds one.
    let stages = searcher.explain("open a pull request", "create_pull_request").unwrap().stages;
    assert_eq!(stages.last().map(|part| part.stage.name()), Some("name agreement"));
}

#[test]
fn a_search_made_before_the_vectors_are_in_place_answers_as_one_made_after() {
    // Descriptions no other test embeds, so the process has none of their vectors yet: the first
    // searches run while the background worker has made few or none, and make their own.
    let salt = format!("{}-{:?}", std::process::id(), std::time::SystemTime::now());
    let mut tools = Vec::new();
    for server in ["github", "notion", "playwright"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("catalogs/mcp/{server}.json"));
        for tool in crate::read_catalog(&std::fs::read_to_string(path).unwrap()).unwrap() {
            let description = format!("{} ({salt})", tool.description);
            tools.push(format!(r#"{{"name": {:?}, "description": {:?}}}"#, tool.name, description));
        }
    }
    let catalog = format!("[{}]", tools.join(","));
    let model = SemanticModel { table: TABLE.clone(), contextual: Some(ENCODER.clone()), glossary: None };
    let index = Index::from_catalog_ranked(&catalog, Params::default(), Some(model)).unwrap();
    let queries = [
        "open a pull request",
        "take a screenshot of the page",
        "add a row to my notes database",
        "who changed this file",
    ];
    let cold: Vec<_> = queries.iter().map(|query| top(&index, query, 10)).collect();
    index.wait_for_vectors();
    let warm: Vec<_> = queries.iter().map(|query| top(&index, query, 10)).collect();
    assert_eq!(cold, warm);
    let explained = Searcher::new(&index).explain(queries[0], &warm[0][0].0).unwrap();
    assert!(explained.semantic.and_then(|part| part.contextual).is_some(), "the transformer took part");
}

#[test]
fn ready_runs_once_every_vector_is_made_or_the_index_is_gone() {
    use std::sync::mpsc::channel;
    let salt = format!("{}-{:?}", std::process::id(), std::time::SystemTime::now());
    let catalog =
        format!(r#"[{{"name": "a", "description": "first {salt}"}}, {{"name": "b", "description": "second {salt}"}}]"#);
    let model = || SemanticModel { table: TABLE.clone(), contextual: Some(ENCODER.clone()), glossary: None };
    let index = Index::from_catalog_ranked(&catalog, Params::default(), Some(model())).unwrap();
    let (sent, ready) = channel();
    index.transformer_vectors().unwrap().when_ready(move || sent.send(()).unwrap());
    ready.recv_timeout(std::time::Duration::from_secs(60)).expect("the worker makes both vectors");
    // Made already: at once, on the caller's thread.
    let (sent, ready) = channel();
    index.transformer_vectors().unwrap().when_ready(move || sent.send(()).unwrap());
    assert!(ready.try_recv().is_ok());
    // An index dropped before its vectors are made lets its waiters go.
    let other = format!(r#"[{{"name": "c", "description": "third {salt}"}}]"#);
    let dropped = Index::from_catalog_ranked(&other, Params::default(), Some(model())).unwrap();
    let (sent, ready) = channel();
    dropped.transformer_vectors().unwrap().when_ready(move || sent.send(()).unwrap());
    drop(dropped);
    assert!(ready.recv_timeout(std::time::Duration::from_secs(60)).is_ok());
}

#[test]
fn a_tool_the_transformer_finds_near_takes_part_though_no_word_matches_it() {
    // Tools described in Chinese, searched in English: no query word matches them. The word
    // table's floor is raised out of reach here, so only the transformer's can let them in.
    let catalog = r#"[
        {"name": "recipes_by_category", "description": "根据分类查询菜谱，分类有: 甜品, 荤菜, 素菜, 汤"},
        {"name": "recipe_details", "description": "根据菜谱名称查询完整详情，包括食材、步骤"},
        {"name": "make_payment", "description": "Make a payment to a saved contact."},
        {"name": "make_directory", "description": "Make a new directory in the workspace."},
        {"name": "list_contacts", "description": "List the saved contacts."}
    ]"#;
    let query = "I'm craving something sweet, what desserts can I make?";
    let ranked = |contextual_floor: f64| {
        let params = Params { semantic_floor: f64::INFINITY, contextual_floor, ..Params::default() };
        let model = SemanticModel { table: TABLE.clone(), contextual: Some(ENCODER.clone()), glossary: None };
        let index = Index::from_catalog_ranked(catalog, params, Some(model)).unwrap();
        index.wait_for_vectors();
        top(&index, query, 5).into_iter().map(|(name, _)| name).collect::<Vec<_>>()
    };
    let shipped = ranked(Params::default().contextual_floor);
    assert_eq!(shipped.first().map(String::as_str), Some("recipes_by_category"), "{shipped:?}");
    assert_eq!(ranked(f64::INFINITY), ["make_directory", "make_payment"]);
}

#[test]
fn every_query_is_read_by_the_query_reader_where_there_is_one() {
    let text = "this pull request merge";
    let mut contextual = Contextual::from_file(&shipped("encoder.bin")).unwrap();
    let tool = contextual.embed(text);
    let before = contextual.embed_query(text).unwrap();
    assert_eq!(*before, *tool, "without a reader, the tools' encoder reads queries");
    // A file that is not an encoder is refused, and the transformer goes on reading every query.
    let damaged = std::env::temp_dir().join(format!("dsh-tool-search-reader-{}.bin", std::process::id()));
    std::fs::write(&damaged, &std::fs::read(shipped("encoder-query.bin")).unwrap()[..4096]).unwrap();
    assert!(contextual.read_query_reader_from(&damaged).is_err());
    std::fs::remove_file(&damaged).unwrap();
    assert_eq!(contextual.embed_query(text).unwrap(), before);
    // With the reader, queries are its (typed or glossed, a query is its text), and a tool's vector is unchanged.
    contextual.read_query_reader_from(&shipped("encoder-query.bin")).unwrap();
    assert_ne!(contextual.embed_query(text).unwrap(), before);
    assert_eq!(contextual.embed(text), tool);
}

#[test]
fn a_tool_no_nearer_than_the_transformers_floor_does_not_outrank_one_holding_every_query_word() {
    // The query's words lie past the 128 tokens the transformer reads of `report`'s description,
    // so its cosine is the filler's; `query` shares no word with the query, and the transformer
    // finds it nearer, though under its floor. On a scale whose top was the best cosine, that
    // weak cosine counted as a full match and `query` ranked first, so `tool_search` loaded
    // nothing: its first hit was too weak.
    let filler = "Lorem ipsum dolor sit amet, ".repeat(60);
    let catalog = format!(
        r#"[
        {{"name": "query", "description": "Run a read-only SQL query against the Postgres database."}},
        {{"name": "forecast", "description": "Get the weather forecast for a city for the next days."}},
        {{"name": "report", "description": "{filler} quarterly revenue report"}},
        {{"name": "notes", "description": "{filler} meeting notes"}}
    ]"#
    );
    let mut reader = Contextual::from_file(&shipped("encoder.bin")).unwrap();
    reader.read_query_reader_from(&shipped("encoder-query.bin")).unwrap();
    let model = SemanticModel { table: TABLE.clone(), contextual: Some(Arc::new(reader)), glossary: None };
    let index = Index::from_catalog_ranked(&catalog, Params::default(), Some(model)).unwrap();
    index.wait_for_vectors();
    let ranked = top(&index, "quarterly revenue", 2);
    assert_eq!(names(&ranked), ["report", "query"], "{ranked:?}");
}
