//! Two-group comparisons, as scipy defines them, for "A is faster than B
//! (p < 0.01)": two-sided p-values of Welch's t-test
//! (`scipy.stats.ttest_ind(a, b, equal_var=False)`) and of the
//! Mann–Whitney U test (`scipy.stats.mannwhitneyu(a, b)`, its default
//! `method="auto"`: exact below 9 values in either group when there are no
//! ties, otherwise the normal approximation with tie and continuity
//! corrections). One departure: the exact distribution is used only up to
//! [`EXACT_MAX`] pairs (8 values against a million would need 8 million
//! counts); beyond, the normal approximation, as scipy's for large groups.

use statrs::distribution::{ContinuousCDF, StudentsT};

use super::{mean, std};

/// The two-sided p-value of Welch's t-test of `a` against `b`; `None`
/// below two values in either group or when both have no spread (scipy
/// answers NaN there).
pub fn welch_p(a: &[f64], b: &[f64]) -> Option<f64> {
    welch_p_of((mean(a)?, std(a)?, a.len()), (mean(b)?, std(b)?, b.len()))
}

/// [`welch_p`] from each group's (mean, sample standard deviation, count),
/// so spilled groups are never read whole into memory.
pub fn welch_p_of(a: (f64, f64, usize), b: (f64, f64, usize)) -> Option<f64> {
    let (n1, n2) = (a.2 as f64, b.2 as f64);
    if a.2 < 2 || b.2 < 2 {
        return None;
    }
    let (v1, v2) = (a.1.powi(2) / n1, b.1.powi(2) / n2);
    let se2 = v1 + v2;
    if se2 == 0.0 {
        return None;
    }
    let t = (a.0 - b.0) / se2.sqrt();
    let df = se2 * se2 / (v1 * v1 / (n1 - 1.0) + v2 * v2 / (n2 - 1.0));
    let dist = StudentsT::new(0.0, 1.0, df).ok()?;
    // scipy: 2 * min(cdf, sf), the smaller tail computed directly.
    Some((2.0 * dist.sf(t.abs())).min(1.0))
}

/// The most pairs (n1·n2) for which U's exact distribution is computed.
pub const EXACT_MAX: usize = 1 << 20;

/// The two-sided p-value of the Mann–Whitney U test of `a` against `b`
/// (scipy's `method="auto"`); `None` when a group is empty.
pub fn mannwhitneyu_p(a: &[f64], b: &[f64]) -> Option<f64> {
    let (n1, n2) = (a.len(), b.len());
    if n1 == 0 || n2 == 0 {
        return None;
    }
    let (ranks, tie_term) = average_ranks(a.iter().chain(b).copied().collect());
    let r1: f64 = ranks[..n1].iter().sum();
    let (f1, f2) = (n1 as f64, n2 as f64);
    let u1 = r1 - f1 * (f1 + 1.0) / 2.0;
    let u = u1.max(f1 * f2 - u1);
    let p = if (n1 > 8 && n2 > 8) || tie_term > 0.0 || n1.saturating_mul(n2) > EXACT_MAX {
        let n = f1 + f2;
        let s = (f1 * f2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)))).sqrt();
        let z = (u - f1 * f2 / 2.0 - 0.5) / s;
        // scipy's ndtr(-z), as cephes computes it: erfc / 2 (statrs's
        // normal tail differs from it in the 11th digit).
        let sf = if z.is_nan() {
            1.0
        } else {
            0.5 * libm::erfc(z / std::f64::consts::SQRT_2)
        };
        2.0 * sf
    } else {
        2.0 * exact_sf(n1.min(n2), n1.max(n2), u as u64)
    };
    Some(p.clamp(0.0, 1.0))
}

/// Ranks 1..n of `xs` (ties get their average rank), in input order, and
/// Σ (t³ - t) over the groups of t tied values.
fn average_ranks(xs: Vec<f64>) -> (Vec<f64>, f64) {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&i, &j| xs[i].total_cmp(&xs[j]));
    let mut ranks = vec![0.0; xs.len()];
    let mut tie_term = 0.0;
    let mut i = 0;
    while i < order.len() {
        let mut j = i + 1;
        while j < order.len() && xs[order[j]] == xs[order[i]] {
            j += 1;
        }
        let avg = (i + j + 1) as f64 / 2.0;
        for &k in &order[i..j] {
            ranks[k] = avg;
        }
        let t = (j - i) as f64;
        tie_term += t * t * t - t;
        i = j;
    }
    (ranks, tie_term)
}

