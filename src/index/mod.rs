//! The third stage: the inverted index over a catalog, built once (see `builder`) and then read
//! by the query side ([`crate::Searcher`]) for every search.
//!
//! Each term keeps a postings list of the documents that contain it, with its frequency in each
//! field, so a search reads only its own terms' postings. Everything that depends on the whole
//! catalog (field-length averages, idf) is fixed at build time, from integer totals, so the same
//! tools in any order give the same index. The fields of [`Index`] are private: the query side
//! reads it through the narrow crate API at the end of this file (a document's strings, a term's
//! id, kind, idf and postings, words by prefix), so its representation can change here alone.

mod acronyms;
pub mod bm25;
mod builder;
mod params;
mod postings;
mod vocabulary;

pub(crate) use acronyms::MAX_ACRONYM;
pub use params::Params;
pub(crate) use postings::Postings;

use std::sync::Arc;

use crate::gloss::Glossary;
use crate::input::catalog::{self, CatalogError};
use crate::input::projection::FIELDS;
use crate::semantic::{DocVectors, Model, SemanticModel, ToolVectors};
use vocabulary::Vocabulary;

pub(crate) type DocId = u32;
pub(crate) type TermId = u32;
/// A term's count in one field of one document. Sixteen bits, saturating: past a few occurrences
/// BM25 no longer tells counts apart, and postings are most of an index's memory.
pub(crate) type Tf = u16;

/// One indexed tool.
pub(crate) struct Doc {
    /// Name, summary and projected text, one after another in one allocation: an index holds a
    /// document per tool, and three strings each made building and freeing one visibly slower.
    strings: String,
    name_end: u32,
    summary_end: u32,
    /// Per field: weight / length normalization, so a term's fielded frequency is a dot product.
    field_factor: [f64; FIELDS],
}

impl Doc {
    fn new(name: &str, summary: &str, text: &str) -> Doc {
        let mut strings = String::with_capacity(name.len() + summary.len() + text.len());
        strings.push_str(name);
        strings.push_str(summary);
        strings.push_str(text);
        let name_end = name.len() as u32;
        let summary_end = name_end + summary.len() as u32;
        Doc { strings, name_end, summary_end, field_factor: [0.0; FIELDS] }
    }

    pub(crate) fn name(&self) -> &str {
        &self.strings[..self.name_end as usize]
    }

    /// The short description a hit carries.
    pub(crate) fn summary(&self) -> &str {
        &self.strings[self.name_end as usize..self.summary_end as usize]
    }

    /// The projected text, for `search_text`.
    pub(crate) fn text(&self) -> &str {
        &self.strings[self.summary_end as usize..]
    }
}

/// How a term came about, which decides how a query may match it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TermKind {
    /// A stemmed word; takes part in prefix matching.
    Word,
    /// A whole identifier or a CJK piece; matches only itself.
    Verbatim,
}

/// A BM25F index over the tools of one catalog.
pub struct Index {
    params: Params,
    docs: Vec<Doc>,
    /// Document ids in name order, for exact-name lookups.
    by_name: Vec<DocId>,
    /// Each document's place in name order: ties are broken by name on every page, and comparing
    /// two places costs the same however long (or alike) the names are.
    name_rank: Vec<u32>,
    vocabulary: Vocabulary,
    /// Word terms in text order, for prefix lookups.
    words_sorted: Vec<(Box<str>, TermId)>,
    postings: Postings,
    idf: Vec<f64>,
    /// What the index left out under a soft limit (see `limits.rs`), one sentence each.
    warnings: Vec<String>,
    /// The acronyms its names spell, made the first time a query asks.
    acronyms: std::sync::OnceLock<acronyms::Acronyms>,
    /// The semantic side of a hybrid index.
    semantic: Option<Semantic>,
}

/// A hybrid index's models and every tool's vectors: the static table's, computed with the
/// index, and the transformer's, which the background worker fills in.
struct Semantic {
    table: Arc<Model>,
    vectors: DocVectors,
    /// The transformer's vectors of the tools, when the model has the transformer.
    contextual: Option<Arc<ToolVectors>>,
    glossary: Option<Arc<Glossary>>,
}

