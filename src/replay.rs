//! Rebuilding an Agent's selected tools, and the order it last used them in, from its session log.
//!
//! The plugin commits a selection only from a successful `tool_search` result and persists that
//! result's canonical JSON, so replaying the log reproduces the live set. Two event shapes carry
//! such results, under the event names of `plugin/contract.ts` (read from there by `build.rs`):
//! - a model-direct call: `tool/call {callId, name}` then `tool/result {message, error?}`, whose
//!   message up to session format v3 holds the result in a block, `{content: [{type:
//!   "tool-result", toolCallId, isError?, content: [{type: "text", text}]}]}`, and from v4 (DSH
//!   0.1.7-rc.2, which lifts older logs to it when it opens them) is the result itself, `{role:
//!   "tool", toolCallId, isError?, content: [{type: "text", text}]}`. Both are read, with the same
//!   rule for which succeeded;
//! - a call made inside Code Mode's `run_code`: one dispatch event `{subCallId, name, isError,
//!   content}`, named `tool/code-dispatch` up to session format v2 and `tool/ptc-dispatch` from v3
//!   (DSH 0.1.5 renamed Code Mode PTC, and migrates old logs to the new name). Both are read alike.
//!
//! The plugin writes its own selection changes in the second shape, with a `rootCallId` of
//! `dsh-tool-search:<kind>:<key>` and no `run_code` around it: the one event type a log can carry
//! that DSH persists, keeps out of the model's history and replays into a fork (see
//! `selection/record.ts` in the plugin). A prefetch record selects what its payload lists, like a
//! search. An eviction (`maxSelected`) is such a record whose payload lists the names it drops
//! under `deselect` and selects nothing, so a reader that predates the rule sees an empty result.
//!
//! **Which calls succeeded** is decided once, by [`failed`], for every reader: replay here, the
//! plugin's live commit ([`selection_from_result`], which reads a live result as this reads the
//! logged one) and the eviction order ([`Selection::last_used`]). A call failed when its result
//! says so in either place DSH writes it: an `isError` that is there and not `false` (on the
//! result block, or on a `run_code` sub-call), or an `error` that is there and not `null` on the
//! event. DSH writes `error` only beside `isError: true`; a log with one and not the other (edited
//! by hand, or written by another version) is read as failed all the same, so no reader can count
//! that call as a success and another not.
//!
//! Anything else is skipped: failed results, text that is not a payload of
//! [`PAYLOAD_SCHEMA_VERSION`], a `discover` payload (it shows tools without loading them),
//! results whose call is missing (a truncated log), a dispatch's start (its settle carries the
//! result), the markers a later DSH writes (`session/end-seed` where a fork or a resume begins),
//! and events of other shapes.

use std::collections::{HashMap, HashSet};

use crate::input::json::{Json, JsonError, Node, NodeId};
use crate::limits::{EVENTS_TEXT, RESULT_TEXT};

use crate::contract::{
    CODE_DISPATCH_EVENT, DESELECT_FIELD, DISCOVER_FIELD, PAYLOAD_SCHEMA_VERSION, PREFETCH_RECORD, PTC_DISPATCH_EVENT,
    RECORD_ID_PREFIX, TOOLS_FIELD, TOOL_CALL_EVENT, TOOL_NAME_FIELD, TOOL_RESULT_EVENT, VERSION_FIELD,
};

/// The tool whose results select tools (`TOOL_SEARCH_NAME` of `plugin/contract.ts`).
pub const SEARCH_TOOL: &str = crate::contract::TOOL_SEARCH_NAME;

/// The role of a `tool/result` message from session format v4 (DSH 0.1.7-rc.2), which carries
/// the result itself instead of a `tool-result` block.
const TOOL_ROLE: &str = "tool";

/// What a session's events select.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Every selected name, in order of first appearance.
    pub selected: Vec<String>,
    /// The names among them that a prefetch record selected first.
    pub prefetched: Vec<String>,
    /// The names a selection once held and an eviction took out since, in order of first
    /// selection: a call of one of them selects it again (see `eviction.ts` in the plugin).
    pub dropped: Vec<String>,
    /// Every name a successful call used, the one used longest ago first: the tool a call ran
    /// (other than `tool_search`), and the names a successful search result or selection record
    /// selects, all at that result's place in the log (within one result, the better match
    /// counts as used later). `maxSelected` evicts from its front.
    pub last_used: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ReplayError {
    /// The text is over its bound: its length in bytes, and the bound.
    TooLarge(usize, crate::TextLimit),
    /// The text is not JSON: what it is, and why not.
    Json(&'static str, JsonError),
    /// The text is not the JSON value it must be: what it must be, and what it is.
    Shape(&'static str, &'static str),
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::TooLarge(bytes, limit) => f.write_str(&limit.too_large(*bytes)),
            Self::Json(what, error) => write!(f, "{what} not valid JSON: {error}"),
            Self::Shape(want, got) => write!(f, "{want}, got {got}"),
        }
    }
}

