//! The inverted index: built once per catalog (see `build.rs`), then searched many times (see
//! `search.rs`).
//!
//! Each term keeps a postings list of the documents that contain it, with its frequency in each
//! field, so a search reads only its own terms' postings. Everything that depends on the whole
//! catalog (field-length averages, idf) is fixed at build time, from integer totals, so the same
//! tools in any order give the same index.

use crate::bm25;
use crate::input::catalog::{self, CatalogError};
use crate::input::projection::FIELDS;
use rustc_hash::FxHashMap;
use crate::params::Params;

pub(crate) type DocId = u32;
pub(crate) type TermId = u32;
/// A term's count in one field of one document. Sixteen bits, saturating: past a few occurrences
/// BM25 no longer tells counts apart, and postings are most of an index's memory.
pub(crate) type Tf = u16;

pub(crate) struct Doc {
    /// Name, summary and projected text, one after another in one allocation: an index holds a
    /// document per tool, and three strings each made building and freeing one visibly slower.
    strings: String,
    name_end: u32,
    summary_end: u32,
    /// Per field: weight / length normalization, so a term's fielded frequency is a dot product.
    pub field_factor: [f64; FIELDS],
}

impl Doc {
    pub(crate) fn new(name: &str, summary: &str, text: &str) -> Doc {
        let mut strings = String::with_capacity(name.len() + summary.len() + text.len());
        strings.push_str(name);
        strings.push_str(summary);
        strings.push_str(text);
        let name_end = name.len() as u32;
        let summary_end = name_end + summary.len() as u32;
        Doc { strings, name_end, summary_end, field_factor: [0.0; FIELDS] }
    }

    pub fn name(&self) -> &str {
        &self.strings[..self.name_end as usize]
    }

    /// The short description a hit carries.
    pub fn summary(&self) -> &str {
        &self.strings[self.name_end as usize..self.summary_end as usize]
    }

    /// The projected text, for `search_text`.
    pub fn text(&self) -> &str {
        &self.strings[self.summary_end as usize..]
    }
}

/// One document's occurrences of one term, as the build collects them.
#[derive(Clone, Copy)]
pub(crate) struct Posting {
    pub doc: DocId,
    pub tf: [Tf; FIELDS],
}

/// How a term came about, which decides how a query may match it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TermKind {
    /// A stemmed word; takes part in prefix matching.
    Word,
    /// A whole identifier or a CJK piece; matches only itself.
    Verbatim,
}

pub struct Index {
    pub(crate) params: Params,
    pub(crate) docs: Vec<Doc>,
    /// Document ids in name order, for exact-name lookups.
    pub(crate) by_name: Vec<DocId>,
    pub(crate) terms: FxHashMap<String, TermId>,
    pub(crate) kinds: Vec<TermKind>,
    pub(crate) postings: Postings,
    pub(crate) idf: Vec<f64>,
    /// Word terms in text order, for prefix lookups.
    pub(crate) words_sorted: Vec<(Box<str>, TermId)>,
    /// What the index left out under a soft limit (see [`crate::limits`]), one sentence each.
    pub(crate) warnings: Vec<String>,
}

impl Index {
    /// Parses catalog JSON (see [`catalog`]) and indexes it. A repeated name keeps its first tool.
    pub fn from_catalog(text: &str) -> Result<Index, CatalogError> {
        Self::from_catalog_with(text, Params::default())
    }

    pub fn from_catalog_with(text: &str, params: Params) -> Result<Index, CatalogError> {
        let json = catalog::parse(text)?;
        let tools = catalog::tools(&json)?;
        Ok(Self::build(&json, &tools, params))
    }

    /// Fixes each document's field factors once every length is known. Integer totals keep the
    /// averages independent of catalog order.
    pub(crate) fn normalize_lengths(&mut self, lengths: &[[usize; FIELDS]]) {
        let n = lengths.len().max(1) as f64;
        let mut avg = [0.0; FIELDS];
        for (f, slot) in avg.iter_mut().enumerate() {
            *slot = lengths.iter().map(|l| l[f]).sum::<usize>() as f64 / n;
        }
        let params = &self.params;
        for (doc, len) in self.docs.iter_mut().zip(lengths) {
            for f in 0..FIELDS {
                let ratio = if avg[f] > 0.0 { len[f] as f64 / avg[f] } else { 0.0 };
                let norm = 1.0 - params.b[f] + params.b[f] * ratio;
                // An empty field contributes nothing (and with b = 1 its norm would be 0).
                doc.field_factor[f] = if len[f] == 0 { 0.0 } else { params.weights[f] / norm };
            }
        }
    }

