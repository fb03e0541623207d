//! Predicates: compiled expressions read for their truth only (filters,
//! `require`, a derive's condition), with the common leaves (a type test, a
//! comparison with a literal, a lookup in a list of strings) done in place.

use super::eval::{FNode, Fallback, Lit, attr_slot, compare, compare_other, field, is_true, test};
use crate::expr::fast::{Cmp, Test};
use crate::sources::tape::{Cell, Tape};

/// An expression read for its truth only (a filter, a `require`): the
/// same answers as `is_true` of [`FNode::eval`], as a plain `bool`, without
/// carrying the operands' values back up (`a and b` is true exactly when
/// both are, and `b` is not evaluated when `a` is false).
#[derive(Debug, Clone)]
pub enum Pred {
    All(Vec<Pred>),
    Any(Vec<Pred>),
    Not(Box<Pred>),
    Test(Operand, Test, bool),
    /// `x op constant`, the constant a number (the common filter `m.ratio
    /// > 0`): compared in place.
    CompareNum(Cmp, Operand, Num),
    /// `x == 'text'` (or `!=` when the flag is set): strings compared in
    /// place, anything else as [`compare`] does.
    EqStr(Operand, Box<str>, bool),
    /// `x in ['a', 'b', ...]` (or `not in` when the flag is set): strings
    /// only in the list.
    InStrs(Operand, Box<[Box<str>]>, bool),
    Compare(Cmp, FNode, FNode),
    Value(FNode),
}

/// An operand of a predicate's leaf: a field or an exploded entry's
/// attribute read without going through [`FNode`]'s dispatch.
#[derive(Debug, Clone)]
pub enum Operand {
    Var(usize),
    AttrSlot(usize, usize),
    Node(FNode),
}

impl Operand {
    fn of(node: FNode) -> Operand {
        match node {
            FNode::Var(i) => Operand::Var(i),
            FNode::AttrSlot(b, k) => Operand::AttrSlot(b, k),
            n => Operand::Node(n),
        }
    }

    /// `f` of the operand's cell (as [`FNode::operand`] gives it): a
    /// field's or an attribute's read in place (see
    /// [`FNode::with_operand`]).
    #[inline(always)]
    fn with<'a, T>(
        &'a self,
        tape: &Tape<'a>,
        slots: &[Cell<'a>],
        f: impl FnOnce(&Cell<'a>) -> Result<T, Fallback>,
    ) -> Result<T, Fallback> {
        match self {
            Operand::Var(i) => f(field(slots, *i)?),
            Operand::AttrSlot(base, k) => f(attr_slot(slots, *base, *k)?),
            Operand::Node(n) => f(&n.eval(tape, slots)?),
        }
    }
}

/// A numeric literal.
#[derive(Debug, Clone, Copy)]
pub enum Num {
    Int(i64),
    Float(f64),
}

impl Pred {
    /// The predicate form of a compiled expression.
    pub fn of(node: FNode) -> Pred {
        match node {
            FNode::All(items) => Pred::All(items.into_iter().map(Pred::of).collect()),
            FNode::Any(items) => Pred::Any(items.into_iter().map(Pred::of).collect()),
            FNode::Not(x) => Pred::Not(Box::new(Pred::of(*x))),
            FNode::Test(x, t, negate) => Pred::Test(Operand::of(*x), t, negate),
            FNode::Compare(op, a, b) => match *b {
                FNode::Const(Lit::Int(i)) => Pred::CompareNum(op, Operand::of(*a), Num::Int(i)),
                FNode::Const(Lit::Float(x)) => Pred::CompareNum(op, Operand::of(*a), Num::Float(x)),
                FNode::Const(Lit::Str(t)) if matches!(op, Cmp::Eq | Cmp::Ne) => {
                    Pred::EqStr(Operand::of(*a), t, op == Cmp::Ne)
                }
                b => Pred::Compare(op, *a, b),
            },
            FNode::In(a, items, negate)
                if items.iter().all(|i| matches!(i, FNode::Const(Lit::Str(_)))) =>
            {
                let strs = items
                    .into_iter()
                    .filter_map(|i| match i {
                        FNode::Const(Lit::Str(t)) => Some(t),
                        _ => None,
                    })
                    .collect();
                Pred::InStrs(Operand::of(*a), strs, negate)
            }
            n => Pred::Value(n),
        }
    }