/// Names selected by the successful `tool_search` results and selection records in
/// `events_json` and not deselected since, in order of the selection that holds (a name evicted
/// and found again counts from where it was found again), which of them a prefetch selected, and
/// the order every name was last used in.
pub fn selection_from_events(events_json: &str) -> Result<Selection, ReplayError> {
    EVENTS_TEXT.check_bytes(events_json.len()).map_err(|_| ReplayError::TooLarge(events_json.len(), EVENTS_TEXT))?;
    let json = Json::parse(events_json).map_err(|error| ReplayError::Json("session events are", error))?;
    let events = json
        .items(json.root())
        .ok_or(ReplayError::Shape("session events must be a JSON array", json.kind(json.root())))?;
    let mut replay = Replay {
        json: &json,
        calls: HashMap::new(),
        selected: Vec::new(),
        live: HashMap::new(),
        uses: HashMap::new(),
        clock: 0,
    };
    for &event in events {
        replay.event(event);
    }
    let Replay { selected, live, uses, .. } = replay;
    let mut selection = Selection::default();
    let mut dropped = HashSet::new();
    for (i, (name, prefetched)) in selected.into_iter().enumerate() {
        if live.get(&name) == Some(&i) {
            if prefetched {
                selection.prefetched.push(name.clone());
            }
            selection.selected.push(name);
        } else if !live.contains_key(&name) && dropped.insert(name.clone()) {
            selection.dropped.push(name);
        }
    }
    let mut last_used: Vec<(String, usize)> = uses.into_iter().collect();
    last_used.sort_unstable_by_key(|&(_, at)| at);
    selection.last_used = last_used.into_iter().map(|(name, _)| name).collect();
    Ok(selection)
}

/// The names one `tool_search` result selects, read as replay reads a logged one: a JSON object
/// `{isError?, error?, content}` (what DSH's `tools/result` gives the plugin, without the value),
/// whose text parts are each read by [`selection_from_payload`]; nothing when it [`failed`]. The
/// plugin's live commit and its selection records go through it, so a live Agent selects what its
/// resumed copy replays.
pub fn selection_from_result(result_json: &str) -> Result<Vec<String>, ReplayError> {
    RESULT_TEXT.check_bytes(result_json.len()).map_err(|_| ReplayError::TooLarge(result_json.len(), RESULT_TEXT))?;
    let json = Json::parse(result_json).map_err(|error| ReplayError::Json("a tool result is", error))?;
    let root = json.root();
    if !matches!(json.node(root), Node::Object(_)) {
        return Err(ReplayError::Shape("a tool result must be a JSON object", json.kind(root)));
    }
    if failed(&json, root, root) {
        return Ok(Vec::new());
    }
    let mut seen = HashSet::new();
    Ok(texts(&json, root).flat_map(selection_from_payload).filter(|name| seen.insert(name.clone())).collect())
}

/// Whether a call failed: the one rule (see the module's documentation). `flags` holds the call's
/// `isError` (a result block, a sub-call's event data, a live result), `event` its `error`.
fn failed(json: &Json<'_>, flags: NodeId, event: NodeId) -> bool {
    let flagged = json.get(flags, "isError").is_some_and(|v| !matches!(json.node(v), Node::Bool(false)));
    flagged || json.get(event, "error").is_some_and(|e| !matches!(json.node(e), Node::Null))
}

/// The text parts of a result's `content`, in order.
fn texts<'j>(json: &'j Json<'_>, holder: NodeId) -> impl Iterator<Item = &'j str> {
    let parts = json.get(holder, "content").and_then(|c| json.items(c)).unwrap_or(&[]);
    parts
        .iter()
        .filter(|&&part| json.get_str(part, "type") == Some("text"))
        .filter_map(|&part| json.get_str(part, "text"))
}

struct Replay<'a> {
    json: &'a Json<'a>,
    /// Call id to tool name, from `tool/call` events.
    calls: HashMap<&'a str, &'a str>,
    /// Every selection in order, with whether a prefetch record made it; an entry holds while
    /// `live` points at it.
    selected: Vec<(String, bool)>,
    /// Each selected name and the entry of `selected` that selects it, so a deselection costs
    /// the same whatever the size of the selection.
    live: HashMap<String, usize>,
    /// Each used name and when it was last used, counted in uses.
    uses: HashMap<String, usize>,
    clock: usize,
}

