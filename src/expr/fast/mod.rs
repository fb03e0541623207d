//! A fast path for the expressions specs write most: field access (also
//! `_['execution time']` and `_.x`, read as the field; `_` used whole is
//! minijinja's), comparisons, `and`/`or`/`not`, `in [...]`, `is` tests,
//! arithmetic, `~`, `x if c else y`, a few functions and filters.
//!
//! minijinja stays the definition of what an expression means; this module
//! only evaluates, directly on a row, the cases whose meaning is plain
//! (numbers with numbers, defined values), and answers [`Stop::Fallback`] for
//! anything else: undefined operands, NaN, mixed types, division by zero,
//! overflow. One case is refused outright: ordering a string or null
//! against a number (`"1.27" > 0`), which Python rejects and minijinja
//! answers silently. The caller otherwise asks minijinja, which gives the same value or
//! the canonical error. Expressions outside the subset are not compiled
//! here at all. A differential test (and the `expr` fuzz target) checks that
//! both agree wherever this path answers.

use std::sync::Arc;

use minijinja::value::ValueKind;

mod parse;

pub(crate) use parse::{Tok, lex};

use crate::value::{Row, Value, as_number, as_record};

/// Why the fast path gives no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// "Ask minijinja": this path cannot be sure of the answer.
    Fallback,
    /// A comparison Python refuses (a string or null ordered against a
    /// number) and minijinja would answer silently: an error, with why.
    Mismatch {
        /// The field path read, if the operand is one.
        field: Option<String>,
        /// What is wrong.
        why: String,
    },
}

type R = Result<Value, Stop>;

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    /// Whether `a op b` holds when `a` compares to `b` as `ord`.
    pub fn holds(self, ord: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            Cmp::Eq => ord == Equal,
            Cmp::Ne => ord != Equal,
            Cmp::Lt => ord == Less,
            Cmp::Le => ord != Greater,
            Cmp::Gt => ord == Greater,
            Cmp::Ge => ord != Less,
        }
    }
}

/// An arithmetic operator.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
}

/// A type test (`is number`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Test {
    Defined,
    Undefined,
    None,
    Number,
    String,
    Mapping,
    Boolean,
    Finite,
}

/// `f` (log, log10, log1p, sqrt or exp) of `x`, or `None` when the result
/// is not finite (minijinja then gives the answer or the error). Shared by
/// both fast evaluators, rows and cells alike.
pub fn math(f: Func, x: f64) -> Option<f64> {
    let y = match f {
        Func::Log => x.ln(),
        Func::Log10 => x.log10(),
        Func::Log1p => x.ln_1p(),
        Func::Sqrt => x.sqrt(),
        _ => x.exp(),
    };
    y.is_finite().then_some(y)
}

/// A function.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Func {
    Max,
    Min,
    Abs,
    Log,
    Log10,
    Log1p,
    Sqrt,
    Exp,
}

/// A compiled expression.
#[derive(Debug, Clone)]
pub enum Node {
    /// A literal.
    Const(Value),
    /// A row field.
    Var(Arc<str>),
    /// `x.name` (or `x['name']`).
    Attr(Box<Node>, Arc<str>),
    /// A list literal.
    List(Vec<Node>),
    /// `not x`.
    Not(Box<Node>),
    /// `a and b`.
    And(Box<Node>, Box<Node>),
    /// `a or b`.
    Or(Box<Node>, Box<Node>),
    /// A comparison.
    Compare(Cmp, Box<Node>, Box<Node>),
    /// `a [not] in [list]`.
    In(Box<Node>, Box<Node>, bool),
    /// Arithmetic.
    Arith(Arith, Box<Node>, Box<Node>),
    /// `-x`.
    Neg(Box<Node>),
    /// `a ~ b`.
    Concat(Box<Node>, Box<Node>),
    /// `x is [not] test`.
    Test(Box<Node>, Test, bool),
    /// `a if c else b`.
    If(Box<Node>, Box<Node>, Option<Box<Node>>),
    /// A function call.
    Call(Func, Vec<Node>),
}

