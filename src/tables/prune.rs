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

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The chain of table `t` with `steps` (TOML), one term a line.
    fn of(steps: &str) -> Option<Vec<String>> {
        let text =
            format!("[sources.s]\npath = \"s.jsonl\"\n[tables.t]\nfrom = \"s\"\nsteps = {steps}\n");
        let spec = crate::spec::parse(&text, Path::new("artifact.toml")).unwrap();
        let steps: Vec<_> = spec.spec.tables["t"]
            .get_ref()
            .steps
            .iter()
            .map(|s| crate::plan::steps::compile(&spec, s).unwrap())
            .collect();
        let p = super::prune(std::iter::once(steps.as_slice()))?;
        Some(
            p.any[0]
                .iter()
                .map(|t| format!("{} {:?}", t.field, t.test))
                .collect(),
        )
    }

    #[test]
    fn the_leading_simple_terms_of_the_first_filters_are_the_chain() {
        assert_eq!(
            of(r#"[{ filter = "3 < step and k in ['a', 'b'] and m is mapping and x > 1" }]"#),
            Some(vec![
                "step Cmp(Gt, Num(3.0))".into(),
                r#"k In([Str("a"), Str("b")])"#.into(),
            ])
        );
        // A second filter counts only when the first was simple throughout.
        assert_eq!(
            of(
                r#"[{ filter = "step >= 2" }, { filter = "name == 'x'" }, { derive = { y = "1" } }, { filter = "y > 0" }]"#
            ),
            Some(vec![
                "step Cmp(Ge, Num(2.0))".into(),
                r#"name Cmp(Eq, Str("x"))"#.into(),
            ])
        );
        assert_eq!(
            of(r#"[{ filter = "m is mapping" }, { filter = "step > 2" }]"#),
            None
        );
        // Booleans and fields on both sides are no constants.
        assert_eq!(of(r#"[{ filter = "ok == true and a < b" }]"#), None);
        assert_eq!(
            of(r#"[{ group = "k", aggregate = { n = "count" } }]"#),
            None
        );
    }
}
