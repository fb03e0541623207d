//! Reading the paper: the main files or those named, then every file they
//! include, each scanned once.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use super::scan::{Scan, What};
use super::{
    Finding, Kind, MAX_FILE_BYTES, MAX_FILES, Severity, kind_of, latex, relative, resolve,
    shown_path, typst,
};
use crate::error::{Error, Result};
use crate::spec::LoadedSpec;

/// A file to read: its path, the folder LaTeX resolves its inputs from,
/// and where it was included (file, line, column; `None` when named).
pub(super) type Queued = (PathBuf, PathBuf, Option<(String, usize, usize)>);

/// One source read: its path as shown, its kind, what it holds, its
/// folder and the folder LaTeX resolves its inputs from.
pub(super) struct Source {
    pub shown: String,
    pub kind: Kind,
    pub scan: Scan,
    pub dir: PathBuf,
    pub base: PathBuf,
}

/// The files to start from: `files`, or the spec folder's `main.tex` and
/// `main.typ`.
pub(super) fn first_files(spec: &LoadedSpec, files: &[PathBuf]) -> Result<Vec<Queued>> {
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
                crate::error::shown(&spec.root.display().to_string())
            )));
        }
    } else {
        for f in files {
            if kind_of(f).is_none() {
                return Err(Error::msg(format!(
                    "{}: lint reads LaTeX (.tex) and typst (.typ) files",
                    crate::error::shown(&f.display().to_string())
                )));
            }
            let base = f.parent().map(Path::to_path_buf).unwrap_or_default();
            queue.push((f.clone(), base, None));
        }
    }
    Ok(queue)
}

/// Reads and scans the queued files and every file they include (each
/// once, none of the `generated` ones); an included file that does not
/// exist is a `missing-file` finding, one outside the paper's folder (not
/// read) an `outside-file` finding.
pub(super) fn read_sources(
    spec: &LoadedSpec,
    mut queue: Vec<Queued>,
    generated: &BTreeSet<&str>,
    findings: &mut Vec<Finding>,
) -> Result<Vec<Source>> {
    let mut scanned: Vec<Source> = Vec::new();
    let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
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
        let Some(bytes) = read_source(&path, &shown, from, findings)? else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let s = match kind {
            Kind::Latex => latex::scan(&text),
            Kind::Typst => typst::scan(&text),
        };
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        for f in &s.found {
            if let What::Include(inc) = &f.what {
                if let Some(why) = outside(kind, &base, &dir, inc) {
                    findings.push(Finding {
                        file: shown.clone(),
                        line: f.line,
                        column: f.column,
                        severity: Severity::Warning,
                        kind: "outside-file",
                        message: format!("`{inc}` {why}: lint does not read it"),
                    });
                    continue;
                }
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
        scanned.push(Source {
            shown,
            kind,
            scan: s,
            dir,
            base,
        });
    }
    Ok(scanned)
}

/// Why an included `inc` is not followed, if it is not: LaTeX's absolute
/// paths (`\\input{/etc/passwd}`; typst reads `/x.typ` from the paper's
/// folder), and paths that leave the paper's folder `base` (`../x`, or a
/// link inside it to a file outside).
fn outside(kind: Kind, base: &Path, dir: &Path, inc: &str) -> Option<&'static str> {
    let absolute = Path::new(inc).is_absolute() || inc.starts_with(['/', '\\', '~']);
    if kind == Kind::Latex && absolute {
        return Some("is an absolute path, outside the paper's folder");
    }
    let p = resolve(kind, base, dir, inc);
    // Lexically: no `..` goes above `base`.
    let mut depth = 0usize;
    const LEAVES: &str = "leaves the paper's folder";
    let Ok(rest) = p.strip_prefix(base) else {
        return Some(LEAVES);
    };
    for c in rest.components() {
        match c {
            Component::ParentDir if depth == 0 => return Some(LEAVES),
            Component::ParentDir => depth -= 1,
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return Some(LEAVES),
        }
    }
    // And where it really is (a link may point out).
    let real = |q: &Path| q.canonicalize().ok();
    let mut file = p.clone();
    if kind == Kind::Latex && file.extension().is_none() {
        file.set_extension("tex");
    }
    match (real(&file), real(base)) {
        (Some(f), Some(b)) if !f.starts_with(&b) => Some("is a link out of the paper's folder"),
        _ => None,
    }
}

/// The bytes of one source; `None` (and a finding) when an included file
/// does not exist. Errors: a file too large, a named file missing, a read
/// failure.
fn read_source(
    path: &Path,
    shown: &str,
    from: Option<(String, usize, usize)>,
    findings: &mut Vec<Finding>,
) -> Result<Option<Vec<u8>>> {
    if let Ok(m) = std::fs::metadata(path)
        && m.is_file()
        && m.len() > MAX_FILE_BYTES
    {
        return Err(Error::msg(format!(
            "{shown}: {} bytes; lint reads sources of at most {MAX_FILE_BYTES} bytes (16 MiB)",
            m.len()
        )));
    }
    match crate::output::read_regular(path) {
        Ok(Some(b)) => Ok(Some(b)),
        Ok(None) => match from {
            None => Err(Error::msg(format!(
                "{}: no such file",
                crate::error::shown(&path.display().to_string())
            ))),
            Some((file, line, column)) => {
                findings.push(Finding {
                    file,
                    line,
                    column,
                    severity: Severity::Warning,
                    kind: "missing-file",
                    message: format!("{shown} is included but does not exist"),
                });
                Ok(None)
            }
        },
        Err(e) => Err(Error::io(path, e)),
    }
}
