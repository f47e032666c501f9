//! The scripts written without spaces between words, whose runs become overlapping pieces.

/// Scripts written without spaces between words (Han, Hiragana, Katakana) and Hangul.
pub(super) fn is_cjk(c: char) -> bool {
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
