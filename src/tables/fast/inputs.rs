//! What one line gives each aggregate of a group step, read on the tape
//! (the row path's `Agg::input`, which it must agree with; anything it is
//! not sure of falls back to the row path).

use super::FAgg;
use super::eval::{FNode, Fallback};
use crate::plan::aggregate::Op;
use crate::sources::tape::{Cell, Tape};
use crate::tables::aggregate::Input;

impl FAgg {
    /// Pushes this aggregate's [`Input`] from the line on `tape`.
    // Each arm pushes its own variant: a variant chosen first and pushed
    // after was built on the stack and reloaded by a wider load than its
    // stores (a store-forwarding stall at every input).
    #[inline]
    pub(super) fn push_input<'a>(
        &'a self,
        tape: &Tape<'a>,
        slots: &[Cell<'a>],
        inputs: &mut Vec<Input>,
    ) -> Result<(), Fallback> {
        let a = self;
        let num = |e: &'a FNode| {
            e.with_operand(tape, slots, |c| match c {
                Cell::Int(i) => Ok(*i as f64),
                Cell::Float(x) => Ok(*x),
                _ => Err(Fallback),
            })
        };
        let Some(e) = &a.expr else {
            inputs.push(Input::Nothing);
            return Ok(());
        };
        match a.op {
            Op::Count | Op::Expr | Op::Cell => inputs.push(Input::Nothing),
            Op::CountOf => {
                inputs.push(Input::Present(e.with_operand(tape, slots, |c| {
                    Ok(!matches!(c, Cell::Null | Cell::Undef))
                })?))
            }
            Op::Sum => e.with_operand(tape, slots, |c| {
                match c {
                    Cell::Int(i) => inputs.push(Input::Int(*i)),
                    Cell::Float(x) => inputs.push(Input::Num(*x)),
                    _ => return Err(Fallback),
                }
                Ok(())
            })?,
            Op::WeightedMean => {
                let x = num(e)?;
                let w = num(a.weight.as_ref().ok_or(Fallback)?)?;
                if w < 0.0 {
                    return Err(Fallback);
                }
                inputs.push(Input::Weighted(x, w));
            }
            Op::Mean | Op::Median | Op::Quantile(_) | Op::Std | Op::Ci { .. } | Op::Mad { .. } => {
                inputs.push(Input::Num(num(e)?))
            }
            Op::Gmean | Op::Hmean => {
                let x = num(e)?;
                if x <= 0.0 {
                    // The row path names the row in its error.
                    return Err(Fallback);
                }
                inputs.push(Input::Num(x))
            }
            Op::Argmax | Op::Argmin => {
                num(e)?;
                let key = tape.to_value(e.eval(tape, slots)?);
                let field = match &a.field {
                    Some(f) => match f.eval(tape, slots)? {
                        // The row path says what a missing field is.
                        Cell::Undef => return Err(Fallback),
                        c => Some(tape.to_value(c)),
                    },
                    None => None,
                };
                inputs.push(Input::Keyed(key, field));
            }
            // Two groups: told by `by`, on the row path.
            Op::TtestInd | Op::MannWhitneyU => return Err(Fallback),
            Op::Min | Op::Max => {
                num(e)?;
                inputs.push(Input::Value(tape.to_value(e.eval(tape, slots)?)));
            }
            Op::First | Op::Last => inputs.push(Input::Value(tape.to_value(e.eval(tape, slots)?))),
        }
        Ok(())
    }
}
