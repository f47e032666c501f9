//! Arguments read from JavaScript values, each bounded before anything is allocated from it.
//!
//! napi's own conversions size their allocation by what JavaScript hands them: a `Vec<String>`
//! from an array reserves a slot per element of its length (a sparse array of length 2**32 - 1
//! asked for 103 GB), a `String` copies a text of any length. So the exports take plain
//! JavaScript values and read them here, in this order: the type, then the length JavaScript
//! reports without reading anything (an array's length, a string's UTF-16 code units), checked
//! against its bound in `limits.rs`, then the UTF-8 length, and only then the value itself.

use napi::bindgen_prelude::{Array, JsObjectValue, Object, Unknown};
use napi::{JsString, JsValue, Result, ValueType};

use napi_derive::napi;

use super::{invalid, SearchOptions};
use crate::limits::{self, TextLimit, TOOL_NAME};

/// How an index ranks, as `fromJson`'s options ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ranking {
    Lexical,
    Hybrid,
}

impl Ranking {
    pub(super) fn name(self) -> &'static str {
        match self {
            Ranking::Lexical => "lexical",
            Ranking::Hybrid => "hybrid",
        }
    }
}

/// `fromJson`'s options: the ranking asked for, or `None` for the default.
pub(super) fn index_options(options: Option<Unknown<'_>>) -> Result<Option<Ranking>> {
    let Some(options) = object(options)? else { return Ok(None) };
    let ranking: Unknown = options.get_named_property("ranking")?;
    if matches!(ranking.get_type()?, ValueType::Undefined | ValueType::Null) {
        return Ok(None);
    }
    let name = string(ranking, "ranking").map_err(|_| {
        invalid(format!("ranking must be 'lexical' or 'hybrid', got {}", kind(ranking).unwrap_or("a value")))
    })?;
    // Longer than either name: not one of them, and not worth reading.
    if name.utf16_len()? > 8 {
        return Err(invalid("ranking must be 'lexical' or 'hybrid'"));
    }
    match read(ranking)?.as_str() {
        "lexical" => Ok(Some(Ranking::Lexical)),
        "hybrid" => Ok(Some(Ranking::Hybrid)),
        other => Err(invalid(format!("ranking must be 'lexical' or 'hybrid', got {other:?}"))),
    }
}

/// A path (a model file's, the vector cache's directory) within `limit`, or `None` for
/// null/undefined.
pub(super) fn path(value: Option<Unknown<'_>>, limit: TextLimit) -> Result<Option<String>> {
    match value {
        Some(value) if !matches!(value.get_type()?, ValueType::Undefined | ValueType::Null) => {
            Ok(Some(text(value, limit)?))
        }
        _ => Ok(None),
    }
}

/// A text argument, read once it is known to fit `limit`.
pub(super) fn text(value: Unknown<'_>, limit: TextLimit) -> Result<String> {
    let string = string(value, limit.name)?;
    limit.check_units(string.utf16_len()?).map_err(invalid)?;
    limit.check_bytes(string.utf8_len()?).map_err(invalid)?;
    read(value)
}

/// A query, read once it is known to be short enough, then counted exactly.
pub(super) fn query(value: Unknown<'_>) -> Result<String> {
    let string = string(value, "query")?;
    limits::check_query_units(string.utf16_len()?).map_err(invalid)?;
    let query = read(value)?;
    limits::check_query(&query).map_err(invalid)?;
    Ok(query)
}

/// The options of `answerAsync`.
// Read field by field with bounds (below), as `SearchOptions` is.
#[napi(object, object_from_js = false, object_to_js = false)]
pub struct AnswerOptions {
    /// Names to leave out of the matches, the candidates and the nearest names, as in `search`.
    pub exclude: Option<Vec<String>>,
    /// Read the next move (`candidates`, `nearest`) when there is no match, or the first match's
    /// strength is below this (0: only when there is none); never for a `select:` query. Omitted,
    /// no next move is read.
    pub weak_below: Option<f64>,
    /// Nearest names the next move lists, at most (default 5).
    pub nearest: Option<u32>,
}

