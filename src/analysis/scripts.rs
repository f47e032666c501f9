//! The scripts written without spaces between words (Han, Hiragana, Katakana) and Hangul and
//! Bopomofo, which are written beside them: their runs become overlapping two-character pieces
//! instead of words.
//!
//! [`RANGES`] is the Unicode Character Database, version 17.0.0: every range `Scripts.txt` gives
//! the scripts Han, Hiragana, Katakana, Hangul or Bopomofo, merged where ranges meet, and the
//! letters and marks `ScriptExtensions.txt` gives to these scripts alone (their Script is Common
//! or Inherited because several of them share the character): chiefly ー U+30FC, the prolonged
//! sound mark inside most katakana words, and 〆 U+3006. Punctuation the scripts share (、。・)
//! is left out, so it separates runs as it separates words.

/// Sorted, disjoint, and never adjacent (adjacent ranges are merged).
const RANGES: [(char, char); 53] = [
    ('\u{02EA}', '\u{02EB}'),   // Bopomofo tone marks
    ('\u{1100}', '\u{11FF}'),   // Hangul Jamo
    ('\u{2E80}', '\u{2E99}'),   // Han: CJK radicals supplement
    ('\u{2E9B}', '\u{2EF3}'),   // Han: CJK radicals supplement
    ('\u{2F00}', '\u{2FD5}'),   // Han: Kangxi radicals
    ('\u{3005}', '\u{3007}'),   // Han: 々, 〆 (by Script_Extensions), 〇
    ('\u{3021}', '\u{302F}'),   // Han: Hangzhou numerals; ideographic (by Script_Extensions) and Hangul tone marks
    ('\u{3031}', '\u{3035}'),   // Hiragana, Katakana (by Script_Extensions): vertical kana repeat marks
    ('\u{3038}', '\u{303C}'),   // Han: Hangzhou numerals, 〻; 〼 (by Script_Extensions)
    ('\u{3041}', '\u{3096}'),   // Hiragana
    ('\u{3099}', '\u{309A}'),   // Hiragana, Katakana (by Script_Extensions): combining voiced sound marks
    ('\u{309D}', '\u{309F}'),   // Hiragana iteration marks, ゟ
    ('\u{30A1}', '\u{30FA}'),   // Katakana
    ('\u{30FC}', '\u{30FF}'),   // Katakana: ー (by Script_Extensions), iteration marks, ヿ
    ('\u{3105}', '\u{312F}'),   // Bopomofo
    ('\u{3131}', '\u{318E}'),   // Hangul compatibility Jamo
    ('\u{31A0}', '\u{31BF}'),   // Bopomofo extended
    ('\u{31F0}', '\u{321E}'),   // Katakana phonetic extensions; parenthesized Hangul
    ('\u{3260}', '\u{327E}'),   // Hangul: circled
    ('\u{32D0}', '\u{32FE}'),   // Katakana: circled
    ('\u{3300}', '\u{3357}'),   // Katakana: squared words
    ('\u{3400}', '\u{4DBF}'),   // Han: CJK extension A
    ('\u{4E00}', '\u{9FFF}'),   // Han: CJK unified ideographs
    ('\u{A960}', '\u{A97C}'),   // Hangul Jamo extended-A
    ('\u{AC00}', '\u{D7A3}'),   // Hangul syllables
    ('\u{D7B0}', '\u{D7C6}'),   // Hangul Jamo extended-B
    ('\u{D7CB}', '\u{D7FB}'),   // Hangul Jamo extended-B
    ('\u{F900}', '\u{FA6D}'),   // Han: CJK compatibility ideographs
    ('\u{FA70}', '\u{FAD9}'),   // Han: CJK compatibility ideographs
    ('\u{FF66}', '\u{FFBE}'),   // Katakana halfwidth, ｰ ﾞ ﾟ (by Script_Extensions); Hangul halfwidth
    ('\u{FFC2}', '\u{FFC7}'),   // Hangul halfwidth
    ('\u{FFCA}', '\u{FFCF}'),   // Hangul halfwidth
    ('\u{FFD2}', '\u{FFD7}'),   // Hangul halfwidth
    ('\u{FFDA}', '\u{FFDC}'),   // Hangul halfwidth
    ('\u{16FE2}', '\u{16FE3}'), // Han: Old Chinese hook and iteration marks
    ('\u{16FF0}', '\u{16FF6}'), // Han: Vietnamese reading marks
    ('\u{1AFF0}', '\u{1AFF3}'), // Katakana: Taiwanese kana
    ('\u{1AFF5}', '\u{1AFFB}'), // Katakana: Taiwanese kana
    ('\u{1AFFD}', '\u{1AFFE}'), // Katakana: Taiwanese kana
    ('\u{1B000}', '\u{1B122}'), // Katakana, Hiragana: kana supplement, extended-A
    ('\u{1B132}', '\u{1B132}'), // Hiragana: small ko
    ('\u{1B150}', '\u{1B152}'), // Hiragana: small wi, we, wo
    ('\u{1B155}', '\u{1B155}'), // Katakana: small ko
    ('\u{1B164}', '\u{1B167}'), // Katakana: small wi, we, wo, n
    ('\u{1F200}', '\u{1F200}'), // Hiragana: squared ほか
    ('\u{20000}', '\u{2A6DF}'), // Han: CJK extension B
    ('\u{2A700}', '\u{2B81D}'), // Han: CJK extensions C, D
    ('\u{2B820}', '\u{2CEAD}'), // Han: CJK extension E
    ('\u{2CEB0}', '\u{2EBE0}'), // Han: CJK extension F
    ('\u{2EBF0}', '\u{2EE5D}'), // Han: CJK extension I
    ('\u{2F800}', '\u{2FA1D}'), // Han: CJK compatibility ideographs supplement
    ('\u{30000}', '\u{3134A}'), // Han: CJK extension G
    ('\u{31350}', '\u{33479}'), // Han: CJK extensions H, J
];

