//! `errorband` (a band along x) and `errorbar` from raw rows: the interval
//! is given per row (`y` to `y2`), or computed from the rows at each x with
//! `extent` (Vega-Lite's words):
//!
//! | extent    | centre | interval                                        |
//! |-----------|--------|-------------------------------------------------|
//! | `ci`      | mean   | mean ± t(0.975, n-1)·s/√n (as the numbers' `ci95`) |
//! | `stderr`  | mean   | mean ± s/√n                                     |
//! | `stdev`   | mean   | mean ± s                                        |
//! | `iqr`     | median | first to third quartile (numpy `linear`)        |
//! | `min-max` | mean   | minimum to maximum                              |
//!
//! `s` is the sample standard deviation (ddof = 1); `ci`, `stderr` and
//! `stdev` need two rows at every x (else an error names the x).

use indexmap::IndexMap;

use super::{Input, record};
use crate::error::Result;
use crate::figures::encode::{CsvRecord, LayerCtx, PanelState, Pos, num_text};
use crate::figures::model::*;
use crate::stats;

/// An interval computed from raw values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntervalKind {
    /// 95% Student t interval of the mean.
    Ci,
    /// Mean ± standard error.
    Stderr,
    /// Mean ± sample standard deviation.
    Stdev,
    /// Quartiles around the median.
    Iqr,
    /// Minimum to maximum around the mean.
    MinMax,
}

impl IntervalKind {
    const NAMES: &'static str = "\"ci\", \"stderr\", \"stdev\", \"iqr\" or \"min-max\"";

    fn parse(s: &str) -> Option<IntervalKind> {
        Some(match s {
            "ci" => IntervalKind::Ci,
            "stderr" => IntervalKind::Stderr,
            "stdev" => IntervalKind::Stdev,
            "iqr" => IntervalKind::Iqr,
            "min-max" => IntervalKind::MinMax,
            _ => return None,
        })
    }
}

/// (centre, lower, upper) of `xs` (finite) by `kind`; `None` when the
/// kind needs more values (two for ci, stderr, stdev; one otherwise).
pub fn interval(xs: &[f64], kind: IntervalKind) -> Option<(f64, f64, f64)> {
    let n = xs.len();
    Some(match kind {
        IntervalKind::Ci => {
            let m = stats::mean(xs)?;
            let (lo, hi) = stats::ci_t(xs, 0.95)?;
            (m, lo, hi)
        }
        IntervalKind::Stderr => {
            let (m, s) = (stats::mean(xs)?, stats::std(xs)?);
            let e = s / (n as f64).sqrt();
            (m, m - e, m + e)
        }
        IntervalKind::Stdev => {
            let (m, s) = (stats::mean(xs)?, stats::std(xs)?);
            (m, m - s, m + s)
        }
        IntervalKind::Iqr => (
            stats::quantile(xs, 0.5)?,
            stats::quantile(xs, 0.25)?,
            stats::quantile(xs, 0.75)?,
        ),
        IntervalKind::MinMax => (
            stats::mean(xs)?,
            xs.iter().copied().fold(f64::INFINITY, f64::min),
            xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        ),
    })
}

/// One computed interval at a position: (position, its text, centre,
/// lower, upper, n).
type Computed = (f64, String, f64, f64, f64, usize);

impl LayerCtx<'_, '_> {
    /// The `extent` written on an errorband or errorbar, if any.
    fn interval_kind(&self) -> Result<Option<IntervalKind>> {
        let Some(raw) = &self.layer.extent else {
            return Ok(None);
        };
        let mark = self.layer.mark.get_ref();
        match raw.get_ref() {
            toml::Value::String(s) => IntervalKind::parse(s).map(Some).ok_or_else(|| {
                self.spec.error(
                    raw.span(),
                    format!(
                        "unknown extent `{s}` for an `{mark}` ({})",
                        IntervalKind::NAMES
                    ),
                )
            }),
            _ => Err(self.spec.error(
                raw.span(),
                format!("an `{mark}`'s `extent` is {}", IntervalKind::NAMES),
            )),
        }
    }

