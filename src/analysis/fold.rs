//! Folding: the form in which case, accents and width no longer tell words apart.

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
