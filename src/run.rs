//! The pipeline: everything `artifact gen` computes, in memory, before
//! anything is written (so `artifact check` can compare the same bytes).
//!
//! Failures are kept apart: a spec error stops the run before any output; a
//! broken source fails only the numbers and figures that read it; a failing
//! figure is reported and the others are still built; a failing number
//! keeps its last text in the macro files (from the lock) while the others
//! are updated, so every figure prints the text its macro prints.
//!
//! With a lock from the last run, numbers and figures whose dependency key
//! is unchanged (and whose outputs on disk are as the lock recorded them)
//! are taken from the lock and not rebuilt: their sources are not even read.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::{Error, Result};
use crate::fingerprint::Fingerprint;
use crate::lock::{Lock, LockedFigure, LockedNumber, hash_bytes, tool};
use crate::numbers::{self, Number};
use crate::output::OutputFile;
use crate::spec::LoadedSpec;
use crate::tables::Catalog;

/// What a figure produced.
#[derive(Debug)]
pub struct FigureBuild {
    /// The figure's name.
    pub name: String,
    /// Its files (svg, pdf, png as `[output] formats` says, and csv).
    pub outputs: Vec<OutputFile>,
    /// The sources it read.
    pub sources: BTreeSet<String>,
}

/// Everything computed for a spec.
#[derive(Debug, Default)]
pub struct Build {
    /// Hashes of the spec's parts and inputs.
    pub fingerprint: Fingerprint,
    /// The files each loaded source read.
    pub files: indexmap::IndexMap<String, Vec<crate::sources::SourceFile>>,
    /// The numbers (computed, or reused from the lock), in the order computed.
    pub numbers: Vec<Number>,
    /// Where each of `numbers` is, by key ([`Build::earlier`]).
    pub numbers_by_key: numbers::ByKey,
    /// Dependency key of each number.
    pub number_keys: BTreeMap<String, String>,
    /// Files of the numbers (macros.tex, macros.typ, numbers.json), if all numbers succeeded.
    pub number_outputs: Vec<OutputFile>,
    /// Figures built.
    pub figures: Vec<FigureBuild>,
    /// Dependency key of each figure built or current.
    pub figure_keys: BTreeMap<String, String>,
    /// Figures rebuilt, with the reason (when a lock was given).
    pub rebuilt: Vec<(String, String)>,
    /// Figures the lock shows current (not rebuilt).
    pub current: Vec<String>,
    /// Figures with nothing to draw in a run where nothing failed: (name,
    /// reason). Their files go with this run.
    pub skipped: Vec<(String, String)>,
    /// Figures with nothing to draw in a run where something failed:
    /// (name, reason). Held as failed parts: their files and records stay
    /// as they were, since a failed run removes no output.
    pub held: Vec<(String, String)>,
    /// Independent failures (a figure, a number).
    pub errors: Vec<Error>,
    /// The macro files could not be made (a template failed): the run
    /// writes nothing, as for a spec error.
    pub whole_failed: bool,
    /// Reports for the user.
    pub notes: Vec<String>,
    /// Results tables built ([`results`]).
    pub results: Vec<FigureBuild>,
    /// Dependency key of each results table built or current.
    pub results_keys: BTreeMap<String, String>,
    /// Results tables whose table is unavailable (their files go).
    pub results_skipped: Vec<String>,
    /// Results tables whose table is unavailable in a run where something
    /// failed: held as failed parts, their files and records stay.
    pub results_held: Vec<String>,
}

impl Build {
    /// The numbers with their index: what keys and reports read the
    /// numbers they quote from.
    pub fn earlier(&self) -> numbers::Earlier<'_> {
        numbers::Earlier {
            list: &self.numbers,
            by_key: &self.numbers_by_key,
        }
    }

    /// Every output file computed.
    pub fn outputs(&self) -> impl Iterator<Item = &OutputFile> {
        self.number_outputs
            .iter()
            .chain(self.figures.iter().flat_map(|f| f.outputs.iter()))
            .chain(self.results.iter().flat_map(|f| f.outputs.iter()))
    }
}

use crate::spec::paths::join as rel;

mod draw;
mod macros;
mod outputs;
mod partial;
pub mod results;

pub use outputs::{all_outputs, number_files, outputs_apart_from_inputs};
pub use partial::{failed_parts, orphans};

/// The output files of figure `name`: those of `[output] formats` (svg,
/// pdf, png), then its csv.
pub fn figure_outputs(spec: &LoadedSpec, name: &str) -> Vec<String> {
    crate::plan::formats::Formats::extensions(spec)
        .iter()
        .map(|e| rel(spec.spec.output.figures.get_ref(), &format!("{name}.{e}")))
        .collect()
}

