//! [`crate::expr::fast`]'s expressions evaluated on cells read by the tape
//! (`sources::tape`), with fields resolved to slots at compile time.
//!
//! Each case mirrors [`crate::expr::fast::Node::eval`] on the equivalent
//! values; wherever that answers "ask minijinja" (or raises a mismatch),
//! this answers [`Fallback`] and the caller runs the whole line through the
//! generic path. So both paths give the same values by construction, and
//! the differential test below checks it.

use super::pred::Pred;
use crate::expr::fast::{Arith, Cmp, Func, Node, Test};
use crate::sources::tape::{Cell, NO_ID, Tape};
use crate::value::Value;

/// "Run this line through the generic path."
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fallback;

pub(super) type R<'a> = Result<Cell<'a>, Fallback>;

/// A literal of the expression.
#[derive(Debug, Clone)]
pub enum Lit {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Box<str>),
}

/// The slot an attribute (name, id) of the entry in slot `base` is looked
/// up into, if it has one.
pub type AttrSlotFn<'f> = dyn Fn(usize, &str, Option<u32>) -> Option<usize> + 'f;

/// A compiled expression over slots.
#[derive(Debug, Clone)]
pub enum FNode {
    Const(Lit),
    Var(usize),
    /// `field.name` (the common case of [`FNode::Attr`], in one step).
    FieldAttr(usize, Box<str>, Option<u32>),
    /// `field.name` where `field` is an exploded entry whose `name` was
    /// looked up once into a slot: (field's slot, the attribute's slot).
    AttrSlot(usize, usize),
    /// `x.name`, with the name's entry id if it has one.
    Attr(Box<FNode>, Box<str>, Option<u32>),
    Not(Box<FNode>),
    /// `a and b and ...`: the first falsy operand, or the last.
    All(Vec<FNode>),
    /// `a or b or ...`: the first truthy operand, or the last.
    Any(Vec<FNode>),
    Compare(Cmp, Box<FNode>, Box<FNode>),
    In(Box<FNode>, Vec<FNode>, bool),
    Arith(Arith, Box<FNode>, Box<FNode>),
    Neg(Box<FNode>),
    Test(Box<FNode>, Test, bool),
    /// `b if a else c`: the condition read for its truth only.
    If(Box<Pred>, Box<FNode>, Option<Box<FNode>>),
    Call(Func, Vec<FNode>),
}

fn lit(v: &Value) -> Option<Lit> {
    use minijinja::value::ValueKind;
    Some(match v.kind() {
        ValueKind::None => Lit::Null,
        ValueKind::Bool => Lit::Bool(v.is_true()),
        ValueKind::Number if v.is_integer() => Lit::Int(v.as_i64()?),
        // Cells hold finite numbers only (`1e999` is the generic path's).
        ValueKind::Number => Lit::Float(f64::try_from(v.clone()).ok().filter(|x| x.is_finite())?),
        ValueKind::String => Lit::Str(v.as_str()?.into()),
        _ => return None,
    })
}

impl FNode {
    /// Compiles `node`, resolving each field to its slot; `None` when a
    /// field has no slot or a construct has no cell form (`~`, a list
    /// outside `in`).
    ///
    /// `attr_slot(field slot, name, id)` gives the slot an attribute of an
    /// exploded entry is looked up into, if it has one.
    pub fn compile(
        node: &Node,
        slot: &dyn Fn(&str) -> Option<usize>,
        attr_id: &dyn Fn(&str) -> Option<u32>,
        attr_slot: &AttrSlotFn,
    ) -> Option<FNode> {
        let c = |n: &Node| FNode::compile(n, slot, attr_id, attr_slot).map(Box::new);
        Some(match node {
            Node::Const(v) => FNode::Const(lit(v)?),
            Node::Var(name) => FNode::Var(slot(name)?),
            Node::Attr(x, name) => match &**x {
                Node::Var(v) => {
                    let (base, id) = (slot(v)?, attr_id(name));
                    match attr_slot(base, name, id) {
                        Some(k) => FNode::AttrSlot(base, k),
                        None => FNode::FieldAttr(base, name.as_ref().into(), id),
                    }
                }
                _ => FNode::Attr(c(x)?, name.as_ref().into(), attr_id(name)),
            },
            Node::List(_) | Node::Concat(..) => return None,
            Node::Not(x) => FNode::Not(c(x)?),
            // Chains flattened: `(a and b) and c` is `a and (b and c)`.
            Node::And(a, b) | Node::Or(a, b) => {
                let and = matches!(node, Node::And(..));
                let mut items = Vec::new();
                for x in [a, b] {
                    match (FNode::compile(x, slot, attr_id, attr_slot)?, and) {
                        (FNode::All(more), true) | (FNode::Any(more), false) => items.extend(more),
                        (n, _) => items.push(n),
                    }
                }
                if and {
                    FNode::All(items)
                } else {
                    FNode::Any(items)
                }
            }
            Node::Compare(op, a, b) => FNode::Compare(*op, c(a)?, c(b)?),
            Node::In(a, b, negate) => {
                let Node::List(items) = &**b else {
                    return None;
                };
                let items = items
                    .iter()
                    .map(|i| FNode::compile(i, slot, attr_id, attr_slot))
                    .collect::<Option<Vec<_>>>()?;
                FNode::In(c(a)?, items, *negate)
            }
            Node::Arith(op, a, b) => FNode::Arith(*op, c(a)?, c(b)?),
            Node::Neg(x) => FNode::Neg(c(x)?),
            Node::Test(x, t, negate) => FNode::Test(c(x)?, *t, *negate),
            Node::If(a, b, o) => FNode::If(
                Box::new(Pred::of(*c(a)?)),
                c(b)?,
                match o {
                    Some(o) => Some(c(o)?),
                    None => None,
                },
            ),
            Node::Call(f, args) => FNode::Call(
                *f,
                args.iter()
                    .map(|a| FNode::compile(a, slot, attr_id, attr_slot))
                    .collect::<Option<_>>()?,
            ),
        })
    }
}

