//! One query ranked over one index, once: what every stage gave every candidate, kept so that
//! the page of hits, the explanation of a tool's place and its match strength all read the same
//! numbers. The stages, in order:
//!
//! 1. **lexical**: BM25F of the query's terms and their expansions (`scores`, `expansion`), or
//!    for a compound query the fusion of its requests' rankings (`fusion`);
//! 2. **semantic** (a hybrid index): the word table's and the transformer's similarities,
//!    blended with the lexical score (`hybrid`);
//! 3. **name agreement** (a hybrid index): a rerank among the leaders that share the query's
//!    object (`agreement`);
//! 4. **phrase** (a hybrid index): a tool the query quotes, a phrase of its text no other tool
//!    holds, placed above the others (`phrase`).
//!
//! Then the page: a tool named exactly by the query first (the one exact-name rule: the page, the
//! answer and `explain` read [`Ranking::is_exact`]), the matches by score and name, and in a
//! filled search the places left to the nearest others by the same blend. `select:` names its
//! tools and ranks nothing; `discover:` ranks the rest of its query (`query`). Each stage has an off switch in [`crate::Params`], an explanation
//! node ([`StagePart`]) and a row in the ablation (`examples/ablation.rs`).

use std::borrow::Cow;

use rustc_hash::FxHashSet;

use crate::gloss;
use crate::index::{bm25, DocId, Index};
use crate::semantic::QueryReading;

use super::agreement::name_agreement;
use super::hybrid::Blend;
use super::phrase;
use super::query::{self, Form, Query};
use super::scores::Scores;
use super::Searcher;

/// A stage of the ranking, as explanations name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// BM25F of the query's terms, or the fusion of a compound query's rankings.
    Lexical,
    /// The semantic similarity's share of the score: the word table's and the transformer's.
    Semantic,
    /// The word table's similarity, placed on the query's scale.
    Table,
    /// The transformer's cosine, placed on the query's scale.
    Transformer,
    /// The name-agreement rerank.
    NameAgreement,
    /// What keeps a tool the query quotes above the others (`phrase`).
    Phrase,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Lexical => "lexical",
            Stage::Semantic => "semantic",
            Stage::Table => "table",
            Stage::Transformer => "transformer",
            Stage::NameAgreement => "name agreement",
            Stage::Phrase => "phrase",
        }
    }
}

/// One stage's share of a tool's score. The top-level parts of a matching tool add up to its
/// score (each is rounded to six decimals, so their sum is within a few millionths of it), and
/// a part's own `parts`, when it has any, add up to it.
#[derive(Debug, Clone, PartialEq)]
pub struct StagePart {
    pub stage: Stage,
    /// What the stage adds to the score, rounded to six decimals.
    pub part: f64,
    /// The stage's own signal before it is weighed, rounded to six decimals: the BM25F (or fused)
    /// score, the table's similarity, the transformer's cosine; `None` for the rerank.
    pub signal: Option<f64>,
    pub parts: Vec<StagePart>,
}

/// A ranked query (see the module's documentation).
pub(crate) struct Ranking<'i> {
    searcher: Searcher<'i>,
    /// A tool named exactly by the query's trimmed text, which comes first whatever its score.
    exact: Option<DocId>,
    form: Form,
    order: Order,
}

enum Order {
    /// `select:`: the named tools, in the order named.
    Listed(Vec<DocId>),
    Scored(Box<Scored>),
}

struct Scored {
    required: Vec<String>,
    /// Whether the lexical stage fused the rankings of several requests.
    fused: bool,
    /// The lexical stage's score per tool.
    lexical: Scores,
    /// The semantic stage, with the rerank in it; `None` in a lexical index, or for a query
    /// without a word the model knows.
    blend: Option<Blend>,
    /// The blend's score of every tool that takes part; `None` when there is no blend, and the
    /// lexical scores are the ranking.
    blended: Option<Scores>,
}

