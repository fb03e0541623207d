//! A source's glob (`path = "data/**/*.csv"`) expanded to its files.
//!
//! Only the pattern is a glob. The spec's folder, and the folders a path
//! names before its first wildcard, are taken as written: a project in
//! `paper [draft]/` reads `data/*.csv` from `paper [draft]/data`. Every
//! other place that matches a path against a source's glob builds its
//! pattern with [`under`], which escapes the folder the same way.
//!
//! Below those folders a walk ([`walkdir`]) matches names one folder at a
//! time: `*`, `?` and `[...]` stay within a folder and match a leading dot
//! (hidden files), `**` crosses folders, and the matches are the files
//! (not folders), sorted by name. It follows links to folders, but never
//! one that leads back to a folder it is in (`data/loop -> .`,
//! `data/up -> ..`, or a longer cycle): such a link is skipped with a note
//! naming it and where it leads, so a `**` ends and reads no file again
//! through the loop.

use std::path::{Path, PathBuf};

use glob::{MatchOptions, Pattern, PatternError};

use crate::error::shown;

/// How a source's glob matches a path: case-sensitive, `*` and `?` never
/// match `/`, and they match a leading `.`.
pub const OPTIONS: MatchOptions = MatchOptions {
    case_sensitive: true,
    require_literal_separator: true,
    require_literal_leading_dot: false,
};

/// Whether a source's path is a glob (it holds `*`, `?` or `[`); anything
/// else names one file.
pub fn is_glob(rel: &str) -> bool {
    rel.contains(['*', '?', '['])
}

/// `rel` (`/`-separated) split before its first component that holds a
/// wildcard: the literal folders (`data/runs`, `` for none, `/` for the
/// root) and the pattern from there on (`*/x.csv`).
pub fn split(rel: &str) -> (&str, &str) {
    let mut start = 0;
    for comp in rel.split('/') {
        if is_glob(comp) {
            let folder = rel[..start].trim_end_matches('/');
            let folder = if folder.is_empty() && rel.starts_with('/') {
                "/"
            } else {
                folder
            };
            return (folder, &rel[start..]);
        }
        start += comp.len() + 1;
    }
    (rel, "")
}

/// The pattern matching the paths below `folder` that `pattern` (relative,
/// `/`-separated) matches: `folder` escaped, so its own `[`, `*` or `?`
/// match themselves. Match it with [`OPTIONS`].
pub fn under(folder: &Path, pattern: &str) -> Result<Pattern, PatternError> {
    let folder = folder.to_string_lossy();
    let folder = folder.trim_end_matches(['/', '\\']);
    Pattern::new(&format!("{}/{pattern}", Pattern::escape(folder)))
}

/// A glob's files, and what the walk skipped.
#[derive(Debug, Default)]
pub struct Expanded {
    /// Each file as shown (relative to the spec's folder, `/`-separated,
    /// as the path names it) and its path on disk, sorted by the first.
    pub files: Vec<(String, PathBuf)>,
    /// Links not followed (they lead back to a folder they are in) and
    /// folders that could not be read, each naming the path.
    pub notes: Vec<String>,
}

/// A glob taken apart: where its walk starts and what it matches there.
struct Glob {
    /// The folders before the first wildcard, as a path.
    base: PathBuf,
    /// The pattern's parts, one per folder level.
    parts: Vec<Pattern>,
    /// The whole pattern below `base`.
    whole: Pattern,
    /// How many parts come before the first `**` (all, without one).
    fixed: usize,
}

impl Glob {
    fn parse(root: &Path, rel: &str) -> Result<Glob, String> {
        let (folder, pattern) = split(rel);
        Pattern::new(rel).map_err(|e| e.to_string())?;
        let comps: Vec<&str> = pattern
            .split('/')
            .filter(|c| !c.is_empty() && *c != ".")
            .collect();
        if comps.contains(&"..") {
            return Err("`..` after a wildcard (write the folder before the pattern)".into());
        }
        let parts: Vec<Pattern> = comps
            .iter()
            .map(|c| Pattern::new(c))
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?;
        // The folders as written (`./` and empty parts dropped, as a path).
        let start = match folder.starts_with('/') {
            true => PathBuf::from("/"),
            false => root.to_path_buf(),
        };
        Ok(Glob {
            base: folder
                .split('/')
                .filter(|c| !c.is_empty() && *c != ".")
                .fold(start, |p, c| p.join(c)),
            whole: Pattern::new(&comps.join("/")).map_err(|e| e.to_string())?,
            fixed: comps.iter().position(|c| *c == "**").unwrap_or(comps.len()),
            parts,
        })
    }

