//! The reads `answerAsync` gives, for a caller of the JavaScript API that looks at the parts of
//! an answer (the benchmark's worst-case timing does): the matches, each one's strength and, when
//! asked, the next move, from one ranking of the query. The plugin asks for the decision instead
//! (`decide`); both read the same rules.

use super::next_move::{self, NextMove};
use super::reaches;
use crate::hints::strength;
use crate::index::Index;
use crate::search::{Hit, Ranking, Searcher, StrengthSignals};

/// One answer's reads (see the module's documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct Answer<'i> {
    /// The matches, best first, as `Searcher::search` gives them.
    pub hits: Vec<Hit<'i>>,
    /// Each hit's strength, as `hints::match_strength` gives it.
    pub strengths: Vec<f64>,
    /// When there is no hit, or the first is weaker than the floor asked for.
    pub next_move: Option<NextMove<'i>>,
}

/// What an answer asks for besides the query's matches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NextMoveRule {
    /// The next move is read when there is no hit, or the first hit's strength does not reach
    /// this; never for a query that names its tools (`select:`).
    pub weak_below: f64,
    /// Nearest names, at most.
    pub nearest: usize,
}

/// The answer to `query`: at most `limit` matches not in `exclude` with their strengths, and the
/// next move when `rule` asks for it (see [`NextMoveRule`]).
pub fn answer<'i>(
    index: &'i Index,
    query: &str,
    limit: usize,
    exclude: &[&str],
    rule: Option<NextMoveRule>,
) -> Answer<'i> {
    let ranking = Ranking::new(index, query);
    let page = ranking.page(limit, exclude, false);
    let signals = StrengthSignals::new(index, &ranking, query);
    let strengths = page.iter().map(|&(_, doc)| strength(index, signals.of(doc))).collect::<Vec<_>>();
    let hits = Searcher::new(index).hits(page);
    let weak = |rule: &NextMoveRule| strengths.first().is_none_or(|&first| !reaches(first, rule.weak_below));
    let next_move = rule.filter(|rule| weak(rule) && !ranking.names_tools()).map(|rule| {
        let (candidates, nearest) = next_move::offers(index, &ranking, query, limit, exclude, rule.nearest);
        NextMove { matched: !hits.is_empty(), candidates, nearest }
    });
    Answer { hits, strengths, next_move }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::tests::CATALOG;
    use crate::{match_strength, nearest};

    const RULE: NextMoveRule = NextMoveRule { weak_below: 0.6, nearest: 5 };

    #[test]
    fn an_answer_reads_what_the_separate_calls_read() {
        let index = Index::from_catalog(CATALOG).unwrap();
        let searcher = Searcher::new(&index);
        for (query, exclude) in
            [("weather forecast", vec![]), ("get", vec!["get_stock"]), ("wether", vec![]), ("select:send_mail", vec![])]
        {
            let answered = answer(&index, query, 3, &exclude, Some(RULE));
            assert_eq!(answered.hits, searcher.search(query, 3, &exclude), "{query}");
            let strengths: Vec<f64> = answered.hits.iter().map(|hit| match_strength(&index, query, hit.name)).collect();
            assert_eq!(answered.strengths, strengths, "{query}");
            let Some(next) = answered.next_move else { continue };
            assert_eq!(next.candidates, searcher.search_filled(query, 3, &exclude), "{query}");
            let mut shown = exclude.clone();
            shown.extend(next.candidates.iter().map(|hit| hit.name));
            assert_eq!(next.nearest, nearest(query, index.names(), &shown, 5), "{query}");
        }
    }

    #[test]
    fn the_next_move_is_read_only_for_a_weak_or_empty_answer() {
        let index = Index::from_catalog(CATALOG).unwrap();
        assert!(answer(&index, "weather forecast", 3, &[], Some(RULE)).next_move.is_none(), "a strong match");
        assert!(answer(&index, "weather forecast", 3, &[], None).next_move.is_none(), "not asked for");
        let weak = answer(&index, "get", 3, &[], Some(RULE));
        assert!(weak.strengths[0] < RULE.weak_below && weak.next_move.is_some(), "{weak:?}");
        let none = answer(&index, "wether", 3, &[], Some(NextMoveRule { weak_below: 0.0, nearest: 5 }));
        assert!(none.hits.is_empty());
        assert_eq!(none.next_move.unwrap().nearest, ["get_weather", "weather_alerts"]);
        assert!(answer(&index, "select:send_mail", 3, &[], Some(RULE)).next_move.is_none(), "select: names its tools");
    }
}
