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
    // Each arm pushes its own variant through its own call (`push_num`
    // ...): pushed inline, the arms' pushes were merged into one that built
    // the variant on the stack and copied it by wider loads than its
    // stores (a store-forwarding stall at every input; about 4% of the
    // CPU time of the whole-paper bench at 1 GiB).
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
            push_nothing(inputs);
            return Ok(());
        };
        match a.op {
            Op::Count | Op::Expr | Op::Cell => push_nothing(inputs),
            Op::CountOf => push_present(
                inputs,
                e.with_operand(tape, slots, |c| Ok(!matches!(c, Cell::Null | Cell::Undef)))?,
            ),
            Op::Sum => e.with_operand(tape, slots, |c| {
                match c {
                    Cell::Int(i) => push_int(inputs, *i),
                    Cell::Float(x) => push_num(inputs, *x),
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
                push_weighted(inputs, x, w);
            }
            Op::Mean | Op::Median | Op::Quantile(_) | Op::Std | Op::Ci { .. } | Op::Mad { .. } => {
                push_num(inputs, num(e)?)
            }
            Op::Gmean | Op::Hmean => {
                let x = num(e)?;
                if x <= 0.0 {
                    // The row path names the row in its error.
                    return Err(Fallback);
                }
                push_num(inputs, x)
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

// One function a variant, never inlined, each writing its variant in
// place after the vector has room (see `push_input`): `Vec::push` builds
// the value before its growth check, on the stack, and copies it after.
// A call costs less than the stall.

/// Pushes `input()`, built where it is stored.
#[inline(always)]
fn push_in_place(inputs: &mut Vec<Input>, input: impl FnOnce() -> Input) {
    inputs.reserve(1);
    let len = inputs.len();
    // SAFETY: `reserve(1)` left room for an element at `len`, which is
    // written before the length counts it.
    unsafe {
        inputs.as_mut_ptr().add(len).write(input());
        inputs.set_len(len + 1);
    }
}

#[inline(never)]
fn push_nothing(inputs: &mut Vec<Input>) {
    push_in_place(inputs, || Input::Nothing);
}

#[inline(never)]
fn push_present(inputs: &mut Vec<Input>, yes: bool) {
    push_in_place(inputs, || Input::Present(yes));
}

#[inline(never)]
fn push_int(inputs: &mut Vec<Input>, i: i64) {
    push_in_place(inputs, || Input::Int(i));
}

#[inline(never)]
fn push_num(inputs: &mut Vec<Input>, x: f64) {
    push_in_place(inputs, || Input::Num(x));
}

#[inline(never)]
fn push_weighted(inputs: &mut Vec<Input>, x: f64, w: f64) {
    push_in_place(inputs, || Input::Weighted(x, w));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushed_in_place_inputs_keep_their_variant_and_order_across_growth() {
        let mut inputs = Vec::new();
        for k in 0..100 {
            push_weighted(&mut inputs, k as f64, 2.0);
            push_int(&mut inputs, -k);
            push_num(&mut inputs, 0.5 * k as f64);
            push_present(&mut inputs, k % 2 == 0);
            push_nothing(&mut inputs);
        }
        assert_eq!(inputs.len(), 500);
        let shown: Vec<String> = inputs[495..].iter().map(|i| format!("{i:?}")).collect();
        assert_eq!(
            shown,
            [
                "Weighted(99.0, 2.0)",
                "Int(-99)",
                "Num(49.5)",
                "Present(false)",
                "Nothing"
            ]
        );
        assert!(matches!(inputs[0], Input::Weighted(x, w) if x == 0.0 && w == 2.0));
    }
}
