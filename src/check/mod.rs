//! `artifact check`: recompute everything in memory, write nothing, and say
//! what on disk no longer matches the data.
//!
//! Compared: every output file against the bytes the data gives now; every
//! number's committed text (from the lock) against its text now; the input
//! files against the hashes in the lock. An output whose bytes differ from
//! what the lock recorded was edited by hand. `--fast` first compares only
//! hashes (spec, inputs, outputs) with the lock and answers at once when
//! nothing changed; anything changed falls back to the full comparison.

mod compare;
mod json;

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::Path;

use crate::error::{Result, shown};
use crate::fingerprint::Fingerprint;
use crate::lock::{Lock, hash_bytes, tool};
use crate::run;
use crate::spec::LoadedSpec;
pub use compare::compare;

/// A number whose text changed.
#[derive(Debug, Clone, PartialEq)]
pub struct NumberChange {
    /// Its key.
    pub key: String,
    /// Text committed (in the lock), if any.
    pub committed: Option<String>,
    /// Text from the data now.
    pub now: String,
    /// Input files of its sources that changed since the lock (for a number
    /// without a table: those of the numbers it reads, and the documents
    /// when it reads `meta`).
    pub inputs: Vec<String>,
    /// Numbers it reads whose text or value changed since the lock.
    pub quoted: Vec<String>,
    /// When the text is the same but the full-precision value changed:
    /// (committed, now), as JSON.
    pub value: Option<(String, String)>,
    /// Why a number the lock records is gone now (a family no longer gives
    /// it, or nothing declares it); `now` is then `(removed)`.
    pub removed: Option<String>,
    /// When neither an input nor a quoted number changed: `not in
    /// artifact.lock` (no record), or that its record there was edited
    /// (the spec is the one the lock hashed, yet the record matches
    /// nothing the inputs give); `None`: the spec changed.
    pub record: Option<&'static str>,
}

impl NumberChange {
    /// Why it changed: `input changed: FILE`, else `quoted number changed:
    /// KEY`, else `not in artifact.lock` or `its record in artifact.lock
    /// was edited` ([`NumberChange::record`]), else `spec changed`;
    /// prefixed by `same text, value A -> B;` when only the value changed.
    pub fn why(&self) -> String {
        if let Some(why) = &self.removed {
            return why.clone();
        }
        let why = if !self.inputs.is_empty() {
            format!("input changed: {}", self.inputs.join(", "))
        } else if !self.quoted.is_empty() {
            format!("quoted number changed: {}", self.quoted.join(", "))
        } else {
            self.record.unwrap_or("spec changed").to_string()
        };
        match &self.value {
            Some((old, now)) => format!("same text, value {old} -> {now}; {why}"),
            None => why,
        }
    }
}

/// The name [`Lock::failed`] gives number `n`'s part: its family's, for a
/// member.
fn number_part(n: &crate::numbers::Number) -> String {
    match &n.family {
        Some(f) => format!("family.{f}"),
        None => format!("number.{}", n.key),
    }
}

