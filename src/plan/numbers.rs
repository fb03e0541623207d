//! The numbers of the spec, compiled: each `[numbers.KEY]`'s value (an
//! aggregate), `where`, format and uncertainty, and for a family (`each`)
//! its key and description templates and `per` fields. Computed by the
//! `numbers` stage, in the order `super::order` gives.

use std::ops::Range;

use indexmap::IndexMap;
use toml::Spanned;

use super::aggregate::Agg;
use crate::error::{Error, Result};
use crate::expr::{Expr, Template};
use crate::format::Format;
use crate::spec::{LoadedSpec, NumberSpec, no_table};

/// A number declaration as the plan runs it.
#[derive(Debug)]
pub struct NumberPlan<'s> {
    /// The declaration as written (its table, description and format
    /// settings, spans for messages).
    pub decl: &'s Spanned<NumberSpec>,
    /// The table it reads (`table`), if any.
    pub table: Option<&'s str>,
    /// `value`, its expressions named after the table.
    pub value: Agg<'s>,
    /// `where`, named after the table.
    pub where_: Option<Expr<'s>>,
    /// `format`.
    pub format: Format,
    /// `uncertainty`, if given.
    pub uncertainty: Option<UncertaintyPlan<'s>>,
    /// What makes it a family (`each`), if it is one.
    pub family: Option<FamilyPlan<'s>>,
    /// The same number as a fold of its table's stream, when it can be one
    /// ([`super::fold`]).
    pub fold: Option<super::fold::Fold<'s>>,
}

/// What a family declaration adds to a number's.
#[derive(Debug)]
pub struct FamilyPlan<'s> {
    /// `each`: the member's key, rendered per row or group.
    pub each: Template<'s>,
    /// `description`, a template per member.
    pub description: Option<Template<'s>>,
    /// `per`: one member per group of these fields (none: per row).
    pub per: Option<Vec<String>>,
}

/// `uncertainty`: an aggregate for a symmetric uncertainty, or an interval
/// of two (`{ low = ..., high = ... }`); `span` is the setting's.
#[derive(Debug)]
pub enum UncertaintyPlan<'s> {
    /// `value ± u`.
    Symmetric {
        /// The aggregate giving `u`.
        agg: Box<Agg<'s>>,
        /// The setting's span.
        span: Range<usize>,
    },
    /// `[low, high]`.
    Interval {
        /// The aggregate giving the low bound.
        low: Box<Agg<'s>>,
        /// The aggregate giving the high bound.
        high: Box<Agg<'s>>,
        /// The setting's span.
        span: Range<usize>,
    },
}

fn known(spec: &LoadedSpec, name: &str) -> bool {
    spec.spec.tables.contains_key(name) || spec.spec.sources.contains_key(name)
}

/// Compiles every number of the spec, in declaration order, then orders
/// them: each after the tables and numbers it reads, or a cycle is an
/// error. Each number's first problem goes to `errors` (at its line and
/// column) and the others are still compiled; a number that failed is
/// left out. Returns the plans and the order they are computed in.
pub fn compile<'s>(
    spec: &'s LoadedSpec,
    errors: &mut Vec<Error>,
) -> (IndexMap<String, NumberPlan<'s>>, Vec<String>) {
    let reserved = super::keys::Reserved::of(spec);
    let mut plans = IndexMap::with_capacity(spec.spec.numbers.len());
    for (key, n) in &spec.spec.numbers {
        match number(spec, &reserved, key, n) {
            Ok(plan) => {
                plans.insert(key.clone(), plan);
            }
            Err(e) => errors.push(e),
        }
    }
    // Numbers and tables may read each other in any order, but not in a cycle.
    let order = super::order::order(spec).unwrap_or_else(|e| {
        errors.push(e);
        Vec::new()
    });
    (plans, order)
}

