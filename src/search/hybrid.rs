//! The semantic stage: how near each tool's vector is to the query's, by the word table and, once
//! its vectors are in place, the transformer, and the blend of that with the lexical score.
//!
//! Both signals are brought to one scale per query before they are weighed: the lexical score
//! divided by the query's best, a similarity divided by the query's best similarity (a cosine of
//! 0 or less, which unrelated texts have, counting as none). Neither scale moves when tools
//! unrelated to the query join the catalog, so neither does a tool's share of the best score,
//! which decides what a confident search loads. A compound query's similarity also looks at each
//! request on its own (a tool keeps its best), so a long task description does not blur into one
//! average vector. Tools no query word matches take part too (that is what the signal is for)
//! when the table or the transformer finds them similar enough to count as matches; the others
//! can only fill the places a short page leaves ([`Blend::unmatched`]). A rerank stage (see
//! `agreement`) may add to a tool's semantic part; the blend then scales both parts so that a
//! score stays within 0..=1.
//!
//! The transformer reads the query once and compares it with the best candidates the words and
//! the table bring ([`candidates`]), whose vectors it makes itself where the background worker
//! has not yet: a search costs a bounded number of passes, and answers the same whether the
//! worker has finished or not started.
//!
//! The two similarities are weighed by `Params::contextual_share`, which gives the transformer
//! the whole semantic part: where it read the query a tool's table part is 0, in its score and
//! in `explain`, and the table only picks the transformer's candidates and decides with it which
//! unmatched tools are matches. A query it does not read (a longer one, or any query of an index
//! without the transformer) is weighed by the table alone.

use crate::analysis::Analyzer;
use crate::index::{DocId, Index};
use crate::semantic::{contextual_cosine, DocVectors, Embedder, Model, QueryReading, ToolVectors};
use crate::work::{self, Step};

use super::scores::Scores;

/// The share of every score a quoted tool holds above the others (see [`Blend::protect`]). Any
/// share above 0 orders the page the same; it decides how far below a quoted tool the others'
/// scores fall, which the plugin's leader cut reads: with half, a tool the blend placed level
/// with the quoted one keeps half its share of the best score.
const QUOTE: f64 = 0.5;

/// Most requests of one compound query embedded on their own: each costs a pass over every
/// tool's vector, and past a few dozen a query is a document, not a list of requests.
const MAX_REQUESTS: usize = 32;

/// One query's view of the semantic signal: every tool's similarity and its semantic part.
pub(crate) struct Blend {
    weight: f64,
    floor: f64,
    contextual_floor: f64,
    /// The transformer's share of the semantic part, when it took part.
    share: f64,
    /// The static table's similarity: what decides whether a tool no query word matches takes
    /// part, and what the match strength reports.
    similarity: Vec<f64>,
    /// The table's similarity placed on the query's scale (see [`placed`]).
    table: Vec<f64>,
    /// The transformer's cosine per candidate and every tool's placed on the query's scale (0 off
    /// the candidates), when it took part.
    contextual: Option<(Vec<Option<f64>>, Vec<f64>)>,
    /// Per tool, on a 0..=1 scale: the table's placed similarity, averaged with the
    /// transformer's when it took part.
    semantic: Vec<f64>,
    /// What a rerank stage adds to each tool's semantic part; empty when none did.
    rerank: Vec<f64>,
    /// What both parts are multiplied by so that a score stays within 0..=1 with the rerank in
    /// it: 1 over 1 plus the most the rerank adds (and `1 - QUOTE` of that when the query quotes
    /// a tool).
    scale: f64,
    best_lexical: f64,
    /// The tools the query quotes (see `phrase`), in document order, which [`Self::protect`]
    /// places above every other tool.
    quoted: Vec<DocId>,
}

/// A tool's fused score split by stage, before rounding: `lexical + table + transformer +
/// rerank + phrase` is its score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct BlendParts {
    pub(crate) lexical: f64,
    pub(crate) table: f64,
    pub(crate) transformer: Option<f64>,
    pub(crate) rerank: f64,
    pub(crate) phrase: f64,
}

