//! `fold` and `pivot` steps, compiled (run by `tables::reshape`).

use crate::error::Result;
use crate::spec::{LoadedSpec, StepSpec};

/// Most fields a pivot makes.
pub const MAX_COLUMNS: usize = 1000;

/// A compiled `fold` step.
#[derive(Debug)]
pub struct Fold {
    /// The fields folded, in order.
    pub fields: Vec<String>,
    /// The output field of a folded field's name.
    pub key: String,
    /// The output field of its value.
    pub value: String,
}

/// How a pivot combines the values of one group and pivot value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PivotOp {
    /// Sum (an integer while every value is one; sequential, as Python's).
    Sum,
    /// Arithmetic mean.
    Mean,
    /// Smallest.
    Min,
    /// Largest.
    Max,
    /// How many rows.
    Count,
    /// The first row's value.
    First,
    /// The last row's value.
    Last,
}

/// A compiled `pivot` step.
#[derive(Debug)]
pub struct Pivot {
    /// The field whose values name the new fields.
    pub field: String,
    /// The field whose values fill them.
    pub value: String,
    /// Group fields (none: one row).
    pub per: Vec<String>,
    /// How repeats combine (`None`: a repeat is an error).
    pub op: Option<PivotOp>,
}

/// Compiles a `pivot` step (`s.pivot` is present).
pub fn compile_pivot(spec: &LoadedSpec, s: &StepSpec, per: Vec<String>) -> Result<Pivot> {
    let op = match &s.op {
        None => None,
        Some(op) => Some(match op.get_ref().as_str() {
            "sum" => PivotOp::Sum,
            "mean" => PivotOp::Mean,
            "min" => PivotOp::Min,
            "max" => PivotOp::Max,
            "count" => PivotOp::Count,
            "first" => PivotOp::First,
            "last" => PivotOp::Last,
            other => {
                return Err(spec.error(
                    op.span(),
                    format!("unknown pivot op `{other}` (sum, mean, min, max, count, first, last)"),
                ));
            }
        }),
    };
    Ok(Pivot {
        field: s.pivot.as_ref().expect("verb").get_ref().clone(),
        value: s.value.clone().unwrap_or_else(|| "value".into()),
        per,
        op,
    })
}
