//! The second stage, text analysis: the one place where a string becomes search terms. Documents
//! and queries go through the same steps, so a word matches itself whatever its case, accents,
//! inflection or the identifier style it is written in.
//!
//! - Identifiers are split into words: `getCurrentWeather`, `get_current_weather`,
//!   `get-current-weather`, `Get.CurrentWeather`, `mcp__weather__get_current` and `sha256`
//!   all yield their parts ("get", "current", "weather", "sha", "256"). The whole identifier is
//!   kept too, without its separators ("getcurrentweather"), so a query that spells a name finds
//!   it in any of its styles. An apostrophe or a dot between digits does not split ("don't",
//!   "9.8").
//! - Words are folded (NFKD with combining marks removed, so "café" meets "cafe"; lowercase),
//!   English stop words are dropped and the rest stemmed with Porter2 (Snowball English).
//! - Chinese, Japanese and Korean runs have no spaces to split on; they become overlapping
//!   two-character pieces ("天气预报" gives "天气", "气预", "预报"), so a query shares pieces with a
//!   description that uses the same words. A lone character stays a piece of its own.
//!
//! [`Analyzer`] finds the pieces of a text (identifier splitting is in `split`, the CJK scripts
//! in `scripts`); [`term_of`] makes a piece the term it is indexed under (stop words, stemming).

mod analyzer;
mod fold;
mod scripts;
mod split;
mod stem;
mod stopwords;
mod words;

pub use analyzer::{Analyzer, Piece};
pub use fold::fold_into;
pub(crate) use scripts::is_cjk;
pub use stem::term_of;
pub(crate) use words::{distinct_words, name_words, Word};
