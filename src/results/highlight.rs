//! Which cells of a results table are bold: the best value (`max` or
//! `min`) of each highlighted column over the whole table, within each
//! group, or across the highlighted columns of each row.
//!
//! Values are compared at full precision (not as printed); every value
//! equal to the best is bold (ties); empty cells (null or missing) and
//! NaN are never the best.

pub use crate::plan::results::{Best, Per};

/// The bold flags of `values` (rows × highlighted columns; `None` for an
/// empty cell), with `group[r]` the group of row `r` and `best[c]` the
/// rule of column `c`. With [`Per::Row`], every column's `best` must be
/// the same (the caller checks; the first is used).
pub fn bold(
    values: &[Vec<Option<f64>>],
    group: &[usize],
    best: &[Best],
    per: Per,
) -> Vec<Vec<bool>> {
    let columns = best.len();
    let mut out = vec![vec![false; columns]; values.len()];
    // The candidate sets: lists of (row, column) compared together.
    let mut sets: Vec<Vec<(usize, usize)>> = Vec::new();
    match per {
        Per::Row => {
            for r in 0..values.len() {
                sets.push((0..columns).map(|c| (r, c)).collect());
            }
        }
        Per::Column | Per::Group => {
            let groups = if per == Per::Group {
                group.iter().copied().max().map_or(0, |g| g + 1)
            } else {
                1
            };
            for c in 0..columns {
                for g in 0..groups {
                    sets.push(
                        (0..values.len())
                            .filter(|r| per == Per::Column || group[*r] == g)
                            .map(|r| (r, c))
                            .collect(),
                    );
                }
            }
        }
    }
    for set in sets {
        let Some(&(_, c0)) = set.first() else {
            continue;
        };
        let rule = best[c0];
        let pick = |a: f64, b: f64| match rule {
            Best::Max => a.max(b),
            Best::Min => a.min(b),
        };
        let top = set
            .iter()
            .filter_map(|&(r, c)| values[r][c].filter(|x| !x.is_nan()))
            .reduce(pick);
        if let Some(top) = top {
            for &(r, c) in &set {
                if values[r][c] == Some(top) {
                    out[r][c] = true;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(v: &[Option<f64>]) -> Vec<Vec<Option<f64>>> {
        v.iter().map(|x| vec![*x]).collect()
    }

    #[test]
    fn ties_are_all_bold() {
        let b = bold(
            &col(&[Some(2.0), Some(3.0), Some(3.0)]),
            &[0, 0, 0],
            &[Best::Max],
            Per::Column,
        );
        assert_eq!(b, vec![vec![false], vec![true], vec![true]]);
    }

    #[test]
    fn min_skips_empty_cells_and_nan() {
        let b = bold(
            &col(&[None, Some(f64::NAN), Some(-1.0), Some(0.5)]),
            &[0; 4],
            &[Best::Min],
            Per::Column,
        );
        assert_eq!(b, vec![vec![false], vec![false], vec![true], vec![false]]);
    }

    #[test]
    fn full_precision_decides_not_the_printed_text() {
        // 0.8751 and 0.8749 both print 0.88 with places = 2.
        let b = bold(
            &col(&[Some(0.8749), Some(0.8751)]),
            &[0, 0],
            &[Best::Max],
            Per::Column,
        );
        assert_eq!(b, vec![vec![false], vec![true]]);
    }

    #[test]
    fn per_group_picks_one_best_per_group() {
        let v = col(&[Some(1.0), Some(2.0), Some(5.0), Some(4.0)]);
        let b = bold(&v, &[0, 0, 1, 1], &[Best::Max], Per::Group);
        assert_eq!(b, vec![vec![false], vec![true], vec![true], vec![false]]);
        let b = bold(&v, &[0, 0, 1, 1], &[Best::Max], Per::Column);
        assert_eq!(b, vec![vec![false], vec![false], vec![true], vec![false]]);
    }

    #[test]
    fn per_row_compares_the_highlighted_columns_of_a_row() {
        let v = vec![
            vec![Some(1.0), Some(3.0), Some(2.0)],
            vec![Some(7.0), None, Some(7.0)],
        ];
        let b = bold(&v, &[0, 0], &[Best::Min; 3], Per::Row);
        assert_eq!(b, vec![vec![true, false, false], vec![true, false, true]]);
    }

    #[test]
    fn columns_keep_their_own_rule() {
        let v = vec![vec![Some(1.0), Some(1.0)], vec![Some(2.0), Some(2.0)]];
        let b = bold(&v, &[0, 0], &[Best::Max, Best::Min], Per::Column);
        assert_eq!(b, vec![vec![false, true], vec![true, false]]);
    }
}
