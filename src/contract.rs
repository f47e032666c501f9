//! The facts the plugin's TypeScript and this crate share, from their one source,
//! `plugin/contract.ts`, which `build.rs` reads at every build: the search tool's name, the model
//! package's name, the bounds both sides apply to what a search is given, and the session log's
//! names (the payload version and the fields replay reads, the selection records' ids, the
//! replayed event types).

// The model package's name is for the addon (`node/`); the plain-Rust core has no use for it.
#![cfg_attr(not(feature = "node"), allow(dead_code))]

include!(concat!(env!("OUT_DIR"), "/contract.rs"));
