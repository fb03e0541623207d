//! `artifact diff [REV] [REV2]`: what changed in the paper's numbers and
//! figures between a git revision and now, or between two revisions.
//!
//! Both sides are read from `artifact.lock` (what `gen` recorded: every
//! number's printed text, every input's and output's BLAKE3), at `REV`
//! through `git show REV:./artifact.lock` in the spec's folder and, for
//! "now", in the working tree. A number is listed when its printed text
//! differs (old -> new), with the input files of its sources whose hash
//! changed; a figure or results table when any of its files' hashes
//! differs. "Now" is what the last `gen` wrote; when that lock is behind
//! the data or the spec (as `artifact check --fast` finds), the diff also
//! says what `gen` would change.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::lock::{LOCK_FILE, Lock};
use crate::sources::globs;
use crate::spec::LoadedSpec;

/// A number whose printed text differs.
#[derive(Debug, Serialize)]
pub struct NumberDiff {
    pub key: String,
    /// Its text before (`None`: it did not exist).
    pub old: Option<String>,
    /// Its text after (`None`: it no longer exists).
    pub new: Option<String>,
    /// The input files of its sources whose hash changed.
    pub inputs: Vec<String>,
}

/// A figure or results table whose files differ.
#[derive(Debug, Serialize)]
pub struct OutputDiff {
    pub name: String,
    /// `differs`, `added` or `removed`.
    pub status: &'static str,
    /// The files that differ (or all of them, when added or removed).
    pub files: Vec<String>,
}

/// The differences between two sides.
#[derive(Debug, Serialize)]
pub struct Diff {
    /// The sides as named (`HEAD`, `working tree`).
    pub from: String,
    pub to: String,
    pub numbers: Vec<NumberDiff>,
    pub figures: Vec<OutputDiff>,
    pub results_tables: Vec<OutputDiff>,
    /// Input files whose hash changed.
    pub inputs: Vec<InputChange>,
    /// Against the working tree: what `gen` would change because the lock
    /// is behind the data or the spec (`check`'s finding); `None` when it
    /// is current, or when comparing two revisions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending: Option<Pending>,
}

/// What `gen` would change in the working tree (see [`Diff::pending`]).
#[derive(Debug, Serialize)]
pub struct Pending {
    /// Numbers whose text would change: `old` as committed, `new` from the
    /// data now, `inputs` the reason (`input changed: FILE`, ...).
    pub numbers: Vec<NumberDiff>,
    /// Figures and results tables whose files would change.
    pub figures: Vec<String>,
    pub results_tables: Vec<String>,
    /// The command that does it.
    pub fix: String,
}

/// What `gen` would change, when the working tree's lock is behind.
fn pending(spec: &LoadedSpec) -> Result<Option<Pending>> {
    let report = crate::check::check(spec, true)?;
    if !report.stale() {
        return Ok(None);
    }
    Ok(Some(Pending {
        numbers: report
            .numbers
            .iter()
            .map(|c| NumberDiff {
                key: c.key.clone(),
                old: c.committed.clone(),
                new: Some(c.now.clone()),
                inputs: vec![c.why()],
            })
            .collect(),
        figures: report.figures.iter().map(|f| f.0.clone()).collect(),
        results_tables: report.results_tables.iter().map(|f| f.0.clone()).collect(),
        fix: report.fix.clone(),
    }))
}

/// An input file whose hash changed.
#[derive(Debug, Serialize)]
pub struct InputChange {
    /// `changed`, `added` or `removed`.
    pub status: &'static str,
    pub file: String,
}

/// The lock at git revision `rev` in the spec's folder. Errors: git
/// missing or failing (not a repository, an unknown revision), no lock at
/// that revision, or one that does not parse.
pub(crate) fn lock_at(spec: &LoadedSpec, rev: &str) -> Result<Lock> {
    if rev.starts_with('-') {
        return Err(Error::msg(format!("`{rev}` is not a git revision")));
    }
    let bytes = crate::hook::git_bytes(&spec.root, &["show", &format!("{rev}:./{LOCK_FILE}")], None)
        .map_err(|e| {
            Error::msg(format!(
                "cannot read {LOCK_FILE} at revision {rev} ({e}); diff compares what `artifact gen` committed"
            ))
        })?;
    let text = String::from_utf8(bytes)
        .map_err(|_| Error::msg(format!("{LOCK_FILE} at {rev}: not UTF-8")))?;
    // toml's own text names the line and column (and the field).
    toml::from_str(&text).map_err(|e| {
        Error::msg(format!(
            "{LOCK_FILE} at {rev}: {}",
            e.to_string().trim_end()
        ))
    })
}

