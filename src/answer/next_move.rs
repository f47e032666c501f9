//! What a search that loads nothing offers the model instead of a bare `[]`: the page filled by
//! meaning as candidates (in a hybrid index, the nearest tools by meaning when nothing matched)
//! and the names spelled like the query (`hints::nearest`: a misspelled word still lands near
//! the tool it meant). A `select:` query asked for names it did not find: it is offered neither.

use crate::hints::nearest;
use crate::index::Index;
use crate::search::{ranked_text, Hit, Ranking, Searcher};

/// The next move of a search that loads nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct NextMove<'i> {
    /// Whether any tool matched the query (too weakly to load); else none did.
    pub matched: bool,
    /// The page filled by meaning, as `Searcher::search_filled` gives it.
    pub candidates: Vec<Hit<'i>>,
    /// Names spelled like the query, leaving out the exclusions and the candidates.
    pub nearest: Vec<&'i str>,
}

/// The candidates and the names spelled like `query` (at most `count`) of a query that ranks:
/// none of them in `exclude`, and no name both a candidate and a nearest name.
pub(super) fn offers<'i>(
    index: &'i Index,
    ranking: &Ranking<'i>,
    query: &str,
    limit: usize,
    exclude: &[&str],
    count: usize,
) -> (Vec<Hit<'i>>, Vec<&'i str>) {
    let candidates = Searcher::new(index).hits(ranking.page(limit, exclude, true));
    let shown: Vec<&str> = exclude.iter().copied().chain(candidates.iter().map(|hit| hit.name)).collect();
    let names = nearest(ranked_text(query), index.names(), &shown, count);
    (candidates, names)
}
