//! The matrix products of a forward pass: int8 weights times int8 inputs, summed exactly in
//! i32.
//!
//! A product's inputs are quantized per token and per run of [`GROUP`] inputs: the run's range,
//! from its least to its greatest value, is cut into 255 steps, so each value is a byte, and the
//! run keeps its step and its middle as floats. A few large values (BERT's states have some in
//! fixed places) then cost precision in their own run only. The weights are the file's bytes,
//! with a scale per output column. Each run's part of an output is a sum of small integers, which
//! no order of additions and no width of vector can change: the portable loop, the AVX2 loop and
//! the AVX-512 VNNI loop give the same i32s, and the float steps after them (each run's sum times
//! its step, added run by run; then each run's middle times the column's sum of weights over the
//! run, added run by run; the column's scale and the bias) are the same operations in the same
//! order in every loop, so they give the same bits. That is what lets a machine with VNNI embed
//! the tools that a machine without it searches.
//!
//! The weights are packed once, when the file is read, in the order the vector loops read them:
//! blocks of [`BLOCK`] output columns, in each block quads of [`DEPTH`] inputs, so one 32-byte
//! load holds 4 inputs of 8 columns and one instruction adds a token's 4 inputs into 8 column
//! sums. No sum is split across lanes, so none is gathered at the end.

use super::math::round_to_int;

/// Output columns per packed block: one 256-bit register of i32 sums.
pub(super) const BLOCK: usize = 8;
/// Inputs per packed quad: what one VNNI instruction adds per column.
pub(super) const DEPTH: usize = 4;
/// Inputs per quantization run (the last run of a row may be shorter, a whole number of quads).
pub(super) const GROUP: usize = 64;
/// Steps a run's range is cut into: its values become the bytes 0..=255.
const STEPS: f32 = 255.0;

/// The runs a row of `width` inputs is quantized in.
fn runs(width: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
    (0..width).step_by(GROUP).map(move |start| start..(start + GROUP).min(width))
}

/// A weight matrix of `inputs` rows and `outputs` columns, packed (see the module's
/// documentation).
pub(super) struct Packed {
    pub(super) inputs: usize,
    pub(super) outputs: usize,
    /// `[outputs / BLOCK][inputs / DEPTH][BLOCK][DEPTH]`.
    values: Vec<i8>,
    /// `[runs][outputs]`: each column's sum of weights over each run of inputs. The VNNI loop
    /// reads an input as its unsigned byte `b` rather than `b - 128`, which adds 128 times this
    /// to the run's sum; it takes that off.
    run_sums: Vec<i32>,
}

impl Packed {
    /// Packs `weights`, stored `[inputs][outputs]` as the file has them. Both sizes are whole
    /// multiples of [`BLOCK`] (the file's reader checks), so of [`DEPTH`] too.
    pub(super) fn new(inputs: usize, outputs: usize, weights: &[i8]) -> Packed {
        debug_assert!(inputs.is_multiple_of(BLOCK) && outputs.is_multiple_of(BLOCK));
        debug_assert_eq!(weights.len(), inputs * outputs);
        let mut values = Vec::with_capacity(inputs * outputs);
        for block in 0..outputs / BLOCK {
            for quad in 0..inputs / DEPTH {
                for column in block * BLOCK..(block + 1) * BLOCK {
                    for input in quad * DEPTH..(quad + 1) * DEPTH {
                        values.push(weights[input * outputs + column]);
                    }
                }
            }
        }
        let run_sums = runs(inputs)
            .flat_map(|run| {
                (0..outputs)
                    .map(move |column| run.clone().map(|input| i32::from(weights[input * outputs + column])).sum())
            })
            .collect();
        Packed { inputs, outputs, values, run_sums }
    }

    /// The packed bytes of one block of columns: `inputs / DEPTH` quads of 32.
    fn block(&self, block: usize) -> &[i8] {
        let len = self.inputs * BLOCK;
        &self.values[block * len..][..len]
    }

    fn runs(&self) -> usize {
        self.inputs.div_ceil(GROUP)
    }
}

/// Rows of inputs quantized per run (see the module's documentation): a byte per value, and per
/// row and run the step and the middle that give it back, `(byte - 128) * step + middle`. The
/// integer sums read `byte - 128`, in -128..=127, so its product with a weight (at most 127 in
/// magnitude) and the sum of two such products stay within an i16 (the AVX2 loop relies on it).
#[derive(Default)]
pub(super) struct Quantized {
    width: usize,
    bytes: Vec<u8>,
    /// `[rows][runs]`.
    steps: Vec<f32>,
    middles: Vec<f32>,
}