/// Compares `rev` (default `HEAD`) with `rev2` (default: the working tree).
pub fn diff(spec: &LoadedSpec, rev: Option<&str>, rev2: Option<&str>) -> Result<Diff> {
    let rev = rev.unwrap_or("HEAD");
    let old = lock_at(spec, rev)?;
    let (new, to) = match rev2 {
        Some(r) => (lock_at(spec, r)?, r.to_string()),
        None => (
            Lock::read(&spec.root)?.ok_or_else(|| {
                Error::msg(format!(
                    "no {LOCK_FILE} in the working tree: run `artifact gen` first"
                ))
            })?,
            "working tree".to_string(),
        ),
    };
    let mut inputs = Vec::new();
    for (f, h) in &new.inputs {
        match old.inputs.get(f) {
            None => inputs.push(("added", f.clone())),
            Some(o) if o != h => inputs.push(("changed", f.clone())),
            _ => {}
        }
    }
    inputs.extend(
        old.inputs
            .keys()
            .filter(|f| !new.inputs.contains_key(*f))
            .map(|f| ("removed", f.clone())),
    );
    inputs.sort_by(|a, b| a.1.cmp(&b.1));
    let inputs: Vec<InputChange> = inputs
        .into_iter()
        .map(|(status, file)| InputChange { status, file })
        .collect();
    let patterns = source_patterns(spec);
    let mut numbers = Vec::new();
    let keys: BTreeSet<&String> = old.numbers.keys().chain(new.numbers.keys()).collect();
    for k in keys {
        let (o, n) = (old.numbers.get(k), new.numbers.get(k));
        if o.map(|x| &x.text) == n.map(|x| &x.text) {
            continue;
        }
        let sources: BTreeSet<&String> =
            o.iter().chain(n.iter()).flat_map(|x| &x.sources).collect();
        let files: Vec<String> = inputs
            .iter()
            .filter(|c| {
                sources.iter().any(|s| {
                    patterns.get(s.as_str()).is_some_and(|ps| {
                        ps.iter().any(|p| p.matches_with(&c.file, globs::OPTIONS))
                    })
                })
            })
            .map(|c| c.file.clone())
            .collect();
        numbers.push(NumberDiff {
            key: k.clone(),
            old: o.map(|x| x.text.clone()),
            new: n.map(|x| x.text.clone()),
            inputs: files,
        });
    }
    let outputs = |a: &BTreeMap<String, crate::lock::LockedFigure>,
                   b: &BTreeMap<String, crate::lock::LockedFigure>| {
        let names: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
        names
            .into_iter()
            .filter_map(|name| match (a.get(name), b.get(name)) {
                (Some(x), Some(y)) => {
                    let files: Vec<String> = y
                        .outputs
                        .iter()
                        .filter(|f| old.outputs.get(*f) != new.outputs.get(*f))
                        .cloned()
                        .collect();
                    (!files.is_empty() || x.outputs != y.outputs).then(|| OutputDiff {
                        name: name.clone(),
                        status: "differs",
                        files,
                    })
                }
                (None, Some(y)) => Some(OutputDiff {
                    name: name.clone(),
                    status: "added",
                    files: y.outputs.clone(),
                }),
                (Some(x), None) => Some(OutputDiff {
                    name: name.clone(),
                    status: "removed",
                    files: x.outputs.clone(),
                }),
                (None, None) => None,
            })
            .collect::<Vec<_>>()
    };
    Ok(Diff {
        from: rev.to_string(),
        to,
        numbers,
        figures: outputs(&old.figures, &new.figures),
        results_tables: outputs(&old.results_tables, &new.results_tables),
        inputs,
        pending: match rev2 {
            None => pending(spec)?,
            Some(_) => None,
        },
    })
}

/// The paths a source names (`path`: a string or a list), as written.
pub(crate) fn source_paths(s: &crate::spec::SourceSpec) -> Vec<&str> {
    match s.path.as_ref().map(|p| p.get_ref()) {
        Some(toml::Value::String(p)) => vec![p.as_str()],
        Some(toml::Value::Array(a)) => a.iter().filter_map(|v| v.as_str()).collect(),
        _ => Vec::new(),
    }
}

