//! Results tables in `artifact gen` and `artifact check`: each is a unit
//! like a figure, with a key (its part of the spec, the tables and input
//! files its rows come from, the numbers its texts quote; see
//! `Fingerprint::results_table_key`), rebuilt only when the key changes or
//! its files on disk are not what the lock recorded.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::expr::Globals;
use crate::fingerprint::Fingerprint;
use crate::lock::{Lock, LockedFigure, hash_bytes};
use crate::output::OutputFile;
use crate::plan::Plan;
use crate::run::{Build, FigureBuild};
use crate::spec::LoadedSpec;
use crate::tables::Catalog;

/// How `gen` names a results table in its reports (`rebuilt`, `current`).
pub fn label(name: &str) -> String {
    format!("results table {name}")
}

/// Whether the lock's record of results table `name` is current (same key,
/// files as recorded), else why not.
fn current(
    spec: &LoadedSpec,
    lock: &Lock,
    name: &str,
    key: &str,
) -> std::result::Result<(), String> {
    let Some(r) = lock.results_tables.get(name) else {
        return Err(crate::run::NOT_IN_LOCK.into());
    };
    if r.outputs != crate::results::outputs(spec, name) {
        return Err("its record in artifact.lock lists other files".into());
    }
    for out in &r.outputs {
        let disk = crate::output::read_output(&spec.root, out).map(|b| hash_bytes(&b));
        if disk.as_ref() != lock.outputs.get(out) {
            return Err(format!("{out} is missing or was edited"));
        }
    }
    if r.key == key {
        return Ok(());
    }
    Err(SPEC_DATA_OR_QUOTES.into())
}

/// Builds every results table of `plan` that is not current (none when
/// `only` names figures) into `b`: outputs, keys, reports, errors.
pub fn build(
    plan: &Plan<'_>,
    cat: &Catalog<'_>,
    globals: &Arc<Globals>,
    fp: &Fingerprint,
    lock: Option<&Lock>,
    only: &[String],
    b: &mut Build,
) {
    if !only.is_empty() {
        return;
    }
    let spec = plan.spec;
    for (name, planned) in &plan.results {
        let key = fp.results_table_key(spec, name, b.earlier());
        let mut why = None;
        if let Some(l) = lock {
            match current(spec, l, name, &key) {
                Ok(()) => {
                    b.current.push(label(name));
                    b.results_keys.insert(name.clone(), key);
                    continue;
                }
                Err(reason) => why = Some(reason),
            }
        }
        let built =
            crate::results::build(spec, cat, globals, name, planned).and_then(|o| match o {
                crate::results::Outcome::Built(t, sources) => {
                    if let Some(n) = crate::results::long_note(&t) {
                        b.notes.push(format!("results table `{name}`: {n}"));
                    }
                    Ok(Some((crate::results::render(&t)?, sources)))
                }
                crate::results::Outcome::Skipped(reason) => {
                    b.notes
                        .push(format!("skip: results table `{name}`: {reason}"));
                    b.results_skipped.push(name.clone());
                    Ok(None)
                }
            });
        match built {
            Ok(Some((files, sources))) => {
                if let (Some(l), Some(why)) = (lock, why) {
                    let why = refined(spec, l, fp, name, &sources, b.earlier(), why);
                    b.rebuilt.push((label(name), why));
                }
                let generated = spec.spec.output.generated.get_ref();
                b.results.push(FigureBuild {
                    name: name.clone(),
                    outputs: files
                        .into_iter()
                        .map(|(ext, bytes)| OutputFile {
                            rel: crate::spec::paths::join(generated, &format!("{name}.{ext}")),
                            bytes,
                        })
                        .collect(),
                    sources,
                });
                b.results_keys.insert(name.clone(), key);
            }
            Ok(None) => {}
            Err(e) => b.errors.push(e.context(format!("results table `{name}`"))),
        }
    }
}

/// Why results table `name`, built from `sources`, is rebuilt: `why` from
/// [`current`], or when that is its key changing, which of its inputs,
/// quoted numbers, spec or record in the lock changed.
fn refined(
    spec: &LoadedSpec,
    l: &Lock,
    fp: &Fingerprint,
    name: &str,
    sources: &BTreeSet<String>,
    numbers: crate::numbers::Earlier<'_>,
    why: String,
) -> String {
    if why != SPEC_DATA_OR_QUOTES {
        return why;
    }
    // The sources its key covers: its table's, and the documents' when its
    // text reads `meta`.
    let covered = || {
        let from = spec.spec.results_tables.get(name);
        let mut roots: Vec<String> = from
            .map(|r| r.get_ref().from.get_ref().clone())
            .into_iter()
            .collect();
        if spec
            .parts()
            .get("results_table", name)
            .is_some_and(|p| p.meta)
        {
            roots.extend(crate::plan::deps::document_sources(spec));
        }
        Fingerprint::sources_of(spec, roots)
    };
    let quoted = crate::fingerprint::results_table_quotes(spec, name);
    let changed = crate::fingerprint::changed_numbers(l, numbers, &quoted);
    let part = format!("results_table.{name}");
    match crate::run::changed_input(fp, l, &part, sources)
        .or_else(|| crate::run::changed_input(fp, l, &part, &covered()))
    {
        Some(input) => format!("input changed: {input}"),
        None if !changed.is_empty() => format!("quoted number changed: {}", changed.join(", ")),
        None => crate::run::unexplained(fp, l).into(),
    }
}

