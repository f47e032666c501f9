//! Which ranking rules earn their place: the hybrid ranking's R@5 on every labelled set of
//! `pnpm eval`, as shipped and with each rule turned off in turn. A rule whose removal costs
//! nothing outside BFCL is a fit to BFCL, not ranking (see docs/search.md, "What each rule is worth").
//!
//! Run it through `node bench/ablation.mjs`, which writes the sets (the union is built in
//! JavaScript) and the model and cache paths this program takes:
//!
//!     cargo run --release --no-default-features --example ablation -- SETS_DIR MODEL_DIR [CACHE_DIR [UNTRAINED_ENCODER]]
//!
//! UNTRAINED_ENCODER, an `encoder.bin` of all-MiniLM-L6-v2 before the training
//! (`model/build/encoder.py --base --out PATH` writes it), adds the "untrained encoder" row: the
//! shipped ranking with that transformer in place of the trained one.
//!
//! `SETS_DIR/sets.jsonl` lists the sets (`{id}`, in `pnpm eval`'s order), each with `<id>.catalog.json` and
//! `<id>.requests.jsonl` (`{query, relevant, part}`) beside it. A set may name a `column` it
//! shares with others (their requests are pooled, each ranked over its own set's catalog) and
//! the `k` of its R@k (5 unless it says). The shipped row must equal `pnpm eval`'s hybrid figures:
//! both search for 10 tools with the native default (a filled page).

/// Built with the boundary on, the program only says how to run it: using the crate would then
/// need symbols only Node has.
#[cfg(feature = "node")]
fn main() {
    eprintln!("run it without the Node-API boundary: node bench/ablation.mjs");
    std::process::exit(2);
}

#[cfg(not(feature = "node"))]
fn main() {
    ablation::main();
}

#[cfg(not(feature = "node"))]
mod ablation {
    use std::path::{Path, PathBuf};
    use std::sync::Arc;

    use dsh_tool_search::{
        set_vector_cache, Contextual, Glossary, Index, Json, Model, Node, Params, Searcher, SemanticModel,
    };

    /// One way of ranking: the shipped one, or the shipped one with one rule off.
    struct Variant {
        name: &'static str,
        params: Params,
        transformer: bool,
        fill: bool,
        /// Which transformer ranks.
        encoder: Transformer,
    }

    #[derive(Clone, Copy, PartialEq)]
    enum Transformer {
        /// The shipped one, with its query reader.
        Shipped,
        /// The shipped one reading queries as well as tools.
        WithoutQueryReader,
        /// all-MiniLM-L6-v2 before the training.
        Untrained,
    }

    fn variants() -> Vec<Variant> {
        let shipped = Params::default;
        let off = |name, change: fn(&mut Params)| {
            let mut params = shipped();
            change(&mut params);
            Variant { name, params, transformer: true, fill: true, encoder: Transformer::Shipped }
        };
        vec![
            Variant {
                name: "shipped (R@5)",
                params: shipped(),
                transformer: true,
                fill: true,
                encoder: Transformer::Shipped,
            },
            off("no prefix matching", |p| p.prefix_weight = 0.0),
            off("no acronyms", |p| p.acronym_weight = 0.0),
            off("no fusion of a query's requests", |p| p.fusion_k = 0.0),
            off("table: whole query only", |p| p.semantic_whole = 1.0),
            off("no name agreement", |p| p.agreement_weight = 0.0),
            off("no gloss", |p| p.gloss_weight = 0.0),
            off("semantic: half table, half transformer", |p| p.contextual_share = 0.5),
            off("semantic weight 0.5 (half of a score)", |p| {
                p.semantic_weight = 0.5;
                p.glossed_semantic_weight = 0.5
            }),
            off("glossed queries at the typed queries' semantic weight", |p| {
                p.glossed_semantic_weight = p.semantic_weight
            }),
            off("glossed queries with the typed queries' candidate bound", |p| {
                p.glossed_contextual_candidates = p.contextual_candidates
            }),
            off("transformer over every tool (no candidate bound)", |p| {
                p.contextual_candidates = usize::MAX;
                p.glossed_contextual_candidates = usize::MAX
            }),
            off("only the table lets unmatched tools in", |p| p.contextual_floor = f64::INFINITY),
            off("no phrase kept first", |p| {
                p.phrase_chars = 0;
                p.phrase_words = 0
            }),
            Variant {
                name: "semantic: table only",
                params: shipped(),
                transformer: false,
                fill: true,
                encoder: Transformer::Shipped,
            },
            Variant {
                name: "no fill",
                params: shipped(),
                transformer: true,
                fill: false,
                encoder: Transformer::Shipped,
            },
            Variant {
                name: "no query reader (the tools' encoder reads queries)",
                params: shipped(),
                transformer: true,
                fill: true,
                encoder: Transformer::WithoutQueryReader,
            },
            Variant {
                name: "untrained encoder",
                params: shipped(),
                transformer: true,
                fill: true,
                encoder: Transformer::Untrained,
            },
            off("lexical (no semantic stage)", |p| p.semantic_weight = 0.0),
        ]
    }

