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

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::check::CheckReport;
use crate::error::{Error, Result};
use crate::lock::{Lock, LockedNumber, tool};
use crate::results::markdown::escape;
use crate::spec::LoadedSpec;

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
    let results_tables = outputs(&build.results);
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
    let numbers_ok = numbers.iter().all(|n| n.reproduced);
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
            let status = match (old, &now) {
                (Some(o), Some(n)) if o.text == n.text => "identical",
                (Some(o), Some(n)) => match (tolerance, value(o), value(n)) {
                    (Some(t), Some(a), Some(b)) if t.allows(a, b) => "within tolerance",
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
                reproduced: matches!(status, "identical" | "within tolerance"),
            }
        })
        .collect()
}

/// A float in its shortest form that reads back the same (`2`, `0.5`).
fn fmt_g(v: f64) -> String {
    let s = format!("{v}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// `v` with a sign and four significant digits (`+0.5100`, `-1234`).
fn significant(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        return format!("{:+}", v as i64);
    }
    let e = v.abs().log10().floor() as i32;
    format!("{:+.*}", (3 - e).max(0) as usize, v)
}

impl Evaluation {
    /// The report as JSON (the fields of [`Evaluation`]).
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a report is JSON");
        s.push('\n');
        s
    }

    /// The report as Markdown: a summary, then a table each of inputs,
    /// numbers, figures and results tables.
    pub fn to_markdown(&self) -> String {
        let mut o = String::new();
        let numbers_off: Vec<&NumberRow> = self.numbers.iter().filter(|n| !n.reproduced).collect();
        let figures_off = self
            .figures
            .iter()
            .chain(&self.results_tables)
            .filter(|f| f.status != "identical")
            .count();
        let _ = writeln!(o, "# Reproduction report\n");
        let verdict = if self.reproduced {
            "reproduced"
        } else {
            "NOT reproduced"
        };
        let _ = writeln!(
            o,
            "**Result: {verdict}.** {} of {} numbers reproduced{}; {} of {} figures and results tables identical.\n",
            self.numbers.len() - numbers_off.len(),
            self.numbers.len(),
            match self.tolerance {
                Some(t) => format!(" within {}", t.describe()),
                None => " (printed text identical)".into(),
            },
            self.figures.len() + self.results_tables.len() - figures_off,
            self.figures.len() + self.results_tables.len(),
        );
        if !numbers_off.is_empty() {
            let keys: Vec<String> = numbers_off.iter().map(|n| escape(&n.key)).collect();
            let _ = writeln!(o, "Not reproduced: {}.\n", keys.join(", "));
        }
        let _ = writeln!(o, "- tool: {}", self.tool);
        let _ = writeln!(o, "- platform: {}", self.platform);
        let _ = writeln!(
            o,
            "- spec: artifact.toml, BLAKE3 `{}` ({})",
            self.spec,
            if self.spec_committed {
                "as committed"
            } else {
                "changed since the lock"
            }
        );
        let _ = writeln!(
            o,
            "- tolerance: {}\n",
            self.tolerance
                .map_or("none (numbers must print the same)".into(), |t| t
                    .describe())
        );
        let _ = writeln!(
            o,
            "## Inputs\n\n| file | BLAKE3 | against the lock |\n|---|---|---|"
        );
        for i in &self.inputs {
            let _ = writeln!(
                o,
                "| {} | `{}` | {} |",
                escape(&i.file),
                i.blake3.as_deref().unwrap_or("-"),
                i.status
            );
        }
        let _ = writeln!(
            o,
            "\n## Numbers\n\nCommitted: the text `artifact gen` recorded in artifact.lock; \
             recomputed: from the inputs on disk now.\n\n\
             | key | committed | recomputed | difference | status |\n|---|---|---|---|---|"
        );
        for n in &self.numbers {
            let diff = match (n.difference, n.relative) {
                (Some(0.0), _) => "0".to_string(),
                (Some(d), Some(r)) => format!("{} ({:+.2}%)", significant(d), r * 100.0),
                (Some(d), None) => significant(d),
                _ => "-".into(),
            };
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} | {} |",
                escape(&n.key),
                escape(n.committed.as_deref().unwrap_or("-")),
                escape(n.recomputed.as_deref().unwrap_or("-")),
                diff,
                if n.reproduced {
                    n.status.to_string()
                } else {
                    format!("**{}**", n.status)
                }
            );
        }
        for (title, rows) in [
            ("Figures", &self.figures),
            ("Results tables", &self.results_tables),
        ] {
            if rows.is_empty() {
                continue;
            }
            let _ = writeln!(
                o,
                "\n## {title}\n\n| name | status | files |\n|---|---|---|"
            );
            for f in rows {
                let _ = writeln!(
                    o,
                    "| {} | {} | {} |",
                    escape(&f.name),
                    f.status,
                    escape(&f.files.join(", "))
                );
            }
        }
        if !self.errors.is_empty() {
            let _ = writeln!(o, "\n## Errors\n");
            for e in &self.errors {
                let _ = writeln!(o, "- {}", escape(e));
            }
        }
        o
    }
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
        assert_eq!(significant(0.5100000000000016), "+0.5100");
        assert_eq!(significant(-1234.5), "-1234");
        assert_eq!(significant(15.0), "+15");
    }
}