impl Blend {
    /// The blend for `text`, or `None` when the query has no word the model knows.
    /// `contextual`: the transformer's tool vectors, when it is to take part.
    pub(crate) fn new(
        index: &Index,
        (model, vectors): (&Model, &DocVectors),
        contextual: Option<&ToolVectors>,
        (text, reading): (&str, QueryReading),
        requests: &[&str],
        lexical: &Scores,
    ) -> Option<Blend> {
        let params = index.params();
        let mut analyzer = Analyzer::new();
        let embed = |analyzer: &mut Analyzer, text: &str| {
            let mut embedder = Embedder::new(model);
            embedder.add_text(analyzer, text);
            let mut vector = Vec::with_capacity(model.dims());
            embedder.finish(&mut vector).then_some(vector)
        };
        let whole = embed(&mut analyzer, text)?;
        let mut similarity: Vec<f64> = vectors.similarities(&whole).collect();
        work::add(Step::Similarity, similarity.len());
        // `requests` is empty for a query of one request.
        let parts: Vec<Vec<i16>> = requests.iter().take(MAX_REQUESTS).filter_map(|r| embed(&mut analyzer, r)).collect();
        if !parts.is_empty() {
            let mut best = vec![f64::NEG_INFINITY; similarity.len()];
            for part in &parts {
                work::add(Step::Similarity, best.len());
                for (slot, value) in best.iter_mut().zip(vectors.similarities(part)) {
                    *slot = slot.max(value);
                }
            }
            let w = params.semantic_whole;
            for (slot, part) in similarity.iter_mut().zip(best) {
                *slot = w * *slot + (1.0 - w) * part;
            }
        }
        let table = placed(&similarity);
        let share = params.contextual_share;
        let best_lexical = lexical.iter().map(|(_, score)| score).fold(0.0, f64::max);
        let contextual = contextual.and_then(|vectors| {
            let wanted = match reading {
                QueryReading::Typed => params.contextual_candidates,
                QueryReading::Glossed => params.glossed_contextual_candidates,
            };
            let candidates = candidates(index, wanted, lexical, best_lexical, &table);
            let cosines = transformer_similarity(vectors, &candidates, text)?;
            let placed = placed_under(
                &cosines.iter().map(|cosine| cosine.unwrap_or(0.0)).collect::<Vec<_>>(),
                params.contextual_floor,
            );
            Some((cosines, placed))
        });
        let semantic = match &contextual {
            Some((_, placed)) => table.iter().zip(placed).map(|(&t, &c)| (1.0 - share) * t + share * c).collect(),
            None => table.clone(),
        };
        // The glossed weight was chosen for the query reader's reading of glossed queries; a
        // glossed query the table alone reads keeps the typed queries' weight.
        let weight = match (reading, &contextual) {
            (QueryReading::Glossed, Some(_)) => params.glossed_semantic_weight,
            _ => params.semantic_weight,
        };
        Some(Blend {
            weight,
            floor: params.semantic_floor,
            contextual_floor: params.contextual_floor,
            share,
            similarity,
            table,
            contextual,
            semantic,
            rerank: Vec::new(),
            scale: 1.0,
            best_lexical,
            quoted: Vec::new(),
        })
    }

    /// Adds a rerank stage's per-tool bonus to the semantic part (see `agreement`).
    pub(crate) fn rerank(&mut self, bonus: Vec<f64>) {
        self.scale = 1.0 / (1.0 + bonus.iter().copied().fold(0.0, f64::max));
        self.rerank = bonus;
    }

    /// Places the tools the query quotes (`quoted`, in document order, see `phrase`) above every
    /// other tool: [`QUOTE`] of every score is kept for them, so a quoted tool's score `s` becomes
    /// `QUOTE + (1 - QUOTE) * s` and every other's `(1 - QUOTE) * s`. Both orders stay as the
    /// blend made them, and every score within 0..=1. Called after any rerank.
    pub(crate) fn protect(&mut self, quoted: Vec<DocId>) {
        if !quoted.is_empty() {
            self.scale *= 1.0 - QUOTE;
            self.quoted = quoted;
        }
    }

