//! The full check: what on disk differs from a build of the whole spec,
//! and what changed since the lock. Each kind of output is its own step.

use std::collections::BTreeSet;

use super::{CheckReport, number_changes};
use crate::fingerprint::Fingerprint;
use crate::lock::{Lock, hash_bytes, tool};
use crate::run;
use crate::spec::LoadedSpec;

/// What on disk differs from `build` (all of the spec, built without a
/// lock) and from `lock`: the full check. Takes `build`'s errors.
pub fn compare(
    spec: &LoadedSpec,
    build: &mut run::Build,
    lock: Option<&Lock>,
    fix: String,
    leftovers: Vec<String>,
) -> CheckReport {
    // A number or figure that fails is reported after the table of what is
    // stale (exit 2); a spec error stops before (in `run::build`).
    let mut r = CheckReport {
        fix,
        leftovers,
        errors: std::mem::take(&mut build.errors),
        ..CheckReport::default()
    };
    let build = &*build;
    let fp = &build.fingerprint;
    let changed_inputs =
        |part: &str, sources: &BTreeSet<String>| run::changed_inputs(fp, lock, part, sources);
    // Numbers: committed text (the lock's) against the text now.
    r.numbers = number_changes(spec, build, lock);
    macro_files(&mut r, spec, build, lock);
    figures(&mut r, spec, build, lock, &changed_inputs);
    r.results_tables =
        crate::run::results::stale(spec, build, lock, &changed_inputs, &mut r.edited);
    if let Some(l) = lock {
        records(&mut r, spec, build, l);
    }
    orphans(&mut r, spec, fp, lock);
    inputs(&mut r, fp, lock);
    r
}

/// The hash of output `rel` on disk, if it is there.
fn disk_hash(spec: &LoadedSpec, rel: &str) -> Option<String> {
    crate::output::read_output(&spec.root, rel).map(|b| hash_bytes(&b))
}

/// Whether output `rel` on disk differs from what the lock recorded.
fn edited(spec: &LoadedSpec, lock: Option<&Lock>, rel: &str) -> bool {
    let locked = lock.and_then(|l| l.outputs.get(rel));
    let disk = disk_hash(spec, rel);
    locked.is_some() && disk.is_some() && disk.as_ref() != locked
}

/// The macro files: edited by hand (naming the numbers typed in), or
/// stale when no number's text explains it.
fn macro_files(r: &mut CheckReport, spec: &LoadedSpec, build: &run::Build, lock: Option<&Lock>) {
    for out in &build.number_outputs {
        let disk = crate::output::read_output(&spec.root, &out.rel);
        if disk.as_deref() == Some(&out.bytes[..]) {
            continue;
        }
        if edited(spec, lock, &out.rel) {
            let mut detail = String::new();
            if out.rel.ends_with(".tex")
                && let Some(d) = &disk
            {
                detail = typed_in(build, lock, &String::from_utf8_lossy(d));
            }
            r.edited.push((out.rel.clone(), detail));
        } else if r.numbers.is_empty() {
            r.stale_files.push(format!(
                "{} ({})",
                out.rel,
                if disk.is_none() { "missing" } else { "differs" }
            ));
        }
    }
}

/// The numbers of an edited macros.tex (`disk`) that read neither what
/// gen wrote nor what the data gives now: typed in by hand.
fn typed_in(build: &run::Build, lock: Option<&Lock>, disk: &str) -> String {
    let now: std::collections::BTreeMap<String, String> = build
        .numbers
        .iter()
        .map(|n| (n.key.clone(), crate::emit::tex_escape_text(&n.text)))
        .collect();
    let committed = |k: &str| {
        lock.and_then(|l| l.numbers.get(k))
            .map(|n| crate::emit::tex_escape_text(&n.text))
    };
    // A value that is neither what gen wrote nor what the data
    // gives now was typed in by hand.
    let diffs: Vec<String> = tex_numbers(disk)
        .into_iter()
        .filter(|(k, v)| committed(k).is_some_and(|c| &c != v))
        .map(|(k, v)| {
            let data = now.get(&k).cloned().unwrap_or_default();
            format!("{k} reads {v}, the data gives {data}")
        })
        .collect();
    diffs.join("; ")
}

