//! `artifact lint`: the paper's prose against the numbers and figures
//! artifact made for it.
//!
//! Reads the paper's LaTeX and typst sources (`main.tex` and `main.typ` in
//! the spec's folder when no file is named, and every file they `\input`,
//! `\include` or `include`), and the numbers, figures and results tables
//! `artifact.lock` records (what `gen` last wrote: lint computes nothing,
//! so it takes milliseconds). It reports
//!
//! - a number typed by hand that is a computed number's printed text, or
//!   its value rounded as typed (error `typed-number`, with the macro to
//!   write instead);
//! - a number key or generated command used but not defined (error
//!   `unknown-key`);
//! - a declared number (a family counts as one) that the paper never uses,
//!   and a figure or results table it never includes (warnings
//!   `unused-number`, `unused-figure`, `unused-table`).
//!
//! A comment holding `artifact-lint: ignore` exempts its line. Generated
//! files (those the lock lists) are never read as prose.

mod latex;
mod scan;
mod typed;
mod typst;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use scan::{Scan, What};

use crate::error::{Error, Result};
use crate::lock::Lock;
use crate::spec::LoadedSpec;

/// How much a finding matters: errors fail `lint` (exit 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// One finding, at a file's 1-based line and column (in characters).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Finding {
    /// The file, relative to the spec's folder when inside it.
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub severity: Severity,
    /// `typed-number`, `unknown-key`, `unused-number`, `unused-figure`,
    /// `unused-table`, `missing-file`.
    pub kind: &'static str,
    pub message: String,
}

/// What `lint` found, in file order.
#[derive(Debug, serde::Serialize)]
pub struct Report {
    /// The files read, in the order they were reached.
    pub files: Vec<String>,
    pub findings: Vec<Finding>,
    pub errors: usize,
    pub warnings: usize,
}

/// At most this many files are read (an `\input` loop is cut by the
/// visited set; this bounds a paper of generated includes).
const MAX_FILES: usize = 10_000;

/// The largest source file lint reads: a paper's are kilobytes.
const MAX_FILE_BYTES: u64 = 16 << 20;

/// Source kinds by extension.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Latex,
    Typst,
}

fn kind_of(path: &Path) -> Option<Kind> {
    match path.extension()?.to_str()? {
        "tex" | "ltx" => Some(Kind::Latex),
        "typ" => Some(Kind::Typst),
        _ => None,
    }
}

/// A number as the lock recorded it.
struct Num<'a> {
    key: &'a str,
    text: &'a str,
    value: f64,
}

/// A file to read: its path, the folder LaTeX resolves its inputs from,
/// and where it was included (file, line, column; `None` when named).
type Queued = (PathBuf, PathBuf, Option<(String, usize, usize)>);