    /// The intervals of the values on `val` (name `vn`) of `rows` per
    /// position on `pos` (name `pn`), in first-seen order.
    #[allow(clippy::too_many_arguments)]
    fn intervals(
        &self,
        kind: IntervalKind,
        rows: &[&crate::value::Row],
        pos: &crate::figures::channels::Channel,
        pn: &str,
        val: &crate::figures::channels::Channel,
        vn: &str,
        st: &mut PanelState,
    ) -> Result<Vec<Computed>> {
        let mut at: IndexMap<String, (f64, Vec<f64>)> = IndexMap::new();
        for row in rows {
            let cats = if pn == "y" {
                &mut st.ycats
            } else {
                &mut st.xcats
            };
            let (p, raw) = self.pos(pos, row, pn, cats)?;
            let key = match raw {
                Pos::Num(v) => num_text(v),
                Pos::Cat(s) => s,
            };
            let v = self.number(Some(val), row, vn, 0.0)?;
            at.entry(key).or_insert_with(|| (p, Vec::new())).1.push(v);
        }
        let mut out = Vec::with_capacity(at.len());
        for (key, (p, vals)) in at {
            let Some((c, lo, hi)) = interval(&vals, kind) else {
                let span = self
                    .layer
                    .extent
                    .as_ref()
                    .map_or(self.span.clone(), |r| r.span());
                return Err(self.spec.error(
                    span,
                    format!(
                        "`extent` needs at least 2 rows at each {pn} for a standard deviation; {pn} = {key} has {}",
                        vals.len()
                    ),
                ));
            };
            out.push((p, key, c, lo, hi, vals.len()));
        }
        Ok(out)
    }

    /// Builds an `errorband` layer.
    pub(in crate::figures) fn errorband(
        &self,
        inp: &Input,
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
    ) -> Result<Mark> {
        let missing = |n: &str| self.err(format!("an `errorband` layer needs `{n}`"));
        let xc = inp.ch.x.as_ref().ok_or_else(|| missing("x"))?;
        let yc = inp.ch.y.as_ref().ok_or_else(|| missing("y"))?;
        let kind = self.interval_kind()?;
        match (&kind, &inp.ch.y2) {
            (Some(_), Some(_)) => return Err(self.err("an `errorband` takes its bounds from `y` and `y2`, or computes them with `extent`: not both")),
            (None, None) => return Err(self.err("an `errorband` needs `y2` (a band from `y` to `y2`) or `extent` (computed from the rows at each x: \"ci\", \"stderr\", \"stdev\", \"iqr\" or \"min-max\")")),
            _ => {}
        }
        let groups = self.groups(inp)?;
        let opacity = self.const_opacity(inp, 0.3)?;
        self.numeric_axis(&mut st.ycats, "y")?;
        let width = self.const_width(inp, 1.0)?;
        let stroke = self.const_stroke(inp)?;
        let mut out = Vec::new();
        for g in &groups {
            let mut pts: Vec<(f64, f64, f64)> = Vec::new();
            match kind {
                Some(k) => {
                    for (p, key, c, lo, hi, n) in
                        self.intervals(k, &g.rows, xc, "x", yc, "y", st)?
                    {
                        csv.push(record(
                            inp.base,
                            vec![
                                ("series", g.key.clone()),
                                ("x", key),
                                ("center", num_text(c)),
                                ("lower", num_text(lo)),
                                ("upper", num_text(hi)),
                                ("n", n.to_string()),
                            ],
                        ));
                        pts.push((p, lo, hi));
                    }
                }
                None => {
                    for row in &g.rows {
                        let (p, raw) = self.pos(xc, row, "x", &mut st.xcats)?;
                        let lo = self.number(Some(yc), row, "y", 0.0)?;
                        let hi = self.number(inp.ch.y2.as_ref(), row, "y2", 0.0)?;
                        csv.push(record(
                            inp.base,
                            vec![
                                ("series", g.key.clone()),
                                (
                                    "x",
                                    match raw {
                                        Pos::Num(v) => num_text(v),
                                        Pos::Cat(s) => s,
                                    },
                                ),
                                ("lower", num_text(lo)),
                                ("upper", num_text(hi)),
                            ],
                        ));
                        pts.push((p, lo, hi));
                    }
                }
            }
            for &(p, lo, hi) in &pts {
                st.xext.add(p);
                st.yext.add(lo);
                st.yext.add(hi);
            }
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            out.push(AreaItem {
                points: super::area::band_polygon(&pts),
                style: super::fill(g.color, opacity, stroke, width),
            });
        }
        self.group_legend(inp, &groups, st, |c| {
            Swatch::Patch(super::fill(c, opacity, stroke, width))
        });
        Ok(Mark::Areas(out))
    }