/// Why a results table is rebuilt before its inputs and quoted numbers are
/// compared.
const SPEC_DATA_OR_QUOTES: &str = "its spec, data or quoted numbers changed";

/// Records the results tables of `build` in `lock`, keeping the old lock's
/// records (and output hashes) of those current, failed or not requested.
pub fn lock_records(spec: &LoadedSpec, build: &Build, old: Option<&Lock>, lock: &mut Lock) {
    for r in &build.results {
        for o in &r.outputs {
            lock.outputs.insert(o.rel.clone(), hash_bytes(&o.bytes));
        }
        let key = build.results_keys.get(&r.name).cloned().unwrap_or_default();
        let outputs = r.outputs.iter().map(|o| o.rel.clone()).collect();
        lock.results_tables
            .insert(r.name.clone(), LockedFigure { key, outputs });
    }
    let Some(o) = old else { return };
    let same_tool = o.tool == crate::lock::tool();
    for (name, r) in &o.results_tables {
        if !spec.spec.results_tables.contains_key(name)
            || lock.results_tables.contains_key(name)
            || build.results_skipped.contains(name)
        {
            continue;
        }
        let mut r = r.clone();
        if !same_tool {
            r.key = String::new();
        }
        for out in &r.outputs {
            if let Some(h) = o.outputs.get(out) {
                lock.outputs.insert(out.clone(), h.clone());
            }
        }
        lock.results_tables.insert(name.clone(), r);
    }
}

/// For `check --fast`: the files of every results table when the lock
/// shows each current for `numbers`, else `None`.
pub fn fast_outputs(
    spec: &LoadedSpec,
    lock: &Lock,
    fp: &Fingerprint,
    numbers: crate::numbers::Earlier<'_>,
) -> Option<Vec<String>> {
    let mut all = Vec::new();
    for name in spec.spec.results_tables.keys() {
        let wanted = crate::results::outputs(spec, name);
        match lock.results_tables.get(name) {
            Some(r)
                if r.key == fp.results_table_key(spec, name, numbers) && r.outputs == wanted => {}
            _ => return None,
        }
        all.extend(wanted);
    }
    Some(all)
}

/// What `check` says of the results tables: (label, files that differ,
/// why) for each stale one; the files edited by hand go to `edited`.
pub fn stale(
    spec: &LoadedSpec,
    build: &Build,
    lock: Option<&Lock>,
    changed_inputs: &dyn Fn(&str, &BTreeSet<String>) -> Vec<String>,
    edited: &mut Vec<(String, String)>,
) -> Vec<(String, Vec<String>, String)> {
    let disk = |rel: &str| crate::output::read_output(&spec.root, rel);
    let mut out = Vec::new();
    for r in &build.results {
        let mut differing = Vec::new();
        let mut hand = false;
        for o in &r.outputs {
            let now = disk(&o.rel);
            if now.as_deref() == Some(&o.bytes[..]) {
                continue;
            }
            differing.push(o.rel.clone());
            let locked = lock.and_then(|l| l.outputs.get(&o.rel));
            if let (Some(l), Some(d)) = (locked, &now)
                && hash_bytes(d) != *l
            {
                hand = true;
                edited.push((o.rel.clone(), String::new()));
            }
        }
        if differing.is_empty() || hand {
            continue;
        }
        let inputs = changed_inputs(&format!("results_table.{}", r.name), &r.sources);
        let why = if differing.iter().all(|d| disk(d).is_none()) {
            "missing".to_string()
        } else if inputs.is_empty() {
            "spec or quoted numbers changed".to_string()
        } else {
            format!("input changed: {}", inputs.join(", "))
        };
        out.push((r.name.clone(), differing, why));
    }
    let held = build
        .results_held
        .iter()
        .map(|n| (n, "keeps its files while a part fails"));
    for (name, what) in (build.results_skipped.iter())
        .map(|n| (n, "removes its files"))
        .chain(held)
    {
        let files: Vec<String> = crate::results::outputs(spec, name)
            .into_iter()
            .filter(|o| spec.root.join(o).exists())
            .collect();
        if !files.is_empty() {
            out.push((
                name.clone(),
                files,
                format!("its table is unavailable; `artifact gen` {what}"),
            ));
        }
    }
    out
}
