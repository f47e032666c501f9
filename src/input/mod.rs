//! The first stage: what callers hand the core, read into the shapes the index is built from.
//!
//! [`json`] reads text (catalogs and session events alike) without recursion; [`catalog`] finds
//! the tools in the shapes catalogs arrive in; [`projection`] turns one tool into the fielded
//! text it is searched under; [`summary`] is the short description a hit carries.

pub mod catalog;
pub mod json;
pub mod projection;
pub mod summary;