    /// What a quote adds to a tool's score (see [`Self::protect`]): only a lexical match holds
    /// the words it quotes.
    fn lift(&self, doc: DocId, lexical: f64) -> f64 {
        if lexical > 0.0 && self.quoted.binary_search(&doc).is_ok() {
            QUOTE
        } else {
            0.0
        }
    }

    /// Whether a tool takes part in the ranking: every lexical match, and every other tool at
    /// least `semantic_floor` similar by the table or, among the transformer's candidates,
    /// `contextual_floor` by the transformer. With required (`+word`) terms only lexical matches
    /// qualify, since they alone hold those terms.
    pub(crate) fn matches(&self, doc: DocId, lexical: f64, required: &[String]) -> bool {
        if lexical > 0.0 {
            return true;
        }
        let near_by_table = self.similarity[doc as usize] >= self.floor;
        let near_by_transformer = self.contextual_similarity(doc).is_some_and(|cosine| cosine >= self.contextual_floor);
        required.is_empty() && (near_by_table || near_by_transformer)
    }

    /// The fused scores of every tool that takes part (see [`Self::matches`]).
    pub(crate) fn fuse(&self, lexical: &Scores, required: &[String]) -> Scores {
        let mut fused = Scores::new(self.similarity.len());
        for doc in 0..self.similarity.len() as DocId {
            let score = lexical.get(doc);
            if self.matches(doc, score, required) {
                fused.add(doc, self.score(doc, score));
            }
        }
        fused
    }

    /// The tools [`Self::fuse`] left out of `fused`, each with the score the blend gives it (its
    /// semantic part: no query word matches it).
    pub(crate) fn unmatched<'a>(&'a self, fused: &'a Scores) -> impl Iterator<Item = (f64, DocId)> + 'a {
        (0..self.similarity.len() as DocId).filter(|&doc| fused.get(doc) == 0.0).map(|doc| (self.score(doc, 0.0), doc))
    }

    /// A tool's fused score, from its lexical score.
    pub(crate) fn score(&self, doc: DocId, lexical: f64) -> f64 {
        let (lexical_part, semantic_part) = self.halves(doc, lexical);
        lexical_part + semantic_part + self.lift(doc, lexical)
    }

    /// A tool's lexical and semantic halves of its fused score (the semantic half holds the
    /// rerank's bonus), each scaled so that their sum stays within 0..=1.
    fn halves(&self, doc: DocId, lexical: f64) -> (f64, f64) {
        let lexical = if self.best_lexical > 0.0 { lexical / self.best_lexical } else { 0.0 };
        let bonus = self.rerank.get(doc as usize).copied().unwrap_or(0.0);
        (self.scale * (1.0 - self.weight) * lexical, self.scale * (self.weight * self.semantic[doc as usize] + bonus))
    }

    /// A tool's score split by stage (see [`BlendParts`]).
    pub(crate) fn parts(&self, doc: DocId, lexical: f64) -> BlendParts {
        let (lexical_part, _) = self.halves(doc, lexical);
        let semantic = self.scale * self.weight;
        let (table, transformer) = match &self.contextual {
            Some((_, placed)) => (
                semantic * (1.0 - self.share) * self.table[doc as usize],
                Some(semantic * self.share * placed[doc as usize]),
            ),
            None => (semantic * self.semantic[doc as usize], None),
        };
        let rerank = self.scale * self.rerank.get(doc as usize).copied().unwrap_or(0.0);
        BlendParts { lexical: lexical_part, table, transformer, rerank, phrase: self.lift(doc, lexical) }
    }

    /// A tool's similarity to the query by the static table (its cosine, or the blend of the
    /// whole query's and its best request's).
    pub(crate) fn similarity(&self, doc: DocId) -> f64 {
        self.similarity[doc as usize]
    }