impl Index {
    /// Parses catalog JSON (see [`crate::CatalogError`] for what is refused) and indexes it with
    /// the default parameters. A repeated name keeps its first tool.
    pub fn from_catalog(text: &str) -> Result<Index, CatalogError> {
        Self::from_catalog_with(text, Params::default())
    }

    /// [`Index::from_catalog`] with other ranking parameters (the tuning tool tries many).
    pub fn from_catalog_with(text: &str, params: Params) -> Result<Index, CatalogError> {
        Self::from_catalog_ranked(text, params, None)
    }

    /// A hybrid index when `model` is given: each tool's name and description are embedded with
    /// it, and searches fuse the similarity with BM25F (see [`crate::Params`]). Without a model,
    /// [`Index::from_catalog_with`]. The transformer's vectors, if it has one, come later (see
    /// [`Index::wait_for_vectors`]).
    pub fn from_catalog_ranked(
        text: &str,
        params: Params,
        model: Option<SemanticModel>,
    ) -> Result<Index, CatalogError> {
        let json = catalog::parse(text)?;
        let tools = catalog::tools(&json)?;
        Ok(builder::build(&json, &tools, params, model))
    }

    /// Indexes tools already read from `json`, in the order given (lexical only).
    #[cfg(test)]
    pub(crate) fn build(json: &crate::Json, tools: &[crate::ToolSpec], params: Params) -> Index {
        builder::build(json, tools, params, None)
    }

    /// Whether searches fuse a semantic signal with the lexical one.
    pub fn is_hybrid(&self) -> bool {
        self.semantic.is_some()
    }

    /// The transformer's vectors of this index, when it has the transformer.
    pub(crate) fn transformer_vectors(&self) -> Option<&Arc<ToolVectors>> {
        self.semantic.as_ref()?.contextual.as_ref()
    }

    /// Blocks until every tool's transformer vector is in place (or the background worker gave
    /// up on them). Searches never need to: one that needs a vector not made yet makes it, so it
    /// answers as it would after. Returns at once without a transformer.
    pub fn wait_for_vectors(&self) {
        if let Some(vectors) = self.transformer_vectors() {
            vectors.wait();
        }
    }

    pub fn len(&self) -> usize {
        self.docs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// Every indexed tool name, in catalog order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.docs.iter().map(Doc::name)
    }

    /// What this index left out under a soft limit, one sentence each (empty for any real catalog).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The projected text a tool is indexed under.
    pub fn search_text(&self, name: &str) -> Option<&str> {
        self.doc_named(name).map(|doc| self.doc(doc).text())
    }

    // The crate API the query side reads the index through.

    pub(crate) fn params(&self) -> &Params {
        &self.params
    }

    /// The model and the tools' vectors of a hybrid index.
    pub(crate) fn semantic(&self) -> Option<(&Model, &DocVectors)> {
        self.semantic.as_ref().map(|semantic| (semantic.table.as_ref(), &semantic.vectors))
    }

    /// The glossary a hybrid index reads a query's CJK text with, when it has one and
    /// `Params::gloss_weight` does not turn it off.
    pub(crate) fn glossary(&self) -> Option<&Glossary> {
        self.semantic.as_ref()?.glossary.as_deref().filter(|_| self.params.gloss_weight > 0.0)
    }

    /// The transformer and the tools' vectors from it.
    pub(crate) fn contextual(&self) -> Option<&ToolVectors> {
        self.semantic.as_ref()?.contextual.as_deref()
    }

    pub(crate) fn doc(&self, doc: DocId) -> &Doc {
        &self.docs[doc as usize]
    }

    /// The document of the tool called exactly `name`.
    pub(crate) fn doc_named(&self, name: &str) -> Option<DocId> {
        let at = self.by_name.binary_search_by(|&doc| self.doc(doc).name().cmp(name)).ok()?;
        Some(self.by_name[at])
    }

