//! `artifact check --report FILE`: a report for artifact evaluators.
//!
//! Everything is recomputed from the inputs on disk (as `check` does) and
//! set beside what the authors committed (`artifact.lock` and the output
//! files): the tool and platform, every input with its BLAKE3 hash (now,
//! and whether it is the committed one), every number as committed and
//! recomputed, every figure and results table as identical or differing.
//!
//! With a tolerance (`2%` relative, or an absolute `0.05`), a number
//! recomputed from re-measured data counts as reproduced when it is within
//! the tolerance of the committed value; the report then fails (exit 1)
//! only on numbers that are not, since figures drawn from re-measured data
//! cannot be byte-identical (they are listed as differing, to compare by
//! eye). Without one, the exit code is `check`'s. The report has no
//! timestamp: the same tree gives the same bytes.
//!
//! Its Markdown escapes every text from data or the spec as `NAME.md`
//! does (`results::markdown::escape`): a file name or a number's text
//! cannot add markup, HTML or a row to it.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::check::CheckReport;
use crate::error::{Error, Result};
use crate::lock::{Lock, LockedNumber, tool};
use crate::spec::LoadedSpec;

mod cells;
mod markdown;

/// How far a recomputed number may be from the committed one.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "kind", content = "by", rename_all = "lowercase")]
pub enum Tolerance {
    /// A fraction of the committed value's magnitude (`2%` is 0.02).
    Relative(f64),
    /// An absolute difference, in the number's unit.
    Absolute(f64),
}

impl Tolerance {
    /// Parses `2%` (relative) or `0.05` (absolute). Errors on a negative,
    /// non-finite or unreadable tolerance.
    pub fn parse(s: &str) -> Result<Tolerance> {
        let t = s.trim();
        let (num, pct) = match t.strip_suffix('%') {
            Some(n) => (n.trim(), true),
            None => (t, false),
        };
        let v: f64 = num.parse().ok().filter(|v: &f64| v.is_finite() && *v >= 0.0).ok_or_else(|| {
            Error::msg(format!(
                "--tolerance `{s}`: expected a percentage (`2%`) or an absolute difference (`0.05`), not negative"
            ))
        })?;
        Ok(if pct {
            Tolerance::Relative(v / 100.0)
        } else {
            Tolerance::Absolute(v)
        })
    }

    fn allows(&self, committed: f64, now: f64) -> bool {
        let d = (now - committed).abs();
        match self {
            Tolerance::Relative(r) => d <= r * committed.abs(),
            Tolerance::Absolute(a) => d <= *a,
        }
    }

    fn describe(&self) -> String {
        match self {
            Tolerance::Relative(r) => format!("{}% (relative)", fmt_g(r * 100.0)),
            Tolerance::Absolute(a) => format!("{} (absolute)", fmt_g(*a)),
        }
    }
}

/// An input file: its hash now and how it stands against the lock.
#[derive(Debug, Serialize)]
pub struct Input {
    pub file: String,
    /// BLAKE3 of its bytes now (`None` when it is gone).
    pub blake3: Option<String>,
    /// `same`, `changed`, `added` (not in the lock) or `removed`.
    pub status: &'static str,
}

/// A number as committed and as recomputed.
#[derive(Debug, Serialize)]
pub struct NumberRow {
    pub key: String,
    pub committed: Option<String>,
    pub recomputed: Option<String>,
    /// The recomputed value minus the committed one (full precision), and
    /// that as a fraction of the committed value.
    pub difference: Option<f64>,
    pub relative: Option<f64>,
    /// `identical`, `within tolerance`, `differs`, `new`, `removed`,
    /// `not computed`.
    pub status: &'static str,
    /// With a tolerance, the bound of its interval (or of `value ± u`) that
    /// is not within it, when the value is: `high 0.2823 -> 0.2954`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<String>,
    pub reproduced: bool,
}

/// A figure's or results table's files: identical to the committed ones or not.
#[derive(Debug, Serialize)]
pub struct OutputRow {
    pub name: String,
    /// `identical` or `differs`.
    pub status: &'static str,
    /// The files that differ (all of them when identical: what was compared).
    pub files: Vec<String>,
    /// A results table's cells against the committed `NAME.csv` (with the
    /// tolerance): they count in the verdict as numbers do.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cells: Option<cells::Cells>,
}

/// The whole report.
#[derive(Debug, Serialize)]
pub struct Evaluation {
    pub tool: String,
    pub platform: String,
    /// The spec's BLAKE3 now and whether the lock records the same.
    pub spec: String,
    pub spec_committed: bool,
    pub tolerance: Option<Tolerance>,
    pub inputs: Vec<Input>,
    pub numbers: Vec<NumberRow>,
    pub figures: Vec<OutputRow>,
    pub results_tables: Vec<OutputRow>,
    /// Parts that could not be computed.
    pub errors: Vec<String>,
    /// Whether every number is reproduced (and, without a tolerance,
    /// every output identical): the exit code's 0.
    pub reproduced: bool,
}