/// The options of `decideAsync`.
// Read field by field with bounds (below), as `SearchOptions` is.
#[napi(object, object_from_js = false, object_to_js = false)]
pub struct DecideOptions {
    /// Names the Agent can already call: left out of the ranked hits, the candidates and the
    /// nearest names (a tool the query names exactly still comes first), as in `search`.
    pub exclude: Option<Vec<String>>,
    /// The weak-match floor: the strength (`matchStrength`) the best match needs for the search
    /// to load anything.
    pub floor: f64,
    /// The leader cut: the least share of the best hit's score a loaded hit has (0: every hit of
    /// a confident search loads).
    pub leader_share: f64,
    /// Nearest names the next move lists, at most (default 5).
    pub nearest: Option<u32>,
}

/// The options of `strongHitsAsync`.
// Read field by field with bounds (below), as `SearchOptions` is.
#[napi(object, object_from_js = false, object_to_js = false)]
pub struct StrongHitsOptions {
    /// Names the Agent can already call, as in `search`.
    pub exclude: Option<Vec<String>>,
    /// The strength (`matchStrength`) each loaded match reaches.
    pub floor: f64,
}

/// `answerAsync`'s options (none given for `undefined` or `null`).
pub(super) fn answer_options(options: Option<Unknown<'_>>) -> Result<AnswerOptions> {
    let Some(options) = object(options)? else {
        return Ok(AnswerOptions { exclude: None, weak_below: None, nearest: None });
    };
    Ok(AnswerOptions {
        exclude: exclusions(options.get_named_property("exclude")?)?,
        weak_below: number(&options, "weakBelow")?,
        nearest: names(&options)?,
    })
}

/// `decideAsync`'s options: `floor` and `leaderShare` are required.
pub(super) fn decide_options(options: Option<Unknown<'_>>) -> Result<DecideOptions> {
    let options = required_object(options)?;
    Ok(DecideOptions {
        exclude: exclusions(options.get_named_property("exclude")?)?,
        floor: required_number(&options, "floor")?,
        leader_share: required_number(&options, "leaderShare")?,
        nearest: names(&options)?,
    })
}

/// `strongHitsAsync`'s options: `floor` is required.
pub(super) fn strong_hits_options(options: Option<Unknown<'_>>) -> Result<StrongHitsOptions> {
    let options = required_object(options)?;
    Ok(StrongHitsOptions {
        exclude: exclusions(options.get_named_property("exclude")?)?,
        floor: required_number(&options, "floor")?,
    })
}