/// Whether `c` belongs to one of the scripts of [`RANGES`].
pub(crate) fn is_cjk(c: char) -> bool {
    // Most text outside these scripts is below the first Hangul Jamo: one comparison for it.
    if c < '\u{1100}' {
        return matches!(c, '\u{02EA}'..='\u{02EB}');
    }
    let after = RANGES.partition_point(|&(first, _)| first <= c);
    after > 0 && c <= RANGES[after - 1].1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_sorted_disjoint_and_merged() {
        assert!(RANGES.iter().all(|&(first, last)| first <= last));
        assert!(RANGES.windows(2).all(|pair| (pair[0].1 as u32) + 1 < pair[1].0 as u32));
    }

    #[test]
    fn every_range_holds_its_ends_and_not_its_neighbours() {
        for &(first, last) in &RANGES {
            assert!(is_cjk(first) && is_cjk(last), "{first:?}..{last:?}");
            let before = char::from_u32(first as u32 - 1).unwrap();
            let after = char::from_u32(last as u32 + 1).unwrap();
            assert!(!is_cjk(before) && !is_cjk(after), "{first:?}..{last:?}");
        }
    }

    /// One character of each range outside the main CJK blocks, which a table of those blocks
    /// alone would miss.
    #[test]
    fn ranges_outside_the_main_blocks() {
        let cases = [
            ('\u{02EA}', "Bopomofo tone mark"),
            ('\u{2E80}', "CJK radicals supplement"),
            ('\u{2F00}', "Kangxi radical"),
            ('々', "ideographic iteration mark U+3005"),
            ('〆', "ideographic closing mark U+3006 (Script_Extensions)"),
            ('〇', "ideographic number zero U+3007"),
            ('\u{3021}', "Hangzhou numeral"),
            ('\u{302A}', "ideographic tone mark (Script_Extensions)"),
            ('\u{302E}', "Hangul tone mark"),
            ('\u{3031}', "vertical kana repeat mark (Script_Extensions)"),
            ('\u{3038}', "Hangzhou numeral ten"),
            ('〻', "vertical ideographic iteration mark U+303B"),
            ('〼', "masu mark U+303C (Script_Extensions)"),
            ('ㄅ', "Bopomofo"),
            ('\u{31A0}', "Bopomofo extended"),
            ('\u{3200}', "parenthesized Hangul"),
            ('\u{3260}', "circled Hangul"),
            ('\u{32D0}', "circled Katakana"),
            ('\u{3300}', "squared Katakana"),
            ('\u{A960}', "Hangul Jamo extended-A"),
            ('\u{D7B0}', "Hangul Jamo extended-B"),
            ('\u{FFA0}', "halfwidth Hangul"),
            ('\u{16FE2}', "Old Chinese hook mark"),
            ('\u{16FF0}', "Vietnamese reading mark"),
            ('\u{1AFF0}', "Taiwanese kana"),
            ('\u{1B000}', "kana supplement"),
            ('\u{1B132}', "small Hiragana"),
            ('\u{1B164}', "small Katakana"),
            ('\u{1F200}', "squared Hiragana"),
            ('\u{30000}', "CJK extension G"),
            ('\u{31350}', "CJK extension H"),
            ('\u{323B0}', "CJK extension J"),
        ];
        for (c, range) in cases {
            assert!(is_cjk(c), "{range}: {c:?}");
        }
    }

    #[test]
    fn shared_punctuation_and_other_scripts_are_not_cjk() {
        for c in ['、', '。', '・', '゠', '\u{309B}', '「', 'a', 'é', 'я', 'ก', '\u{3040}', '\u{2FFFF}'] {
            assert!(!is_cjk(c), "{c:?}");
        }
    }
}
