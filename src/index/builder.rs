//! Building an [`Index`] from a parsed catalog.
//!
//! Each tool is analyzed on its own (projection, pieces, terms, per-field frequencies), so large
//! catalogs are split into contiguous chunks analyzed on several threads. Each chunk numbers the
//! terms it meets in its own order; merging the chunks in catalog order then gives every term
//! the id a single pass would have given it, so the index is the same whatever the thread count.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::analysis::{term_of, Analyzer, Piece};
use crate::input::catalog::ToolSpec;
use crate::input::json::Json;
use crate::input::projection::{project_into, Field, Projection, FIELDS};
use crate::input::summary::summarize;
use crate::limits::{MAX_SCHEMA_DEPTH, MAX_TOOLS};
use crate::semantic::{embed_tools, tool_text, DocVectors, Embedder, Model, SemanticModel};

use super::postings::{Posting, Postings};
use super::vocabulary::Vocabulary;
use super::{bm25, Doc, DocId, Index, Params, Semantic, TermId, TermKind, Tf};

/// Catalogs smaller than this are analyzed on the calling thread: a thread costs more to start
/// than a few hundred tools take to analyze.
const TOOLS_PER_THREAD: usize = 256;
/// More threads than this gain little: the merge that follows is sequential.
const MAX_THREADS: usize = 4;

pub(super) fn build(json: &Json, tools: &[ToolSpec], params: Params, model: Option<SemanticModel>) -> Index {
    build_on(json, tools, params, model, threads_for(tools.len()))
}

fn build_on(json: &Json, tools: &[ToolSpec], params: Params, model: Option<SemanticModel>, threads: usize) -> Index {
    let (selected, left_out) = select(tools);
    let chunks = analyze_in_chunks(json, &selected, model.as_ref().map(|model| model.table.as_ref()), threads);
    let mut vocabulary = Vocabulary::default();
    let mut docs: Vec<Doc> = Vec::with_capacity(selected.len());
    let mut lengths: Vec<[usize; FIELDS]> = Vec::with_capacity(selected.len());
    let mut pairs: Vec<(TermId, Posting)> = Vec::new();
    let mut too_deep: Vec<&str> = Vec::new();
    let mut vectors: Vec<i16> = Vec::new();
    for chunk in chunks {
        vectors.extend_from_slice(&chunk.vectors);
        // Local term ids to global ones, in the chunk's own order of first appearance.
        let global: Vec<TermId> =
            chunk.vocabulary.into_terms().into_iter().map(|(text, kind)| vocabulary.id(text, kind)).collect();
        for analyzed in chunk.docs {
            let doc = docs.len() as DocId;
            pairs.extend(
                chunk.postings[analyzed.postings]
                    .iter()
                    .map(|&(term, tf)| (global[term as usize], Posting { doc, tf })),
            );
            lengths.push(analyzed.lengths);
            if analyzed.too_deep {
                too_deep.push(selected[doc as usize].name);
            }
            docs.push(analyzed.doc);
        }
    }
    set_field_factors(&mut docs, &lengths, &params);
    let mut postings = Postings::group(vocabulary.len(), pairs);
    let n = docs.len();
    let idf: Vec<f64> = (0..vocabulary.len()).map(|t| bm25::idf(n, postings.count(t as TermId))).collect();
    postings.weigh(&idf, &docs, params.k1);
    let mut by_name: Vec<DocId> = (0..n as DocId).collect();
    by_name.sort_unstable_by(|&a, &b| docs[a as usize].name().cmp(docs[b as usize].name()));
    let mut name_rank = vec![0; n];
    for (rank, &doc) in by_name.iter().enumerate() {
        name_rank[doc as usize] = rank as u32;
    }
    Index {
        params,
        docs,
        by_name,
        name_rank,
        words_sorted: vocabulary.sorted_words(),
        vocabulary,
        postings,
        idf,
        warnings: warnings(&too_deep, left_out),
        acronyms: Default::default(),
        semantic: model.map(|SemanticModel { table, contextual, glossary }| {
            let dims = table.dims();
            let contextual = contextual.map(|contextual| {
                let mut analyzer = Analyzer::new();
                let texts = selected.iter().map(|tool| tool_text(&mut analyzer, tool.name, tool.description)).collect();
                embed_tools(contextual, texts)
            });
            Semantic { table, vectors: DocVectors::new(dims, vectors), contextual, glossary }
        }),
    }
}

/// Fixes each document's field factors once every length is known. Integer totals keep the
/// averages independent of catalog order.
fn set_field_factors(docs: &mut [Doc], lengths: &[[usize; FIELDS]], params: &Params) {
    let n = lengths.len().max(1) as f64;
    let mut avg = [0.0; FIELDS];
    for (f, slot) in avg.iter_mut().enumerate() {
        *slot = lengths.iter().map(|l| l[f]).sum::<usize>() as f64 / n;
    }
    for (doc, len) in docs.iter_mut().zip(lengths) {
        for f in 0..FIELDS {
            let ratio = if avg[f] > 0.0 { len[f] as f64 / avg[f] } else { 0.0 };
            let norm = 1.0 - params.b[f] + params.b[f] * ratio;
            // An empty field contributes nothing (and with b = 1 its norm would be 0).
            doc.field_factor[f] = if len[f] == 0 { 0.0 } else { params.weights[f] / norm };
        }
    }
}

