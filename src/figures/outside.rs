//! Rows outside a fixed axis `domain`: a value outside the axis is not
//! drawn (the plot area clips it), so each layer's such rows are counted
//! and reported in one note, never dropped silently.

use super::channels::Chan;
use super::encode::{LayerCtx, PanelState};
use super::model::Axis;
use crate::error::Result;
use crate::spec::PanelSpec;
use crate::value::{Row, as_number};

/// One layer's per-row positions on the axes whose `domain` is fixed
/// (`None` for an axis without one, or without an `x`/`y` field).
#[derive(Debug, Default)]
pub struct Positions {
    /// The layer's index in its panel and its mark.
    pub layer: (usize, String),
    /// How many rows the layer has.
    pub rows: usize,
    /// Each row's x and y, in data units (`NaN`: not a number there).
    pub xy: [Option<Vec<f64>>; 2],
}

/// Records in `st` the positions of `rows` on the axes of panel `ps`
/// with a fixed domain, for [`notes`] once the domains are known.
pub(super) fn record(
    ctx: &LayerCtx,
    ps: &PanelSpec,
    rows: &[Row],
    st: &mut PanelState,
) -> Result<()> {
    let fixed = (ps.x.domain.is_some(), ps.y.domain.is_some());
    if !(fixed.0 || fixed.1) || rows.is_empty() {
        return Ok(());
    }
    let p = &ctx.plan.chans;
    let mut xy: [Option<Vec<f64>>; 2] = [None, None];
    for (slot, (on, chan)) in xy.iter_mut().zip([(fixed.0, &p.x), (fixed.1, &p.y)]) {
        // Only a field or expression varies by row: a constant is one value.
        let Some(Chan::Expr(e)) = chan.as_ref().filter(|_| on) else {
            continue;
        };
        let mut vals = Vec::with_capacity(rows.len());
        for row in rows {
            let v = e.eval_row(ctx.globals, row)?;
            vals.push(as_number(&v).unwrap_or(f64::NAN));
        }
        *slot = Some(vals);
    }
    if xy.iter().any(Option::is_some) {
        st.outside.push(Positions {
            layer: (ctx.index.1, ctx.layer.mark.get_ref().clone()),
            rows: rows.len(),
            xy,
        });
    }
    Ok(())
}

/// A note per layer of `recorded` with rows outside the domain of `x` or
/// `y` (the axes as resolved), naming the layer (and `panel`, 1-based,
/// when the figure has several), the count and each axis's domain.
pub(super) fn notes(recorded: &[Positions], axes: [&Axis; 2], panel: Option<usize>) -> Vec<String> {
    let mut out = Vec::new();
    for p in recorded {
        let mut any = vec![false; p.rows];
        let mut parts = Vec::new();
        for (name, axis, vals) in [("x", axes[0], &p.xy[0]), ("y", axes[1], &p.xy[1])] {
            let Some(vals) = vals else { continue };
            let (lo, hi) = axis.domain;
            // A little slack: a value printed as the domain's end is inside.
            let eps = 1e-9 * (hi - lo).abs();
            let mut n = 0;
            for (i, v) in vals.iter().enumerate() {
                if v.is_finite() && (*v < lo - eps || *v > hi + eps) {
                    n += 1;
                    any[i] = true;
                }
            }
            if n > 0 {
                parts.push((
                    name,
                    format!("[{}, {}]", super::short(lo), super::short(hi)),
                    n,
                ));
            }
        }
        let total = any.iter().filter(|a| **a).count();
        if total == 0 {
            continue;
        }
        let rows = |n: usize| if n == 1 { "row" } else { "rows" };
        let what = match parts.as_slice() {
            [(name, dom, _)] => format!("{name} outside the axis's domain {dom}"),
            _ => {
                let each: Vec<String> = parts
                    .iter()
                    .map(|(name, dom, n)| format!("{name} {dom}: {n} {}", rows(*n)))
                    .collect();
                format!("x or y outside the axes' domains ({})", each.join(", "))
            }
        };
        let at = panel.map_or(String::new(), |i| format!("panel {i}, "));
        out.push(format!(
            "{at}layer {} ({}): {total} of {} {} {} {what} and {} not drawn",
            p.layer.0 + 1,
            p.layer.1,
            p.rows,
            rows(p.rows),
            if total == 1 { "has" } else { "have" },
            if total == 1 { "is" } else { "are" },
        ));
    }
    out
}
