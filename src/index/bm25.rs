//! The BM25 formulas (idf and saturation), with arithmetic that gives the same bits on every machine.
//!
//! `f64::ln` calls the platform's libm, and libms may differ in the last bit; a score that
//! differs in the last bit can round differently at the sixth decimal or flip a tie. Scores are
//! built only from `+ - * /` (exact IEEE operations everywhere) and [`ln`] below.

/// Inverse document frequency of a term found in `df` of `docs` documents (never negative).
pub fn idf(docs: usize, df: usize) -> f64 {
    let (n, df) = (docs as f64, df as f64);
    ln(1.0 + (n - df + 0.5) / (df + 0.5))
}

/// A term's contribution to a document's score, from its (fielded, length-normalized)
/// frequency `tf`: grows with `tf` but saturates, faster for small `k1`.
pub fn saturate(idf: f64, tf: f64, k1: f64) -> f64 {
    idf * (tf * (k1 + 1.0)) / (tf + k1)
}

/// Natural logarithm for `x >= 1`, from `x = m * 2^e` and the series
/// `ln m = 2 * atanh(s)`, `s = (m - 1) / (m + 1)`, with `m` in `[sqrt(1/2), sqrt(2)]`, where
/// `|s| < 0.172` and twelve terms are below `1e-19`. Accurate to a few ulps, identical everywhere.
pub fn ln(x: f64) -> f64 {
    debug_assert!(x >= 1.0 && x.is_finite());
    let bits = x.to_bits();
    let mut exponent = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut mantissa = f64::from_bits((bits & ((1 << 52) - 1)) | (1023 << 52));
    if mantissa > std::f64::consts::SQRT_2 {
        mantissa /= 2.0;
        exponent += 1;
    }
    let s = (mantissa - 1.0) / (mantissa + 1.0);
    let s2 = s * s;
    let mut power = s;
    let mut sum = 0.0;
    for k in 0..12 {
        sum += power / (2 * k + 1) as f64;
        power *= s2;
    }
    exponent as f64 * std::f64::consts::LN_2 + 2.0 * sum
}

/// A score as reported: rounded to six decimals. Ranking compares reported scores, so two hits
/// that show the same score are ordered by name, never by an invisible difference.
pub fn round6(score: f64) -> f64 {
    (score * 1e6).round() / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_matches_the_platform_within_a_few_ulps() {
        let mut x = 1.0;
        while x < 1e12 {
            let ours = ln(x);
            let platform = x.ln();
            assert!(
                (ours - platform).abs() <= 4.0 * f64::EPSILON * platform.abs().max(1.0),
                "{x}: {ours} vs {platform}"
            );
            x = x * 1.37 + 0.11;
        }
        assert_eq!(ln(1.0), 0.0);
    }

    #[test]
    fn idf_is_positive_and_falls_as_a_term_gets_common() {
        let rare = idf(1000, 1);
        let common = idf(1000, 999);
        assert!(rare > common && common > 0.0);
        assert!((idf(1000, 1) - (1.0 + 999.5 / 1.5f64).ln()).abs() < 1e-12);
    }

    #[test]
    fn saturation_grows_with_frequency_but_less_than_linearly() {
        let once = saturate(2.0, 1.0, 1.2);
        let twice = saturate(2.0, 2.0, 1.2);
        assert!((once - 2.0).abs() < 1e-12, "tf 1 at average length scores the idf");
        assert!(twice > once && twice < 2.0 * once);
        assert!(saturate(2.0, 1000.0, 1.2) < 2.0 * 2.2);
    }

    #[test]
    fn rounds_to_six_decimals() {
        assert_eq!(round6(1.23456749), 1.234567);
        assert_eq!(round6(1.2345675001), 1.234568);
        assert_eq!(round6(0.0), 0.0);
    }
}
