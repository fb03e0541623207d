//! `bin` steps, compiled (run by `tables::bin`).

use crate::error::Result;
use crate::spec::{LoadedSpec, StepSpec};

/// Most bins a `bin` step makes.
pub const MAX_BINS: usize = 100_000;

/// How the bins are laid out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Layout {
    /// This many equal bins over the extent.
    Count(usize),
    /// Bins of this width.
    Width(f64),
}

/// A compiled `bin` step.
#[derive(Debug)]
pub struct Bin {
    /// The numeric field binned.
    pub field: String,
    /// The output field of the bin's start (its end: this + `_end`).
    pub as_: String,
    /// Bins by count or width.
    pub layout: Layout,
    /// The range binned (`None`: the values' min and max).
    pub extent: Option<(f64, f64)>,
}

/// Compiles a `bin` step (`s.bin` is present).
pub fn compile(spec: &LoadedSpec, s: &StepSpec) -> Result<Bin> {
    let field = s.bin.as_ref().expect("verb").get_ref().clone();
    let layout = match (&s.bins, &s.step) {
        (_, Some(w)) => {
            let x = *w.get_ref();
            if !(x.is_finite() && x > 0.0) {
                return Err(spec.error(w.span(), "`step` is a bin width above 0"));
            }
            Layout::Width(x)
        }
        (Some(n), None) => {
            let k = *n.get_ref();
            if !(1..=MAX_BINS as i64).contains(&k) {
                return Err(spec.error(n.span(), format!("`bins` is 1 to {MAX_BINS}")));
            }
            Layout::Count(k as usize)
        }
        (None, None) => Layout::Count(10),
    };
    let extent = match &s.extent {
        None => None,
        Some(e) => match e.get_ref().as_slice() {
            &[lo, hi] if lo.is_finite() && hi.is_finite() && lo < hi => Some((lo, hi)),
            _ => {
                return Err(spec.error(
                    e.span(),
                    "`extent` is [start, end], two finite numbers, start below end",
                ));
            }
        },
    };
    Ok(Bin {
        as_: s.as_.clone().unwrap_or_else(|| format!("bin_{field}")),
        field,
        layout,
        extent,
    })
}
