//! Property tests: random catalogs, queries and session logs from a seeded generator, checked
//! against what must hold for every input (the unit tests check chosen examples). A failure
//! prints the seed of the case, and `case(seed)` rebuilds it.

use crate::{ranked_text, selection_from_events, Index, Query, Searcher, SEARCH_TOOL};

/// SplitMix64: tiny, fast and good enough to pick test inputs; no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// Words of every kind the analyzer treats differently: plain, inflected, stop words, digits,
/// accents, CJK, an apostrophe, and a few that share starts (prefix matching).
const WORDS: &[&str] = &[
    "weather",
    "forecast",
    "city",
    "issue",
    "issues",
    "create",
    "created",
    "repository",
    "send",
    "email",
    "mail",
    "query",
    "database",
    "file",
    "files",
    "read",
    "write",
    "search",
    "searching",
    "calc",
    "calculate",
    "tax",
    "money",
    "convert",
    "currency",
    "the",
    "a",
    "of",
    "and",
    "2024",
    "v2",
    "sha256",
    "café",
    "résumé",
    "天气",
    "预报",
    "東京",
    "날씨",
    "don't",
    "GitHub",
    "HTTPServer",
    "getUser",
    "list",
    "delete",
    "update",
    "user",
    "users",
    "page",
    "browser",
    "click",
    "navigate",
    "snapshot",
];

fn sentence(rng: &mut Rng, max_words: usize) -> String {
    let n = rng.below(max_words + 1);
    (0..n).map(|_| *rng.pick(WORDS)).collect::<Vec<_>>().join(" ")
}

