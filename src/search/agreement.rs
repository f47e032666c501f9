//! The name-agreement rerank stage: within a family of leading tools that share the query's
//! object, the one whose name's other words are nearest the rest of the query gains a little.
//!
//! Tools often come in families that share an object and differ by their action
//! (`get_pull_request`, `list_pull_requests`, `create_pull_request`): every similarity of whole
//! texts is then dominated by the shared words, and the word that tells the members apart
//! ("open" a pull request) is a small part of it. So among the best-scoring tools, the leaders,
//! those whose names hold the query word most of them hold are taken as a family; the words every
//! member's name holds are set aside on both sides, and so are the words the tool's name and the
//! query share (the lexical score has counted those). What is left of the name is compared with
//! what is left of the query word by word in the static table, each name word by its nearest
//! query word, and the mean placed on the family's own scale (the best member 1; a name with
//! nothing left, wholly matched or shared, 1 too; none gains when no member's other words come
//! near the query's at all). The rule is for a request that is an action
//! and its object, so the weight is divided by the square of the query's words left: a long
//! task description, whose many words some name word is always near, is left to the rest of the
//! ranking. `Params::agreement_weight` 0 turns the stage off.

use crate::analysis::{distinct_words, name_words, Analyzer, Word};
use crate::index::{DocId, Index};
use crate::semantic::{cosine, Embedder, Model};
use crate::work::{self, Step};

use super::hybrid::Blend;
use super::scores::Scores;

/// Per tool, what its name's agreement with the query adds to its semantic part: 0 outside the
/// family of leaders it is computed for. `blend` is the semantic stage before any rerank.
pub(crate) fn name_agreement(index: &Index, model: &Model, text: &str, blend: &Blend, lexical: &Scores) -> Vec<f64> {
    let params = index.params();
    let mut agreement = vec![0.0; blend.len()];
    if params.agreement_weight <= 0.0 {
        return agreement;
    }
    let mut analyzer = Analyzer::new();
    let mut query = vectors(model, distinct_words(&mut analyzer, text, usize::MAX));
    query.retain(|(_, vector)| vector.is_some());
    if query.is_empty() {
        return agreement;
    }
    // The leaders, as the blend would rank them without this stage (ties by name).
    let mut leaders: Vec<(f64, DocId)> = (0..blend.len() as DocId)
        .filter_map(|doc| {
            let score = lexical.get(doc);
            blend.matches(doc, score, &[]).then(|| (blend.score(doc, score), doc))
        })
        .collect();
    let name = |doc: DocId| index.doc(doc).name();
    let order = |a: &(f64, DocId), b: &(f64, DocId)| {
        b.0.total_cmp(&a.0).then_with(|| index.name_rank(a.1).cmp(&index.name_rank(b.1)))
    };
    // Only the first few are wanted: pick them out, then order those (names are unique, so the
    // order is total and the pick is the sorted list's head).
    if leaders.len() > params.agreement_leaders && params.agreement_leaders > 0 {
        leaders.select_nth_unstable_by(params.agreement_leaders - 1, order);
    }
    leaders.truncate(params.agreement_leaders);
    leaders.sort_unstable_by(order);
    // Each leader's name as the name stages read it (see `limits::NAME_READ_BYTES`), so what
    // follows compares at most `MAX_NAME_WORDS` words of each with the query's.
    let mut family: Vec<(DocId, Vec<Known>)> =
        leaders.iter().map(|&(_, doc)| (doc, vectors(model, name_words(&mut analyzer, name(doc))))).collect();
    let holds = |words: &[Known], term: &str| words.iter().any(|(held, _)| held == term);
    // The family's word: of the query words the first leader's name holds, the one most leaders'
    // names hold, when more than half of them do.
    let Some((_, first)) = family.first() else { return agreement };
    let holding = |term: &str| family.iter().filter(|(_, words)| holds(words, term)).count();
    let Some((held, word)) =
        query.iter().filter(|(term, _)| holds(first, term)).map(|(term, _)| (holding(term), term.clone())).max()
    else {
        return agreement;
    };
    if 2 * held <= family.len() {
        return agreement;
    }
    family.retain(|(_, words)| holds(words, &word));
    let shared = |term: &str| family.iter().all(|(_, words)| holds(words, term));
    let asked: Vec<&Known> = query.iter().filter(|(term, _)| !shared(term)).collect();
    if asked.is_empty() {
        return agreement;
    }
    let values: Vec<Option<f64>> = family
        .iter()
        .map(|(_, words)| {
            let rest: Vec<Option<&[i16]>> = words
                .iter()
                .filter(|(term, _)| !shared(term) && !holds(&query, term))
                .map(|(_, v)| v.as_deref())
                .collect();
            let wanted: Vec<&[i16]> =
                asked.iter().filter(|(term, _)| !holds(words, term)).filter_map(|(_, v)| v.as_deref()).collect();
            if rest.is_empty() {
                return None;
            }
            // A word the table does not know agrees with nothing.
            let nearest = |word: Option<&[i16]>| {
                word.map_or(0.0, |word| {
                    work::add(Step::WordPair, wanted.len());
                    wanted.iter().map(|other| cosine(word, other)).fold(0.0, f64::max)
                })
            };
            Some(rest.iter().map(|&word| nearest(word)).sum::<f64>() / rest.len() as f64)
        })
        .collect();
    let best = values.iter().flatten().copied().fold(0.0, f64::max);
    // No member's other words come near what the query asks: the names say nothing about it, and
    // a member whose name has nothing left must not gain by the others' silence.
    if best <= 0.0 {
        return agreement;
    }
    let weight = params.agreement_weight / (asked.len() as f64).powi(2);
    for ((doc, _), value) in family.iter().zip(values) {
        agreement[*doc as usize] = match value {
            None => weight,
            Some(value) => weight * value / best,
        };
    }
    agreement
}