    struct Request {
        query: String,
        relevant: Vec<String>,
        part: String,
    }

    pub fn main() {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let (Some(sets), Some(models)) = (args.first(), args.get(1)) else {
            eprintln!("usage: ablation SETS_DIR MODEL_DIR [CACHE_DIR] (node bench/ablation.mjs runs it)");
            std::process::exit(2);
        };
        set_vector_cache(args.get(2).filter(|dir| !dir.is_empty()).map(PathBuf::from));
        let (sets, models) = (Path::new(sets), Path::new(models));
        let table = Arc::new(Model::from_file(&models.join("model.bin")).expect("the word table"));
        let without_reader = || Contextual::from_file(&models.join("encoder.bin")).expect("the transformer");
        let mut contextual = without_reader();
        contextual.read_query_reader_from(&models.join("encoder-query.bin")).expect("the query reader");
        let (contextual, without_reader) = (Arc::new(contextual), Arc::new(without_reader()));
        let glossary = Arc::new(Glossary::from_file(&models.join("glossary.bin")).expect("the glossary"));
        let untrained = args
            .get(3)
            .map(|path| Arc::new(Contextual::from_file(Path::new(path)).expect("the untrained transformer")));
        let variants: Vec<Variant> = variants()
            .into_iter()
            .filter(|variant| variant.encoder != Transformer::Untrained || untrained.is_some())
            .collect();
        // Per column: its name, each variant's summed recall, and how many requests it pools.
        let mut columns: Vec<(String, Vec<f64>, usize)> = Vec::new();
        for line in read(&sets.join("sets.jsonl")).lines().filter(|line| !line.trim().is_empty()) {
            let json = Json::parse(line).expect("a JSON line");
            let id = json.get_str(json.root(), "id").expect("a set's id").to_string();
            let column = json.get_str(json.root(), "column").unwrap_or(&id).to_string();
            let k = match json.get(json.root(), "k").map(|k| json.node(k)) {
                Some(Node::Number(k)) => *k as usize,
                _ => 5,
            };
            let catalog = read(&sets.join(format!("{id}.catalog.json")));
            let requests = requests(&read(&sets.join(format!("{id}.requests.jsonl"))));
            let indexes: Vec<Index> = variants
                .iter()
                .map(|variant| {
                    let model = SemanticModel {
                        table: table.clone(),
                        contextual: variant.transformer.then(|| match (&untrained, variant.encoder) {
                            (Some(untrained), Transformer::Untrained) => untrained.clone(),
                            (_, Transformer::WithoutQueryReader) => without_reader.clone(),
                            _ => contextual.clone(),
                        }),
                        glossary: Some(glossary.clone()),
                    };
                    let index =
                        Index::from_catalog_ranked(&catalog, variant.params.clone(), Some(model)).expect("a catalog");
                    index.wait_for_vectors();
                    index
                })
                .collect();
            for (part, sums, count) in recall_by_part(&variants, &indexes, &requests, k) {
                let name = if k == 5 { format!("{column} {part}") } else { format!("{column} {part} R@{k}") };
                match columns.iter_mut().find(|(known, _, _)| *known == name) {
                    Some((_, pooled, pooled_count)) => {
                        pooled.iter_mut().zip(sums).for_each(|(pooled, sum)| *pooled += sum);
                        *pooled_count += count;
                    }
                    None => columns.push((name, sums, count)),
                }
            }
            eprintln!("ablation: {id} done");
        }
        let names: Vec<String> = columns.iter().map(|(name, _, _)| name.clone()).collect();
        let rows: Vec<Vec<f64>> = (0..variants.len())
            .map(|variant| columns.iter().map(|(_, sums, count)| sums[variant] / *count as f64).collect())
            .collect();
        print_table(&variants, &names, &rows);
    }