/// The numbers of `build` whose text (or value) differs from what `lock`
/// recorded, each with the inputs and quoted numbers that changed: what
/// `check` lists as stale and what `gen` says it updated.
pub fn number_changes(
    spec: &LoadedSpec,
    build: &run::Build,
    lock: Option<&Lock>,
) -> Vec<NumberChange> {
    let changed_inputs = |part: &str, sources: &BTreeSet<String>| {
        run::changed_inputs(&build.fingerprint, lock, part, sources)
    };
    let mut out = Vec::new();
    // A value that changed under the same printed text is named too: the
    // paper reads the same, but numbers.json (and any template printing the
    // value) does not.
    for n in &build.numbers {
        let locked = lock.and_then(|l| l.numbers.get(&n.key));
        let committed = locked.map(|c| c.text.clone());
        let now_value = crate::lock::LockedNumber::from_number(n, String::new()).value;
        let value = locked
            .filter(|c| c.text == n.text && c.value != now_value)
            .map(|c| (c.value.clone(), now_value));
        if committed.as_deref() != Some(n.text.as_str()) || value.is_some() {
            let mut sources = n.sources.clone();
            sources.extend(crate::fingerprint::number_sources(spec, &n.key));
            let reads = crate::numbers::reads(spec, &n.key);
            let mut change = NumberChange {
                key: n.key.clone(),
                committed,
                now: n.text.clone(),
                inputs: changed_inputs(&number_part(n), &sources),
                quoted: lock.map_or_else(Vec::new, |l| {
                    crate::fingerprint::changed_numbers(l, build.earlier(), &reads)
                }),
                value,
                removed: None,
                record: None,
            };
            if let Some(l) = lock
                && change.inputs.is_empty()
                && change.quoted.is_empty()
            {
                change.record = match locked {
                    None => Some(run::NOT_IN_LOCK),
                    Some(_) => Some(run::unexplained(&build.fingerprint, l))
                        .filter(|why| *why == run::RECORD_EDITED),
                };
            }
            out.push(change);
        }
    }
    // Numbers the lock records that are gone now (not failed: what fails
    // keeps its record): a member its family no longer gives, a number no
    // longer declared.
    if let Some(l) = lock {
        let failed = run::failed_parts(build);
        for (k, locked) in &l.numbers {
            if build.earlier().get(k).is_some() {
                continue;
            }
            let why = match locked.family.as_deref() {
                Some(f) if failed.contains(&format!("family.{f}")) => continue,
                Some(f) if crate::numbers::family::is_family(spec, f) => {
                    format!("family `{f}` no longer gives it")
                }
                Some(f) => format!("family `{f}` is no longer declared"),
                None if failed.contains(&format!("number.{k}")) => continue,
                None if spec.spec.numbers.contains_key(k) => continue,
                None => "no longer declared".to_string(),
            };
            out.push(NumberChange {
                key: k.clone(),
                committed: Some(locked.text.clone()),
                now: "(removed)".to_string(),
                inputs: Vec::new(),
                quoted: Vec::new(),
                value: None,
                removed: Some(why),
                record: None,
            });
        }
    }
    out
}

/// What check found.
#[derive(Debug, Default)]
pub struct CheckReport {
    /// Answered from hashes alone (nothing changed).
    pub fast: bool,
    /// Numbers whose text changed.
    pub numbers: Vec<NumberChange>,
    /// Figures whose outputs differ: (name, files, why).
    pub figures: Vec<(String, Vec<String>, String)>,
    /// Results tables whose files differ: (name, files, why).
    pub results_tables: Vec<(String, Vec<String>, String)>,
    /// Outputs edited by hand: (file, detail).
    pub edited: Vec<(String, String)>,
    /// Other generated files that differ (missing, stale).
    pub stale_files: Vec<String>,
    /// Temporary files left by a killed run (relative paths).
    pub leftovers: Vec<String>,
    /// Input files added, removed or changed since the lock: (what, file).
    pub inputs: Vec<(&'static str, String)>,
    /// Outputs the last run wrote (the lock lists them) that the spec no
    /// longer writes: (file, edited since).
    pub orphaned: Vec<(String, bool)>,
    /// Numbers and figures that could not be computed (exit 2).
    pub errors: Vec<crate::error::Error>,
    /// Things to mention without failing.
    pub notes: Vec<String>,
    /// The command that brings everything up to date.
    pub fix: String,
}

impl CheckReport {
    /// Whether anything is stale (exit 1).
    pub fn stale(&self) -> bool {
        !(self.numbers.is_empty()
            && self.figures.is_empty()
            && self.results_tables.is_empty()
            && self.edited.is_empty()
            && self.stale_files.is_empty()
            && self.orphaned.is_empty()
            && self.leftovers.is_empty())
    }

    /// The report as a table for the terminal.
    pub fn render(&self) -> String {
        let mut s = String::new();
        if !self.stale() {
            let how = if self.fast {
                " (hashes match artifact.lock)"
            } else {
                ""
            };
            let _ = writeln!(s, "all figures and numbers are current{how}");
            for n in &self.notes {
                let _ = writeln!(s, "note: {n}");
            }
            return s;
        }
        let _ = writeln!(s, "stale: {}", self.stale_parts().join(", "));
        self.write_numbers(&mut s);
        self.write_outputs(&mut s);
        self.write_leftovers(&mut s);
        if !self.inputs.is_empty() {
            let _ = writeln!(s, "\ninputs since artifact.lock:");
            for (what, f) in &self.inputs {
                let _ = writeln!(s, "  {what:8} {f}");
            }
        }
        for n in &self.notes {
            let _ = writeln!(s, "note: {n}");
        }
        let _ = writeln!(s, "\nto bring them up to date: {}", self.fix);
        s
    }