/// Recomputes everything and compares (see the module docs). Returns the
/// evaluation and `check`'s report of the same build (its exit code
/// applies when there is no tolerance). `target`, the file the report
/// will be written to, may not be the spec, the lock, an input or an
/// output: that is an error before anything is written.
pub fn evaluate(
    spec: &LoadedSpec,
    tolerance: Option<Tolerance>,
    target: Option<&Path>,
) -> Result<(Evaluation, CheckReport)> {
    let lock = Lock::read(&spec.root)?;
    let mut build = crate::run::build(spec, &[], None)?;
    if let Some(t) = target {
        refuse_own_files(spec, &build, t)?;
    }
    let errors: Vec<String> = build.errors.iter().map(ToString::to_string).collect();
    let numbers = numbers(&build, lock.as_ref(), tolerance);
    let outputs = |list: &[crate::run::FigureBuild]| -> Vec<OutputRow> {
        list.iter()
            .map(|f| {
                let differ: Vec<String> = f
                    .outputs
                    .iter()
                    .filter(|o| {
                        crate::output::read_output(&spec.root, &o.rel).as_deref()
                            != Some(&o.bytes[..])
                    })
                    .map(|o| o.rel.clone())
                    .collect();
                OutputRow {
                    cells: None,
                    name: f.name.clone(),
                    status: if differ.is_empty() {
                        "identical"
                    } else {
                        "differs"
                    },
                    files: if differ.is_empty() {
                        f.outputs.iter().map(|o| o.rel.clone()).collect()
                    } else {
                        differ
                    },
                }
            })
            .collect()
    };
    let figures = outputs(&build.figures);
    let mut results_tables = outputs(&build.results);
    for (row, t) in results_tables.iter_mut().zip(&build.results) {
        let Some(csv) = t.outputs.iter().find(|o| o.rel.ends_with(".csv")) else {
            continue;
        };
        let committed = crate::output::read_output(&spec.root, &csv.rel).unwrap_or_default();
        row.cells = Some(cells::compare(&committed, &csv.bytes, tolerance));
    }
    let now = build.fingerprint.inputs();
    let mut inputs: Vec<Input> = now
        .iter()
        .map(|(f, h)| Input {
            file: f.clone(),
            blake3: Some(h.clone()),
            status: match lock.as_ref().map(|l| l.inputs.get(f)) {
                Some(Some(old)) if old == h => "same",
                Some(Some(_)) => "changed",
                _ => "added",
            },
        })
        .collect();
    if let Some(l) = &lock {
        inputs.extend(
            l.inputs
                .keys()
                .filter(|f| !now.contains_key(*f))
                .map(|f| Input {
                    file: f.clone(),
                    blake3: None,
                    status: "removed",
                }),
        );
    }
    let spec_hash = build.fingerprint.spec.clone();
    let spec_committed = lock.as_ref().is_some_and(|l| l.spec == spec_hash);
    let fix = crate::check::fix_command(&spec.root);
    let leftovers = Vec::new();
    let report = crate::check::compare(spec, &mut build, lock.as_ref(), fix, leftovers);
    let numbers_ok = numbers.iter().all(|n| n.reproduced)
        && results_tables
            .iter()
            .all(|t| t.cells.as_ref().is_none_or(cells::Cells::all));
    let reproduced = errors.is_empty()
        && match tolerance {
            Some(_) => numbers_ok,
            None => numbers_ok && !report.stale(),
        };
    Ok((
        Evaluation {
            tool: tool(),
            platform: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
            spec: spec_hash,
            spec_committed,
            tolerance,
            inputs,
            numbers,
            figures,
            results_tables,
            errors,
            reproduced,
        },
        report,
    ))
}

/// An error when `target` is one of the files artifact reads or writes
/// for `spec` (compared as canonical paths: `./x/../artifact.toml` too).
fn refuse_own_files(spec: &LoadedSpec, build: &crate::run::Build, target: &Path) -> Result<()> {
    let canonical = |p: &Path| -> Option<PathBuf> {
        let parent = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(parent.canonicalize().ok()?.join(p.file_name()?))
    };
    let Some(t) = canonical(target) else {
        return Ok(());
    };
    let root = spec
        .root
        .canonicalize()
        .unwrap_or_else(|_| spec.root.clone());
    let mut own: Vec<(String, &str)> = vec![
        (crate::spec::SPEC_FILE.into(), "the spec"),
        (crate::lock::LOCK_FILE.into(), "the lock"),
    ];
    own.extend(
        crate::run::all_outputs(spec)
            .into_iter()
            .map(|o| (o, "an output")),
    );
    own.extend(
        build
            .fingerprint
            .inputs()
            .into_keys()
            .map(|i| (i, "an input")),
    );
    for (rel, what) in own {
        if canonical(&root.join(&rel)).as_deref() == Some(t.as_path()) {
            return Err(Error::msg(format!(
                "--report {}: that is {what} ({rel}); write the report to another file",
                crate::error::shown(&target.display().to_string())
            )));
        }
    }
    Ok(())
}

