//! A number's `uncertainty`: an aggregate over the number's rows giving a
//! symmetric uncertainty (`{ std = "x" }`, `{ expr = "..." }` over `v`),
//! or `{ low = AGG, high = AGG }`, the bounds of an interval around the
//! value (e.g. `ci95` around a median). Printed with the value as one
//! text by [`Format::apply_uncertain`](crate::format::Format::apply_uncertain).

use crate::error::Result;
use crate::plan::aggregate::Agg;
use crate::plan::fold;
use crate::plan::numbers::UncertaintyPlan;
use crate::spec::LoadedSpec;
use crate::value::{Value, as_number};

pub use crate::format::Uncertainty;

/// What an aggregate of a number gives: `eval(agg, name)` computes `agg`
/// over the number's rows (or reads it from a fold's row, where the
/// aggregate is named `name`: [`crate::plan::fold`]).
pub type Eval<'a> = dyn Fn(&Agg<'_>, &str) -> Result<Value> + 'a;

/// The uncertainty of a number (value `value`), if its spec gives one
/// (`plan`, compiled), its aggregates computed by `eval`. Errors name the
/// number's values: a value or bound that is not a finite number, a
/// negative symmetric uncertainty, a low bound above the value or a high
/// bound below it.
pub fn compute(
    spec: &LoadedSpec,
    plan: Option<&UncertaintyPlan<'_>>,
    eval: &Eval<'_>,
    value: &Value,
) -> Result<Option<Uncertainty>> {
    let Some(plan) = plan else {
        return Ok(None);
    };
    let span = match plan {
        UncertaintyPlan::Symmetric { span, .. } | UncertaintyPlan::Interval { span, .. } => {
            span.clone()
        }
    };
    let Some(x) = as_number(value) else {
        return Err(spec.error(
            span,
            format!(
                "`uncertainty` needs a number, but the value is {}",
                crate::value::describe(value)
            ),
        ));
    };
    let one = |agg: &Agg<'_>, what: &str, name: &str| -> Result<f64> {
        let v = eval(agg, name)?;
        match as_number(&v) {
            Some(u) if u.is_finite() => Ok(u),
            _ => Err(spec.error(
                span.clone(),
                format!(
                    "the {what} is {}, not a finite number",
                    crate::value::describe(&v)
                ),
            )),
        }
    };
    let (low, high) = match plan {
        UncertaintyPlan::Symmetric { agg, .. } => {
            let u = one(agg, "uncertainty", fold::U)?;
            if u < 0.0 {
                return Err(spec.error(
                    span,
                    format!("the uncertainty is {u}, below zero (the value is {x})"),
                ));
            }
            return Ok(Some(Uncertainty::Symmetric(u)));
        }
        UncertaintyPlan::Interval { low, high, .. } => (
            one(low, "`low` bound", fold::LOW)?,
            one(high, "`high` bound", fold::HIGH)?,
        ),
    };
    if low > x || high < x {
        return Err(spec.error(
            span,
            format!(
                "the interval [{low}, {high}] does not hold the value {x}: `low` must be at \
                 most the value and `high` at least"
            ),
        ));
    }
    Ok(Some(Uncertainty::Interval { low, high }))
}

/// The uncertainty as numbers.json and the lock write it: the symmetric
/// uncertainty as a number, an interval as `{ "low": ..., "high": ... }`.
pub fn to_json(u: &Uncertainty) -> serde_json::Value {
    match u {
        Uncertainty::Symmetric(s) => serde_json::json!(s),
        Uncertainty::Interval { low, high } => serde_json::json!({ "low": low, "high": high }),
    }
}

/// The uncertainty back from [`to_json`] (for a number reused from the lock).
pub fn from_json(v: &serde_json::Value) -> Option<Uncertainty> {
    match v {
        serde_json::Value::Number(n) => n.as_f64().map(Uncertainty::Symmetric),
        serde_json::Value::Object(o) => Some(Uncertainty::Interval {
            low: o.get("low")?.as_f64()?,
            high: o.get("high")?.as_f64()?,
        }),
        _ => None,
    }
}
