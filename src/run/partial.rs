//! What a run with failures or a changed spec leaves: the parts that
//! failed (their records and input hashes stay those of the last run that
//! built them) and the orphaned outputs (files the last lock lists that the
//! spec no longer writes).

use std::collections::BTreeSet;

use super::outputs::real_path;
use super::{Build, all_outputs};
use crate::error::Error;
use crate::fingerprint::Fingerprint;
use crate::lock::{Lock, hash_bytes};
use crate::spec::LoadedSpec;

/// The numbers, number families, figures and results tables that failed
/// in `build`, as `number.KEY`, `family.NAME`, `figure.NAME` and
/// `results_table.NAME` (sorted); a figure or results table held by a
/// failed run ([`Build::held`]) counts as failed.
pub fn failed_parts(build: &Build) -> Vec<String> {
    let mut parts: Vec<String> = build
        .errors
        .iter()
        .filter_map(|e| match e {
            Error::Context { what, .. } => {
                let (kind, rest) = what.split_once(" `")?;
                let name = rest.strip_suffix('`')?;
                match kind {
                    "number" | "figure" => Some(format!("{kind}.{name}")),
                    "number family" => Some(format!("family.{name}")),
                    "results table" => Some(format!("results_table.{name}")),
                    _ => None,
                }
            }
            _ => None,
        })
        .collect();
    parts.extend(build.held.iter().map(|(name, _)| format!("figure.{name}")));
    parts.extend((build.results_held.iter()).map(|name| format!("results_table.{name}")));
    parts.sort();
    parts.dedup();
    parts
}

/// In a run where a part failed, what has nothing to draw (a figure, a
/// results table whose table is unavailable) is held as a failed part: its
/// previous files and lock record stay, with a note naming them. A failed
/// run removes no output: what failed may be why there is nothing to draw
/// (an empty log fails a number and empties a figure), and the paper must
/// still compile. In a run where nothing failed, they go (`run::write`).
pub(super) fn hold_skipped(spec: &LoadedSpec, b: &mut Build) {
    if b.errors.is_empty() {
        return;
    }
    let on_disk = |files: Vec<String>| -> Vec<String> {
        files
            .into_iter()
            .filter(|f| spec.root.join(f).is_file())
            .collect()
    };
    for (name, why) in std::mem::take(&mut b.skipped) {
        let kept = on_disk(super::figure_outputs(spec, &name));
        if !kept.is_empty() {
            b.notes.push(format!(
                "figure `{name}` keeps its previous files ({}): it has nothing to draw in a run where a part failed, and a failed run removes no figure (`artifact check` names it stale)",
                kept.join(", ")
            ));
        }
        b.held.push((name, why));
    }
    for name in std::mem::take(&mut b.results_skipped) {
        let kept = on_disk(crate::results::outputs(spec, &name));
        if !kept.is_empty() {
            b.notes.push(format!(
                "results table `{name}` keeps its previous files ({}): its table is unavailable in a run where a part failed, and a failed run removes no output (`artifact check` names it stale)",
                kept.join(", ")
            ));
        }
        b.results_held.push(name);
    }
}

/// Outputs the old lock lists that the spec no longer writes (a figure
/// removed or renamed, an `[output]` folder or format changed): those on
/// disk as the lock recorded them (`artifact gen` removes them), and those
/// edited since (kept). A file the lock does not list, or that the spec
/// now reads, is never among them.
pub fn orphans(spec: &LoadedSpec, fp: &Fingerprint, old: &Lock) -> (Vec<String>, Vec<String>) {
    let now: std::collections::HashSet<String> = all_outputs(spec).into_iter().collect();
    let inputs = fp.inputs();
    let root = spec
        .root
        .canonicalize()
        .unwrap_or_else(|_| spec.root.clone());
    let (mut recorded, mut edited) = (Vec::new(), Vec::new());
    for (out, h) in &old.outputs {
        // A lock is a file in the repository: whatever it lists, nothing
        // outside the spec's folder (through a link) or in `.git` goes.
        let outside =
            out.split('/').any(|c| c == ".git") || !real_path(&spec.root, out).starts_with(&root);
        if now.contains(out) || inputs.contains_key(out) || out == crate::spec::SPEC_FILE || outside
        {
            continue;
        }
        match crate::output::read_output(&spec.root, out).map(|b| hash_bytes(&b)) {
            Some(disk) if &disk == h => recorded.push(out.clone()),
            Some(_) => edited.push(out.clone()),
            None => {}
        }
    }
    (recorded, edited)
}

/// Sets the hashes in `lock` of the input files behind what failed to
/// those of `old` (left out when `old` has none): what failed keeps its
/// old record, so its inputs keep the hashes that record was computed
/// from, and `check` names them as changed; the hashes read, where they
/// differ and a part that did not fail read the file, go to
/// [`Lock::inputs_read`] (what that part was built from).
pub(super) fn keep_failed_inputs(
    spec: &LoadedSpec,
    build: &Build,
    old: Option<&Lock>,
    lock: &mut Lock,
) {
    let behind: BTreeSet<String> = lock
        .failed
        .iter()
        .flat_map(|p| match p.split_once('.') {
            Some(("number" | "family", k)) => crate::fingerprint::number_sources(spec, k),
            Some(("figure", f)) => crate::fingerprint::figure_sources(spec, f),
            _ => BTreeSet::new(),
        })
        .collect();
    // The sources of what this run built (or found current) and did not
    // fail: built from the hashes read.
    let failed = |part: String| lock.failed.contains(&part);
    let mut built: BTreeSet<&String> = BTreeSet::new();
    for n in &build.numbers {
        let part = match &n.family {
            Some(f) => format!("family.{f}"),
            None => format!("number.{}", n.key),
        };
        if !failed(part) {
            built.extend(&n.sources);
        }
    }
    for (kind, list) in [
        ("figure", &build.figures),
        ("results_table", &build.results),
    ] {
        for f in list
            .iter()
            .filter(|f| !failed(format!("{kind}.{}", f.name)))
        {
            built.extend(&f.sources);
        }
    }
    let read_by_built: BTreeSet<&String> = built
        .iter()
        .flat_map(|s| build.fingerprint.files.get(*s).into_iter().flatten())
        .map(|(rel, _)| rel)
        .collect();
    let mut read_apart = Vec::new();
    for (rel, _) in behind
        .iter()
        .flat_map(|s| build.fingerprint.files.get(s).into_iter().flatten())
    {
        let kept = old.and_then(|o| o.inputs.get(rel));
        let read = match kept {
            Some(h) => lock.inputs.insert(rel.clone(), h.clone()),
            None => lock.inputs.remove(rel),
        };
        // What the parts that did not fail were built from, when it is
        // not the hash kept.
        if let Some(read) = read.filter(|r| Some(r) != kept && read_by_built.contains(rel)) {
            read_apart.push((rel.clone(), read));
        }
    }
    lock.inputs_read.extend(read_apart);
}
