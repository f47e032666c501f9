//! The short description a search hit carries to the model.

/// Longest summary, in characters (Unicode scalar values).
pub const MAX_SUMMARY_CHARS: usize = 240;
const ELLIPSIS: &str = "...";

/// Whitespace runs collapsed to one space, trimmed, and cut to [`MAX_SUMMARY_CHARS`] with a
/// trailing "..." when longer. Cutting by `char` never splits a character.
pub fn summarize(description: &str) -> String {
    let mut out = String::with_capacity(description.len().min(4 * MAX_SUMMARY_CHARS));
    let mut chars = 0;
    // Collapse only as far as the limit plus one character: enough to know whether to cut, and
    // a 10 MB description costs no more than a short one.
    for word in description.split_whitespace() {
        if chars > MAX_SUMMARY_CHARS {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
            chars += 1;
        }
        out.push_str(word);
        chars += word.chars().count();
    }
    if chars <= MAX_SUMMARY_CHARS {
        return out;
    }
    let keep = MAX_SUMMARY_CHARS - ELLIPSIS.len();
    let mut cut: String = out.chars().take(keep).collect();
    cut.push_str(ELLIPSIS);
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collapses_whitespace_and_trims() {
        assert_eq!(summarize("  Get\tthe\n\n weather.  "), "Get the weather.");
        assert_eq!(summarize(""), "");
        assert_eq!(summarize(" \n\t "), "");
    }

    #[test]
    fn keeps_text_of_exactly_the_limit() {
        let text = "x".repeat(MAX_SUMMARY_CHARS);
        assert_eq!(summarize(&text), text);
    }

    #[test]
    fn cuts_longer_text_to_237_characters_and_an_ellipsis() {
        let text = "y".repeat(MAX_SUMMARY_CHARS + 1);
        let summary = summarize(&text);
        assert_eq!(summary.chars().count(), MAX_SUMMARY_CHARS);
        assert_eq!(summary, format!("{}...", "y".repeat(237)));
    }

    #[test]
    fn counts_characters_not_bytes() {
        let text = "天".repeat(300);
        let summary = summarize(&text);
        assert_eq!(summary.chars().count(), MAX_SUMMARY_CHARS);
        assert!(summary.starts_with("天天") && summary.ends_with("天..."));
        let emoji = "😀".repeat(241);
        assert_eq!(summarize(&emoji), format!("{}...", "😀".repeat(237)));
    }

    #[test]
    fn a_ten_megabyte_description_is_cut_quickly() {
        let text = "word ".repeat(2 * 1024 * 1024);
        assert_eq!(summarize(&text).chars().count(), MAX_SUMMARY_CHARS);
    }
}
