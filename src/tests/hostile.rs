//! Hostile input, one test per class, through the calls the addon makes: each class either gets
//! a clear error or a sensible answer, never a panic. (__test__/native/hostile.spec.ts runs the
//! same classes through Node-API.)

use crate::{
    check_exclusions, check_query, check_query_units, result_count, selection_from_events, selection_from_payload,
    Index, Searcher, CATALOG_TEXT, EVENTS_TEXT, MAX_CATALOG_BYTES, MAX_EVENTS_BYTES, MAX_JSON_DEPTH, MAX_SCHEMA_DEPTH,
    MAX_TOOLS, PAYLOAD_TEXT, TOOL_NAME,
};

fn error_of(catalog: &str) -> String {
    Index::from_catalog(catalog).err().map(|e| e.to_string()).unwrap_or_default()
}

fn names(index: &Index, query: &str) -> Vec<String> {
    Searcher::new(index).search(query, 10, &[]).iter().map(|hit| hit.name.to_string()).collect()
}

#[test]
fn malformed_json_is_an_error_that_names_the_place() {
    let cases = [
        ("", "tool catalog is not valid JSON: unexpected end of JSON input at line 1, column 1"),
        (
            "[{\"name\": \"a\",}]",
            "tool catalog is not valid JSON: expected a string key in an object at line 1, column 15",
        ),
        ("[{'name': 'a'}]", "tool catalog is not valid JSON: expected a string key in an object at line 1, column 3"),
        ("\u{feff}[]", "tool catalog is not valid JSON: expected a JSON value at line 1, column 1"),
        ("[1e5x]", "tool catalog is not valid JSON: expected ',' or ']' in an array at line 1, column 5"),
        ("[\"\0\"]", "tool catalog is not valid JSON: control character in a string at line 1, column 3"),
        ("[]]", "tool catalog is not valid JSON: unexpected text after the JSON value at line 1, column 3"),
    ];
    for (text, expected) in cases {
        assert_eq!(error_of(text), expected, "{text:?}");
    }
    assert!(selection_from_events("[{").unwrap_err().to_string().starts_with("session events are not valid JSON: "));
}

#[test]
fn wrong_types_are_errors_for_structure_and_ignored_for_content() {
    assert_eq!(
        error_of("{\"tools\": 5}"),
        "tool catalog must be a JSON array of tools (or an object with a \"tools\" array), got a number"
    );
    assert_eq!(error_of("[null]"), "tool at index 0 must be an object, got null");
    assert_eq!(error_of("[{\"name\": [\"a\"]}]"), "tool at index 0 has no \"name\" string (it must be non-empty)");
    let index =
        Index::from_catalog(r#"[{"name": "t", "description": {"text": "x"}, "parameters": 3, "inputSchema": "s"}]"#)
            .unwrap();
    assert_eq!(index.search_text("t"), Some("t"));
    assert_eq!(
        selection_from_events("{\"events\": []}").unwrap_err().to_string(),
        "session events must be a JSON array, got an object"
    );
}

#[test]
fn odd_schemas_index_what_they_can() {
    let catalog = r##"[{"name": "odd", "parameters": {
        "properties": {"": {}, "a": null, "b": {"properties": []}, "c": {"enum": [null, 1, {"x": 1}, "ok value"]},
                       "d": {"items": [[], 7, {"description": "tuple item"}]}, "e": {"anyOf": "no"}, "f": {"$ref": "#"}},
        "description": "", "title": "  spaced  "}}]"##;
    let index = Index::from_catalog(catalog).unwrap();
    assert_eq!(index.search_text("odd"), Some("odd spaced a b c ok value d tuple item e f"));
    assert!(index.warnings().is_empty());
}

#[test]
fn a_catalog_over_the_size_limit_is_refused_before_it_is_read() {
    let text = " ".repeat(MAX_CATALOG_BYTES + 1);
    assert_eq!(
        error_of(&text),
        format!("tool catalog is {} bytes; the limit is 134217728 bytes", MAX_CATALOG_BYTES + 1)
    );
}