    pub(crate) fn term_id(&mut self, term: &str, kind: TermKind) -> TermId {
        if let Some(&id) = self.terms.get(term) {
            if kind == TermKind::Word {
                self.kinds[id as usize] = TermKind::Word;
            }
            return id;
        }
        let id = self.kinds.len() as TermId;
        self.terms.insert(term.to_string(), id);
        self.kinds.push(kind);
        id
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
        self.doc_named(name).map(|doc| self.docs[doc as usize].text())
    }

    /// The document of the tool called exactly `name`.
    pub(crate) fn doc_named(&self, name: &str) -> Option<DocId> {
        let at = self.by_name.binary_search_by(|&doc| self.docs[doc as usize].name().cmp(name)).ok()?;
        Some(self.by_name[at])
    }

    /// Whether `doc` holds `term`.
    pub(crate) fn holds(&self, term: TermId, doc: DocId) -> bool {
        self.postings.find(term, doc).is_some()
    }
}

/// Every term's postings in flat arrays: term `t`'s postings are positions
/// `starts[t]..starts[t + 1]`, in document order. Flat arrays instead of a growing list per
/// term: building them costs a counting sort rather than thousands of reallocations. Documents,
/// frequencies and impacts are kept apart so a search reads only what it sums: 12 bytes per
/// posting, in order.
#[derive(Default)]
pub(crate) struct Postings {
    starts: Vec<u32>,
    docs: Vec<DocId>,
    /// Frequency per field, for explanations.
    tfs: Vec<[Tf; FIELDS]>,
    /// The term's whole BM25F contribution to the document, fixed once the catalog is known.
    impacts: Vec<f64>,
}

impl Postings {
    /// Groups `(term, posting)` pairs by term, keeping their order (document order) within each.
    pub(crate) fn group(terms: usize, pairs: Vec<(TermId, Posting)>) -> Postings {
        let mut starts = vec![0u32; terms + 1];
        for &(term, _) in &pairs {
            starts[term as usize + 1] += 1;
        }
        for t in 1..=terms {
            starts[t] += starts[t - 1];
        }
        let mut cursor = starts.clone();
        let mut docs = vec![0; pairs.len()];
        let mut tfs = vec![[0; FIELDS]; pairs.len()];
        for (term, posting) in pairs {
            let slot = &mut cursor[term as usize];
            docs[*slot as usize] = posting.doc;
            tfs[*slot as usize] = posting.tf;
            *slot += 1;
        }
        Postings { starts, docs, tfs, impacts: Vec::new() }
    }

    fn range(&self, term: TermId) -> std::ops::Range<usize> {
        self.starts[term as usize] as usize..self.starts[term as usize + 1] as usize
    }

    /// How many documents hold `term`.
    pub(crate) fn count(&self, term: TermId) -> usize {
        self.range(term).len()
    }