    /// The document's place among the index's names in code-point order.
    pub(crate) fn name_rank(&self, doc: DocId) -> u32 {
        self.name_rank[doc as usize]
    }

    /// The id of an index term.
    pub(crate) fn term(&self, text: &str) -> Option<TermId> {
        self.vocabulary.get(text)
    }

    pub(crate) fn term_text(&self, id: TermId) -> &str {
        self.vocabulary.text(id)
    }

    /// Whether a term is a word (which takes part in prefix matching).
    pub(crate) fn is_word(&self, id: TermId) -> bool {
        self.vocabulary.kind(id) == TermKind::Word
    }

    /// The word terms of the name runs whose initials spell `acronym` (see `acronyms`).
    pub(crate) fn acronym_words(&self, acronym: &str) -> &[TermId] {
        self.acronyms.get_or_init(|| acronyms::Acronyms::of(self)).words(acronym)
    }

    /// The word terms longer than `prefix` that begin with it, in text order.
    pub(crate) fn words_extending<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = TermId> + 'a {
        let start = self.words_sorted.partition_point(|(text, _)| text.as_ref() <= prefix);
        self.words_sorted[start..].iter().take_while(move |(text, _)| text.starts_with(prefix)).map(|&(_, id)| id)
    }

    pub(crate) fn idf(&self, id: TermId) -> f64 {
        self.idf[id as usize]
    }

    pub(crate) fn postings(&self) -> &Postings {
        &self.postings
    }

    /// Whether `doc` holds `term`.
    pub(crate) fn holds(&self, term: TermId, doc: DocId) -> bool {
        self.postings.find(term, doc).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{MAX_SCHEMA_DEPTH, MAX_TOOLS};
    use crate::search::Searcher;

    #[test]
    fn postings_record_frequency_per_field() {
        let catalog = r#"[{"name": "get_weather", "description": "Weather now. Weather later.",
                           "parameters": {"properties": {"weather_kind": {"description": "which weather"}}}}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        let term = index.term("weather").unwrap();
        let (tf, impact) = index.postings.find(term, 0).unwrap();
        assert_eq!(tf, [1, 2, 1, 1]);
        assert!(impact > 0.0);
        assert!(index.postings.find(term, 1).is_none());
        assert!(index.is_word(term));
        assert!(!index.is_word(index.term("getweather").unwrap()));
    }

    #[test]
    fn names_keep_catalog_order_and_the_first_of_a_repeated_name() {
        let index =
            Index::from_catalog(r#"[{"name": "b"}, {"name": "a"}, {"name": "b", "description": "again"}]"#).unwrap();
        assert_eq!(index.names().collect::<Vec<_>>(), ["b", "a"]);
        assert_eq!(index.len(), 2);
    }

    #[test]
    fn real_catalogs_have_no_warnings() {
        let files = [
            "bench/data/bfcl/bfcl-catalog.json",
            "catalogs/dsh/headless-tools.json",
            "catalogs/mcp/github.json",
            "catalogs/mcp/notion.json",
            "catalogs/mcp/playwright.json",
        ];
        for file in files {
            let text = std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
            assert!(Index::from_catalog(&text).unwrap().warnings().is_empty(), "{file}");
        }
    }

    /// A schema whose deepest text, `bottom`, is `levels` schema levels down, by `hop`.
    fn nested_schema(levels: usize, hop: (&str, &str)) -> String {
        let mut schema = String::from(r#"{"description": "bottom"}"#);
        for _ in 1..levels {
            schema = format!("{}{schema}{}", hop.0, hop.1);
        }
        schema
    }

    #[test]
    fn schema_text_to_the_depth_limit_is_indexed_in_every_catalog_shape() {
        let hops = [
            (r#"{"properties": {"p": "#, "}}"),
            (r#"{"items": [{}, "#, "]}"),
            (r#"{"anyOf": ["#, "]}"),
            (r#"{"items": "#, "}"),
        ];
        let shapes = [
            r#"[{"name": "t", "parameters": SCHEMA}]"#,
            r#"[{"type": "function", "function": {"name": "t", "parameters": SCHEMA}}]"#,
            r#"{"tools": [{"name": "t", "inputSchema": SCHEMA}]}"#,
        ];
        for hop in hops {
            for shape in shapes {
                let at_limit =
                    Index::from_catalog(&shape.replace("SCHEMA", &nested_schema(MAX_SCHEMA_DEPTH, hop))).unwrap();
                assert!(at_limit.warnings().is_empty(), "{hop:?} {shape}");
                assert!(at_limit.search_text("t").unwrap().ends_with("bottom"), "{hop:?} {shape}");
                let past =
                    Index::from_catalog(&shape.replace("SCHEMA", &nested_schema(MAX_SCHEMA_DEPTH + 1, hop))).unwrap();
                assert_eq!(past.warnings(), [format!("the schema of \"t\" nests deeper than {MAX_SCHEMA_DEPTH} levels; its text below that depth is not searchable")]);
                assert!(!past.search_text("t").unwrap().contains("bottom"));
            }
        }
    }

    #[test]
    fn many_too_deep_schemas_make_one_warning_that_names_five() {
        let deep = nested_schema(MAX_SCHEMA_DEPTH + 1, (r#"{"items": "#, "}"));
        let tools: Vec<String> = (0..7).map(|i| format!(r#"{{"name": "deep_{i}", "parameters": {deep}}}"#)).collect();
        let index = Index::from_catalog(&format!("[{}, {{\"name\": \"flat\"}}]", tools.join(","))).unwrap();
        assert_eq!(index.len(), 8);
        assert_eq!(index.warnings(), [format!(
            "the schemas of 7 tools nest deeper than {MAX_SCHEMA_DEPTH} levels; their text below that depth is not searchable: \
             \"deep_0\", \"deep_1\", \"deep_2\", \"deep_3\", \"deep_4\", and 2 more"
        )]);
    }

    #[test]
    fn tools_past_the_tool_limit_are_left_out_with_a_warning_not_an_error() {
        let extra = 5;
        let names: Vec<String> = (0..MAX_TOOLS + extra).map(|i| format!(r#"{{"name":"tool_{i}"}}"#)).collect();
        // A repeat of an indexed name is no extra tool; a repeat of a left-out one counts once.
        let text = format!(r#"[{},{{"name":"tool_0"}},{{"name":"tool_{MAX_TOOLS}"}}]"#, names.join(","));
        let index = Index::from_catalog(&text).unwrap();
        assert_eq!(index.len(), MAX_TOOLS);
        assert_eq!(index.names().last(), Some(format!("tool_{}", MAX_TOOLS - 1).as_str()));
        assert!(index.search_text(&format!("tool_{MAX_TOOLS}")).is_none());
        assert_eq!(index.warnings(), [format!(
            "the catalog holds {} tools; the first {MAX_TOOLS} in catalog order are indexed and the other {extra} are not searchable",
            MAX_TOOLS + extra
        )]);
        assert_eq!(Searcher::new(&index).search("tool_7", 1, &[])[0].name, "tool_7");
    }

    #[test]
    fn warnings_quote_and_cut_odd_names() {
        let name = format!("bad\n{}", "x".repeat(200));
        let deep = nested_schema(MAX_SCHEMA_DEPTH + 1, (r#"{"items": "#, "}"));
        let index =
            Index::from_catalog(&format!(r#"[{{"name": "bad\n{}", "parameters": {deep}}}]"#, "x".repeat(200))).unwrap();
        let warning = &index.warnings()[0];
        assert!(
            warning.starts_with(&format!("the schema of \"bad\\n{}\"... nests deeper", "x".repeat(76))),
            "{warning}"
        );
        assert!(!warning.contains('\n') && index.search_text(&name).is_some());
    }

    #[test]
    fn an_empty_field_never_divides_by_zero() {
        // b = 1 on the name field and a name with no terms at all.
        let index = Index::from_catalog(r#"[{"name": "__"}, {"name": "x_tool", "description": "d"}]"#).unwrap();
        assert!(index.docs.iter().all(|d| d.field_factor.iter().all(|f| f.is_finite())));
    }
}