/// `v is t`.
// (By reference: the predicates test cells in place, reading a payload
// only where the test needs it; see `pred::Operand::with`.)
#[inline(always)]
pub(super) fn test(v: &Cell, t: Test) -> bool {
    match t {
        // A null is missing (docs/spec.md, Missing values): one meaning
        // whatever the format wrote for "no value".
        Test::Defined => !matches!(v, Cell::Null | Cell::Undef),
        Test::Undefined => matches!(v, Cell::Null | Cell::Undef),
        Test::None => matches!(v, Cell::Null | Cell::Undef),
        Test::Number => matches!(v, Cell::Int(_) | Cell::Float(_)),
        Test::String => matches!(v, Cell::Str(_)),
        Test::Mapping => matches!(v, Cell::Map(..)),
        Test::Boolean => matches!(v, Cell::Bool(_)),
        Test::Finite => plain(*v).is_some_and(f64::is_finite),
    }
}

/// A number that is plain (cells never hold NaN).
fn plain(c: Cell) -> Option<f64> {
    match c {
        Cell::Int(i) => Some(i as f64),
        Cell::Float(x) if !x.is_nan() => Some(x),
        _ => None,
    }
}

fn int(c: Cell) -> Option<i64> {
    match c {
        Cell::Int(i) => Some(i),
        _ => None,
    }
}

fn string(c: Cell<'_>) -> Option<&str> {
    match c {
        Cell::Str(s) => Some(s),
        _ => None,
    }
}

fn is_number(c: Cell) -> bool {
    matches!(c, Cell::Int(_) | Cell::Float(_))
}

/// minijinja's truthiness.
pub fn is_true(c: Cell) -> bool {
    match c {
        Cell::Undef | Cell::Null => false,
        Cell::Bool(b) => b,
        Cell::Int(i) => i != 0,
        Cell::Float(x) => x != 0.0,
        Cell::Str(s) => !s.is_empty(),
        Cell::Map(s, e) | Cell::List(s, e) => e > s,
    }
}

/// Field `i`'s cell, in place (as [`FNode::operand`] of `Var(i)`: a
/// missing field is the generic path's).
#[inline(always)]
pub(super) fn field<'s, 'a>(slots: &'s [Cell<'a>], i: usize) -> Result<&'s Cell<'a>, Fallback> {
    match &slots[i] {
        Cell::Undef => Err(Fallback),
        c => Ok(c),
    }
}

/// An exploded entry's attribute `k` of the map in slot `base`, in place
/// (as [`FNode::operand`] of `AttrSlot`: a base other than a map is the
/// generic path's).
#[inline(always)]
pub(super) fn attr_slot<'s, 'a>(
    slots: &'s [Cell<'a>],
    base: usize,
    k: usize,
) -> Result<&'s Cell<'a>, Fallback> {
    match slots[base] {
        Cell::Map(..) => Ok(&slots[k]),
        _ => Err(Fallback),
    }
}

