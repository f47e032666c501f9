//! One call's arguments, read and bounded on JavaScript's thread (by `args`), and for a search what
//! runs it: a call read here needs nothing from JavaScript, so it can run on another thread.

use napi::bindgen_prelude::Unknown;
use napi::Result;

use super::args::{self, AnswerOptions, DecideOptions, StrongHitsOptions};
use super::{invalid, SearchHit};
use crate::limits;
use crate::{Index, Load, NextMoveRule, Rules, Searcher};

/// `search`'s and `searchAsync`'s arguments.
pub(super) struct SearchCall {
    query: String,
    limit: usize,
    exclude: Vec<String>,
    fill: bool,
}

impl SearchCall {
    pub(super) fn read(query: Unknown<'_>, limit: f64, options: Option<Unknown<'_>>) -> Result<SearchCall> {
        let query = args::query(query)?;
        let limit = limits::result_count(limit).map_err(invalid)?;
        let options = args::search_options(options)?;
        Ok(SearchCall {
            query,
            limit,
            exclude: options.exclude.unwrap_or_default(),
            fill: options.fill.unwrap_or(true),
        })
    }

    pub(super) fn run(&self, index: &Index) -> Vec<SearchHit> {
        let exclude: Vec<&str> = self.exclude.iter().map(String::as_str).collect();
        let searcher = Searcher::new(index);
        let hits = if self.fill {
            searcher.search_filled(&self.query, self.limit, &exclude)
        } else {
            searcher.search(&self.query, self.limit, &exclude)
        };
        hits.into_iter().map(SearchHit::from).collect()
    }
}

/// `answerAsync`'s arguments.
pub(super) struct AnswerCall {
    pub(super) query: String,
    pub(super) limit: usize,
    pub(super) exclude: Vec<String>,
    /// Whether, and for what, the next move is read: `weakBelow` and `nearest` (default 5).
    pub(super) rule: Option<NextMoveRule>,
}

/// Nearest names an answer's next move lists when its options do not say.
const NEAREST_NAMES: usize = 5;

/// `decideAsync`'s and `strongHitsAsync`'s arguments.
pub(super) struct DecideCall {
    pub(super) query: String,
    pub(super) limit: usize,
    pub(super) exclude: Vec<String>,
    pub(super) rules: Rules,
}

impl DecideCall {
    /// A search's.
    pub(super) fn search(query: Unknown<'_>, limit: f64, options: Option<Unknown<'_>>) -> Result<DecideCall> {
        let (query, limit) = Self::asked(query, limit)?;
        let DecideOptions { exclude, floor, leader_share, nearest } = args::decide_options(options)?;
        let load = Load::Leaders { share: leader_share, nearest: nearest.map_or(NEAREST_NAMES, |n| n as usize) };
        Ok(DecideCall { query, limit, exclude: exclude.unwrap_or_default(), rules: Rules { floor, load } })
    }

    /// A prefetch's.
    pub(super) fn prefetch(query: Unknown<'_>, limit: f64, options: Option<Unknown<'_>>) -> Result<DecideCall> {
        let (query, limit) = Self::asked(query, limit)?;
        let StrongHitsOptions { exclude, floor } = args::strong_hits_options(options)?;
        let rules = Rules { floor, load: Load::EachStrong };
        Ok(DecideCall { query, limit, exclude: exclude.unwrap_or_default(), rules })
    }

    /// The query and the limit, read within their bounds.
    fn asked(query: Unknown<'_>, limit: f64) -> Result<(String, usize)> {
        Ok((args::query(query)?, limits::result_count(limit).map_err(invalid)?))
    }

    /// The decision, or `tool_search`'s error for a query it refuses.
    pub(super) fn run<'i>(&self, index: &'i Index) -> Result<crate::Decision<'i>> {
        let exclude: Vec<&str> = self.exclude.iter().map(String::as_str).collect();
        crate::decide(index, &self.query, self.limit, &exclude, self.rules).map_err(invalid)
    }
}

impl AnswerCall {
    pub(super) fn read(query: Unknown<'_>, limit: f64, options: Option<Unknown<'_>>) -> Result<AnswerCall> {
        let query = args::query(query)?;
        let limit = limits::result_count(limit).map_err(invalid)?;
        let AnswerOptions { exclude, weak_below, nearest } = args::answer_options(options)?;
        let nearest = nearest.map_or(NEAREST_NAMES, |n| n as usize);
        let rule = weak_below.map(|weak_below| NextMoveRule { weak_below, nearest });
        Ok(AnswerCall { query, limit, exclude: exclude.unwrap_or_default(), rule })
    }
}