/// P(U ≥ `u`) under the null, exactly, for groups of `m ≤ n` values
/// without ties: the counts of U are the coefficients of the Gaussian
/// binomial [m+n choose m]_q, built as Π (1 - q^(n+i)) / (1 - q^i); memory
/// m·n + 1 (only called with m ≤ 8).
fn exact_sf(m: usize, n: usize, u: u64) -> f64 {
    let top = m * n;
    let mut c = vec![0.0f64; top + 1];
    c[0] = 1.0;
    for i in 1..=m {
        // × (1 - q^(n+i)), highest degree first.
        for d in (n + i..=top).rev() {
            c[d] -= c[d - n - i];
        }
        // ÷ (1 - q^i): a running sum with stride i.
        for d in i..=top {
            c[d] += c[d - i];
        }
    }
    let total: f64 = c.iter().sum();
    let at_least: f64 = c.iter().skip(u as usize).sum();
    at_least / total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1e-300)
    }

    #[test]
    fn welch_p_is_scipys_ttest_ind_unequal_variances() {
        // import scipy.stats as st
        // a = [3.5, 1.25, 8.0, 2.0, 5.5, 4.0, 0.75]; b = [12.0, 3.0, 7.5, 7.5, 1.0, 40.0]
        // st.ttest_ind(a, b, equal_var=False).pvalue
        let a = [3.5, 1.25, 8.0, 2.0, 5.5, 4.0, 0.75];
        let b = [12.0, 3.0, 7.5, 7.5, 1.0, 40.0];
        let p = welch_p(&a, &b).unwrap();
        assert!(close(p, WELCH_AB), "{p}");
        assert_eq!(welch_p(&a, &[1.0]), None);
        assert_eq!(welch_p(&[1.0, 1.0], &[2.0, 2.0]), None);
    }

    #[test]
    fn mannwhitneyu_p_is_scipys_auto_method() {
        // st.mannwhitneyu(a, b).pvalue: ties in b (7.5), so asymptotic
        let a = [3.5, 1.25, 8.0, 2.0, 5.5, 4.0, 0.75];
        let b = [12.0, 3.0, 7.5, 7.5, 1.0, 40.0];
        let p = mannwhitneyu_p(&a, &b).unwrap();
        assert!(close(p, MWU_AB_TIES), "{p}");
        // st.mannwhitneyu(a, c).pvalue: no ties, 7 and 5 values: exact
        let c = [12.0, 3.25, 7.5, 9.0, 40.0];
        let p = mannwhitneyu_p(&a, &c).unwrap();
        assert!(close(p, MWU_AC_EXACT), "{p}");
        // st.mannwhitneyu(range(0, 20, 2), [x + 0.5 for x in range(1, 30, 3)]).pvalue:
        // both above 8, asymptotic without ties
        let d: Vec<f64> = (0..10).map(|i| 2.0 * i as f64).collect();
        let e: Vec<f64> = (0..10).map(|i| 1.5 + 3.0 * i as f64).collect();
        let p = mannwhitneyu_p(&d, &e).unwrap();
        assert!(close(p, MWU_DE_ASYMPTOTIC), "{p}");
        assert_eq!(mannwhitneyu_p(&a, &[]), None);
        // Beyond EXACT_MAX pairs, the normal approximation (bounded memory):
        // st.mannwhitneyu([0.5, 1000.5, 2000.5], range(400000), method='asymptotic').pvalue
        let big: Vec<f64> = (0..400_000).map(|i| i as f64).collect();
        let p = mannwhitneyu_p(&[0.5, 1000.5, 2000.5], &big).unwrap();
        assert!(close(p, MWU_BIG_ASYMPTOTIC), "{p}");
    }

    const WELCH_AB: f64 = 0.2193238365441384;
    const MWU_AB_TIES: f64 = 0.22400125178257257;
    const MWU_AC_EXACT: f64 = 0.04797979797979798;
    const MWU_BIG_ASYMPTOTIC: f64 = 0.0028360838510636506;
    const MWU_DE_ASYMPTOTIC: f64 = 0.14046504815835495;
}
