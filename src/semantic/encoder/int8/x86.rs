//! The vector loops. Each takes a tile of tokens by blocks of columns, keeps the tile's sums
//! in registers while the blocks' packed weights stream past once per tile, turns each run's
//! integer sums into floats as the run ends, and writes each output once.

use std::arch::x86_64::*;

use super::{runs, Packed, Quantized, BLOCK, DEPTH};

/// Tokens per tile, and blocks of columns per tile: a tile's integer and float sums, the
/// blocks' weights and the broadcast inputs fill the 32 registers AVX-512 gives (16 for
/// AVX2, with a smaller tile).
const VNNI_TOKENS: usize = 4;
const VNNI_BLOCKS: usize = 3;
const AVX2_TOKENS: usize = 2;
const AVX2_BLOCKS: usize = 2;

/// AVX-512 VNNI on 256-bit registers: `vpdpbusd` multiplies an input's unsigned byte by a
/// weight's signed byte and adds four such products into an i32 lane, without saturating;
/// reading the byte rather than the byte minus 128 adds 128 times the run's sum of weights,
/// which is taken off as the run ends.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512vnni")]
pub(super) fn vnni(x: &Quantized, w: &Packed, y: &mut [f32]) {
    // The closure has this function's target features.
    each_tile(x, w, VNNI_TOKENS, VNNI_BLOCKS, |tile| match (tile.tokens, tile.blocks) {
        (4, 3) => vnni_tile::<4, 3>(x, w, &tile, y),
        (3, 3) => vnni_tile::<3, 3>(x, w, &tile, y),
        (2, 3) => vnni_tile::<2, 3>(x, w, &tile, y),
        (1, 3) => vnni_tile::<1, 3>(x, w, &tile, y),
        _ => tile.by_block(|tile| match tile.tokens {
            4 => vnni_tile::<4, 1>(x, w, &tile, y),
            3 => vnni_tile::<3, 1>(x, w, &tile, y),
            2 => vnni_tile::<2, 1>(x, w, &tile, y),
            _ => vnni_tile::<1, 1>(x, w, &tile, y),
        }),
    });
}

#[target_feature(enable = "avx2,avx512f,avx512vl,avx512vnni")]
fn vnni_tile<const T: usize, const B: usize>(x: &Quantized, w: &Packed, tile: &Tile, y: &mut [f32]) {
    let (rows, blocks) = tile.pointers::<T, B>(x, w);
    let mut outputs = [[_mm256_setzero_ps(); B]; T];
    for (r, run) in runs(w.inputs).enumerate() {
        let mut acc = [[_mm256_setzero_si256(); B]; T];
        for quad in run.start / DEPTH..run.end / DEPTH {
            let mut weights = [_mm256_setzero_si256(); B];
            for (weight, block) in weights.iter_mut().zip(blocks) {
                // SAFETY: a block holds `inputs / DEPTH` quads of 32 bytes.
                *weight = unsafe { _mm256_loadu_si256(block.add(quad * 32).cast()) };
            }
            for (acc, row) in acc.iter_mut().zip(rows) {
                // SAFETY: a row holds `inputs` bytes, `DEPTH` per quad.
                let inputs = _mm256_set1_epi32(unsafe { row.add(quad * DEPTH).cast::<i32>().read_unaligned() });
                for (acc, &weight) in acc.iter_mut().zip(&weights) {
                    *acc = _mm256_dpbusd_epi32(*acc, inputs, weight);
                }
            }
        }
        let mut bias = [_mm256_setzero_si256(); B];
        for (b, bias) in bias.iter_mut().enumerate() {
            let sums = &w.run_sums[r * w.outputs + (tile.block + b) * BLOCK..][..BLOCK];
            // SAFETY: `sums` holds BLOCK i32s.
            *bias = _mm256_slli_epi32::<7>(unsafe { _mm256_loadu_si256(sums.as_ptr().cast()) });
        }
        for ((outputs, acc), t) in outputs.iter_mut().zip(&acc).zip(tile.first..) {
            let step = _mm256_set1_ps(x.steps(t)[r]);
            for ((out, &acc), &bias) in outputs.iter_mut().zip(acc).zip(&bias) {
                let sum = _mm256_cvtepi32_ps(_mm256_sub_epi32(acc, bias));
                *out = _mm256_add_ps(*out, _mm256_mul_ps(sum, step));
            }
        }
    }
    tile.store(&outputs, w, y);
}