/// Files of figure `name` on disk in a format `[output] formats` no longer
/// lists (svg, pdf, png): left, they show old data, and
/// `\includegraphics{figures/f}` may pick one.
pub fn dropped_format_files(spec: &LoadedSpec, name: &str) -> Vec<String> {
    let now = figure_outputs(spec, name);
    ["svg", "pdf", "png"]
        .iter()
        .map(|e| rel(spec.spec.output.figures.get_ref(), &format!("{name}.{e}")))
        .filter(|p| !now.contains(p) && spec.root.join(p).is_file())
        .collect()
}

/// Whether the lock's record of figure `name` is current: same key and its
/// outputs on disk are as the lock recorded them.
fn figure_current(
    spec: &LoadedSpec,
    lock: &Lock,
    name: &str,
    key: &str,
) -> std::result::Result<(), String> {
    let Some(f) = lock.figures.get(name) else {
        return Err(NOT_IN_LOCK.into());
    };
    if f.outputs != figure_outputs(spec, name) {
        return Err("its record in artifact.lock lists other files".into());
    }
    for out in &f.outputs {
        let disk = crate::output::read_output(&spec.root, out).map(|b| hash_bytes(&b));
        if disk.as_ref() != lock.outputs.get(out) {
            return Err(format!("{out} is missing or was edited"));
        }
    }
    if f.key == key {
        return Ok(());
    }
    Err(SPEC_DATA_OR_QUOTES.into())
}

/// Why a figure is rebuilt before its inputs and quoted numbers are compared.
const SPEC_DATA_OR_QUOTES: &str = "its spec, data or quoted numbers changed";

/// Why a part the lock has no record of is rebuilt (or stale): a new one,
/// or one whose record was deleted.
pub(crate) const NOT_IN_LOCK: &str = "not in artifact.lock";

/// Why a part whose record in the lock no longer matches is stale, when
/// neither an input nor a quoted number changed and the spec is the one
/// the lock hashed: its record was edited (its key, text or value match
/// nothing the inputs give).
pub(crate) const RECORD_EDITED: &str = "its record in artifact.lock was edited";

/// Why a part is stale when neither an input nor a quoted number changed:
/// [`RECORD_EDITED`] when the spec is the one `lock` hashed (and the tool
/// the one that wrote it: its key then depends on nothing else), else
/// `spec changed`.
pub(crate) fn unexplained(fp: &Fingerprint, lock: &Lock) -> &'static str {
    if lock.spec == fp.spec && lock.tool == tool() {
        RECORD_EDITED
    } else {
        "spec changed"
    }
}

/// Why `part` (`figure.NAME`, as [`Lock::failed`] names it) changed: the
/// first input file of its sources whose hash differs from the one it was
/// built from, if any.
pub(crate) fn changed_input(
    fp: &Fingerprint,
    lock: &Lock,
    part: &str,
    sources: &BTreeSet<String>,
) -> Option<String> {
    changed_inputs(fp, Some(lock), part, sources)
        .into_iter()
        .next()
}

/// The input files of `sources` whose hash differs from the one `part`
/// (`figure.NAME`, `number.KEY`, `results_table.NAME`) was built from, as
/// `lock` records it ([`Lock::built_from`]; none without a lock), in
/// source order. After a run where another part reading the same file
/// failed, that is the hash the run read, not the one kept for the failed
/// part: a file unchanged since is not named.
pub(crate) fn changed_inputs(
    fp: &Fingerprint,
    lock: Option<&Lock>,
    part: &str,
    sources: &BTreeSet<String>,
) -> Vec<String> {
    let Some(lock) = lock else { return Vec::new() };
    sources
        .iter()
        .flat_map(|s| fp.files.get(s).into_iter().flatten())
        .filter(|(rel, h)| lock.built_from(part, rel) != Some(h))
        .map(|(rel, _)| rel.clone())
        .collect()
}

/// Computes the outputs of `spec` (only the figures in `only`, if given).
/// With `lock`, what the lock shows current is reused, not rebuilt.
pub fn build(spec: &LoadedSpec, only: &[String], lock: Option<&Lock>) -> Result<Build> {
    for name in only {
        if !spec.spec.figures.contains_key(name) {
            let known = || spec.spec.figures.keys().map(String::as_str);
            let close = crate::error::did_you_mean(name, known())
                .map(|c| format!("; did you mean `{}`?", crate::error::shown(c)))
                .unwrap_or_default();
            return Err(Error::msg(format!(
                "no figure named `{}` (figures: {}){close}",
                crate::error::shown(name),
                crate::error::name_list(known(), false)
            )));
        }
    }
    let plan = crate::plan::validate::validate(spec)?;
    outputs_apart_from_inputs(spec)?;
    let lock = lock.filter(|l| l.tool == tool());
    std::thread::scope(|scope| build_with(&plan, only, lock, scope))
}