    /// How many of each kind are stale (`2 numbers`, `1 figure`, ...).
    fn stale_parts(&self) -> Vec<String> {
        let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        let mut parts = Vec::new();
        if !self.numbers.is_empty() {
            parts.push(count(self.numbers.len(), "number"));
        }
        if !self.figures.is_empty() {
            parts.push(count(self.figures.len(), "figure"));
        }
        if !self.results_tables.is_empty() {
            parts.push(count(self.results_tables.len(), "results table"));
        }
        if !self.edited.is_empty() {
            parts.push(format!(
                "{} edited by hand",
                count(self.edited.len(), "output")
            ));
        }
        if !self.stale_files.is_empty() {
            parts.push(count(self.stale_files.len(), "other file"));
        }
        if !self.orphaned.is_empty() {
            parts.push(format!("{} orphaned", count(self.orphaned.len(), "output")));
        }
        if !self.leftovers.is_empty() {
            parts.push(format!(
                "{} left by a killed run",
                count(self.leftovers.len(), "temporary file")
            ));
        }
        parts
    }

    /// The numbers whose text changed, in a table.
    fn write_numbers(&self, s: &mut String) {
        if !self.numbers.is_empty() {
            let w = self.numbers.iter().map(|n| n.key.len()).max().unwrap_or(0);
            let wc = self
                .numbers
                .iter()
                .map(|n| n.committed.as_deref().unwrap_or("(none)").len())
                .max()
                .unwrap_or(0);
            let _ = writeln!(s, "\nnumbers (committed -> from the data now):");
            for n in &self.numbers {
                let why = n.why();
                let _ = writeln!(
                    s,
                    "  {:w$}  {:>wc$} -> {}   ({why})",
                    n.key,
                    n.committed.as_deref().unwrap_or("(none)"),
                    n.now
                );
            }
        }
    }

    /// Figures, results tables and other outputs that differ, and outputs
    /// edited by hand.
    fn write_outputs(&self, s: &mut String) {
        if !self.figures.is_empty() {
            let _ = writeln!(s, "\nfigures:");
            for (name, files, why) in &self.figures {
                let _ = writeln!(s, "  {name}: {} differ ({why})", files.join(", "));
            }
        }
        if !self.results_tables.is_empty() {
            let _ = writeln!(s, "\nresults tables:");
            for (name, files, why) in &self.results_tables {
                let _ = writeln!(s, "  {name}: {} differ ({why})", files.join(", "));
            }
        }
        if !self.edited.is_empty() {
            let _ = writeln!(
                s,
                "\nedited by hand (differs from what artifact.lock recorded):"
            );
            for (file, detail) in &self.edited {
                let _ = writeln!(
                    s,
                    "  {file}{}",
                    if detail.is_empty() {
                        String::new()
                    } else {
                        format!(": {detail}")
                    }
                );
            }
        }
        if !self.stale_files.is_empty() {
            let _ = writeln!(s, "\nother outputs that differ:");
            for f in &self.stale_files {
                let _ = writeln!(s, "  {f}");
            }
        }
    }