/// AVX2: `vpmaddubsw` multiplies unsigned by signed bytes and adds pairs into i16, which a
/// byte up to 255 would overflow, so it is given the magnitudes of the bytes minus 128 and
/// the weights carrying their signs: a pair's sum is then at most 2 x 128 x 127, within an
/// i16, and `vpmaddwd` adds the pairs into i32 lanes, four products each as VNNI does.
#[target_feature(enable = "avx2")]
pub(super) fn avx2(x: &Quantized, w: &Packed, y: &mut [f32]) {
    // The closure has this function's target features.
    each_tile(x, w, AVX2_TOKENS, AVX2_BLOCKS, |tile| match (tile.tokens, tile.blocks) {
        (2, 2) => avx2_tile::<2, 2>(x, w, &tile, y),
        (1, 2) => avx2_tile::<1, 2>(x, w, &tile, y),
        _ => tile.by_block(|tile| match tile.tokens {
            2 => avx2_tile::<2, 1>(x, w, &tile, y),
            _ => avx2_tile::<1, 1>(x, w, &tile, y),
        }),
    });
}

#[target_feature(enable = "avx2")]
fn avx2_tile<const T: usize, const B: usize>(x: &Quantized, w: &Packed, tile: &Tile, y: &mut [f32]) {
    let (rows, blocks) = tile.pointers::<T, B>(x, w);
    let ones = _mm256_set1_epi16(1);
    let flip = _mm256_set1_epi8(-128);
    let mut outputs = [[_mm256_setzero_ps(); B]; T];
    for (r, run) in runs(w.inputs).enumerate() {
        let mut acc = [[_mm256_setzero_si256(); B]; T];
        for quad in run.start / DEPTH..run.end / DEPTH {
            let mut weights = [_mm256_setzero_si256(); B];
            for (weight, block) in weights.iter_mut().zip(blocks) {
                // SAFETY: as in `vnni_tile`.
                *weight = unsafe { _mm256_loadu_si256(block.add(quad * 32).cast()) };
            }
            for (acc, row) in acc.iter_mut().zip(rows) {
                // SAFETY: as in `vnni_tile`.
                let biased = _mm256_set1_epi32(unsafe { row.add(quad * DEPTH).cast::<i32>().read_unaligned() });
                // The byte minus 128 is the signed value: flipping the top bit makes it.
                let signed = _mm256_xor_si256(biased, flip);
                let magnitude = _mm256_abs_epi8(signed);
                for (acc, &weight) in acc.iter_mut().zip(&weights) {
                    let pairs = _mm256_maddubs_epi16(magnitude, _mm256_sign_epi8(weight, signed));
                    *acc = _mm256_add_epi32(*acc, _mm256_madd_epi16(pairs, ones));
                }
            }
        }
        for ((outputs, acc), t) in outputs.iter_mut().zip(&acc).zip(tile.first..) {
            let step = _mm256_set1_ps(x.steps(t)[r]);
            for (out, &acc) in outputs.iter_mut().zip(acc) {
                *out = _mm256_add_ps(*out, _mm256_mul_ps(_mm256_cvtepi32_ps(acc), step));
            }
        }
    }
    tile.store(&outputs, w, y);
}

/// Tokens `first..first + tokens` by column blocks `block..block + blocks`.
#[derive(Clone, Copy)]
struct Tile {
    first: usize,
    tokens: usize,
    block: usize,
    blocks: usize,
}

/// Calls `tile` for every tile of the product, blocks of columns outermost, so a tile of
/// columns' weights (a few KB) stays in cache for every tile of tokens.
#[inline(always)]
fn each_tile(x: &Quantized, w: &Packed, tokens: usize, widest: usize, mut tile: impl FnMut(Tile)) {
    let blocks = w.outputs / BLOCK;
    for block in (0..blocks).step_by(widest) {
        for first in (0..x.rows()).step_by(tokens) {
            tile(Tile { first, tokens: tokens.min(x.rows() - first), block, blocks: widest.min(blocks - block) });
        }
    }
}

impl Tile {
    /// The tile one block at a time (a tile narrower than its loop's widest).
    #[inline(always)]
    fn by_block(self, mut one: impl FnMut(Tile)) {
        for block in self.block..self.block + self.blocks {
            one(Tile { block, blocks: 1, ..self });
        }
    }

    /// Where each of the tile's input rows and weight blocks starts.
    #[inline(always)]
    fn pointers<const T: usize, const B: usize>(&self, x: &Quantized, w: &Packed) -> ([*const u8; T], [*const i8; B]) {
        debug_assert!(self.tokens == T && self.blocks == B);
        (
            std::array::from_fn(|t| x.row(self.first + t).as_ptr()),
            std::array::from_fn(|b| w.block(self.block + b).as_ptr()),
        )
    }

    #[inline(always)]
    fn store<const T: usize, const B: usize>(&self, outputs: &[[__m256; B]; T], w: &Packed, y: &mut [f32]) {
        for (t, outputs) in outputs.iter().enumerate() {
            let row = &mut y[(self.first + t) * w.outputs + self.block * BLOCK..][..B * BLOCK];
            for (out, &value) in row.chunks_exact_mut(BLOCK).zip(outputs) {
                // SAFETY: `out` holds BLOCK floats, one register's worth.
                unsafe { _mm256_storeu_ps(out.as_mut_ptr(), value) };
            }
        }
    }
}