/// The deepest expression the fast path takes; deeper ones (rare) go to
/// minijinja. The parser and the evaluator recurse over the tree, with large
/// frames in a debug build (200 levels overflow a 2 MiB thread stack).
pub const MAX_DEPTH: usize = 64;

/// Compiles `src`, or `None` when it is outside the fast subset or nests
/// deeper than [`MAX_DEPTH`] (as bounded by [`crate::expr::depth`]).
pub fn compile(src: &str) -> Option<Node> {
    if crate::expr::depth::expression_depth(src) > MAX_DEPTH {
        return None;
    }
    let mut p = parse::Parser {
        toks: parse::lex(src)?,
        pos: 0,
    };
    let node = p.expr()?;
    (p.pos == p.toks.len()).then_some(node)
}

impl Node {
    /// Whether variable `var` is used only as `var.attr` or `var is test`
    /// (so a record can be built with only the attributes read).
    pub fn uses_only_attrs_of(&self, var: &str) -> bool {
        self.uses_var_only(var, true)
    }

    /// Whether variable `var` is used only as `var is test` (its type, not
    /// its contents).
    pub fn uses_only_tests_of(&self, var: &str) -> bool {
        self.uses_var_only(var, false)
    }

    /// The attributes read of variable `var` (`var.ratio`, `var['a b']`).
    pub fn attrs_of(&self, var: &str, out: &mut Vec<String>) {
        if let Node::Attr(x, name) = self
            && matches!(&**x, Node::Var(v) if &**v == var)
        {
            out.push(name.to_string());
            return;
        }
        match self {
            Node::Var(_) | Node::Const(_) => {}
            Node::Attr(x, _) | Node::Not(x) | Node::Neg(x) | Node::Test(x, _, _) => {
                x.attrs_of(var, out)
            }
            Node::List(items) | Node::Call(_, items) => {
                items.iter().for_each(|i| i.attrs_of(var, out))
            }
            Node::And(a, b)
            | Node::Or(a, b)
            | Node::Compare(_, a, b)
            | Node::In(a, b, _)
            | Node::Arith(_, a, b)
            | Node::Concat(a, b) => {
                a.attrs_of(var, out);
                b.attrs_of(var, out);
            }
            Node::If(a, b, c) => {
                for n in [Some(&**a), Some(&**b), c.as_deref()].into_iter().flatten() {
                    n.attrs_of(var, out);
                }
            }
        }
    }

    /// The nodes this node reads (none for a variable or a constant).
    fn children(&self) -> Vec<&Node> {
        match self {
            Node::Var(_) | Node::Const(_) => Vec::new(),
            Node::Attr(x, _) | Node::Not(x) | Node::Neg(x) | Node::Test(x, _, _) => vec![x],
            Node::List(items) | Node::Call(_, items) => items.iter().collect(),
            Node::And(a, b)
            | Node::Or(a, b)
            | Node::Compare(_, a, b)
            | Node::In(a, b, _)
            | Node::Arith(_, a, b)
            | Node::Concat(a, b) => vec![a, b],
            Node::If(a, b, c) => [Some(&**a), Some(&**b), c.as_deref()]
                .into_iter()
                .flatten()
                .collect(),
        }
    }

    /// Whether variable `var` is used only as `var.a.b` (an attribute of
    /// one of its entries, collected in `out`) or through type tests of it
    /// or of an entry (`var is mapping`, `var.a is defined`): then each of
    /// its entries that is a map may keep only the attributes in `out`.
    pub fn entry_attrs_of(&self, var: &str, out: &mut Vec<String>) -> bool {
        let is_var = |n: &Node| matches!(n, Node::Var(v) if &**v == var);
        let is_entry = |n: &Node| matches!(n, Node::Attr(x, _) if is_var(x));
        let kids: Vec<&Node> = match self {
            Node::Var(v) => return &**v != var,
            Node::Test(x, _, _) if is_var(x) || is_entry(x) => return true,
            Node::Attr(x, name) if is_entry(x) => {
                out.push(name.to_string());
                return true;
            }
            Node::Attr(x, _) if is_var(x) => return false,
            node => node.children(),
        };
        kids.into_iter().all(|k| k.entry_attrs_of(var, out))
    }

