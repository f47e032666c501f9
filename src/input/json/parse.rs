//! Reading JSON text into a [`Json`] document without recursion (see the module above for why).

use std::borrow::Cow;
use std::ops::Range;

use super::{Json, JsonError, Node, NodeId, MAX_JSON_DEPTH};

/// A container that is still being read; its children so far are the tail of the parser's
/// `open_items` or `open_members` from `start` on (a nested container's children stack above
/// its parent's, and leave when it closes).
/// `at` is the byte position of its opening bracket.
enum Open<'a> {
    Array { start: usize, at: usize },
    Object { start: usize, at: usize, key: Option<Cow<'a, str>> },
}

pub(super) struct Parser<'a> {
    text: &'a [u8],
    source: &'a str,
    pos: usize,
    nodes: Vec<Node<'a>>,
    items: Vec<NodeId>,
    members: Vec<(Cow<'a, str>, NodeId)>,
    open_items: Vec<NodeId>,
    open_members: Vec<(Cow<'a, str>, NodeId)>,
    /// Each finished node's byte range, when they are asked for.
    spans: Option<Vec<Range<usize>>>,
}

impl<'a> Parser<'a> {
    pub(super) fn new(text: &'a str, spans: Option<Vec<Range<usize>>>) -> Self {
        Parser {
            text: text.as_bytes(),
            source: text,
            pos: 0,
            nodes: Vec::new(),
            items: Vec::new(),
            members: Vec::new(),
            open_items: Vec::new(),
            open_members: Vec::new(),
            spans,
        }
    }

    pub(super) fn document(mut self) -> Result<Json<'a>, JsonError> {
        let root = self.value()?;
        self.skip_ws();
        if self.pos < self.text.len() {
            return Err(self.error("unexpected text after the JSON value"));
        }
        let spans = self.spans.unwrap_or_default();
        Ok(Json { nodes: self.nodes, items: self.items, members: self.members, root, source: self.source, spans })
    }

    /// Reads one value of any depth without recursion.
    fn value(&mut self) -> Result<NodeId, JsonError> {
        let mut open: Vec<Open<'a>> = Vec::new();
        loop {
            self.skip_ws();
            let at = self.pos;
            // Start of a value: either a scalar, or a container that may close at once.
            let mut done = match self.peek() {
                Some(b'[' | b'{') if open.len() >= MAX_JSON_DEPTH => {
                    self.skip_container()?;
                    Some(self.push(Node::Null, at))
                }
                Some(b'[') => {
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        Some(self.push(Node::Array(0..0), at))
                    } else {
                        open.push(Open::Array { start: self.open_items.len(), at });
                        None
                    }
                }
                Some(b'{') => {
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        Some(self.push(Node::Object(0..0), at))
                    } else {
                        let key = self.key()?;
                        open.push(Open::Object { start: self.open_members.len(), at, key: Some(key) });
                        None
                    }
                }
                _ => {
                    let node = self.scalar_node()?;
                    Some(self.push(node, at))
                }
            };
            // Attach finished values to their containers; close containers that end here.
            while let Some(id) = done.take() {
                let Some(top) = open.last_mut() else { return Ok(id) };
                self.skip_ws();
                match top {
                    Open::Array { start, at } => {
                        let (start, at) = (*start, *at);
                        self.open_items.push(id);
                        match self.bump() {
                            Some(b',') => {}
                            Some(b']') => {
                                open.pop();
                                let first = self.items.len();
                                self.items.extend(self.open_items.drain(start..));
                                done = Some(self.push(Node::Array(first..self.items.len()), at));
                            }
                            got => return Err(self.unexpected(got, "expected ',' or ']' in an array")),
                        }
                    }
                    Open::Object { start, at, key } => {
                        let (start, at) = (*start, *at);
                        self.open_members.push((key.take().unwrap_or_default(), id));
                        match self.bump() {
                            Some(b',') => {
                                self.skip_ws();
                                *key = Some(self.key()?);
                            }
                            Some(b'}') => {
                                open.pop();
                                let first = self.members.len();
                                self.members.extend(self.open_members.drain(start..));
                                done = Some(self.push(Node::Object(first..self.members.len()), at));
                            }
                            got => return Err(self.unexpected(got, "expected ',' or '}' in an object")),
                        }
                    }
                }
            }
        }
    }

    /// Reads `"key" :` and leaves the position at the member's value.
    fn key(&mut self) -> Result<Cow<'a, str>, JsonError> {
        if self.peek() != Some(b'"') {
            return Err(self.error("expected a string key in an object"));
        }
        let key = self.string()?;
        self.skip_ws();
        match self.bump() {
            Some(b':') => Ok(key),
            got => Err(self.unexpected(got, "expected ':' after an object key")),
        }
    }

    /// Reads the container at the position without keeping any of it, checking its syntax as
    /// strictly as [`Self::value`] does. Its only memory is the closing bracket of each open level.
    fn skip_container(&mut self) -> Result<(), JsonError> {
        let mut closers: Vec<u8> = Vec::new();
        loop {
            // At the start of a value.
            self.skip_ws();
            match self.peek() {
                Some(open @ (b'[' | b'{')) => {
                    self.pos += 1;
                    self.skip_ws();
                    let closer = if open == b'[' { b']' } else { b'}' };
                    if !self.eat(closer) {
                        if open == b'{' {
                            self.key()?;
                        }
                        closers.push(closer);
                        continue;
                    }
                }
                _ => {
                    self.scalar_node()?;
                }
            }
            // After a value: separators and closing brackets, until another value starts.
            loop {
                let Some(&closer) = closers.last() else { return Ok(()) };
                self.skip_ws();
                match self.bump() {
                    Some(b',') => {
                        if closer == b'}' {
                            self.skip_ws();
                            self.key()?;
                        }
                        break;
                    }
                    Some(got) if got == closer => {
                        closers.pop();
                    }
                    got if closer == b']' => return Err(self.unexpected(got, "expected ',' or ']' in an array")),
                    got => return Err(self.unexpected(got, "expected ',' or '}' in an object")),
                }
            }
        }
    }

    fn scalar_node(&mut self) -> Result<Node<'a>, JsonError> {
        let node = match self.peek() {
            Some(b'"') => Node::String(self.string()?),
            Some(b't') => self.literal("true", Node::Bool(true))?,
            Some(b'f') => self.literal("false", Node::Bool(false))?,
            Some(b'n') => self.literal("null", Node::Null)?,
            Some(b'-' | b'0'..=b'9') => Node::Number(self.number()?),
            Some(_) => return Err(self.error("expected a JSON value")),
            None => return Err(self.error("unexpected end of JSON input")),
        };
        Ok(node)
    }

    fn literal(&mut self, word: &str, node: Node<'a>) -> Result<Node<'a>, JsonError> {
        if self.text[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(node)
        } else {
            Err(self.error("expected a JSON value"))
        }
    }

    fn number(&mut self) -> Result<f64, JsonError> {
        let start = self.pos;
        self.eat(b'-');
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error("expected a digit in a number")),
        }
        if self.eat(b'.') {
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("expected a digit after the decimal point"));
            }
            self.digits();
        }
        if self.eat(b'e') || self.eat(b'E') {
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("expected a digit in the exponent"));
            }
            self.digits();
        }
        // The grammar above admits only text that `f64::from_str` accepts.
        Ok(self.source[start..self.pos].parse().unwrap_or(f64::NAN))
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
    }

    fn string(&mut self) -> Result<Cow<'a, str>, JsonError> {
        self.pos += 1; // the opening quote
        let mut out: Cow<'a, str> = Cow::Borrowed("");
        loop {
            let run = self.pos;
            while let Some(&b) = self.text.get(self.pos) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            // The run stops only at ASCII bytes, so it ends on a character boundary.
            let piece = &self.source[run..self.pos];
            if out.is_empty() {
                out = Cow::Borrowed(piece);
            } else {
                out.to_mut().push_str(piece);
            }
            match self.bump() {
                Some(b'"') => return Ok(out),
                Some(b'\\') => self.escape(out.to_mut())?,
                Some(_) => return Err(self.unexpected_at_previous("control character in a string")),
                None => return Err(self.error("unterminated string")),
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), JsonError> {
        let c = match self.bump() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                let unit = self.hex4()?;
                match unit {
                    0xD800..=0xDBFF => {
                        // A high surrogate pairs only with an immediately following low one.
                        let after = self.pos;
                        if self.text[self.pos..].starts_with(b"\\u") {
                            self.pos += 2;
                            let low = self.hex4()?;
                            if (0xDC00..=0xDFFF).contains(&low) {
                                let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                                char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
                            } else {
                                self.pos = after;
                                char::REPLACEMENT_CHARACTER
                            }
                        } else {
                            char::REPLACEMENT_CHARACTER
                        }
                    }
                    _ => char::from_u32(unit).unwrap_or(char::REPLACEMENT_CHARACTER),
                }
            }
            got => return Err(self.unexpected(got, "invalid escape in a string")),
        };
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let digits = self.text.get(self.pos..self.pos + 4).unwrap_or_default();
        let text = std::str::from_utf8(digits).unwrap_or_default();
        match (text.len(), u32::from_str_radix(text, 16)) {
            (4, Ok(unit)) if text.bytes().all(|b| b.is_ascii_hexdigit()) => {
                self.pos += 4;
                Ok(unit)
            }
            _ => Err(self.error("expected four hex digits after \\u")),
        }
    }

    /// Adds a finished node that started at byte `at` and ends at the position.
    fn push(&mut self, node: Node<'a>, at: usize) -> NodeId {
        if let Some(spans) = &mut self.spans {
            spans.push(at..self.pos);
        }
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.pos += 1;
        Some(b)
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == Some(b);
        if hit {
            self.pos += 1;
        }
        hit
    }

    fn error(&self, message: &str) -> JsonError {
        error_at(self.source, self.pos, message)
    }

    /// An error about the byte `bump` just returned (`None`: the input ended).
    fn unexpected(&self, got: Option<u8>, message: &str) -> JsonError {
        match got {
            Some(_) => self.unexpected_at_previous(message),
            None => self.error("unexpected end of JSON input"),
        }
    }

    fn unexpected_at_previous(&self, message: &str) -> JsonError {
        error_at(self.source, self.pos - 1, message)
    }
}

