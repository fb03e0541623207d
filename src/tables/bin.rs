//! The `bin` step (Vega-Lite's name, numpy's edges): each row gets the
//! start and end of the equal-width bin its value falls in.
//!
//! With `bins = N` (default 10) the edges are `np.histogram_bin_edges(x,
//! bins=N, range=extent)`: N equal bins over `extent` (default the values'
//! min and max; equal min and max widen by 0.5 each side, as numpy), every
//! bin half-open but the last, which is closed. With `step = w` the edges
//! are `start + k·w` (start: `extent`'s, or the largest multiple of `w` not
//! above the smallest value), as many as reach the end, the last bin closed
//! too. A value outside `extent` gets null bin fields. Without `extent` the
//! step holds every row (the range is known only after the last). Edges
//! that are not finite or not strictly increasing are an error naming the
//! step and the range (numpy: "Too many bins for data range").

use super::aggregate::finite_number;
use crate::error::{Error, Result};
use crate::plan::bin::{Bin, Layout, MAX_BINS};
use crate::stats::{bin_index, linspace};
use crate::value::{Row, Value};

/// Applies a `bin` step.
pub fn apply(b: &Bin, rows: Vec<Row>) -> Result<Vec<Row>> {
    let xs: Vec<f64> = rows
        .iter()
        .map(|r| {
            let v = r.get(&b.field).cloned().unwrap_or(Value::UNDEFINED);
            finite_number(r, &b.field, &v).map_err(|e| e.context("bin"))
        })
        .collect::<Result<_>>()?;
    if xs.is_empty() {
        return Ok(rows);
    }
    let (min, max) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, z), &x| {
            (a.min(x), z.max(x))
        });
    let range: (f64, f64);
    let edges = match b.layout {
        Layout::Count(n) => {
            let (mut lo, mut hi) = b.extent.unwrap_or((min, max));
            if lo == hi {
                lo -= 0.5;
                hi += 0.5;
            }
            range = (lo, hi);
            linspace(lo, hi, n + 1)
        }
        Layout::Width(w) => {
            let (lo, hi) = b.extent.unwrap_or(((min / w).floor() * w, max));
            range = (lo, hi);
            let n = ((hi - lo) / w).ceil().max(1.0);
            if n > MAX_BINS as f64 {
                return Err(Error::msg(format!(
                    "bin: `step = {w}` over [{lo}, {hi}] makes {n} bins, more than {MAX_BINS}"
                )));
            }
            (0..=n as usize).map(|k| lo + k as f64 * w).collect()
        }
    };
    // Edges that overflow (a range wider than the largest float) or that
    // fail to grow (bins narrower than the floats there) would put every
    // value in no bin or in an empty one: numpy raises too.
    let bad = edges.iter().any(|e| !e.is_finite()) || edges.windows(2).any(|w| w[0] >= w[1]);
    if bad {
        let (lo, hi) = range;
        let bins = edges.len() - 1;
        return Err(Error::msg(format!(
            "bin `{}`: {bins} bins over [{lo:e}, {hi:e}] give edges that are not finite or not strictly increasing; give `extent` or scale the field",
            b.field
        )));
    }
    let end = format!("{}_end", b.as_);
    rows.into_iter()
        .zip(xs)
        .map(|(r, x)| {
            for name in [&b.as_, &end] {
                if r.get(name).is_some() {
                    return Err(super::window::overwrite_error(&r, "bin", name));
                }
            }
            let inside = b.extent.is_none_or(|(lo, hi)| (lo..=hi).contains(&x));
            let (start, stop) = match bin_index(x, &edges).filter(|_| inside) {
                Some(i) => (Value::from(edges[i]), Value::from(edges[i + 1])),
                None => (Value::from(()), Value::from(())),
            };
            Ok(r.with(&b.as_, start).with(&end, stop))
        })
        .collect()
}