fn identifier(rng: &mut Rng) -> String {
    let parts: Vec<&str> = (0..1 + rng.below(3)).map(|_| *rng.pick(WORDS)).collect();
    match rng.below(4) {
        0 => parts.join("_"),
        1 => format!("mcp__{}__{}", parts[0], parts[1..].join("_")),
        2 => parts.join("-"),
        _ => parts.iter().enumerate().map(|(i, p)| if i == 0 { p.to_string() } else { capitalized(p) }).collect(),
    }
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

/// A JSON string literal.
fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn schema(rng: &mut Rng, depth: usize) -> String {
    let mut members = vec![r#""type": "object""#.to_string()];
    if rng.chance(50) {
        members.push(format!(r#""description": {}"#, quoted(&sentence(rng, 8))));
    }
    if rng.chance(20) {
        let values: Vec<String> = (0..1 + rng.below(3)).map(|_| quoted(rng.pick::<&str>(WORDS))).collect();
        members.push(format!(r#""enum": [{}]"#, values.join(", ")));
    }
    if depth > 0 {
        let properties: Vec<String> =
            (0..rng.below(4)).map(|_| format!("{}: {}", quoted(&identifier(rng)), schema(rng, depth - 1))).collect();
        members.push(format!(r#""properties": {{{}}}"#, properties.join(", ")));
        if rng.chance(20) {
            members.push(format!(r#""items": {}"#, schema(rng, depth - 1)));
        }
        if rng.chance(15) {
            members.push(format!(r#""anyOf": [{}, {}]"#, schema(rng, depth - 1), schema(rng, depth - 1)));
        }
    }
    format!("{{{}}}", members.join(", "))
}

/// Tool definitions with distinct names, each a JSON object.
fn tools(rng: &mut Rng) -> Vec<(String, String)> {
    let count = 1 + rng.below(40);
    let mut tools: Vec<(String, String)> = Vec::new();
    while tools.len() < count {
        let name = identifier(rng);
        if tools.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let parameters = if rng.chance(70) { format!(r#", "parameters": {}"#, schema(rng, 3)) } else { String::new() };
        let json =
            format!(r#"{{"name": {}, "description": {}{parameters}}}"#, quoted(&name), quoted(&sentence(rng, 15)));
        tools.push((name, json));
    }
    tools
}

fn catalog(tools: &[(String, String)]) -> String {
    format!("[{}]", tools.iter().map(|(_, json)| json.as_str()).collect::<Vec<_>>().join(", "))
}

fn query(rng: &mut Rng, tools: &[(String, String)]) -> String {
    match rng.below(8) {
        0 => tools[rng.below(tools.len())].0.clone(),
        1 => format!("select:{},{}", tools[rng.below(tools.len())].0, identifier(rng)),
        2 => format!("{} +{}", sentence(rng, 4), rng.pick(WORDS)),
        3 => format!("{}. Also {}", sentence(rng, 5), sentence(rng, 5)),
        _ => sentence(rng, 6),
    }
}

type Ranking = Vec<(String, String, f64)>;

fn ranking(index: &Index, query: &str, limit: usize, exclude: &[&str]) -> Ranking {
    Searcher::new(index)
        .search(query, limit, exclude)
        .into_iter()
        .map(|h| (h.name.to_string(), h.summary.to_string(), h.score))
        .collect()
}

const CASES: u64 = 300;

#[test]
fn the_same_catalog_and_query_always_give_the_same_results() {
    for seed in 0..CASES {
        let mut rng = Rng(seed);
        let tools = tools(&mut rng);
        let text = catalog(&tools);
        let (first, second) = (Index::from_catalog(&text).unwrap(), Index::from_catalog(&text).unwrap());
        for _ in 0..5 {
            let q = query(&mut rng, &tools);
            let expected = ranking(&first, &q, 10, &[]);
            assert_eq!(ranking(&first, &q, 10, &[]), expected, "seed {seed}: {q:?} searched twice");
            assert_eq!(ranking(&second, &q, 10, &[]), expected, "seed {seed}: {q:?} on a second build");
        }
    }
}

#[test]
fn results_do_not_depend_on_catalog_order() {
    let mut ranked = 0;
    for seed in 0..CASES {
        let mut rng = Rng(seed);
        let mut tools = tools(&mut rng);
        let index = Index::from_catalog(&catalog(&tools)).unwrap();
        rng.shuffle(&mut tools);
        let shuffled = Index::from_catalog(&catalog(&tools)).unwrap();
        for _ in 0..5 {
            let q = query(&mut rng, &tools);
            let expected = ranking(&index, &q, usize::MAX, &[]);
            assert_eq!(ranking(&shuffled, &q, usize::MAX, &[]), expected, "seed {seed}: {q:?}");
            ranked += usize::from(expected.len() > 1);
        }
    }
    assert!(ranked > CASES as usize, "only {ranked} queries ranked two tools or more");
}

#[test]
fn a_tool_named_by_the_query_comes_first_whatever_the_limit_and_exclusions() {
    for seed in 0..CASES {
        let mut rng = Rng(seed);
        let tools = tools(&mut rng);
        let index = Index::from_catalog(&catalog(&tools)).unwrap();
        let name = &tools[rng.below(tools.len())].0;
        let padded = format!("{}{name}{}", " ".repeat(rng.below(3)), "\t".repeat(rng.below(2)));
        let excluded: Vec<&str> = if rng.chance(50) { vec![name.as_str()] } else { Vec::new() };
        let hits = Searcher::new(&index).search(&padded, 1 + rng.below(20), &excluded);
        assert_eq!(hits[0].name, name, "seed {seed}");
        assert!(hits[1..].iter().all(|hit| hit.name != name), "seed {seed}: listed once");
    }
}

#[test]
fn a_limit_is_respected_and_a_smaller_limit_is_a_prefix_of_a_larger_one() {
    for seed in 0..CASES {
        let mut rng = Rng(seed);
        let tools = tools(&mut rng);
        let index = Index::from_catalog(&catalog(&tools)).unwrap();
        let names: Vec<&str> = tools.iter().map(|(name, _)| name.as_str()).collect();
        let exclude: Vec<&str> = names.iter().copied().filter(|_| rng.chance(10)).collect();
        let q = query(&mut rng, &tools);
        let all = ranking(&index, &q, usize::MAX, &exclude);
        let limit = rng.below(25);
        let limited = ranking(&index, &q, limit, &exclude);
        assert!(limited.len() <= limit, "seed {seed}");
        assert_eq!(limited[..], all[..limit.min(all.len())], "seed {seed}: {q:?} limit {limit}");
        if matches!(Query::parse(ranked_text(&q)), Query::Ranked { .. }) {
            let exact = ranked_text(&q).trim();
            assert!(all.iter().all(|(name, ..)| name == exact || !exclude.contains(&name.as_str())), "seed {seed}");
        }
    }
}

/// One session event as the generator meant it, with the names it should select.
struct Event {
    json: String,
    /// The same event as DSH 0.1.7 (session format v4) holds it after lifting an older log: a
    /// result's message is the result itself, a dispatch is spelt `tool/ptc-dispatch`.
    lifted: String,
    /// For a `tool/call`: its id and tool name, which later results are matched against.
    call: Option<(String, String)>,
    /// A result: its call id (None for a code-mode dispatch, which names its tool itself), whether
    /// it succeeded, and the names its payload carries when it is a version-1 payload.
    result: Option<(Option<String>, bool, Vec<String>)>,
    /// A code-mode dispatch: its tool and whether it succeeded.
    dispatch: Option<(String, bool)>,
}

fn payload_names(rng: &mut Rng) -> Vec<String> {
    let odd = ["", "quote\"d", "back\\slash", "new\nline", "天气", "mcp__x__y"];
    (0..rng.below(4)).map(|_| if rng.chance(20) { rng.pick(&odd).to_string() } else { identifier(rng) }).collect()
}

/// The text part of a result: the canonical payload, another version, or other text.
fn payload(rng: &mut Rng, names: &[String]) -> (String, bool) {
    let tools: Vec<String> =
        names.iter().map(|n| format!(r#"{{"name":{},"description":"d","score":1.5}}"#, quoted(n))).collect();
    match rng.below(10) {
        0 => (format!(r#"{{"schemaVersion":2,"query":"q","tools":[{}]}}"#, tools.join(",")), false),
        1 => ("Error: tool_search: query is empty".to_string(), false),
        2 => (format!(r#"{{"schemaVersion":1,"tools":[{}"#, tools.join(",")), false),
        _ => (format!(r#"{{"schemaVersion":1,"query":"q","tools":[{}]}}"#, tools.join(",")), true),
    }
}

fn event(rng: &mut Rng, ids: &[&str]) -> Event {
    let id = rng.pick(ids).to_string();
    let tool = if rng.chance(70) { SEARCH_TOOL } else { *rng.pick(&["bash", "run_code", "tool_search_v2"]) };
    let plain = |json: String| Event { lifted: json.clone(), json, call: None, result: None, dispatch: None };
    match rng.below(6) {
        0 | 1 => plain(format!(
            r#"{{"type":"tool/call","seq":1,"time":0,"data":{{"callId":{},"name":{},"arguments":"{{}}"}}}}"#,
            quoted(&id),
            quoted(tool)
        ))
        .calling(id, tool),
        2 | 3 => {
            let names = payload_names(rng);
            let (text, valid) = payload(rng, &names);
            let (flag, flag_ok) = *rng.pick(&[("", true), (r#","isError":false"#, true), (r#","isError":true"#, false), (r#","isError":null"#, false)]);
            let (error, error_ok) = *rng.pick(&[("", true), ("", true), (r#""error":null,"#, true), (r#""error":{"code":"BLOCKED"},"#, false)]);
            let json = format!(
                r#"{{"type":"tool/result","data":{{{error}"message":{{"content":[{{"type":"tool-result","toolCallId":{}{flag},"content":[{{"type":"text","text":{}}}]}}]}}}}}}"#,
                quoted(&id),
                quoted(&text)
            );
            let lifted = format!(
                r#"{{"type":"tool/result","data":{{{error}"message":{{"role":"tool","toolCallId":{}{flag},"content":[{{"type":"text","text":{}}}]}}}}}}"#,
                quoted(&id),
                quoted(&text)
            );
            let result = Some((Some(id), flag_ok && error_ok, if valid { names } else { Vec::new() }));
            Event { json, lifted, call: None, result, dispatch: None }
        }
        4 => {
            let names = payload_names(rng);
            let (text, valid) = payload(rng, &names);
            let ok = rng.chance(70);
            let json = format!(
                r#"{{"type":"tool/code-dispatch","data":{{"subCallId":"p:code:1","name":{},"isError":{},"content":[{{"type":"text","text":{}}}]}}}}"#,
                quoted(tool),
                !ok,
                quoted(&text)
            );
            let selects = ok && valid && tool == SEARCH_TOOL;
            let result = Some((None, selects, if selects { names } else { Vec::new() }));
            let lifted = json.replace("tool/code-dispatch", "tool/ptc-dispatch").replace(":code:", ":ptc:");
            Event { json, lifted, call: None, result, dispatch: Some((tool.to_string(), ok)) }
        }
        _ => plain(rng.pick(&[
            "null", "7", r#""tool/result""#, "{}", "[]", r#"{"type":"tool/result"}"#, r#"{"type":"tool/result","data":"x"}"#,
            r#"{"type":"tool/call","data":{"callId":5,"name":"tool_search"}}"#, r#"{"type":"tool/code-dispatch","data":{"name":"tool_search"}}"#,
            r#"{"type":"tool/result","data":{"message":{"content":[{"type":"tool-result","content":[{"type":"text","text":"{\"schemaVersion\":1,\"tools\":[{\"name\":\"orphan\"}]}"}]}]}}}"#,
            r#"{"data":{"callId":"c1","name":"tool_search"}}"#, r#"{"type":"TOOL/CALL","data":{"callId":"c1","name":"tool_search"}}"#,
        ]).to_string()),
    }
}

impl Event {
    fn calling(self, id: String, tool: &str) -> Self {
        Self { call: Some((id, tool.to_string())), ..self }
    }
}

/// What replay must select from `events`: names of successful search results, first seen first.
fn expected_selection(events: &[Event]) -> Vec<String> {
    let mut calls: Vec<(String, String)> = Vec::new();
    let mut selected: Vec<String> = Vec::new();
    for event in events {
        if let Some((id, name)) = &event.call {
            calls.retain(|(known, _)| known != id);
            calls.push((id.clone(), name.clone()));
        }
        let Some((id, ok, names)) = &event.result else { continue };
        let is_search =
            id.as_ref().is_none_or(|id| calls.iter().any(|(known, name)| known == id && name == SEARCH_TOOL));
        if is_search && *ok {
            for name in names.iter().filter(|n| !n.is_empty()) {
                if !selected.contains(name) {
                    selected.push(name.clone());
                }
            }
        }
    }
    selected
}

/// The order replay must give every used name: a successful call uses its tool (other than the
/// search tool), a successful search its payload's names, worst first; the last use counts.
fn expected_last_used(events: &[Event]) -> Vec<String> {
    let mut calls: Vec<(String, String)> = Vec::new();
    let mut used: Vec<String> = Vec::new();
    let mut use_name = |name: &str| {
        used.retain(|known| known != name);
        used.push(name.to_string());
    };
    for event in events {
        if let Some((id, name)) = &event.call {
            calls.retain(|(known, _)| known != id);
            calls.push((id.clone(), name.clone()));
        }
        let tool = match (&event.result, &event.dispatch) {
            (_, Some((tool, true))) => Some(tool.clone()),
            (Some((Some(id), true, _)), None) => {
                calls.iter().find(|(known, _)| known == id).map(|(_, name)| name.clone())
            }
            _ => None,
        };
        match (tool.as_deref(), &event.result) {
            (Some(SEARCH_TOOL), Some((_, _, names))) => {
                let mut once: Vec<&String> = Vec::new();
                for name in names.iter().filter(|n| !n.is_empty()) {
                    if !once.contains(&name) {
                        once.push(name);
                    }
                }
                for name in once.into_iter().rev() {
                    use_name(name);
                }
            }
            (Some(tool), _) if tool != SEARCH_TOOL => use_name(tool),
            _ => {}
        }
    }
    used
}

fn replay_of(events: &[Event]) -> crate::Selection {
    let text = format!("[{}]", events.iter().map(|e| e.json.as_str()).collect::<Vec<_>>().join(","));
    selection_from_events(&text).unwrap()
}

fn replayed(events: &[Event]) -> Vec<String> {
    replay_of(events).selected
}

#[test]
fn replay_selects_exactly_the_successful_searches_and_only_grows_along_the_log() {
    let mut selecting = 0;
    for seed in 0..CASES {
        let mut rng = Rng(seed);
        let ids = ["c1", "c2", "c3", "p:code:1"];
        let events: Vec<Event> = (0..rng.below(30)).map(|_| event(&mut rng, &ids)).collect();
        let replay = replay_of(&events);
        let full = replay.selected;
        assert_eq!(full, expected_selection(&events), "seed {seed}");
        assert_eq!(replay.last_used, expected_last_used(&events), "seed {seed}: the order of last use");
        for cut in 0..events.len() {
            let prefix = replayed(&events[..cut]);
            assert_eq!(
                prefix[..],
                full[..prefix.len()],
                "seed {seed}: the log cut after {cut} events selects a prefix"
            );
        }
        selecting += usize::from(!full.is_empty());
    }
    assert!(selecting > CASES as usize / 3, "only {selecting} logs select anything");
}

/// The markers and plugin events a later DSH's log holds beside the ones replay reads.
const LATER_EVENTS: &[&str] = &[
    r#"{"type":"session/end-seed","seq":0,"time":0,"data":{}}"#,
    r#"{"type":"session/end-seed","seq":0,"time":0,"data":{"inherited":true}}"#,
    r#"{"type":"tool/ptc-dispatch-start","seq":0,"time":0,"data":{"rootCallId":"r","parentCallId":"r","subCallId":"r:1","name":"tool_search","arguments":{}}}"#,
    r#"{"type":"plugin:other/thing","seq":0,"time":0,"ignorable":true,"data":{"content":[{"type":"text","text":"{\"schemaVersion\":1,\"tools\":[{\"name\":\"no\"}]}"}]}}"#,
    r#"{"type":"developer/message","seq":0,"time":0,"data":{"message":{"role":"developer","content":[{"type":"tool-addition","toolName":"x"}]}}}"#,
];

#[test]
fn a_log_lifted_to_session_format_v4_replays_as_it_did_before() {
    for seed in 0..CASES {
        let mut rng = Rng(seed);
        let ids = ["c1", "c2", "c3", "p:code:1"];
        let events: Vec<Event> = (0..rng.below(30)).map(|_| event(&mut rng, &ids)).collect();
        let mut lifted = Vec::new();
        for event in &events {
            if rng.chance(20) {
                lifted.push(rng.pick(LATER_EVENTS).to_string());
            }
            lifted.push(event.lifted.clone());
        }
        let lifted = selection_from_events(&format!("[{}]", lifted.join(","))).unwrap();
        assert_eq!(lifted, replay_of(&events), "seed {seed}");
    }
}