/// The build itself, in its order: fingerprints (hashed beside the tables
/// without a lock), numbers and their macro files, figures compiled,
/// results tables, figures rendered.
fn build_with<'a>(
    plan: &'a crate::plan::Plan<'a>,
    only: &[String],
    lock: Option<&Lock>,
    scope: &'a std::thread::Scope<'a, '_>,
) -> Result<Build> {
    let spec = plan.spec;
    // With a lock, the inputs' hashes decide what is current, so they come
    // first. Without one they only go into the new lock: they are hashed
    // (a gigabyte log takes a while) while the tables are built.
    let early = lock.map(|_| Fingerprint::compute(spec)).transpose()?;
    let later = early
        .is_none()
        .then(|| scope.spawn(|| Fingerprint::compute(spec)));
    let catalog = Catalog::new(plan)?.trimming();
    let mut b = Build::default();
    let families = lock.map(crate::lock::Families::of);
    let reuse = |key: &str, earlier: numbers::Earlier<'_>| -> Option<Vec<Number>> {
        let (l, fp) = (lock?, early.as_ref()?);
        let families = families.as_ref()?;
        crate::lock::reuse(spec, l, families, key, &fp.number_key(spec, key, earlier))
    };
    let (nums, globals) = numbers::compute(spec, &catalog, &reuse);
    let fp = match (early, later) {
        (Some(fp), _) => fp,
        (None, Some(h)) => h
            .join()
            .map_err(|_| Error::msg("hashing the input files failed"))??,
        (None, None) => unreachable!("hashed early or later"),
    };
    let globals = macros::record(spec, nums, globals, &fp, &mut b);
    let plots = draw::compile(plan, &catalog, &globals, &fp, lock, only, &mut b);
    results::build(plan, &catalog, &globals, &fp, lock, only, &mut b);
    catalog.release();
    draw::render(spec, plots, &mut b)?;
    partial::hold_skipped(spec, &mut b);
    b.notes.splice(0..0, catalog.notes());
    b.files = catalog.files();
    b.fingerprint = fp;
    Ok(b)
}

/// The lock describing `build` after it is written, keeping the previous
/// lock's records for what was current or failed.
pub fn new_lock(spec: &LoadedSpec, build: &Build, old: Option<&Lock>) -> Lock {
    let mut lock = Lock {
        tool: tool(),
        spec: build.fingerprint.spec.clone(),
        inputs: build.fingerprint.inputs(),
        ..Lock::default()
    };
    let old_same_tool = old.filter(|l| l.tool == tool());
    if old.is_none() {
        results::lock_records(spec, build, None, &mut lock);
    }
    for n in &build.numbers {
        let key = build.number_keys.get(&n.key).cloned().unwrap_or_default();
        lock.numbers
            .insert(n.key.clone(), LockedNumber::from_number(n, key));
    }
    lock.failed = failed_parts(build);
    partial::keep_failed_inputs(spec, build, old, &mut lock);
    if let Some(o) = old {
        for (k, n) in &o.numbers {
            // A family that failed keeps its members' records (as its
            // macros keep their texts); one that now gives no members, or
            // other members, drops the records of those it no longer gives.
            let family_failed = n.family.as_ref().is_some_and(|f| {
                numbers::family::is_family(spec, f) && lock.failed.contains(&format!("family.{f}"))
            });
            if (spec.spec.numbers.contains_key(k) || family_failed) && !lock.numbers.contains_key(k)
            {
                lock.numbers.insert(k.clone(), n.clone());
            }
        }
    }
    for out in &build.number_outputs {
        lock.outputs.insert(out.rel.clone(), hash_bytes(&out.bytes));
    }
    for f in &build.figures {
        let outputs: Vec<String> = f.outputs.iter().map(|o| o.rel.clone()).collect();
        for o in &f.outputs {
            lock.outputs.insert(o.rel.clone(), hash_bytes(&o.bytes));
        }
        let key = build.figure_keys.get(&f.name).cloned().unwrap_or_default();
        lock.figures
            .insert(f.name.clone(), LockedFigure { key, outputs });
    }
    if let Some(o) = old {
        // Current, failed or not-requested figures keep their records.
        for (name, f) in &o.figures {
            let skipped = build.skipped.iter().any(|(n, _)| n == name);
            if spec.spec.figures.contains_key(name) && !lock.figures.contains_key(name) && !skipped
            {
                let mut f = f.clone();
                if old_same_tool.is_none() {
                    f.key = String::new();
                }
                for out in &f.outputs {
                    if let Some(h) = o.outputs.get(out) {
                        lock.outputs.insert(out.clone(), h.clone());
                    }
                }
                lock.figures.insert(name.clone(), f);
            }
        }
        results::lock_records(spec, build, Some(o), &mut lock);
        for (out, h) in &o.outputs {
            let generated = spec.spec.output.generated.get_ref();
            let is_macro_file = crate::spec::paths::NUMBER_FILES
                .iter()
                .any(|f| rel(generated, f) == *out);
            if is_macro_file && !lock.outputs.contains_key(out) {
                lock.outputs.insert(out.clone(), h.clone());
            }
        }
    }
    lock
}