#[test]
fn huge_text_inside_a_catalog_is_indexed_and_summarized() {
    let description = "telemetry ".repeat(1 << 20);
    let name = "n".repeat(100_000);
    let index =
        Index::from_catalog(&format!(r#"[{{"name": "{name}", "description": "{description}"}}, {{"name": "b"}}]"#))
            .unwrap();
    let hit = &Searcher::new(&index).search("telemetry", 1, &[])[0];
    assert_eq!((hit.name.len(), hit.summary.chars().count()), (100_000, 240));
}

#[test]
fn deep_input_is_read_without_stack_and_indexed_to_the_depth_limit() {
    let depth = 1_000_000;
    let deep_array =
        format!("[{{\"name\": \"t\", \"parameters\": {{\"x\": {}{}}}}}]", "[".repeat(depth), "]".repeat(depth));
    assert_eq!(Index::from_catalog(&deep_array).unwrap().len(), 1);
    let schema = format!("{}{{}}{}", r#"{"items": "#.repeat(depth), "}".repeat(depth));
    let index = Index::from_catalog(&format!(r#"[{{"name": "t", "parameters": {schema}}}]"#)).unwrap();
    assert_eq!(index.warnings().len(), 1);
    assert!(index.warnings()[0].contains(&format!("deeper than {MAX_SCHEMA_DEPTH} levels")));
    let events = format!("[{}null{}]", r#"{"type": "tool/result", "data": "#.repeat(depth), "}".repeat(depth));
    assert!(selection_from_events(&events).unwrap().selected.is_empty());
    const { assert!(MAX_JSON_DEPTH >= 2 * MAX_SCHEMA_DEPTH + 4) };
}

#[test]
fn too_many_tools_index_the_first_and_warn() {
    let tools: Vec<String> = (0..=MAX_TOOLS).map(|i| format!(r#"{{"name":"t{i}"}}"#)).collect();
    let index = Index::from_catalog(&format!("[{}]", tools.join(","))).unwrap();
    assert_eq!(index.len(), MAX_TOOLS);
    assert_eq!(index.warnings().len(), 1);
}

#[test]
fn lone_surrogates_become_replacement_characters_everywhere() {
    let index =
        Index::from_catalog(r#"[{"name": "a\ud800b", "description": "x\udfff weather"}, {"name": "\udc00"}]"#).unwrap();
    assert_eq!(index.names().collect::<Vec<_>>(), ["a\u{FFFD}b", "\u{FFFD}"]);
    assert_eq!(names(&index, "weather \u{FFFD}"), ["a\u{FFFD}b"]);
    assert_eq!(names(&index, "\u{FFFD}"), ["\u{FFFD}"], "an exact name, even one of no words");
    let payload = r#"{\"schemaVersion\":1,\"tools\":[{\"name\":\"s\\ud800\"}]}"#;
    let events = format!(
        r#"[{{"type":"tool/code-dispatch","data":{{"name":"tool_search","isError":false,"content":[{{"type":"text","text":"{payload}"}}]}}}}]"#
    );
    assert_eq!(selection_from_events(&events).unwrap().selected, ["s\u{FFFD}"]);
}

#[test]
fn control_characters_and_odd_whitespace_are_text_like_any_other() {
    let index =
        Index::from_catalog(r#"[{"name": "tab\tname", "description": "bell\u0007 nul\u0000 weather\u2028line"}]"#)
            .unwrap();
    assert_eq!(names(&index, "weather"), ["tab\tname"]);
    assert_eq!(names(&index, "\u{0}\u{7}\u{2028}"), [] as [String; 0]);
    assert_eq!(
        Searcher::new(&index).search("weather", 1, &[])[0].summary,
        "bell\u{7} nul\u{0} weather line",
        "U+2028 is whitespace"
    );
}

#[test]
fn an_over_long_query_is_refused_and_the_longest_allowed_one_is_served() {
    assert_eq!(check_query(&"q".repeat(1 << 20)).unwrap_err(), "query is 1048576 characters long; the limit is 4096");
    let index = Index::from_catalog(r#"[{"name": "get_weather", "description": "weather"}]"#).unwrap();
    for longest in
        ["weather. ".repeat(455), "w".repeat(4096), "天".repeat(4096), "a_".repeat(2048), "+weather ".repeat(455)]
    {
        assert!(check_query(&longest).is_ok());
        let _ = Searcher::new(&index).search(&longest, 20, &[]);
    }
}

#[test]
fn huge_and_invalid_limits() {
    let index =
        Index::from_catalog(r#"[{"name": "a", "description": "weather"}, {"name": "b", "description": "weather"}]"#)
            .unwrap();
    assert_eq!(Searcher::new(&index).search("weather", result_count(1e300).unwrap(), &[]).len(), 2);
    assert_eq!(Searcher::new(&index).search("weather", usize::MAX, &[]).len(), 2);
    assert!(Searcher::new(&index).search("weather", 0, &[]).is_empty());
    assert!(result_count(-1.0).is_err() && result_count(f64::NAN).is_err() && result_count(0.5).is_err());
}

#[test]
fn session_events_over_the_size_limit_are_refused_before_they_are_read() {
    let text = " ".repeat(MAX_EVENTS_BYTES + 1);
    assert_eq!(
        selection_from_events(&text).unwrap_err().to_string(),
        "session events text is 134217729 bytes; the limit is 134217728 bytes"
    );
}

/// The checks the addon makes on a JavaScript value before reading any of it, for the lengths a
/// hostile-input run used: a sparse `exclude` of length 2**32 - 1 once made the addon ask for
/// 103 GB.
#[test]
fn lengths_from_javascript_are_refused_from_the_length_alone() {
    for len in [u32::MAX as usize, 1 << 31, MAX_TOOLS + 1] {
        assert_eq!(
            check_exclusions(len).unwrap_err(),
            format!("exclude holds {len} entries; the limit is {MAX_TOOLS}")
        );
    }
    assert!(check_exclusions(MAX_TOOLS).is_ok());
    // A string of 2**28 UTF-16 code units (JavaScript knows the count without reading it) is at
    // least that many bytes, and at least half as many characters.
    let units = 1 << 28;
    for limit in [CATALOG_TEXT, EVENTS_TEXT, PAYLOAD_TEXT, TOOL_NAME] {
        let refused = limit.check_units(units).unwrap_err();
        assert_eq!(
            refused,
            format!("{} is at least 268435456 bytes; the limit is {} bytes", limit.name, limit.max_bytes)
        );
    }
    assert_eq!(check_query_units(units).unwrap_err(), "query is at least 134217728 characters long; the limit is 4096");
    // Every payload the events bound lets replay read, the payload bound lets the live commit read.
    assert_eq!(PAYLOAD_TEXT.max_bytes, EVENTS_TEXT.max_bytes);
    assert_eq!(
        CATALOG_TEXT.too_large(MAX_CATALOG_BYTES + 1),
        error_of(&" ".repeat(MAX_CATALOG_BYTES + 1)),
        "one message for one bound"
    );
}

#[test]
fn a_payload_of_any_size_or_shape_selects_only_whole_version_one_payloads() {
    let many: Vec<String> = (0..100_000).map(|i| format!(r#"{{"name":"t{}"}}"#, i % 1000)).collect();
    let payload = format!(r#"{{"schemaVersion":1,"tools":[{}]}}"#, many.join(","));
    assert_eq!(selection_from_payload(&payload).len(), 1000, "each name once");
    let deep = format!(r#"{{"schemaVersion":1,"tools":[{}{}]}}"#, "[".repeat(1 << 20), "]".repeat(1 << 20));
    assert!(selection_from_payload(&deep).is_empty());
    assert!(selection_from_payload(&payload[..payload.len() - 1]).is_empty());
}

#[test]
fn huge_exclusion_lists_and_odd_exclusions() {
    let index =
        Index::from_catalog(r#"[{"name": "a", "description": "weather"}, {"name": "b", "description": "weather"}]"#)
            .unwrap();
    let many: Vec<String> = (0..100_000).map(|i| format!("x{i}")).collect();
    let mut exclude: Vec<&str> = many.iter().map(String::as_str).collect();
    exclude.extend(["", "a", "a"]);
    assert_eq!(names(&index, "weather"), ["a", "b"]);
    assert_eq!(Searcher::new(&index).search("weather", 5, &exclude).iter().map(|h| h.name).collect::<Vec<_>>(), ["b"]);
}

#[test]
fn corrupted_session_events_select_only_whole_successful_searches() {
    let good = r#"{\"schemaVersion\":1,\"query\":\"q\",\"tools\":[{\"name\":\"good\"}]}"#;
    let result = |id: &str, text: &str| {
        format!(
            r#"{{"type":"tool/result","data":{{"message":{{"content":[{{"type":"tool-result","toolCallId":"{id}","content":[{{"type":"text","text":"{text}"}}]}}]}}}}}}"#
        )
    };
    let call = |id: &str, name: &str| format!(r#"{{"type":"tool/call","data":{{"callId":"{id}","name":"{name}"}}}}"#);
    let events = [
        call("c1", "tool_search"),
        result("c1", &good[..good.len() / 2]), // truncated payload
        result("c1", &good.replace("\\\"schemaVersion\\\":1", "\\\"schemaVersion\\\":\\\"1\\\"")), // version as text
        result("c1", &good.replace("\\\"tools\\\"", "\\\"tool\\\"")), // renamed key
        result("c2", good),                    // no call
        call("c3", "bash"),
        result("c3", good), // another tool's result
        call("c4", "tool_search"),
        call("c4", "bash"), // call id reused: the later call wins
        result("c4", good),
        r#"{"type":"tool/result","data":{"message":{"content":{"0":{}}}}}"#.to_string(),
        r#"{"type":"tool/result","data":{"message":null}}"#.to_string(),
        r#"{"type":"tool/call","data":[]}"#.to_string(),
        "\"tool/result\"".to_string(),
    ];
    assert!(selection_from_events(&format!("[{}]", events.join(","))).unwrap().selected.is_empty());
    let fixed = [call("c5", "tool_search"), result("c5", good)];
    assert_eq!(
        selection_from_events(&format!("[{},{}]", events.join(","), fixed.join(","))).unwrap().selected,
        ["good"]
    );
}

#[test]
fn empty_inputs_are_empty_answers() {
    let index = Index::from_catalog("[]").unwrap();
    assert!(
        Searcher::new(&index).search("", 5, &[]).is_empty()
            && Searcher::new(&index).search("select:", 5, &[]).is_empty()
    );
    assert!(Searcher::new(&index).explain("", "x").is_none());
    assert!(selection_from_events("[]").unwrap().selected.is_empty());
    let one = Index::from_catalog(r#"{"tools": [{"name": "t"}]}"#).unwrap();
    assert!(Searcher::new(&one).search("   ", 5, &[]).is_empty() && Searcher::new(&one).search("+", 5, &[]).is_empty());
}

#[test]
fn numbers_beyond_f64_and_repeated_keys() {
    let index = Index::from_catalog(
        r#"[{"name": "t", "x": 1e999, "y": -1e-999, "description": "first", "description": "last"}]"#,
    )
    .unwrap();
    assert_eq!(index.search_text("t"), Some("t last"));
}

/// What one search costs, counted by the steps `work` counts: everything a `tool_search` answer
/// asks the core for (the matches, the filled page, the best match's strength, the nearest names
/// and the outline), in a lexical and in a hybrid index of the same catalog.
mod work_per_search {
    use std::sync::Arc;

    use crate::analysis::{term_of, Piece};
    use crate::limits::{MAX_NAME_WORDS, MAX_NEAREST_WORDS, MAX_RELATED_WORDS, NAME_READ_BYTES};
    use crate::semantic::{encode, Model};
    use crate::work::{measure, Counts, Step};
    use crate::{match_strength, nearest, outline, Index, Params, Searcher};

    /// A distinct word of five letters for every `i` below 26^4.
    fn word(i: usize) -> String {
        let mut i = i + 26usize.pow(4);
        let mut letters = Vec::new();
        while i > 0 {
            letters.push(b'a' + (i % 26) as u8);
            i /= 26;
        }
        letters.reverse();
        String::from_utf8(letters).unwrap()
    }

    fn words(range: std::ops::Range<usize>) -> Vec<String> {
        range.map(word).collect()
    }

    /// A word table that knows the terms of `known`, each pointing its own way.
    fn table(known: &[String]) -> Arc<Model> {
        let mut terms: Vec<String> = known.iter().filter_map(|w| term_of(Piece::Word(w))).collect();
        terms.sort();
        terms.dedup();
        let rows: Vec<(&str, u16, Vec<i8>)> = terms
            .iter()
            .enumerate()
            .map(|(i, term)| (term.as_str(), 100, (0..8).map(|d| ((i * 7 + d * 13) % 200) as i8 - 100).collect()))
            .collect();
        Arc::new(Model::from_bytes(encode(8, &rows)).unwrap())
    }

    /// `catalog` indexed lexically and with `table` as its semantic model.
    fn indexes(catalog: &str, table: &Arc<Model>) -> [Index; 2] {
        [
            Index::from_catalog(catalog).unwrap(),
            Index::from_catalog_ranked(catalog, Params::default(), Some(table.clone().into())).unwrap(),
        ]
    }

    fn tools(entries: impl IntoIterator<Item = String>) -> String {
        format!("[{}]", entries.into_iter().collect::<Vec<_>>().join(","))
    }

    /// The work of one answer's calls into the core for `query`.
    fn answer(index: &Index, query: &str) -> Counts {
        measure(|| {
            let searcher = Searcher::new(index);
            let hits = searcher.search(query, 5, &[]);
            searcher.search_filled(query, 5, &[]);
            if let Some(best) = hits.first() {
                match_strength(index, query, best.name);
            }
            nearest(query, index.names(), &[], 5);
            outline(index.names(), 4);
        })
        .1
    }

    /// Everyday tools beside the hostile ones, so that a search has something to rank.
    fn everyday(n: usize) -> Vec<String> {
        (0..n)
            .map(|i| format!(r#"{{"name": "tool_{}", "description": "Does {} things."}}"#, word(i), word(i + 1)))
            .collect()
    }

    #[test]
    fn a_name_of_a_hundred_thousand_words_costs_what_one_of_ten_thousand_does() {
        let names = words(0..100_000);
        let query = names.join(" ")[..1000].to_string();
        let model = table(&names[..400]);
        let work = |n: usize| {
            let catalog = tools(
                everyday(50)
                    .into_iter()
                    .chain([format!(r#"{{"name": "{}", "description": "huge"}}"#, names[..n].join("_"))]),
            );
            indexes(&catalog, &model).map(|index| answer(&index, &query))
        };
        let (small, big) = (work(10_000), work(100_000));
        for (small, big) in small.iter().zip(&big) {
            assert_eq!(big, small, "a longer name adds no work: it is read to its first {NAME_READ_BYTES} bytes");
            assert!(big.of(Step::NameByte) <= 3 * 51 * NAME_READ_BYTES, "{big:?}");
        }
        // The name agreement compares at most MAX_NAME_WORDS words of each of its leaders with
        // the query's (under 200 words of the table's).
        assert!(big[1].of(Step::WordPair) <= 10 * MAX_NAME_WORDS * 200, "{:?}", big[1]);
    }

    #[test]
    fn a_huge_enum_of_words_that_begin_alike_brings_in_a_bounded_number_of_related_words() {
        let values = words(0..100_000);
        let query = format!("data {}", values[..200].iter().map(|v| format!("data{v}")).collect::<Vec<_>>().join(" "));
        let model = table(&values[..400]);
        let work = |n: usize| {
            let enumerated: Vec<String> = values[..n].iter().map(|v| format!(r#""data{v}""#)).collect();
            let huge = format!(
                r#"{{"name": "huge_enum", "parameters": {{"properties": {{"kind": {{"enum": [{}]}}}}}}}}"#,
                enumerated.join(",")
            );
            let catalog = tools(everyday(50).into_iter().chain([huge]));
            indexes(&catalog, &model).map(|index| answer(&index, &query))
        };
        let (small, big) = (work(10_000), work(100_000));
        for (small, big) in small.iter().zip(&big) {
            assert_eq!(big.of(Step::QueryTerm), small.of(Step::QueryTerm), "{small:?} {big:?}");
            // "data" is the start of every value, and brings in only the first of them.
            assert!(big.of(Step::QueryTerm) <= 3 * 201 * (1 + 5 + MAX_RELATED_WORDS), "{big:?}");
            assert!(big.total() <= small.total() + small.total() / 10, "{small:?} {big:?}");
        }
    }

    #[test]
    fn thousands_of_tools_that_share_a_word_cost_in_proportion_to_their_number() {
        let names = words(0..8_000);
        let model = table(&names[..400]);
        let work = |n: usize| {
            let catalog = tools(
                names[..n]
                    .iter()
                    .map(|w| format!(r#"{{"name": "data_{w}", "description": "Reads the data of {w}."}}"#)),
            );
            indexes(&catalog, &model).map(|index| answer(&index, "data"))
        };
        let (small, big) = (work(4_000), work(8_000));
        for (small, big) in small.iter().zip(&big) {
            assert!(big.total() <= 2 * small.total() + small.total() / 10, "twice the tools: {small:?} {big:?}");
        }
    }

    #[test]
    fn a_query_of_many_distinct_words_costs_in_proportion_to_its_length() {
        let names = words(0..3_000);
        let model = table(&names);
        let catalog = tools(
            names.chunks(3).map(|w| format!(r#"{{"name": "{}", "description": "{}"}}"#, w.join("_"), w.join(" "))),
        );
        let indexes = indexes(&catalog, &model);
        let query = names.join(" ");
        let work = |chars: usize| indexes.each_ref().map(|index| answer(index, query[..chars].trim()));
        let (short, long) = (work(2048), work(4096));
        assert!(query[..2048].split(' ').count() > MAX_NEAREST_WORDS);
        for (short, long) in short.iter().zip(&long) {
            assert!(long.total() <= 2 * short.total() + short.total() / 10, "twice the query: {short:?} {long:?}");
            // The nearest names compare the query's first MAX_NEAREST_WORDS words only (both
            // queries have more).
            assert!(long.of(Step::Trigram) <= short.of(Step::Trigram), "{short:?} {long:?}");
        }
    }
}