/// Lints the paper: `files` (paths as given, relative to the current
/// folder), or the spec folder's `main.tex` and `main.typ`.
///
/// Errors: no `artifact.lock` (lint compares with what `gen` recorded), a
/// named file that cannot be read or is neither `.tex` nor `.typ`, or no
/// main file when none is named.
pub fn lint(spec: &LoadedSpec, files: &[PathBuf]) -> Result<Report> {
    let lock = Lock::read(&spec.root)?.ok_or_else(|| {
        Error::msg(format!(
            "no artifact.lock in {}: run `artifact gen` first (lint compares the paper with the numbers it recorded)",
            spec.root.display()
        ))
    })?;
    let mut queue: Vec<Queued> = Vec::new();
    if files.is_empty() {
        for name in ["main.tex", "main.typ"] {
            let p = spec.root.join(name);
            if p.is_file() {
                queue.push((p, spec.root.clone(), None));
            }
        }
        if queue.is_empty() {
            return Err(Error::msg(format!(
                "no main.tex or main.typ in {}: name the paper's files (`artifact lint paper.tex`)",
                spec.root.display()
            )));
        }
    } else {
        for f in files {
            if kind_of(f).is_none() {
                return Err(Error::msg(format!(
                    "{}: lint reads LaTeX (.tex) and typst (.typ) files",
                    f.display()
                )));
            }
            let base = f.parent().map(Path::to_path_buf).unwrap_or_default();
            queue.push((f.clone(), base, None));
        }
    }
    let nums: Vec<Num> = lock
        .numbers
        .iter()
        .map(|(k, n)| Num {
            key: k,
            text: &n.text,
            value: n.value.parse().unwrap_or(f64::NAN),
        })
        .collect();
    // Numbers whose text at git HEAD differs from the lock's now (none
    // outside a repository): prose that still prints the old text is stale.
    let head = crate::diff::lock_at(spec, "HEAD").ok();
    let stale: Vec<(Num, &str)> = head
        .iter()
        .flat_map(|h| &h.numbers)
        .filter_map(|(k, old)| {
            let now = lock.numbers.get(k).map_or("(removed)", |n| n.text.as_str());
            (now != old.text).then(|| {
                let num = Num {
                    key: k,
                    text: &old.text,
                    value: old.value.parse().unwrap_or(f64::NAN),
                };
                (num, now)
            })
        })
        .collect();
    let commands: BTreeMap<String, &str> = nums
        .iter()
        .map(|n| (crate::plan::keys::tex_name(n.key), n.key))
        .collect();
    let generated: BTreeSet<&str> = lock.outputs.keys().map(String::as_str).collect();

    // Read every file, following includes.
    let mut scanned: Vec<(String, Kind, Scan, PathBuf, PathBuf)> = Vec::new();
    let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
    let mut findings = Vec::new();
    let mut next = 0;
    while next < queue.len() && scanned.len() < MAX_FILES {
        let (path, base, from) = queue[next].clone();
        next += 1;
        let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
        if !seen.insert(canonical) {
            continue;
        }
        let shown = shown_path(&spec.root, &path);
        let Some(kind) = kind_of(&path) else { continue };
        // A generated file is artifact's output, not prose, even when named.
        if relative(&spec.root, &path).is_some_and(|r| generated.contains(r.as_str())) {
            continue;
        }
        if let Ok(m) = std::fs::metadata(&path)
            && m.is_file()
            && m.len() > MAX_FILE_BYTES
        {
            return Err(Error::msg(format!(
                "{shown}: {} bytes; lint reads sources of at most {MAX_FILE_BYTES} bytes (16 MiB)",
                m.len()
            )));
        }
        let bytes = match crate::output::read_regular(&path) {
            Ok(Some(b)) => b,
            Ok(None) => match from {
                None => return Err(Error::msg(format!("{}: no such file", path.display()))),
                Some((file, line, column)) => {
                    findings.push(Finding {
                        file,
                        line,
                        column,
                        severity: Severity::Warning,
                        kind: "missing-file",
                        message: format!("{shown} is included but does not exist"),
                    });
                    continue;
                }
            },
            Err(e) => return Err(Error::io(&path, e)),
        };
        let text = String::from_utf8_lossy(&bytes);
        let s = match kind {
            Kind::Latex => latex::scan(&text),
            Kind::Typst => typst::scan(&text),
        };
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        for f in &s.found {
            if let What::Include(inc) = &f.what {
                let mut p = resolve(kind, &base, &dir, inc);
                if kind == Kind::Latex && p.extension().is_none() {
                    p.set_extension("tex");
                }
                if let Some(rel) = relative(&spec.root, &p)
                    && generated.contains(rel.as_str())
                {
                    continue;
                }
                queue.push((p, base.clone(), Some((shown.clone(), f.line, f.column))));
            }
        }
        scanned.push((shown, kind, s, dir, base));
    }

    // Definitions anywhere count everywhere (a macro file may define them).
    let defined: BTreeSet<&str> = scanned
        .iter()
        .flat_map(|(_, _, s, _, _)| &s.found)
        .filter_map(|f| match &f.what {
            What::Defines(n) => Some(n.as_str()),
            _ => None,
        })
        .collect();
    let mut used_keys: BTreeSet<&str> = BTreeSet::new();
    let mut used_paths: BTreeSet<String> = BTreeSet::new();
    let mut used_names: BTreeSet<String> = BTreeSet::new();
    let keys: Vec<&str> = nums.iter().map(|n| n.key).collect();
    let is_key = |k: &str| lock.numbers.contains_key(k);
    for (file, kind, s, dir, base) in &scanned {
        let at = |f: &scan::Found, severity, kind: &'static str, message: String| Finding {
            file: file.clone(),
            line: f.line,
            column: f.column,
            severity,
            kind,
            message,
        };
        for f in &s.found {
            if s.ignored.contains(&f.line) {
                continue;
            }
            match &f.what {
                What::Number(t) => {
                    let hits: Vec<(&Num, typed::Match)> = nums
                        .iter()
                        .filter_map(|n| typed::equals(t, n.text, n.value).map(|why| (n, why)))
                        .collect();
                    if hits.is_empty() {
                        // Not a number now, but one at HEAD: typed by hand
                        // and gone stale when the data changed.
                        if let Some((n, why, now)) = stale.iter().find_map(|(n, now)| {
                            typed::equals(t, n.text, n.value).map(|why| (n, why, now))
                        }) {
                            findings.push(at(
                                f,
                                Severity::Error,
                                "stale-number",
                                format!(
                                    "`{}` is typed by hand and stale: {} at HEAD; it is now {now}; write {}",
                                    t.text,
                                    why.describe(&format!("number `{}` ({})", n.key, n.text)),
                                    macro_for(*kind, n.key)
                                ),
                            ));
                        }
                    }
                    if let Some((n, why)) = hits.first() {
                        let write = macro_for(*kind, n.key);
                        let others = if hits.len() > 1 {
                            let list: Vec<&str> =
                                hits.iter().skip(1).take(3).map(|(n, _)| n.key).collect();
                            format!(" (it also matches {})", list.join(", "))
                        } else {
                            String::new()
                        };
                        findings.push(at(
                            f,
                            Severity::Error,
                            "typed-number",
                            format!(
                                "`{}` is typed by hand: {}; write {write}{others}",
                                t.text,
                                why.describe(&format!("number `{}` ({})", n.key, n.text))
                            ),
                        ));
                    }
                }
                What::Key(k) => {
                    if is_key(k) {
                        used_keys.insert(k.as_str());
                    } else {
                        findings.push(at(
                            f,
                            Severity::Error,
                            "unknown-key",
                            format!("no number has the key `{k}`{}", did_you_mean(k, &keys)),
                        ));
                    }
                }
                What::Command(c) => match commands.get(c) {
                    Some(k) => {
                        used_keys.insert(k);
                    }
                    None if defined.contains(c.as_str()) => {}
                    None => {
                        let names: Vec<&str> = commands.keys().map(String::as_str).collect();
                        findings.push(at(
                            f,
                            Severity::Error,
                            "unknown-key",
                            format!(
                                "\\{c} is not a number's command (generated/macros.tex defines \\art + the key in CamelCase){}",
                                did_you_mean(c, &names).replace('`', "").replace("mean ", "mean \\")
                            ),
                        ));
                    }
                },
                What::Ident { name, hash } => {
                    if is_key(name) {
                        used_keys.insert(name.as_str());
                    } else if let Some(k) = (*hash && !defined.contains(name.as_str()))
                        .then(|| keys.iter().find(|k| name.starts_with(&format!("{k}-"))))
                        .flatten()
                    {
                        findings.push(at(
                            f,
                            Severity::Error,
                            "unknown-key",
                            format!(
                                "typst reads `#{name}` as one name, which no number has; write `#{k};{}`",
                                &name[k.len()..]
                            ),
                        ));
                    } else if *hash
                        && !defined.contains(name.as_str())
                        && looks_like_key(name, &keys)
                    {
                        findings.push(at(
                            f,
                            Severity::Error,
                            "unknown-key",
                            format!(
                                "no number has the key `{name}`{}",
                                did_you_mean(name, &keys)
                            ),
                        ));
                    }
                }
                What::Path(p) | What::Include(p) => {
                    if let Some(rel) = relative(&spec.root, &resolve(*kind, base, dir, p)) {
                        used_paths.insert(stem(&rel));
                    }
                    // `\graphicspath{{figures/}}` then `\includegraphics{fig1}`.
                    if *kind == Kind::Latex && !p.contains('/') {
                        used_names.insert(stem(p));
                    }
                }
                What::Defines(_) => {}
            }
        }
    }
    findings.extend(unused(spec, &lock, &used_keys, &used_paths, &used_names));
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    Ok(Report {
        files: scanned.into_iter().map(|(f, ..)| f).collect(),
        warnings: findings.len() - errors,
        errors,
        findings,
    })
}

