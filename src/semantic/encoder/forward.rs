//! The forward pass: embeddings, the post-LayerNorm BERT layers, mean pooling.
//!
//! `model/build/encoder.py`'s `forward` is the same computation and the spec this follows. The
//! matrix products are integer sums (`int8`); the rest is float (`float`). The pass is compiled
//! once per set of target features the products run with, so that its float loops get the wider
//! vectors too; every copy gives the same bits (`float` says why).

use super::file::{Layer, Norm, Weights, STEP};
use super::float::{axpy, gelu_all, layer_norm, softmax, sum_of};
use super::int8::{Quantized, Sums};
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};

/// The pass for the CPU's loop `how`, its layers shared by `threads` (1 or 2) threads.
pub(super) fn run(how: Sums, weights: &Weights, ids: &[u32], unknown: u32, threads: usize) -> Vec<f32> {
    let hidden = weights.hidden;
    let ids = &ids[..ids.len().min(weights.positions)];
    if ids.is_empty() {
        return vec![0.0; hidden];
    }
    let mut states = embedded(weights, ids, unknown);
    let tokens = ids.len();
    if threads < 2 || tokens < SPLIT_FROM {
        layers(how, weights, &mut states, None);
    } else {
        // Each thread runs every layer for its own tokens; only the keys and values cross over,
        // once per layer. Every token's values are the same operations in the same order as on
        // one thread, so the bits are too.
        let first = tokens.div_ceil(2);
        let (mine, theirs) = states.split_at_mut(first * hidden);
        let (link, other) = Link::pair();
        std::thread::scope(|scope| {
            scope.spawn(move || layers(how, weights, theirs, Some(&other)));
            layers(how, weights, mine, Some(&link));
        });
    }
    pooled(&states, hidden)
}

/// Checks of the line before a wait sleeps: some tens of microseconds.
const SPINS: usize = 1_000;

/// Tokens below which a pass stays on one thread: too few to repay starting another.
const SPLIT_FROM: usize = 8;

