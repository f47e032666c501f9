//! `exp` and `erfc` from nothing but +, -, *, / and comparisons.
//!
//! The platform's libm is not used: its transcendental functions are not correctly rounded and
//! differ between C libraries (glibc, musl, the MSVC runtime, Apple's), so the same text would
//! embed to different bits on different machines. These are evaluated in f64, where a fixed
//! polynomial leaves far less error than the f32 they are rounded to, and every operation is a
//! correctly rounded IEEE one, so every machine gets the same result.

/// fdlibm's split of ln 2 (its low 32 bits zero): `k * LN2_HI` is exact for the `k` we reach,
/// so the reduction loses nothing to rounding.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
const LOG2_E: f64 = std::f64::consts::LOG2_E;
/// Below this e^x is under the smallest normal f64 (and far under anything an f32 keeps).
const EXP_MIN: f64 = -708.0;
const EXP_MAX: f64 = 709.0;
/// 1/n! for n = 0..=11: after reduction |r| <= ln2 / 2, where the first omitted term,
/// r^12 / 12!, is under 1e-14 of the result.
const TAYLOR: [f64; 12] = [
    1.0,
    1.0,
    1.0 / 2.0,
    1.0 / 6.0,
    1.0 / 24.0,
    1.0 / 120.0,
    1.0 / 720.0,
    1.0 / 5_040.0,
    1.0 / 40_320.0,
    1.0 / 362_880.0,
    1.0 / 3_628_800.0,
    1.0 / 39_916_800.0,
];

/// e^x: x = k ln2 + r, e^x = 2^k e^r, e^r by its Taylor polynomial. NaN gives 0, which keeps a
/// softmax finite.
#[inline(always)]
pub(super) fn exp(x: f64) -> f64 {
    if x.is_nan() || x < EXP_MIN {
        return 0.0;
    }
    if x > EXP_MAX {
        return f64::INFINITY;
    }
    // Rounds half away from zero; `as` truncates, and the range above keeps k in i32.
    let k = (x * LOG2_E + if x < 0.0 { -0.5 } else { 0.5 }) as i32;
    let kf = f64::from(k);
    let r = (x - kf * LN2_HI) - kf * LN2_LO;
    let mut p = TAYLOR[11];
    for &c in TAYLOR[..11].iter().rev() {
        p = p * r + c;
    }
    // k is in -1021..=1023 here, so 2^k is a normal f64 built from its exponent bits.
    p * f64::from_bits(((k + 1023) as u64) << 52)
}

/// erfc(x), with a relative error under 1.2e-7 for every x (Numerical Recipes' `erfcc`, a
/// Chebyshev fit of erfc(z) e^(z^2)). The complement rather than erf because GELU is
/// x * erfc(-x / sqrt 2) / 2: for negative x the result is the small erfc itself, kept to its
/// relative precision instead of lost in 1 + erf.
#[inline(always)]
pub(super) fn erfc(x: f64) -> f64 {
    let z = if x < 0.0 { -x } else { x };
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let tail = t * exp(-z * z + poly);
    if x < 0.0 {
        2.0 - tail
    } else {
        tail
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference values (from mpmath, to what an f64 literal holds) the approximations are held to.
    #[test]
    fn exp_is_accurate_across_its_range() {
        for (x, expected) in [
            (0.0, 1.0),
            (1.0, std::f64::consts::E),
            (-1.0, 0.367_879_441_171_442_33),
            (0.5, 1.648_721_270_700_128_1),
            (-20.0, 2.061_153_622_438_558e-9),
            (-87.3, 1.219_247_095_952_005_2e-38),
            (50.0, 5.184_705_528_587_072e21),
        ] {
            let relative = ((exp(x) - expected) / expected).abs();
            assert!(relative < 1e-14, "exp({x}) = {}, expected {expected}", exp(x));
        }
        assert_eq!(exp(-1000.0), 0.0);
        assert_eq!(exp(f64::NAN), 0.0);
        assert_eq!(exp(1000.0), f64::INFINITY);
    }

    #[test]
    fn erfc_is_accurate_to_its_fit() {
        for (x, expected) in [
            (0.0, 1.0),
            (0.1, 0.887_537_083_981_715_2),
            (-0.5, 1.520_499_877_813_046_5),
            (1.0, 0.157_299_207_050_285_13),
            (3.0, 2.209_049_699_858_544e-5),
            (-2.0, 1.995_322_265_018_952_7),
            (6.0, 2.151_973_671_249_891_3e-17),
        ] {
            let relative = ((erfc(x) - expected) / expected).abs();
            assert!(relative < 1.2e-7, "erfc({x}) = {}, expected {expected}", erfc(x));
        }
    }
}