    fn uses_var_only(&self, var: &str, attrs: bool) -> bool {
        let kids: Vec<&Node> = match self {
            Node::Var(v) => return &**v != var,
            Node::Test(x, _, _) if matches!(&**x, Node::Var(v) if &**v == var) => return true,
            Node::Attr(x, _) if matches!(&**x, Node::Var(v) if &**v == var) => return attrs,
            node => node.children(),
        };
        kids.into_iter().all(|k| k.uses_var_only(var, attrs))
    }
}

// ------------------------------------------------------------ evaluator --

/// `m.ratio` for the node that reads it, if it is a field path.
fn path_of(n: &Node) -> Option<String> {
    match n {
        Node::Var(v) => Some(v.to_string()),
        Node::Attr(x, name) => Some(format!("{}.{name}", path_of(x)?)),
        _ => None,
    }
}

/// `n` as an expression spells it when it is a field path: `p50 (ms)` is
/// `_['p50 (ms)']`, so a hint can be pasted back as written.
fn spelled(n: &Node) -> Option<String> {
    use crate::expr::reads::field_ref;
    match n {
        Node::Var(v) => Some(field_ref(v)),
        Node::Attr(x, name) => {
            let r = field_ref(name);
            let key = match r.strip_prefix('_') {
                Some(sub) if r != **name => sub.to_string(),
                _ => format!(".{name}"),
            };
            Some(format!("{}{key}", spelled(x)?))
        }
        _ => None,
    }
}

/// A number that is plain: an integer within `i64`, or a float that is
/// not NaN. A wider integer is minijinja's to compare and compute (exact
/// in `i128`; as a double two would be equal): the fast path declines.
fn plain(v: &Value) -> Option<f64> {
    as_number(v)
        .filter(|x| !x.is_nan() && (x.abs() < 9.2e18 || crate::value::wide_int(v).is_none()))
}

fn int(v: &Value) -> Option<i64> {
    if v.is_integer() { v.as_i64() } else { None }
}

fn defined(v: Value) -> R {
    if v.is_undefined() {
        Err(Stop::Fallback)
    } else {
        Ok(v)
    }
}

impl Node {
    /// Evaluates on a row.
    pub fn eval(&self, row: &Row) -> R {
        match self {
            Node::Const(v) => Ok(v.clone()),
            Node::Var(name) => match row.get(name) {
                Some(v) => Ok(v.clone()),
                // A missing field may be a global (`n`, ...): minijinja knows.
                None => Err(Stop::Fallback),
            },
            Node::Attr(x, name) => {
                let base = x.eval(row)?;
                match as_record(&base) {
                    Some(r) => Ok(r.get(name).cloned().unwrap_or(Value::UNDEFINED)),
                    None => Err(Stop::Fallback),
                }
            }
            Node::List(items) => Ok(Value::from(
                items
                    .iter()
                    .map(|i| i.eval(row).and_then(defined))
                    .collect::<Result<Vec<_>, _>>()?,
            )),
            Node::Not(x) => Ok(Value::from(!x.eval(row)?.is_true())),
            Node::And(a, b) => {
                let l = a.eval(row)?;
                if l.is_true() { b.eval(row) } else { Ok(l) }
            }
            Node::Or(a, b) => {
                let l = a.eval(row)?;
                if l.is_true() { Ok(l) } else { b.eval(row) }
            }
            Node::Compare(op, a, b) => compare(*op, a, b, row),
            Node::In(a, b, negate) => in_list(a, b, *negate, row),
            Node::Arith(op, a, b) => arith(*op, a, b, row),
            Node::Neg(x) => {
                let v = x.eval(row)?;
                match (int(&v), plain(&v)) {
                    (Some(i), _) => i.checked_neg().map(Value::from).ok_or(Stop::Fallback),
                    (None, Some(f)) => Ok(Value::from(-f)),
                    _ => Err(Stop::Fallback),
                }
            }
            Node::Concat(a, b) => concat(a, b, row),
            Node::Test(x, t, negate) => {
                let v = x.eval(row)?;
                let yes = match t {
                    // A null is missing, as in the generic evaluator.
                    Test::Defined => !crate::value::is_missing(&v),
                    Test::Undefined => crate::value::is_missing(&v),
                    Test::None => crate::value::is_missing(&v),
                    Test::Number => v.kind() == ValueKind::Number,
                    Test::String => v.kind() == ValueKind::String,
                    Test::Mapping => v.kind() == ValueKind::Map,
                    Test::Boolean => v.kind() == ValueKind::Bool,
                    Test::Finite => as_number(&v).is_some_and(f64::is_finite),
                };
                Ok(Value::from(yes != *negate))
            }
            Node::If(cond, then, other) => {
                if cond.eval(row)?.is_true() {
                    then.eval(row)
                } else {
                    match other {
                        Some(o) => o.eval(row),
                        None => Ok(Value::UNDEFINED),
                    }
                }
            }
            Node::Call(f, args) => call(*f, args, row),
        }
    }
}