/// `\@namedef{artnum@KEY}{TEXT}` pairs of a macros.tex written by the
/// built-in template (for naming the number edited by hand).
fn tex_numbers(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("\\@namedef{artnum@")?;
            let (key, rest) = rest.split_once("}{")?;
            let value = rest.strip_suffix('}')?;
            Some((key.to_string(), value.to_string()))
        })
        .collect()
}

/// Figures whose files differ (with why), and figures the data no longer
/// draws whose files are still there.
fn figures(
    r: &mut CheckReport,
    spec: &LoadedSpec,
    build: &run::Build,
    lock: Option<&Lock>,
    changed_inputs: &dyn Fn(&str, &BTreeSet<String>) -> Vec<String>,
) {
    for f in &build.figures {
        let mut differing = Vec::new();
        let mut hand = false;
        for o in &f.outputs {
            let disk = crate::output::read_output(&spec.root, &o.rel);
            if disk.as_deref() != Some(&o.bytes[..]) {
                differing.push(o.rel.clone());
                if edited(spec, lock, &o.rel) {
                    hand = true;
                    r.edited.push((o.rel.clone(), String::new()));
                }
            }
        }
        if differing.is_empty() || hand {
            continue;
        }
        let inputs = changed_inputs(&format!("figure.{}", f.name), &f.sources);
        let quoted = lock.map_or_else(Vec::new, |l| {
            let q = crate::fingerprint::figure_quotes(spec, &f.name);
            crate::fingerprint::changed_numbers(l, build.earlier(), &q)
        });
        let why = if differing.iter().all(|d| disk_hash(spec, d).is_none()) {
            "missing".to_string()
        } else if !inputs.is_empty() {
            format!("input changed: {}", inputs.join(", "))
        } else if !quoted.is_empty() {
            format!("quoted number changed: {}", quoted.join(", "))
        } else {
            "spec changed".to_string()
        };
        r.figures.push((f.name.clone(), differing, why));
    }
    // Held by a failed run, a figure with nothing to draw keeps its files
    // (see `run::Build::held`): stale all the same.
    let held = build
        .held
        .iter()
        .map(|(n, w)| (n, w, "; `artifact gen` keeps its files while a part fails"));
    for (name, why, more) in build.skipped.iter().map(|(n, w)| (n, w, "")).chain(held) {
        let outs: Vec<String> = run::figure_outputs(spec, name)
            .into_iter()
            .filter(|o| spec.root.join(o).exists())
            .collect();
        if !outs.is_empty() {
            r.figures.push((
                name.clone(),
                outs,
                format!("the data no longer draws it: {why}{more}"),
            ));
        }
    }
}

/// The name [`Lock::failed`] gives a figure or results table.
fn part(kind: &str, name: &str) -> String {
    match kind {
        "figure" => format!("figure.{name}"),
        _ => format!("results_table.{name}"),
    }
}

