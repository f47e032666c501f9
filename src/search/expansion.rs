//! From query text to the index terms it asks for, each with the weight it is scored with: its
//! own terms, index words related to a word by a shared start, and in a hybrid index with the
//! glossary the words of its CJK words' English glosses.

use crate::analysis::{term_of, Analyzer, Piece};
use crate::gloss;
use crate::index::{Index, TermId};
use crate::limits::MAX_RELATED_WORDS;
use crate::work::{self, Step};

/// How a query term relates to the query text it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Match {
    /// The query word's own stem.
    Word,
    /// An index word sharing a start with the query word (see `Params::prefix_weight`).
    Related,
    /// A whole identifier written in the query.
    Whole,
    /// A CJK piece.
    Gram,
    /// A word of a tool name whose initials the query word spells ("pr": pull, request; see
    /// `Params::acronym_weight`).
    Acronym,
    /// A word of the English gloss of a CJK word (see `gloss`), in a hybrid index with the
    /// glossary.
    Gloss,
}

/// An index term a query asks for, with its weight in the score and where it came from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct QueryTerm {
    pub(crate) id: TermId,
    pub(crate) weight: f64,
    pub(crate) kind: Match,
    /// Its position among every term the query text asks for, in the order asked (see
    /// [`query_terms`]); it names the word the term came from.
    pub(crate) at: usize,
}

/// Each index term `text` asks for, once, with the largest weight any of its words gives it and
/// the first word that gives it that weight; `word` hears the folded word behind every term
/// asked for, in order (so the word of a term is the `at`-th one heard). A word repeated in a
/// request counts once: a long request names its subject again and again ("the triangle ... this
/// triangle"), and counting every mention lets that subject outweigh the rest of the request. In
/// term-id order, so that scores add up in the same order
/// on every machine.
pub(crate) fn distinct_terms(
    index: &Index,
    analyzer: &mut Analyzer,
    text: &str,
    mut word: impl FnMut(&str),
) -> Vec<QueryTerm> {
    let mut asked: Vec<QueryTerm> = Vec::new();
    query_terms(index, analyzer, text, |term, from| {
        word(from);
        asked.push(term);
    });
    // By id, heaviest first, earliest first: the first of each id is the one to keep.
    asked.sort_unstable_by(|a, b| a.id.cmp(&b.id).then(b.weight.total_cmp(&a.weight)).then(a.at.cmp(&b.at)));
    asked.dedup_by_key(|term| term.id);
    asked
}

/// Calls `visit` with every index term the query text asks for, as often as it asks, and the
/// folded word it came from: each piece's own term, and for words the index words related to them
/// by prefix; then each term of the glosses of its CJK words, from the CJK word.
fn query_terms(index: &Index, analyzer: &mut Analyzer, text: &str, mut visit: impl FnMut(QueryTerm, &str)) {
    let params = index.params();
    let mut at = 0;
    let mut emit = |id: TermId, weight: f64, kind: Match, word: &str| {
        work::add(Step::QueryTerm, 1);
        visit(QueryTerm { id, weight, kind, at }, word);
        at += 1;
    };
    analyzer.pieces(text, |piece| {
        let Some(term) = term_of(piece) else { return };
        let (kind, word) = match piece {
            Piece::Word(w) => (Match::Word, w),
            Piece::Whole(w) => (Match::Whole, w),
            Piece::Gram(w) => (Match::Gram, w),
        };
        let known = index.term(&term);
        if let Some(id) = known {
            emit(id, 1.0, kind, word);
        }
        if kind == Match::Word && params.prefix_weight > 0.0 {
            for id in related_words(index, &term) {
                emit(id, params.prefix_weight, Match::Related, word);
            }
        }
        // A short word no tool uses is more likely an acronym of words they do use than a typo.
        if kind == Match::Word && known.is_none() && params.acronym_weight > 0.0 && could_be_acronym(word) {
            for &id in index.acronym_words(word) {
                emit(id, params.acronym_weight, Match::Acronym, word);
            }
        }
    });
    let Some(glossary) = index.glossary() else { return };
    let weight = params.gloss_weight;
    gloss::glosses(glossary, text, |cjk, english| {
        analyzer.pieces(english, |piece| {
            if let Some(id) = term_of(piece).and_then(|term| index.term(&term)) {
                emit(id, weight, Match::Gloss, cjk);
            }
        });
    });
}

/// Whether a query word is short enough, and all letters, to be read as an acronym too.
fn could_be_acronym(word: &str) -> bool {
    (2..=crate::index::MAX_ACRONYM).contains(&word.len()) && word.bytes().all(|b| b.is_ascii_alphabetic())
}

/// Index words related to a query word by a shared start: shorter words it begins with, and
/// the first [`MAX_RELATED_WORDS`] longer words that begin with it, in text order. Both must be at
/// least `prefix_min` bytes long.
fn related_words(index: &Index, term: &str) -> Vec<TermId> {
    let min = index.params().prefix_min;
    let mut related = Vec::new();
    if term.len() < min {
        return related;
    }
    for end in (min..term.len()).filter(|&end| term.is_char_boundary(end)) {
        if let Some(id) = index.term(&term[..end]).filter(|&id| index.is_word(id)) {
            related.push(id);
        }
    }
    related.extend(index.words_extending(term).take(MAX_RELATED_WORDS));
    related
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_term_asked_for_twice_keeps_its_largest_weight_and_the_first_word_that_gave_it() {
        let index = Index::from_catalog(
            r#"[{"name": "calc", "description": "calculator of tax"}, {"name": "x", "description": "calculate"}]"#,
        )
        .unwrap();
        let mut words = Vec::new();
        let terms = distinct_terms(&index, &mut Analyzer::new(), "calculate the calc tax, calculate", |w| {
            words.push(w.to_string())
        });
        let calc = index.term("calc").unwrap();
        let found = terms.iter().find(|t| t.id == calc).unwrap();
        assert_eq!(
            (found.weight, found.kind, words[found.at].as_str()),
            (1.0, Match::Word, "calc"),
            "not the related word before it"
        );
        assert!(terms.windows(2).all(|w| w[0].id < w[1].id), "in term-id order, each once");
        let tax = terms.iter().find(|t| t.id == index.term("tax").unwrap()).unwrap();
        assert_eq!(words[tax.at], "tax");
    }
}