// The operators of `Node::eval`, one function each (inlined: they run per
// row, and split only so each reads on its own).

/// `a op b`: numbers and strings ordered as minijinja does; ordering a
/// string or null against a number is the error Python raises.
#[inline]
fn compare(op: Cmp, a: &Node, b: &Node, row: &Row) -> R {
    let (l, r) = (defined(a.eval(row)?)?, defined(b.eval(row)?)?);
    let strict = |v: &Value| matches!(v.kind(), ValueKind::String | ValueKind::None);
    if !matches!(op, Cmp::Eq | Cmp::Ne)
        && ((strict(&l) && r.kind() == ValueKind::Number)
            || (l.kind() == ValueKind::Number && strict(&r)))
    {
        return Err(ordering_mismatch(a, b, &l, &r));
    }
    let ord = match (int(&l), int(&r)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => match (plain(&l), plain(&r), l.as_str(), r.as_str()) {
            (Some(x), Some(y), _, _) => x.partial_cmp(&y).ok_or(Stop::Fallback)?,
            (_, _, Some(x), Some(y)) => x.cmp(y),
            _ if matches!(op, Cmp::Eq | Cmp::Ne)
                && l.kind() != ValueKind::Number
                && r.kind() != ValueKind::Number =>
            {
                let eq = l == r;
                return Ok(Value::from(if op == Cmp::Eq { eq } else { !eq }));
            }
            _ => return Err(Stop::Fallback),
        },
    };
    Ok(Value::from(op.holds(ord)))
}

/// Why a string or null cannot be ordered against a number (`l` of `a`,
/// `r` of `b`): the field and its spelling, for the message.
#[cold]
fn ordering_mismatch(a: &Node, b: &Node, l: &Value, r: &Value) -> Stop {
    let strict = |v: &Value| matches!(v.kind(), ValueKind::String | ValueKind::None);
    let (field, value, spelling) = if strict(l) {
        (path_of(a), l, spelled(a))
    } else {
        (path_of(b), r, spelled(b))
    };
    let other = if strict(l) { r } else { l };
    let what = if value.is_none() {
        "null".to_string()
    } else {
        format!("the string {}", crate::value::show(value))
    };
    Stop::Mismatch {
        why: format!(
            "{what} cannot be ordered against the number {other} (Python raises TypeError here; test the type first, e.g. `{} is number`)",
            spelling.as_deref().unwrap_or("x")
        ),
        field,
    }
}

