//! The forward pass: embeddings, the post-LayerNorm BERT layers, mean pooling.
//!
//! `model/build/encoder.py`'s `forward` is the same computation and the spec this follows. The
//! matrix products are integer sums (`int8`); the rest is float (`float`). The pass is compiled
//! once per set of target features the products run with, so that its float loops get the wider
//! vectors too; every copy gives the same bits (`float` says why).

use super::file::{Layer, Norm, Weights, STEP};
use super::float::{axpy, gelu_all, layer_norm, softmax, sum_of};
use super::int8::{Quantized, Sums};

/// The pass for the CPU's loop `how`.
pub(super) fn run(how: Sums, weights: &Weights, ids: &[u32], unknown: u32) -> Vec<f32> {
    match how {
        Sums::Portable => embed(how, weights, ids, unknown),
        // SAFETY: `Sums` only names a loop this CPU runs (`Sums::detect`, `Sums::available`).
        #[cfg(target_arch = "x86_64")]
        Sums::Avx2 => unsafe { avx2(weights, ids, unknown) },
        #[cfg(target_arch = "x86_64")]
        Sums::Vnni => unsafe { vnni(weights, ids, unknown) },
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2(weights: &Weights, ids: &[u32], unknown: u32) -> Vec<f32> {
    embed(Sums::Avx2, weights, ids, unknown)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512vnni")]
fn vnni(weights: &Weights, ids: &[u32], unknown: u32) -> Vec<f32> {
    embed(Sums::Vnni, weights, ids, unknown)
}

/// The buffers of a pass, each at most positions x max(hidden, intermediate) values whatever
/// the caller passes.
struct Scratch {
    how: Sums,
    /// The input of the next product, quantized.
    quantized: Quantized,
    /// A product's per-column scratch.
    middles: Vec<f32>,
    query: Vec<f32>,
    key: Vec<f32>,
    /// The keys transposed, [hidden][tokens padded to `STEP`], so a query's scores against
    /// every key are axpys over the keys instead of sequential dot products.
    keys_by_dim: Vec<f32>,
    value: Vec<f32>,
    /// Written whole by every layer.
    context: Vec<f32>,
    scores: Vec<f32>,
    out: Vec<f32>,
    intermediate: Vec<f32>,
}

/// The unit-length mean of the last hidden states of `ids` (cut to the positions the model has;
/// an id outside the vocabulary is `unknown`). No ids give the zero vector.
#[inline(always)]
fn embed(how: Sums, weights: &Weights, ids: &[u32], unknown: u32) -> Vec<f32> {
    let hidden = weights.hidden;
    let ids = &ids[..ids.len().min(weights.positions)];
    let tokens = ids.len();
    if tokens == 0 {
        return vec![0.0; hidden];
    }
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
        how,
        quantized: Quantized::default(),
        middles: Vec::new(),
        // Zero rows to a whole number of `attend`'s chains.
        query: vec![0.0; tokens.next_multiple_of(CHAINS) * hidden],
        key: wide(hidden),
        keys_by_dim: Vec::new(),
        value: wide(hidden),
        context: wide(hidden),
        scores: Vec::new(),
        out: wide(hidden),
        intermediate: wide(weights.intermediate),
    };
    for layer in &weights.layers {
        encode_layer(weights, layer, &mut states, &mut scratch);
    }
    let mut pooled = vec![0.0f32; hidden];
    for state in states.chunks_exact(hidden) {
        axpy(&mut pooled, 1.0, state);
    }
    // The mean's direction is the sum's: normalising makes dividing by the count moot.
    let norm = sum_of(&pooled, |v| v * v).sqrt();
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
fn encode_layer(weights: &Weights, layer: &Layer, states: &mut [f32], s: &mut Scratch) {
    let hidden = weights.hidden;
    let tokens = states.len() / hidden;
    let head = hidden / weights.heads;
    // The three projections read the same states: quantized once.
    s.quantized.read(states, hidden);
    layer.query.apply(s.how, &s.quantized, &mut s.middles, &mut s.query);
    layer.key.apply(s.how, &s.quantized, &mut s.middles, &mut s.key);
    layer.value.apply(s.how, &s.quantized, &mut s.middles, &mut s.value);
    let scale = 1.0 / (head as f32).sqrt();
    for q in &mut s.query {
        *q *= scale;
    }
    attend(weights.heads, tokens, s);
    s.quantized.read(&s.context, hidden);
    layer.attention_out.apply(s.how, &s.quantized, &mut s.middles, &mut s.out);
    residual_norm(states, &mut s.out, &layer.attention_norm);
    s.quantized.read(states, hidden);
    layer.intermediate.apply(s.how, &s.quantized, &mut s.middles, &mut s.intermediate);
    gelu_all(&mut s.intermediate);
    s.quantized.read(&s.intermediate, weights.intermediate);
    layer.output.apply(s.how, &s.quantized, &mut s.middles, &mut s.out);
    residual_norm(states, &mut s.out, &layer.output_norm);
}

/// Rows of queries, and steps of a head's values, whose sums a loop of attention carries at once:
/// each sum runs over its terms in order, a chain of dependent additions, so several chains side
/// by side keep the adder busy.
const CHAINS: usize = 4;

/// Self-attention: `s.context` from the scaled queries, the keys and the values of `tokens`.
#[inline(always)]
fn attend(heads: usize, tokens: usize, s: &mut Scratch) {
    let hidden = s.context.len() / tokens;
    let head = hidden / heads;
    // Keys transposed and padded to whole steps of tokens, so the scores of a query against every
    // key are vector steps over the keys.
    let padded = tokens.next_multiple_of(STEP);
    s.keys_by_dim.clear();
    s.keys_by_dim.resize(hidden * padded, 0.0);
    for (u, key) in s.key.chunks_exact(hidden).enumerate() {
        for (c, &k) in key.iter().enumerate() {
            s.keys_by_dim[c * padded + u] = k;
        }
    }
    s.scores.clear();
    s.scores.resize(tokens.next_multiple_of(CHAINS) * padded, 0.0);
    let (values, _) = s.value.as_chunks::<STEP>();
    let steps_per_token = hidden / STEP;
    for h in 0..heads {
        let dims = h * head..(h + 1) * head;
        for (queries, scores) in s.query.chunks_exact(CHAINS * hidden).zip(s.scores.chunks_exact_mut(CHAINS * padded)) {
            for step in 0..padded / STEP {
                let mut sums = [[0.0f32; STEP]; CHAINS];
                for c in dims.clone() {
                    let (keys, _) = s.keys_by_dim[c * padded + step * STEP..][..STEP].as_chunks::<STEP>();
                    for (sums, query) in sums.iter_mut().zip(queries.chunks_exact(hidden)) {
                        axpy(sums, query[c], &keys[0]);
                    }
                }
                for (sums, scores) in sums.iter().zip(scores.chunks_exact_mut(padded)) {
                    scores[step * STEP..][..STEP].copy_from_slice(sums);
                }
            }
        }
        let steps = dims.start / STEP..dims.end / STEP;
        for (scores, context) in s.scores.chunks_exact_mut(padded).zip(s.context.chunks_exact_mut(hidden)) {
            let scores = &mut scores[..tokens];
            softmax(scores);
            let (context, _) = context.as_chunks_mut::<STEP>();
            for first in steps.clone().step_by(CHAINS) {
                let chains = CHAINS.min(steps.end - first);
                let mut sums = [[0.0f32; STEP]; CHAINS];
                for (t, &p) in scores.iter().enumerate() {
                    for (chain, sums) in sums.iter_mut().enumerate().take(chains) {
                        axpy(sums, p, &values[t * steps_per_token + first + chain]);
                    }
                }
                context[first..first + chains].copy_from_slice(&sums[..chains]);
            }
        }
    }
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
