//! Statistics with numpy's definitions, so numbers match the seed scripts.
//!
//! - `median`: by selection; an even count averages the two middle values.
//! - `quantile(q)`: numpy's default `linear` method (type 7), including
//!   numpy's two-sided lerp so results agree to the last bit.
//! - `std`: sample standard deviation (`ddof = 1`).
//! - `ci95`: mean ± t(0.975, n-1) · s / √n (Student t), or a percentile
//!   bootstrap with a fixed, recorded seed.
//! - `gmean`, `hmean`: scipy.stats.gmean (`exp(mean(log x))`) and hmean
//!   (`1 / mean(1 / x)`), of positive values (the callers reject the rest).
//! - `mad`: scipy.stats.median_abs_deviation, `median(|x - median(x)|)`,
//!   raw (scale 1) or divided by [`NORMAL_MAD_SCALE`] (`scale="normal"`).
//! - `ttest_ind`, `mannwhitneyu`: two-sided p-values of two groups
//!   ([`welch_p`], [`mannwhitneyu_p`]).
//! - `histogram`: `np.histogram(values, bins)`: equal-width bins over
//!   [min, max], the last bin closed, same edge arithmetic as numpy.
//!
//! Sums are sequential, as Python's `sum()` is (the seed scripts use it for
//! byte-weighted means). All functions take finite values; callers reject
//! NaN and infinities first and name the row they came from.

use statrs::distribution::{ContinuousCDF, StudentsT};

mod compare;
pub use compare::{mannwhitneyu_p, welch_p, welch_p_of};

/// Arithmetic mean; `None` for no values.
pub fn mean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    Some(xs.iter().sum::<f64>() / xs.len() as f64)
}

/// `Σ x·w / Σ w`; `None` when there are no values or the weights sum to 0.
pub fn weighted_mean(xs: &[f64], ws: &[f64]) -> Option<f64> {
    let total: f64 = ws.iter().sum();
    if xs.is_empty() || total == 0.0 {
        return None;
    }
    Some(xs.iter().zip(ws).map(|(x, w)| x * w).sum::<f64>() / total)
}

/// The values of ranks `k` and `k + 1` (0-based, clamped to the last) in
/// `total_cmp` order: the same values a full sort puts there, found by
/// selection in O(n) instead of O(n log n).
/// `xs` is reordered (the callers own a copy).
fn ranks(xs: &mut [f64], k: usize) -> (f64, f64) {
    let (_, &mut at, above) = xs.select_nth_unstable_by(k, f64::total_cmp);
    let next = above.iter().copied().min_by(f64::total_cmp).unwrap_or(at);
    (at, next)
}

/// Median (numpy: mean of the two middle values for an even count).
pub fn median(xs: &[f64]) -> Option<f64> {
    median_of(&mut xs.to_vec())
}