/// `a in [..]` (`not in` with `negate`): numbers and strings only.
#[inline]
fn in_list(a: &Node, b: &Node, negate: bool, row: &Row) -> R {
    let Node::List(items) = b else {
        return Err(Stop::Fallback);
    };
    let needle = defined(a.eval(row)?)?;
    if plain(&needle).is_none() && needle.as_str().is_none() {
        return Err(Stop::Fallback);
    }
    let mut found = false;
    for item in items {
        let v = item.eval(row)?;
        let same = match (
            int(&needle),
            int(&v),
            plain(&needle),
            plain(&v),
            needle.as_str(),
            v.as_str(),
        ) {
            (Some(x), Some(y), ..) => x == y,
            (_, _, Some(x), Some(y), ..) => x == y,
            (.., Some(x), Some(y)) => x == y,
            (_, _, None, None, None, None) => return Err(Stop::Fallback),
            _ => false,
        };
        if same {
            found = true;
            break;
        }
    }
    Ok(Value::from(found != negate))
}

/// `a op b` for + - * /: integers exactly (declining on overflow), floats
/// declining on a non-finite result or a division by zero.
#[inline]
fn arith(op: Arith, a: &Node, b: &Node, row: &Row) -> R {
    let (l, r) = (a.eval(row)?, b.eval(row)?);
    if let (Some(x), Some(y), false) = (int(&l), int(&r), op == Arith::Div) {
        let v = match op {
            Arith::Add => x.checked_add(y),
            Arith::Sub => x.checked_sub(y),
            _ => x.checked_mul(y),
        };
        return v.map(Value::from).ok_or(Stop::Fallback);
    }
    let (x, y) = (
        plain(&l).ok_or(Stop::Fallback)?,
        plain(&r).ok_or(Stop::Fallback)?,
    );
    let v = match op {
        Arith::Add => x + y,
        Arith::Sub => x - y,
        Arith::Mul => x * y,
        Arith::Div if y == 0.0 => return Err(Stop::Fallback),
        Arith::Div => x / y,
    };
    if v.is_finite() {
        Ok(Value::from(v))
    } else {
        Err(Stop::Fallback)
    }
}

/// `a ~ b`: strings, plain numbers, booleans and nulls joined as text.
#[inline]
fn concat(a: &Node, b: &Node, row: &Row) -> R {
    let (l, r) = (defined(a.eval(row)?)?, defined(b.eval(row)?)?);
    let ok = |v: &Value| {
        matches!(
            v.kind(),
            ValueKind::String | ValueKind::Number | ValueKind::Bool | ValueKind::None
        )
    };
    if !(ok(&l) && ok(&r))
        || plain(&l).is_none() && l.kind() == ValueKind::Number
        || plain(&r).is_none() && r.kind() == ValueKind::Number
    {
        return Err(Stop::Fallback);
    }
    Ok(Value::from(format!("{l}{r}")))
}

/// `f(args)`: max, min, and the one-argument functions of a number.
#[inline]
fn call(f: Func, args: &[Node], row: &Row) -> R {
    let a = args
        .iter()
        .map(|x| x.eval(row))
        .collect::<Result<Vec<_>, _>>()?;
    match f {
        Func::Max | Func::Min => {
            // A left fold: the first of equal values wins.
            let mut best = 0;
            let mut x = plain(&a[0]).ok_or(Stop::Fallback)?;
            for (i, v) in a.iter().enumerate().skip(1) {
                let y = plain(v).ok_or(Stop::Fallback)?;
                if if f == Func::Max { y > x } else { y < x } {
                    (best, x) = (i, y);
                }
            }
            Ok(a[best].clone())
        }
        Func::Abs => match int(&a[0]) {
            Some(i) => i.checked_abs().map(Value::from).ok_or(Stop::Fallback),
            None => Ok(Value::from(plain(&a[0]).ok_or(Stop::Fallback)?.abs())),
        },
        _ => {
            let x = plain(&a[0]).ok_or(Stop::Fallback)?;
            math(f, x).map(Value::from).ok_or(Stop::Fallback)
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