    /// Whether a walk's entry `name` at `depth` (1 for the base's own)
    /// may lead to a match: above the first `**` the folder at depth d
    /// must match the pattern's d-th part; below it, a name may sit at
    /// any depth.
    fn may_match(&self, depth: usize, name: &str) -> bool {
        depth == 0 || depth > self.fixed || self.parts[depth - 1].matches_with(name, OPTIONS)
    }
}

/// `p` as messages show it: relative to `root` (`.` for `root` itself),
/// `/`-separated; whole when outside it.
fn show(root: &Path, p: &Path) -> String {
    match p.strip_prefix(root) {
        Ok(r) if r.as_os_str().is_empty() => ".".to_string(),
        Ok(r) => r.to_string_lossy().replace('\\', "/"),
        Err(_) => p.to_string_lossy().replace('\\', "/"),
    }
}

/// The files glob `rel` (relative to the spec's folder `root`) matches.
/// Errors: the pattern does not parse (`[a-`), or names `..` after a
/// wildcard; the message says which.
pub fn expand(root: &Path, rel: &str) -> Result<Expanded, String> {
    let glob = Glob::parse(root, rel)?;
    if !glob.base.is_dir() {
        return Ok(Expanded::default());
    }
    let depth = match glob.fixed == glob.parts.len() {
        true => glob.parts.len(),
        false => usize::MAX,
    };
    // A link back up is noted where it is met: by the filter below for a
    // link above the walk's start (`up -> ..`), by walkdir for one to a
    // folder it walks (`loop -> .`).
    let notes = std::cell::RefCell::new(Vec::new());
    let looped = |link: &Path, target: &Path| {
        notes.borrow_mut().push(format!(
            "`{}` is not followed: it links back to `{}`, a folder it is in",
            shown(&show(root, link)),
            shown(&show(root, target))
        ));
    };
    let mut files = Vec::new();
    let walk = walkdir::WalkDir::new(&glob.base)
        .follow_links(true)
        .min_depth(1)
        .max_depth(depth)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            if !e
                .file_name()
                .to_str()
                .is_some_and(|n| glob.may_match(e.depth(), n))
            {
                return false;
            }
            let target = (e.path_is_symlink() && e.file_type().is_dir())
                .then(|| back_up(e.path()))
                .flatten();
            target.inspect(|t| looped(e.path(), t)).is_none()
        });
    for entry in walk {
        let path = match entry {
            Ok(e) if e.file_type().is_dir() => continue,
            Ok(e) => e.path().to_path_buf(),
            Err(e) => match (e.loop_ancestor(), e.path()) {
                (Some(ancestor), Some(p)) => {
                    looped(p, ancestor);
                    continue;
                }
                // A dangling link is a file the glob names: reading it
                // fails as a missing file, naming it.
                (None, Some(p)) if p.symlink_metadata().is_ok_and(|m| m.is_symlink()) => {
                    p.to_path_buf()
                }
                (_, p) => {
                    let at = show(root, p.unwrap_or(&glob.base));
                    let why = e.io_error().map_or(e.to_string(), |io| io.to_string());
                    notes
                        .borrow_mut()
                        .push(format!("cannot read `{}`: {why}", shown(&at)));
                    continue;
                }
            },
        };
        let below = path.strip_prefix(&glob.base).ok().and_then(Path::to_str);
        if below.is_some_and(|b| glob.whole.matches_with(&b.replace('\\', "/"), OPTIONS)) {
            files.push((show(root, &path), path));
        }
    }
    files.sort();
    Ok(Expanded {
        files,
        notes: notes.into_inner(),
    })
}

/// For a link to a folder at `link`: the folder it leads to when that
/// folder holds the link (`loop -> .`, `up -> ..`), which walking it would
/// repeat without end; `None` otherwise or when either cannot be resolved.
fn back_up(link: &Path) -> Option<PathBuf> {
    let target = std::fs::canonicalize(link).ok()?;
    let parent = std::fs::canonicalize(link.parent()?).ok()?;
    parent.starts_with(&target).then_some(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_before_the_first_wildcard_is_literal() {
        assert_eq!(split("data/*.csv"), ("data", "*.csv"));
        assert_eq!(split("data/run [1]/x.csv"), ("data", "run [1]/x.csv"));
        assert_eq!(split("*.csv"), ("", "*.csv"));
        assert_eq!(split("/abs/*/x.csv"), ("/abs", "*/x.csv"));
        assert_eq!(split("/*.csv"), ("/", "*.csv"));
        assert_eq!(split("data/x.csv"), ("data/x.csv", ""));
        let p = under(Path::new("/p/paper [draft]"), "data/*.csv").unwrap();
        assert!(p.matches_with("/p/paper [draft]/data/a.csv", OPTIONS));
        assert!(!p.matches_with("/p/paper d/data/a.csv", OPTIONS));
        assert!(!p.matches_with("/p/paper [draft]/data/x/a.csv", OPTIONS));
    }
}