/// A term and its unit vector by the static table (`None`: a term the table does not know).
type Known = (String, Option<Vec<i16>>);

/// Each word's term, with its vector when the table knows it.
fn vectors(model: &Model, words: Vec<Word>) -> Vec<Known> {
    words
        .into_iter()
        .map(|Word { term, .. }| {
            let mut embedder = Embedder::new(model);
            let mut vector = Vec::with_capacity(model.dims());
            let known = embedder.add_term(&term) && embedder.finish(&mut vector);
            (term, known.then_some(vector))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::semantic::Model;
    use crate::{Index, Params, Searcher};

    /// "get" and "city" point apart: no name word of the family below is near what the query asks.
    fn model() -> Arc<Model> {
        let rows = [("weather", 100, vec![120, 0, 0]), ("get", 60, vec![0, 100, 0]), ("citi", 100, vec![0, 0, 120])];
        Arc::new(Model::from_bytes(crate::semantic::encode(3, &rows)).unwrap())
    }

    const CATALOG: &str = r#"[
        {"name": "get_weather", "description": "Weather for a city."},
        {"name": "weather", "description": "A tool called weather."}
    ]"#;

    fn scores(agreement_weight: f64) -> Vec<(String, f64)> {
        let params = Params { agreement_weight, ..Params::default() };
        let index = Index::from_catalog_ranked(CATALOG, params, Some(model().into())).unwrap();
        Searcher::new(&index)
            .search("weather in the city", 2, &[])
            .into_iter()
            .map(|hit| (hit.name.to_string(), hit.score))
            .collect()
    }

    #[test]
    fn a_family_whose_other_name_words_say_nothing_of_the_query_is_left_as_it_was() {
        // "city" is asked, get_weather's "get" is nowhere near it, and weather's name has nothing
        // left: the stage has no evidence, so neither gains, and the words decide.
        let with = scores(Params::default().agreement_weight);
        assert_eq!(with, scores(0.0));
        assert_eq!(with[0].0, "get_weather");
    }
}
