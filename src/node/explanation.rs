//! Why a tool ranks where it does, as the JavaScript objects `explain` returns.

use napi::bindgen_prelude::{Either, Null};
use napi_derive::napi;

use crate::{round6, Match};

/// Why one tool ranks where it does.
#[napi(object)]
pub struct Explanation {
    pub name: String,
    /// 1-based rank among every tool the query matches; null when it does not match.
    pub rank: Either<u32, Null>,
    pub score: f64,
    /// What the query asks for, as `decideAsync` reads it.
    #[napi(ts_type = "'plain' | 'required' | 'select' | 'discover'")]
    pub form: String,
    /// The query is exactly this tool's name (which always ranks first).
    pub exact: bool,
    /// The query was read as several requests whose rankings were fused; term contributions
    /// are then those of the whole query's score.
    pub fused: bool,
    pub terms: Vec<TermExplanation>,
    /// Query terms the tool lacks (adding such a word to its definition would make it match).
    pub missing: Vec<MissingTerm>,
    /// How many tools the query matches in all.
    pub matches: u32,
    /// In a hybrid index, the tool's similarity to the query and the part of its score that
    /// similarity adds (the rest is lexical); null in a lexical index or for a query with no word
    /// the model knows.
    pub semantic: Either<SemanticExplanation, Null>,
    /// Each ranking stage's part of the score, in the order the stages run: `lexical`, then in a
    /// hybrid index `semantic` (made of `table` and `transformer`) and `name agreement` when it
    /// added something. Empty when the query does not match the tool. The parts add up to
    /// `score`, within rounding.
    pub stages: Vec<StageExplanation>,
    /// The projected text the tool is indexed under.
    pub text: String,
}

/// The semantic side of a tool's score.
#[napi(object)]
pub struct SemanticExplanation {
    /// Its similarity to the query by the word table (a cosine; for a compound query blended
    /// with its best request's).
    pub similarity: f64,
    /// Its cosine with the query by the transformer; null when the transformer took no part (not
    /// installed, its vectors not yet in place, or a query longer than it reads).
    pub contextual: Either<f64, Null>,
    /// What the similarities add to the score.
    pub part: f64,
}

/// One ranking stage's part of a tool's score.
#[napi(object)]
pub struct StageExplanation {
    /// `lexical`, `semantic`, `table`, `transformer` or `name agreement`.
    pub stage: String,
    /// What the stage adds to the score.
    pub part: f64,
    /// The stage's own signal before it is weighed (the BM25F or fused score, a similarity, a
    /// cosine); null for the rerank.
    pub signal: Either<f64, Null>,
    /// The parts this one is made of (the semantic stage's table and transformer).
    pub parts: Vec<StageExplanation>,
}

impl From<crate::StagePart> for StageExplanation {
    fn from(part: crate::StagePart) -> Self {
        StageExplanation {
            stage: part.stage.name().to_string(),
            part: part.part,
            signal: part.signal.map_or(Either::B(Null), Either::A),
            parts: part.parts.into_iter().map(StageExplanation::from).collect(),
        }
    }
}

/// A query term the explained tool does not contain.
#[napi(object)]
pub struct MissingTerm {
    pub term: String,
    pub query_word: String,
    /// Its idf in this catalog; null when no tool contains it.
    pub idf: Either<f64, Null>,
}

/// One query term found in the explained tool.
#[napi(object)]
pub struct TermExplanation {
    /// The index term (stemmed).
    pub term: String,
    /// The folded query text it came from.
    pub query_word: String,
    /// "word" (the query word's stem), "related" (shares a start with it), "whole" (a whole
    /// identifier), "gram" (a CJK piece), "acronym" (a word of a tool name whose initials the
    /// query word spells) or "gloss" (a word of a CJK word's English gloss, in a hybrid index with
    /// the glossary; `queryWord` is the CJK word).
    pub kind: String,
    pub idf: f64,
    /// Its part of the score.
    pub contribution: f64,
    /// Occurrences in each field of the tool.
    pub fields: FieldCounts,
}

#[napi(object)]
pub struct FieldCounts {
    pub name: u32,
    pub description: u32,
    pub parameter: u32,
    pub schema: u32,
}

impl From<crate::Explanation<'_>> for Explanation {
    fn from(e: crate::Explanation<'_>) -> Self {
        let terms = e
            .terms
            .into_iter()
            .map(|t| TermExplanation {
                kind: match t.kind {
                    Match::Word => "word",
                    Match::Related => "related",
                    Match::Whole => "whole",
                    Match::Gram => "gram",
                    Match::Acronym => "acronym",
                    Match::Gloss => "gloss",
                }
                .to_string(),
                term: t.term,
                query_word: t.query_word,
                idf: round6(t.idf),
                contribution: t.contribution,
                fields: FieldCounts {
                    name: t.fields[0],
                    description: t.fields[1],
                    parameter: t.fields[2],
                    schema: t.fields[3],
                },
            })
            .collect();
        Explanation {
            name: e.name.to_string(),
            rank: e.rank.map_or(Either::B(Null), |r| Either::A(r as u32)),
            score: e.score,
            form: e.form.name().to_string(),
            exact: e.exact,
            fused: e.fused,
            terms,
            missing: e
                .missing
                .into_iter()
                .map(|m| MissingTerm {
                    term: m.term,
                    query_word: m.query_word,
                    idf: m.idf.map_or(Either::B(Null), Either::A),
                })
                .collect(),
            matches: e.matches as u32,
            semantic: e.semantic.map_or(Either::B(Null), |s| {
                Either::A(SemanticExplanation {
                    similarity: s.similarity,
                    contextual: s.contextual.map_or(Either::B(Null), Either::A),
                    part: s.part,
                })
            }),
            stages: e.stages.into_iter().map(StageExplanation::from).collect(),
            text: e.text.to_string(),
        }
    }
}
