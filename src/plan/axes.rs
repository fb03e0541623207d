//! A panel's axes, compiled: titles, tick formats, the expressions of a
//! `domain` and of a ticks table. Their errors are the figure's, reported
//! where the figure is built (see [`Later`]): only the build compiled them
//! before the plan did.

use super::Later;
use crate::expr::{Expr, Template};
use crate::format::tick::TickFormat;
use crate::spec::{AxisSpec, LoadedSpec, Raw};

/// A setting written as a number or an expression (a `size` in inches,
/// an end of a `domain`): the expression, compiled, when it is one.
pub type NumberExpr<'s> = Option<Later<Expr<'s>>>;

/// Compiles `raw` when it is an expression (a string).
pub fn number_expr<'s>(spec: &LoadedSpec, raw: &'s Raw) -> NumberExpr<'s> {
    match raw.get_ref() {
        toml::Value::String(s) => Some(Later::new(Expr::compile_str(spec, s, raw.span()))),
        _ => None,
    }
}

/// An axis as the figure resolves it against the data.
#[derive(Debug, Default)]
pub struct AxisPlan<'s> {
    /// Its `title`.
    pub title: Option<Later<Template<'s>>>,
    /// Its tick labels' `format`.
    pub format: Option<Later<TickFormat>>,
    /// The ends of its `domain` that are expressions (over `data_min`,
    /// `data_max` and the numbers).
    pub domain: [NumberExpr<'s>; 2],
    /// A ticks table's `value` and `label`, over rows of its `data`.
    pub ticks: Option<Later<(Expr<'s>, Expr<'s>)>>,
}

/// Compiles axis `a`.
pub fn compile<'s>(spec: &LoadedSpec, a: &'s AxisSpec) -> AxisPlan<'s> {
    AxisPlan {
        title: a
            .title
            .as_ref()
            .map(|t| Later::new(Template::compile(spec, t))),
        format: a
            .format
            .as_ref()
            .map(|f| Later::new(TickFormat::compile(spec, f))),
        domain: match &a.domain {
            Some([lo, hi]) => [number_expr(spec, lo), number_expr(spec, hi)],
            None => [None, None],
        },
        ticks: a.ticks.as_ref().and_then(|raw| ticks_table(spec, raw)),
    }
}

/// A ticks table `{ data, value, label }`: its two expressions over rows
/// of `data` (`None` unless all three are strings; the build says what is
/// missing).
fn ticks_table<'s>(spec: &LoadedSpec, raw: &'s Raw) -> Option<Later<(Expr<'s>, Expr<'s>)>> {
    let toml::Value::Table(t) = raw.get_ref() else {
        return None;
    };
    let get = |k: &str| match t.get(k) {
        Some(toml::Value::String(s)) => Some(s.as_str()),
        _ => None,
    };
    let (data, value, label) = (get("data")?, get("value")?, get("label")?);
    let span = raw.span();
    let both = Expr::compile_str(spec, value, span.clone()).and_then(|v| {
        let l = Expr::compile_str(spec, label, span)?;
        Ok((v.in_table(data), l.in_table(data)))
    });
    Some(Later::new(both))
}