/// What `gen` did.
#[derive(Debug, Default)]
pub struct GenReport {
    /// Files written (content changed).
    pub written: Vec<String>,
    /// Files already up to date.
    pub unchanged: Vec<String>,
    /// Temporary files of a killed run, removed.
    pub removed: Vec<String>,
    /// Outputs of figures the data no longer draws, removed.
    pub deleted: Vec<String>,
    /// Outputs the spec no longer writes, removed (as the old lock recorded them).
    pub orphans_removed: Vec<String>,
    /// Outputs the spec no longer writes, kept: edited since artifact wrote them.
    pub orphans_kept: Vec<String>,
}

/// Writes every output of `build` under the spec's folder, then the lock,
/// and removes orphaned outputs, as one transaction (`output::commit`):
/// either all of it is written or nothing is. A number or figure that
/// failed keeps its files and its old record in the lock; when the macro
/// files could not be made nothing is written. Temporary files left
/// by a killed run are removed after. Call with the spec's folder locked
/// (`output::FolderLock::exclusive`).
pub fn write(spec: &LoadedSpec, build: &Build, old: Option<&Lock>) -> Result<GenReport> {
    let mut report = GenReport::default();
    if build.whole_failed {
        // Not one output's failure: nothing is written, as for a spec error.
        return Ok(report);
    }
    // The lock keeps describing outputs that match their recorded data:
    // new records for what was built, the old ones for what failed.
    let lock = new_lock(spec, build, old).to_text();
    let mut files: Vec<crate::output::Change> = build
        .outputs()
        .map(|o| (o.rel.as_str(), Some(o.bytes.as_slice())))
        .collect();
    // A figure the data no longer draws loses its old files: left, they
    // would show old data, and `check` could never pass.
    let skipped: Vec<String> = build
        .skipped
        .iter()
        .flat_map(|(name, _)| figure_outputs(spec, name))
        .collect();
    files.extend(skipped.iter().map(|rel| (rel.as_str(), None)));
    let skipped_results: Vec<String> = build
        .results_skipped
        .iter()
        .flat_map(|name| crate::results::outputs(spec, name))
        .collect();
    files.extend(skipped_results.iter().map(|rel| (rel.as_str(), None)));
    // Files the last run wrote (the old lock lists them) that the spec no
    // longer writes go with this run's transaction (a format dropped from
    // `[output] formats`, a figure removed or renamed, a folder moved);
    // one edited since is kept.
    let (orphaned, kept) = match old {
        Some(o) => orphans(spec, &build.fingerprint, o),
        None => (Vec::new(), Vec::new()),
    };
    files.extend(orphaned.iter().map(|rel| (rel.as_str(), None)));
    files.push((crate::lock::LOCK_FILE, Some(lock.as_bytes())));
    let done = crate::output::commit(&spec.root, &files)?;
    report.written = done.written;
    (report.orphans_removed, report.deleted) =
        done.removed.into_iter().partition(|r| orphaned.contains(r));
    report.orphans_kept = kept;
    report.unchanged = done
        .unchanged
        .into_iter()
        .filter(|f| f != crate::lock::LOCK_FILE)
        .collect();
    // Only once the run has committed (a failed run changes nothing):
    // temporary files of a killed run, beside this spec's outputs or the
    // last lock's (a figure since renamed, a folder since moved).
    let mut names = all_outputs(spec);
    names.extend(old.into_iter().flat_map(|l| l.outputs.keys().cloned()));
    for left in crate::output::leftovers(&spec.root, &names) {
        if std::fs::remove_file(spec.root.join(&left)).is_ok() {
            report.removed.push(left);
        }
    }
    Ok(report)
}
