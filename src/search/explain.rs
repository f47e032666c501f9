//! Why a tool ranks where it does for a query: its rank and score, each ranking stage's part of
//! that score, the query terms it holds (with their fields and their part of the lexical score)
//! and those it lacks. It reads the query's one [`Ranking`], so it cannot disagree with the
//! search, and the query is embedded once. The command line's `explain` and `lint` are built on
//! it.

use crate::analysis::{term_of, Analyzer, Piece};
use crate::index::bm25::{self, round6};
use crate::index::{DocId, Tf};
use crate::input::projection::FIELDS;

use super::expansion::{distinct_terms, Match, QueryTerm};
use super::query::{ranked_text, Form};
use super::ranking::{Ranking, StagePart};
use super::scores::contribution;
use super::Searcher;

/// Why one tool ranks where it does for one query.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation<'a> {
    pub name: &'a str,
    /// 1-based position among every tool the query matches; `None` when it does not match.
    pub rank: Option<usize>,
    /// The score its hit carries (0 when it does not match).
    pub score: f64,
    /// What the query asks for (`discover:` ranks the rest of the query, as here).
    pub form: Form,
    /// Whether the query is exactly its name (which ranks it first).
    pub exact: bool,
    /// Whether the query was read as several requests and their rankings fused; term
    /// contributions are then those of the whole query's BM25F score.
    pub fused: bool,
    pub terms: Vec<TermMatch>,
    /// Query terms the tool does not contain, each once.
    pub missing: Vec<MissingTerm>,
    /// How many tools the query matches in all.
    pub matches: usize,
    /// In a hybrid index, how near the tool is to the query and what that adds to its score.
    pub semantic: Option<SemanticPart>,
    /// Each stage's part of the score, in the order the stages run; empty when the query does
    /// not match the tool. The parts add up to `score`.
    pub stages: Vec<StagePart>,
    pub text: &'a str,
}

/// The semantic side of a tool's score in a hybrid index.
#[derive(Debug, Clone, PartialEq)]
pub struct SemanticPart {
    /// Its similarity to the query by the word table (see `hybrid`): a cosine, blended for a
    /// compound query.
    pub similarity: f64,
    /// Its cosine with the query by the transformer, when that took part (its vectors are in
    /// place and it read the whole query).
    pub contextual: Option<f64>,
    /// What the similarity adds to its score; the rest of the score is lexical.
    pub part: f64,
}

/// A query term the explained tool lacks: adding the word to its definition would make it match.
#[derive(Debug, Clone, PartialEq)]
pub struct MissingTerm {
    pub term: String,
    pub query_word: String,
    /// Its idf, or `None` when no tool of the catalog contains it.
    pub idf: Option<f64>,
}

/// A held term's part of the whole query's BM25F score, rounded as reported.
fn term_share(impact: f64, term: QueryTerm) -> f64 {
    bm25::round6(contribution(impact, term.weight))
}

/// One query term found in the explained tool.
#[derive(Debug, Clone, PartialEq)]
pub struct TermMatch {
    pub term: String,
    /// The folded query text it came from.
    pub query_word: String,
    pub kind: Match,
    pub idf: f64,
    /// Its part of the whole-query BM25F score (in a hybrid index, of the lexical score before
    /// it is scaled into the blend).
    pub contribution: f64,
    /// Occurrences per field, in [`crate::Field`] order.
    pub fields: [u32; FIELDS],
}

