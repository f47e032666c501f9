//! A query as the glossary reads it: its CJK runs (as the analyzer finds and folds them) split
//! into words (`segment`), each content word with its English gloss, function words left out.
//! The lexical stage adds the gloss words to the query's terms ([`glosses`]); the semantic models
//! read the query with each CJK run replaced by its words' first meanings ([`reading`]), since
//! neither reads Chinese. Text outside the CJK runs is left as it is, so a query without CJK text
//! reads as itself.

use std::borrow::Cow;

use unicode_normalization::UnicodeNormalization;

use super::segment::segment;
use super::Glossary;
use crate::analysis::is_cjk;
use crate::limits::MAX_QUERY_CHARS;

/// Most CJK characters (after folding) of one text the glossary reads; the rest is left as
/// written. A query's own limit, so a query is read whole; it bounds the segmenter's tables.
pub(crate) const GLOSSED_CHARS: usize = MAX_QUERY_CHARS;

/// A piece of a text as the glossary reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part<'a> {
    /// Text outside the CJK runs (or past [`GLOSSED_CHARS`]), as written.
    Text(&'a str),
    /// A content word of a CJK run and its gloss.
    Glossed(&'a str, &'a str),
    /// A word of a CJK run the glossary does not have (a character no word covers).
    Unknown(&'a str),
    /// A function word of a CJK run, which the gloss leaves out.
    Function,
}

/// Calls `visit` with each piece of `text` in order.
fn read(glossary: &Glossary, text: &str, mut visit: impl FnMut(Part<'_>)) {
    let mut budget = GLOSSED_CHARS;
    let mut folded = String::new();
    let mut rest = text;
    while let Some(start) = rest.find(is_cjk) {
        let end = rest[start..].find(|c| !is_cjk(c)).map_or(rest.len(), |len| start + len);
        if start > 0 {
            visit(Part::Text(&rest[..start]));
        }
        // The run's characters within what is left of the budget, folded as the analyzer folds
        // a CJK run (NFKC, which a few compatibility characters lengthen: cut to the budget too).
        let run = &rest[start..end];
        let (glossed, left) = run.split_at(run.char_indices().nth(budget).map_or(run.len(), |(at, _)| at));
        budget -= glossed.chars().count();
        folded.clear();
        folded.extend(glossed.nfkc().take(GLOSSED_CHARS));
        segment(glossary, &folded, |word, id| match id {
            Some(id) if glossary.is_function(id) => visit(Part::Function),
            Some(id) => visit(Part::Glossed(word, glossary.gloss(id))),
            None => visit(Part::Unknown(word)),
        });
        if !left.is_empty() {
            visit(Part::Text(left));
        }
        rest = &rest[end..];
        if budget == 0 {
            break;
        }
    }
    if !rest.is_empty() {
        visit(Part::Text(rest));
    }
}

/// Calls `visit` with each content word of `text`'s CJK runs, folded, and its gloss, in order.
///
/// A lone character gives only its first meaning: one character means many things ("取": to
/// take, to get), and its other senses cost the bilingual set's Chinese requests R@5 (the
/// figures are in docs/model.md, "How the ranking parameters were chosen").
pub(crate) fn glosses(glossary: &Glossary, text: &str, mut visit: impl FnMut(&str, &str)) {
    read(glossary, text, |part| {
        if let Part::Glossed(word, gloss) = part {
            visit(word, if word.chars().nth(1).is_none() { first_meaning(gloss) } else { gloss });
        }
    });
}

/// A gloss's first meaning ("to open / to show" means "to open").
fn first_meaning(gloss: &str) -> &str {
    gloss.split([';', '/']).next().unwrap_or(gloss).trim()
}

/// `text` with each CJK run replaced by the first meaning of each of its content words (its
/// gloss up to the first `;` or `/`: "to open / to show" reads "to open"; characters no word
/// covers stay as they are): what the semantic models read. `text` itself when the glossary has
/// no word of it (English, or Korean, has none).
/// One meaning a word, where the lexical stage takes the whole gloss: every word a model reads
/// moves the query's one vector, and on the bilingual set's Chinese dev part the first meanings
/// find more than the whole glosses (docs/model.md has the figures).
pub(crate) fn reading<'t>(glossary: &Glossary, text: &'t str) -> Cow<'t, str> {
    if !text.contains(is_cjk) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() * 2);
    // Whether the glossary read a word, and whether the last piece was a character no word
    // covers (the next one joins it, so a run of them stays as written).
    let (mut read_any, mut unknown) = (false, false);
    let spaced = |out: &mut String, piece: &str| {
        if !out.is_empty() && !out.ends_with(' ') {
            out.push(' ');
        }
        out.push_str(piece);
    };
    read(glossary, text, |part| {
        match part {
            Part::Text(piece) => spaced(&mut out, piece.trim_start()),
            Part::Glossed(_, gloss) => spaced(&mut out, first_meaning(gloss)),
            Part::Unknown(piece) if unknown => out.push_str(piece),
            Part::Unknown(piece) => spaced(&mut out, piece),
            Part::Function => {}
        }
        read_any |= matches!(part, Part::Glossed(..) | Part::Function);
        unknown = matches!(part, Part::Unknown(_));
    });
    if !read_any {
        return Cow::Borrowed(text);
    }
    Cow::Owned(out.trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gloss::encode;

    fn glossary() -> Glossary {
        Glossary::from_bytes(encode(
            100,
            &[
                ("打开", 10, false, "to open / to show"),
                ("一个", 8, false, "a; an"),
                ("拉取", 20, false, "to pull"),
                ("请求", 12, false, "request"),
                ("我", 5, true, "I; me"),
                ("的", 4, true, "of"),
                ("天气", 15, false, "weather"),
                ("取", 30, false, "to take / to get"),
            ],
        ))
        .unwrap()
    }

    fn glossed(text: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        glosses(&glossary(), text, |word, gloss| out.push((word.to_string(), gloss.to_string())));
        out
    }

    #[test]
    fn content_words_are_glossed_and_function_words_left_out() {
        let expected = [("打开", "to open / to show"), ("一个", "a; an"), ("拉取", "to pull"), ("请求", "request")];
        assert_eq!(glossed("帮我打开一个拉取请求"), expected.map(|(w, g)| (w.to_string(), g.to_string())));
        assert!(glossed("open a pull request").is_empty());
        assert!(glossed("我的").is_empty());
    }

    #[test]
    fn a_lone_character_gives_its_first_meaning_only() {
        assert_eq!(glossed("取"), [("取".to_string(), "to take".to_string())]);
        assert_eq!(glossed("打开")[0].1, "to open / to show", "a word of two characters keeps its senses");
    }

    #[test]
    fn the_reading_replaces_each_run_by_its_glosses() {
        let glossary = glossary();
        assert_eq!(reading(&glossary, "打开一个拉取请求"), "to open a to pull request");
        assert_eq!(reading(&glossary, "GitHub上打开PR, 我的天气"), "GitHub 上 to open PR, weather");
        assert_eq!(reading(&glossary, "帮我"), "帮");
        assert_eq!(reading(&glossary, "帮帮我打开"), "帮帮 to open", "characters no word covers stay together");
        // Text without CJK reads as itself, borrowed.
        let english = "open a pull request";
        assert!(matches!(reading(&glossary, english), Cow::Borrowed(text) if text == english));
        // Text the glossary has no word of reads as itself, as written: Korean, say.
        for text in ["hey do 거실  에어컨 실행", "\u{F9F4}", "ｶﾀｶﾅ"] {
            assert!(matches!(reading(&glossary, text), Cow::Borrowed(read) if read == text), "{text}");
        }
        // Compatibility forms fold as the analyzer folds them: U+F9F4 is 林.
        assert_eq!(reading(&glossary, "\u{F9F4}天气"), "林 weather");
    }

    #[test]
    fn only_the_first_glossed_chars_are_read() {
        let glossary = glossary();
        let text = format!("{} 打开", "天气".repeat(GLOSSED_CHARS));
        let mut words = 0;
        glosses(&glossary, &text, |_, _| words += 1);
        assert_eq!(words, GLOSSED_CHARS / 2, "the budget ends inside the first run");
        let reading = reading(&glossary, &text);
        assert!(reading.starts_with("weather weather "));
        assert!(reading.ends_with(&format!(" {} 打开", "天气".repeat(GLOSSED_CHARS / 2))), "the rest stays as written");
    }
}