/// Each source's path patterns (relative to the spec's folder, as the lock
/// names its inputs; matched with [`globs::OPTIONS`], as the sources
/// expand them).
pub(crate) fn source_patterns(spec: &LoadedSpec) -> BTreeMap<&str, Vec<glob::Pattern>> {
    spec.spec
        .sources
        .iter()
        .map(|(name, s)| {
            let pats = source_paths(s.get_ref())
                .into_iter()
                .filter_map(|p| glob::Pattern::new(p.trim_start_matches("./")).ok())
                .collect();
            (name.as_str(), pats)
        })
        .collect()
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

impl Diff {
    /// Whether nothing differs.
    pub fn is_empty(&self) -> bool {
        self.numbers.is_empty() && self.figures.is_empty() && self.results_tables.is_empty()
    }

    /// For the terminal: `key: old -> new (inputs changed: ...)` lines, then
    /// the figures and tables that differ.
    pub fn to_text(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(o, "{} -> {}", self.from, self.to);
        if self.is_empty() {
            let _ = writeln!(o, "no number's text and no figure differs");
            self.write_pending(&mut o);
            return o;
        }
        let side = |s: &Option<String>| s.clone().unwrap_or_else(|| "(none)".into());
        for n in &self.numbers {
            let why = if n.inputs.is_empty() {
                String::new()
            } else {
                format!(" (inputs changed: {})", n.inputs.join(", "))
            };
            let _ = writeln!(
                o,
                "number {}: {} -> {}{why}",
                n.key,
                side(&n.old),
                side(&n.new)
            );
        }
        for (what, list) in [
            ("figure", &self.figures),
            ("results table", &self.results_tables),
        ] {
            for f in list {
                let _ = writeln!(o, "{what} {} {}: {}", f.name, f.status, f.files.join(", "));
            }
        }
        self.write_pending(&mut o);
        o
    }

    /// What `gen` would change, after the locks' differences.
    fn write_pending(&self, o: &mut String) {
        let Some(p) = &self.pending else {
            return;
        };
        let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        let mut parts = Vec::new();
        for (n, what) in [
            (p.numbers.len(), "number"),
            (p.figures.len(), "figure"),
            (p.results_tables.len(), "results table"),
        ] {
            if n > 0 {
                parts.push(count(n, what));
            }
        }
        let what = match parts.is_empty() {
            true => "its outputs".to_string(),
            false => parts.join(", "),
        };
        let _ = writeln!(
            o,
            "\nartifact.lock is behind the data or the spec (`artifact check` is stale): `artifact gen` would change {what}:"
        );
        for n in &p.numbers {
            let _ = writeln!(
                o,
                "  number {}: {} -> {} ({})",
                n.key,
                n.old.as_deref().unwrap_or("(none)"),
                n.new.as_deref().unwrap_or("(none)"),
                n.inputs.join(", ")
            );
        }
        for f in &p.figures {
            let _ = writeln!(o, "  figure {f}");
        }
        for t in &p.results_tables {
            let _ = writeln!(o, "  results table {t}");
        }
        let _ = writeln!(o, "to bring them up to date: {}", p.fix);
    }

    /// A Markdown table for a rebuttal or camera-ready letter.
    pub fn to_markdown(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(
            o,
            "Changes from `{}` to {}:\n",
            cell(&self.from),
            cell(&self.to)
        );
        if let Some(p) = &self.pending {
            let _ = writeln!(
                o,
                "> artifact.lock is behind the data or the spec: `{}` would change {} numbers, {} figures and {} results tables.\n",
                cell(&p.fix),
                p.numbers.len(),
                p.figures.len(),
                p.results_tables.len()
            );
        }
        if self.is_empty() {
            let _ = writeln!(o, "No number and no figure changed.");
            return o;
        }
        if !self.numbers.is_empty() {
            let _ = writeln!(
                o,
                "| number | before | after | inputs changed |\n|---|---|---|---|"
            );
            for n in &self.numbers {
                let _ = writeln!(
                    o,
                    "| `{}` | {} | {} | {} |",
                    cell(&n.key),
                    cell(n.old.as_deref().unwrap_or("-")),
                    cell(n.new.as_deref().unwrap_or("-")),
                    cell(&n.inputs.join(", "))
                );
            }
        }
        let figs: Vec<String> = self
            .figures
            .iter()
            .chain(&self.results_tables)
            .map(|f| format!("{} ({})", f.name, f.status))
            .collect();
        if !figs.is_empty() {
            let _ = writeln!(o, "\nFigures and tables that changed: {}.", figs.join(", "));
        }
        o
    }

    /// As JSON (the fields of [`Diff`]).
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a diff is JSON");
        s.push('\n');
        s
    }
}