impl<'i> Searcher<'i> {
    /// Why `name` ranks where it does for `query`; `None` for a name the index does not hold.
    /// Its terms are the very list the whole query's BM25F score is summed from, each with the
    /// part it adds to the tool's score.
    pub fn explain(&self, query: &str, name: &str) -> Option<Explanation<'i>> {
        let index = self.index;
        let doc = index.doc_named(name)?;
        let ranking = Ranking::new(index, query);
        let page = ranking.page(usize::MAX, &[], false);
        let position = page.iter().position(|&(_, ranked)| ranked == doc);
        let text = ranked_text(query);
        let mut analyzer = Analyzer::new();
        let mut words: Vec<String> = Vec::new();
        let terms = self
            .held_terms(&mut analyzer, text, doc, |word| words.push(word.to_string()))
            .into_iter()
            .map(|(term, tf, impact)| TermMatch {
                term: index.term_text(term.id).to_string(),
                query_word: words[term.at].clone(),
                kind: term.kind,
                idf: index.idf(term.id),
                contribution: term_share(impact, term),
                fields: tf.map(u32::from),
            })
            .collect();
        let tool = index.doc(doc);
        let stages = ranking.parts(doc);
        let semantic = ranking.similarities(doc).map(|(similarity, contextual)| SemanticPart {
            similarity: round6(similarity),
            contextual: contextual.map(round6),
            part: ranking.semantic_part(doc).unwrap_or(0.0),
        });
        Some(Explanation {
            name: tool.name(),
            rank: position.map(|p| p + 1),
            score: position.map_or(0.0, |p| page[p].0),
            form: ranking.form(),
            exact: ranking.is_exact(doc),
            fused: ranking.fused(),
            terms,
            missing: self.missing_terms(&mut analyzer, text, doc),
            matches: page.len(),
            semantic,
            stages,
            text: tool.text(),
        })
    }

    /// The query's scored terms that `doc` holds, with their occurrences and impact, in the order
    /// the query asks for them; `on_word` sees every query word, as `distinct_terms` reads them.
    fn held_terms(
        &self,
        analyzer: &mut Analyzer,
        text: &str,
        doc: DocId,
        on_word: impl FnMut(&str),
    ) -> Vec<(QueryTerm, [Tf; FIELDS], f64)> {
        self.held_of(&distinct_terms(self.index, analyzer, text, on_word), doc)
    }

    /// Of a query's scored terms, those `doc` holds, as [`Self::held_terms`] gives them.
    fn held_of(&self, scored: &[QueryTerm], doc: DocId) -> Vec<(QueryTerm, [Tf; FIELDS], f64)> {
        let index = self.index;
        let mut held: Vec<(QueryTerm, [Tf; FIELDS], f64)> = scored
            .iter()
            .filter_map(|&term| index.postings().find(term.id, doc).map(|(tf, impact)| (term, tf, impact)))
            .collect();
        held.sort_unstable_by_key(|(term, ..)| term.at);
        held
    }

    /// The query's own terms (not related words, not joined identifiers) that `doc` lacks.
    fn missing_terms(&self, analyzer: &mut Analyzer, text: &str, doc: DocId) -> Vec<MissingTerm> {
        let index = self.index;
        let mut missing: Vec<MissingTerm> = Vec::new();
        analyzer.pieces(text, |piece| {
            let (Piece::Word(word) | Piece::Gram(word)) = piece else { return };
            let Some(term) = term_of(piece) else { return };
            let id = index.term(&term);
            if id.is_some_and(|id| index.holds(id, doc)) || missing.iter().any(|m| m.term == term) {
                return;
            }
            let idf = id.map(|id| bm25::round6(index.idf(id)));
            missing.push(MissingTerm { term, query_word: word.to_string(), idf });
        });
        missing
    }
}

/// What the strength of a query's matches is read from (see `hints::strength`), from the query's
/// one ranking: the sum of the term contributions `explain` lists, and in a hybrid index the
/// tool's similarity (the better of the word table's and the transformer's, when that took
/// part). The query's terms are read once, however many tools are asked about.
pub(crate) struct StrengthSignals<'r, 'i> {
    searcher: Searcher<'i>,
    ranking: &'r Ranking<'i>,
    terms: Vec<QueryTerm>,
}

impl<'r, 'i> StrengthSignals<'r, 'i> {
    pub(crate) fn new(index: &'i crate::Index, ranking: &'r Ranking<'i>, query: &str) -> Self {
        StrengthSignals {
            searcher: Searcher::new(index),
            ranking,
            terms: distinct_terms(index, &mut Analyzer::new(), ranked_text(query), |_| {}),
        }
    }

    /// `doc`'s summed term contributions and similarity; `None` when the query does not rank it.
    pub(crate) fn of(&self, doc: DocId) -> Option<(f64, Option<f64>)> {
        if !self.ranking.ranks(doc) {
            return None;
        }
        let similarity = self
            .ranking
            .similarities(doc)
            .map(|(table, transformer)| round6(table.max(transformer.unwrap_or(f64::NEG_INFINITY))));
        let held = self.searcher.held_of(&self.terms, doc);
        Some((held.iter().fold(0.0, |sum, &(term, _, impact)| sum + term_share(impact, term)), similarity))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Index;

    const CATALOG: &str = r#"[
        {"name": "get_weather", "description": "Get the current weather forecast for a city.",
         "parameters": {"properties": {"city": {"description": "City name"}}}},
        {"name": "calc_tax", "description": "Tax owed on an amount."},
        {"name": "send_mail", "description": "Send an email."}
    ]"#;