    /// Builds an `errorbar` layer computed from raw rows (`extent` given):
    /// one segment per position and colour from lower to upper.
    pub(in crate::figures) fn errorbar_from_rows(
        &self,
        inp: &Input,
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
    ) -> Result<Mark> {
        let kind = self
            .interval_kind()?
            .ok_or_else(|| self.err("an `errorbar` computed from its rows needs `extent`"))?;
        let h = inp.horizontal;
        let (pn, vn) = if h { ("y", "x") } else { ("x", "y") };
        let (pc, vc, v2) = if h {
            (&inp.ch.y, &inp.ch.x, &inp.ch.x2)
        } else {
            (&inp.ch.x, &inp.ch.y, &inp.ch.y2)
        };
        if v2.is_some() {
            return Err(self.err(format!("an `errorbar` takes its bounds from `{vn}` and `{vn}2`, or computes them from the rows' `{vn}` with `extent`: not both")));
        }
        let missing = |n: &str| self.err(format!("an `errorbar` layer needs `{n}`"));
        let pc = pc.as_ref().ok_or_else(|| missing(pn))?;
        let vc = vc.as_ref().ok_or_else(|| missing(vn))?;
        self.numeric_axis(if h { &mut st.xcats } else { &mut st.ycats }, vn)?;
        let groups = self.groups(inp)?;
        let width = self.const_width(inp, 1.0)?;
        let mut items = Vec::new();
        for g in &groups {
            // Black without `color`, as the given-bounds errorbar.
            let style = Style {
                fill: None,
                stroke: if inp.ch.color.is_none() {
                    Some(crate::color::Color::BLACK)
                } else {
                    g.color
                },
                stroke_width: width,
                dash: inp.dash,
            };
            for (p, key, c, lo, hi, n) in self.intervals(kind, &g.rows, pc, pn, vc, vn, st)? {
                let (pe, ve) = if h {
                    (&mut st.yext, &mut st.xext)
                } else {
                    (&mut st.xext, &mut st.yext)
                };
                pe.add(p);
                ve.add(lo);
                ve.add(hi);
                csv.push(record(
                    inp.base,
                    vec![
                        ("series", g.key.clone()),
                        (pn, key),
                        ("center", num_text(c)),
                        ("lower", num_text(lo)),
                        ("upper", num_text(hi)),
                        ("n", n.to_string()),
                    ],
                ));
                let (from, to) = if h {
                    ((lo, p), (hi, p))
                } else {
                    ((p, lo), (p, hi))
                };
                items.push(Segment {
                    from,
                    to,
                    style: style.clone(),
                });
            }
        }
        Ok(Mark::Segments(items))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_of_one_to_five() {
        let xs = [1.0, 2.0, 3.0, 4.0, 5.0];
        let s = 2.5f64.sqrt();
        assert_eq!(
            interval(&xs, IntervalKind::Stdev),
            Some((3.0, 3.0 - s, 3.0 + s))
        );
        let e = s / 5f64.sqrt();
        assert_eq!(
            interval(&xs, IntervalKind::Stderr),
            Some((3.0, 3.0 - e, 3.0 + e))
        );
        assert_eq!(interval(&xs, IntervalKind::Iqr), Some((3.0, 2.0, 4.0)));
        assert_eq!(interval(&xs, IntervalKind::MinMax), Some((3.0, 1.0, 5.0)));
        // t(0.975, 4) = 2.7764451051977987.
        let (m, lo, hi) = interval(&xs, IntervalKind::Ci).unwrap();
        assert_eq!(m, 3.0);
        assert!(
            (hi - (3.0 + 2.7764451051977987 * e)).abs() < 1e-12
                && (m - lo - (hi - m)).abs() < 1e-12
        );
        assert_eq!(interval(&[1.0], IntervalKind::Ci), None);
        assert_eq!(interval(&[1.0], IntervalKind::Iqr), Some((1.0, 1.0, 1.0)));
    }
}
