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

use crate::hash::FastMap;
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
    /// The characters of the identifier being split, with their byte offsets.
    chars: Vec<(usize, char)>,
    folded: String,
    whole: String,
}

impl Analyzer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Calls `emit` with each piece of `text`, in order.
    pub fn pieces(&mut self, text: &str, mut emit: impl FnMut(Piece<'_>)) {
        let mut rest = text;
        while let Some(start) = rest.find(|c: char| c.is_alphanumeric()) {
            rest = &rest[start..];
            let first = rest.chars().next().unwrap_or_default();
            let end = if is_cjk(first) {
                rest.find(|c: char| !is_cjk(c)).unwrap_or(rest.len())
            } else {
                compound_end(rest)
            };
            let (run, tail) = rest.split_at(end);
            if is_cjk(first) {
                self.cjk_run(run, &mut emit);
            } else {
                self.compound(run, &mut emit);
            }
            rest = tail;
        }
    }

    /// An identifier or plain word: its parts, then the whole when there is more than one part.
    fn compound(&mut self, run: &str, emit: &mut impl FnMut(Piece<'_>)) {
        let mut chars = std::mem::take(&mut self.chars);
        chars.clear();
        chars.extend(run.char_indices());
        self.whole.clear();
        let mut parts = 0;
        let mut start = 0;
        for end in 1..=chars.len() {
            if end < chars.len() && !splits_before(&chars, end) {
                continue;
            }
            let part = &run[chars[start].0..chars.get(end).map_or(run.len(), |c| c.0)];
            start = end;
            if part.chars().all(is_separator) {
                continue;
            }
            fold_into(part, &mut self.folded);
            self.whole.push_str(&self.folded);
            parts += 1;
            emit(Piece::Word(&self.folded));
        }
        self.chars = chars;
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
static REMEMBERED: LazyLock<Mutex<FastMap<String, Option<String>>>> = LazyLock::new(Mutex::default);
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

/// Characters that join the parts of one identifier.
fn is_separator(c: char) -> bool {
    matches!(c, '_' | '-' | '.' | '\'')
}

/// Where an identifier starting at `text[0]` ends: letters and digits, joined by separators
/// that have a letter or digit on both sides.
fn compound_end(text: &str) -> usize {
    let mut end = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_alphanumeric() && !is_cjk(c) {
            end = i + c.len_utf8();
        } else if is_separator(c) && end == i {
            // A run of separators joins only when a letter or digit follows it.
            let mut ahead = chars.clone();
            while ahead.next_if(|&(_, next)| is_separator(next)).is_some() {}
            if !ahead.peek().is_some_and(|&(_, next)| next.is_alphanumeric() && !is_cjk(next)) {
                break;
            }
            while chars.next_if(|&(_, next)| is_separator(next)).is_some() {}
            end = chars.peek().map_or(text.len(), |&(j, _)| j);
        } else {
            break;
        }
    }
    end
}

/// Whether an identifier splits between `chars[i - 1]` and `chars[i]`.
fn splits_before(chars: &[(usize, char)], i: usize) -> bool {
    let (prev, cur) = (chars[i - 1].1, chars[i].1);
    let next = chars.get(i + 1).map(|c| c.1);
    match (prev, cur) {
        // "don't" stays one word; "9.8" stays one number.
        ('\'', _) | (_, '\'') => false,
        ('.', c) | (c, '.') if c.is_ascii_digit() && is_digit_around_dot(chars, i) => false,
        (p, c) if is_separator(p) || is_separator(c) => true,
        // camelCase, and the end of an acronym: "HTTPServer" -> "HTTP" | "Server".
        (p, c) if p.is_lowercase() && c.is_uppercase() => true,
        (p, c) if p.is_uppercase() && c.is_uppercase() => next.is_some_and(char::is_lowercase),
        // Letters and digits: "sha256" -> "sha" | "256", "v2" -> "v" | "2".
        (p, c) => p.is_numeric() != c.is_numeric(),
    }
}

/// Whether the dot next to position `i` sits between two digits.
fn is_digit_around_dot(chars: &[(usize, char)], i: usize) -> bool {
    let dot = if chars[i].1 == '.' { i } else { i - 1 };
    dot > 0 && chars[dot - 1].1.is_ascii_digit() && chars.get(dot + 1).is_some_and(|c| c.1.is_ascii_digit())
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
