//! Identifier splitting: where one word of an identifier ends and the next begins, for the bytes
//! of ASCII text and the characters of any other text alike.

use super::scripts::is_cjk;

/// What splitting needs to know about one character, for bytes of ASCII text and for chars.
pub(super) trait Letter: Copy {
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

/// Whether separator `c` (between `prev` and `next`) stays inside a part: an apostrophe always
/// ("don't"), a dot between two digits ("9.8").
pub(super) fn joins<L: Letter>(prev: Option<L>, c: L, next: Option<L>) -> bool {
    let digit = |x: Option<L>| x.is_some_and(L::is_ascii_digit);
    c.is_apostrophe() || (c.is_dot() && digit(prev) && digit(next))
}

/// Whether a part ends between two neighbouring characters `prev` and `c` (`next` follows `c`).
pub(super) fn splits<L: Letter>(prev: L, c: L, next: Option<L>) -> bool {
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
