//! The float loops of a forward pass, written so their results are the same bits everywhere.
//!
//! Every value is computed by a fixed sequence of IEEE operations: sums run in one order (over
//! the input index, over tokens, over a row), never split into partial sums, and nothing fuses a
//! multiply with an add (Rust never contracts `a * b + c`). The loops that vectorise do so across
//! independent outputs (the columns of a row), where lanes change nothing about the order within
//! each value; a sum along one row stays a plain sequential loop, which LLVM does not reorder
//! without fast-math. That is what lets the AVX2 copy of these loops (see `forward`) give the
//! portable copy's bits.
//!
//! All are `#[inline(always)]` so each copy of the forward pass gets them compiled for its own
//! target features.

use std::ops::Range;
use std::sync::Arc;

use super::file::{Linear, Norm, LANES};
use super::math::{erfc, exp};
use super::share::{self, Offer};

/// BERT's LayerNorm epsilon.
const EPSILON: f32 = 1e-12;
/// Output columns per pass: every token's part of the tile stays in cache while the rows of W
/// stream past it once (256 measured faster than 128 or 512 for 12 to 128 tokens).
const TILE: usize = 256;
/// Rows of W added per pass over the outputs: fewer loads and stores of each output per weight.
/// The adds stay in input order (`((y + x0 w0) + x1 w1) + ...`), as if one row at a time.
const ROWS: usize = 4;

/// `y = x W + b` for `tokens` rows of `x` (`layer.inputs` each) into `y` (`layer.outputs` each),
/// then `then`.
///
/// With `share`, the upper half of the columns is offered to the helper thread (`share`): a
/// column is the same sum whichever thread computes it, so the bits do not depend on who did.
#[inline(always)]
pub(super) fn linear<C: Columns>(x: &[f32], layer: &Arc<Linear>, y: &mut [f32], then: Then, share: bool) {
    let outputs = layer.outputs;
    // Whole chunks of lanes on each side, so each keeps the one-thread inner loop.
    let split = outputs / LANES / 2 * LANES;
    let offer = if share && split > 0 { offer_columns::<C>(x, layer, split..outputs, then) } else { None };
    let Some(offer) = offer else {
        return C::columns(x, layer, 0..outputs, y, then);
    };
    let tokens = x.len() / layer.inputs;
    let mut lower = vec![0.0; tokens * split];
    C::columns(x, layer, 0..split, &mut lower, then);
    let upper = offer.take().unwrap_or_else(|| {
        let mut upper = vec![0.0; tokens * (outputs - split)];
        C::columns(x, layer, split..outputs, &mut upper, then);
        upper
    });
    let halves = lower.chunks_exact(split).zip(upper.chunks_exact(outputs - split));
    for (out, (lower, upper)) in y.chunks_exact_mut(outputs).zip(halves) {
        out[..split].copy_from_slice(lower);
        out[split..].copy_from_slice(upper);
    }
}

/// Offers the helper the columns in `range`, computed from a copy of `x`.
fn offer_columns<C: Columns>(
    x: &[f32],
    layer: &Arc<Linear>,
    range: Range<usize>,
    then: Then,
) -> Option<Offer<Vec<f32>>> {
    let (x, layer): (Arc<[f32]>, _) = (x.into(), layer.clone());
    share::offer(move || {
        let mut part = vec![0.0; x.len() / layer.inputs * range.len()];
        C::columns(&x, &layer, range, &mut part, then);
        part
    })
}

/// The copy of [`columns`] a pass runs, compiled for the pass's target features. Called through
/// this, not inlined into the pass, it measured faster; and the helper thread must run it too,
/// where a closure would be compiled without the features (several times slower).
pub(super) trait Columns: 'static {
    fn columns(x: &[f32], layer: &Linear, range: Range<usize>, y: &mut [f32], then: Then);
}

/// What follows a product, value by value. It is part of the product's work, so that a helper
/// computing some columns also does what follows them: at a query's length GELU costs about as
/// much as the product before it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Then {
    Nothing,
    Gelu,
}

/// `linear` for the output columns in `range` only, into `y` (`range.len()` per token).
///
/// Each weight is read once per sequence: row i of W is dequantised to floats once, then added,
/// times x[t][i], into every token's outputs. A column's scale and the bias come after the sum,
/// so the sum is of small integers times inputs.
#[inline(always)]
pub(super) fn columns(x: &[f32], layer: &Linear, range: Range<usize>, y: &mut [f32], then: Then) {
    let inputs = layer.inputs;
    y.fill(0.0);
    let mut rows = [[0.0f32; TILE]; ROWS];
    for start in range.clone().step_by(TILE) {
        let tile = Tile { start, width: TILE.min(range.end - start), offset: start - range.start, stride: range.len() };
        let mut i = 0;
        while i + ROWS <= inputs {
            add_rows::<ROWS>(x, layer, i, &tile, &mut rows, y);
            i += ROWS;
        }
        while i < inputs {
            add_rows::<1>(x, layer, i, &tile, &mut rows, y);
            i += 1;
        }
    }
    let (scales, bias) = (&layer.scales[range.clone()], &layer.bias[range]);
    for out in y.chunks_exact_mut(scales.len()) {
        for ((o, &scale), &bias) in out.iter_mut().zip(scales).zip(bias) {
            *o = *o * scale + bias;
        }
    }
    if then == Then::Gelu {
        gelu(y);
    }
}

/// Where a tile of output columns sits: in W (`start`, `width`) and in the output rows
/// (`offset` into each row of `stride` values).
struct Tile {
    start: usize,
    width: usize,
    offset: usize,
    stride: usize,
}

