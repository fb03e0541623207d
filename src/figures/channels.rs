//! Encoding channels at run time: a layer's channels as the plan compiled
//! them ([`crate::plan::channels`]), evaluated on rows, with what their
//! scales learn from the data (the keys seen, a fitted domain).

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use super::colorscale::{self, Continuous};
use crate::error::Result;
use crate::expr::{Expr, Globals};
pub use crate::plan::channels::{Chan, Kind};
use crate::value::{Row, Value};

/// A compiled channel and the state of its scale while one layer is built.
#[derive(Debug)]
pub struct Channel<'p, 's> {
    /// The channel as compiled.
    pub plan: &'p Chan<'s>,
    /// A categorical scale's keys: the ones written, then the ones seen.
    domain: RefCell<Vec<String>>,
    /// Keys seen so far (for legend entries).
    seen: RefCell<Vec<String>>,
    /// A quantitative scale's domain in use: the fixed one, or the data's
    /// range once [`Channel::fit`] has seen the rows.
    fitted: Cell<Option<(f64, f64)>>,
    /// A categorical colour scale's colours by domain index, when the
    /// paper assigns them ([`Channel::shared`]); else `range`, cycled.
    colours: Vec<String>,
}

/// A quantitative colour scale as [`Channel::continuous`] shows it: the
/// scale, the domain in use (`None` before any row was seen) and the
/// colour bar's title.
pub type ContinuousView<'c> = (&'c Continuous, Option<(f64, f64)>, String);

impl<'s> std::ops::Deref for Channel<'_, 's> {
    type Target = Chan<'s>;
    fn deref(&self) -> &Chan<'s> {
        self.plan
    }
}

impl<'p, 's> Channel<'p, 's> {
    /// The channel `plan` with nothing seen yet.
    pub fn new(plan: &'p Chan<'s>) -> Self {
        let (domain, fitted) = match plan {
            Chan::Scale { domain, .. } => (domain.clone(), None),
            Chan::Continuous { scale, .. } => (Vec::new(), scale.fixed),
            _ => (Vec::new(), None),
        };
        Channel {
            plan,
            domain: RefCell::new(domain),
            seen: RefCell::new(Vec::new()),
            fitted: Cell::new(fitted),
            colours: Vec::new(),
        }
    }

    /// The channel `plan` whose keys take the paper's colours: `shared`
    /// holds every value of its field up to this figure's last, in the
    /// paper's order, with its colour (see [`crate::plan::palette`]).
    pub fn shared(plan: &'p Chan<'s>, shared: &indexmap::IndexMap<String, String>) -> Self {
        let mut c = Channel::seeded(plan, shared.keys());
        if let Chan::Scale { .. } = plan {
            c.colours = c
                .domain
                .borrow()
                .iter()
                .map(|k| shared.get(k).cloned().unwrap_or_default())
                .collect();
        }
        c
    }