fn error_at(source: &str, pos: usize, message: &str) -> JsonError {
    let before = &source.as_bytes()[..pos.min(source.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
    JsonError { message: message.to_string(), line, column }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Json<'_> {
        Json::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn reads_every_kind_of_value() {
        let doc = parse(r#" {"a": [1, -2.5e3, true, false, null], "b": {"c": "d"}, "e": []} "#);
        let root = doc.root();
        let a = doc.items(doc.get(root, "a").unwrap()).unwrap();
        assert_eq!(a.len(), 5);
        assert_eq!(doc.node(a[1]), &Node::Number(-2500.0));
        assert_eq!(doc.node(a[2]), &Node::Bool(true));
        assert_eq!(doc.node(a[4]), &Node::Null);
        let b = doc.get(root, "b").unwrap();
        assert_eq!(doc.get_str(b, "c"), Some("d"));
        assert_eq!(doc.items(doc.get(root, "e").unwrap()).unwrap().len(), 0);
        assert_eq!(doc.kind(root), "an object");
    }

    #[test]
    fn repeated_keys_resolve_to_the_last_like_json_parse() {
        let doc = parse(r#"{"name": "first", "name": "last"}"#);
        assert_eq!(doc.get_str(doc.root(), "name"), Some("last"));
    }

    #[test]
    fn decodes_escapes_and_surrogate_pairs() {
        let doc = parse(r#""a\"b\\c\/d\n\u00e9\ud83d\ude00""#);
        assert_eq!(doc.str_of(doc.root()), Some("a\"b\\c/d\né😀"));
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        // What JSON.stringify writes for "x\uD800y" and "\uDC00".
        let doc = parse(r#"["x\ud800y", "\udc00", "\ud800\u0041"]"#);
        let items = doc.items(doc.root()).unwrap();
        assert_eq!(doc.str_of(items[0]), Some("x\u{FFFD}y"));
        assert_eq!(doc.str_of(items[1]), Some("\u{FFFD}"));
        assert_eq!(doc.str_of(items[2]), Some("\u{FFFD}A"));
    }

    #[test]
    fn nesting_far_deeper_than_the_stack_allows_is_read_and_kept_to_the_depth_limit() {
        let depth = 200_000;
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let doc = parse(&text);
        let mut id = doc.root();
        let mut kept = 1;
        while let Some([child]) = doc.items(id) {
            id = *child;
            kept += 1;
        }
        assert_eq!(kept, MAX_JSON_DEPTH + 1, "the arrays down to the limit, then the placeholder");
        assert_eq!(doc.node(id), &Node::Null, "and below it a placeholder");
        assert!(doc.nodes.len() <= MAX_JSON_DEPTH + 1);
        let objects = format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth));
        assert!(Json::parse(&objects).is_ok());
    }

    #[test]
    fn a_container_past_the_depth_limit_reads_as_null_and_its_siblings_stay() {
        let shallow = "[".repeat(MAX_JSON_DEPTH - 1);
        let close = "]".repeat(MAX_JSON_DEPTH - 1);
        let text = format!(r#"{shallow}["x", {{"deep": [1, {{}}, []]}}, [], "y"]{close}"#);
        let doc = parse(&text);
        let mut id = doc.root();
        for _ in 1..MAX_JSON_DEPTH {
            id = doc.items(id).unwrap()[0];
        }
        let last = doc.items(id).unwrap();
        assert_eq!(
            last.iter().map(|&i| doc.node(i).clone()).collect::<Vec<_>>(),
            [Node::String("x".into()), Node::Null, Node::Null, Node::String("y".into())]
        );
    }

    #[test]
    fn syntax_past_the_depth_limit_is_checked_as_strictly() {
        let open = "[".repeat(MAX_JSON_DEPTH + 5);
        let close = "]".repeat(MAX_JSON_DEPTH + 5);
        assert!(Json::parse(&format!("{open}{close}")).is_ok());
        let at = MAX_JSON_DEPTH + 6;
        let cases = [
            (format!("{open}1 2{close}"), format!("expected ',' or ']' in an array at line 1, column {}", at + 2)),
            (
                format!("{open}{{\"a\" 1}}{close}"),
                format!("expected ':' after an object key at line 1, column {}", at + 5),
            ),
            (
                format!("{open}{{\"a\": 1,}}{close}"),
                format!("expected a string key in an object at line 1, column {}", at + 8),
            ),
            (
                format!("{open}{{\"a\": 1]{close}"),
                format!("expected ',' or '}}' in an object at line 1, column {}", at + 7),
            ),
            (format!("{open}\"\\x\"{close}"), format!("invalid escape in a string at line 1, column {}", at + 2)),
            (format!("{open}tru{close}"), format!("expected a JSON value at line 1, column {at}")),
            (format!("{open}[1,"), format!("unexpected end of JSON input at line 1, column {}", at + 3)),
            (open.clone(), format!("unexpected end of JSON input at line 1, column {at}")),
            (
                format!("{open}{close}]"),
                format!("unexpected text after the JSON value at line 1, column {}", 2 * at - 1),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(Json::parse(&text).unwrap_err().to_string(), expected, "{}", &text[MAX_JSON_DEPTH..]);
        }
    }

    #[test]
    fn errors_name_the_problem_and_the_place() {
        let cases = [
            ("", "unexpected end of JSON input at line 1, column 1"),
            ("[1,", "unexpected end of JSON input at line 1, column 4"),
            ("[1 2]", "expected ',' or ']' in an array at line 1, column 4"),
            ("{\"a\" 1}", "expected ':' after an object key at line 1, column 6"),
            ("{1: 2}", "expected a string key in an object at line 1, column 2"),
            ("[tru]", "expected a JSON value at line 1, column 2"),
            ("\"a\nb\"", "control character in a string at line 1, column 3"),
            ("\"\\x\"", "invalid escape in a string at line 1, column 3"),
            ("\"\\u12\"", "expected four hex digits after \\u at line 1, column 4"),
            ("01", "unexpected text after the JSON value at line 1, column 2"),
            ("[1]\n  x", "unexpected text after the JSON value at line 2, column 3"),
            ("-", "expected a digit in a number at line 1, column 2"),
            ("1.", "expected a digit after the decimal point at line 1, column 3"),
            ("1e", "expected a digit in the exponent at line 1, column 3"),
            ("\"abc", "unterminated string at line 1, column 5"),
        ];
        for (text, expected) in cases {
            let error = Json::parse(text).expect_err(text);
            assert_eq!(error.to_string(), expected, "input {text:?}");
        }
    }

    #[test]
    fn spans_give_each_value_its_text_as_written() {
        let text = r#" {"a": [1, "x\u00e9" , {"b" : null}], "deep": [[[]]], "e": {}} "#;
        let doc = Json::parse_with_spans(text).unwrap();
        let root = doc.root();
        assert_eq!(doc.source_text(root), Some(&text[1..text.len() - 1]));
        let a = doc.get(root, "a").unwrap();
        assert_eq!(doc.source_text(a), Some(r#"[1, "x\u00e9" , {"b" : null}]"#));
        let items = doc.items(a).unwrap();
        let texts: Vec<&str> = items.iter().map(|&i| doc.source_text(i).unwrap()).collect();
        assert_eq!(texts, ["1", r#""x\u00e9""#, r#"{"b" : null}"#]);
        assert_eq!(doc.source_text(doc.get(root, "e").unwrap()), Some("{}"));
        assert_eq!(doc.source_text(doc.get(root, "deep").unwrap()), Some("[[[]]]"));
        assert_eq!(Json::parse(text).unwrap().source_text(root), None, "only when asked for");
    }

    #[test]
    fn a_container_past_the_depth_limit_keeps_its_whole_text() {
        let deep = format!("{}{}", "[".repeat(MAX_JSON_DEPTH + 3), "]".repeat(MAX_JSON_DEPTH + 3));
        let text = format!(r#"{{"schema": {deep}}}"#);
        let doc = Json::parse_with_spans(&text).unwrap();
        assert_eq!(doc.source_text(doc.get(doc.root(), "schema").unwrap()), Some(deep.as_str()));
    }

    #[test]
    fn multibyte_text_survives_and_columns_count_characters() {
        let doc = parse(r#"["日本語 ü", "ok"]"#);
        assert_eq!(doc.str_of(doc.items(doc.root()).unwrap()[0]), Some("日本語 ü"));
        let error = Json::parse("[\"日本\" x]").unwrap_err();
        assert_eq!((error.line, error.column), (1, 7));
    }
}
