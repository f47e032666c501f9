//! What one `tool_search` call answers, decided once from one ranking of its query: the query's
//! form (`search::query`), the hits that load, the hits only shown, and, when nothing fits, the
//! model's next move. The plugin passes in its two parameters, the weak-match floor and the
//! leader share, renders the decision into its payload and commits it; it decides nothing again.
//!
//! The rules, in order:
//! - `discover:` loads nothing: it shows what the rest of its query finds.
//! - `select:` loads every tool it names: it asks for them by name, so no score has a say.
//! - A query that is one tool's exact name (`Ranking::is_exact`) loads that tool alone and shows
//!   the other hits: it asks for one tool.
//! - Otherwise nothing loads unless the best match is as strong as the floor (`hints::strength`):
//!   below it the matches share only incidental words with the query. A confident search loads
//!   its leaders, the hits that score at least the leader share of the best one, and shows the
//!   rest, which the model can still load by name.
//! - A search that loads and shows nothing gives the next move (`next_move`).
//!
//! A prefetch is asked by nobody ([`Load::EachStrong`]): each match as strong as the floor loads
//! on its own, nothing is shown, and no next move is read.

mod next_move;
mod reads;

use std::fmt;

pub use next_move::NextMove;
pub use reads::{answer, Answer, NextMoveRule};

use crate::contract::TOOL_SEARCH_NAME;
use crate::hints::strength;
use crate::index::{DocId, Index};
use crate::search::{discovered, Form, Hit, Ranking, Searcher, StrengthSignals};

/// How the hits of a query that ranks (not `select:`, not `discover:`) load.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Load {
    /// A search the model made: when the best match is as strong as the floor, the hits that score
    /// at least `share` of the best hit's score load (0: every hit) and the rest are shown; when
    /// nothing loads, the next move lists at most `nearest` names spelled like the query.
    Leaders { share: f64, nearest: usize },
    /// A load nobody asked for (a prefetch): each hit as strong as the floor.
    EachStrong,
}

/// The parameters of a decision.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rules {
    /// The strength (`hints::match_strength`) a match needs to load.
    pub floor: f64,
    pub load: Load,
}

/// What one `tool_search` call (or one prefetch) does (see the module's documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct Decision<'i> {
    pub form: Form,
    /// The hits that load, best first.
    pub loaded: Vec<Hit<'i>>,
    /// The hits shown but not loaded, best first: below the leader cut, beside an exact name, or
    /// every match of a `discover:` query.
    pub shown: Vec<Hit<'i>>,
    /// For a search that loads and shows nothing.
    pub next_move: Option<NextMove<'i>>,
}

/// A query `tool_search` refuses: `discover:` with nothing after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmptyDiscover;

impl fmt::Display for EmptyDiscover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{TOOL_SEARCH_NAME}: discover: needs a query after it, for example \"discover:github issue\"")
    }
}

impl std::error::Error for EmptyDiscover {}

/// Whether `tool_search` takes `query` as it is written (`explain` applies the same check).
pub fn check(query: &str) -> Result<(), EmptyDiscover> {
    match discovered(query) {
        Some("") => Err(EmptyDiscover),
        _ => Ok(()),
    }
}