impl<'a> Replay<'a> {
    fn event(&mut self, event: NodeId) {
        let json = self.json;
        let Some(data) = json.get(event, "data") else { return };
        match json.get_str(event, "type") {
            Some(TOOL_CALL_EVENT) => {
                if let (Some(id), Some(name)) = (json.get_str(data, "callId"), json.get_str(data, "name")) {
                    self.calls.insert(id, name);
                }
            }
            Some(TOOL_RESULT_EVENT) => self.tool_result(data),
            Some(CODE_DISPATCH_EVENT | PTC_DISPATCH_EVENT) if !failed(json, data, data) => {
                let Some(name) = json.get_str(data, "name") else { return };
                let prefetch = json.get_str(data, "rootCallId").is_some_and(is_prefetch_record);
                self.succeeded(name, data, prefetch);
            }
            _ => {}
        }
    }

    /// A `tool/result`: from format v4 its message is the result itself (`role: "tool"`, its
    /// `toolCallId`, `isError` and `content` on the message); up to v3 it holds `tool-result`
    /// blocks, each one call's.
    fn tool_result(&mut self, data: NodeId) {
        let json = self.json;
        let Some(message) = json.get(data, "message") else { return };
        if json.get_str(message, "role") == Some(TOOL_ROLE) {
            self.call_result(message, data);
            return;
        }
        let Some(blocks) = json.get(message, "content").and_then(|c| json.items(c)) else { return };
        for &block in blocks {
            if json.get_str(block, "type") == Some("tool-result") {
                self.call_result(block, data);
            }
        }
    }

    /// One call's result: `holder` has its `toolCallId`, `isError` and `content`, `event` its `error`.
    fn call_result(&mut self, holder: NodeId, event: NodeId) {
        let json = self.json;
        let Some(name) = json.get_str(holder, "toolCallId").and_then(|id| self.calls.get(id).copied()) else { return };
        if !failed(json, holder, event) {
            self.succeeded(name, holder, false);
        }
    }

    /// A call of `name` that succeeded, with its result's `content` in `holder`: a search's
    /// payload selects, and its names are used (`prefetch` when a prefetch record holds it); any
    /// other tool is used itself.
    fn succeeded(&mut self, name: &str, holder: NodeId, prefetch: bool) {
        if name != SEARCH_TOOL {
            self.used(name);
            return;
        }
        for text in texts(self.json, holder) {
            self.payload(text, prefetch);
        }
    }

    fn used(&mut self, name: &str) {
        self.clock += 1;
        self.uses.insert(name.to_string(), self.clock);
    }

    /// Adds the names a result text selects to the selection, and takes out those it deselects.
    fn payload(&mut self, text: &str, prefetch: bool) {
        let Some(payload) = current_payload(text) else { return };
        let names = selected_names(&payload);
        for name in names.iter().rev() {
            self.used(name);
        }
        for name in names {
            if !self.live.contains_key(&name) {
                self.live.insert(name.clone(), self.selected.len());
                self.selected.push((name, prefetch));
            }
        }
        for name in deselected_names(&payload) {
            self.live.remove(&name);
        }
    }
}

/// The names one `tool_search` result payload selects, in order, each once (its first
/// occurrence): the `name` strings, non-empty, of its `tools`, when the text is a JSON object
/// with `schemaVersion` [`PAYLOAD_SCHEMA_VERSION`] and a `tools` array, and is not marked
/// `"discover": true` (a `discover:` search shows tools with their schemas and loads none). Each
/// field is named by `plugin/contract.ts`, which the plugin writes the payload with. Any other
/// text selects nothing. Replay applies it to every persisted result, and the plugin's live
/// commit calls it too, so a resumed Agent selects exactly what the live one did.
pub fn selection_from_payload(text: &str) -> Vec<String> {
    current_payload(text).map_or_else(Vec::new, |payload| selected_names(&payload))
}

/// Whether a dispatch's `rootCallId` names a prefetch record (`<RECORD_ID_PREFIX>prefetch:<key>`).
fn is_prefetch_record(root: &str) -> bool {
    root.strip_prefix(RECORD_ID_PREFIX)
        .and_then(|rest| rest.strip_prefix(PREFETCH_RECORD))
        .is_some_and(|rest| rest.starts_with(':'))
}