impl<'i> Ranking<'i> {
    pub(crate) fn new(index: &'i Index, query: &str) -> Ranking<'i> {
        let searcher = Searcher::new(index);
        let discover = query::discovered(query);
        let text = discover.unwrap_or(query);
        let exact = index.doc_named(text.trim());
        let parsed = Query::parse(text);
        let form = parsed.form(discover.is_some());
        let order = match parsed {
            // A tool literally named `select:...` is still an exact name.
            Query::Select(names) => {
                let mut listed: Vec<DocId> = names.iter().filter_map(|name| index.doc_named(name)).collect();
                listed.retain(|&doc| Some(doc) != exact);
                Order::Listed(listed)
            }
            Query::Ranked { text, required } => Order::Scored(Box::new(Scored::new(&searcher, text, required))),
        };
        Ranking { searcher, exact, form, order }
    }

    /// What the query asks for.
    pub(crate) fn form(&self) -> Form {
        self.form
    }

    /// Whether the query names `doc` exactly, which puts it first whatever its score.
    pub(crate) fn is_exact(&self, doc: DocId) -> bool {
        self.exact == Some(doc)
    }

    /// Whether the query names its tools (`select:`, also after `discover:`) rather than ranking.
    pub(crate) fn names_tools(&self) -> bool {
        matches!(self.order, Order::Listed(_))
    }

    /// At most `limit` tools, best first, with their reported scores: the exact name, then the
    /// matches not in `exclude` by score and name, and with `fill` (a hybrid index, no required
    /// word) the places left to the others by the same blend, the page ordered by score again.
    pub(crate) fn page(&self, limit: usize, exclude: &[&str], fill: bool) -> Vec<(f64, DocId)> {
        if limit == 0 {
            return Vec::new();
        }
        let scored = match &self.order {
            Order::Listed(listed) => {
                return self.exact.iter().chain(listed).take(limit).map(|&doc| (0.0, doc)).collect();
            }
            Order::Scored(scored) => scored,
        };
        let searcher = &self.searcher;
        // By document: a candidate's name is never read again, however long it is.
        let excluded: FxHashSet<DocId> = exclude.iter().filter_map(|name| searcher.index.doc_named(name)).collect();
        let listed = |doc: DocId| Some(doc) != self.exact && !excluded.contains(&doc);
        let candidates = scored.scores().iter().filter(|&(doc, _)| listed(doc));
        let room = limit - usize::from(self.exact.is_some());
        let mut ranked = searcher.top(candidates.map(|(doc, score)| (score, doc)).collect(), room);
        let blend = scored.blend.as_ref().filter(|_| fill && scored.required.is_empty() && ranked.len() < room);
        if let Some(blend) = blend {
            let others = blend.unmatched(scored.scores()).filter(|&(_, doc)| listed(doc)).collect();
            let filled = searcher.top(others, room - ranked.len());
            ranked = searcher.top(ranked.into_iter().chain(filled).collect(), room);
        }
        let exact = self.exact.map(|doc| (bm25::round6(scored.scores().get(doc)), doc));
        exact.into_iter().chain(ranked).collect()
    }

    /// Whether the query ranks `doc` at all: the exact name, a listed tool, or a match.
    pub(crate) fn ranks(&self, doc: DocId) -> bool {
        Some(doc) == self.exact
            || match &self.order {
                Order::Listed(listed) => listed.contains(&doc),
                Order::Scored(scored) => scored.scores().get(doc) > 0.0,
            }
    }

    /// Whether the lexical stage fused a compound query's requests.
    pub(crate) fn fused(&self) -> bool {
        matches!(&self.order, Order::Scored(scored) if scored.fused)
    }

    /// A tool's similarity to the query by the word table, and by the transformer when it took
    /// part; `None` without a semantic stage.
    pub(crate) fn similarities(&self, doc: DocId) -> Option<(f64, Option<f64>)> {
        let (_, blend) = self.blended()?;
        Some((blend.similarity(doc), blend.contextual_similarity(doc)))
    }

    /// What the semantic stages (the similarity and the rerank) add to a matching tool's score,
    /// rounded once; 0 for a tool the query does not match, `None` without a semantic stage.
    pub(crate) fn semantic_part(&self, doc: DocId) -> Option<f64> {
        let (scored, blend) = self.blended()?;
        if scored.scores().get(doc) <= 0.0 {
            return Some(0.0);
        }
        let split = blend.parts(doc, scored.lexical.get(doc));
        Some(bm25::round6(split.table + split.transformer.unwrap_or(0.0) + split.rerank))
    }

    /// The scored query and its semantic stage, when it has one.
    fn blended(&self) -> Option<(&Scored, &Blend)> {
        let Order::Scored(scored) = &self.order else { return None };
        Some((scored, scored.blend.as_ref()?))
    }

    /// A matching tool's score split by stage; empty for a tool the query does not match.
    pub(crate) fn parts(&self, doc: DocId) -> Vec<StagePart> {
        let Order::Scored(scored) = &self.order else { return Vec::new() };
        if scored.scores().get(doc) <= 0.0 {
            return Vec::new();
        }
        let lexical = scored.lexical.get(doc);
        let Some(blend) = &scored.blend else {
            return vec![StagePart::leaf(Stage::Lexical, lexical, Some(lexical))];
        };
        let split = blend.parts(doc, lexical);
        let table = StagePart::leaf(Stage::Table, split.table, Some(blend.similarity(doc)));
        let semantic = match (split.transformer, blend.contextual_similarity(doc)) {
            (Some(transformer), Some(cosine)) => {
                let parts = vec![table, StagePart::leaf(Stage::Transformer, transformer, Some(cosine))];
                StagePart { stage: Stage::Semantic, part: bm25::round6(split.table + transformer), signal: None, parts }
            }
            _ => {
                StagePart { stage: Stage::Semantic, part: bm25::round6(split.table), signal: None, parts: vec![table] }
            }
        };
        let mut parts = vec![StagePart::leaf(Stage::Lexical, split.lexical, Some(lexical)), semantic];
        if split.rerank > 0.0 {
            parts.push(StagePart::leaf(Stage::NameAgreement, split.rerank, None));
        }
        if split.phrase > 0.0 {
            parts.push(StagePart::leaf(Stage::Phrase, split.phrase, None));
        }
        parts
    }
}

impl StagePart {
    fn leaf(stage: Stage, part: f64, signal: Option<f64>) -> StagePart {
        StagePart { stage, part: bm25::round6(part), signal: signal.map(bm25::round6), parts: Vec::new() }
    }
}

impl Scored {
    fn new(searcher: &Searcher<'_>, text: &str, required: Vec<String>) -> Scored {
        let index = searcher.index;
        let requests = query::requests(text);
        let fused = searcher.fuses_requests(&requests);
        let lexical = if fused { searcher.fused(text, &requests, &required) } else { searcher.scores(text, &required) };
        let blend = index.semantic().filter(|_| index.params().semantic_weight > 0.0).and_then(|semantic| {
            // The models read English: a query's CJK text is read in its glosses.
            let read = |text| index.glossary().map_or(Cow::Borrowed(text), |glossary| gloss::reading(glossary, text));
            let quoted = phrase::quoted(index, text);
            let typed = text;
            let text = read(text);
            let reading = if text == typed { QueryReading::Typed } else { QueryReading::Glossed };
            let requests: Vec<Cow<'_, str>> = requests.iter().map(|request| read(request)).collect();
            let requests: Vec<&str> = requests.iter().map(AsRef::as_ref).collect();
            let mut blend = Blend::new(index, semantic, index.contextual(), (&text, reading), &requests, &lexical)?;
            blend.rerank(name_agreement(index, semantic.0, &text, &blend, &lexical));
            blend.protect(quoted);
            Some(blend)
        });
        let blended = blend.as_ref().map(|blend| blend.fuse(&lexical, &required));
        Scored { required, fused, lexical, blend, blended }
    }

    /// The score every matching tool is ranked by.
    fn scores(&self) -> &Scores {
        self.blended.as_ref().unwrap_or(&self.lexical)
    }
}