/// The tools to index: the first of each name, up to [`MAX_TOOLS`]; and how many were left out
/// for the limit.
fn select<'j, 't>(tools: &'t [ToolSpec<'j>]) -> (Vec<&'t ToolSpec<'j>>, usize) {
    let mut seen: FxHashSet<&str> = FxHashSet::default();
    let mut selected = Vec::with_capacity(tools.len().min(MAX_TOOLS));
    let mut left_out = 0;
    for tool in tools {
        if !seen.insert(tool.name) {
            continue;
        }
        if selected.len() == MAX_TOOLS {
            left_out += 1;
        } else {
            selected.push(tool);
        }
    }
    (selected, left_out)
}

fn threads_for(tools: usize) -> usize {
    let available = std::thread::available_parallelism().map_or(1, |n| n.get());
    (tools / TOOLS_PER_THREAD).clamp(1, available.min(MAX_THREADS))
}

fn analyze_in_chunks(json: &Json, tools: &[&ToolSpec], model: Option<&Model>, threads: usize) -> Vec<Chunk> {
    if threads <= 1 || tools.is_empty() {
        return vec![Chunk::analyze(json, tools, model)];
    }
    let size = tools.len().div_ceil(threads);
    std::thread::scope(|scope| {
        // A part whose thread cannot be started (a process at its thread limit) is analyzed
        // here instead, after the others are under way: the same chunks, in the same order.
        let workers: Vec<_> = tools
            .chunks(size)
            .map(|part| {
                (part, std::thread::Builder::new().spawn_scoped(scope, move || Chunk::analyze(json, part, model)).ok())
            })
            .collect();
        workers
            .into_iter()
            .map(|(part, worker)| match worker {
                // A worker's panic resumes here, on the caller's thread, where the Node-API
                // boundary turns it into a JavaScript error.
                Some(worker) => worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                None => Chunk::analyze(json, part, model),
            })
            .collect()
    })
}

/// The analysis of a run of consecutive tools, with term ids local to it.
struct Chunk {
    vocabulary: Vocabulary,
    docs: Vec<Analyzed>,
    /// Every tool's distinct terms, one tool after another (see [`Analyzed::postings`]): one
    /// growing list, where a list per tool cost an allocation per tool.
    postings: Vec<(TermId, [Tf; FIELDS])>,
    /// With a model, each tool's vector, one after another (see [`DocVectors`]).
    vectors: Vec<i16>,
}

/// One tool, analyzed.
struct Analyzed {
    doc: Doc,
    lengths: [usize; FIELDS],
    /// Where its terms are in [`Chunk::postings`]: one entry per distinct term, its local id and
    /// its frequency in each field.
    postings: std::ops::Range<usize>,
    too_deep: bool,
}

impl Chunk {
    fn analyze(json: &Json, tools: &[&ToolSpec], model: Option<&Model>) -> Chunk {
        let mut analysis = Analysis::default();
        let docs = tools.iter().map(|tool| analysis.analyze(json, tool)).collect();
        let mut vectors = Vec::new();
        if let Some(model) = model {
            vectors.reserve(tools.len() * model.dims());
            for tool in tools {
                // What a tool is for is in its name and description; schema text is mostly about
                // how to call it, and made the vectors of different tools alike.
                let mut embedder = Embedder::new(model);
                embedder.add_text(&mut analysis.analyzer, tool.name);
                embedder.add_text(&mut analysis.analyzer, tool.description);
                embedder.finish(&mut vectors);
            }
        }
        Chunk { vocabulary: analysis.vocabulary, docs, postings: analysis.postings, vectors }
    }
}

/// Scratch state of one chunk's analysis: its vocabulary, and caches from analyzer pieces to term
/// ids, so a word the catalog repeats is resolved once.
#[derive(Default)]
struct Analysis {
    analyzer: Analyzer,
    vocabulary: Vocabulary,
    words: FxHashMap<String, Option<TermId>>,
    verbatim: FxHashMap<String, TermId>,
    /// (term, field) of every term occurrence in the tool being analyzed.
    occurrences: Vec<(TermId, Field)>,
    /// The tool being analyzed, projected; its buffers serve every tool of the chunk.
    projection: Projection,
    /// The chunk's postings so far (see [`Chunk::postings`]).
    postings: Vec<(TermId, [Tf; FIELDS])>,
}

