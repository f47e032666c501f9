//! The terms of an index (or of one chunk being built): an id per distinct term, in order of
//! first appearance, and each term's kind.

use rustc_hash::FxHashMap;

use super::{TermId, TermKind};

#[derive(Default)]
#[cfg_attr(test, derive(Debug, PartialEq))]
pub(super) struct Vocabulary {
    ids: FxHashMap<String, TermId>,
    /// By term id.
    kinds: Vec<TermKind>,
}

impl Vocabulary {
    /// The id of `term`, added if new. A term met as a word is a word, even if it was first met as
    /// a whole identifier: a stem and a joined name can spell the same.
    ///
    /// A `String` is kept as the new term's text; a `&str` is copied only when the term is new.
    pub(super) fn id<T: AsRef<str> + Into<String>>(&mut self, term: T, kind: TermKind) -> TermId {
        if let Some(&id) = self.ids.get(term.as_ref()) {
            if kind == TermKind::Word {
                self.kinds[id as usize] = TermKind::Word;
            }
            return id;
        }
        let id = self.kinds.len() as TermId;
        self.ids.insert(term.into(), id);
        self.kinds.push(kind);
        id
    }

    pub(super) fn get(&self, term: &str) -> Option<TermId> {
        self.ids.get(term).copied()
    }

    pub(super) fn kind(&self, id: TermId) -> TermKind {
        self.kinds[id as usize]
    }

    pub(super) fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Every term's text and kind, by id, given up: merging a chunk's terms into the index's
    /// moves their texts instead of copying them.
    pub(super) fn into_terms(self) -> Vec<(String, TermKind)> {
        let mut terms: Vec<(String, TermKind)> = self.kinds.iter().map(|&kind| (String::new(), kind)).collect();
        for (text, id) in self.ids {
            terms[id as usize].0 = text;
        }
        terms
    }

    /// One term's text. Explanations are rare; a scan keeps the index free of a reverse table.
    pub(super) fn text(&self, id: TermId) -> &str {
        self.ids.iter().find(|(_, &t)| t == id).map_or("", |(text, _)| text.as_str())
    }

    /// The word terms in text order, for prefix lookups.
    pub(super) fn sorted_words(&self) -> Vec<(Box<str>, TermId)> {
        let mut words: Vec<(Box<str>, TermId)> = self
            .ids
            .iter()
            .filter(|(_, &id)| self.kind(id) == TermKind::Word)
            .map(|(text, &id)| (text.as_str().into(), id))
            .collect();
        words.sort_unstable();
        words
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_first_appearance_and_a_word_stays_a_word() {
        let mut vocabulary = Vocabulary::default();
        assert_eq!(vocabulary.id("getweather", TermKind::Verbatim), 0);
        assert_eq!(vocabulary.id("weather", TermKind::Word), 1);
        assert_eq!(vocabulary.id("getweather", TermKind::Word), 0);
        assert_eq!(vocabulary.id("weather", TermKind::Verbatim), 1);
        assert_eq!((vocabulary.kind(0), vocabulary.kind(1)), (TermKind::Word, TermKind::Word));
        assert_eq!((vocabulary.text(1), vocabulary.get("weather"), vocabulary.get("rain")), ("weather", Some(1), None));
        vocabulary.id("天气", TermKind::Verbatim);
        assert_eq!(vocabulary.sorted_words(), [("getweather".into(), 0), ("weather".into(), 1)]);
        let terms = vocabulary.into_terms();
        assert_eq!(
            terms,
            [
                ("getweather".into(), TermKind::Word),
                ("weather".into(), TermKind::Word),
                ("天气".into(), TermKind::Verbatim)
            ]
        );
    }
}
