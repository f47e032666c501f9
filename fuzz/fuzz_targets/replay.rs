//! Session event text: the selection a resumed Agent would get from it.
#![no_main]

use dsh_tool_search::selection_from_events;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(selected) = selection_from_events(&text) else { return };
    assert_eq!(selected, selection_from_events(&text).unwrap(), "same log, same selection");
    for (i, name) in selected.iter().enumerate() {
        assert!(!name.is_empty());
        assert!(!selected[..i].contains(name), "each name once, at its first appearance");
    }
});