    /// Each variant's summed R@k over the requests of each part (parts in name order), and how
    /// many requests the part holds.
    fn recall_by_part(
        variants: &[Variant],
        indexes: &[Index],
        requests: &[Request],
        k: usize,
    ) -> Vec<(String, Vec<f64>, usize)> {
        let mut parts: Vec<&str> = requests.iter().map(|request| request.part.as_str()).collect();
        parts.sort_unstable();
        parts.dedup();
        parts
            .iter()
            .map(|&part| {
                let requests: Vec<&Request> = requests.iter().filter(|request| request.part == part).collect();
                let mut sums = vec![0.0; variants.len()];
                // Variant by variant within a request, so the transformer reads each query once
                // (the core remembers the latest queries' vectors).
                for request in &requests {
                    for ((variant, index), sum) in variants.iter().zip(indexes).zip(&mut sums) {
                        let searcher = Searcher::new(index);
                        let hits = if variant.fill {
                            searcher.search_filled(&request.query, 10, &[])
                        } else {
                            searcher.search(&request.query, 10, &[])
                        };
                        let found = request
                            .relevant
                            .iter()
                            .filter(|name| hits.iter().take(k).any(|hit| hit.name == name.as_str()))
                            .count();
                        *sum += found as f64 / request.relevant.len() as f64;
                    }
                }
                (part.to_string(), sums, requests.len())
            })
            .collect()
    }

    /// The shipped row as R@5, every other as its difference from it in thousandths.
    fn print_table(variants: &[Variant], columns: &[String], rows: &[Vec<f64>]) {
        println!("| Ranking | {} |", columns.join(" | "));
        println!("| --- |{}", " ---: |".repeat(columns.len()));
        for (number, (variant, row)) in variants.iter().zip(rows).enumerate() {
            let cell = |(value, shipped): (&f64, &f64)| {
                if number == 0 {
                    format!("{value:.3}")
                } else {
                    signed((value - shipped) * 1000.0)
                }
            };
            let cells: Vec<String> = row.iter().zip(&rows[0]).map(cell).collect();
            println!("| {} | {} |", variant.name, cells.join(" | "));
        }
    }

    fn signed(thousandths: f64) -> String {
        let rounded = thousandths.round();
        if rounded == 0.0 {
            "0".to_string()
        } else {
            format!("{rounded:+}")
        }
    }

    fn requests(text: &str) -> Vec<Request> {
        let request = |line: &str| {
            let json = Json::parse(line).expect("a JSON line");
            let root = json.root();
            let text = |key| json.get_str(root, key).expect("query and part").to_string();
            let relevant = json.get(root, "relevant").and_then(|list| json.items(list)).expect("relevant tools");
            let relevant = relevant.iter().filter_map(|&name| json.str_of(name)).map(String::from).collect();
            Request { query: text("query"), relevant, part: text("part") }
        };
        text.lines().filter(|line| !line.trim().is_empty()).map(request).collect()
    }

    fn read(path: &Path) -> String {
        std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
    }
}