    /// Whether the expression is true on `slots`.
    pub fn test<'a>(&'a self, tape: &Tape<'a>, slots: &[Cell<'a>]) -> Result<bool, Fallback> {
        match self {
            Pred::All(items) => {
                for p in items {
                    if !p.test_leaf(tape, slots)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Pred::Any(items) => {
                for p in items {
                    if p.test_leaf(tape, slots)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Pred::Not(p) => Ok(!p.test(tape, slots)?),
            Pred::Value(n) => Ok(is_true(n.eval(tape, slots)?)),
            _ => self.test_leaf(tape, slots),
        }
    }

    /// [`Pred::test`] with the common leaves done in place; this is kept
    /// small (the rest is out of line) so that a filter's call is cheap.
    #[inline(always)]
    fn test_leaf<'a>(&'a self, tape: &Tape<'a>, slots: &[Cell<'a>]) -> Result<bool, Fallback> {
        match self {
            Pred::Test(x, t, negate) => x.with(tape, slots, |c| Ok(test(c, *t) != *negate)),
            Pred::CompareNum(op, x, n) => x.with(tape, slots, |c| compare_num(*op, c, *n)),
            _ => self.test_rare(tape, slots),
        }
    }

    #[inline(never)]
    fn test_rare<'a>(&'a self, tape: &Tape<'a>, slots: &[Cell<'a>]) -> Result<bool, Fallback> {
        match self {
            Pred::EqStr(x, text, negate) => x.with(tape, slots, |c| match c {
                Cell::Str(s) => Ok((*s == &**text) != *negate),
                l => {
                    let op = if *negate { Cmp::Ne } else { Cmp::Eq };
                    Ok(is_true(compare(op, *l, Cell::Str(text))?))
                }
            }),
            // As `FNode::In`: a string needle is looked for; a number is in
            // no list of strings; anything else is the generic path's.
            Pred::InStrs(x, items, negate) => x.with(tape, slots, |c| match c {
                Cell::Str(s) => Ok(items.iter().any(|t| *s == &**t) != *negate),
                Cell::Int(_) | Cell::Float(_) => Ok(*negate),
                _ => Err(Fallback),
            }),
            Pred::Compare(op, a, b) => Ok(is_true(compare(
                *op,
                a.operand(tape, slots)?,
                b.operand(tape, slots)?,
            )?)),
            _ => self.test(tape, slots),
        }
    }
}

/// `l op n`, as [`compare`] gives it: integers as integers, else as floats
/// (cells and literals hold no NaN, so the float comparison is total).
#[inline(always)]
fn compare_num(op: Cmp, l: &Cell, n: Num) -> Result<bool, Fallback> {
    let (a, b) = match (l, n) {
        (Cell::Int(a), Num::Int(b)) => return Ok(op.holds(a.cmp(&b))),
        (Cell::Int(a), Num::Float(b)) => (*a as f64, b),
        (Cell::Float(a), Num::Int(b)) => (*a, b as f64),
        (Cell::Float(a), Num::Float(b)) => (*a, b),
        _ => return compare_num_other(op, *l, n),
    };
    Ok(match op {
        Cmp::Eq => a == b,
        Cmp::Ne => a != b,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
    })
}

#[inline(never)]
fn compare_num_other(op: Cmp, l: Cell, n: Num) -> Result<bool, Fallback> {
    let r = match n {
        Num::Int(i) => Cell::Int(i),
        Num::Float(x) => Cell::Float(x),
    };
    Ok(is_true(compare_other(op, l, r)?))
}