pub(super) fn defined(c: Cell<'_>) -> R<'_> {
    if c == Cell::Undef {
        Err(Fallback)
    } else {
        Ok(c)
    }
}

/// The entry `name` (whose id is `id`, if it has one) of a map cell.
#[inline(always)]
pub fn attr<'a>(tape: &Tape<'a>, base: Cell<'a>, name: &str, id: Option<u32>) -> Option<Cell<'a>> {
    let Cell::Map(start, end) = base else {
        return None;
    };
    let items = tape.entries.get(start as usize..end as usize)?;
    match id {
        // Ids are equal exactly when the keys are.
        Some(id) => {
            for e in items {
                if e.id == id || (e.id == NO_ID && e.key == name) {
                    return Some(e.cell);
                }
            }
        }
        None => {
            for e in items {
                if e.key == name {
                    return Some(e.cell);
                }
            }
        }
    }
    Some(Cell::Undef)
}

impl FNode {
    /// Evaluates on `slots` (cells of `tape`). The arms that filters and
    /// aggregates use on every row are here; the others are in
    /// [`FNode::eval_rare`], which keeps this function's frame small.
    pub fn eval<'a>(&'a self, tape: &Tape<'a>, slots: &[Cell<'a>]) -> R<'a> {
        match self {
            FNode::Const(l) => Ok(match l {
                Lit::Null => Cell::Null,
                Lit::Bool(b) => Cell::Bool(*b),
                Lit::Int(i) => Cell::Int(*i),
                Lit::Float(x) => Cell::Float(*x),
                Lit::Str(s) => Cell::Str(s),
            }),
            FNode::Var(_) | FNode::FieldAttr(..) | FNode::AttrSlot(..) => self.operand(tape, slots),
            FNode::Not(x) => Ok(Cell::Bool(!is_true(x.operand(tape, slots)?))),
            FNode::All(items) => {
                let (last, init) = items.split_last().expect("two operands");
                for x in init {
                    let v = x.operand(tape, slots)?;
                    if !is_true(v) {
                        return Ok(v);
                    }
                }
                last.operand(tape, slots)
            }
            FNode::Any(items) => {
                let (last, init) = items.split_last().expect("two operands");
                for x in init {
                    let v = x.operand(tape, slots)?;
                    if is_true(v) {
                        return Ok(v);
                    }
                }
                last.operand(tape, slots)
            }
            FNode::Compare(op, a, b) => {
                compare(*op, a.operand(tape, slots)?, b.operand(tape, slots)?)
            }
            FNode::Test(x, t, negate) => {
                Ok(Cell::Bool(test(&x.operand(tape, slots)?, *t) != *negate))
            }
            _ => self.eval_rare(tape, slots),
        }
    }

    /// `f` of [`FNode::operand`]'s cell, a field's or an exploded entry's
    /// attribute read in place: a cell copied out of slots just written
    /// was reloaded by a wider load than its stores, a store-forwarding
    /// stall at every exploded entry.
    #[inline(always)]
    pub fn with_operand<'a, T>(
        &'a self,
        tape: &Tape<'a>,
        slots: &[Cell<'a>],
        f: impl FnOnce(&Cell<'a>) -> Result<T, Fallback>,
    ) -> Result<T, Fallback> {
        match self {
            FNode::Var(i) => f(field(slots, *i)?),
            FNode::AttrSlot(base, k) => f(attr_slot(slots, *base, *k)?),
            n => f(&n.operand(tape, slots)?),
        }
    }

    /// An operand: fields, entries and numbers are read in place, not by a
    /// call.
    #[inline(always)]
    pub fn operand<'a>(&'a self, tape: &Tape<'a>, slots: &[Cell<'a>]) -> R<'a> {
        match self {
            // A missing field may be a global: minijinja knows.
            FNode::Var(i) => defined(slots[*i]),
            FNode::FieldAttr(i, name, id) => {
                attr(tape, defined(slots[*i])?, name, *id).ok_or(Fallback)
            }
            // As `FieldAttr`: anything but a map as the base is the
            // generic path's to answer.
            FNode::AttrSlot(base, k) => attr_slot(slots, *base, *k).copied(),
            FNode::Const(Lit::Int(i)) => Ok(Cell::Int(*i)),
            FNode::Const(Lit::Float(x)) => Ok(Cell::Float(*x)),
            _ => self.eval(tape, slots),
        }
    }

    #[inline(never)]
    fn eval_rare<'a>(&'a self, tape: &Tape<'a>, slots: &[Cell<'a>]) -> R<'a> {
        let ev = |n: &'a FNode| n.operand(tape, slots);
        match self {
            FNode::Attr(x, name, id) => attr(tape, ev(x)?, name, *id).ok_or(Fallback),
            FNode::In(a, items, negate) => {
                let needle = defined(ev(a)?)?;
                if plain(needle).is_none() && string(needle).is_none() {
                    return Err(Fallback);
                }
                let mut found = false;
                for item in items {
                    let v = ev(item)?;
                    let same = match (
                        int(needle),
                        int(v),
                        plain(needle),
                        plain(v),
                        string(needle),
                        string(v),
                    ) {
                        (Some(x), Some(y), ..) => x == y,
                        (_, _, Some(x), Some(y), ..) => x == y,
                        (.., Some(x), Some(y)) => x == y,
                        (_, _, None, None, None, None) => return Err(Fallback),
                        _ => false,
                    };
                    if same {
                        found = true;
                        break;
                    }
                }
                Ok(Cell::Bool(found != *negate))
            }
            FNode::Arith(op, a, b) => {
                let (l, r) = (ev(a)?, ev(b)?);
                if let (Some(x), Some(y), false) = (int(l), int(r), *op == Arith::Div) {
                    let v = match op {
                        Arith::Add => x.checked_add(y),
                        Arith::Sub => x.checked_sub(y),
                        _ => x.checked_mul(y),
                    };
                    return v.map(Cell::Int).ok_or(Fallback);
                }
                let (x, y) = (plain(l).ok_or(Fallback)?, plain(r).ok_or(Fallback)?);
                let v = match op {
                    Arith::Add => x + y,
                    Arith::Sub => x - y,
                    Arith::Mul => x * y,
                    Arith::Div if y == 0.0 => return Err(Fallback),
                    Arith::Div => x / y,
                };
                if v.is_finite() {
                    Ok(Cell::Float(v))
                } else {
                    Err(Fallback)
                }
            }
            FNode::Neg(x) => {
                let v = ev(x)?;
                match (int(v), plain(v)) {
                    (Some(i), _) => i.checked_neg().map(Cell::Int).ok_or(Fallback),
                    (None, Some(f)) => Ok(Cell::Float(-f)),
                    _ => Err(Fallback),
                }
            }
            FNode::If(cond, then, other) => {
                if cond.test(tape, slots)? {
                    ev(then)
                } else {
                    match other {
                        Some(o) => ev(o),
                        None => Ok(Cell::Undef),
                    }
                }
            }
            FNode::Call(f, args) => {
                let a0 = ev(&args[0])?;
                match f {
                    Func::Max | Func::Min => {
                        // A left fold: the first of equal values wins.
                        let (mut best, mut x) = (a0, plain(a0).ok_or(Fallback)?);
                        for arg in &args[1..] {
                            let b = ev(arg)?;
                            let y = plain(b).ok_or(Fallback)?;
                            if if *f == Func::Max { y > x } else { y < x } {
                                (best, x) = (b, y);
                            }
                        }
                        Ok(best)
                    }
                    Func::Abs => match a0 {
                        Cell::Int(i) => i.checked_abs().map(Cell::Int).ok_or(Fallback),
                        Cell::Float(x) if !x.is_nan() => Ok(Cell::Float(x.abs())),
                        _ => Err(Fallback),
                    },
                    _ => {
                        let x = plain(a0).ok_or(Fallback)?;
                        crate::expr::fast::math(*f, x)
                            .map(Cell::Float)
                            .ok_or(Fallback)
                    }
                }
            }
            _ => unreachable!("handled in eval"),
        }
    }
}