    /// The documents holding `term` with its impact in each, in document order.
    pub(crate) fn scored(&self, term: TermId) -> impl Iterator<Item = (DocId, f64)> + '_ {
        let range = self.range(term);
        self.docs[range.clone()].iter().copied().zip(self.impacts[range].iter().copied())
    }

    /// `term`'s frequencies per field and impact in `doc`, if `doc` holds it.
    pub(crate) fn find(&self, term: TermId, doc: DocId) -> Option<([Tf; FIELDS], f64)> {
        let range = self.range(term);
        let at = range.start + self.docs[range].binary_search(&doc).ok()?;
        Some((self.tfs[at], self.impacts[at]))
    }

    /// Fixes every posting's impact from its term's idf and its document's field factors.
    pub(crate) fn weigh(&mut self, idf: &[f64], docs: &[Doc], k1: f64) {
        let mut impacts = Vec::with_capacity(self.docs.len());
        for (term, &idf) in idf.iter().enumerate() {
            for at in self.range(term as TermId) {
                let factor = &docs[self.docs[at] as usize].field_factor;
                let fielded: f64 = (0..FIELDS).map(|f| self.tfs[at][f] as f64 * factor[f]).sum();
                impacts.push(bm25::saturate(idf, fielded, k1));
            }
        }
        self.impacts = impacts;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{MAX_SCHEMA_DEPTH, MAX_TOOLS};

    #[test]
    fn postings_record_frequency_per_field() {
        let catalog = r#"[{"name": "get_weather", "description": "Weather now. Weather later.",
                           "parameters": {"properties": {"weather_kind": {"description": "which weather"}}}}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        let term = index.terms["weather"];
        let (tf, impact) = index.postings.find(term, 0).unwrap();
        assert_eq!(tf, [1, 2, 1, 1]);
        assert!(impact > 0.0);
        assert!(index.postings.find(term, 1).is_none());
        assert_eq!(index.kinds[term as usize], TermKind::Word);
        assert_eq!(index.kinds[index.terms["getweather"] as usize], TermKind::Verbatim);
    }

    #[test]
    fn names_keep_catalog_order_and_the_first_of_a_repeated_name() {
        let index = Index::from_catalog(r#"[{"name": "b"}, {"name": "a"}, {"name": "b", "description": "again"}]"#).unwrap();
        assert_eq!(index.names().collect::<Vec<_>>(), ["b", "a"]);
        assert_eq!(index.len(), 2);
    }

    #[test]
    fn real_catalogs_have_no_warnings() {
        let files = ["bench/data/bfcl/bfcl-catalog.json", "catalogs/dsh/headless-tools.json", "catalogs/mcp/github.json", "catalogs/mcp/notion.json", "catalogs/mcp/playwright.json"];
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
        let hops = [(r#"{"properties": {"p": "#, "}}"), (r#"{"items": [{}, "#, "]}"), (r#"{"anyOf": ["#, "]}"), (r#"{"items": "#, "}")];
        let shapes = [r#"[{"name": "t", "parameters": SCHEMA}]"#, r#"[{"type": "function", "function": {"name": "t", "parameters": SCHEMA}}]"#, r#"{"tools": [{"name": "t", "inputSchema": SCHEMA}]}"#];
        for hop in hops {
            for shape in shapes {
                let at_limit = Index::from_catalog(&shape.replace("SCHEMA", &nested_schema(MAX_SCHEMA_DEPTH, hop))).unwrap();
                assert!(at_limit.warnings().is_empty(), "{hop:?} {shape}");
                assert!(at_limit.search_text("t").unwrap().ends_with("bottom"), "{hop:?} {shape}");
                let past = Index::from_catalog(&shape.replace("SCHEMA", &nested_schema(MAX_SCHEMA_DEPTH + 1, hop))).unwrap();
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
        assert_eq!(index.search("tool_7", 1, &[])[0].name, "tool_7");
    }

    #[test]
    fn warnings_quote_and_cut_odd_names() {
        let name = format!("bad\n{}", "x".repeat(200));
        let deep = nested_schema(MAX_SCHEMA_DEPTH + 1, (r#"{"items": "#, "}"));
        let index = Index::from_catalog(&format!(r#"[{{"name": "bad\n{}", "parameters": {deep}}}]"#, "x".repeat(200))).unwrap();
        let warning = &index.warnings()[0];
        assert!(warning.starts_with(&format!("the schema of \"bad\\n{}\"... nests deeper", "x".repeat(76))), "{warning}");
        assert!(!warning.contains('\n') && index.search_text(&name).is_some());
    }

    #[test]
    fn an_empty_field_never_divides_by_zero() {
        // b = 1 on the name field and a name with no terms at all.
        let index = Index::from_catalog(r#"[{"name": "__"}, {"name": "x_tool", "description": "d"}]"#).unwrap();
        assert!(index.docs.iter().all(|d| d.field_factor.iter().all(|f| f.is_finite())));
    }
}
