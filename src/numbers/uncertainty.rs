//! A number's `uncertainty`: an aggregate over the number's rows giving a
//! symmetric uncertainty (`{ std = "x" }`, `{ expr = "..." }` over `v`),
//! or `{ low = AGG, high = AGG }`, the bounds of an interval around the
//! value (e.g. `ci95` around a median). Printed with the value as one
//! text by [`Format::apply_uncertain`](crate::format::Format::apply_uncertain).

use std::sync::Arc;

use crate::error::Result;
use crate::expr::Globals;
use crate::plan::aggregate::Agg;
use crate::spec::{LoadedSpec, Raw};
use crate::value::{Row, Value, as_number};

pub use crate::format::Uncertainty;

/// The uncertainty of number `key` (value `value`, computed over `rows` of
/// `table`), if its spec gives one. Errors name the number's values: a
/// value or bound that is not a finite number, a negative symmetric
/// uncertainty, a low bound above the value or a high bound below it.
pub fn compute(
    spec: &LoadedSpec,
    globals: &Arc<Globals>,
    raw: Option<&Raw>,
    table: Option<&str>,
    rows: &[&Row],
    value: &Value,
) -> Result<Option<Uncertainty>> {
    let Some(raw) = raw else {
        return Ok(None);
    };
    let Some(x) = as_number(value) else {
        return Err(spec.error(
            raw.span(),
            format!(
                "`uncertainty` needs a number, but the value is {}",
                crate::value::describe(value)
            ),
        ));
    };
    let one = |r: &Raw, what: &str| -> Result<f64> {
        let mut agg = Agg::compile(spec, r, true)?;
        if let Some(t) = table {
            agg.set_table(t);
        }
        let v = agg.compute(globals, rows)?;
        match as_number(&v) {
            Some(u) if u.is_finite() => Ok(u),
            _ => Err(spec.error(
                r.span(),
                format!(
                    "the {what} is {}, not a finite number",
                    crate::value::describe(&v)
                ),
            )),
        }
    };
    let toml::Value::Table(t) = raw.get_ref() else {
        return Ok(Some(Uncertainty::Symmetric(one(raw, "uncertainty")?)));
    };
    if !t.contains_key("low") && !t.contains_key("high") {
        let u = one(raw, "uncertainty")?;
        if u < 0.0 {
            return Err(spec.error(
                raw.span(),
                format!("the uncertainty is {u}, below zero (the value is {x})"),
            ));
        }
        return Ok(Some(Uncertainty::Symmetric(u)));
    }
    // Each bound, with the interval's span (toml::Value keeps no inner span).
    let bound = |name: &str| -> Result<f64> {
        let Some(v) = t.get(name) else {
            return Err(spec.error(
                raw.span(),
                "an interval has both `low` and `high`".to_string(),
            ));
        };
        let r = Raw::new(raw.span(), v.clone());
        one(&r, &format!("`{name}` bound"))
    };
    let (low, high) = (bound("low")?, bound("high")?);
    if low > x || high < x {
        return Err(spec.error(
            raw.span(),
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