/// An options object that must be there, since its `floor` is.
fn required_object(options: Option<Unknown<'_>>) -> Result<Object<'_>> {
    object(options)?.ok_or_else(|| invalid("options must be an object with a floor, got none"))
}

/// A number field that must be there.
fn required_number(options: &Object<'_>, field: &str) -> Result<f64> {
    number(options, field)?.ok_or_else(|| invalid(format!("{field} must be a number, got none")))
}

/// An optional number field (`None` for `undefined` or `null`); NaN is refused.
fn number(options: &Object<'_>, field: &str) -> Result<Option<f64>> {
    let value: Unknown = options.get_named_property(field)?;
    match value.get_type()? {
        ValueType::Undefined | ValueType::Null => Ok(None),
        ValueType::Number => match value.coerce_to_number()?.get_double()? {
            number if number.is_nan() => Err(invalid(format!("{field} must be a number, got NaN"))),
            number => Ok(Some(number)),
        },
        _ => Err(invalid(format!("{field} must be a number, got {}", kind(value)?))),
    }
}

/// The optional `nearest` field: how many names, at most.
fn names(options: &Object<'_>) -> Result<Option<u32>> {
    let nearest: Unknown = options.get_named_property("nearest")?;
    let nearest = match nearest.get_type()? {
        ValueType::Undefined | ValueType::Null => None,
        ValueType::Number => Some(
            limits::result_count(nearest.coerce_to_number()?.get_double()?)
                .map_err(|_| invalid("nearest must be a whole number of names (0 or more)"))?,
        ),
        _ => return Err(invalid(format!("nearest must be a whole number of names, got {}", kind(nearest)?))),
    };
    // More names than an index holds is "all of them".
    Ok(nearest.map(|n| n.min(u32::MAX as usize) as u32))
}

/// An options object; `None` for `undefined` or `null`.
fn object(options: Option<Unknown<'_>>) -> Result<Option<Object<'_>>> {
    let Some(options) = options else { return Ok(None) };
    match options.get_type()? {
        ValueType::Undefined | ValueType::Null => Ok(None),
        // SAFETY: the value was just checked to be an object.
        ValueType::Object => Ok(Some(unsafe { options.cast()? })),
        _ => Err(invalid(format!("options must be an object, got {}", kind(options)?))),
    }
}

/// A search's options (`undefined` or `null` options, or fields: none given).
pub(super) fn search_options(options: Option<Unknown<'_>>) -> Result<SearchOptions> {
    let Some(options) = object(options)? else { return Ok(SearchOptions { exclude: None, fill: None }) };
    let fill = options.get_named_property::<Unknown>("fill")?;
    let fill = match fill.get_type()? {
        ValueType::Undefined | ValueType::Null => None,
        ValueType::Boolean => Some(fill.coerce_to_bool()?),
        _ => return Err(invalid(format!("fill must be a boolean, got {}", kind(fill)?))),
    };
    Ok(SearchOptions { exclude: exclusions(options.get_named_property("exclude")?)?, fill })
}

/// The `exclude` list of a search's options, read within its bounds.
fn exclusions(list: Unknown<'_>) -> Result<Option<Vec<String>>> {
    if matches!(list.get_type()?, ValueType::Undefined | ValueType::Null) {
        return Ok(None);
    }
    if !list.is_array()? {
        return Err(invalid(format!("exclude must be an array of tool names, got {}", kind(list)?)));
    }
    // SAFETY: the value was just checked to be an array.
    let list: Array = unsafe { list.cast()? };
    limits::check_exclusions(list.len() as usize).map_err(invalid)?;
    let mut names = Vec::with_capacity(list.len() as usize);
    for at in 0..list.len() {
        let entry: Unknown = list.get(at)?.ok_or_else(|| invalid(format!("exclude[{at}] could not be read")))?;
        names.push(text(entry, TOOL_NAME).map_err(|error| invalid(format!("exclude[{at}]: {}", error.reason)))?);
    }
    Ok(Some(names))
}

/// `value` as a string, or an error naming what it is instead.
fn string<'a>(value: Unknown<'a>, name: &str) -> Result<JsString<'a>> {
    if value.get_type()? != ValueType::String {
        return Err(invalid(format!("{name} must be a string, got {}", kind(value)?)));
    }
    // SAFETY: the value was just checked to be a string.
    unsafe { value.cast() }
}

/// The text of a string whose length has been checked.
fn read(value: Unknown<'_>) -> Result<String> {
    // SAFETY: callers pass only values `string` accepted.
    unsafe { value.cast::<String>() }
}

/// What a value is, for an error message, as `typeof` would say (and `null` as `null`).
fn kind(value: Unknown<'_>) -> Result<&'static str> {
    Ok(match value.get_type()? {
        ValueType::Undefined => "undefined",
        ValueType::Null => "null",
        ValueType::Boolean => "a boolean",
        ValueType::Number => "a number",
        ValueType::String => "a string",
        ValueType::Symbol => "a symbol",
        ValueType::Object if value.is_array()? => "an array",
        ValueType::Object => "an object",
        ValueType::Function => "a function",
        ValueType::External => "an external value",
        // A bigint, which Node-API 4 does not name.
        _ => "a value of another type",
    })
}
