//! Texts as unit vectors in the model's space, in integers.
//!
//! A text's vector is the sum of its terms' rows, each times its weight, scaled to unit length
//! and stored at [`UNIT`] per coordinate. The sum is exact (integers), the scaling one IEEE
//! division and square root per text, and a similarity an integer dot product: the same text gives
//! the same vector, and the same pair the same similarity, on every machine.

use crate::analysis::{term_of, Analyzer, Piece};

use super::Model;

/// The length of a stored unit vector: coordinates are `i16`, and by Cauchy-Schwarz a dot product
/// of two such vectors is at most `UNIT²` (plus rounding), well inside an `i32`.
pub(crate) const UNIT: f64 = 16384.0;

/// Adds up the rows of a text's terms.
pub(crate) struct Embedder<'m> {
    model: &'m Model,
    sum: Vec<i64>,
    terms: usize,
}

impl<'m> Embedder<'m> {
    pub(crate) fn new(model: &'m Model) -> Self {
        Embedder { model, sum: vec![0; model.dims()], terms: 0 }
    }

    /// Adds every word of `text` the model knows, each time it occurs. Whole identifiers and CJK
    /// pieces are left to the lexical stage: the model's terms are stemmed words.
    pub(crate) fn add_text(&mut self, analyzer: &mut Analyzer, text: &str) {
        let (model, sum, terms) = (self.model, &mut self.sum, &mut self.terms);
        analyzer.pieces(text, |piece| {
            if !matches!(piece, Piece::Word(_)) {
                return;
            }
            let Some((weight, row)) = term_of(piece).and_then(|term| model.row(&term)) else { return };
            for (slot, &value) in sum.iter_mut().zip(row) {
                *slot += i64::from(value) * i64::from(weight);
            }
            *terms += 1;
        });
    }

    /// Adds one term, when the model knows it; whether it did.
    pub(crate) fn add_term(&mut self, term: &str) -> bool {
        let Some((weight, row)) = self.model.row(term) else { return false };
        for (slot, &value) in self.sum.iter_mut().zip(row) {
            *slot += i64::from(value) * i64::from(weight);
        }
        self.terms += 1;
        true
    }

    /// The unit vector of what was added, or `None` when no term was known (or the rows cancel).
    pub(crate) fn finish(self, out: &mut Vec<i16>) -> bool {
        // In a fixed order, so the same sums give the same norm everywhere.
        let norm = self.sum.iter().map(|&v| (v as f64) * (v as f64)).sum::<f64>().sqrt();
        if self.terms == 0 || norm == 0.0 {
            out.extend(std::iter::repeat_n(0, self.sum.len()));
            return false;
        }
        out.extend(self.sum.iter().map(|&v| (v as f64 / norm * UNIT).round() as i16));
        true
    }
}

/// The dot product of two stored unit vectors, as a cosine.
pub(crate) fn cosine(a: &[i16], b: &[i16]) -> f64 {
    let dot: i32 = a.iter().zip(b).map(|(&x, &y)| i32::from(x) * i32::from(y)).sum();
    f64::from(dot) / (UNIT * UNIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::semantic::model::encode;

    fn model() -> Model {
        let rows = [
            ("weather", 100, vec![100, 0, 0]),
            ("forecast", 100, vec![90, 40, 0]),
            ("currenc", 100, vec![0, 0, 120]),
            ("rain", 10, vec![0, 127, 0]),
        ];
        Model::from_bytes(encode(3, &rows)).unwrap()
    }

    fn vector(model: &Model, text: &str) -> Option<Vec<i16>> {
        let mut embedder = Embedder::new(model);
        embedder.add_text(&mut Analyzer::new(), text);
        let mut out = Vec::new();
        embedder.finish(&mut out).then_some(out)
    }

    #[test]
    fn related_words_are_near_and_unrelated_ones_far() {
        let model = model();
        let weather = vector(&model, "What's the weather?").unwrap();
        let forecast = vector(&model, "Forecasts for Paris").unwrap();
        let currency = vector(&model, "currency conversion").unwrap();
        assert!(cosine(&weather, &forecast) > 0.8);
        assert!(cosine(&weather, &currency).abs() < 1e-9);
        assert!((cosine(&weather, &weather) - 1.0).abs() < 1e-3);
    }

    #[test]
    fn a_weight_decides_how_much_a_word_counts() {
        let model = model();
        let mixed = vector(&model, "weather rain").unwrap();
        let weather = vector(&model, "weather").unwrap();
        // "rain" has a tenth of the weight: the mix stays close to "weather".
        assert!(cosine(&mixed, &weather) > 0.9);
    }

    #[test]
    fn a_text_without_known_words_has_no_vector() {
        let model = model();
        assert!(vector(&model, "zebra the of").is_none());
        assert!(vector(&model, "").is_none());
        assert!(vector(&model, "天气").is_none());
    }

    #[test]
    fn vectors_are_unit_length_in_integers() {
        let model = model();
        for text in ["weather", "weather forecast currency rain rain", "currency"] {
            let v = vector(&model, text).unwrap();
            let length = v.iter().map(|&x| f64::from(x) * f64::from(x)).sum::<f64>().sqrt();
            assert!((length - UNIT).abs() < 2.0, "{text}: {length}");
        }
    }
}