/// Every number of the build and of the lock, in key order.
fn numbers(
    build: &crate::run::Build,
    lock: Option<&Lock>,
    tolerance: Option<Tolerance>,
) -> Vec<NumberRow> {
    let mut keys: std::collections::BTreeMap<&str, (Option<&LockedNumber>, Option<LockedNumber>)> =
        std::collections::BTreeMap::new();
    for n in &build.numbers {
        keys.entry(&n.key).or_default().1 = Some(LockedNumber::from_number(n, String::new()));
    }
    if let Some(l) = lock {
        for (k, n) in &l.numbers {
            keys.entry(k).or_default().0 = Some(n);
        }
    }
    let failed: Vec<String> = build.errors.iter().map(ToString::to_string).collect();
    keys.into_iter()
        .map(|(key, (old, now))| {
            let value = |n: &LockedNumber| n.value.parse::<f64>().ok().filter(|v| v.is_finite());
            let (difference, relative) = match (old.and_then(value), now.as_ref().and_then(value)) {
                (Some(a), Some(b)) => (Some(b - a), (a != 0.0).then(|| (b - a) / a.abs())),
                _ => (None, None),
            };
            let mut bound = None;
            let status = match (old, &now) {
                (Some(o), Some(n)) if o.text == n.text => "identical",
                (Some(o), Some(n)) => match (tolerance, value(o), value(n)) {
                    (Some(t), Some(a), Some(b)) if t.allows(a, b) => {
                        bound = bound_off(t, o, n);
                        if bound.is_none() {
                            "within tolerance"
                        } else {
                            "differs"
                        }
                    }
                    _ => "differs",
                },
                (None, Some(_)) => "new",
                (Some(_), None) if failed.iter().any(|e| e.contains(&format!("`{key}`"))) => {
                    "not computed"
                }
                (Some(_), None) => "removed",
                (None, None) => unreachable!("a key comes from one side"),
            };
            NumberRow {
                key: key.to_string(),
                committed: old.map(|o| o.text.clone()),
                recomputed: now.as_ref().map(|n| n.text.clone()),
                difference,
                relative,
                status,
                bound,
                reproduced: matches!(status, "identical" | "within tolerance"),
            }
        })
        .collect()
}

impl Evaluation {
    /// The report as JSON (the fields of [`Evaluation`]).
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a report is JSON");
        s.push('\n');
        s
    }
}

/// A number's interval as (low, high): `value ± u` or its `low` and
/// `high`; `None` without an uncertainty.
fn bounds(n: &LockedNumber) -> Option<(f64, f64)> {
    let u: serde_json::Value = serde_json::from_str(n.uncertainty.as_deref()?).ok()?;
    match crate::numbers::uncertainty::from_json(&u)? {
        crate::numbers::uncertainty::Uncertainty::Symmetric(u) => {
            let v = n.value.parse::<f64>().ok()?;
            Some((v - u, v + u))
        }
        crate::numbers::uncertainty::Uncertainty::Interval { low, high } => Some((low, high)),
    }
}

/// The bound of `now`'s interval not within `t` of `old`'s (the low one
/// first), as `low 0.1763 -> 0.1802`; an interval only one side has is
/// off too.
fn bound_off(t: Tolerance, old: &LockedNumber, now: &LockedNumber) -> Option<String> {
    match (bounds(old), bounds(now)) {
        (None, None) => None,
        (Some((a0, a1)), Some((b0, b1))) => [("low", a0, b0), ("high", a1, b1)]
            .into_iter()
            .find(|(_, a, b)| !t.allows(*a, *b))
            .map(|(which, a, b)| format!("{which} {} -> {}", fmt_g(a), fmt_g(b))),
        (Some(_), None) => Some("the interval is gone".into()),
        (None, Some(_)) => Some("an interval is new".into()),
    }
}

/// A float in its shortest form that reads back the same (`2`, `0.5`).
fn fmt_g(v: f64) -> String {
    let s = format!("{v}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerances() {
        assert_eq!(Tolerance::parse("2%").unwrap(), Tolerance::Relative(0.02));
        assert_eq!(Tolerance::parse("0.05").unwrap(), Tolerance::Absolute(0.05));
        assert!(Tolerance::parse("-1%").is_err());
        assert!(Tolerance::parse("two").is_err());
        assert!(Tolerance::Relative(0.02).allows(100.0, 101.9));
        assert!(!Tolerance::Relative(0.02).allows(100.0, 102.1));
        assert!(Tolerance::Absolute(0.05).allows(-1.0, -1.04));
        assert_eq!(Tolerance::Relative(0.02).describe(), "2% (relative)");
    }
}
