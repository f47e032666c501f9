//! The forward pass: embeddings, the post-LayerNorm BERT layers, mean pooling.
//!
//! `model/build/encoder.py`'s `forward` is the same computation in float64 and the spec this
//! follows. The pass is compiled twice, once for the baseline target and once with AVX2 (wider
//! vectors for the same loops, never FMA), and both give the same bits (see `kernels`).

use std::ops::Range;

use super::file::{Layer, Linear, Norm, Weights};
use super::kernels::{axpy, columns, layer_norm, linear, softmax, sum, Columns, Then};

/// The baseline copy, which every target has.
pub(super) fn portable(weights: &Weights, ids: &[u32], unknown: u32, share: bool) -> Vec<f32> {
    embed::<Baseline>(weights, ids, unknown, share)
}

/// The same loops with AVX2 enabled, so LLVM vectorises them eight floats wide.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn avx2(weights: &Weights, ids: &[u32], unknown: u32, share: bool) -> Vec<f32> {
    embed::<Avx2>(weights, ids, unknown, share)
}

/// The baseline pass's matrix columns.
pub(super) struct Baseline;

impl Columns for Baseline {
    fn columns(x: &[f32], layer: &Linear, range: Range<usize>, y: &mut [f32], then: Then) {
        columns(x, layer, range, y, then);
    }
}

/// The AVX2 pass's matrix columns.
#[cfg(target_arch = "x86_64")]
struct Avx2;

#[cfg(target_arch = "x86_64")]
impl Columns for Avx2 {
    fn columns(x: &[f32], layer: &Linear, range: Range<usize>, y: &mut [f32], then: Then) {
        // SAFETY: `Avx2` is only named in `avx2`, which runs only where the CPU has AVX2.
        unsafe { avx2_columns(x, layer, range, y, then) }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2_columns(x: &[f32], layer: &Linear, range: Range<usize>, y: &mut [f32], then: Then) {
    columns(x, layer, range, y, then);
}

/// The buffers of a pass, each at most positions x max(hidden, intermediate) floats whatever
/// the caller passes.
struct Scratch {
    query: Vec<f32>,
    key: Vec<f32>,
    /// The keys transposed, [hidden][tokens], so a query's scores against every key are axpys
    /// over the keys instead of sequential dot products.
    keys_by_dim: Vec<f32>,
    value: Vec<f32>,
    context: Vec<f32>,
    scores: Vec<f32>,
    out: Vec<f32>,
    intermediate: Vec<f32>,
}

/// The unit-length mean of the last hidden states of `ids` (cut to the positions the model has;
/// an id outside the vocabulary is `unknown`). No ids give the zero vector. With `share`, half of
/// each matrix product is offered to the helper thread; the result is the same bits.
#[inline(always)]
fn embed<C: Columns>(weights: &Weights, ids: &[u32], unknown: u32, share: bool) -> Vec<f32> {
    let hidden = weights.hidden;
    let ids = &ids[..ids.len().min(weights.positions)];
    let tokens = ids.len();
    let mut states = vec![0.0f32; tokens * hidden];
    let vocab = weights.words.scales.len();
    for (t, (state, &id)) in states.chunks_exact_mut(hidden).zip(ids).enumerate() {
        let id = if (id as usize) < vocab { id as usize } else { unknown as usize };
        let (word, word_scale) = (&weights.words.values[id * hidden..][..hidden], weights.words.scales[id]);
        let (place, place_scale) =
            (&weights.position_rows.values[t * hidden..][..hidden], weights.position_rows.scales[t]);
        for (((s, &w), &p), &k) in state.iter_mut().zip(word).zip(place).zip(&weights.token_type) {
            *s = f32::from(w) * word_scale + f32::from(p) * place_scale + k;
        }
    }
    layer_norm(&mut states, &weights.embedding_norm);
    let wide = |width: usize| vec![0.0f32; tokens * width];
    let mut scratch = Scratch {
        query: wide(hidden),
        key: wide(hidden),
        keys_by_dim: wide(hidden),
        value: wide(hidden),
        context: wide(hidden),
        scores: vec![0.0; tokens],
        out: wide(hidden),
        intermediate: wide(weights.intermediate),
    };
    for layer in &weights.layers {
        encode_layer::<C>(weights, layer, &mut states, &mut scratch, share);
    }
    let mut pooled = vec![0.0f32; hidden];
    for state in states.chunks_exact(hidden) {
        axpy(&mut pooled, 1.0, state);
    }
    // The mean's direction is the sum's: normalising makes dividing by the count moot.
    let norm = sum(pooled.iter().map(|v| v * v)).sqrt();
    if !(norm.is_finite() && norm > 0.0) {
        return vec![0.0; hidden];
    }
    for v in &mut pooled {
        *v /= norm;
    }
    pooled
}

/// One BERT layer in place: self-attention, then the feed-forward block, each added to its input
/// and LayerNormed.
#[inline(always)]
fn encode_layer<C: Columns>(weights: &Weights, layer: &Layer, states: &mut [f32], s: &mut Scratch, share: bool) {
    let hidden = weights.hidden;
    let tokens = states.len() / hidden;
    let head = hidden / weights.heads;
    linear::<C>(states, &layer.query, &mut s.query, Then::Nothing, share);
    linear::<C>(states, &layer.key, &mut s.key, Then::Nothing, share);
    linear::<C>(states, &layer.value, &mut s.value, Then::Nothing, share);
    let scale = 1.0 / (head as f32).sqrt();
    for q in &mut s.query {
        *q *= scale;
    }
    for (u, key) in s.key.chunks_exact(hidden).enumerate() {
        for (c, &k) in key.iter().enumerate() {
            s.keys_by_dim[c * tokens + u] = k;
        }
    }
    s.context.fill(0.0);
    for (query, context) in s.query.chunks_exact(hidden).zip(s.context.chunks_exact_mut(hidden)) {
        for h in 0..weights.heads {
            let dims = h * head..(h + 1) * head;
            s.scores.fill(0.0);
            for c in dims.clone() {
                axpy(&mut s.scores, query[c], &s.keys_by_dim[c * tokens..][..tokens]);
            }
            softmax(&mut s.scores);
            for (&p, value) in s.scores.iter().zip(s.value.chunks_exact(hidden)) {
                axpy(&mut context[dims.clone()], p, &value[dims.clone()]);
            }
        }
    }
    linear::<C>(&s.context, &layer.attention_out, &mut s.out, Then::Nothing, share);
    residual_norm(states, &mut s.out, &layer.attention_norm);
    linear::<C>(states, &layer.intermediate, &mut s.intermediate, Then::Gelu, share);
    linear::<C>(&s.intermediate, &layer.output, &mut s.out, Then::Nothing, share);
    residual_norm(states, &mut s.out, &layer.output_norm);
}

/// `states = LayerNorm(out + states)`.
#[inline(always)]
fn residual_norm(states: &mut [f32], out: &mut [f32], norm: &Norm) {
    for (o, &x) in out.iter_mut().zip(states.iter()) {
        *o += x;
    }
    layer_norm(out, norm);
    states.copy_from_slice(out);
}