/// The decision for `query` over at most `limit` matches, leaving `exclude` out of the ranked
/// part (a tool the query names is never left out), by `rules`.
pub fn decide<'i>(
    index: &'i Index,
    query: &str,
    limit: usize,
    exclude: &[&str],
    rules: Rules,
) -> Result<Decision<'i>, EmptyDiscover> {
    check(query)?;
    let ranking = Ranking::new(index, query);
    let page = ranking.page(limit, exclude, false);
    let form = ranking.form();
    let signals = StrengthSignals::new(index, &ranking, query);
    let strong = |doc: DocId| reaches(strength(index, signals.of(doc)), rules.floor);
    let exact_first = page.first().is_some_and(|&(_, doc)| ranking.is_exact(doc));
    let matched = !page.is_empty();
    let (loaded, shown) = if form == Form::Discover {
        // It shows what it finds; a prefetch, which shows nothing, loads nothing for it.
        match rules.load {
            Load::Leaders { .. } => (Vec::new(), page),
            Load::EachStrong => (Vec::new(), Vec::new()),
        }
    } else if ranking.names_tools() {
        (page, Vec::new())
    } else {
        match rules.load {
            Load::EachStrong => (split(page, |rank, _, doc| (rank == 0 && exact_first) || strong(doc)).0, Vec::new()),
            Load::Leaders { .. } if exact_first => split(page, |rank, _, _| rank == 0),
            Load::Leaders { share, .. } if page.first().is_some_and(|&(_, doc)| strong(doc)) => {
                let best = page[0].0;
                split(page, |rank, score, _| rank == 0 || score >= share * best)
            }
            Load::Leaders { .. } => (Vec::new(), Vec::new()),
        }
    };
    let next_move = match rules.load {
        Load::Leaders { nearest, .. } if loaded.is_empty() && shown.is_empty() => {
            let (candidates, nearest) = if ranking.names_tools() {
                (Vec::new(), Vec::new())
            } else {
                next_move::offers(index, &ranking, query, limit, exclude, nearest)
            };
            Some(NextMove { matched, candidates, nearest })
        }
        _ => None,
    };
    let searcher = Searcher::new(index);
    Ok(Decision { form, loaded: searcher.hits(loaded), shown: searcher.hits(shown), next_move })
}

/// The weak-match rule: whether a match of `strength` is strong enough to load.
fn reaches(strength: f64, floor: f64) -> bool {
    strength >= floor
}

/// A page of `(score, doc)` hits, best first.
type Page = Vec<(f64, DocId)>;