/// `text` parsed, when it is a payload of the version this replay understands.
fn current_payload(text: &str) -> Option<Json<'_>> {
    let payload = Json::parse(text).ok()?;
    let version = PAYLOAD_SCHEMA_VERSION as f64;
    let known = payload.get(payload.root(), VERSION_FIELD).map(|v| payload.node(v)) == Some(&Node::Number(version));
    known.then_some(payload)
}

/// What a payload of the current version selects (see [`selection_from_payload`]).
fn selected_names(payload: &Json<'_>) -> Vec<String> {
    let root = payload.root();
    let discover = payload.get(root, DISCOVER_FIELD).map(|v| payload.node(v)) == Some(&Node::Bool(true));
    let Some(tools) = payload.get(root, TOOLS_FIELD).and_then(|t| payload.items(t)).filter(|_| !discover) else {
        return Vec::new();
    };
    let mut seen = HashSet::new();
    let mut names = Vec::new();
    for &tool in tools {
        if let Some(name) = payload.get_str(tool, TOOL_NAME_FIELD).filter(|n| !n.is_empty()) {
            if seen.insert(name) {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// The names an eviction record's payload drops from the selection: the non-empty strings of its
/// `deselect` array. A search result never carries `deselect` (its schema allows no other key).
fn deselected_names(payload: &Json<'_>) -> Vec<String> {
    let Some(names) = payload.get(payload.root(), DESELECT_FIELD).and_then(|d| payload.items(d)) else {
        return Vec::new();
    };
    names.iter().filter_map(|&name| payload.str_of(name)).filter(|name| !name.is_empty()).map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deselection_from_payload(text: &str) -> Vec<String> {
        current_payload(text).map_or_else(Vec::new, |payload| deselected_names(&payload))
    }

    fn payload(names: &[&str]) -> String {
        let tools: Vec<String> =
            names.iter().map(|n| format!(r#"{{"name":"{n}","description":"d","score":1.5}}"#)).collect();
        format!(r#"{{"schemaVersion":1,"query":"q","tools":[{}]}}"#, tools.join(","))
    }

    fn call(id: &str, name: &str) -> String {
        format!(
            r#"{{"type":"tool/call","seq":1,"time":0,"data":{{"turn":1,"step":1,"callId":"{id}","name":"{name}","arguments":"{{}}"}}}}"#
        )
    }

    fn text_part(text: &str) -> String {
        format!(r#"{{"type":"text","text":{}}}"#, json_string(text))
    }

    fn result_with(id: &str, parts: &[String], extra: &str) -> String {
        format!(
            r#"{{"type":"tool/result","seq":2,"time":0,"data":{{"turn":1,"step":1,{extra}"message":{{"id":"m","role":"user","content":[{{"type":"tool-result","toolCallId":"{id}","content":[{}]}}],"source":{{"kind":"tool"}}}}}}}}"#,
            parts.join(",")
        )
    }

    fn result(id: &str, text: &str) -> String {
        result_with(id, &[text_part(text)], "")
    }

    fn dispatch(name: &str, is_error: bool, text: &str) -> String {
        format!(
            r#"{{"type":"tool/code-dispatch","seq":3,"time":0,"data":{{"rootCallId":"r","parentCallId":"p","subCallId":"p:code:1","name":"{name}","arguments":{{}},"isError":{is_error},"content":[{}]}}}}"#,
            text_part(text)
        )
    }

    fn json_string(text: &str) -> String {
        let mut out = String::from("\"");
        for c in text.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }

    fn replay_all(events: &[String]) -> Selection {
        selection_from_events(&format!("[{}]", events.join(","))).unwrap()
    }

    fn replay(events: &[String]) -> Vec<String> {
        replay_all(events).selected
    }

    fn prefetch(key: &str, text: &str) -> String {
        let root = format!("{RECORD_ID_PREFIX}{PREFETCH_RECORD}:{key}");
        dispatch(SEARCH_TOOL, false, text).replace(
            r#""rootCallId":"r","parentCallId":"p","subCallId":"p:code:1""#,
            &format!(r#""rootCallId":"{root}","parentCallId":"{root}","subCallId":"{root}:1""#),
        )
    }

    #[test]
    fn collects_names_from_successful_searches_in_first_seen_order() {
        let events = [
            call("c1", SEARCH_TOOL),
            result("c1", &payload(&["b", "a"])),
            call("c2", SEARCH_TOOL),
            result("c2", &payload(&["a", "c"])),
        ];
        assert_eq!(replay(&events), ["b", "a", "c"]);
    }

    #[test]
    fn reads_every_text_part_and_every_result_block() {
        let parts = [text_part("not json"), text_part(&payload(&["x"])), text_part(&payload(&["y"]))];
        let events = [call("c1", SEARCH_TOOL), result_with("c1", &parts, "")];
        assert_eq!(replay(&events), ["x", "y"]);
    }

    #[test]
    fn skips_failed_results() {
        let flagged =
            result("c1", &payload(&["a"])).replace(r#""toolCallId":"c1""#, r#""toolCallId":"c1","isError":true"#);
        let with_error = result_with("c2", &[text_part(&payload(&["b"]))], r#""error":{"name":"E","code":"BLOCKED"},"#);
        let events = [call("c1", SEARCH_TOOL), flagged, call("c2", SEARCH_TOOL), with_error];
        assert!(replay(&events).is_empty());
    }

    #[test]
    fn skips_results_of_other_tools_and_orphans() {
        let events = [call("c1", "bash"), result("c1", &payload(&["a"])), result("missing-call", &payload(&["b"]))];
        assert!(replay(&events).is_empty());
    }

    #[test]
    fn skips_payloads_of_other_versions_and_shapes() {
        let events = [
            call("c1", SEARCH_TOOL),
            result("c1", &payload(&["a"]).replace("\"schemaVersion\":1", "\"schemaVersion\":2")),
            call("c2", SEARCH_TOOL),
            result("c2", r#"{"schemaVersion":1,"tools":"a"}"#),
            call("c3", SEARCH_TOOL),
            result("c3", r#"{"schemaVersion":1,"tools":[{"name":""},{"name":7},"x",{"name":"ok"}]}"#),
            call("c4", SEARCH_TOOL),
            result("c4", "Error: query must not be empty"),
        ];
        assert_eq!(replay(&events), ["ok"]);
    }

    #[test]
    fn includes_searches_made_inside_run_code() {
        let events = [
            dispatch(SEARCH_TOOL, false, &payload(&["sdk_tool"])),
            dispatch(SEARCH_TOOL, true, &payload(&["failed"])),
            dispatch("other", false, &payload(&["other"])),
        ];
        assert_eq!(replay(&events), ["sdk_tool"]);
    }

    #[test]
    fn reads_ptc_dispatches_as_code_dispatches() {
        let ptc = |name: &str, is_error: bool, text: &str| {
            dispatch(name, is_error, text).replace(CODE_DISPATCH_EVENT, PTC_DISPATCH_EVENT).replace(":code:", ":ptc:")
        };
        let events = [
            ptc(SEARCH_TOOL, false, &payload(&["ptc_tool"])),
            ptc(SEARCH_TOOL, true, &payload(&["failed"])),
            dispatch(SEARCH_TOOL, false, &payload(&["code_tool"])),
            prefetch("m1", &payload(&["fetched"])).replace(CODE_DISPATCH_EVENT, PTC_DISPATCH_EVENT),
            ptc(SEARCH_TOOL, false, &eviction(&["code_tool"])),
        ];
        let selection = replay_all(&events);
        assert_eq!(selection.selected, ["ptc_tool", "fetched"]);
        assert_eq!(selection.prefetched, ["fetched"]);
        assert_eq!(selection.dropped, ["code_tool"]);
    }

    fn eviction(names: &[&str]) -> String {
        let quoted: Vec<String> = names.iter().map(|n| format!(r#""{n}""#)).collect();
        format!(r#"{{"schemaVersion":1,"query":"","tools":[],"deselect":[{}]}}"#, quoted.join(","))
    }

    #[test]
    fn an_eviction_record_drops_names_until_a_later_search_finds_them_again() {
        let events = [
            call("c1", SEARCH_TOOL),
            result("c1", &payload(&["a", "b", "c"])),
            dispatch(SEARCH_TOOL, false, &eviction(&["a", "c", "never_selected"])),
            dispatch(SEARCH_TOOL, true, &eviction(&["b"])),
        ];
        assert_eq!(replay(&events), ["b"], "a failed record drops nothing");
        let found_again = [&events[..], &[call("c2", SEARCH_TOOL), result("c2", &payload(&["c", "b"]))]].concat();
        assert_eq!(replay(&found_again), ["b", "c"], "b held throughout; c counts from where it was found again");
        let evicted_again = [&found_again[..], &[dispatch(SEARCH_TOOL, false, &eviction(&["b"]))]].concat();
        assert_eq!(replay(&evicted_again), ["c"]);
    }

    #[test]
    fn a_prefetched_name_evicted_and_found_again_by_a_search_counts_as_searched() {
        let events = [
            prefetch("m1", &payload(&["a", "b"])),
            dispatch(SEARCH_TOOL, false, &eviction(&["a"])),
            call("c1", SEARCH_TOOL),
            result("c1", &payload(&["a"])),
        ];
        assert_eq!(
            replay_all(&events),
            Selection {
                selected: vec!["b".into(), "a".into()],
                prefetched: vec!["b".into()],
                dropped: vec![],
                last_used: vec!["b".into(), "a".into()]
            }
        );
    }

    #[test]
    fn the_dropped_names_are_those_selected_once_and_evicted_since() {
        let events = [
            call("c1", SEARCH_TOOL),
            result("c1", &payload(&["a", "b", "c"])),
            dispatch(SEARCH_TOOL, true, &payload(&["failed"])),
            call("c2", SEARCH_TOOL),
            result_with("c2", &[text_part(&payload(&["errored"]))], r#""error":"boom","#),
            dispatch(SEARCH_TOOL, false, &eviction(&["a", "c", "failed", "errored", "never_selected"])),
            dispatch(SEARCH_TOOL, false, &eviction(&["c"])),
            call("c3", SEARCH_TOOL),
            result("c3", &payload(&["a"])),
        ];
        let selection = replay_all(&events);
        assert_eq!(selection.selected, ["b", "a"]);
        assert_eq!(selection.dropped, ["c"], "only a name a successful result selected, once, and not found again");
    }

    #[test]
    fn a_payload_deselects_the_non_empty_strings_of_its_deselect_list_only() {
        assert_eq!(deselection_from_payload(&eviction(&["a", "", "b"])), ["a", "b"]);
        assert_eq!(deselection_from_payload(r#"{"schemaVersion":1,"deselect":["a",7,null,{"name":"b"}]}"#), ["a"]);
        for text in [
            payload(&["a"]),
            eviction(&["a"]).replace(":1,", ":2,"),
            r#"{"schemaVersion":1,"deselect":"a"}"#.to_string(),
            "not json".to_string(),
        ] {
            assert!(deselection_from_payload(&text).is_empty(), "{text}");
        }
        assert!(selection_from_payload(&eviction(&["a"])).is_empty(), "an eviction selects nothing");
    }

    #[test]
    fn prefetch_records_select_and_are_told_apart_by_their_root() {
        let events = [
            call("c1", SEARCH_TOOL),
            result("c1", &payload(&["searched"])),
            prefetch("m1", &payload(&["searched", "fetched"])),
            dispatch(SEARCH_TOOL, false, &payload(&["from_code"])),
            prefetch("m2", &payload(&["from_code", "fetched", "later"])),
            prefetch("m3", &payload(&["failed"])).replace(r#""isError":false"#, r#""isError":true"#),
        ];
        let selection = replay_all(&events);
        assert_eq!(selection.selected, ["searched", "fetched", "from_code", "later"]);
        assert_eq!(selection.prefetched, ["fetched", "later"], "only the names a prefetch selected first");
    }

    #[test]
    fn a_discover_payload_selects_nothing_live_or_on_replay() {
        let discover = payload(&["shown"]).replace(r#""query":"q","#, r#""query":"q","discover":true,"#);
        assert!(selection_from_payload(&discover).is_empty());
        let events = [
            call("c1", SEARCH_TOOL),
            result("c1", &discover),
            dispatch(SEARCH_TOOL, false, &discover),
            prefetch("m", &discover),
        ];
        assert_eq!(replay_all(&events), Selection::default());
        // Only a literal `true` marks it; anything else is an ordinary payload.
        for marker in ["false", "1", r#""true""#, "null"] {
            let text = payload(&["kept"]).replace(r#""query":"q","#, &format!(r#""query":"q","discover":{marker},"#));
            assert_eq!(selection_from_payload(&text), ["kept"], "{marker}");
        }
    }

    #[test]
    fn malformed_events_are_skipped_one_by_one() {
        let events = [
            "null".to_string(),
            "7".to_string(),
            r#"{"type":"tool/result"}"#.to_string(),
            r#"{"type":"tool/result","data":{"message":{"content":"x"}}}"#.to_string(),
            r#"{"type":"tool/call","data":{"callId":5}}"#.to_string(),
            r#"{"type":"tool/code-dispatch","data":{"name":"tool_search","content":[{"type":"text","text":"{}"}]}}"#
                .to_string(),
            call("c1", SEARCH_TOOL),
            result("c1", &payload(&["survivor"])),
        ];
        assert_eq!(replay(&events), ["survivor"]);
    }

    #[test]
    fn a_payload_selects_its_non_empty_names_once_in_order() {
        assert_eq!(selection_from_payload(&payload(&["b", "a", "b", "c"])), ["b", "a", "c"]);
        let odd = r#"{"tools":[{"name":""},{"name":7},"x",{"name":"ok"},{"name":"caf\u00e9"}],"schemaVersion":1}"#;
        assert_eq!(selection_from_payload(odd), ["ok", "café"]);
        assert!(selection_from_payload(&payload(&[])).is_empty());
    }

    #[test]
    fn text_that_is_not_a_version_one_payload_selects_nothing() {
        for text in [
            "",
            "not json",
            "[]",
            r#"{"tools":[{"name":"a"}]}"#,
            r#"{"schemaVersion":2,"tools":[{"name":"a"}]}"#,
            r#"{"schemaVersion":"1","tools":[{"name":"a"}]}"#,
            r#"{"schemaVersion":1,"tools":{"name":"a"}}"#,
            r#"{"schemaVersion":1,"tools":[{"name":"a"}]"#,
        ] {
            assert!(selection_from_payload(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn replay_selects_what_each_result_text_selects() {
        let texts =
            [payload(&["a", "b"]), "noise".to_string(), payload(&["b", "c"]), payload(&["d"]).replace(":1,", ":2,")];
        let mut events = Vec::new();
        let mut expected: Vec<String> = Vec::new();
        for (i, text) in texts.iter().enumerate() {
            let id = format!("c{i}");
            events.extend([call(&id, SEARCH_TOOL), result(&id, text)]);
            for name in selection_from_payload(text) {
                if !expected.contains(&name) {
                    expected.push(name);
                }
            }
        }
        assert_eq!(replay(&events), expected);
        assert_eq!(expected, ["a", "b", "c"]);
    }

    fn flagged(result: String, flag: &str) -> String {
        let (from, to) = (r#""toolCallId":"#, format!(r#"{flag},"toolCallId":"#));
        result.replacen(from, &to, 1)
    }

    #[test]
    fn one_rule_fails_a_call_whichever_flag_says_so() {
        let ok = [
            result("c1", &payload(&["a"])),
            flagged(result("c1", &payload(&["a"])), r#""isError":false"#),
            result_with("c1", &[text_part(&payload(&["a"]))], r#""error":null,"#),
        ];
        for result in ok {
            assert_eq!(replay(&[call("c1", SEARCH_TOOL), result.clone()]), ["a"], "{result}");
        }
        let failed = [
            flagged(result("c1", &payload(&["a"])), r#""isError":true"#),
            flagged(result("c1", &payload(&["a"])), r#""isError":null"#),
            result_with("c1", &[text_part(&payload(&["a"]))], r#""error":{"code":"X"},"#),
            flagged(result_with("c1", &[text_part(&payload(&["a"]))], r#""error":"boom","#), r#""isError":false"#),
        ];
        for result in failed {
            assert!(replay_all(&[call("c1", SEARCH_TOOL), result.clone()]) == Selection::default(), "{result}");
        }
        let dispatched = dispatch(SEARCH_TOOL, false, &payload(&["a"]));
        assert_eq!(replay(&[dispatched.replace(r#""isError":false,"#, "")]), ["a"], "no flag: it succeeded");
        assert!(replay(&[dispatched.replace(r#""isError":false,"#, r#""error":{"code":"X"},"#)]).is_empty());
    }

    #[test]
    fn a_call_is_used_when_its_result_succeeds_and_a_search_uses_what_it_selects() {
        let failed = flagged(result("c3", "Error: no"), r#""isError":true"#);
        let events = [
            call("c1", SEARCH_TOOL),
            result("c1", &payload(&["best", "second"])),
            call("c2", "best"),
            result("c2", "done"),
            call("c3", "second"),
            failed,
            call("c4", "read"),
            result_with("c4", &[text_part("text")], r#""error":{"code":"X"},"#),
            dispatch("run_in_code", false, "ran"),
            dispatch("failed_in_code", true, "no"),
            call("c5", "unanswered"),
        ];
        // The search used `second`, then `best` (the better match); the call of `best` used it
        // again; the failed calls and the one without a result used nothing.
        assert_eq!(replay_all(&events).last_used, ["second", "best", "run_in_code"]);
        let recalled = [&events[..], &[dispatch(SEARCH_TOOL, false, &payload(&["second"]))]].concat();
        assert_eq!(replay_all(&recalled).last_used, ["best", "run_in_code", "second"], "a record uses what it selects");
        let evicted = [&events[..], &[dispatch(SEARCH_TOOL, false, &eviction(&["best"]))]].concat();
        assert_eq!(replay_all(&evicted).last_used, ["second", "best", "run_in_code"], "an eviction uses nothing");
    }

    #[test]
    fn a_live_result_selects_what_its_logged_copy_replays() {
        let content = format!(
            r#""content":[{},{},{}]"#,
            text_part("noise"),
            text_part(&payload(&["a", "b"])),
            text_part(&payload(&["b", "c"]))
        );
        for (flags, selects) in [
            ("", true),
            (r#""isError":false,"#, true),
            (r#""isError":false,"error":null,"#, true),
            (r#""isError":true,"#, false),
            (r#""isError":false,"error":{"message":"m"},"#, false),
        ] {
            let live = format!("{{{flags}{content}}}");
            let expected: Vec<String> = if selects { vec!["a".into(), "b".into(), "c".into()] } else { vec![] };
            assert_eq!(selection_from_result(&live).unwrap(), expected, "{live}");
        }
        assert_eq!(
            selection_from_result("[]").unwrap_err().to_string(),
            "a tool result must be a JSON object, got an array"
        );
        assert!(selection_from_result("{").unwrap_err().to_string().starts_with("a tool result is not valid JSON: "));
    }

    /// `result_with`'s event as session format v4 holds it: the message is the result.
    fn lifted(id: &str, parts: &[String], flags: &str, extra: &str) -> String {
        format!(
            r#"{{"type":"tool/result","seq":2,"time":0,"data":{{"turn":1,"step":1,{extra}"message":{{"id":"m","role":"tool","toolCallId":"{id}",{flags}"content":[{}],"source":{{"kind":"tool","callId":"{id}"}}}}}}}}"#,
            parts.join(",")
        )
    }

    #[test]
    fn reads_a_v4_tool_result_message_as_its_v3_block_with_the_same_rule_for_failure() {
        let parts = [text_part("noise"), text_part(&payload(&["a", "b"]))];
        let cases = [
            ("", "", true),
            (r#""isError":false,"#, "", true),
            ("", r#""error":null,"#, true),
            (r#""isError":true,"#, "", false),
            (r#""isError":null,"#, "", false),
            (r#""isError":false,"#, r#""error":{"name":"E","code":"X"},"#, false),
        ];
        for (flags, extra, selects) in cases {
            let v4 = [call("c1", SEARCH_TOOL), lifted("c1", &parts, flags, extra)];
            let block = result_with("c1", &parts, extra);
            let block = if flags.is_empty() { block } else { flagged(block, flags.trim_end_matches(',')) };
            let v3 = [call("c1", SEARCH_TOOL), block];
            assert_eq!(replay_all(&v4), replay_all(&v3), "{flags}{extra}");
            assert_eq!(replay(&v4).is_empty(), !selects, "{flags}{extra}");
        }
        let used = [call("c2", "bash"), lifted("c2", &[text_part("ok")], "", "")];
        assert_eq!(replay_all(&used).last_used, ["bash"]);
        // The wrapper a v4 message must not hold is not read as a result of its own.
        let wrapped =
            format!(r#"{{"type":"tool-result","toolCallId":"c1","content":[{}]}}"#, text_part(&payload(&["inner"])));
        assert!(replay(&[call("c1", SEARCH_TOOL), lifted("c1", &[wrapped], "", "")]).is_empty());
        assert!(replay(&[lifted("orphan", &[text_part(&payload(&["a"]))], "", "")]).is_empty());
    }

    #[test]
    fn the_markers_and_events_of_later_logs_are_passed_over() {
        let events = [
            call("c1", SEARCH_TOOL),
            r#"{"type":"session/end-seed","seq":1,"time":0,"data":{"inherited":true}}"#.to_string(),
            r#"{"type":"session/end-seed","seq":2,"time":0,"data":{}}"#.to_string(),
            r#"{"type":"tool/ptc-dispatch-start","seq":3,"time":0,"data":{"rootCallId":"r","parentCallId":"r","subCallId":"r:3","name":"tool_search","arguments":{}}}"#.to_string(),
            r#"{"type":"plugin:x","seq":4,"time":0,"ignorable":true,"data":{}}"#.to_string(),
            lifted("c1", &[text_part(&payload(&["kept"]))], "", ""),
        ];
        assert_eq!(replay(&events), ["kept"]);
    }

    #[test]
    fn rejects_text_that_is_not_an_event_list() {
        assert_eq!(
            selection_from_events("{}").unwrap_err().to_string(),
            "session events must be a JSON array, got an object"
        );
        assert!(selection_from_events("[").unwrap_err().to_string().starts_with("session events are not valid JSON: "));
        assert_eq!(selection_from_events("[]").unwrap(), Selection::default());
    }
}