    #[test]
    fn explains_rank_score_and_matched_terms_by_field() {
        let index = Index::from_catalog(CATALOG).unwrap();
        let explained = Searcher::new(&index).explain("weather in the city", "get_weather").unwrap();
        assert_eq!(explained.rank, Some(1));
        assert!(!explained.exact && !explained.fused);
        assert_eq!(explained.score, Searcher::new(&index).search("weather in the city", 1, &[])[0].score);
        let weather = explained.terms.iter().find(|t| t.term == "weather").unwrap();
        assert_eq!((weather.kind, weather.fields), (Match::Word, [1, 1, 0, 0]));
        let city = explained.terms.iter().find(|t| t.term == "citi").unwrap();
        assert_eq!((city.query_word.as_str(), city.fields), ("city", [0, 1, 1, 1]));
        assert_eq!(explained.matches, 1);
        let lacking =
            Searcher::new(&index).explain("weather in the city tomorrow tomorrow", "get_weather").unwrap().missing;
        assert_eq!(lacking, [MissingTerm { term: "tomorrow".into(), query_word: "tomorrow".into(), idf: None }]);
        let sum: f64 = explained.terms.iter().map(|t| t.contribution).sum();
        assert!((sum - explained.score).abs() < 1e-5);
        assert_eq!(explained.text, index.search_text("get_weather").unwrap());
    }

    #[test]
    fn explains_related_words_and_misses() {
        let index = Index::from_catalog(CATALOG).unwrap();
        let explained = Searcher::new(&index).explain("calculate tax", "calc_tax").unwrap();
        assert!(explained
            .terms
            .iter()
            .any(|t| t.kind == Match::Related && t.term == "calc" && t.query_word == "calculate"));
        let miss = Searcher::new(&index).explain("weather", "send_mail").unwrap();
        assert_eq!((miss.rank, miss.score, miss.terms.len()), (None, 0.0, 0));
        assert_eq!(miss.missing.iter().map(|m| m.term.as_str()).collect::<Vec<_>>(), ["weather"]);
        assert!(miss.missing[0].idf.is_some());
        assert!(Searcher::new(&index).explain("weather", "no_such_tool").is_none());
        assert!(Searcher::new(&index).explain("send_mail", "send_mail").unwrap().exact);
    }

    #[test]
    fn a_discover_query_is_explained_as_its_rest_is_ranked() {
        let index = Index::from_catalog(CATALOG).unwrap();
        let searcher = Searcher::new(&index);
        let plain = searcher.explain("weather in the city", "get_weather").unwrap();
        let shown = searcher.explain("Discover: weather in the city", "get_weather").unwrap();
        assert_eq!((shown.form, plain.form), (Form::Discover, Form::Plain));
        assert_eq!((shown.rank, shown.score, &shown.terms), (plain.rank, plain.score, &plain.terms));
        assert!(searcher.explain("discover: send_mail", "send_mail").unwrap().exact, "the rest names it");
        let named = searcher.explain("select:send_mail,calc_tax", "calc_tax").unwrap();
        assert_eq!((named.form, named.rank), (Form::Select, Some(2)));
    }

    #[test]
    fn a_compound_query_is_marked_fused() {
        let index = Index::from_catalog(CATALOG).unwrap();
        let explained = Searcher::new(&index)
            .explain("Get the weather forecast. Then send an email about it.", "send_mail")
            .unwrap();
        assert!(explained.fused);
        assert!(explained.rank.is_some_and(|r| r <= 2));
    }

    #[test]
    fn a_lexical_score_is_one_stage_whose_part_is_the_score() {
        let index = Index::from_catalog(CATALOG).unwrap();
        let searcher = Searcher::new(&index);
        for query in ["weather in the city", "Get the weather forecast. Then send an email about it."] {
            for hit in searcher.search(query, 10, &[]) {
                let stages = searcher.explain(query, hit.name).unwrap().stages;
                assert_eq!(stages.len(), 1);
                assert_eq!((stages[0].stage, stages[0].part), (crate::Stage::Lexical, hit.score), "{query}");
            }
        }
        assert!(searcher.explain("weather", "send_mail").unwrap().stages.is_empty());
        assert!(searcher.explain("select:send_mail", "send_mail").unwrap().stages.is_empty());
    }
}
