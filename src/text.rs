//! Text analysis: the one place where a string becomes search terms. Documents and queries go
//! through the same steps, so a word matches itself whatever its case, accents, inflection or
//! the identifier style it is written in.
//!
//! - Identifiers are split into words: `getCurrentWeather`, `get_current_weather`,
//!   `get-current-weather`, `Get.CurrentWeather`, `mcp__weather__get_current` and `sha256`
//!   all yield their parts ("get", "current", "weather", "sha", "256"). The whole identifier is
//!   kept too, without its separators ("getcurrentweather"), so a query that spells a name finds
//!   it in any of its styles. An apostrophe or a dot between digits does not split ("don't",
//!   "9.8").
//! - Words are folded (NFKD with combining marks removed, so "café" meets "cafe"; lowercase),
//!   English stop words are dropped and the rest stemmed with Porter2 (Snowball English).
//! - Chinese, Japanese and Korean runs have no spaces to split on; they become overlapping
//!   two-character pieces ("天气预报" gives "天气", "气预", "预报"), so a query shares pieces with a
//!   description that uses the same words. A lone character stays a piece of its own.

use std::sync::{LazyLock, Mutex, PoisonError};

use rust_stemmers::{Algorithm, Stemmer};
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

use rustc_hash::FxHashMap;
use crate::stopwords::is_stop_word;

