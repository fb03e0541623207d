//! What the tables streaming one source require of every row before any
//! other step: the simple comparisons their first `filter`s start with, for
//! a Parquet source to skip what cannot pass (see
//! [`crate::sources::prune`]).

use crate::expr::Expr;
use crate::expr::fast::{Cmp, Node};
use crate::plan::steps::Step;
use crate::sources::prune::{Lit, Prune, Term, Test};

/// The chains of the tables whose steps are `steps`, or `None` when one of
/// them starts with no simple comparison (it reads every row).
pub fn prune<'a, 's: 'a>(steps: impl Iterator<Item = &'a [Step<'s>]>) -> Option<Prune> {
    let mut any = Vec::new();
    for s in steps {
        let chain = chain(s);
        if chain.is_empty() {
            return None;
        }
        any.push(chain);
    }
    (!any.is_empty()).then_some(Prune { any })
}

/// The terms every row must pass: the leading simple terms of the first
/// filter's `and` chain, and of the next filters' while every term before
/// was simple (a term that is not might fail on a row a skip would hide).
fn chain(steps: &[Step]) -> Vec<Term> {
    let mut out = Vec::new();
    for step in steps {
        let Step::Filter(e, terms) = step else {
            break;
        };
        let terms: Vec<&Expr> = match terms.is_empty() {
            true => vec![e],
            false => terms.iter().collect(),
        };
        for t in terms {
            match t.fast().and_then(term) {
                Some(t) => out.push(t),
                None => return out,
            }
        }
    }
    out
}

/// `field op constant`, `constant op field` or `field in [constants]`.
fn term(node: &Node) -> Option<Term> {
    let (field, test) = match node {
        Node::Compare(op, a, b) => match (&**a, &**b) {
            (Node::Var(f), Node::Const(c)) => (f, Test::Cmp(*op, lit(c)?)),
            (Node::Const(c), Node::Var(f)) => (f, Test::Cmp(flip(*op), lit(c)?)),
            _ => return None,
        },
        Node::In(a, list, false) => match (&**a, &**list) {
            (Node::Var(f), Node::List(items)) => {
                let lits = items
                    .iter()
                    .map(|n| match n {
                        Node::Const(c) => lit(c),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()?;
                (f, Test::In(lits))
            }
            _ => return None,
        },
        _ => return None,
    };
    Some(Term {
        field: field.to_string(),
        test,
    })
}

/// A number (not a boolean) or a text.
fn lit(v: &crate::value::Value) -> Option<Lit> {
    if v.kind() == minijinja::value::ValueKind::Bool {
        return None;
    }
    match (crate::value::as_number(v), v.as_str()) {
        (Some(x), _) => Some(Lit::Num(x)),
        (None, Some(s)) => Some(Lit::Str(s.to_string())),
        _ => None,
    }
}

/// `c op x` as `x op' c`.
fn flip(op: Cmp) -> Cmp {
    match op {
        Cmp::Lt => Cmp::Gt,
        Cmp::Le => Cmp::Ge,
        Cmp::Gt => Cmp::Lt,
        Cmp::Ge => Cmp::Le,
        other => other,
    }
}
