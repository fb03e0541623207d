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
//!   a bound or the value alone of a number with an uncertainty is told
//!   to write that part (`\artnum[value]{k}`);
//! - a number key or generated command used but not defined (error
//!   `unknown-key`), a part no number has (`\artnum[vlaue]{k}`: error
//!   `unknown-part`);
//! - a declared number (a family counts as one) that the paper never uses,
//!   and a figure or results table it never includes (warnings
//!   `unused-number`, `unused-figure`, `unused-table`);
//! - a figure included at a width where its text prints under 70% of the
//!   body's size (warning `figure-text-size`, see `printed`).
//!
//! A comment holding `artifact-lint: ignore` exempts its line. Generated
//! files (those the lock lists) are never read as prose.

mod latex;
mod parts;
mod printed;
mod read;
mod scan;
mod typed;
mod typst;
mod unused;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use scan::What;

use crate::error::{Error, Result, shown};
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
    /// `unused-table`, `missing-file`, `outside-file`, `figure-text-size`.
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
    /// The text's parts (`value`, `lo`, `hi`, `pm`) with an uncertainty.
    parts: &'a BTreeMap<String, String>,
}

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
            shown(&spec.root.display().to_string())
        ))
    })?;
    let queue = read::first_files(spec, files)?;
    // Numbers whose text at git HEAD differs from the lock's now (none
    // outside a repository): prose that still prints the old text is stale.
    let head = crate::diff::lock_at(spec, "HEAD").ok();
    let known = Known::new(&lock, head.as_ref());

    // Read every file, following includes.
    let mut findings = Vec::new();
    let scanned = read::read_sources(spec, queue, &known.generated, &mut findings)?;

    // Definitions anywhere count everywhere (a macro file may define them).
    let defined: BTreeSet<&str> = scanned
        .iter()
        .flat_map(|src| &src.scan.found)
        .filter_map(|f| match &f.what {
            What::Defines(n) => Some(n.as_str()),
            _ => None,
        })
        .collect();
    let mut used = Used::default();
    for src in &scanned {
        for f in &src.scan.found {
            if src.scan.ignored.contains(&f.line) {
                continue;
            }
            check_found(spec, &known, &defined, src, f, &mut used, &mut findings);
        }
    }
    findings.extend(printed_sizes(spec, &lock, &used));
    findings.extend(unused::unused(
        spec,
        &lock,
        &used.keys,
        &used.paths,
        &used.names,
    ));
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    Ok(Report {
        files: scanned.into_iter().map(|src| src.shown).collect(),
        warnings: findings.len() - errors,
        errors,
        findings,
    })
}

/// What the lock says the paper may use: its numbers now and those whose
/// text changed since HEAD, their LaTeX commands, and the files `gen`
/// wrote (never read as prose).
struct Known<'a> {
    lock: &'a Lock,
    nums: Vec<Num<'a>>,
    /// Numbers at HEAD whose text is no longer the lock's, with the text
    /// now (`(removed)` when gone).
    stale: Vec<(Num<'a>, &'a str)>,
    commands: BTreeMap<String, &'a str>,
    generated: BTreeSet<&'a str>,
    keys: Vec<&'a str>,
}

impl<'a> Known<'a> {
    fn new(lock: &'a Lock, head: Option<&'a Lock>) -> Known<'a> {
        let nums: Vec<Num> = lock
            .numbers
            .iter()
            .map(|(k, n)| Num {
                key: k,
                text: &n.text,
                value: n.value.parse().unwrap_or(f64::NAN),
                parts: &n.parts,
            })
            .collect();
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
                        parts: &old.parts,
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
        let keys: Vec<&str> = nums.iter().map(|n| n.key).collect();
        Known {
            lock,
            nums,
            stale,
            commands,
            generated,
            keys,
        }
    }

    fn is_key(&self, k: &str) -> bool {
        self.lock.numbers.contains_key(k)
    }
}

/// What the paper uses: number keys, and the figures and tables it
/// includes (by path without extension, and by bare name for LaTeX's
/// `\graphicspath`).
#[derive(Default)]
struct Used<'a> {
    keys: BTreeSet<&'a str>,
    paths: BTreeSet<String>,
    names: BTreeSet<String>,
    /// Images included at a width: the source, where, the path (relative
    /// to the spec's folder, without extension) and the width as written.
    scaled: Vec<(&'a read::Source, &'a scan::Found, String, &'a str, bool)>,
}