impl Quantized {
    /// Quantizes the rows of `x` (`width` values each), reusing this buffer. Inlined into each
    /// compiled copy of the pass, so it vectorises with the copy's features.
    #[inline(always)]
    pub(super) fn read(&mut self, x: &[f32], width: usize) {
        self.width = width;
        self.bytes.resize(x.len(), 0);
        self.steps.clear();
        self.middles.clear();
        for (row, bytes) in x.chunks_exact(width).zip(self.bytes.chunks_exact_mut(width)) {
            for run in runs(width) {
                let (values, bytes) = (&row[run.clone()], &mut bytes[run]);
                let (low, high) = range(values);
                let (step, inverse) =
                    if high > low { ((high - low) / STEPS, STEPS / (high - low)) } else { (0.0, 0.0) };
                self.steps.push(step);
                self.middles.push(low + 128.0 * step);
                for (byte, &v) in bytes.iter_mut().zip(values) {
                    *byte = round_to_int((v - low) * inverse).clamp(0, 255) as u8;
                }
            }
        }
    }

    fn rows(&self) -> usize {
        self.bytes.len() / self.width.max(1)
    }

    fn row(&self, t: usize) -> &[u8] {
        &self.bytes[t * self.width..][..self.width]
    }

    /// The steps of row `t`'s runs.
    fn steps(&self, t: usize) -> &[f32] {
        let runs = self.width.div_ceil(GROUP);
        &self.steps[t * runs..][..runs]
    }
}

/// The least and the greatest of `values`, taken in [`RANGE_LANES`] lanes and then across them:
/// a single chain of `min`s waits on each one before the next, and min and max are exact in any
/// order, so the lanes give the same two values.
#[inline(always)]
fn range(values: &[f32]) -> (f32, f32) {
    let mut low = [f32::INFINITY; RANGE_LANES];
    let mut high = [f32::NEG_INFINITY; RANGE_LANES];
    let (chunks, rest) = values.as_chunks::<RANGE_LANES>();
    for chunk in chunks {
        for ((low, high), &v) in low.iter_mut().zip(&mut high).zip(chunk) {
            *low = low.min(v);
            *high = high.max(v);
        }
    }
    for &v in rest {
        low[0] = low[0].min(v);
        high[0] = high[0].max(v);
    }
    (low.into_iter().fold(f32::INFINITY, f32::min), high.into_iter().fold(f32::NEG_INFINITY, f32::max))
}

/// Lanes of [`range`]: one 256-bit register of floats.
const RANGE_LANES: usize = 8;

/// Which loop computes the sums; all give the same bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sums {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Vnni,
}

impl Sums {
    /// The fastest loop this CPU runs.
    pub(super) fn detect() -> Sums {
        #[cfg(target_arch = "x86_64")]
        {
            if vnni_detected() {
                return Sums::Vnni;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Sums::Avx2;
            }
        }
        Sums::Portable
    }

    /// Whether this CPU runs the loop (every CPU runs the portable one).
    #[cfg(test)]
    pub(super) fn available(self) -> bool {
        match self {
            Sums::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Sums::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Sums::Vnni => vnni_detected(),
        }
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            Sums::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Sums::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Sums::Vnni => "avx512-vnni",
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn vnni_detected() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512vnni")
}

/// A linear layer, `y = x W + b`, with W at a byte per weight and a scale per output column.
pub(super) struct Linear {
    packed: Packed,
    /// `Packed::run_sums` as floats (exact: at most 127 x 16384 in magnitude), which the runs'
    /// middles are multiplied by.
    run_sums: Vec<f32>,
    scales: Vec<f32>,
    bias: Vec<f32>,
}

impl Linear {
    /// `weights` stored `[inputs][outputs]`, as the file has them; `scales` and `bias` one per
    /// output.
    pub(super) fn new(inputs: usize, outputs: usize, weights: &[i8], scales: Vec<f32>, bias: Vec<f32>) -> Linear {
        debug_assert!(scales.len() == outputs && bias.len() == outputs);
        let packed = Packed::new(inputs, outputs, weights);
        let run_sums = packed.run_sums.iter().map(|&sum| sum as f32).collect();
        Linear { packed, run_sums, scales, bias }
    }

