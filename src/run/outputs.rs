//! Where a run writes: every output path of a spec, and the check that
//! no output lands on an input or outside the spec's folder.

use std::collections::BTreeMap;

use crate::error::Result;
use crate::sources::globs;
use crate::spec::LoadedSpec;

use super::{figure_outputs, rel};

/// The files the numbers are written to (macros.tex, macros.typ,
/// numbers.json in the `generated` folder).
pub fn number_files(spec: &LoadedSpec) -> Vec<String> {
    let generated = spec.spec.output.generated.get_ref();
    crate::spec::paths::NUMBER_FILES
        .iter()
        .map(|f| rel(generated, f))
        .collect()
}

/// Every output path `spec` can write (figures, macro files, the lock).
pub fn all_outputs(spec: &LoadedSpec) -> Vec<String> {
    let mut all: Vec<String> = spec
        .spec
        .figures
        .keys()
        .flat_map(|name| figure_outputs(spec, name))
        .collect();
    all.extend(number_files(spec));
    for name in spec.spec.results_tables.keys() {
        all.extend(crate::results::outputs(spec, name));
    }
    all.push(crate::lock::LOCK_FILE.to_string());
    all
}

/// The real path of `rel` under `root`: its folder resolved (symbolic
/// links, `..`) as far as it exists, then the rest as written.
pub(super) fn real_path(root: &std::path::Path, rel: &str) -> std::path::PathBuf {
    let full = root.join(rel);
    let mut existing = full.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            return rest.iter().rev().fold(real, |p, r| p.join(r));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return full,
        }
    }
}

/// `path` with `.` and `..` components resolved lexically (a glob
/// pattern cannot be canonicalized).
fn lexical(path: &std::path::Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// Which part of the spec writes output `rel`, for an error: its span and
/// its name (`figure `fig1``, `the numbers`, `the lock`).
fn writer_of(spec: &LoadedSpec, rel: &str) -> (std::ops::Range<usize>, String) {
    for name in spec.spec.figures.keys() {
        if figure_outputs(spec, name).iter().any(|o| o == rel) {
            let span =
                crate::spec::paths::key_span(spec, "figures", name, spec.spec.figures[name].span());
            return (span, format!("figure `{name}`"));
        }
    }
    for name in spec.spec.results_tables.keys() {
        if crate::results::outputs(spec, name).iter().any(|o| o == rel) {
            let r = &spec.spec.results_tables[name];
            let span = crate::spec::paths::key_span(spec, "results_tables", name, r.span());
            return (span, format!("results table `{name}`"));
        }
    }
    if rel == crate::lock::LOCK_FILE {
        return (0..0, "artifact gen (its lock)".into());
    }
    (spec.spec.output.generated.span(), "the numbers".into())
}

/// Refuses, before anything is read or written, any output of the spec
/// (every figure's files, the macro files, the lock; not only those this
/// run rebuilds) that is an input of the spec: a file a source reads or
/// would read (its glob matches the output's path, so a later run would
/// read what this one writes), a template, or the spec itself.
pub fn outputs_apart_from_inputs(spec: &LoadedSpec) -> Result<()> {
    let outputs = all_outputs(spec);
    let mut inputs: BTreeMap<std::path::PathBuf, String> = BTreeMap::new();
    let mut patterns: Vec<(glob::Pattern, String, String)> = Vec::new();
    for (name, src) in &spec.spec.sources {
        let Some(raw) = &src.get_ref().path else {
            continue;
        };
        let (files, missing) = crate::sources::resolve(spec, src)?;
        for f in &files {
            inputs.insert(
                real_path(&spec.root, &f.abs.to_string_lossy()),
                format!("source `{name}` reads it"),
            );
        }
        for m in &missing {
            inputs.insert(
                real_path(&spec.root, m),
                format!("source `{name}` reads it when it exists"),
            );
        }
        for p in crate::sources::path_list(spec, raw)? {
            if globs::is_glob(&p) {
                // The folders before the first wildcard resolved as a
                // path (a link to the figures folder is that folder), and
                // matched as written (escaped): only the rest is a glob.
                let (folder, rest) = globs::split(&p);
                let literal = lexical(&spec.root.join(folder));
                let rest: Vec<&str> = rest
                    .split('/')
                    .filter(|c| !c.is_empty() && *c != ".")
                    .collect();
                if let Ok(pattern) = globs::under(&real_path(&literal, ""), &rest.join("/")) {
                    patterns.push((pattern, name.clone(), p));
                }
            }
        }
    }
    let t = &spec.spec.templates;
    for p in [&t.tex, &t.typ, &t.json].into_iter().flatten() {
        inputs.insert(
            real_path(&spec.root, p.get_ref()),
            "it is a template".into(),
        );
    }
    inputs.insert(
        real_path(&spec.root, crate::spec::SPEC_FILE),
        "it is the spec".into(),
    );
    // As the sources expand globs (`*` matches a leading dot, not a
    // separator).
    let literal = globs::OPTIONS;
    for out in &outputs {
        let why = inputs
            .get(&real_path(&spec.root, out))
            .cloned()
            .or_else(|| {
                let full = real_path(&spec.root, out);
                patterns
                    .iter()
                    .find(|(pat, _, _)| pat.matches_path_with(&full, literal))
                    .map(|(_, name, p)| format!("source `{name}` reads `{p}`, which matches it"))
            });
        if let Some(why) = why {
            let (span, what) = writer_of(spec, out);
            return Err(spec.error(
                span,
                format!("{what} would write {out}, but {why}: an output never overwrites an input (rename it or change [output])"),
            ));
        }
    }
    Ok(())
}
