//! Output paths: every file `gen` writes resolves inside the spec's folder.
//!
//! Checked before anything runs, each error at the spec's line and column:
//! - `[output] figures` / `generated` are relative folders without `..`,
//!   control characters or over-long components (`.` is the spec's folder;
//!   `./x`, `x/` and `x` are one folder);
//! - a figure's name is the stem of its files (`NAME.svg`, `.pdf`, `.png`, `.csv`):
//!   not empty, `.` or `..`, without `/`, `\`, control characters or the
//!   characters Windows refuses (`<>:"|?*`), and short enough that the file
//!   and its temporary copy fit the 255-byte name limit of common file
//!   systems;
//! - no two outputs are one file (also when they differ only in case, as
//!   they are on macOS and Windows).
//!
//! That no output lands on an input file of the spec is checked once the
//! inputs are known (`run::write`), and that a folder reached through a
//! symbolic link stays inside the spec's folder when it is written
//! (`output::commit`).

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::{Component, Path};

use crate::error::Result;
use crate::spec::LoadedSpec;

/// The longest file name (bytes) most file systems allow (ext4, APFS, NTFS).
pub const NAME_MAX: usize = 255;

/// What a temporary copy adds to a file's name (`.` + `.artifact-XXXXXX.tmp`).
const TMP_EXTRA: usize = 1 + ".artifact-".len() + 6 + ".tmp".len();

/// The longest figure name: its longest file (`NAME.svg`) as a temporary
/// copy fits in [`NAME_MAX`].
pub const FIGURE_NAME_MAX: usize = NAME_MAX - TMP_EXTRA - ".svg".len();

/// The files each figure writes, by extension.
pub const FIGURE_FILES: [&str; 4] = ["svg", "pdf", "png", "csv"];

/// The files the numbers write into the `generated` folder.
pub const NUMBER_FILES: [&str; 3] = ["macros.tex", "macros.typ", "numbers.json"];