    /// `y = x W + b` for the quantized rows `x`: for token t and column j,
    /// `y = ((sum over runs of S * step) + (sum over runs of middle * run_sum)) * scale + bias`,
    /// each sum run by run in order, where `S` is the run's exact integer sum of
    /// `(byte - 128) * weight`, which `how` computes. `middles` is scratch; `y` takes
    /// `x.rows() * outputs` values.
    #[inline(always)]
    pub(super) fn apply(&self, how: Sums, x: &Quantized, middles: &mut Vec<f32>, y: &mut [f32]) {
        let w = &self.packed;
        debug_assert_eq!(x.width, w.inputs);
        let y = &mut y[..x.rows() * w.outputs];
        match how {
            Sums::Portable => portable(x, w, y),
            // SAFETY: `Sums::detect` and `Sums::available` only name a loop this CPU runs, and
            // the encoder only runs a loop they named.
            #[cfg(target_arch = "x86_64")]
            Sums::Avx2 => unsafe { x86::avx2(x, w, y) },
            #[cfg(target_arch = "x86_64")]
            Sums::Vnni => unsafe { x86::vnni(x, w, y) },
        }
        let runs = w.runs();
        for (t, out) in y.chunks_exact_mut(w.outputs).enumerate() {
            middles.clear();
            middles.resize(w.outputs, 0.0);
            for (&middle, sums) in x.middles[t * runs..][..runs].iter().zip(self.run_sums.chunks_exact(w.outputs)) {
                for (m, &sum) in middles.iter_mut().zip(sums) {
                    *m += middle * sum;
                }
            }
            let columns = middles.iter().zip(&self.scales).zip(&self.bias);
            for (o, ((&m, &scale), &bias)) in out.iter_mut().zip(columns) {
                *o = (*o + m) * scale + bias;
            }
        }
    }
}

/// The runs' sums times their steps, in plain loops, for any CPU.
fn portable(x: &Quantized, w: &Packed, y: &mut [f32]) {
    for block in 0..w.outputs / BLOCK {
        let packed = w.block(block);
        for t in 0..x.rows() {
            let (row, steps) = (x.row(t), x.steps(t));
            let mut outputs = [0.0f32; BLOCK];
            for (run, &step) in runs(w.inputs).zip(steps) {
                let mut sums = [0i32; BLOCK];
                let quads = packed[run.start * BLOCK..run.end * BLOCK].chunks_exact(BLOCK * DEPTH);
                for (inputs, quad) in row[run].chunks_exact(DEPTH).zip(quads) {
                    for (sum, weights) in sums.iter_mut().zip(quad.chunks_exact(DEPTH)) {
                        for (&input, &weight) in inputs.iter().zip(weights) {
                            *sum += (i32::from(input) - 128) * i32::from(weight);
                        }
                    }
                }
                for (out, &sum) in outputs.iter_mut().zip(&sums) {
                    *out += sum as f32 * step;
                }
            }
            y[t * w.outputs + block * BLOCK..][..BLOCK].copy_from_slice(&outputs);
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(test)]
mod tests {
    use super::*;

    /// Pseudo-random bytes in -127..=127, and floats of mixed signs and magnitudes.
    fn bytes(n: usize, seed: u32) -> Vec<i8> {
        let mut state = seed;
        (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (((state >> 8) % 255) as i32 - 127) as i8
            })
            .collect()
    }

    fn floats(n: usize, seed: u32) -> Vec<f32> {
        bytes(n, seed).into_iter().enumerate().map(|(i, b)| f32::from(b) * (1.0 + (i % 7) as f32) / 13.0).collect()
    }

    #[test]
    fn quantized_runs_read_back_within_half_a_step() {
        let width = GROUP + 16;
        let x = floats(3 * width, 7);
        let mut q = Quantized::default();
        q.read(&x, width);
        for t in 0..3 {
            for (r, run) in runs(width).enumerate() {
                let values = &x[t * width..][run.clone()];
                let (low, high) = values.iter().fold((f32::MAX, f32::MIN), |(l, h), &v| (l.min(v), h.max(v)));
                let (step, middle) = (q.steps[t * 2 + r], q.middles[t * 2 + r]);
                assert_eq!(step, (high - low) / 255.0);
                let bytes = &q.row(t)[run];
                for (&v, &byte) in values.iter().zip(bytes) {
                    let back = (i32::from(byte) - 128) as f32 * step + middle;
                    // Half a step, and the rounding of the products that placed v within it.
                    assert!((back - v).abs() <= step * 0.501, "{v} read back as {back}");
                }
                assert!(bytes.contains(&0) && bytes.contains(&255), "a run's ends are bytes 0 and 255");
            }
        }
        q.read(&[2.5; 8], 8);
        assert_eq!((q.steps[0], q.middles[0], q.row(0)), (0.0, 2.5, &[0u8; 8][..]));
    }

    /// What every loop must give: the module's formula, computed here from the definition.
    fn expected(
        q: &Quantized,
        weights: &[i8],
        inputs: usize,
        outputs: usize,
        scales: &[f32],
        bias: &[f32],
    ) -> Vec<f32> {
        let runs: Vec<_> = runs(inputs).collect();
        let mut y = Vec::new();
        for t in 0..q.rows() {
            for j in 0..outputs {
                let (mut sums, mut middles) = (0.0f32, 0.0f32);
                for (r, run) in runs.iter().enumerate() {
                    let sum: i32 =
                        run.clone().map(|i| (i32::from(q.row(t)[i]) - 128) * i32::from(weights[i * outputs + j])).sum();
                    let weight_sum: i32 = run.clone().map(|i| i32::from(weights[i * outputs + j])).sum();
                    sums += sum as f32 * q.steps(t)[r];
                    middles += q.middles[t * runs.len() + r] * weight_sum as f32;
                }
                y.push((sums + middles) * scales[j] + bias[j]);
            }
        }
        y
    }

    /// Every loop this CPU has gives the definition's bits, for every tile shape: tokens 1..9
    /// (whole tiles and each tail), column counts that leave partial tiles of blocks, inputs in
    /// one run, in several and with a short last run.
    #[test]
    fn every_loop_gives_the_definitions_bits() {
        let mut loops = vec![Sums::Portable];
        #[cfg(target_arch = "x86_64")]
        loops.extend([Sums::Avx2, Sums::Vnni]);
        let available: Vec<Sums> = loops.into_iter().filter(|s| s.available()).collect();
        for (inputs, outputs) in [(8, 8), (16, 40), (384, 72), (GROUP + 64, 24), (1536, 16)] {
            let weights = bytes(inputs * outputs, inputs as u32 * 31 + outputs as u32);
            let (scales, bias): (Vec<f32>, Vec<f32>) =
                (0..outputs).map(|j| (0.5 / (j + 1) as f32, j as f32 - 0.75)).unzip();
            let linear = Linear::new(inputs, outputs, &weights, scales.clone(), bias.clone());
            for tokens in 1..=9 {
                let x = floats(tokens * inputs, tokens as u32);
                let mut q = Quantized::default();
                q.read(&x, inputs);
                let expected = expected(&q, &weights, inputs, outputs, &scales, &bias);
                for &how in &available {
                    let mut y = vec![f32::NAN; tokens * outputs];
                    linear.apply(how, &q, &mut Vec::new(), &mut y);
                    assert!(
                        y.iter().zip(&expected).all(|(a, b)| a.to_bits() == b.to_bits()),
                        "{} at {tokens} tokens of {inputs} -> {outputs}",
                        how.name()
                    );
                }
            }
        }
        eprintln!("compared: {:?}", available.iter().map(|s| s.name()).collect::<Vec<_>>());
    }

    /// The largest sums the format allows (every input at an end of its range, every weight at 127
    /// in magnitude, the widest layer) stay exact: no i16 step saturates, no i32 overflows.
    #[test]
    fn extreme_values_do_not_saturate() {
        let (inputs, outputs) = (16384, 8);
        let weights: Vec<i8> = (0..inputs * outputs).map(|i| if i % 3 == 0 { -127 } else { 127 }).collect();
        let linear = Linear::new(inputs, outputs, &weights, vec![1.0; outputs], vec![0.0; outputs]);
        let x: Vec<f32> = (0..inputs).map(|i| if i % 2 == 0 { 1.0 } else { -1.0 }).collect();
        let mut q = Quantized::default();
        q.read(&x, inputs);
        let expected = expected(&q, &weights, inputs, outputs, &[1.0; 8], &[0.0; 8]);
        for how in [Sums::Portable, Sums::detect()] {
            let mut y = vec![0.0; outputs];
            linear.apply(how, &q, &mut Vec::new(), &mut y);
            assert_eq!(y, expected, "{}", how.name());
        }
    }
}
