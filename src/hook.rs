//! `artifact hook install`: a git pre-commit hook that refuses a commit
//! whose figures or numbers no longer match its data.
//!
//! The hook checks what is being committed, not the working tree: it runs
//! `artifact hook run DIR` (hidden), which reads the staged spec (`git
//! cat-file blob :DIR/artifact.toml`), checks out into a temporary folder
//! only the staged files that check reads ([`needed_paths`]: the spec, its
//! lock, its templates, its output folders and the files its sources name,
//! wherever they are in the repository), and runs `artifact check --fast`
//! there. A large repository costs no more than the paper's own files. It
//! recognises itself by a marker line and will not replace a hook it did
//! not write unless asked (`--force`); `artifact hook uninstall` removes
//! only a hook it wrote.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::error::{Error, Result};
use crate::spec::{LoadedSpec, SPEC_FILE};

/// The line that marks a hook written by this command.
pub const MARKER: &str = "# artifact-pre-commit-hook";

pub(crate) fn git(dir: &Path, args: &[&str]) -> Result<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| Error::msg(format!("cannot run git: {e}")))?;
    if !out.status.success() {
        return Err(Error::msg(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The hook script for a spec in `spec_dir` (relative to the repository
/// root), running the binary at `exe` (or `artifact` from PATH if it moved).
pub fn script(spec_dir: &str, exe: &Path) -> String {
    let dir = if spec_dir.is_empty() {
        ".".to_string()
    } else {
        spec_dir.to_string()
    };
    format!(
        r#"#!/bin/sh
{MARKER}
# Installed by `artifact hook install`: refuses a commit whose figures or
# numbers no longer match its data. It checks what is staged, not the
# working tree. Reinstall with `artifact hook install --force`.
bin={exe}
[ -x "$bin" ] || bin=artifact
if ! "$bin" hook run {dir}; then
  echo "artifact: commit refused: the staged figures or numbers do not match the staged data." >&2
  echo "artifact: run the command above, stage its outputs (and artifact.lock), and commit again." >&2
  exit 1
fi
"#,
        exe = sh_quote(&exe.to_string_lossy()),
        dir = sh_quote(&dir),
    )
}

/// `rel` (a path or glob relative to the folder `dir`, both `/`-separated)
/// as a path from the repository's top, with `.` and `..` resolved
/// lexically; `None` when it leaves the repository or is absolute (no such
/// file is in the index). With `escape`, the parts coming from `dir` are
/// glob-escaped, so `rel` alone is read as a pattern.
fn from_top(dir: &str, rel: &str, escape: bool) -> Option<String> {
    if rel.starts_with('/') {
        return None;
    }
    let mut parts: Vec<String> = dir
        .split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .map(|c| {
            if escape {
                glob::Pattern::escape(c)
            } else {
                c.to_string()
            }
        })
        .collect();
    for c in rel.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            c => parts.push(c.to_string()),
        }
    }
    Some(parts.join("/"))
}

/// A source's `path` as written: one string or a list (anything else is
/// the check's error to report, not the checkout's).
fn source_paths(v: &toml::Value) -> Vec<&str> {
    match v {
        toml::Value::String(s) => vec![s.as_str()],
        toml::Value::Array(items) => items.iter().filter_map(|i| i.as_str()).collect(),
        _ => Vec::new(),
    }
}

/// The paths of `index` (staged paths, from the repository's top) that
/// checking the spec in folder `spec_dir` reads: the spec and its lock,
/// the custom templates, every file under the output folders, and the files
/// the sources name or match (globs as the sources expand them: `*` stays
/// within a folder, `**` crosses folders), also outside `spec_dir` (`../`).
/// Sorted as `index` is.
pub fn needed_paths(spec: &LoadedSpec, spec_dir: &str, index: &[String]) -> Vec<String> {
    let mut exact: Vec<String> = Vec::new();
    let mut folders: Vec<String> = Vec::new();
    let mut patterns: Vec<glob::Pattern> = Vec::new();
    let s = &spec.spec;
    for rel in [SPEC_FILE, crate::lock::LOCK_FILE] {
        exact.extend(from_top(spec_dir, rel, false));
    }
    for t in [&s.templates.tex, &s.templates.typ, &s.templates.json]
        .into_iter()
        .flatten()
    {
        exact.extend(from_top(spec_dir, t.get_ref(), false));
    }
    for out in [&s.output.figures, &s.output.generated] {
        folders.extend(from_top(spec_dir, out.get_ref(), false).map(|f| format!("{f}/")));
    }
    for src in s.sources.values() {
        let Some(path) = &src.get_ref().path else {
            continue;
        };
        for rel in source_paths(path.get_ref()) {
            if crate::sources::globs::is_glob(rel) {
                patterns.extend(
                    from_top(spec_dir, rel, true).and_then(|p| glob::Pattern::new(&p).ok()),
                );
            } else {
                exact.extend(from_top(spec_dir, rel, false));
            }
        }
    }
    let opts = crate::sources::globs::OPTIONS;
    index
        .iter()
        .filter(|p| {
            exact.iter().any(|e| e == *p)
                || folders
                    .iter()
                    .any(|f| f == "/" || p.starts_with(f.as_str()))
                || patterns.iter().any(|g| g.matches_with(p, opts))
        })
        .cloned()
        .collect()
}

pub(crate) fn git_bytes(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Result<Vec<u8>> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::msg(format!("cannot run git: {e}")))?;
    if let (Some(input), Some(mut pipe)) = (stdin, child.stdin.take()) {
        pipe.write_all(input)
            .map_err(|e| Error::msg(format!("git {}: {e}", args.join(" "))))?;
    }
    let out = child
        .wait_with_output()
        .map_err(|e| Error::msg(format!("cannot run git: {e}")))?;
    if !out.status.success() {
        return Err(Error::msg(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(out.stdout)
}

/// Paths of `index` as seen through the staged symbolic links `links`
/// (relative targets inside the repository, one level): `paper/data ->
/// ../shared` makes `shared/a.csv` readable as `paper/data/a.csv`. Maps
/// each such path to (the real path, the link).
fn link_aliases(
    top: &Path,
    index: &[String],
    links: &[String],
) -> std::collections::BTreeMap<String, (String, String)> {
    let mut aliases = std::collections::BTreeMap::new();
    for link in links {
        let Ok(target) = git_bytes(top, &["cat-file", "blob", &format!(":{link}")], None) else {
            continue;
        };
        let target = String::from_utf8_lossy(&target).into_owned();
        let parent = link.rsplit_once('/').map_or("", |(p, _)| p);
        let Some(real) = from_top(parent, &target, false) else {
            continue; // absolute, or outside the repository
        };
        let prefix = format!("{real}/");
        for p in index.iter().filter(|p| p.starts_with(&prefix)) {
            aliases.insert(
                format!("{link}/{}", &p[prefix.len()..]),
                (p.clone(), link.clone()),
            );
        }
    }
    aliases
}

/// `artifact hook run SPEC_DIR`, from the pre-commit hook: checks the staged
/// spec in `spec_dir` (relative to the repository's top) against the staged
/// data, from the git repository around `start`. Prints the check's report;
/// returns the exit status (0 current, 1 stale).
pub fn run(start: &Path, spec_dir: &str) -> Result<u8> {
    let top = PathBuf::from(git(start, &["rev-parse", "--show-toplevel"])?);
    let spec_dir = spec_dir.trim_matches('/');
    let spec_dir = if spec_dir == "." { "" } else { spec_dir };
    let spec_rel = from_top(spec_dir, SPEC_FILE, false)
        .ok_or_else(|| Error::msg(format!("{spec_dir}: not a folder of the repository")))?;
    let text = git_bytes(&top, &["cat-file", "blob", &format!(":{spec_rel}")], None)
        .map_err(|_| Error::msg(format!("{spec_rel} is not staged")))?;
    let text = String::from_utf8(text)
        .map_err(|_| Error::msg(format!("{spec_rel} (staged) is not UTF-8")))?;
    let staged = crate::spec::parse(&text, Path::new(&spec_rel))?;
    // `MODE OBJECT STAGE\tPATH` per entry; mode 120000 is a symbolic link.
    let listing = git_bytes(&top, &["ls-files", "-s", "-z"], None)?;
    let mut index = Vec::new();
    let mut links = Vec::new();
    for entry in listing.split(|b| *b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8_lossy(entry);
        let Some((meta, path)) = entry.split_once('\t') else {
            continue;
        };
        if meta.starts_with("120000 ") {
            links.push(path.to_string());
        }
        index.push(path.to_string());
    }
    let aliases = link_aliases(&top, &index, &links);
    index.extend(aliases.keys().cloned());
    // A path read through a staged link (`paper/data -> ../shared`) is
    // checked out as the link and the file it leads to.
    let needed: std::collections::BTreeSet<String> = needed_paths(&staged, spec_dir, &index)
        .into_iter()
        .flat_map(|p| match aliases.get(&p) {
            Some((real, link)) => vec![real.clone(), link.clone()],
            None => vec![p],
        })
        .collect();
    let tmp = tempfile::Builder::new()
        .prefix("artifact-hook-")
        .tempdir()
        .map_err(|e| Error::msg(format!("cannot make a temporary folder: {e}")))?;
    let mut list = Vec::new();
    for p in &needed {
        list.extend_from_slice(p.as_bytes());
        list.push(0);
    }
    let prefix = format!("--prefix={}/", tmp.path().display());
    git_bytes(
        &top,
        &["checkout-index", "-z", "--stdin", &prefix],
        Some(&list),
    )?;
    // The check's advice (`artifact gen -C DIR`) is relative to the
    // current folder: the checkout's top stands for the repository's.
    let back = std::env::current_dir().map_err(|e| Error::msg(format!("current folder: {e}")))?;
    std::env::set_current_dir(tmp.path()).map_err(|e| Error::io(tmp.path(), e))?;
    let result = (|| {
        let spec = crate::spec::load(&tmp.path().join(&spec_rel))?;
        crate::check::check(&spec, true)
    })();
    let _ = std::env::set_current_dir(back);
    let mut report = result?;
    let text = report.render();
    // Not print!: the output may be a closed pipe; and as the terminal
    // gets it (`console`).
    if !report.errors.is_empty() {
        // What is stale, then the errors (as `artifact check`).
        if report.stale() {
            crate::console::err(&text);
        }
        return Err(Error::Many(std::mem::take(&mut report.errors)));
    }
    if report.stale() {
        crate::console::err(&text);
        Ok(1)
    } else {
        let _ = crate::console::out(&text);
        Ok(0)
    }
}

/// The repository's hooks folder (`core.hooksPath` or `.git/hooks`), as
/// git names it for the folder `spec_root`.
fn hooks_dir(spec_root: &Path) -> Result<PathBuf> {
    let hooks = PathBuf::from(git(spec_root, &["rev-parse", "--git-path", "hooks"])?);
    Ok(if hooks.is_absolute() {
        hooks
    } else {
        spec_root.join(hooks)
    })
}

/// Removes the pre-commit hook `install` wrote; returns its path, or
/// `None` when there is no pre-commit hook.
///
/// Errors: the hook there was not written by artifact (it is left as it
/// is); it cannot be removed.
pub fn uninstall(spec_root: &Path) -> Result<Option<PathBuf>> {
    let path = hooks_dir(spec_root)?.join("pre-commit");
    if path.symlink_metadata().is_err() {
        return Ok(None);
    }
    let ours = std::fs::read_to_string(&path).is_ok_and(|t| t.contains(MARKER));
    if !ours {
        return Err(Error::msg(format!(
            "{} was not written by artifact: left as it is",
            crate::error::shown(&path.display().to_string())
        )));
    }
    std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
    Ok(Some(path))
}

/// Installs the hook for the spec at `spec_root`; returns the hook's path.
pub fn install(spec_root: &Path, force: bool) -> Result<PathBuf> {
    let top = PathBuf::from(git(spec_root, &["rev-parse", "--show-toplevel"])?);
    let hooks = hooks_dir(spec_root)?;
    let top_c = top.canonicalize().map_err(|e| Error::io(&top, e))?;
    let root_c = spec_root
        .canonicalize()
        .map_err(|e| Error::io(spec_root, e))?;
    let spec_dir = root_c
        .strip_prefix(&top_c)
        .map_err(|_| Error::msg("the spec is not inside the git repository"))?
        .to_string_lossy()
        .replace('\\', "/");
    let path = hooks.join("pre-commit");
    if let Ok(existing) = std::fs::read_to_string(&path)
        && !existing.contains(MARKER)
        && !force
    {
        return Err(Error::msg(format!(
            "{} exists and was not written by artifact; keep it, or replace it with `artifact hook install --force`",
            crate::error::shown(&path.display().to_string())
        )));
    }
    let exe = std::env::current_exe()
        .map_err(|e| Error::msg(format!("cannot find this program: {e}")))?;
    std::fs::create_dir_all(&hooks).map_err(|e| Error::io(&hooks, e))?;
    crate::output::write_atomic(&path, script(&spec_dir, &exe).as_bytes())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| Error::io(&path, e))?;
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_checks_the_staged_tree_in_the_spec_folder() {
        let s = script("paper", Path::new("/opt/artifact"));
        assert!(s.contains(MARKER));
        assert!(s.contains("if ! \"$bin\" hook run 'paper'; then"));
        assert!(s.contains("bin='/opt/artifact'"));
    }

    #[test]
    fn the_hook_checks_out_only_the_files_the_spec_reads() {
        let text = r#"
[output]
figures = "../out/figs"

[templates]
typ = "../tpl/macros.typ.j2"

[sources.a]
path = "data/a.jsonl"

[sources.b]
path = ["../shared/b.csv", "../shared/runs/*.jsonl", "../deep/**/*.json"]

[sources.c]
rows = [{ x = 1 }]
"#;
        let spec = crate::spec::parse(text, Path::new("paper/artifact.toml")).unwrap();
        let index: Vec<String> = [
            "README.md",
            "big/video.bin",
            "deep/x/y/r.json",
            "deep/z.json",
            "out/figs/f.svg",
            "out/other.txt",
            "paper/artifact.lock",
            "paper/artifact.toml",
            "paper/data/a.jsonl",
            "paper/data/unused.jsonl",
            "paper/generated/macros.tex",
            "paper/main.tex",
            "shared/b.csv",
            "shared/runs/1.jsonl",
            "shared/runs/old/2.jsonl",
            "tpl/macros.typ.j2",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            needed_paths(&spec, "paper", &index),
            [
                "deep/x/y/r.json",
                "deep/z.json",
                "out/figs/f.svg",
                "paper/artifact.lock",
                "paper/artifact.toml",
                "paper/data/a.jsonl",
                "paper/generated/macros.tex",
                "shared/b.csv",
                "shared/runs/1.jsonl",
                "tpl/macros.typ.j2",
            ]
        );
    }

    #[test]
    fn a_spec_at_the_top_does_not_check_out_the_whole_repository() {
        let text = "[sources.a]\npath = \"data/*.csv\"\n";
        let spec = crate::spec::parse(text, Path::new("artifact.toml")).unwrap();
        let index: Vec<String> = [
            "artifact.lock",
            "artifact.toml",
            "big/video.bin",
            "data/a.csv",
            "data/sub/b.csv",
            "figures/f.svg",
            "generated/macros.typ",
            "main.tex",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            needed_paths(&spec, "", &index),
            [
                "artifact.lock",
                "artifact.toml",
                "data/a.csv",
                "figures/f.svg",
                "generated/macros.typ",
            ]
        );
    }

    #[test]
    fn paths_resolve_from_the_top_and_spec_folders_are_not_patterns() {
        assert_eq!(
            from_top("paper", "../data/x", false).as_deref(),
            Some("data/x")
        );
        assert_eq!(from_top("", "./a/./b", false).as_deref(), Some("a/b"));
        assert_eq!(from_top("paper", "../../x", false), None);
        assert_eq!(from_top("paper", "/abs/x", false), None);
        assert_eq!(
            from_top("p[1]", "*.csv", true).as_deref(),
            Some("p[[]1[]]/*.csv")
        );
    }
}