    /// A tool's cosine with the query by the transformer, when it took part and the tool was
    /// one of its candidates.
    pub(crate) fn contextual_similarity(&self, doc: DocId) -> Option<f64> {
        self.contextual.as_ref().and_then(|(cosines, _)| cosines[doc as usize])
    }

    /// How many tools the blend covers (the whole catalog).
    pub(crate) fn len(&self) -> usize {
        self.similarity.len()
    }
}

/// Similarities placed on the query's scale: each over the best, a cosine of 0 or less counting
/// as none, so 1 for the best and 0 for what is no nearer the query than unrelated texts are
/// (all 0 when nothing is nearer). Unlike a scale from the least similar tool to the most, it
/// does not move when a tool unrelated to the query joins the catalog, so neither does any other
/// tool's score nor its share of the best, which the leader cut reads (`docs/model.md`, "How the
/// ranking parameters were chosen", gives what each scale ranked).
fn placed(similarities: &[f64]) -> Vec<f64> {
    placed_under(similarities, 0.0)
}

/// [`placed`], on a scale whose top is at least `least_top` (when it is finite). The transformer's
/// cosines are placed under its floor (`Params::contextual_floor`): where no candidate is as near
/// the query as that, none is near by the transformer's own measure, and its best is a share of
/// the floor rather than a full match, so a tool that shares no word with the query does not
/// outrank one that holds them all on a cosine the transformer itself calls unrelated.
fn placed_under(similarities: &[f64], least_top: f64) -> Vec<f64> {
    let least_top = if least_top.is_finite() { least_top } else { 0.0 };
    let best = similarities.iter().copied().fold(least_top, f64::max);
    similarities.iter().map(|&similarity| if best > 0.0 { (similarity / best).clamp(0.0, 1.0) } else { 0.0 }).collect()
}

/// The tools the transformer compares with the query: the best `wanted` of them
/// (`Params::contextual_candidates`, or its glossed counterpart) by the blend without it (the
/// lexical score and the table's similarity, each on the query's scale), ties broken by name, in
/// document order. The transformer reorders what the words and the table find; it never brings
/// in a tool they rank far below (see `semantic_floor` for why a tool does not join on the
/// transformer's cosine alone).
fn candidates(index: &Index, wanted: usize, lexical: &Scores, best_lexical: f64, table: &[f64]) -> Vec<DocId> {
    let params = index.params();
    let weight = params.semantic_weight;
    let lexical_part = |doc: DocId| if best_lexical > 0.0 { lexical.get(doc) / best_lexical } else { 0.0 };
    let mut ranked: Vec<(f64, DocId)> = (0..table.len() as DocId)
        .map(|doc| ((1.0 - weight) * lexical_part(doc) + weight * table[doc as usize], doc))
        .collect();
    let order = |a: &(f64, DocId), b: &(f64, DocId)| {
        b.0.total_cmp(&a.0).then_with(|| index.name_rank(a.1).cmp(&index.name_rank(b.1)))
    };
    let wanted = wanted.min(ranked.len());
    if wanted < ranked.len() {
        ranked.select_nth_unstable_by(wanted, order);
        ranked.truncate(wanted);
    }
    let mut candidates: Vec<DocId> = ranked.into_iter().map(|(_, doc)| doc).collect();
    candidates.sort_unstable();
    candidates
}