    /// The channel `plan` whose scale's domain starts with `keys` (the
    /// paper's values of its field, in order): a key's output is then the
    /// one of its place in the paper.
    pub fn seeded<'k>(plan: &'p Chan<'s>, keys: impl Iterator<Item = &'k String>) -> Self {
        let c = Channel::new(plan);
        if let Chan::Scale { .. } = plan {
            let mut d = c.domain.borrow_mut();
            let mut known: std::collections::HashSet<String> = d.iter().cloned().collect();
            for k in keys {
                if known.insert(k.clone()) {
                    d.push(k.clone());
                }
            }
        }
        c
    }

    /// The output of the key at domain index `i`: the paper's colour, or
    /// the range's `i`-th, cycled.
    fn output_at(&self, range: &[String], i: usize) -> String {
        match self.colours.get(i).filter(|c| !c.is_empty()) {
            Some(c) => c.clone(),
            None => range[i % range.len()].clone(),
        }
    }

    /// The categorical scale's keys so far (written, then seen).
    pub fn domain(&self) -> std::cell::Ref<'_, Vec<String>> {
        self.domain.borrow()
    }

    /// The channel's value `v` for `row` as a finite number (`field`
    /// names the channel in messages).
    pub fn number(&self, row: &Row, v: &Value, field: &str) -> Result<f64> {
        match self.plan {
            Chan::Expr(e) => e.number(row, v),
            _ => crate::tables::aggregate::finite_number(row, field, v),
        }
    }

    /// The channel's value for `row`.
    pub fn eval(&self, globals: &Arc<Globals>, row: &Row) -> Result<Value> {
        match self.plan {
            Chan::Const(v) => Ok(v.clone()),
            Chan::Expr(e) => e.eval_row(globals, row),
            Chan::Scale { expr, range, .. } => {
                let key = expr.eval_row(globals, row)?;
                no_value_is_no_group(row, expr.text, &key, "colour")?;
                let key = key
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| key.to_string());
                // A key becomes a legend entry's text.
                super::encode::check_row_label(row, expr.text, &key)?;
                let mut d = self.domain.borrow_mut();
                let i = match d.iter().position(|k| *k == key) {
                    Some(i) => i,
                    None => {
                        d.push(key.clone());
                        d.len() - 1
                    }
                };
                let mut s = self.seen.borrow_mut();
                if !s.contains(&key) {
                    s.push(key);
                }
                Ok(Value::from(self.output_at(range, i)))
            }
            Chan::Continuous { expr, scale, .. } => {
                let x = continuous_number(globals, expr, scale, row)?;
                let d = self.fitted.get().ok_or_else(|| {
                    crate::error::Error::msg(format!(
                        "a quantitative colour scale over `{}` is not available on this mark; colour it by a categorical field",
                        expr.text
                    ))
                })?;
                Ok(Value::from(scale.color(d, x).hex()))
            }
        }
    }

    /// A quantitative colour scale without a fixed domain takes the range
    /// of its values over `rows` (every value must be a finite number).
    pub fn fit(&self, globals: &Arc<Globals>, rows: &[Row]) -> Result<()> {
        if let Chan::Continuous { expr, scale, .. } = self.plan {
            if scale.fixed.is_some() {
                return Ok(());
            }
            let mut lo_hi: Option<(f64, f64)> = None;
            for row in rows {
                let x = continuous_number(globals, expr, scale, row)?;
                lo_hi = Some(lo_hi.map_or((x, x), |(a, b)| (a.min(x), b.max(x))));
            }
            self.fitted.set(lo_hi);
        }
        Ok(())
    }

    /// A quantitative colour scale: its scale, the domain in use and the
    /// colour bar's title.
    pub fn continuous(&self) -> Option<ContinuousView<'_>> {
        match self.plan {
            Chan::Continuous { expr, scale, title } => Some((
                scale,
                self.fitted.get(),
                title.clone().unwrap_or_else(|| expr.text.to_string()),
            )),
            _ => None,
        }
    }

    /// The hatch pattern of a hatched scale's key (the `greys` scheme).
    pub fn hatch_of(&self, key: &str) -> Option<char> {
        match self.plan {
            Chan::Scale { hatch: true, .. } => self
                .domain
                .borrow()
                .iter()
                .position(|k| k == key)
                .map(|i| colorscale::HATCHES[i % colorscale::HATCHES.len()]),
            _ => None,
        }
    }

    /// The hatch pattern for `row` under a hatched scale, else `None`.
    pub fn hatch(&self, globals: &Arc<Globals>, row: &Row) -> Result<Option<char>> {
        match self.plan {
            Chan::Scale {
                expr, hatch: true, ..
            } => {
                let key = expr.eval_row(globals, row)?;
                let key = key
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| key.to_string());
                Ok(self.hatch_of(&key))
            }
            _ => Ok(None),
        }
    }

    /// For a scale: puts the keys of `rows` into the domain in first-seen
    /// order, without showing them in the legend (see
    /// [`super::encode::LayerCtx::scale_rows`]).
    pub fn seed(&self, globals: &Arc<Globals>, rows: &[Row]) -> Result<()> {
        if let Chan::Scale { expr, .. } = self.plan {
            let mut d = self.domain.borrow_mut();
            let mut known: std::collections::HashSet<String> = d.iter().cloned().collect();
            for row in rows {
                let key = expr.eval_row(globals, row)?;
                let key = key
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| key.to_string());
                if known.insert(key.clone()) {
                    d.push(key);
                }
            }
        }
        Ok(())
    }

    /// For a scale: the keys seen, in domain order, with their outputs.
    pub fn legend_keys(&self) -> Vec<(String, String)> {
        match self.plan {
            Chan::Scale { range, .. } => {
                let seen = self.seen.borrow();
                self.domain
                    .borrow()
                    .iter()
                    .enumerate()
                    .filter(|(_, k)| seen.contains(k))
                    .map(|(i, k)| (k.clone(), self.output_at(range, i)))
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// The scale's output for a key already seen.
    pub fn output_for(&self, key: &str) -> Option<String> {
        match self.plan {
            Chan::Scale { range, .. } => self
                .domain
                .borrow()
                .iter()
                .position(|k| k == key)
                .map(|i| self.output_at(range, i)),
            _ => None,
        }
    }
}

/// The number a quantitative colour scale maps for `row`: text is an
/// error naming the scale's scheme (a continuous scheme fed categories).
fn continuous_number(
    globals: &Arc<Globals>,
    expr: &Expr,
    scale: &Continuous,
    row: &Row,
) -> Result<f64> {
    let v = expr.eval_row(globals, row)?;
    if let Some(s) = v.as_str() {
        return Err(crate::tables::aggregate::field_error(
            row,
            expr.text,
            format!(
                "`{}` is \"{}\": a quantitative colour scale ({}) needs numbers; colour categories with a categorical scheme (tab10, okabe-ito, greys)",
                expr.text,
                crate::error::shown(s),
                scale.scheme
            ),
        ));
    }
    expr.number(row, &v)
}

/// A group key (a colour or offset category) that is null, missing or
/// empty would become a group named "None" or a blank legend entry; it is
/// an error naming the row and the field, as a facet's is.
pub(super) fn no_value_is_no_group(row: &Row, field: &str, v: &Value, what: &str) -> Result<()> {
    if v.is_none() || v.is_undefined() || v.as_str() == Some("") {
        return Err(crate::tables::aggregate::field_error(
            row,
            field,
            format!(
                "`{field}` gives no value (null or empty) for this row, so it has no {what} group; filter such rows out with the layer's `where`"
            ),
        ));
    }
    Ok(())
}