/// Declared numbers, figures and results tables the paper never uses.
fn unused(
    spec: &LoadedSpec,
    lock: &Lock,
    used_keys: &BTreeSet<&str>,
    used_paths: &BTreeSet<String>,
    used_names: &BTreeSet<String>,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let place = |section: &str, name: &str, span: std::ops::Range<usize>| {
        let span = crate::spec::paths::key_span(spec, section, name, span);
        let (line, column, _) = crate::error::line_col(&spec.text, span.start);
        (line, column)
    };
    for (name, n) in &spec.spec.numbers {
        let members: Vec<&str> = lock
            .numbers
            .iter()
            .filter(|(k, l)| {
                l.family.as_deref() == Some(name.as_str()) || (l.family.is_none() && *k == name)
            })
            .map(|(k, _)| k.as_str())
            .collect();
        if members.is_empty() || members.iter().any(|k| used_keys.contains(k)) {
            continue;
        }
        let (line, column) = place("numbers", name, n.span());
        let message = if crate::numbers::family::is_family(spec, name) {
            format!(
                "no number of family `{name}` ({}) is used in the paper",
                members.join(", ")
            )
        } else {
            format!("number `{name}` is used nowhere in the paper")
        };
        out.push(Finding {
            file: crate::spec::SPEC_FILE.into(),
            line,
            column,
            severity: Severity::Warning,
            kind: "unused-number",
            message,
        });
    }
    let included = |outputs: &[String]| {
        outputs.iter().any(|o| {
            let s = stem(o);
            used_paths.contains(&s) || used_names.contains(s.rsplit('/').next().unwrap_or(&s))
        })
    };
    let figures = spec
        .spec
        .figures
        .iter()
        .map(|(n, f)| (n, f.span(), lock.figures.get(n)));
    let tables = spec
        .spec
        .results_tables
        .iter()
        .map(|(n, r)| (n, r.span(), lock.results_tables.get(n)));
    let kinds = figures
        .map(|(n, span, l)| ("figures", "figure", "unused-figure", n, span, l))
        .chain(tables.map(|(n, span, l)| {
            (
                "results_tables",
                "results table",
                "unused-table",
                n,
                span,
                l,
            )
        }));
    for (section, what, kind, name, span, locked) in kinds {
        if let Some(l) = locked
            && !l.outputs.is_empty()
            && !included(&l.outputs)
        {
            let (line, column) = place(section, name, span);
            out.push(Finding {
                file: crate::spec::SPEC_FILE.into(),
                line,
                column,
                severity: Severity::Warning,
                kind,
                message: format!(
                    "{what} `{name}` ({}) is never included in the paper",
                    l.outputs.join(", ")
                ),
            });
        }
    }
    out
}