/// The transformer's cosine with the query of each candidate, by document (`None` off the
/// candidates), its vector made now where the worker has not made it yet; `None` for a query it
/// does not read (see [`crate::Contextual::embed_query`]).
fn transformer_similarity(vectors: &ToolVectors, candidates: &[DocId], text: &str) -> Option<Vec<Option<f64>>> {
    let query = vectors.model().embed_query(text)?;
    work::add(Step::Similarity, candidates.len());
    let mut cosines = vec![None; vectors.len()];
    for &doc in candidates {
        cosines[doc as usize] = Some(contextual_cosine(&query, vectors.vector(doc as usize)));
    }
    Some(cosines)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::semantic::Model;
    use crate::{Index, Params, Searcher};

    /// Three directions: weather words, money words, issue-tracker words; "open" sits between the
    /// last and "create".
    fn model() -> Arc<Model> {
        let rows = [
            ("weather", 100, vec![120, 0, 0, 0]),
            ("forecast", 100, vec![110, 20, 0, 0]),
            ("rain", 80, vec![100, 0, 10, 0]),
            ("currenc", 100, vec![0, 120, 0, 0]),
            ("money", 100, vec![0, 110, 10, 0]),
            ("convert", 60, vec![10, 90, 0, 0]),
            ("issu", 100, vec![0, 0, 120, 0]),
            ("bug", 100, vec![0, 0, 110, 10]),
            ("creat", 60, vec![0, 0, 80, 80]),
            ("open", 60, vec![0, 0, 70, 90]),
            ("report", 60, vec![0, 10, 90, 30]),
            ("zebra", 100, vec![0, 0, 0, 127]),
        ];
        Arc::new(Model::from_bytes(crate::semantic::encode(4, &rows)).unwrap())
    }

    const CATALOG: &str = r#"[
        {"name": "get_forecast", "description": "Weather forecast for a city."},
        {"name": "convert_currency", "description": "Convert money between currencies."},
        {"name": "create_issue", "description": "Create an issue in a repository."},
        {"name": "list_issues", "description": "List the issues of a repository."}
    ]"#;

    fn hybrid(catalog: &str) -> Index {
        Index::from_catalog_ranked(catalog, Params::default(), Some(model().into())).unwrap()
    }

    /// The test catalog with the table's floor at `floor`: this table's cosines are not the
    /// shipped table's, so the tests that need a tool kept out choose the floor themselves.
    fn floored(floor: f64) -> Index {
        Index::from_catalog_ranked(CATALOG, Params { semantic_floor: floor, ..Params::default() }, Some(model().into()))
            .unwrap()
    }

    fn names(index: &Index, query: &str, limit: usize) -> Vec<String> {
        Searcher::new(index).search(query, limit, &[]).into_iter().map(|hit| hit.name.to_string()).collect()
    }

    #[test]
    fn a_request_that_shares_no_word_with_a_tool_finds_it_by_meaning() {
        let lexical = Index::from_catalog(CATALOG).unwrap();
        assert!(names(&lexical, "will it rain", 1).is_empty());
        assert_eq!(names(&hybrid(CATALOG), "will it rain", 1), ["get_forecast"]);
    }

    #[test]
    fn similarity_reorders_what_the_words_alone_leave_tied() {
        // "open" is nearer "create" than "list": both tools hold "issue", the meaning decides.
        let index = hybrid(CATALOG);
        assert_eq!(names(&index, "open an issue", 2), ["create_issue", "list_issues"]);
        let lexical = Index::from_catalog(CATALOG).unwrap();
        let lexical_order = names(&lexical, "open an issue", 2);
        assert_eq!(lexical_order.len(), 2);
    }

    #[test]
    fn exact_names_select_and_required_words_keep_their_meaning() {
        let index = hybrid(CATALOG);
        assert_eq!(names(&index, "list_issues", 1), ["list_issues"]);
        assert_eq!(names(&index, "select:convert_currency,get_forecast", 5), ["convert_currency", "get_forecast"]);
        // A required word admits only tools that hold it, however similar the others are.
        assert_eq!(names(&index, "rain forecast +currency", 5), ["convert_currency"]);
    }

    #[test]
    fn tools_below_the_similarity_floor_stay_out() {
        // "zebra" points where no tool does (create_issue comes nearest, at a cosine of 0.27): no
        // lexical match, and no tool similar enough.
        assert!(names(&floored(0.3), "zebra", 5).is_empty());
        assert_eq!(names(&floored(0.2), "zebra", 5), ["create_issue"]);
    }

    #[test]
    fn a_filled_page_adds_the_nearest_others_and_never_drops_a_match() {
        let index = floored(0.3);
        let searcher = Searcher::new(&index);
        let filled = |query: &str, limit: usize, exclude: &[&str]| -> Vec<String> {
            searcher.search_filled(query, limit, exclude).into_iter().map(|hit| hit.name.to_string()).collect()
        };
        // Nothing is near "zebra" (see above), yet the page lists every tool, nearest first (the
        // others are as far as can be: equal, so by name).
        assert!(names(&index, "zebra", 5).is_empty());
        assert_eq!(filled("zebra", 5, &[]), ["create_issue", "convert_currency", "get_forecast", "list_issues"]);
        assert_eq!(
            filled("zebra", 2, &["create_issue"]),
            ["convert_currency", "get_forecast"],
            "exclusions hold for the fill"
        );
        // "currency" matches one tool; the fill comes after it and only takes the room left.
        assert_eq!(names(&index, "currency", 5), ["convert_currency"]);
        let page = filled("currency", 3, &[]);
        assert_eq!((page.len(), page[0].as_str()), (3, "convert_currency"));
        assert_eq!(filled("currency", 1, &[]), ["convert_currency"]);
        let hits = searcher.search_filled("currency", 4, &[]);
        assert!(hits.windows(2).all(|pair| pair[0].score >= pair[1].score), "{hits:?}");
        // A full page, a required word and select: are as the matches alone.
        assert_eq!(filled("issue", 2, &[]), names(&index, "issue", 2));
        assert_eq!(filled("rain forecast +currency", 5, &[]), ["convert_currency"]);
        assert_eq!(filled("select:get_forecast", 5, &[]), ["get_forecast"]);
        // A lexical index has no meaning to fill with.
        let lexical = Index::from_catalog(CATALOG).unwrap();
        assert_eq!(Searcher::new(&lexical).search_filled("currency", 5, &[]).len(), 1);
    }

    #[test]
    fn a_query_without_a_known_word_ranks_lexically() {
        let index = hybrid(CATALOG);
        let lexical = Index::from_catalog(CATALOG).unwrap();
        let query = "repository";
        assert_eq!(Searcher::new(&index).search(query, 5, &[]), Searcher::new(&lexical).search(query, 5, &[]));
    }

    #[test]
    fn each_request_of_a_compound_query_counts_on_its_own() {
        // Averaged over the whole query, the rain request is outweighed by the bug request; on
        // its own it points straight at the forecast, which keeps that best similarity.
        let query = "Will it rain? Also file a bug.";
        let similarity = |whole: f64| {
            let params = Params { semantic_whole: whole, ..Params::default() };
            let index = Index::from_catalog_ranked(CATALOG, params, Some(model().into())).unwrap();
            Searcher::new(&index).explain(query, "get_forecast").unwrap().semantic.unwrap().similarity
        };
        assert!(similarity(0.5) > similarity(1.0) + 0.1, "{} vs {}", similarity(0.5), similarity(1.0));
        let found = names(&hybrid(CATALOG), query, 4);
        assert!(
            found.contains(&"get_forecast".to_string()) && found.contains(&"create_issue".to_string()),
            "{found:?}"
        );
    }

    /// A tool's semantic part is its similarity over the query's best: a tool no nearer the query
    /// than any other (here one pointing where no query word does) joining the catalog moves no
    /// other tool's, where a scale from the least similar tool to the most moved every one.
    #[test]
    fn an_unrelated_tool_joining_the_catalog_moves_no_semantic_part() {
        let part = |catalog: &str, query: &str, name: &str| {
            Searcher::new(&hybrid(catalog)).explain(query, name).unwrap().semantic.unwrap().part
        };
        let joined = CATALOG.replace('[', r#"[{"name": "zebra", "description": "A zebra."},"#);
        for query in ["rain forecast and an issue", "open an issue", "money for a bug report"] {
            for name in ["get_forecast", "convert_currency", "create_issue", "list_issues"] {
                assert_eq!(part(CATALOG, query, name), part(&joined, query, name), "{query}: {name}");
            }
        }
    }

    #[test]
    fn explain_splits_a_hybrid_score_into_its_parts() {
        let index = hybrid(CATALOG);
        let searcher = Searcher::new(&index);
        let explained = searcher.explain("open an issue", "create_issue").unwrap();
        let semantic = explained.semantic.unwrap();
        assert_eq!(explained.rank, Some(1));
        assert!(semantic.similarity > 0.5 && semantic.part > 0.0 && semantic.part <= explained.score);
        assert!(Index::from_catalog(CATALOG).unwrap().is_hybrid().then_some(()).is_none());
        assert!(Searcher::new(&Index::from_catalog(CATALOG).unwrap())
            .explain("open an issue", "create_issue")
            .unwrap()
            .semantic
            .is_none());
    }

    /// The table knows no Chinese, so for "weather 抖音热榜" it places the forecast nearest; the
    /// query quotes four characters only the other tool's description holds, which puts that
    /// tool first, at a score within 0..=1 whose parts still add up.
    #[test]
    fn a_tool_the_query_quotes_comes_first_whatever_the_models_prefer() {
        let catalog = r#"[{"name": "get_forecast", "description": "Weather forecast for a city."},
                          {"name": "hot_list", "description": "获取抖音热榜"}]"#;
        let index = |phrase_chars| {
            let params = Params { phrase_chars, ..Params::default() };
            Index::from_catalog_ranked(catalog, params, Some(model().into())).unwrap()
        };
        let query = "weather 抖音热榜";
        assert_eq!(names(&index(0), query, 2), ["get_forecast", "hot_list"]);
        let quoting = index(4);
        let searcher = Searcher::new(&quoting);
        let hits = searcher.search(query, 2, &[]);
        assert_eq!(hits.iter().map(|hit| hit.name).collect::<Vec<_>>(), ["hot_list", "get_forecast"]);
        assert!(hits[0].score <= 1.0 && hits[0].score > hits[1].score, "{hits:?}");
        let explained = searcher.explain(query, "hot_list").unwrap();
        let phrase = explained.stages.iter().find(|stage| stage.stage == crate::Stage::Phrase).unwrap();
        assert!(phrase.part > 0.0);
        let sum: f64 = explained.stages.iter().map(|stage| stage.part).sum();
        assert!((sum - explained.score).abs() < 1e-5, "{sum} vs {}", explained.score);
        // The others keep their order, at half their scores; the quoted tool holds the other half.
        let unquoted = |index: &Index, name| Searcher::new(index).explain(query, name).unwrap().score;
        assert!((2.0 * hits[1].score - unquoted(&index(0), "get_forecast")).abs() < 2e-6);
        assert!((hits[0].score - (0.5 + 0.5 * unquoted(&index(0), "hot_list"))).abs() < 2e-6);
        // Three characters quote nothing.
        assert_eq!(names(&quoting, "weather 抖音热", 2), names(&index(0), "weather 抖音热", 2));
    }

    #[test]
    fn a_hybrid_ranking_does_not_depend_on_catalog_order() {
        let json = crate::Json::parse(CATALOG).unwrap();
        let tools = crate::input::catalog::tools(&json).unwrap();
        let reversed: Vec<String> = tools
            .iter()
            .rev()
            .map(|t| format!(r#"{{"name": "{}", "description": "{}"}}"#, t.name, t.description))
            .collect();
        let backward = hybrid(&format!("[{}]", reversed.join(",")));
        let forward = hybrid(CATALOG);
        for query in ["open an issue", "will it rain", "money", "Will it rain? Also open a bug."] {
            assert_eq!(
                Searcher::new(&forward).search(query, 4, &[]),
                Searcher::new(&backward).search(query, 4, &[]),
                "{query}"
            );
        }
    }
}
