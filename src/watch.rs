//! `artifact watch`: rebuild what changed whenever an input, the spec or a
//! template changes, until interrupted.
//!
//! The spec's folder is watched recursively (the `notify` crate through
//! `notify-debouncer-full`: a burst of writes, as an editor's save or a
//! logger's flush makes, is one event after `debounce` of quiet). An event
//! counts when it creates, modifies or removes a file (reading one, as the
//! rebuild itself does, is no change) that is the spec, one of
//! `[templates]`, or matches a source's path; artifact's own outputs, the lock, temporary files and
//! whatever else is in the folder (the paper's PDF, LaTeX's `.aux`) never
//! trigger a rebuild, so `typst watch` or `latexmk -pvc` beside it do not
//! make a loop. The rebuild itself is the caller's (`gen` without
//! `--force`: only what changed is rebuilt); its errors are printed and the
//! watch goes on.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use notify_debouncer_full::{new_debouncer, notify::RecursiveMode};

use crate::error::{Error, Result};
use crate::spec::{LoadedSpec, SPEC_FILE};

/// The files under `root` (relative, `/`-separated) that should trigger a
/// rebuild, of the `paths` an event names.
pub fn relevant(root: &Path, spec: Option<&LoadedSpec>, paths: &[PathBuf]) -> Vec<String> {
    let patterns = spec.map(crate::diff::source_patterns).unwrap_or_default();
    let templates: Vec<&str> = spec
        .map(|s| {
            let t = &s.spec.templates;
            [&t.tex, &t.typ, &t.json]
                .into_iter()
                .flatten()
                .map(|p| p.get_ref().trim_start_matches("./"))
                .collect()
        })
        .unwrap_or_default();
    let mut out: Vec<String> = paths
        .iter()
        .filter_map(|p| crate::spec::paths::relative_to(root, p))
        .filter(|rel| {
            rel == SPEC_FILE
                || templates.contains(&rel.as_str())
                || patterns.values().flatten().any(|p| p.matches(rel))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Watches the folder of the spec at `spec_path`, calls `rebuild` with no
/// files once the watch is set, then with the changed files (see
/// [`relevant`]) after each quiet `debounce`.
/// Returns only when the watcher fails (an error naming the folder).
pub fn run(spec_path: &Path, debounce: Duration, rebuild: &mut dyn FnMut(&[String])) -> Result<()> {
    let root = spec_path
        .parent()
        .unwrap_or(Path::new("."))
        .canonicalize()
        .map_err(|e| Error::io(spec_path, e))?;
    let (tx, rx) = mpsc::channel();
    let fail = |e: notify_debouncer_full::notify::Error| {
        Error::msg(format!(
            "cannot watch {}: {e}",
            crate::error::shown(&root.display().to_string())
        ))
    };
    let mut debouncer = new_debouncer(debounce, None, tx).map_err(fail)?;
    debouncer
        .watch(&root, RecursiveMode::Recursive)
        .map_err(fail)?;
    let mut spec = crate::spec::load(&root.join(SPEC_FILE)).ok();
    // Sources beside the folder (`../data/*.csv`) are watched too.
    let mut outside: Vec<PathBuf> = Vec::new();
    let mut watch_outside =
        |spec: Option<&LoadedSpec>, debouncer: &mut notify_debouncer_full::Debouncer<_, _>| {
            for dir in spec.map(|s| outside_folders(&root, s)).unwrap_or_default() {
                if !outside.contains(&dir)
                    && debouncer.watch(&dir, RecursiveMode::Recursive).is_ok()
                {
                    outside.push(dir);
                }
            }
        };
    watch_outside(spec.as_ref(), &mut debouncer);
    // The first build once every watch is set: an edit from now on is seen.
    rebuild(&[]);
    for result in rx {
        let events = match result {
            Ok(events) => events,
            Err(mut errors) => match errors.pop() {
                Some(e) => return Err(fail(e)),
                None => continue,
            },
        };
        let paths: Vec<PathBuf> = events
            .into_iter()
            .filter(|e| e.kind.is_create() || e.kind.is_modify() || e.kind.is_remove())
            .flat_map(|e| e.event.paths)
            .collect();
        // The spec may have changed: what counts is read from the new one
        // (or, while it does not parse, from the last one that did).
        if let Ok(s) = crate::spec::load(&root.join(SPEC_FILE)) {
            spec = Some(s);
            watch_outside(spec.as_ref(), &mut debouncer);
        }
        let changed = relevant(&root, spec.as_ref(), &paths);
        if !changed.is_empty() {
            rebuild(&changed);
        }
    }
    Ok(())
}

/// The folders outside `root` that the sources' paths start in (the part
/// before any glob character), canonical.
fn outside_folders(root: &Path, spec: &LoadedSpec) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for s in spec.spec.sources.values() {
        for p in crate::diff::source_paths(s.get_ref()) {
            let literal = &p[..p.find(['*', '?', '[', '{']).unwrap_or(p.len())];
            let dir = match literal.rfind('/') {
                Some(i) => root.join(&literal[..i]),
                None => root.to_path_buf(),
            };
            if let Ok(dir) = dir.canonicalize()
                && !dir.starts_with(root)
                && !out.contains(&dir)
            {
                out.push(dir);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_spec_templates_and_source_files_count() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let text =
            "[sources.runs]\npath = \"data/*.jsonl\"\n[templates]\ntex = \"macros.tex.j2\"\n";
        std::fs::write(root.join(SPEC_FILE), text).unwrap();
        let spec = crate::spec::load(&root.join(SPEC_FILE)).unwrap();
        let paths: Vec<PathBuf> = [
            "data/a.jsonl",
            "artifact.toml",
            "macros.tex.j2",
            "main.pdf",
            "figures/f.svg",
            "artifact.lock",
            "data/notes.txt",
        ]
        .iter()
        .map(|p| root.join(p))
        .collect();
        assert_eq!(
            relevant(root, Some(&spec), &paths),
            ["artifact.toml", "data/a.jsonl", "macros.tex.j2"]
        );
    }
}