impl Analysis {
    fn analyze(&mut self, json: &Json, tool: &ToolSpec) -> Analyzed {
        let mut projection = std::mem::take(&mut self.projection);
        project_into(json, tool, &mut projection);
        self.occurrences.clear();
        for (field, text) in projection.fields() {
            self.add_text(field, text);
        }
        let mut lengths = [0; FIELDS];
        for &(_, field) in &self.occurrences {
            lengths[field as usize] += 1;
        }
        self.occurrences.sort_unstable_by_key(|&(term, _)| term);
        let start = self.postings.len();
        self.postings.extend(self.occurrences.chunk_by(|a, b| a.0 == b.0).map(|run| {
            let mut tf: [Tf; FIELDS] = [0; FIELDS];
            for &(_, field) in run {
                tf[field as usize] = tf[field as usize].saturating_add(1);
            }
            (run[0].0, tf)
        }));
        let doc = Doc::new(tool.name, &summarize(tool.description), &projection.text);
        let too_deep = projection.too_deep;
        self.projection = projection;
        Analyzed { doc, lengths, postings: start..self.postings.len(), too_deep }
    }

    fn add_text(&mut self, field: Field, text: &str) {
        let Analysis { analyzer, vocabulary, words, verbatim, occurrences, .. } = self;
        analyzer.pieces(text, |piece| {
            let id = match piece {
                Piece::Word(word) => match words.get(word) {
                    Some(&id) => id,
                    None => {
                        let id = term_of(piece).map(|term| vocabulary.id(term, TermKind::Word));
                        words.insert(word.to_string(), id);
                        id
                    }
                },
                Piece::Whole(text) | Piece::Gram(text) => Some(match verbatim.get(text) {
                    Some(&id) => id,
                    None => {
                        let id = vocabulary.id(text, TermKind::Verbatim);
                        verbatim.insert(text.to_string(), id);
                        id
                    }
                }),
            };
            if let Some(id) = id {
                occurrences.push((id, field));
            }
        });
    }
}

/// At most two sentences however many tools are affected: a caller logs them, and a catalog of
/// 100,000 odd tools must not become 100,000 log lines.
fn warnings(too_deep: &[&str], left_out: usize) -> Vec<String> {
    let mut warnings = Vec::new();
    match too_deep {
        [] => {}
        [name] => warnings.push(format!(
            "the schema of {} nests deeper than {MAX_SCHEMA_DEPTH} levels; its text below that depth is not searchable",
            quoted(name)
        )),
        names => {
            const SHOWN: usize = 5;
            let mut listed: Vec<String> = names.iter().take(SHOWN).map(|name| quoted(name)).collect();
            if names.len() > SHOWN {
                listed.push(format!("and {} more", names.len() - SHOWN));
            }
            warnings.push(format!(
                "the schemas of {} tools nest deeper than {MAX_SCHEMA_DEPTH} levels; their text below that depth is not searchable: {}",
                names.len(),
                listed.join(", ")
            ));
        }
    }
    if left_out > 0 {
        warnings.push(format!(
            "the catalog holds {} tools; the first {MAX_TOOLS} in catalog order are indexed and the other {left_out} are not searchable",
            MAX_TOOLS + left_out
        ));
    }
    warnings
}

/// A tool name for a message: quoted and escaped, and cut when it is unreasonably long.
fn quoted(name: &str) -> String {
    const MAX_CHARS: usize = 80;
    match name.char_indices().nth(MAX_CHARS) {
        Some((cut, _)) => format!("{:?}...", &name[..cut]),
        None => format!("{name:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::catalog;
    use crate::search::Searcher;

    #[test]
    fn any_thread_count_builds_the_same_index() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/bench/data/bfcl/bfcl-catalog.json")).unwrap();
        let json = catalog::parse(&text).unwrap();
        let tools = catalog::tools(&json).unwrap();
        let one = build_on(&json, &tools, Params::default(), None, 1);
        for threads in [2, 3, 7] {
            let many = build_on(&json, &tools, Params::default(), None, threads);
            assert_eq!(many.vocabulary, one.vocabulary, "{threads} threads: term ids");
            assert_eq!(many.idf, one.idf);
            for query in [
                "area of a circle",
                "convert currency",
                "math.factorial",
                "find restaurants near me. Also book a hotel",
            ] {
                let (many, one) = (Searcher::new(&many), Searcher::new(&one));
                assert_eq!(many.search(query, 20, &[]), one.search(query, 20, &[]), "{threads} threads: {query}");
            }
        }
    }

    #[test]
    fn a_word_repeated_past_sixteen_bits_saturates_its_count() {
        let description = "echo ".repeat(70_000);
        let index = Index::from_catalog(&format!(
            r#"[{{"name": "loud", "description": "{description}"}}, {{"name": "quiet", "description": "echo"}}]"#
        ))
        .unwrap();
        let (tf, _) = index.postings.find(index.term("echo").unwrap(), 0).unwrap();
        assert_eq!(tf[Field::Description as usize], Tf::MAX);
        assert_eq!(Searcher::new(&index).search("echo", 2, &[]).len(), 2);
    }

    #[test]
    fn small_catalogs_stay_on_the_calling_thread() {
        assert_eq!(threads_for(0), 1);
        assert_eq!(threads_for(TOOLS_PER_THREAD - 1), 1);
        assert!(threads_for(100_000) <= MAX_THREADS);
    }
}