/// [`median`] of values the caller no longer needs in order: they are
/// reordered, not copied (a median of a million values read back from a
/// spill file).
pub fn median_of(xs: &mut [f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let n = xs.len();
    Some(if n % 2 == 1 {
        ranks(xs, n / 2).0
    } else {
        let (a, b) = ranks(xs, n / 2 - 1);
        (a + b) / 2.0
    })
}

/// Quantile `q` in [0, 1] with numpy's default linear interpolation.
pub fn quantile(xs: &[f64], q: f64) -> Option<f64> {
    quantile_of(&mut xs.to_vec(), q)
}

/// [`quantile`] of values the caller no longer needs in order (as
/// [`median_of`]).
pub fn quantile_of(xs: &mut [f64], q: f64) -> Option<f64> {
    if xs.is_empty() || !(0.0..=1.0).contains(&q) {
        return None;
    }
    let pos = q * (xs.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let t = pos - lo as f64;
    let (a, b) = ranks(xs, lo);
    let d = b - a;
    // numpy's _lerp: a + d*t, computed from the nearer end for t >= 0.5.
    Some(if t >= 0.5 {
        b - d * (1.0 - t)
    } else {
        a + d * t
    })
}

/// Sample standard deviation (ddof = 1); `None` below two values.
pub fn std(xs: &[f64]) -> Option<f64> {
    if xs.len() < 2 {
        return None;
    }
    let m = mean(xs)?;
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    Some((ss / (xs.len() - 1) as f64).sqrt())
}

/// scipy's `scale="normal"` of `median_abs_deviation`: Φ⁻¹(3/4), the
/// divisor that makes a MAD estimate a normal distribution's σ (dividing by
/// it is multiplying by 1.482602218505602...). scipy writes this constant.
pub const NORMAL_MAD_SCALE: f64 = 0.6744897501960817;

/// Geometric mean (scipy.stats.gmean): `exp(Σ ln x / n)`, summed in order;
/// `None` for no values. Values must be positive (ln of 0 or less is not
/// finite; the callers reject them, naming the row).
pub fn gmean(xs: &[f64]) -> Option<f64> {
    let logs: Vec<f64> = xs.iter().map(|x| x.ln()).collect();
    Some(mean(&logs)?.exp())
}

/// Harmonic mean (scipy.stats.hmean): `1 / (Σ (1/x) / n)`, summed in
/// order; `None` for no values. Values must be positive.
pub fn hmean(xs: &[f64]) -> Option<f64> {
    let inv: Vec<f64> = xs.iter().map(|x| 1.0 / x).collect();
    Some(1.0 / mean(&inv)?)
}

/// Median absolute deviation (scipy.stats.median_abs_deviation with
/// `scale=1`): `median(|x - median(x)|)`; `None` for no values.
pub fn mad(xs: &[f64]) -> Option<f64> {
    let m = median(xs)?;
    median_of(&mut xs.iter().map(|x| (x - m).abs()).collect::<Vec<_>>())
}

/// Which end of an interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The lower end.
    Low,
    /// The upper end.
    High,
}

/// The `level` (e.g. 0.95) confidence interval of the mean, Student t with
/// n-1 degrees of freedom: `mean ± t · s/√n`. `None` below two values.
pub fn ci_t(xs: &[f64], level: f64) -> Option<(f64, f64)> {
    t_interval(mean(xs)?, std(xs)?, xs.len(), level)
}

/// The t interval from a mean `m`, sample standard deviation `s` and count `n`.
pub fn t_interval(m: f64, s: f64, n: usize, level: f64) -> Option<(f64, f64)> {
    if n < 2 {
        return None;
    }
    let t = StudentsT::new(0.0, 1.0, (n - 1) as f64)
        .ok()?
        .inverse_cdf(0.5 + level / 2.0);
    let half = t * s / (n as f64).sqrt();
    Some((m - half, m + half))
}

/// Percentile-bootstrap confidence interval of the mean: `resamples`
/// resamples drawn with a SplitMix64 stream seeded by `seed` (the same
/// numbers on every machine), quantiles taken as numpy's linear method.
pub fn ci_bootstrap(xs: &[f64], level: f64, resamples: usize, seed: u64) -> Option<(f64, f64)> {
    if xs.len() < 2 || resamples == 0 {
        return None;
    }
    let mut rng = SplitMix64(seed);
    let mut next = || rng.next_u64();
    let n = xs.len();
    let means: Vec<f64> = (0..resamples)
        .map(|_| {
            let s: f64 = (0..n).map(|_| xs[(next() % n as u64) as usize]).sum();
            s / n as f64
        })
        .collect();
    let alpha = (1.0 - level) / 2.0;
    Some((quantile(&means, alpha)?, quantile(&means, 1.0 - alpha)?))
}

/// SplitMix64 (Steele, Lea, Flood 2014), seeded by its field: tiny, fast,
/// and the same stream on every machine (for the bootstrap's resamples and
/// the tests' generated inputs).
#[derive(Debug, Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 bits of the stream.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// numpy's `np.linspace(start, stop, num)` (num >= 2), bit for bit.
pub fn linspace(start: f64, stop: f64, num: usize) -> Vec<f64> {
    let div = (num - 1) as f64;
    let delta = stop - start;
    let step = delta / div;
    let mut y: Vec<f64> = (0..num)
        .map(|i| {
            if step == 0.0 {
                (i as f64 / div) * delta + start
            } else {
                i as f64 * step + start
            }
        })
        .collect();
    if let Some(last) = y.last_mut() {
        *last = stop;
    }
    y
}

/// `np.histogram(xs, bins)`: (counts, edges). An empty input gives the
/// range [0, 1]; equal min and max widen it by 0.5 each side, as numpy does.
pub fn histogram(xs: &[f64], bins: usize, range: Option<(f64, f64)>) -> (Vec<u64>, Vec<f64>) {
    let (mut lo, mut hi) = match range {
        Some(r) => r,
        None if xs.is_empty() => (0.0, 1.0),
        None => xs
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            }),
    };
    if lo == hi {
        lo -= 0.5;
        hi += 0.5;
    }
    let edges = linspace(lo, hi, bins + 1);
    let mut counts = vec![0u64; bins];
    for &x in xs {
        if let Some(i) = bin_index(x, &edges) {
            counts[i] += 1;
        }
    }
    (counts, edges)
}