/// Runs the layers over `states` with the copy of the pass compiled for `how`.
fn layers(how: Sums, weights: &Weights, states: &mut [f32], part: Option<&Link>) {
    match how {
        Sums::Portable => encode_layers(how, weights, states, part),
        // SAFETY: `Sums` only names a loop this CPU runs (`Sums::detect`, `Sums::available`).
        #[cfg(target_arch = "x86_64")]
        Sums::Avx2 => unsafe { avx2(weights, states, part) },
        #[cfg(target_arch = "x86_64")]
        Sums::Vnni => unsafe { vnni(weights, states, part) },
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2(weights: &Weights, states: &mut [f32], part: Option<&Link>) {
    encode_layers(Sums::Avx2, weights, states, part)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512vnni")]
fn vnni(weights: &Weights, states: &mut [f32], part: Option<&Link>) {
    encode_layers(Sums::Vnni, weights, states, part)
}

/// One thread's end of the line between the two threads of a pass, over which each sends the
/// other its tokens' keys and values at every layer. A thread that stops (it panicked) drops its
/// end, so the other's wait ends too, and the pass fails rather than hangs.
struct Link {
    to: Sender<(Vec<f32>, Vec<f32>)>,
    from: Receiver<(Vec<f32>, Vec<f32>)>,
    /// Whether this thread has the first tokens.
    first: bool,
}

impl Link {
    fn pair() -> (Link, Link) {
        let (to_second, from_first) = channel();
        let (to_first, from_second) = channel();
        (Link { to: to_second, from: from_second, first: true }, Link { to: to_first, from: from_first, first: false })
    }

    /// The other thread's keys and values, or `None` when it is gone. The two threads reach each
    /// layer's exchange a few microseconds apart, so the wait spins that long before it sleeps:
    /// waking a sleeping thread (a halted virtual CPU, on a cloud machine) costs more than that.
    fn wait(&self) -> Option<(Vec<f32>, Vec<f32>)> {
        for _ in 0..SPINS {
            match self.from.try_recv() {
                Ok(message) => return Some(message),
                Err(TryRecvError::Disconnected) => return None,
                Err(TryRecvError::Empty) => std::hint::spin_loop(),
            }
        }
        self.from.recv().ok()
    }

    /// Sends this thread's keys and values, and writes every token's, in token order, to
    /// `s.all_keys` and `s.all_values`.
    fn swap(&self, s: &mut Scratch) {
        // A send fails only when the other thread is gone; then so is the receive below.
        let _ = self.to.send((s.key.clone(), s.value.clone()));
        let Some((keys, values)) = self.wait() else {
            panic!("the other thread of a forward pass stopped");
        };
        let (before, after) =
            if self.first { ((&s.key, &s.value), (&keys, &values)) } else { ((&keys, &values), (&s.key, &s.value)) };
        s.all_keys.clear();
        s.all_keys.extend_from_slice(before.0);
        s.all_keys.extend_from_slice(after.0);
        s.all_values.clear();
        s.all_values.extend_from_slice(before.1);
        s.all_values.extend_from_slice(after.1);
    }
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
    value: Vec<f32>,
    /// Every token's keys and values, when another thread has some of the tokens.
    all_keys: Vec<f32>,
    all_values: Vec<f32>,
    /// The keys transposed, [hidden][tokens padded to `STEP`], so a query's scores against
    /// every key are axpys over the keys instead of sequential dot products.
    keys_by_dim: Vec<f32>,
    /// Written whole by every layer.
    context: Vec<f32>,
    scores: Vec<f32>,
    out: Vec<f32>,
    intermediate: Vec<f32>,
}

/// The word, position and token-type embeddings of `ids` (at most the model's positions, each
/// in the vocabulary or `unknown`), LayerNormed.
fn embedded(weights: &Weights, ids: &[u32], unknown: u32) -> Vec<f32> {
    let hidden = weights.hidden;
    let mut states = vec![0.0f32; ids.len() * hidden];
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
    states
}

/// Every layer over `states`, the rows of this thread's tokens; `part` is the line to the thread
/// that has the other tokens, if one has.
#[inline(always)]
fn encode_layers(how: Sums, weights: &Weights, states: &mut [f32], part: Option<&Link>) {
    let tokens = states.len() / weights.hidden;
    let wide = |width: usize| vec![0.0f32; tokens * width];
    let mut scratch = Scratch {
        how,
        quantized: Quantized::default(),
        middles: Vec::new(),
        // Zero rows to a whole number of `attend`'s chains.
        query: vec![0.0; tokens.next_multiple_of(CHAINS) * weights.hidden],
        key: wide(weights.hidden),
        value: wide(weights.hidden),
        all_keys: Vec::new(),
        all_values: Vec::new(),
        keys_by_dim: Vec::new(),
        context: wide(weights.hidden),
        scores: Vec::new(),
        out: wide(weights.hidden),
        intermediate: wide(weights.intermediate),
    };
    for layer in &weights.layers {
        encode_layer(weights, layer, states, &mut scratch, part);
    }
}

/// The unit-length mean of the rows of `states`: summed in token order, so however many threads
/// made them.
fn pooled(states: &[f32], hidden: usize) -> Vec<f32> {
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
fn encode_layer(weights: &Weights, layer: &Layer, states: &mut [f32], s: &mut Scratch, part: Option<&Link>) {
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
    if let Some(link) = part {
        link.swap(s);
    }
    attend(weights.heads, tokens, part.is_some(), s);
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

/// Self-attention: `s.context` from the scaled queries of this thread's `tokens`, against the
/// keys and values of every token (`s.all_keys` and `s.all_values` when `shared`, this thread's
/// own otherwise).
#[inline(always)]
fn attend(heads: usize, tokens: usize, shared: bool, s: &mut Scratch) {
    let Scratch { query, key, value, all_keys, all_values, keys_by_dim, scores, context, .. } = s;
    let (keys, values) = if shared { (&all_keys[..], &all_values[..]) } else { (&key[..], &value[..]) };
    let hidden = context.len() / tokens;
    let head = hidden / heads;
    let seen = keys.len() / hidden;
    // Keys transposed and padded to whole steps of tokens, so the scores of a query against every
    // key are vector steps over the keys.
    let padded = seen.next_multiple_of(STEP);
    keys_by_dim.clear();
    keys_by_dim.resize(hidden * padded, 0.0);
    for (u, key) in keys.chunks_exact(hidden).enumerate() {
        for (c, &k) in key.iter().enumerate() {
            keys_by_dim[c * padded + u] = k;
        }
    }
    scores.clear();
    scores.resize(tokens.next_multiple_of(CHAINS) * padded, 0.0);
    let (values, _) = values.as_chunks::<STEP>();
    let steps_per_token = hidden / STEP;
    for h in 0..heads {
        let dims = h * head..(h + 1) * head;
        for (queries, scores) in query.chunks_exact(CHAINS * hidden).zip(scores.chunks_exact_mut(CHAINS * padded)) {
            for step in 0..padded / STEP {
                let mut sums = [[0.0f32; STEP]; CHAINS];
                for c in dims.clone() {
                    let (keys, _) = keys_by_dim[c * padded + step * STEP..][..STEP].as_chunks::<STEP>();
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
        for (scores, context) in scores.chunks_exact_mut(padded).zip(context.chunks_exact_mut(hidden)) {
            let scores = &mut scores[..seen];
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
