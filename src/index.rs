//! The inverted index: built once per catalog, then searched many times (see `search.rs`).
//!
//! Each term keeps a postings list of the documents that contain it, with its frequency in each
//! field, so a search reads only its own terms' postings. Everything that depends on the whole
//! catalog (field-length averages, idf) is fixed at build time, from integer totals, so the same
//! tools in any order give the same index.

use crate::bm25;
use crate::catalog::{self, CatalogError, ToolSpec};
use crate::document::{project, Field, FIELDS};
use crate::hash::FastMap;
use crate::hash::FastSet;
use crate::json::Json;
use crate::limits::{MAX_SCHEMA_DEPTH, MAX_TOOLS};
use crate::params::Params;
use crate::summary::summarize;
use crate::text::{term_of, Analyzer, Piece};

pub(crate) type DocId = u32;
pub(crate) type TermId = u32;

pub(crate) struct Doc {
    pub name: String,
    pub summary: String,
    /// The projected text, kept for `search_text`.
    pub text: String,
    /// Per field: weight / length normalization, so a term's fielded frequency is a dot product.
    pub field_factor: [f64; FIELDS],
}

#[derive(Clone, Copy)]
pub(crate) struct Posting {
    pub doc: DocId,
    pub tf: [u32; FIELDS],
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
    pub(crate) by_name: FastMap<String, DocId>,
    pub(crate) terms: FastMap<String, TermId>,
    pub(crate) kinds: Vec<TermKind>,
    /// By term id; each list in document order.
    pub(crate) postings: Vec<Vec<Posting>>,
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

    pub(crate) fn build(json: &Json, tools: &[ToolSpec], params: Params) -> Index {
        let mut index = Index {
            params,
            docs: Vec::with_capacity(tools.len()),
            by_name: FastMap::default(),
            terms: FastMap::default(),
            kinds: Vec::new(),
            postings: Vec::new(),
            idf: Vec::new(),
            words_sorted: Vec::new(),
            warnings: Vec::new(),
        };
        let mut builder = Builder::default();
        let mut lengths: Vec<[usize; FIELDS]> = Vec::with_capacity(tools.len().min(MAX_TOOLS));
        let mut too_deep: Vec<&str> = Vec::new();
        let mut left_out: FastSet<&str> = FastSet::default();
        for tool in tools {
            if index.by_name.contains_key(tool.name) {
                continue;
            }
            if index.docs.len() == MAX_TOOLS {
                left_out.insert(tool.name);
                continue;
            }
            let doc = index.docs.len() as DocId;
            let projection = project(json, tool);
            if projection.too_deep {
                too_deep.push(tool.name);
            }
            builder.doc_terms.clear();
            for (field, text) in projection.fields() {
                builder.add_text(&mut index, field, text);
            }
            lengths.push(builder.field_lengths());
            index.add_postings(doc, &mut builder.doc_terms);
            index.by_name.insert(tool.name.to_string(), doc);
            index.docs.push(Doc {
                name: tool.name.to_string(),
                summary: summarize(tool.description),
                text: projection.text,
                field_factor: [0.0; FIELDS],
            });
        }
        index.normalize_lengths(&lengths);
        let n = index.docs.len();
        index.idf = index.postings.iter().map(|list| bm25::idf(n, list.len())).collect();
        let mut words: Vec<(Box<str>, TermId)> = index
            .terms
            .iter()
            .filter(|(_, &id)| index.kinds[id as usize] == TermKind::Word)
            .map(|(text, &id)| (text.as_str().into(), id))
            .collect();
        words.sort_unstable();
        index.words_sorted = words;
        index.warnings = warnings(&too_deep, left_out.len());
        index
    }

    /// Fixes each document's field factors once every length is known. Integer totals keep the
    /// averages independent of catalog order.
    fn normalize_lengths(&mut self, lengths: &[[usize; FIELDS]]) {
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

    fn term_id(&mut self, term: &str, kind: TermKind) -> TermId {
        if let Some(&id) = self.terms.get(term) {
            if kind == TermKind::Word {
                self.kinds[id as usize] = TermKind::Word;
            }
            return id;
        }
        let id = self.postings.len() as TermId;
        self.terms.insert(term.to_string(), id);
        self.postings.push(Vec::new());
        self.kinds.push(kind);
        id
    }

    /// Adds one posting per distinct term of a document, with its per-field frequencies.
    fn add_postings(&mut self, doc: DocId, terms: &mut [(TermId, Field)]) {
        terms.sort_unstable_by_key(|&(term, _)| term);
        for run in terms.chunk_by(|a, b| a.0 == b.0) {
            let mut tf = [0; FIELDS];
            for &(_, field) in run {
                tf[field as usize] += 1;
            }
            self.postings[run[0].0 as usize].push(Posting { doc, tf });
        }
    }

    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// Every indexed tool name, in catalog order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.docs.iter().map(|doc| doc.name.as_str())
    }