/// The bin of `x` among equal-width `edges` (at least two, as
/// [`linspace`] makes them) as `np.histogram` finds it: bins are half-open
/// but the last is closed; `None` outside [first, last].
pub fn bin_index(x: f64, edges: &[f64]) -> Option<usize> {
    let bins = edges.len() - 1;
    let (lo, hi) = (edges[0], edges[bins]);
    if !(lo..=hi).contains(&x) {
        return None;
    }
    // numpy computes the index from the scaled offset, then corrects it
    // against the actual edges (which may differ by rounding).
    let norm = bins as f64 / (hi - lo);
    let mut i = (((x - lo) * norm) as usize).min(bins);
    if i == bins {
        i -= 1;
    }
    if x < edges[i] {
        i = i.saturating_sub(1);
    } else if i + 1 < bins && x >= edges[i + 1] {
        i += 1;
    }
    Some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gmean_hmean_and_mad_are_scipys_to_the_last_bit() {
        // import scipy.stats as st  (scipy 1.17.1)
        // x = [3.5, 1.25, 8.0, 2.0, 5.5, 4.0, 0.75]
        // st.gmean(x), st.hmean(x), st.median_abs_deviation(x),
        // st.median_abs_deviation(x, scale='normal')
        let x = [3.5, 1.25, 8.0, 2.0, 5.5, 4.0, 0.75];
        assert_eq!(gmean(&x), Some(2.738493484828481));
        assert_eq!(hmean(&x), Some(2.0138867266556653));
        assert_eq!(mad(&x), Some(2.0));
        assert_eq!(
            mad(&x).map(|m| m / NORMAL_MAD_SCALE),
            Some(2.965204437011204)
        );
        // y = [12.0, 3.0, 7.5, 7.5, 1.0, 40.0] (an even count)
        let y = [12.0, 3.0, 7.5, 7.5, 1.0, 40.0];
        assert_eq!(gmean(&y), Some(6.577802604914671));
        assert_eq!(hmean(&y), Some(3.5121951219512204));
        assert_eq!(mad(&y), Some(4.5));
        assert_eq!(
            mad(&y).map(|m| m / NORMAL_MAD_SCALE),
            Some(6.671709983275209)
        );
        // 1 / scipy.special.ndtri(0.75)
        assert_eq!(1.0 / NORMAL_MAD_SCALE, 1.482602218505602);
        assert_eq!((gmean(&[]), hmean(&[]), mad(&[])), (None, None, None));
    }

    #[test]
    fn selection_gives_the_sorted_order_statistics() {
        // Duplicates, signed zeros and a spread of magnitudes: every rank's
        // value is the one a full sort by total_cmp puts there.
        let mut seed = 7u64;
        let mut xs: Vec<f64> = (0..501)
            .map(|i| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                match i % 7 {
                    0 => 0.0,
                    1 => -0.0,
                    2 => 1.5,
                    _ => ((seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 1e3,
                }
            })
            .collect();
        let mut sorted = xs.clone();
        sorted.sort_by(f64::total_cmp);
        for k in [0, 1, 100, 250, 499, 500] {
            let (a, b) = ranks(&mut xs.clone(), k);
            assert_eq!(a.to_bits(), sorted[k].to_bits(), "rank {k}");
            assert_eq!(
                b.to_bits(),
                sorted[(k + 1).min(500)].to_bits(),
                "rank {}",
                k + 1
            );
        }
        xs.pop();
        sorted = xs.clone();
        sorted.sort_by(f64::total_cmp);
        assert_eq!(median(&xs), Some((sorted[249] + sorted[250]) / 2.0));
        let q = quantile(&xs, 0.3).unwrap();
        let pos = 0.3 * 499.0;
        let (lo, t) = (pos as usize, pos - (pos as usize) as f64);
        let expect = sorted[lo] + (sorted[lo + 1] - sorted[lo]) * t;
        assert_eq!(q, expect);
    }

    #[test]
    fn median_of_even_count_averages_the_middle_two() {
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn quantile_interpolates_linearly_as_numpy() {
        // np.quantile([1, 2, 3, 4], 0.25) == 1.75
        assert_eq!(quantile(&[4.0, 3.0, 2.0, 1.0], 0.25), Some(1.75));
        assert_eq!(quantile(&[1.0, 2.0], 1.0), Some(2.0));
    }

    #[test]
    fn sample_std_uses_ddof_one() {
        // np.std([1, 2, 3, 4], ddof=1) == 1.2909944487358056
        assert_eq!(std(&[1.0, 2.0, 3.0, 4.0]), Some(1.2909944487358056));
    }

    #[test]
    fn t_interval_matches_scipy() {
        // mean 2.5, sem 0.6454972243679028, t(0.975, 3) = 3.182446305284263:
        // scipy.stats.t.interval(0.95, 3, loc=2.5, scale=sem) = (0.44574, 4.55426)
        let (lo, hi) = ci_t(&[1.0, 2.0, 3.0, 4.0], 0.95).unwrap();
        assert!((lo - 0.445739743239121).abs() < 1e-9, "{lo}");
        assert!((hi - 4.554260256760879).abs() < 1e-9, "{hi}");
    }

    #[test]
    fn bootstrap_is_reproducible_for_a_seed() {
        let xs = [1.0, 5.0, 2.0, 8.0, 3.0];
        assert_eq!(
            ci_bootstrap(&xs, 0.95, 500, 7),
            ci_bootstrap(&xs, 0.95, 500, 7)
        );
        assert_ne!(
            ci_bootstrap(&xs, 0.95, 500, 7),
            ci_bootstrap(&xs, 0.95, 500, 8)
        );
    }

    #[test]
    fn histogram_closes_the_last_bin_as_numpy() {
        // np.histogram([0, 1, 1, 2, 3], bins=3) == ([1, 2, 2], [0, 1, 2, 3])
        let (c, e) = histogram(&[0.0, 1.0, 1.0, 2.0, 3.0], 3, None);
        assert_eq!(c, vec![1, 2, 2]);
        assert_eq!(e, vec![0.0, 1.0, 2.0, 3.0]);
    }
}
