//! The float loops of a forward pass (everything but the matrix products, which are integers:
//! `int8`), written so their results are the same bits everywhere.
//!
//! Every value is computed by a fixed sequence of IEEE operations, and nothing fuses a multiply
//! with an add (Rust never contracts `a * b + c`). The loops that vectorise do so across
//! independent outputs, where lanes change nothing about the order within each value. A sum along
//! a row is split into [`LANES`] partial sums written out in the code (value i goes to sum i mod
//! 8) and those are added in a fixed tree, so it is the same sequence of additions whether LLVM
//! keeps the partial sums in one register, two or eight, and LLVM reorders nothing else without
//! fast-math. That is what lets each compiled copy of the pass (see `forward`) give the portable
//! copy's bits.
//!
//! All are `#[inline(always)]` so each copy of the forward pass gets them compiled for its own
//! target features.

use super::file::Norm;
use super::math::{exp, gelu};

/// BERT's LayerNorm epsilon.
const EPSILON: f32 = 1e-12;
/// Partial sums of a row's sum.
const LANES: usize = 8;

/// `y += a * x`, the loop attention's weighted sums are made of.
#[inline(always)]
pub(super) fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
    for (y, &x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

/// LayerNorm of each row of `x` (`norm.gamma.len()` values) in place.
#[inline(always)]
pub(super) fn layer_norm(x: &mut [f32], norm: &Norm) {
    let width = norm.gamma.len();
    let n = width as f32;
    for row in x.chunks_exact_mut(width) {
        let mean = sum_of(row, |v| v) / n;
        let variance = sum_of(row, |v| (v - mean) * (v - mean)) / n;
        let inverse = 1.0 / (variance + EPSILON).sqrt();
        for ((v, &g), &b) in row.iter_mut().zip(&norm.gamma).zip(&norm.beta) {
            *v = (*v - mean) * inverse * g + b;
        }
    }
}

/// Softmax of `scores` in place.
#[inline(always)]
pub(super) fn softmax(scores: &mut [f32]) {
    let max = scores.iter().fold(f32::NEG_INFINITY, |m, &s| if s > m { s } else { m });
    for s in scores.iter_mut() {
        *s = exp(*s - max);
    }
    let total = sum_of(scores, |s| s);
    for s in scores.iter_mut() {
        *s /= total;
    }
}

/// GELU of every value, in place.
#[inline(always)]
pub(super) fn gelu_all(x: &mut [f32]) {
    for v in x.iter_mut() {
        *v = gelu(*v);
    }
}

/// The sum of `f` of each value: the one place a reduction happens, in [`LANES`] partial sums
/// added in a fixed tree (see the module's documentation).
#[inline(always)]
pub(super) fn sum_of(values: &[f32], f: impl Fn(f32) -> f32) -> f32 {
    let mut lanes = [0.0f32; LANES];
    let (chunks, rest) = values.as_chunks::<LANES>();
    for chunk in chunks {
        for (lane, &v) in lanes.iter_mut().zip(chunk) {
            *lane += f(v);
        }
    }
    for (lane, &v) in lanes.iter_mut().zip(rest) {
        *lane += f(v);
    }
    let [a, b, c, d, e, f, g, h] = lanes;
    ((a + e) + (c + g)) + ((b + f) + (d + h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sum_adds_its_partial_sums_in_a_fixed_tree() {
        let values: Vec<f32> = (0..19).map(|i| 1.0 / (i as f32 + 1.0)).collect();
        let mut lanes = [0.0f32; 8];
        for (i, &v) in values.iter().enumerate() {
            lanes[i % 8] += v;
        }
        let tree = ((lanes[0] + lanes[4]) + (lanes[2] + lanes[6])) + ((lanes[1] + lanes[5]) + (lanes[3] + lanes[7]));
        assert_eq!(sum_of(&values, |v| v).to_bits(), tree.to_bits());
        assert_eq!(sum_of(&[], |v| v), 0.0);
    }

    #[test]
    fn softmax_sums_to_one_and_layer_norm_centres() {
        let mut scores = [1.0, 2.0, 3.0, -40.0];
        softmax(&mut scores);
        assert!((sum_of(&scores, |s| s) - 1.0).abs() < 1e-6);
        assert!(scores[2] > scores[1] && scores[1] > scores[0] && scores[3] < 1e-15);
        let mut row = [1.0, 2.0, 3.0, 6.0];
        layer_norm(&mut row, &Norm { gamma: vec![1.0; 4], beta: vec![0.0; 4] });
        assert!(sum_of(&row, |v| v).abs() < 1e-6);
        assert!((sum_of(&row, |v| v * v) / 4.0 - 1.0).abs() < 1e-5);
    }
}