    /// What this index left out under a soft limit, one sentence each (empty for any real catalog).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The projected text a tool is indexed under.
    pub fn search_text(&self, name: &str) -> Option<&str> {
        self.by_name.get(name).map(|&doc| self.docs[doc as usize].text.as_str())
    }

    /// A term's postings entry for one document, if the document contains it.
    pub(crate) fn posting(&self, term: TermId, doc: DocId) -> Option<&Posting> {
        let list = &self.postings[term as usize];
        list.binary_search_by_key(&doc, |p| p.doc).ok().map(|i| &list[i])
    }
}

/// At most two sentences however many tools are affected: a caller logs them, and a catalog of
/// 100,000 odd tools must not become 100,000 log lines.
fn warnings(too_deep: &[&str], left_out: usize) -> Vec<String> {
    let mut warnings = Vec::new();
    match too_deep {
        [] => {}
        [name] => warnings.push(format!(
            "the schema of {} nests deeper than {MAX_SCHEMA_DEPTH} levels; its text below that depth is not searchable",
            quoted(name)
        )),
        names => {
            const SHOWN: usize = 5;
            let mut listed: Vec<String> = names.iter().take(SHOWN).map(|name| quoted(name)).collect();
            if names.len() > SHOWN {
                listed.push(format!("and {} more", names.len() - SHOWN));
            }
            warnings.push(format!(
                "the schemas of {} tools nest deeper than {MAX_SCHEMA_DEPTH} levels; their text below that depth is not searchable: {}",
                names.len(),
                listed.join(", ")
            ));
        }
    }
    if left_out > 0 {
        warnings.push(format!(
            "the catalog holds {} tools; the first {MAX_TOOLS} in catalog order are indexed and the other {left_out} are not searchable",
            MAX_TOOLS + left_out
        ));
    }
    warnings
}

/// A tool name for a message: quoted and escaped, and cut when it is unreasonably long.
fn quoted(name: &str) -> String {
    const MAX_CHARS: usize = 80;
    match name.char_indices().nth(MAX_CHARS) {
        Some((cut, _)) => format!("{:?}...", &name[..cut]),
        None => format!("{name:?}"),
    }
}

/// Per-build scratch state: the terms of the document being indexed and a cache from analyzer
/// pieces to term ids, so a word the catalog repeats is resolved once per build.
#[derive(Default)]
struct Builder {
    analyzer: Analyzer,
    words: FastMap<String, Option<TermId>>,
    verbatim: FastMap<String, TermId>,
    /// (term, field) of every term occurrence in the current document.
    doc_terms: Vec<(TermId, Field)>,
}

impl Builder {
    fn add_text(&mut self, index: &mut Index, field: Field, text: &str) {
        let Builder { analyzer, words, verbatim, doc_terms } = self;
        analyzer.pieces(text, |piece| {
            let id = match piece {
                Piece::Word(word) => match words.get(word) {
                    Some(&id) => id,
                    None => {
                        let id = term_of(piece).map(|term| index.term_id(&term, TermKind::Word));
                        words.insert(word.to_string(), id);
                        id
                    }
                },
                Piece::Whole(text) | Piece::Gram(text) => Some(match verbatim.get(text) {
                    Some(&id) => id,
                    None => {
                        let id = index.term_id(text, TermKind::Verbatim);
                        verbatim.insert(text.to_string(), id);
                        id
                    }
                }),
            };
            if let Some(id) = id {
                doc_terms.push((id, field));
            }
        });
    }

    fn field_lengths(&self) -> [usize; FIELDS] {
        let mut lengths = [0; FIELDS];
        for &(_, field) in &self.doc_terms {
            lengths[field as usize] += 1;
        }
        lengths
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postings_record_frequency_per_field() {
        let catalog = r#"[{"name": "get_weather", "description": "Weather now. Weather later.",
                           "parameters": {"properties": {"weather_kind": {"description": "which weather"}}}}]"#;
        let index = Index::from_catalog(catalog).unwrap();
        let term = index.terms["weather"];
        let posting = index.posting(term, 0).unwrap();
        assert_eq!(posting.tf, [1, 2, 1, 1]);
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
        for file in ["bfcl/bfcl-catalog.json", "dsh/headless-tools.json", "mcp/github.json", "mcp/notion.json", "mcp/playwright.json"] {
            let text = std::fs::read_to_string(format!("{}/scripts/data/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
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