/// `dir` as a clean relative folder: `.`, `./` and `` are the spec's
/// folder (``); `./a//b/` is `a/b`. `None` when it has a `..` component or
/// is absolute.
pub fn normalize(dir: &str) -> Option<String> {
    if dir.starts_with('/') || dir.starts_with('\\') || dir.get(1..2) == Some(":") {
        return None;
    }
    let mut parts = Vec::new();
    for p in dir.split(['/', '\\']) {
        match p {
            "" | "." => {}
            ".." => return None,
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// `file` in folder `dir` (a spec's `[output]` folder), relative to the
/// spec's folder with `/` separators.
pub fn join(dir: &str, file: &str) -> String {
    let d = normalize(dir).unwrap_or_else(|| dir.to_string());
    if d.is_empty() {
        file.to_string()
    } else {
        format!("{d}/{file}")
    }
}

fn bad_char(s: &str) -> Option<char> {
    s.chars().find(|c| c.is_control())
}

/// An invisible or direction-changing character (Unicode format
/// characters): a name holding one looks like another name, or reversed.
fn invisible_char(s: &str) -> Option<char> {
    // Format characters, fillers that draw nothing, and every space but
    // U+0020 (U+2028 and U+2029 end a line in typst).
    s.chars().find(|c| {
        (c.is_whitespace() && *c != ' ')
            || matches!(*c as u32,
                0xAD | 0x34F | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180B..=0x180F
                | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164
                | 0xFE00..=0xFE0F | 0xFEFF | 0xFFA0 | 0xFFF9..=0xFFFB
                | 0x1D173..=0x1D17A | 0xE0000..=0xE0FFF)
    })
}

/// Whether Windows reserves `component` (its part before the first dot)
/// for a device: CON, PRN, AUX, NUL, CONIN$, CONOUT$, COM0-9 and LPT0-9
/// (with superscript digits too).
fn windows_reserved(component: &str) -> bool {
    let stem = component
        .split('.')
        .next()
        .unwrap_or(component)
        .trim_end()
        .to_uppercase();
    if ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"].contains(&stem.as_str()) {
        return true;
    }
    let mut chars = stem.chars();
    let head: String = chars.by_ref().take(3).collect();
    let digit: Vec<char> = chars.collect();
    (head == "COM" || head == "LPT")
        && matches!(digit.as_slice(), [d] if d.is_ascii_digit() || matches!(d, '¹' | '²' | '³'))
}

/// How two output paths are compared: NFC and lower case, as macOS and
/// Windows compare file names (`Café`, `café` and `cafe\u{301}` are one
/// file there).
fn folded(path: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    path.nfc().collect::<String>().to_lowercase()
}

fn shown(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

/// The byte span of each key of each top-level table of a spec's text, by
/// section and key (`["figures"]["fig1"]`).
pub type KeySpans = HashMap<String, HashMap<String, Range<usize>>>;

/// The spans of the keys of every top-level table of `text` (empty when it
/// does not parse, which a loaded spec always does).
pub(crate) fn key_spans(text: &str) -> KeySpans {
    let Ok(doc) = toml::de::DeTable::parse(text) else {
        return KeySpans::new();
    };
    let mut out = KeySpans::new();
    for (section, v) in doc.get_ref() {
        if let toml::de::DeValue::Table(items) = v.get_ref() {
            let keys = out.entry(section.get_ref().to_string()).or_default();
            for k in items.keys() {
                keys.entry(k.get_ref().to_string()).or_insert(k.span());
            }
        }
    }
    out
}

/// The byte span of key `name` in table `[section]` of the spec (the
/// `NAME` of `[figures.NAME]`), or `fallback`. The spec's keys are found
/// once (a lookup per figure or number would otherwise parse the whole
/// spec each time).
pub fn key_span(
    spec: &LoadedSpec,
    section: &str,
    name: &str,
    fallback: Range<usize>,
) -> Range<usize> {
    spec.key_spans()
        .get(section)
        .and_then(|keys| keys.get(name))
        .cloned()
        .unwrap_or(fallback)
}

fn check_folder(spec: &LoadedSpec, key: &str, dir: &crate::spec::SpannedStr) -> Result<String> {
    let text = dir.get_ref();
    let err = |m: String| spec.error(dir.span(), format!("[output] {key}: {m}"));
    if let Some(c) = bad_char(text) {
        return Err(err(format!(
            "the folder name holds the control character {}",
            shown(c)
        )));
    }
    if text.is_empty() {
        return Err(err(
            "the folder name is empty (write \".\" for the spec's own folder)".into(),
        ));
    }
    let Some(norm) = normalize(text) else {
        return Err(err(format!(
            "`{text}` leaves the spec's folder; outputs are written inside it (use a relative folder without `..`)"
        )));
    };
    if let Some(c) = invisible_char(text) {
        return Err(err(format!(
            "the folder name holds the invisible or direction-changing character {}",
            shown(c)
        )));
    }
    if norm.split('/').any(|p| p.eq_ignore_ascii_case(".git")) {
        return Err(err(
            "`.git` is git's own folder: outputs there could never be committed".into(),
        ));
    }
    if let Some(r) = norm.split('/').find(|p| windows_reserved(p)) {
        return Err(err(format!(
            "`{r}` is a name Windows reserves for a device, so a clone there could not hold the folder"
        )));
    }
    if let Some(long) = norm.split('/').find(|p| p.len() > NAME_MAX - TMP_EXTRA) {
        return Err(err(format!(
            "the folder name `{long}` is longer than the {} bytes a file system allows",
            NAME_MAX - TMP_EXTRA
        )));
    }
    Ok(norm)
}

/// Why `name` cannot be a figure's name, if it cannot.
pub fn figure_name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("a figure's name is the name of its files and cannot be empty".into());
    }
    if name == "." || name == ".." {
        return Some(format!(
            "a figure cannot be named `{name}`: it names a folder"
        ));
    }
    if let Some(c) = name.chars().find(|c| matches!(c, '/' | '\\')) {
        return Some(format!(
            "a figure's name cannot hold `{c}`: its files go in the [output] figures folder (set that to choose the folder)"
        ));
    }
    if let Some(c) = bad_char(name) {
        return Some(format!(
            "a figure's name cannot hold the control character {}",
            shown(c)
        ));
    }
    if let Some(c) = name.chars().find(|c| "<>:\"|?*".contains(*c)) {
        return Some(format!(
            "a figure's name cannot hold `{c}`: Windows and macOS refuse it in a file name"
        ));
    }
    if let Some(c) = invisible_char(name) {
        return Some(format!(
            "a figure's name cannot hold the invisible or direction-changing character {}",
            shown(c)
        ));
    }
    if windows_reserved(name) {
        return Some(format!(
            "a figure cannot be named `{name}`: Windows reserves it for a device, so a clone there could not hold its files"
        ));
    }
    if name.ends_with(' ') || name.ends_with('.') {
        return Some(format!(
            "a figure's name cannot end with `{}`: Windows drops it from file names",
            &name[name.len() - 1..]
        ));
    }
    if name.len() > FIGURE_NAME_MAX {
        return Some(format!(
            "the figure's name is {} bytes long; its files' names allow at most {FIGURE_NAME_MAX}",
            name.len()
        ));
    }
    None
}

/// `path` relative to `root` with `/` separators (`../data/x.csv` when
/// beside it); `None` when they share no folder (another drive).
pub fn relative_to(root: &Path, path: &Path) -> Option<String> {
    let names = |p: &Path| -> Option<Vec<String>> {
        p.components()
            .filter(|c| !matches!(c, Component::RootDir))
            .map(|c| match c {
                Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect()
    };
    let (r, p) = (names(root)?, names(path)?);
    let common = r.iter().zip(&p).take_while(|(a, b)| a == b).count();
    if common == 0 && !r.is_empty() {
        return None;
    }
    let mut parts: Vec<String> = vec!["..".to_string(); r.len() - common];
    parts.extend(p[common..].iter().cloned());
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Checks every output path of `spec` as described in the module docs.
pub fn check(spec: &LoadedSpec) -> Result<()> {
    let out = &spec.spec.output;
    let figures_dir = check_folder(spec, "figures", &out.figures)?;
    let generated_dir = check_folder(spec, "generated", &out.generated)?;
    // Every output file, lower-cased, with what writes it and where.
    let mut seen: BTreeMap<String, (String, String)> = BTreeMap::new();
    let mut claim = |path: String, what: String, span: Range<usize>| -> Result<()> {
        let folded = folded(&path);
        match seen.get(&folded) {
            Some((other, other_path)) if *other_path == path => Err(spec.error(
                span,
                format!("{what} and {other} both write {path}"),
            )),
            Some((other, other_path)) => Err(spec.error(
                span,
                format!(
                    "{what} writes {path} and {other} writes {other_path}: names that differ only in case or Unicode form are one file on macOS and Windows"
                ),
            )),
            None => {
                seen.insert(folded, (what, path));
                Ok(())
            }
        }
    };
    claim(crate::spec::LOCK_FILE.into(), "the lock".into(), 0..0)?;
    claim(crate::spec::SPEC_FILE.into(), "the spec".into(), 0..0)?;
    for f in NUMBER_FILES {
        claim(
            join(&generated_dir, f),
            "the numbers".into(),
            out.generated.span(),
        )?;
    }
    for (name, fig) in &spec.spec.figures {
        let span = key_span(spec, "figures", name, fig.span());
        if let Some(problem) = figure_name_problem(name) {
            return Err(spec.error(span, problem));
        }
        for ext in FIGURE_FILES {
            claim(
                join(&figures_dir, &format!("{name}.{ext}")),
                format!("figure `{name}`"),
                span.clone(),
            )?;
        }
    }
    for (name, r) in &spec.spec.results_tables {
        let span = key_span(spec, "results_tables", name, r.span());
        if let Some(problem) = figure_name_problem(name) {
            // A results table's files go in the generated folder, not the
            // figures one: name that key, then say "results table".
            let problem = problem
                .replace("[output] figures folder", "[output] generated folder")
                .replace("figure", "results table");
            return Err(spec.error(span, problem));
        }
        for ext in crate::spec::RESULTS_EXTENSIONS {
            claim(
                join(&generated_dir, &format!("{name}.{ext}")),
                format!("results table `{name}`"),
                span.clone(),
            )?;
        }
    }
    // No output folder may be one of those files (`generated =
    // "artifact.lock"`, or a folder named like a figure's file).
    for (key, dir, raw) in [
        ("figures", &figures_dir, &out.figures),
        ("generated", &generated_dir, &out.generated),
    ] {
        let parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
        for i in 1..=parts.len() {
            let prefix = parts[..i].join("/");
            if let Some((what, path)) = seen.get(&folded(&prefix)) {
                return Err(spec.error(
                    raw.span(),
                    format!("[output] {key}: `{prefix}` is the file {path} ({what}), so it cannot be a folder"),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_relative_to_the_folder() {
        let r = |a: &str, b: &str| relative_to(std::path::Path::new(a), Path::new(b));
        assert_eq!(
            r("/p/paper", "/p/paper/data/x.csv").as_deref(),
            Some("data/x.csv")
        );
        assert_eq!(
            r("/p/paper", "/p/data/x.csv").as_deref(),
            Some("../data/x.csv")
        );
    }
}
