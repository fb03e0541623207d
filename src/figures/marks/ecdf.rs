//! `ecdf`: the empirical CDF of `x` per series, as a step line.
//!
//! F(x) is the fraction of values <= x. The steps start at (min, 0) and
//! rise at each distinct value to F there, ending at (max, 1), as
//! matplotlib's `ecdf` draws them. `complementary = true` draws 1 - F
//! (the fraction of values above x): from (min, 1) down to (max, 1 - F
//! just below max); the last drop to 0 is left out, so the tail plots of
//! systems papers work on a log y axis.

use super::{Input, record};
use crate::error::Result;
use crate::figures::encode::{CsvRecord, LayerCtx, PanelState, num_text};
use crate::figures::model::*;

/// The step vertices of the ECDF of `xs` (finite), or of 1 - F when
/// `complementary` (without the final vertex at 0).
pub fn ecdf_steps(xs: &[f64], complementary: bool) -> Vec<(f64, f64)> {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len() as f64;
    // 1 - F as the count above over n: exact where 1.0 - F would round
    // (the tail, read on a log axis).
    let f = |count: usize| {
        if complementary {
            (v.len() - count) as f64 / n
        } else {
            count as f64 / n
        }
    };
    let mut out = Vec::with_capacity(2 * v.len() + 1);
    let Some(&first) = v.first() else {
        return out;
    };
    out.push((first, f(0)));
    let mut i = 0;
    while i < v.len() {
        let x = v[i];
        let mut j = i;
        while j < v.len() && v[j] == x {
            j += 1;
        }
        // Rise (or fall) at x from F(x-) to F(x), then run to the next value.
        if i > 0 {
            out.push((x, f(i)));
        }
        if !(complementary && j == v.len()) {
            out.push((x, f(j)));
        }
        i = j;
    }
    out
}

impl LayerCtx<'_, '_> {
    /// Builds an `ecdf` layer: one step line per series.
    pub(in crate::figures) fn ecdf(
        &self,
        inp: &Input,
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
    ) -> Result<Mark> {
        let xc = inp
            .ch
            .x
            .as_ref()
            .ok_or_else(|| self.err("an `ecdf` layer needs `x` (the values)"))?;
        let complementary = self.layer.complementary.unwrap_or(false);
        self.numeric_axis(&mut st.xcats, "x")?;
        self.numeric_axis(&mut st.ycats, "y")?;
        let groups = self.groups(inp)?;
        let opacity = self.const_opacity(inp, 1.0)?;
        let width = self.const_width(inp, 1.5)?;
        let style_of = |c: Option<crate::color::Color>| Style {
            fill: None,
            stroke: c.map(|c| c.with_alpha(opacity)),
            stroke_width: width,
            dash: inp.dash,
        };
        let mut out = Vec::new();
        for g in &groups {
            let xs = self.values(xc, &g.rows, "x")?;
            let pts = ecdf_steps(&xs, complementary);
            for &(x, y) in &pts {
                st.xext.add(x);
                st.yext.add(y);
                csv.push(record(
                    inp.base,
                    vec![
                        ("series", g.key.clone()),
                        ("x", num_text(x)),
                        ("y", num_text(y)),
                    ],
                ));
            }
            out.push(Series {
                points: pts,
                style: style_of(g.color),
                marker: None,
                label: (!g.key.is_empty()).then(|| g.key.clone()),
            });
        }
        // The CDF's bounds stop the axis margin, as matplotlib's sticky edges.
        if !complementary {
            st.yext.sticky.push(0.0);
        }
        st.yext.sticky.push(1.0);
        self.group_legend(inp, &groups, st, |c| Swatch::Line(style_of(c), None));
        Ok(Mark::Lines(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_rise_in_one_step_and_the_ccdf_stops_before_zero() {
        let xs = [2.0, 1.0, 2.0, 3.0];
        assert_eq!(
            ecdf_steps(&xs, false),
            [
                (1.0, 0.0),
                (1.0, 0.25),
                (2.0, 0.25),
                (2.0, 0.75),
                (3.0, 0.75),
                (3.0, 1.0)
            ]
        );
        assert_eq!(
            ecdf_steps(&xs, true),
            [
                (1.0, 1.0),
                (1.0, 0.75),
                (2.0, 0.75),
                (2.0, 0.25),
                (3.0, 0.25)
            ]
        );
        assert!(ecdf_steps(&[], true).is_empty());
    }
}
