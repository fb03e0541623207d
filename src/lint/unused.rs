//! Declared numbers, figures and results tables that the paper never uses
//! (warnings).

use std::collections::BTreeSet;

use super::{Finding, Severity, stem};
use crate::lock::Lock;
use crate::spec::LoadedSpec;

/// Declared numbers, figures and results tables the paper never uses.
pub(super) fn unused(
    spec: &LoadedSpec,
    lock: &Lock,
    used_keys: &BTreeSet<&str>,
    used_paths: &BTreeSet<String>,
    used_names: &BTreeSet<String>,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let place = |section: &str, name: &str, span: std::ops::Range<usize>| {
        let span = crate::spec::paths::key_span(spec, section, name, span);
        spec.line_col(span.start)
    };
    // The lock's numbers by declaration (a family's name for its members),
    // in key order: found once, not by reading the lock for each number.
    let mut by_decl: std::collections::HashMap<&str, Vec<&str>> = Default::default();
    for (k, l) in &lock.numbers {
        by_decl
            .entry(l.family.as_deref().unwrap_or(k))
            .or_default()
            .push(k);
    }
    for (name, n) in &spec.spec.numbers {
        let members = by_decl.get(name.as_str()).cloned().unwrap_or_default();
        if members.is_empty() || members.iter().any(|k| used_keys.contains(k)) {
            continue;
        }
        let (line, column) = place("numbers", name, n.span());
        let message = if crate::numbers::family::is_family(spec, name) {
            format!(
                "no number of family `{name}` ({}) is used in the paper",
                members.join(", ")
            )
        } else {
            format!("number `{name}` is used nowhere in the paper")
        };
        out.push(Finding {
            file: crate::spec::SPEC_FILE.into(),
            line,
            column,
            severity: Severity::Warning,
            kind: "unused-number",
            message,
        });
    }
    let included = |outputs: &[String]| {
        outputs.iter().any(|o| {
            let s = stem(o);
            used_paths.contains(&s) || used_names.contains(s.rsplit('/').next().unwrap_or(&s))
        })
    };
    let figures = spec
        .spec
        .figures
        .iter()
        .map(|(n, f)| (n, f.span(), lock.figures.get(n)));
    let tables = spec
        .spec
        .results_tables
        .iter()
        .map(|(n, r)| (n, r.span(), lock.results_tables.get(n)));
    let kinds = figures
        .map(|(n, span, l)| ("figures", "figure", "unused-figure", n, span, l))
        .chain(tables.map(|(n, span, l)| {
            (
                "results_tables",
                "results table",
                "unused-table",
                n,
                span,
                l,
            )
        }));
    for (section, what, kind, name, span, locked) in kinds {
        if let Some(l) = locked
            && !l.outputs.is_empty()
            && !included(&l.outputs)
        {
            let (line, column) = place(section, name, span);
            out.push(Finding {
                file: crate::spec::SPEC_FILE.into(),
                line,
                column,
                severity: Severity::Warning,
                kind,
                message: format!(
                    "{what} `{name}` ({}) is never included in the paper",
                    l.outputs.join(", ")
                ),
            });
        }
    }
    out
}
