//! Which parts of a JSONL record a streamed table reads (see
//! [`crate::sources::json::Projection`]).

use super::steps::Step;
use crate::expr::Expr;

/// What a table whose steps start with row-wise steps and a group step
/// reads of its source: every field its expressions name, and, for an
/// exploded map read only as `value.attr`, only those attributes of each
/// entry. `None` when unsure (then whole records are built).
pub fn projection(steps: &[Step]) -> Option<crate::sources::json::Projection> {
    use std::collections::HashSet;
    let group_at = steps.iter().position(|s| matches!(s, Step::Group { .. }))?;
    if !steps[..group_at].iter().all(Step::is_row_wise) {
        return None;
    }
    let mut exprs: Vec<&Expr> = Vec::new();
    let mut names: HashSet<String> = HashSet::new();
    // (field, value, whether the field is the line's own, not made by an
    // earlier step)
    let mut explodes: Vec<(&str, &str, bool)> = Vec::new();
    let mut made: HashSet<&str> = HashSet::new();
    let mut group_keys: &[String] = &[];
    for step in &steps[..=group_at] {
        match step {
            Step::Filter(e) | Step::Require(e) => exprs.push(e),
            Step::Derive(fields) => {
                exprs.extend(fields.iter().map(|(_, e)| e));
                made.extend(fields.iter().map(|(n, _)| n.as_str()));
            }
            Step::Explode { field, key, value } => {
                names.insert(field.clone());
                explodes.push((field, value, !made.contains(field.as_str())));
                made.extend([key.as_str(), value.as_str()]);
            }
            Step::Group { keys, aggs } => {
                names.extend(keys.iter().cloned());
                group_keys = keys;
                for (_, a) in aggs {
                    exprs.extend(a.expr.iter().chain(a.weight.iter()));
                }
            }
            _ => return None,
        }
    }
    for e in &exprs {
        // `_ | tojson` may read any field.
        if e.reads_whole_row() {
            return None;
        }
        names.extend(e.variables());
    }
    let mut p = crate::sources::json::Projection::default();
    for n in names {
        p.fields.insert(n, None);
    }
    for &(field, value, own) in &explodes {
        // Entries keep only the attributes read as `value.attr`, unless
        // anything else sees the entries or the field whole: an expression
        // reading `value` or `field` other than by attribute or type test
        // (`m.ratio`, `methods is mapping`), another explode of `value`, a
        // group key. (Found by a helper's differential run: a nested
        // explode saw trimmed entries and silently lost rows.)
        let whole = !own
            || explodes.iter().any(|(f, _, _)| *f == value)
            || group_keys.iter().any(|k| k == value || k == field)
            || exprs
                .iter()
                .any(|e| !e.uses_only_attrs_of(value) || !e.uses_only_tests_of(field));
        if whole {
            continue;
        }
        // From the expression tree where there is one: `value['ratio']`
        // is a read of `ratio` too (minijinja's paths follow dots only).
        let keys: rustc_hash::FxHashSet<String> =
            exprs.iter().flat_map(|e| e.attrs_of(value)).collect();
        p.fields.insert(field.to_string(), Some(keys));
    }
    Some(p)
}
