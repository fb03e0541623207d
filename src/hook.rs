//! `artifact hook install`: a git pre-commit hook that refuses a commit
//! whose figures or numbers no longer match its data.
//!
//! The hook checks what is being committed, not the working tree: it checks
//! out the index into a temporary folder and runs `artifact check --fast`
//! there. It recognises itself by a marker line and will not replace a hook
//! it did not write unless asked (`--force`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::{Error, Result};

/// The line that marks a hook written by this command.
pub const MARKER: &str = "# artifact-pre-commit-hook";

fn git(dir: &Path, args: &[&str]) -> Result<String> {
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
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
git checkout-index --all --prefix="$tmp/" || exit 1
cd "$tmp" || exit 1
if ! "$bin" -C {dir} check --fast; then
  echo "artifact: commit refused: the staged figures or numbers do not match the staged data." >&2
  echo "artifact: run the command above, stage its outputs (and artifact.lock), and commit again." >&2
  exit 1
fi
"#,
        exe = sh_quote(&exe.to_string_lossy()),
        dir = sh_quote(&dir),
    )
}

/// Installs the hook for the spec at `spec_root`; returns the hook's path.
pub fn install(spec_root: &Path, force: bool) -> Result<PathBuf> {
    let top = PathBuf::from(git(spec_root, &["rev-parse", "--show-toplevel"])?);
    let hooks = PathBuf::from(git(spec_root, &["rev-parse", "--git-path", "hooks"])?);
    let hooks = if hooks.is_absolute() {
        hooks
    } else {
        spec_root.join(hooks)
    };
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
            path.display()
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
        assert!(s.contains("git checkout-index --all --prefix=\"$tmp/\""));
        assert!(s.contains("\"$bin\" -C 'paper' check --fast"));
        assert!(s.contains("bin='/opt/artifact'"));
    }
}
