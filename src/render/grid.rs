//! The tracks (columns or rows) of a panel grid: every plot area gets the
//! same size, and each track is as wide as its plot plus the margins its
//! panels need (the widest in the track), so a column whose tick labels
//! are hidden takes no room for them (matplotlib's constrained layout).

/// One column (or row) of the grid, in points along its axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Track {
    /// Start of the cell (its leading margin begins here).
    pub cell0: f64,
    /// Start of the plot area.
    pub plot0: f64,
    /// End of the plot area.
    pub plot1: f64,
    /// End of the cell (after its trailing margin).
    pub cell1: f64,
}

/// The smallest plot extent (points) a track is given, even when its
/// margins leave less: the layout then notes the cramped panel.
pub const MIN_EXTENT: f64 = 1.0;

/// Tracks from `start` over `total` points, `gap` apart: track `i` keeps
/// `lead[i]` before its plot and `trail[i]` after it; the rest is shared
/// equally between the plots.
pub fn tracks(lead: &[f64], trail: &[f64], start: f64, total: f64, gap: f64) -> Vec<Track> {
    let k = lead.len().max(1);
    let fixed: f64 = lead.iter().sum::<f64>() + trail.iter().sum::<f64>() + gap * (k as f64 - 1.0);
    let plot = ((total - fixed) / k as f64).max(MIN_EXTENT);
    let mut x = start;
    lead.iter()
        .zip(trail)
        .map(|(l, t)| {
            let tr = Track {
                cell0: x,
                plot0: x + l,
                plot1: x + l + plot,
                cell1: x + l + plot + t,
            };
            x = tr.cell1 + gap;
            tr
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plots_share_what_the_margins_leave() {
        // 300 pt, 2 columns 10 apart: the first keeps 40 for its labels.
        let t = tracks(&[40.0, 5.0], &[3.0, 3.0], 6.0, 300.0, 10.0);
        assert_eq!(t[0].plot1 - t[0].plot0, t[1].plot1 - t[1].plot0);
        assert_eq!(t[0].plot1 - t[0].plot0, (300.0 - 51.0 - 10.0) / 2.0);
        assert_eq!(t[1].cell1, 306.0);
    }
}
