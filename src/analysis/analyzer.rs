//! The analyzer: a text's CJK runs and identifiers, read as pieces.

use unicode_normalization::UnicodeNormalization;

use super::fold::fold_into;
use super::split::{joins, splits, Letter};

/// A unit of text the analyzer found, before it becomes a term (see [`crate::term_of`]).
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
    fn scan<L: Letter>(
        &mut self,
        text: &str,
        units: &[L],
        at: &impl Fn(usize) -> usize,
        emit: &mut impl FnMut(Piece<'_>),
    ) {
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
    fn compound<L: Letter>(
        &mut self,
        text: &str,
        units: &[L],
        at: &impl Fn(usize) -> usize,
        emit: &mut impl FnMut(Piece<'_>),
    ) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::term_of;

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
        assert_eq!(
            pieces("Restaurants_2_FindRestaurants"),
            ["restaurants", "2", "find", "restaurants", "=restaurants2findrestaurants"]
        );
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
        assert_eq!(
            pieces("_private end. __init__ 'quoted' a--b x..y -"),
            ["private", "end", "init", "quoted", "a", "b", "=ab", "x", "y", "=xy"]
        );
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
    fn marks_and_scripts_of_the_unicode_table_stay_inside_their_runs() {
        assert_eq!(pieces("コーヒー"), ["=コー", "=ーヒ", "=ヒー"], "the prolonged sound mark is part of the word");
        assert_eq!(pieces("佐々木"), ["=佐々", "=々木"]);
        assert_eq!(pieces("ㄅㄆㄇ"), ["=ㄅㄆ", "=ㄆㄇ"], "Bopomofo");
        assert_eq!(pieces("\u{30000}\u{31350}"), ["=\u{30000}\u{31350}"], "extensions G and H");
        assert_eq!(pieces("ジョン・スミス"), ["=ジョ", "=ョン", "=スミ", "=ミス"], "shared punctuation separates");
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
}