/// The hits of `page` that `load` takes (by rank, score and document) and the rest, each in rank
/// order.
fn split(page: Page, mut load: impl FnMut(usize, f64, DocId) -> bool) -> (Page, Page) {
    let (loaded, shown): (Vec<_>, Vec<_>) =
        page.into_iter().enumerate().partition(|&(rank, (score, doc))| load(rank, score, doc));
    let hits = |ranked: Vec<(usize, (f64, DocId))>| ranked.into_iter().map(|(_, hit)| hit).collect();
    (hits(loaded), hits(shown))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match_strength;

    /// The catalog this module's tests decide over (`reads` reads it too).
    pub(super) const CATALOG: &str = r#"[
        {"name": "get_weather", "description": "Weather forecast for a city."},
        {"name": "weather_alerts", "description": "Severe weather alerts."},
        {"name": "get_stock", "description": "Price of a stock."},
        {"name": "get_news", "description": "Latest news."},
        {"name": "get_time", "description": "The time now."},
        {"name": "send_mail", "description": "Send an email."}
    ]"#;

    const FLOOR: f64 = 0.6;
    const SEARCH: Rules = Rules { floor: FLOOR, load: Load::Leaders { share: 0.0, nearest: 5 } };
    const PREFETCH: Rules = Rules { floor: FLOOR, load: Load::EachStrong };

    fn names<'a>(hits: &[Hit<'a>]) -> Vec<&'a str> {
        hits.iter().map(|hit| hit.name).collect()
    }

    fn index() -> Index {
        Index::from_catalog(CATALOG).unwrap()
    }

    #[test]
    fn a_confident_search_loads_its_leaders_and_shows_the_rest() {
        let index = index();
        let query = "weather forecast";
        let page = Searcher::new(&index).search(query, 5, &[]);
        assert!(page.len() > 1 && match_strength(&index, query, page[0].name) >= FLOOR, "{page:?}");
        let all = decide(&index, query, 5, &[], SEARCH).unwrap();
        assert_eq!((all.form, &all.loaded, all.shown.len(), &all.next_move), (Form::Plain, &page, 0, &None));
        let share = (page[1].score / page[0].score + 1.0) / 2.0;
        let cut = decide(&index, query, 5, &[], Rules { load: Load::Leaders { share, nearest: 5 }, ..SEARCH }).unwrap();
        assert_eq!((names(&cut.loaded), names(&cut.shown)), (names(&page[..1]), names(&page[1..])));
    }

    #[test]
    fn a_weak_or_empty_search_loads_nothing_and_gives_the_next_move() {
        let index = index();
        let searcher = Searcher::new(&index);
        let weak = decide(&index, "get", 3, &["get_stock"], SEARCH).unwrap();
        assert!(match_strength(&index, "get", searcher.search("get", 1, &["get_stock"])[0].name) < FLOOR);
        assert!(weak.loaded.is_empty() && weak.shown.is_empty());
        let next = weak.next_move.unwrap();
        assert!(next.matched);
        assert_eq!(next.candidates, searcher.search_filled("get", 3, &["get_stock"]));
        assert!(!next.nearest.iter().any(|name| *name == "get_stock" || names(&next.candidates).contains(name)));
        let none = decide(&index, "wether", 3, &[], SEARCH).unwrap().next_move.unwrap();
        assert!(!none.matched);
        assert_eq!(none.nearest, ["get_weather", "weather_alerts"]);
    }

    #[test]
    fn an_exact_name_loads_alone_however_weak_and_select_loads_what_it_names() {
        let gets = Index::from_catalog(r#"[{"name": "get_a"}, {"name": "get"}, {"name": "get_b"}]"#).unwrap();
        assert!(match_strength(&gets, "get", "get") < FLOOR);
        let exact = decide(&gets, "get", 3, &["get"], SEARCH).unwrap();
        assert_eq!(names(&exact.loaded), ["get"], "named exactly, even when weak and excluded");
        assert_eq!(names(&exact.shown), ["get_a", "get_b"]);
        let index = index();
        let named = decide(&index, "select:send_mail,nope,get_time", 3, &[], SEARCH).unwrap();
        assert_eq!(
            (named.form, names(&named.loaded), named.next_move),
            (Form::Select, vec!["send_mail", "get_time"], None)
        );
        let unknown = decide(&index, "select:nope", 3, &[], SEARCH).unwrap().next_move.unwrap();
        assert_eq!(unknown, NextMove { matched: false, candidates: Vec::new(), nearest: Vec::new() }, "names only");
    }

    #[test]
    fn discover_shows_what_its_rest_finds_and_loads_nothing() {
        let index = index();
        let shown = decide(&index, "discover: weather forecast", 3, &[], SEARCH).unwrap();
        assert_eq!(shown.form, Form::Discover);
        assert_eq!((shown.loaded.len(), &shown.shown), (0, &Searcher::new(&index).search("weather forecast", 3, &[])));
        assert!(shown.next_move.is_none());
        let named = decide(&index, "DISCOVER:select:get_time", 3, &[], SEARCH).unwrap();
        assert_eq!((names(&named.loaded), names(&named.shown)), (vec![], vec!["get_time"]));
        let none = decide(&index, "discover:wether", 3, &[], SEARCH).unwrap().next_move.unwrap();
        assert_eq!(none.nearest, ["get_weather", "weather_alerts"]);
        assert_eq!(decide(&index, "discover:  ", 3, &[], SEARCH), Err(EmptyDiscover));
        assert!(EmptyDiscover.to_string().starts_with("tool_search: discover: needs a query after it"));
        assert!(decide(&index, "discover: weather", 3, &[], PREFETCH).unwrap().loaded.is_empty());
    }

    #[test]
    fn a_prefetch_loads_each_hit_as_strong_as_the_floor() {
        let index = index();
        let searcher = Searcher::new(&index);
        for query in ["weather forecast", "get", "get_news", "severe weather alerts for get_time"] {
            let strong: Vec<&str> = searcher
                .search(query, 5, &[])
                .iter()
                .enumerate()
                .filter(|(at, hit)| (*at == 0 && hit.name == query) || match_strength(&index, query, hit.name) >= FLOOR)
                .map(|(_, hit)| hit.name)
                .collect();
            let decided = decide(&index, query, 5, &[], PREFETCH).unwrap();
            assert_eq!((names(&decided.loaded), decided.shown.len(), decided.next_move), (strong, 0, None), "{query}");
        }
        assert_eq!(
            names(&decide(&index, "select:get_time,get_news", 5, &[], PREFETCH).unwrap().loaded),
            ["get_time", "get_news"]
        );
    }
}
