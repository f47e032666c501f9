//! `exp` and GELU from nothing but +, -, *, /, rounding and comparisons, in f32.
//!
//! The platform's libm is not used: its transcendental functions are not correctly rounded and
//! differ between C libraries (glibc, musl, the MSVC runtime, Apple's), so the same text would
//! embed to different bits on different machines. Here every operation is a correctly rounded
//! IEEE one in a fixed order (Rust never fuses a multiply with an add), so every machine gets the
//! same result, and none branches, so a loop over them vectorises; a vector lane computes what
//! the scalar code does, bit for bit.
//!
//! f32 is enough: GELU's output is quantized to a byte per value before the next product reads
//! it, and a softmax weight's error of a few units in its last place is far below that.

/// Cody and Waite's split of ln 2: `LN2_HI` has 9 significant bits, so `k * LN2_HI` is exact for
/// every `k` the range below reaches, and the reduction loses nothing to rounding.
const LN2_HI: f32 = f32::from_bits(0x3f31_8000); // 0.693359375
const LN2_LO: f32 = -2.121_944_4e-4;
const LOG2_E: f32 = std::f32::consts::LOG2_E;
/// e^x is taken at these bounds outside them: e^-87 is near the smallest normal f32, e^88 near
/// the largest, and both keep 2^k a normal number.
const EXP_MIN: f32 = -87.0;
const EXP_MAX: f32 = 88.0;

/// 1.5 x 2^23: a float this size has no bits left for a fraction, and between 2^23 and 2^24 its
/// bits count up one per unit.
const SHIFT: f32 = 12_582_912.0;

/// `x` rounded to the nearest integer, ties to even, for |x| under 2^22: `x + SHIFT` is rounded
/// there (by the IEEE rule every machine applies), and the sum's bits less `SHIFT`'s are the
/// integer. Neither `round_ties_even` nor `as i32` would do: the first is a call into libm per
/// value where the target has no rounding instruction (x86-64 before SSE4.1), and the second
/// saturates, which LLVM does one lane at a time.
#[inline(always)]
pub(super) fn round_to_int(x: f32) -> i32 {
    (x + SHIFT).to_bits() as i32 - SHIFT.to_bits() as i32
}

/// e^x: x = k ln2 + r with |r| <= ln2 / 2, e^x = 2^k e^r, e^r by its Taylor polynomial to r^7
/// (the first term left out, r^8 / 8!, is under 2e-8 of the result). Outside -87..=88, and for
/// NaN, x is taken at the nearer bound: a softmax stays finite whatever its scores.
#[inline(always)]
pub(super) fn exp(x: f32) -> f32 {
    // `max` and `min` return the other operand for NaN, where `clamp` would return NaN.
    #[allow(clippy::manual_clamp)]
    let x = x.max(EXP_MIN).min(EXP_MAX);
    let n = round_to_int(x * LOG2_E);
    let k = n as f32;
    let r = (x - k * LN2_HI) - k * LN2_LO;
    let p = 1.0
        + r * (1.0
            + r * (1.0 / 2.0
                + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0)))))));
    // k is in -126..=127, so k + 127 is a normal number's exponent field.
    p * f32::from_bits(((n + 127) as u32) << 23)
}

/// GELU in its exact (erf) form, x * Phi(x) = x * erfc(-x / sqrt 2) / 2, with erfc from
/// Numerical Recipes' `erfcc` (a Chebyshev fit of erfc(z) e^(z^2), relative error under 1.2e-7
/// for z >= 0). The fit is taken at |x| / sqrt 2, which is erfc's own argument for negative x,
/// where GELU is the small tail and keeps its relative precision; for positive x it is 2 minus
/// the tail.
#[inline(always)]
pub(super) fn gelu(x: f32) -> f32 {
    let z = x.abs() * std::f32::consts::FRAC_1_SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -1.265_512_2
        + t * (1.000_023_7
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_204 + t * (1.488_515_9 + t * (-0.822_152_2 + t * 0.170_872_77))))))));
    let tail = t * exp(-z * z + poly);
    let complement = if x < 0.0 { tail } else { 2.0 - tail };
    0.5 * x * complement
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference values (from mpmath) the approximations are held to.
    #[test]
    fn exp_is_accurate_across_its_range() {
        for (x, expected) in [
            (0.0f32, 1.0f64),
            (1.0, std::f64::consts::E),
            (-1.0, 0.367_879_441_171_442_33),
            (0.5, 1.648_721_270_700_128_1),
            (-20.0, 2.061_153_622_438_558e-9),
            (-86.5, 2.713_484_313_986_762_4e-38),
            (50.0, 5.184_705_528_587_072e21),
        ] {
            let relative = ((f64::from(exp(x)) - expected) / expected).abs();
            assert!(relative < 4e-7, "exp({x}) = {}, expected {expected}", exp(x));
        }
        assert!(exp(-1000.0) > 0.0 && exp(-1000.0) < 2e-38);
        assert_eq!(exp(f32::NAN), exp(EXP_MIN));
        assert!(exp(1000.0).is_finite());
    }

    #[test]
    fn small_values_round_to_even() {
        for (x, expected) in [
            (0.5f32, 0),
            (1.5, 2),
            (2.5, 2),
            (-0.5, 0),
            (-1.5, -2),
            (126.7, 127),
            (-126.4, -126),
            (3.0, 3),
            (255.49, 255),
            (-4e6, -4_000_000),
        ] {
            assert_eq!(round_to_int(x), expected, "{x}");
            assert_eq!(round_to_int(x), x.round_ties_even() as i32, "{x}");
        }
    }

    #[test]
    fn gelu_matches_its_definition() {
        // x * Phi(x), from mpmath.
        for (x, expected) in [
            (0.0f32, 0.0f64),
            (1.0, 0.841_344_746_068_542_9),
            (-1.0, -0.158_655_253_931_457_05),
            (3.0, 2.995_950_305_905_11),
            (-3.0, -0.004_049_694_094_890_287),
            (0.1, 0.053_982_783_727_702_904),
            (-10.0, -7.619_853_024_160_593e-23),
        ] {
            let got = f64::from(gelu(x));
            assert!(
                (got - expected).abs() <= 2e-6 * expected.abs().max(1e-6),
                "gelu({x}) = {got}, expected {expected}"
            );
        }
        assert!(gelu(-200.0) <= 0.0 && gelu(-200.0) > -1e-30);
    }
}