    /// Orphaned outputs and temporary files left by a killed run.
    fn write_leftovers(&self, s: &mut String) {
        if !self.orphaned.is_empty() {
            let _ = writeln!(
                s,
                "\norphaned (artifact wrote them; the spec no longer does):"
            );
            for (f, edited) in &self.orphaned {
                let what = if *edited {
                    "edited since: `artifact gen` keeps it; delete it by hand"
                } else {
                    "`artifact gen` removes it"
                };
                let _ = writeln!(s, "  {f} ({what})");
            }
        }
        if !self.leftovers.is_empty() {
            let _ = writeln!(
                s,
                "\ntemporary files left by a killed run (`artifact gen` removes them; do not commit them):"
            );
            for f in &self.leftovers {
                let _ = writeln!(s, "  {f}");
            }
        }
    }
}

/// `artifact gen`, with `-C` when the spec is not in the current folder.
pub fn fix_command(root: &Path) -> String {
    let cwd = std::env::current_dir()
        .ok()
        .and_then(|c| c.canonicalize().ok());
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    match cwd.as_deref().map(|c| root.strip_prefix(c)) {
        Some(Ok(rel)) if rel.as_os_str().is_empty() => "artifact gen".to_string(),
        Some(Ok(rel)) => format!("artifact gen -C {}", shown(&rel.display().to_string())),
        _ => format!("artifact gen -C {}", shown(&root.display().to_string())),
    }
}

/// Whether the lock alone shows everything current.
fn fast_current(spec: &LoadedSpec, lock: &Lock) -> Result<bool> {
    if lock.tool != tool()
        || lock.spec != hash_bytes(spec.text.as_bytes())
        || !lock.failed.is_empty()
    {
        return Ok(false);
    }
    let fp = Fingerprint::compute(spec)?;
    if fp.inputs() != lock.inputs || fp.files.values().flatten().any(|(_, h)| h == "missing") {
        return Ok(false);
    }
    // Every number's and figure's key as gen would compute it now: after
    // `gen fig1`, the hashes of the spec and inputs are new while fig2's
    // record still holds the key of the data it was drawn from.
    let mut earlier = Vec::new();
    let mut by_key = crate::numbers::ByKey::default();
    let families = crate::lock::Families::of(lock);
    for key in crate::plan::order::order(spec)? {
        // A number skipped by the last run has no record; it is skipped
        // again unless its data changed, which the input hashes show.
        by_key.grow(&earlier);
        let dependencies = fp.number_key(spec, &key, by_key.over(&earlier));
        match crate::lock::reuse(spec, lock, &families, &key, &dependencies) {
            Some(list) => earlier.extend(list),
            None if lock.numbers.contains_key(&key) => return Ok(false),
            None if crate::numbers::family::is_family(spec, &key) => return Ok(false),
            None => {}
        }
    }
    by_key.grow(&earlier);
    // The outputs are the spec's, not the lock's list of them: a record
    // deleted from the lock must not hide an output edited by hand.
    let mut outputs: Vec<String> = run::number_files(spec);
    let keys = fp.figure_keys(spec, by_key.over(&earlier));
    for name in spec.spec.figures.keys() {
        let wanted = run::figure_outputs(spec, name);
        match lock.figures.get(name) {
            Some(f) if keys.get(name) == Some(&f.key) && f.outputs == wanted => {}
            _ => return Ok(false),
        }
        outputs.extend(wanted);
    }
    match crate::run::results::fast_outputs(spec, lock, &fp, by_key.over(&earlier)) {
        Some(files) => outputs.extend(files),
        None => return Ok(false),
    }
    for out in &outputs {
        if !lock.outputs.contains_key(out) {
            return Ok(false);
        }
    }
    // An output the spec no longer writes (orphaned) is looked at in full.
    let all: std::collections::HashSet<String> = run::all_outputs(spec).into_iter().collect();
    if lock.outputs.keys().any(|o| !all.contains(o)) {
        return Ok(false);
    }
    if spec
        .spec
        .figures
        .keys()
        .any(|n| !run::dropped_format_files(spec, n).is_empty())
    {
        return Ok(false);
    }
    for (out, h) in &lock.outputs {
        let disk = crate::output::read_output(&spec.root, out).map(|b| hash_bytes(&b));
        if disk.as_ref() != Some(h) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Runs the check.
pub fn check(spec: &LoadedSpec, fast: bool) -> Result<CheckReport> {
    let lock = Lock::read(&spec.root)?;
    let fix = fix_command(&spec.root);
    let mut names = run::all_outputs(spec);
    names.extend(lock.iter().flat_map(|l| l.outputs.keys().cloned()));
    let leftovers = crate::output::leftovers(&spec.root, &names);
    if fast
        && let Some(l) = &lock
        && fast_current(spec, l)?
    {
        return Ok(CheckReport {
            fast: true,
            fix,
            leftovers,
            ..CheckReport::default()
        });
    }
    let mut build = run::build(spec, &[], None)?;
    Ok(compare(spec, &mut build, lock.as_ref(), fix, leftovers))
}