/// A path a source names: LaTeX reads it from the main file's folder
/// (`base`); typst from the including file's (`dir`), or from the project
/// root (the main file's folder) when it starts with `/`.
fn resolve(kind: Kind, base: &Path, dir: &Path, p: &str) -> PathBuf {
    match (kind, p.strip_prefix('/')) {
        (Kind::Latex, _) => base.join(p),
        (Kind::Typst, Some(rooted)) => base.join(rooted),
        (Kind::Typst, None) => dir.join(p),
    }
}

/// What to write instead of a typed number.
fn macro_for(kind: Kind, key: &str) -> String {
    match kind {
        Kind::Latex => format!("\\artnum{{{key}}}"),
        // A key that typst cannot end at a space reads as `#key;`.
        Kind::Typst => format!("#{key}"),
    }
}

/// ` (did you mean `x`?)` for the most similar name (Jaro-Winkler at
/// least 0.8), if any.
fn did_you_mean(name: &str, names: &[&str]) -> String {
    names
        .iter()
        .map(|n| (strsim::jaro_winkler(name, n), *n))
        .filter(|(s, _)| *s >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(a.1)))
        .map(|(_, n)| format!(" (did you mean `{n}`?)"))
        .unwrap_or_default()
}

/// Whether a typst `#name` that is no key was likely meant as one: it is a
/// few edits from a key, or shares a key's first `-` part (`fig2-count`
/// beside `fig2-bf16-n`). Other names are typst's or a package's.
fn looks_like_key(name: &str, keys: &[&str]) -> bool {
    let head = |s: &str| s.split('-').next().unwrap_or("").to_string();
    keys.iter().any(|k| {
        strsim::levenshtein(name, k) <= 2
            || (name.contains('-') && k.contains('-') && head(name) == head(k))
    })
}

/// `path` relative to `root`, `/`-separated, `..` resolved; `None` when
/// it leaves `root`.
fn relative(root: &Path, path: &Path) -> Option<String> {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(path)
    };
    let mut parts: Vec<String> = Vec::new();
    for c in abs.components() {
        match c {
            Component::ParentDir => {
                parts.pop();
            }
            Component::Normal(s) => parts.push(s.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => parts.clear(),
        }
    }
    let normalized: PathBuf = std::iter::once("/".to_string()).chain(parts).collect();
    crate::spec::paths::relative_to(&root, &normalized).filter(|r| !r.starts_with(".."))
}

/// A path without its extension (`figures/fig1.pdf` -> `figures/fig1`).
fn stem(path: &str) -> String {
    match path.rfind('.') {
        Some(dot) if !path[dot..].contains('/') => path[..dot].to_string(),
        _ => path.to_string(),
    }
}

/// A path as shown: relative to the spec's folder when inside it.
fn shown_path(root: &Path, path: &Path) -> String {
    relative(root, path).unwrap_or_else(|| path.display().to_string())
}

impl Report {
    /// One line per finding (`file:line:col: severity[kind]: message`),
    /// then a summary line.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        for f in &self.findings {
            let sev = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            out.push_str(&format!(
                "{}:{}:{}: {sev}[{}]: {}\n",
                f.file, f.line, f.column, f.kind, f.message
            ));
        }
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        out.push_str(&format!(
            "lint: {}, {} in {} ({})\n",
            plural(self.errors, "error"),
            plural(self.warnings, "warning"),
            plural(self.files.len(), "file"),
            self.files.join(", ")
        ));
        out
    }

    /// The report as JSON: `{files, findings: [{file, line, column,
    /// severity, kind, message}], errors, warnings}`.
    pub fn render_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a report is JSON");
        s.push('\n');
        s
    }
}
