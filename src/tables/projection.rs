//! Which parts of a JSONL record a streamed table reads (see
//! [`crate::sources::json::Projection`]).

use crate::expr::Expr;
use crate::plan::steps::Step;

/// What a table whose steps start with row-wise steps and a group step
/// reads of its source: every field its expressions name, and, for an
/// exploded map read only as `value.attr`, only those attributes of each
/// entry. `None` when unsure (then whole records are built).
pub fn projection(steps: &[Step]) -> Option<crate::sources::json::Projection> {
    let group_at = steps.iter().position(|s| matches!(s, Step::Group { .. }))?;
    projection_until(steps, group_at, true, None)
}

/// What a streamed table reads of its source through `steps[..end]` and,
/// with `sink`, the group or pivot step at `end`; without one, the rows
/// that come out keep the fields in `keep` too (whole). `None` when unsure
/// or when the rows keep every field.
pub fn projection_until(
    steps: &[Step],
    end: usize,
    sink: bool,
    keep: Option<&std::collections::BTreeSet<String>>,
) -> Option<crate::sources::json::Projection> {
    use std::collections::HashSet;
    if !sink && keep.is_none() {
        return None;
    }
    let last = if sink { end + 1 } else { end };
    let out: Vec<String> = keep
        .map(|k| k.iter().cloned().collect())
        .unwrap_or_default();
    let mut exprs: Vec<&Expr> = Vec::new();
    let mut names: HashSet<String> = HashSet::new();
    // (field, value, whether the field is the line's own, not made by an
    // earlier step)
    let mut explodes: Vec<(&str, &str, bool)> = Vec::new();
    let mut made: HashSet<&str> = HashSet::new();
    let mut group_keys: Vec<String> = out.clone();
    names.extend(out.iter().cloned());
    for step in steps.get(..last)? {
        match step {
            Step::Filter(e, _) | Step::Require(e) => exprs.push(e),
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
                group_keys.extend(keys.iter().cloned());
                for (_, a) in aggs {
                    exprs.extend(
                        a.expr
                            .iter()
                            .chain(a.weight.iter())
                            .chain(a.field.iter())
                            .chain(a.groups.iter().map(|(by, _)| by)),
                    );
                }
            }
            Step::Pivot(pv) => {
                let read = [&pv.field, &pv.value].into_iter().chain(&pv.per);
                names.extend(read.clone().cloned());
                group_keys.extend(read.cloned());
            }
            // The serial stage reads its keys whole.
            Step::Unique { keys: read, .. }
            | Step::Lookup { on: read, .. }
            | Step::Limit { per: read, .. }
            | Step::RowNumber { per: read, .. } => {
                names.extend(read.iter().cloned());
                group_keys.extend(read.iter().cloned());
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
    // A field read only as `field.entry.attr` (and type tests): its
    // entries that are maps keep only the attributes read (`methods.
    // bf16_split.ratio` keeps each method's `ratio`, not its dozen other
    // numbers).
    let exploded: HashSet<&str> = explodes.iter().map(|(f, _, _)| *f).collect();
    for (name, keys) in p.fields.iter_mut() {
        if keys.is_some()
            || exploded.contains(name.as_str())
            || made.contains(name.as_str())
            || group_keys.iter().any(|k| k == name)
        {
            continue;
        }
        let mut attrs = Vec::new();
        let only = exprs.iter().all(|e| match e.fast() {
            Some(node) => node.entry_attrs_of(name, &mut attrs),
            None => !e.variables().iter().any(|v| v == name),
        });
        if only && !attrs.is_empty() {
            *keys = Some(attrs.into_iter().collect());
        }
    }
    // A field read only as `field.attr`: a struct column decodes only the
    // attributes read (Parquet; a JSONL line builds the field whole).
    for (name, keys) in &p.fields {
        if keys.is_some()
            || exploded.contains(name.as_str())
            || made.contains(name.as_str())
            || group_keys.iter().any(|k| k == name)
            || !exprs.iter().all(|e| e.uses_only_attrs_of(name))
        {
            continue;
        }
        let attrs: rustc_hash::FxHashSet<String> =
            exprs.iter().flat_map(|e| e.attrs_of(name)).collect();
        if !attrs.is_empty() {
            p.attrs.insert(name.clone(), attrs);
        }
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The projection of table `t` with `steps` (TOML), as sorted
    /// `field` or `field: key, key` lines.
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
        let p = super::projection(&steps)?;
        let mut out: Vec<String> = p
            .fields
            .iter()
            .map(|(f, keys)| match keys {
                None => f.clone(),
                Some(k) => {
                    let mut k: Vec<&str> = k.iter().map(String::as_str).collect();
                    k.sort();
                    format!("{f}: {}", k.join(", "))
                }
            })
            .collect();
        out.sort();
        Some(out)
    }

    #[test]
    fn a_field_read_through_the_row_is_projected() {
        assert_eq!(
            of(
                r#"[{ filter = "_['execution time'] > 3" }, { group = "k", aggregate = { s = { sum = "_.x" } } }]"#
            ),
            Some(vec!["execution time".into(), "k".into(), "x".into()])
        );
        // The entries of an exploded map keep the attributes read, by
        // subscript too.
        assert_eq!(
            of(
                r#"[{ explode = "m" }, { group = "k", aggregate = { r = { sum = "value['a b']" }, q = { sum = "_['value'].ratio" } } }]"#
            ),
            // (`value` is made by the explode; a line's own `value` is read too.)
            Some(vec!["k".into(), "m: a b, ratio".into(), "value".into()])
        );
    }

    #[test]
    fn a_map_read_as_entry_attributes_keeps_only_those() {
        assert_eq!(
            of(
                r#"[{ filter = "m is mapping and m.a is mapping and m.a.r > 0" }, { group = "k", aggregate = { s = { sum = "m.b.q" } } }]"#
            ),
            Some(vec!["k".into(), "m: q, r".into()])
        );
        // An entry read as a value is read whole.
        assert_eq!(
            of(
                r#"[{ derive = { e = "m.a" } }, { group = "k", aggregate = { s = { sum = "m.b.q" } } }]"#
            ),
            Some(vec!["k".into(), "m".into()])
        );
    }

    #[test]
    fn the_row_used_whole_reads_every_field() {
        assert_eq!(
            of(
                r#"[{ derive = { n = "_ | length" } }, { group = "k", aggregate = { n = { max = "n" } } }]"#
            ),
            None
        );
    }
}
