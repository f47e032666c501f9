//! Session event text: the selection a resumed Agent would get from it.
#![no_main]

use dsh_tool_search::selection_from_events;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(selection) = selection_from_events(&text) else { return };
    assert_eq!(selection, selection_from_events(&text).unwrap(), "same log, same selection");
    let selected = &selection.selected;
    for (i, name) in selected.iter().enumerate() {
        assert!(!name.is_empty());
        assert!(!selected[..i].contains(name), "each name once, at its first appearance");
    }
    let used = &selection.last_used;
    for (i, name) in used.iter().enumerate() {
        assert!(!used[..i].contains(name), "each used name once, at its last use");
    }
    let mut rest = selected.iter();
    for name in &selection.prefetched {
        assert!(rest.any(|selected| selected == name), "prefetched names are selected names, in the same order");
    }
});
