//! The Pareto front of a table's rows on two axes.

/// Which points of `pts` (any number of axes, the same for all; larger is
/// better) no other point dominates: the sweep of [`front_2d`] for two axes,
/// every pair otherwise (a paper's fronts have two).
pub fn front(pts: &[Vec<f64>]) -> Vec<bool> {
    if pts.first().is_some_and(|p| p.len() == 2) {
        return front_2d(pts);
    }
    let dominated = |i: usize| {
        pts.iter().enumerate().any(|(j, q)| {
            j != i
                && q.iter().zip(&pts[i]).all(|(a, b)| a >= b)
                && q.iter().zip(&pts[i]).any(|(a, b)| a > b)
        })
    };
    (0..pts.len()).map(|i| !dominated(i)).collect()
}

/// Which points of `pts` (two axes each, larger is better) no other point
/// dominates (at least as good on both axes, better on one): sorted by the
/// first axis, then one sweep, O(n log n) (the pairwise test took 17 s for
/// 20,000 points all on the front).
pub fn front_2d(pts: &[Vec<f64>]) -> Vec<bool> {
    let mut order: Vec<usize> = (0..pts.len()).collect();
    order.sort_by(|&i, &j| {
        pts[j][0]
            .total_cmp(&pts[i][0])
            .then(pts[j][1].total_cmp(&pts[i][1]))
    });
    let mut on = vec![false; pts.len()];
    // The best second axis among points strictly ahead on the first.
    let mut best_ahead = f64::NEG_INFINITY;
    let mut g = 0;
    while g < order.len() {
        let a = pts[order[g]][0];
        let top = pts[order[g]][1];
        let mut end = g;
        while end < order.len() && pts[order[end]][0] == a {
            let b = pts[order[end]][1];
            on[order[end]] = b == top && b > best_ahead;
            end += 1;
        }
        best_ahead = best_ahead.max(top);
        g = end;
    }
    on
}

#[cfg(test)]
mod tests {
    use super::front_2d;

    #[test]
    fn the_2d_sweep_marks_the_same_front_as_every_pair() {
        // Small integer coordinates: many ties on either axis, and repeats.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % 7) as f64 - 3.0
        };
        for n in [0, 1, 2, 5, 30, 200] {
            let pts: Vec<Vec<f64>> = (0..n).map(|_| vec![next(), next()]).collect();
            let pairwise: Vec<bool> = (0..n)
                .map(|i| {
                    !pts.iter().enumerate().any(|(j, q)| {
                        j != i
                            && q.iter().zip(&pts[i]).all(|(a, b)| a >= b)
                            && q.iter().zip(&pts[i]).any(|(a, b)| a > b)
                    })
                })
                .collect();
            assert_eq!(front_2d(&pts), pairwise, "{pts:?}");
        }
    }
}