/// Number `key` (declared at `n`) compiled.
fn number<'s>(
    spec: &'s LoadedSpec,
    reserved: &super::keys::Reserved,
    key: &str,
    n: &'s Spanned<NumberSpec>,
) -> Result<NumberPlan<'s>> {
    let s = n.get_ref();
    let table = s.table.as_ref().map(|t| t.get_ref().as_str());
    // A key is a typst and a LaTeX name: a bad one is a spec error, found
    // before anything runs. (A family's name is no key; its members' keys
    // are checked as they are made.)
    let family = match &s.each {
        Some(each) => Some(family(spec, key, n, each, table)?),
        None => {
            if let Some(problem) = super::keys::key_problem(key, reserved) {
                let span = crate::spec::paths::key_span(spec, "numbers", key, n.span());
                return Err(spec.error(span, problem));
            }
            None
        }
    };
    if let Some(t) = &s.table
        && !known(spec, t.get_ref())
    {
        return Err(spec.error(
            t.span(),
            format!("number `{key}`: {}", no_table(spec, t.get_ref())),
        ));
    }
    let mut value = Agg::compile(spec, &s.value, true)?;
    let format = Format::compile(spec, &s.format, n.span())?;
    let where_ = match &s.where_ {
        Some(w) => Some(named(Expr::compile(spec, w)?, table)),
        None => None,
    };
    if let Some(t) = table {
        value.set_table(t);
    }
    let uncertainty = match &s.uncertainty {
        Some(raw) => Some(uncertainty(spec, raw, table)?),
        None => None,
    };
    let fold = table.and_then(|t| super::fold::compile(spec, n, t, family.as_ref()));
    Ok(NumberPlan {
        decl: n,
        table,
        value,
        where_,
        format,
        uncertainty,
        family,
        fold,
    })
}

/// `e` naming table `table` in its messages, if there is one.
fn named<'s>(e: Expr<'s>, table: Option<&str>) -> Expr<'s> {
    match table {
        Some(t) => e.in_table(t),
        None => e,
    }
}

/// A family's `each`, `per` and `description`.
fn family<'s>(
    spec: &'s LoadedSpec,
    name: &str,
    n: &'s Spanned<NumberSpec>,
    each: &'s crate::spec::SpannedStr,
    table: Option<&str>,
) -> Result<FamilyPlan<'s>> {
    let s = n.get_ref();
    let mut each = Template::compile(spec, each)?;
    let per = match &s.per {
        Some(p) => Some(super::steps::str_list(spec, p, "`per`")?),
        None => None,
    };
    let description = match &s.description {
        Some(d) => {
            let span = crate::spec::keys::span_of(&spec.text, &["numbers", name, "description"])
                .unwrap_or(n.span());
            let t = Template::compile_at(spec, d, span)?;
            Some(match table {
                Some(t2) => t.in_table(t2),
                None => t,
            })
        }
        None => None,
    };
    if let Some(t) = table {
        each = each.in_table(t);
    }
    Ok(FamilyPlan {
        each,
        description,
        per,
    })
}

/// `uncertainty`: an aggregate, or a table with both `low` and `high`.
pub(super) fn uncertainty<'s>(
    spec: &LoadedSpec,
    raw: &'s crate::spec::Raw,
    table: Option<&str>,
) -> Result<UncertaintyPlan<'s>> {
    let span = raw.span();
    let agg = |v: &'s toml::Value| -> Result<Agg<'s>> {
        let mut a = Agg::compile_at(spec, v, span.clone(), true)?;
        if let Some(t) = table {
            a.set_table(t);
        }
        Ok(a)
    };
    let toml::Value::Table(t) = raw.get_ref() else {
        return Ok(UncertaintyPlan::Symmetric {
            agg: Box::new(agg(raw.get_ref())?),
            span,
        });
    };
    if !t.contains_key("low") && !t.contains_key("high") {
        return Ok(UncertaintyPlan::Symmetric {
            agg: Box::new(agg(raw.get_ref())?),
            span,
        });
    }
    // Each bound, with the interval's span (toml::Value keeps no inner span).
    let bound = |name: &str| -> Result<Agg<'s>> {
        match t.get(name) {
            Some(v) => agg(v),
            None => Err(spec.error(span.clone(), "an interval has both `low` and `high`")),
        }
    };
    Ok(UncertaintyPlan::Interval {
        low: Box::new(bound("low")?),
        high: Box::new(bound("high")?),
        span: span.clone(),
    })
}