/// A finding at `f` in `file`.
fn at(
    file: &str,
    f: &scan::Found,
    severity: Severity,
    kind: &'static str,
    message: String,
) -> Finding {
    Finding {
        file: file.to_string(),
        line: f.line,
        column: f.column,
        severity,
        kind,
        message,
    }
}

/// Checks one thing a source holds: records what it uses, and adds what
/// is wrong with it to `findings`.
fn check_found<'a>(
    spec: &LoadedSpec,
    known: &Known<'a>,
    defined: &BTreeSet<&str>,
    src: &'a read::Source,
    f: &'a scan::Found,
    used: &mut Used<'a>,
    findings: &mut Vec<Finding>,
) {
    let (file, kind) = (src.shown.as_str(), src.kind);
    match &f.what {
        What::Number(t) => typed_number(known, file, kind, f, t, findings),
        What::Key(k) => {
            if known.is_key(k) {
                used.keys.insert(k.as_str());
            } else {
                findings.push(at(
                    file,
                    f,
                    Severity::Error,
                    "unknown-key",
                    format!(
                        "no number has the key `{k}`{}",
                        did_you_mean(k, &known.keys)
                    ),
                ));
            }
        }
        What::Part { key, part } => {
            let number = known.nums.iter().find(|n| n.key == key);
            if let Some(m) = number.and_then(|n| parts::problem(key, part, n.parts)) {
                findings.push(at(file, f, Severity::Error, "unknown-part", m));
            }
        }
        What::Command(c) => match known.commands.get(c) {
            Some(k) => {
                used.keys.insert(k);
            }
            None if defined.contains(c.as_str()) => {}
            None => {
                let names: Vec<&str> = known.commands.keys().map(String::as_str).collect();
                findings.push(at(
                    file,
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
            if known.is_key(name) {
                used.keys.insert(name.as_str());
            } else if let Some(message) = typst_ident(known, defined, name, *hash) {
                findings.push(at(file, f, Severity::Error, "unknown-key", message));
            }
        }
        What::Path(p) | What::Include(p) => {
            if let Some(rel) = relative(&spec.root, &resolve(kind, &src.base, &src.dir, p)) {
                used.paths.insert(stem(&rel));
            }
            // `\graphicspath{{figures/}}` then `\includegraphics{fig1}`.
            if kind == Kind::Latex && !p.contains('/') {
                used.names.insert(stem(p));
            }
        }
        What::Scaled { path, width, wide } => {
            if let Some(rel) = relative(&spec.root, &resolve(kind, &src.base, &src.dir, path)) {
                used.scaled.push((src, f, stem(&rel), width, *wide));
            }
        }
        What::Defines(_) => {}
    }
}

/// Each figure included at a width where its text prints under
/// [`printed::SMALLEST`] of the body's size (warning `figure-text-size`).
/// The body's size is `[style]`'s, else the class's default (LaTeX's 10 pt,
/// typst's 11 pt).
fn printed_sizes(spec: &LoadedSpec, lock: &Lock, used: &Used) -> Vec<Finding> {
    let Ok(style) = crate::plan::sizing::style(spec) else {
        return Vec::new();
    };
    // Each figure's outputs without extension: what an include names.
    let mut by_stem: BTreeMap<String, &str> = BTreeMap::new();
    for (name, l) in &lock.figures {
        for o in &l.outputs {
            by_stem.insert(stem(o), name.as_str());
        }
    }
    let mut out = Vec::new();
    for (src, f, path, written, wide) in &used.scaled {
        let Some(&name) = by_stem.get(path) else {
            continue;
        };
        let Some(fig) = spec.spec.figures.get(name) else {
            continue;
        };
        let (Some(drawn), Some(included)) = (
            printed::drawn(spec, name, fig),
            printed::include_width(&style, written, *wide),
        ) else {
            continue;
        };
        let body = style
            .font_size
            .map(|b| b / crate::plan::sizing::BP_PER_TEX_PT)
            .unwrap_or(if src.kind == Kind::Latex { 10.0 } else { 11.0 });
        if let Some(m) = printed::message(name, drawn, (included, written), body, style.text) {
            out.push(at(&src.shown, f, Severity::Warning, "figure-text-size", m));
        }
    }
    out
}

/// A number typed by hand: stale (a number's text at HEAD, none now),
/// then typed (a number's text or value now).
fn typed_number(
    known: &Known,
    file: &str,
    kind: Kind,
    f: &scan::Found,
    t: &typed::Typed,
    findings: &mut Vec<Finding>,
) {
    let hits: Vec<(&Num, typed::Match, Option<&str>)> = known
        .nums
        .iter()
        .filter_map(|n| parts::hit(t, n.text, n.value, n.parts).map(|(why, p)| (n, why, p)))
        .collect();
    if hits.is_empty() {
        // Not a number now, but one at HEAD: typed by hand
        // and gone stale when the data changed.
        if let Some((n, why, now)) = known
            .stale
            .iter()
            .find_map(|(n, now)| typed::equals(t, n.text, n.value).map(|why| (n, why, now)))
        {
            findings.push(at(
                file,
                f,
                Severity::Error,
                "stale-number",
                format!(
                    "`{}` is typed by hand and stale: {} at HEAD; it is now {now}; write {}",
                    t.text,
                    why.describe(&format!("number `{}` ({})", n.key, n.text)),
                    macro_for(kind, n.key, None)
                ),
            ));
        }
    }
    if let Some((n, why, part)) = hits.first() {
        let write = macro_for(kind, n.key, *part);
        let others = if hits.len() > 1 {
            let list: Vec<&str> = hits.iter().skip(1).take(3).map(|(n, ..)| n.key).collect();
            format!(" (it also matches {})", list.join(", "))
        } else {
            String::new()
        };
        findings.push(at(
            file,
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

/// The message for a typst `#name` that is no key but was likely meant
/// as one: a key run into what follows it, or a near miss.
fn typst_ident(known: &Known, defined: &BTreeSet<&str>, name: &str, hash: bool) -> Option<String> {
    let keys = &known.keys;
    if let Some(k) = (hash && !defined.contains(name))
        .then(|| keys.iter().find(|k| name.starts_with(&format!("{k}-"))))
        .flatten()
    {
        Some(format!(
            "typst reads `#{name}` as one name, which no number has; write `#{k};{}`",
            &name[k.len()..]
        ))
    } else if hash && !defined.contains(name) && looks_like_key(name, keys) {
        Some(format!(
            "no number has the key `{name}`{}",
            did_you_mean(name, keys)
        ))
    } else {
        None
    }
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

/// What to write instead of a typed number: part `part` of number `key`
/// (`None`: the whole).
fn macro_for(kind: Kind, key: &str, part: Option<&str>) -> String {
    parts::macro_for(kind == Kind::Latex, key, part)
}

/// ` (did you mean `x`?)` for the most similar name (Jaro-Winkler at
/// least 0.8), if any. Names over 256 bytes are not compared (the
/// similarity takes time in the product of the lengths; all within
/// [`crate::error::COMPARE_BUDGET`]).
fn did_you_mean(name: &str, names: &[&str]) -> String {
    if name.len() > 256 {
        return String::new();
    }
    let mut budget = crate::error::Budget::default();
    names
        .iter()
        .filter(|n| n.len() <= 256)
        .take_while(|n| budget.spend(name.len(), n.len()))
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
    /// then a summary line; names and messages [`shown`] (the JSON keeps
    /// them as they are, escaped as JSON).
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        for f in &self.findings {
            let sev = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            // A finding is one line: its file's name and its message
            // (quoting the paper) escaped.
            out.push_str(&format!(
                "{}:{}:{}: {sev}[{}]: {}\n",
                shown(&f.file),
                f.line,
                f.column,
                f.kind,
                shown(&f.message)
            ));
        }
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        let files: Vec<String> = self.files.iter().map(|f| shown(f)).collect();
        out.push_str(&format!(
            "lint: {}, {} in {} ({})\n",
            plural(self.errors, "error"),
            plural(self.warnings, "warning"),
            plural(self.files.len(), "file"),
            files.join(", ")
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