/// Adds rows `i..i + R` of W, the tile's columns, into every token's outputs.
#[inline(always)]
fn add_rows<const R: usize>(
    x: &[f32],
    layer: &Linear,
    i: usize,
    tile: &Tile,
    rows: &mut [[f32; TILE]; ROWS],
    y: &mut [f32],
) {
    let (inputs, outputs) = (layer.inputs, layer.outputs);
    for (r, row) in rows.iter_mut().take(R).enumerate() {
        let weights = &layer.weights[(i + r) * outputs + tile.start..][..tile.width];
        for (f, &w) in row.iter_mut().zip(weights) {
            *f = f32::from(w);
        }
    }
    let rows = &rows[..R];
    for (xs, out) in x.chunks_exact(inputs).zip(y.chunks_exact_mut(tile.stride)) {
        let xs = &xs[i..i + R];
        // Whole chunks of lanes (the file's widths are multiples of LANES), each summed in
        // registers over the R rows: with no remainder loop, LLVM makes each chunk one AVX2
        // vector (two SSE2 ones), and the output is loaded and stored once per R rows. Arrays
        // by `as_chunks` rather than `array::from_fn`, which LLVM may leave as an outlined
        // call per chunk (it did in the Node addon), the sum then going through memory.
        let (chunks, _) = out[tile.offset..tile.offset + tile.width].as_chunks_mut::<LANES>();
        for (c, out) in chunks.iter_mut().enumerate() {
            let mut sum = *out;
            for (row, &x) in rows.iter().zip(xs) {
                let (row, _) = row[c * LANES..][..LANES].as_chunks::<LANES>();
                let row = &row[0];
                for l in 0..LANES {
                    sum[l] += x * row[l];
                }
            }
            *out = sum;
        }
    }
}

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
        let mean = sum(row.iter().copied()) / n;
        let variance = sum(row.iter().map(|&v| (v - mean) * (v - mean))) / n;
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
        *s = exp(f64::from(*s - max)) as f32;
    }
    let total = sum(scores.iter().copied());
    for s in scores.iter_mut() {
        *s /= total;
    }
}

/// GELU in its exact (erf) form, x * Phi(x) = x * erfc(-x / sqrt 2) / 2, in place.
#[inline(always)]
fn gelu(x: &mut [f32]) {
    for v in x.iter_mut() {
        let z = f64::from(*v);
        *v = (0.5 * z * erfc(-z * std::f64::consts::FRAC_1_SQRT_2)) as f32;
    }
}

/// A sum in the order given: the one place a reduction happens, so none is ever reassociated.
#[inline(always)]
pub(super) fn sum(values: impl Iterator<Item = f32>) -> f32 {
    values.fold(0.0, |total, v| total + v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::semantic::encoder::forward::Baseline;

    #[test]
    fn linear_is_x_times_the_dequantised_matrix_plus_bias() {
        // Five inputs: one block of four rows and a single-row tail; two tiles of outputs, the
        // second partial.
        let (inputs, outputs) = (5, TILE + LANES);
        let weights: Vec<i8> = (0..inputs * outputs).map(|v| (v % 255) as u8 as i8).collect();
        let scales = (0..outputs).map(|j| 1.0 / (j + 1) as f32).collect();
        let layer =
            Arc::new(Linear { inputs, outputs, weights, scales, bias: (0..outputs).map(|j| j as f32 - 3.0).collect() });
        let x = [1.0, 2.0, 0.0, -1.0, 3.0, 0.5, 0.0, 0.0, 0.0, 0.0];
        // Alone and with half the columns offered to the helper: the same values either way.
        for share in [false, true] {
            let mut y = vec![9.0; 2 * outputs];
            linear::<Baseline>(&x, &layer, &mut y, Then::Nothing, share);
            for t in 0..2 {
                for j in 0..outputs {
                    let dot: f32 =
                        (0..inputs).map(|i| x[t * inputs + i] * f32::from(layer.weights[i * outputs + j])).sum();
                    assert_eq!(
                        y[t * outputs + j],
                        dot * layer.scales[j] + layer.bias[j],
                        "token {t} column {j}, shared: {share}"
                    );
                }
            }
        }
    }

    #[test]
    fn softmax_sums_to_one_and_layer_norm_centres() {
        let mut scores = [1.0, 2.0, 3.0, -40.0];
        softmax(&mut scores);
        assert!((sum(scores.iter().copied()) - 1.0).abs() < 1e-6);
        assert!(scores[2] > scores[1] && scores[1] > scores[0] && scores[3] < 1e-15);
        let mut row = [1.0, 2.0, 3.0, 6.0];
        layer_norm(&mut row, &Norm { gamma: vec![1.0; 4], beta: vec![0.0; 4] });
        assert!(sum(row.iter().copied()).abs() < 1e-6);
        assert!((sum(row.iter().map(|v| v * v)) / 4.0 - 1.0).abs() < 1e-5);
    }

    #[test]
    fn gelu_matches_its_definition() {
        // x * Phi(x), to 9 digits.
        let mut x = [0.0, 1.0, -1.0, 3.0, -3.0, -10.0];
        gelu(&mut x);
        let expected: [f64; 6] =
            [0.0, 0.841_344_746_1, -0.158_655_253_9, 2.995_950_306, -0.004_049_694_095, -7.619_853_024e-23];
        for (&got, expected) in x.iter().zip(expected) {
            assert!((f64::from(got) - expected).abs() <= 3e-7 * expected.abs(), "{got} vs {expected}");
        }
    }
}