/// A unit of text the analyzer found, before it becomes a term (see [`term_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece<'a> {
    /// A folded word: dropped if it is a stop word, stemmed otherwise.
    Word(&'a str),
    /// A whole identifier of several parts, folded, without separators; a term as it stands.
    Whole(&'a str),
    /// A CJK bigram (or lone character); a term as it stands.
    Gram(&'a str),
}

/// Splits text into pieces. Holds reusable buffers only; one analyzer can serve any number of
/// texts.
#[derive(Default)]
pub struct Analyzer {
    folded: String,
    whole: String,
    /// The characters of a non-ASCII text and their byte offsets (plus one for the end).
    chars: Vec<char>,
    offsets: Vec<usize>,
}

impl Analyzer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Calls `emit` with each piece of `text`, in order. ASCII text (most of any catalog) is
    /// scanned as bytes; other text as characters, by the same code.
    pub fn pieces(&mut self, text: &str, mut emit: impl FnMut(Piece<'_>)) {
        if text.is_ascii() {
            self.scan(text, text.as_bytes(), &|i| i, &mut emit);
        } else {
            let mut chars = std::mem::take(&mut self.chars);
            let mut offsets = std::mem::take(&mut self.offsets);
            chars.clear();
            offsets.clear();
            for (at, c) in text.char_indices() {
                chars.push(c);
                offsets.push(at);
            }
            offsets.push(text.len());
            self.scan(text, &chars, &|i| offsets[i], &mut emit);
            (self.chars, self.offsets) = (chars, offsets);
        }
    }

    /// Finds the CJK runs and the identifiers of `text`, whose letters are `units`; `at` maps a
    /// unit index to its byte offset in `text`.
    fn scan<L: Letter>(&mut self, text: &str, units: &[L], at: &impl Fn(usize) -> usize, emit: &mut impl FnMut(Piece<'_>)) {
        let mut i = 0;
        while i < units.len() {
            let start = i;
            if units[i].is_cjk() {
                while i < units.len() && units[i].is_cjk() {
                    i += 1;
                }
                self.cjk_run(&text[at(start)..at(i)], emit);
            } else if units[i].is_word() {
                // An identifier runs through letters, digits and separators and ends after its
                // last letter or digit: "end." is "end".
                let mut end = i;
                while i < units.len() && (units[i].is_word() || units[i].is_separator()) {
                    if units[i].is_word() {
                        end = i + 1;
                    }
                    i += 1;
                }
                self.compound(text, &units[start..end], &|k| at(start + k), emit);
                i = end;
            } else {
                i += 1;
            }
        }
    }

    /// An identifier or plain word: its parts, then the whole when there is more than one part.
    fn compound<L: Letter>(&mut self, text: &str, units: &[L], at: &impl Fn(usize) -> usize, emit: &mut impl FnMut(Piece<'_>)) {
        let mut parts = 0;
        let mut first = 0..0;
        let mut part_start = 0;
        let mut flush = |this: &mut Self, part: std::ops::Range<usize>| {
            if part.is_empty() {
                return;
            }
            let bytes = at(part.start)..at(part.end);
            fold_into(&text[bytes.clone()], &mut this.folded);
            // Combining marks that count as letters (Arabic harakat, U+0345) fold away: a part of
            // nothing else is no part, and must not become an empty term.
            if this.folded.is_empty() {
                return;
            }
            // The whole is needed only from the second part on; most words have one.
            match parts {
                0 => first = bytes,
                1 => {
                    fold_into(&text[first.clone()], &mut this.whole);
                    this.whole.push_str(&this.folded);
                }
                _ => this.whole.push_str(&this.folded),
            }
            parts += 1;
            emit(Piece::Word(&this.folded));
        };
        for k in 0..units.len() {
            let (c, next) = (units[k], units.get(k + 1).copied());
            let prev = k.checked_sub(1).map(|p| units[p]);
            if c.is_separator() && !joins(prev, c, next) {
                flush(self, part_start..k);
                part_start = k + 1;
            } else if prev.is_some_and(|p| splits(p, c, next)) && k > part_start {
                flush(self, part_start..k);
                part_start = k;
            }
        }
        flush(self, part_start..units.len());
        if parts > 1 {
            emit(Piece::Whole(&self.whole));
        }
    }

    /// A CJK run: overlapping bigrams, or the single character of a one-character run. NFKC,
    /// not NFKD: decomposing would split each Hangul syllable into its letters, while
    /// compatibility composition still unifies half- and full-width forms.
    fn cjk_run(&mut self, run: &str, emit: &mut impl FnMut(Piece<'_>)) {
        let mut folded = std::mem::take(&mut self.folded);
        folded.clear();
        folded.extend(run.nfkc());
        let bounds: Vec<usize> = folded.char_indices().map(|(i, _)| i).chain([folded.len()]).collect();
        if bounds.len() <= 3 {
            emit(Piece::Gram(&folded));
        } else {
            for w in bounds.windows(3) {
                emit(Piece::Gram(&folded[w[0]..w[2]]));
            }
        }
        self.folded = folded;
    }
}

/// What splitting needs to know about one character, for bytes of ASCII text and for chars.
trait Letter: Copy {
    /// A letter or digit outside the CJK scripts.
    fn is_word(self) -> bool;
    fn is_cjk(self) -> bool;
    fn is_lower(self) -> bool;
    fn is_upper(self) -> bool;
    fn is_number(self) -> bool;
    fn is_ascii_digit(self) -> bool;
    /// Joins the parts of one identifier: `_ - . '`.
    fn is_separator(self) -> bool;
    fn is_apostrophe(self) -> bool;
    fn is_dot(self) -> bool;
}

impl Letter for u8 {
    fn is_word(self) -> bool {
        self.is_ascii_alphanumeric()
    }
    fn is_cjk(self) -> bool {
        false
    }
    fn is_lower(self) -> bool {
        self.is_ascii_lowercase()
    }
    fn is_upper(self) -> bool {
        self.is_ascii_uppercase()
    }
    fn is_number(self) -> bool {
        self.is_ascii_digit()
    }
    fn is_ascii_digit(self) -> bool {
        u8::is_ascii_digit(&self)
    }
    fn is_separator(self) -> bool {
        matches!(self, b'_' | b'-' | b'.' | b'\'')
    }
    fn is_apostrophe(self) -> bool {
        self == b'\''
    }
    fn is_dot(self) -> bool {
        self == b'.'
    }
}

impl Letter for char {
    fn is_word(self) -> bool {
        self.is_alphanumeric() && !is_cjk(self)
    }
    fn is_cjk(self) -> bool {
        is_cjk(self)
    }
    fn is_lower(self) -> bool {
        self.is_lowercase()
    }
    fn is_upper(self) -> bool {
        self.is_uppercase()
    }
    fn is_number(self) -> bool {
        self.is_numeric()
    }
    fn is_ascii_digit(self) -> bool {
        char::is_ascii_digit(&self)
    }
    fn is_separator(self) -> bool {
        matches!(self, '_' | '-' | '.' | '\'')
    }
    fn is_apostrophe(self) -> bool {
        self == '\''
    }
    fn is_dot(self) -> bool {
        self == '.'
    }
}

/// The term a piece indexes under, or `None` for a stop word.
pub fn term_of(piece: Piece<'_>) -> Option<String> {
    match piece {
        Piece::Whole(text) | Piece::Gram(text) => Some(text.to_string()),
        Piece::Word(word) => remembered_term(word),
    }
}

static ENGLISH: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// Terms of words met earlier in this process (`None`: a stop word). The plugin rebuilds its
/// index after every registry change, over nearly the same vocabulary, and stemming new words was
/// a third of the build time. Bounded: cleared when it outgrows [`MAX_REMEMBERED_WORDS`].
static REMEMBERED: LazyLock<Mutex<FxHashMap<String, Option<String>>>> = LazyLock::new(Mutex::default);
const MAX_REMEMBERED_WORDS: usize = 100_000;

fn remembered_term(word: &str) -> Option<String> {
    let mut remembered = REMEMBERED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(term) = remembered.get(word) {
        return term.clone();
    }
    let noise = word.chars().count() < 2 || word.chars().all(|c| c.is_numeric() || c == '.');
    let term = (!is_stop_word(word) && !noise).then(|| ENGLISH.stem(word).into_owned());
    if remembered.len() >= MAX_REMEMBERED_WORDS {
        remembered.clear();
    }
    remembered.insert(word.to_string(), term.clone());
    term
}

/// NFKD, combining marks removed, lowercase, written into `out` (cleared first). ASCII text is
/// already decomposed, so it takes the cheap path: catalogs are mostly ASCII and folding is on
/// the index-build hot path.
pub fn fold_into(text: &str, out: &mut String) {
    out.clear();
    if text.is_ascii() {
        out.push_str(text);
        out.make_ascii_lowercase();
    } else {
        out.extend(text.nfkd().filter(|&c| !is_combining_mark(c)).flat_map(char::to_lowercase));
    }
}

/// Whether separator `c` (between `prev` and `next`) stays inside a part: an apostrophe always
/// ("don't"), a dot between two digits ("9.8").
fn joins<L: Letter>(prev: Option<L>, c: L, next: Option<L>) -> bool {
    let digit = |x: Option<L>| x.is_some_and(L::is_ascii_digit);
    c.is_apostrophe() || (c.is_dot() && digit(prev) && digit(next))
}

/// Whether a part ends between two neighbouring characters `prev` and `c` (`next` follows `c`).
fn splits<L: Letter>(prev: L, c: L, next: Option<L>) -> bool {
    // Inside a lowercase word, the common case, first: this runs for every character indexed.
    if prev.is_lower() && c.is_lower() {
        return false;
    }
    if !prev.is_word() || !c.is_word() {
        // Next to a joining separator ("don't", "9.8"): never.
        return false;
    }
    // camelCase, and the end of an acronym: "HTTPServer" -> "HTTP" | "Server".
    if prev.is_lower() && c.is_upper() {
        return true;
    }
    if prev.is_upper() && c.is_upper() {
        return next.is_some_and(L::is_lower);
    }
    // Letters and digits: "sha256" -> "sha" | "256", "v2" -> "v" | "2".
    prev.is_number() != c.is_number()
}

/// Scripts written without spaces between words (Han, Hiragana, Katakana) and Hangul.
fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{11FF}'     // Hangul Jamo
        | '\u{3040}'..='\u{30FF}'   // Hiragana, Katakana
        | '\u{3130}'..='\u{318F}'   // Hangul compatibility Jamo
        | '\u{31F0}'..='\u{31FF}'   // Katakana phonetic extensions
        | '\u{3400}'..='\u{4DBF}'   // CJK extension A
        | '\u{4E00}'..='\u{9FFF}'   // CJK unified ideographs
        | '\u{AC00}'..='\u{D7AF}'   // Hangul syllables
        | '\u{F900}'..='\u{FAFF}'   // CJK compatibility ideographs
        | '\u{FF66}'..='\u{FF9F}'   // halfwidth Katakana
        | '\u{20000}'..='\u{2FA1F}' // CJK extensions B-F, compatibility supplement
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        Analyzer::new().pieces(text, |piece| {
            out.push(match piece {
                Piece::Word(w) => w.to_string(),
                Piece::Whole(v) | Piece::Gram(v) => format!("={v}"),
            })
        });
        out
    }

    fn terms(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        Analyzer::new().pieces(text, |piece| out.extend(term_of(piece)));
        out
    }

    fn fold(text: &str) -> String {
        let mut out = String::from("stale");
        fold_into(text, &mut out);
        out
    }

    #[test]
    fn folds_accents_width_and_case() {
        assert_eq!(fold("Café RÉSUMÉ"), "cafe resume");
        assert_eq!(fold("ｆｕｌｌ ﬁle"), "full file");
        assert_eq!(fold("ASCII Only"), "ascii only");
    }

    #[test]
    fn snake_kebab_and_dotted_names_split_and_keep_the_whole() {
        assert_eq!(pieces("get_current_weather"), ["get", "current", "weather", "=getcurrentweather"]);
        assert_eq!(pieces("get-current-weather"), ["get", "current", "weather", "=getcurrentweather"]);
        assert_eq!(pieces("math.factorial"), ["math", "factorial", "=mathfactorial"]);
    }

    #[test]
    fn camel_and_pascal_case_split_at_case_changes() {
        assert_eq!(pieces("getCurrentWeather"), ["get", "current", "weather", "=getcurrentweather"]);
        assert_eq!(pieces("GetCurrentWeather"), ["get", "current", "weather", "=getcurrentweather"]);
        assert_eq!(pieces("HTTPServerError"), ["http", "server", "error", "=httpservererror"]);
        assert_eq!(pieces("parseJSON"), ["parse", "json", "=parsejson"]);
    }

    #[test]
    fn digits_split_from_letters() {
        assert_eq!(pieces("sha256"), ["sha", "256", "=sha256"]);
        assert_eq!(pieces("Restaurants_2_FindRestaurants"), ["restaurants", "2", "find", "restaurants", "=restaurants2findrestaurants"]);
        assert_eq!(pieces("2022"), ["2022"]);
    }

    #[test]
    fn mcp_names_split_into_server_and_tool_words() {
        assert_eq!(pieces("mcp__github__create_issue"), ["mcp", "github", "create", "issue", "=mcpgithubcreateissue"]);
        assert_eq!(terms("mcp__github__create_issue"), ["mcp", "github", "creat", "issu", "mcpgithubcreateissue"]);
    }

    #[test]
    fn apostrophes_and_decimal_points_do_not_split() {
        assert_eq!(pieces("don't"), ["don't"]);
        assert_eq!(pieces("rate 9.8 m/s"), ["rate", "9.8", "m", "s"]);
        assert_eq!(pieces("v1.2"), ["v", "1.2", "=v1.2"]);
    }

    #[test]
    fn separators_at_the_edges_belong_to_no_word() {
        assert_eq!(pieces("_private end. __init__ 'quoted' a--b x..y -"), ["private", "end", "init", "quoted", "a", "b", "=ab", "x", "y", "=xy"]);
    }

    #[test]
    fn drops_stop_words_and_stems() {
        assert_eq!(terms("Get the current weather for a city"), ["get", "current", "weather", "citi"]);
        assert_eq!(terms("running runs"), ["run", "run"]);
        assert!(terms("don't the of").is_empty());
        assert_eq!(terms("isValid"), ["valid", "isvalid"]);
    }

    #[test]
    fn chinese_and_japanese_runs_become_bigrams() {
        assert_eq!(pieces("天气预报"), ["=天气", "=气预", "=预报"]);
        assert_eq!(pieces("天"), ["=天"]);
        assert_eq!(pieces("東京の天気"), ["=東京", "=京の", "=の天", "=天気"]);
        assert_eq!(pieces("날씨를 알려줘"), ["=날씨", "=씨를", "=알려", "=려줘"]);
    }

    #[test]
    fn mixed_scripts_split_at_the_script_boundary() {
        assert_eq!(pieces("查询weather天气API"), ["=查询", "weather", "=天气", "api"]);
        assert_eq!(terms("用 GitHub 创建 issue"), ["用", "git", "hub", "github", "创建", "issu"]);
        assert_eq!(pieces("ｶﾀｶﾅ"), ["=カタ", "=タカ", "=カナ"]);
    }

    #[test]
    fn other_scripts_are_words() {
        assert_eq!(terms("Привет мир"), ["привет", "мир"]);
    }

    #[test]
    fn parts_that_fold_to_nothing_are_no_parts() {
        // U+061A ARABIC SMALL KASRA and U+0345 are alphabetic combining marks (found by fuzzing).
        assert!(pieces("\u{61a}").is_empty());
        assert_eq!(pieces("x_\u{61a}\u{345}"), ["x"]);
        assert_eq!(pieces("\u{61a}_get_weather"), ["get", "weather", "=getweather"]);
        assert_eq!(pieces("a\u{61a}b"), ["ab"]);
    }

    #[test]
    fn empty_and_symbol_only_text_has_no_pieces() {
        assert!(pieces("").is_empty());
        assert!(pieces(" -- ** \u{FFFD} ... ").is_empty());
    }

    #[test]
    fn remembered_terms_equal_fresh_stems() {
        for word in ["searching", "searches", "the", "weather"] {
            let expected = (!is_stop_word(word)).then(|| ENGLISH.stem(word).into_owned());
            assert_eq!(remembered_term(word), expected);
            assert_eq!(remembered_term(word), expected, "second call, from the memo");
        }
    }
}