/// A note for each figure and results table whose files match the data
/// but whose record in the lock is missing or was edited: `gen` writes it
/// again, and says so (`rebuilt fig1 (not in artifact.lock)`).
fn records(r: &mut CheckReport, spec: &LoadedSpec, build: &run::Build, l: &Lock) {
    let fp = &build.fingerprint;
    let names = |list: &[(String, Vec<String>, String)]| -> BTreeSet<String> {
        list.iter().map(|(n, _, _)| n.clone()).collect()
    };
    let stale = [
        ("figure", names(&r.figures)),
        ("results table", names(&r.results_tables)),
    ];
    let figures = build.figures.iter().map(|f| {
        let quoted = crate::fingerprint::figure_quotes(spec, &f.name);
        let covered = crate::fingerprint::figure_sources(spec, &f.name);
        let key = build.figure_keys.get(&f.name);
        (
            ("figure", &f.name),
            l.figures.get(&f.name),
            key,
            quoted,
            covered,
        )
    });
    let tables = build.results.iter().map(|t| {
        let quoted = crate::fingerprint::results_table_quotes(spec, &t.name);
        let key = build.results_keys.get(&t.name);
        let rec = l.results_tables.get(&t.name);
        (
            ("results table", &t.name),
            rec,
            key,
            quoted,
            t.sources.clone(),
        )
    });
    for ((kind, name), rec, key, quoted, covered) in figures.chain(tables) {
        if stale
            .iter()
            .any(|(k, set)| *k == kind && set.contains(name))
        {
            continue;
        }
        let why = match rec {
            None => run::NOT_IN_LOCK,
            Some(rec)
                if Some(&rec.key) != key
                    && run::changed_inputs(fp, Some(l), &part(kind, name), &covered).is_empty()
                    && crate::fingerprint::changed_numbers(l, build.earlier(), &quoted)
                        .is_empty()
                    && run::unexplained(fp, l) == run::RECORD_EDITED =>
            {
                run::RECORD_EDITED
            }
            Some(_) => continue,
        };
        r.notes.push(format!(
            "{kind} `{name}`: {why}; its files match the data, and `artifact gen` records it again"
        ));
    }
}

/// Outputs the last run wrote that the spec no longer writes, and files
/// of formats dropped from `[output] formats`.
fn orphans(r: &mut CheckReport, spec: &LoadedSpec, fp: &Fingerprint, lock: Option<&Lock>) {
    if let Some(l) = lock {
        let (recorded, edited) = run::orphans(spec, fp, l);
        r.orphaned.extend(recorded.into_iter().map(|f| (f, false)));
        r.orphaned.extend(edited.into_iter().map(|f| (f, true)));
        r.orphaned.sort();
    }
    // A format dropped from `[output] formats` leaves no file behind (one
    // the lock lists is orphaned, above).
    for name in spec.spec.figures.keys() {
        for p in run::dropped_format_files(spec, name) {
            if r.orphaned.iter().any(|(f, _)| *f == p) {
                continue;
            }
            let ext = p.rsplit('.').next().unwrap_or_default().to_string();
            r.stale_files.push(format!(
                "{p} (orphaned: `[output] formats` has no {ext}; `artifact gen` removes it if it wrote it, else delete it)"
            ));
        }
    }
}

/// Inputs added, changed or removed since the lock, and a note when
/// something changed that no output shows.
fn inputs(r: &mut CheckReport, fp: &Fingerprint, lock: Option<&Lock>) {
    match lock {
        Some(l) => {
            let now = fp.inputs();
            for (f, h) in &now {
                match l.inputs.get(f) {
                    None => r.inputs.push(("added", f.clone())),
                    Some(old) if old != h => r.inputs.push(("changed", f.clone())),
                    _ => {}
                }
            }
            for f in l.inputs.keys().filter(|f| !now.contains_key(*f)) {
                r.inputs.push(("removed", f.clone()));
            }
            if !r.stale() && (!r.inputs.is_empty() || l.spec != fp.spec || l.tool != tool()) {
                r.notes.push("inputs or spec changed without changing any output; `artifact gen` refreshes artifact.lock".into());
            }
        }
        None => r
            .notes
            .push("no artifact.lock yet: `artifact gen` writes one".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_numbers_from_macros_tex() {
        let t = "\\@namedef{artnum@fig3-median}{3.859}\n\\providecommand{\\artFigThreeMedian}{\\artnum{fig3-median}}\n";
        assert_eq!(
            tex_numbers(t),
            vec![("fig3-median".to_string(), "3.859".to_string())]
        );
    }
}
