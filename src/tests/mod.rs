//! Suites that cut across the stages: hostile input, one test per class, and properties that must
//! hold for random catalogs, queries and session logs. Unit tests live beside their code.

mod contextual;
mod gloss;
mod hostile;
mod properties;