/// `l op r`, as [`crate::expr::fast`] compares values; numbers in place.
#[inline(always)]
pub(super) fn compare<'a>(op: Cmp, l: Cell<'a>, r: Cell<'a>) -> R<'a> {
    let ord = match (l, r) {
        (Cell::Int(x), Cell::Int(y)) => x.cmp(&y),
        (Cell::Int(_) | Cell::Float(_), Cell::Int(_) | Cell::Float(_)) => {
            let (x, y) = (plain(l).ok_or(Fallback)?, plain(r).ok_or(Fallback)?);
            x.partial_cmp(&y).ok_or(Fallback)?
        }
        _ => return compare_other(op, l, r),
    };
    Ok(Cell::Bool(op.holds(ord)))
}

/// [`compare`] for operands that are not both numbers.
#[inline(never)]
pub(super) fn compare_other<'a>(op: Cmp, l: Cell<'a>, r: Cell<'a>) -> R<'a> {
    let (l, r) = (defined(l)?, defined(r)?);
    let strict = |c: Cell| matches!(c, Cell::Str(_) | Cell::Null);
    if !matches!(op, Cmp::Eq | Cmp::Ne)
        && ((strict(l) && is_number(r)) || (is_number(l) && strict(r)))
    {
        // A mismatch: the generic path raises it.
        return Err(Fallback);
    }
    let ord = match (int(l), int(r)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => match (plain(l), plain(r), string(l), string(r)) {
            (Some(x), Some(y), _, _) => x.partial_cmp(&y).ok_or(Fallback)?,
            (_, _, Some(x), Some(y)) => x.cmp(y),
            _ if matches!(op, Cmp::Eq | Cmp::Ne) && !is_number(l) && !is_number(r) => {
                let eq = match (l, r) {
                    (Cell::Null, Cell::Null) => true,
                    (Cell::Bool(x), Cell::Bool(y)) => x == y,
                    (Cell::Map(..) | Cell::List(..), _) | (_, Cell::Map(..) | Cell::List(..)) => {
                        return Err(Fallback);
                    }
                    _ => false,
                };
                return Ok(Cell::Bool(if op == Cmp::Eq { eq } else { !eq }));
            }
            _ => return Err(Fallback),
        },
    };
    Ok(Cell::Bool(op.holds(ord)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::tape::{Fields, Keep};
    use crate::value::{Origin, Row, as_record};
    use std::sync::Arc;

    const LINES: &[&str] = &[
        r#"{"_kind": "bench_7B", "x": 1.5, "n_items": 3, "s": "café", "z": null, "b": false, "zero": 0, "m": {"ratio": 1.27, "decompress_MBps": 1339.76}, "t": "1.27", "e": {}, "l": [1, 2], "execution time": 4.5, "p50 (ms)": "a", "_": {"x": 7}}"#,
        r#"{"_kind": "Q4_K_benchmark", "x": -2, "n_items": 0, "s": "", "z": 0.0, "b": true, "zero": 0.0, "m": "not applicable", "t": 5, "e": {"a": 1}, "l": [], "execution time": 2, "_": 3}"#,
        r#"{"x": 1e300, "n_items": 9223372036854775807, "m": {"error": "x", "compress_MBps": null}, "zero": -0.0}"#,
        r#"{"x": 2, "n_items": 2.0, "s": "b", "z": true, "b": null, "zero": 1, "m": {"ratio": 0, "decompress_MBps": -1}, "t": "", "e": [], "l": {}}"#,
    ];

    use crate::expr::fast::tests::EXPRS;

    #[test]
    fn agrees_with_the_value_path_wherever_it_answers() {
        let spec = crate::spec::parse("", std::path::Path::new("artifact.toml")).unwrap();
        let g = Arc::new(crate::expr::Globals::default());
        let names = [
            "_kind",
            "x",
            "n_items",
            "s",
            "z",
            "b",
            "zero",
            "m",
            "t",
            "e",
            "l",
            "missing",
            "execution time",
            "p50 (ms)",
            "_",
        ];
        let fields = Fields::new(
            names.iter().map(|n| (n.to_string(), Keep::Whole)).collect(),
            Vec::new(),
        );
        let slot = |n: &str| names.iter().position(|m| *m == n);
        let mut answered = 0;
        for line in LINES {
            let mut tape = Tape::default();
            let mut slots = vec![Cell::Undef; names.len()];
            tape.read(line.as_bytes(), &fields, &mut slots)
                .expect("plain line");
            let v = crate::sources::json::parse(line.as_bytes()).unwrap();
            let row = Row {
                extra: Default::default(),
                fields: Arc::new(as_record(&v).unwrap().clone()),
                origin: Origin::line(Arc::from("t.jsonl"), 1),
            };
            for src in EXPRS {
                let e = crate::expr::Expr::compile_str(&spec, src, 0..0).unwrap();
                let Some(node) = e
                    .fast()
                    .and_then(|n| FNode::compile(n, &slot, &|_| None, &|_, _, _| None))
                else {
                    continue;
                };
                let pred = Pred::of(node.clone());
                let truth = pred.test(&tape, &slots);
                let Ok(cell) = node.eval(&tape, &slots) else {
                    assert_eq!(
                        truth,
                        Err(Fallback),
                        "{src} on {line}: the predicate answers"
                    );
                    continue;
                };
                if let Ok(t) = truth {
                    assert_eq!(t, is_true(cell), "{src} on {line}: truth");
                }
                answered += 1;
                let want = e.eval_row(&g, &row).unwrap_or_else(|err| {
                    panic!("{src} on {line}: cells gave {cell:?}, values failed: {err}")
                });
                let got = tape.to_value(cell);
                assert_eq!(format!("{got:?}"), format!("{want:?}"), "{src} on {line}");
                assert_eq!(got.kind(), want.kind(), "{src} on {line}");
            }
        }
        assert!(
            answered > 150,
            "the cell path answers most cases ({answered})"
        );
    }
}
