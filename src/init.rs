//! `artifact init [DATA...]`: a starter spec and paper for new data.
//!
//! Writes, in the spec's folder, `artifact.toml` with one source per data
//! file (its format as the extension says; its fields, types, distinct
//! counts and an example listed as comments, read the way `gen` reads the
//! file), one example table, one number and one figure that run as
//! written, and `main.typ` and `main.tex` stubs that include them. With
//! no data, the source is a few inline rows. Nothing existing is ever
//! overwritten: an existing `artifact.toml` is an error, and an existing
//! paper stub is left as it is (and said so).
//!
//! The example follows the data: two numeric fields give a scatter plot
//! (point mark) and their median; one gives a histogram; none gives a bar
//! per value of the first text field. Field names that are not plain
//! identifiers are listed but not used in expressions.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result, shown};
use crate::inspect::show::{FieldSummary, fields_of};
use crate::spec::SPEC_FILE;

/// What `init` wrote and what it left alone.
#[derive(Debug, Default)]
pub struct Initialized {
    /// Files written (relative to the folder).
    pub written: Vec<String>,
    /// Files that existed and were kept.
    pub kept: Vec<String>,
}

/// Inline rows for a spec made without data.
const SAMPLE_ROWS: &str = r#"rows = [
  { system = "baseline", threads = 1, seconds = 12.4 },
  { system = "baseline", threads = 2, seconds = 6.9 },
  { system = "baseline", threads = 4, seconds = 4.1 },
  { system = "ours", threads = 1, seconds = 9.8 },
  { system = "ours", threads = 2, seconds = 5.2 },
  { system = "ours", threads = 4, seconds = 2.9 },
]"#;

/// A source name from a file name: its stem without data extensions,
/// lower-cased, other characters `_` (`Run-1.jsonl.zst` -> `run_1`).
fn source_name(path: &Path) -> String {
    let mut name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for ext in [
        ".zst", ".gz", ".jsonl", ".ndjson", ".json", ".csv", ".tsv", ".parquet",
    ] {
        if let Some(s) = name.strip_suffix(ext) {
            name = s.to_string();
        }
    }
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic()) {
        s.insert_str(0, "data_");
    }
    s
}

/// Words an expression reads as themselves, not as a field.
const KEYWORDS: [&str; 14] = [
    "true", "false", "none", "True", "False", "None", "not", "in", "and", "or", "is", "if", "else",
    "loop",
];

/// Whether `name` can be written bare in an expression (not a keyword,
/// not `_`, the row itself, or only underscores).
fn plain(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.chars().all(|c| c == '_')
        && !KEYWORDS.contains(&name)
}

fn numeric(f: &FieldSummary) -> bool {
    plain(&f.name)
        && f.types
            .split('|')
            .all(|t| matches!(t, "int" | "float" | "null" | "missing"))
        && f.types.split('|').any(|t| matches!(t, "int" | "float"))
}

fn text_field(f: &FieldSummary) -> bool {
    plain(&f.name) && f.types.split('|').any(|t| t == "string")
}

/// TOML's basic string for `s`.
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// Writes the starter files in `dir` for `data` (paths as given, relative
/// to the current folder; written in the spec relative to `dir`).
///
/// Errors: `artifact.toml` exists; a data file is missing or cannot be read as a source (its format unknown, its content bad:
/// the error names the file and line, as `gen`'s would); a file cannot be
/// written. Nothing is written unless every source reads.
pub fn init(dir: &Path, data: &[PathBuf]) -> Result<Initialized> {
    let root = dir.canonicalize().map_err(|e| Error::io(dir, e))?;
    let spec_path = root.join(SPEC_FILE);
    if spec_path.symlink_metadata().is_ok() {
        return Err(Error::msg(format!(
            "{} exists: init never overwrites it (edit it, or start in another folder)",
            shown(&spec_path.display().to_string())
        )));
    }
    let mut sources = name_sources(&root, data)?;
    let head = spec_head(&mut sources);
    // Read every source the way gen does, for its fields.
    let draft = crate::spec::parse(&head, &spec_path)?;
    let plan = crate::plan::Plan::tables_only(&draft)?;
    let cat = crate::tables::Catalog::new(&plan)?;
    let mut surveyed = Vec::new();
    for (name, rel) in &sources {
        let table = cat.table(name).map_err(|e| match rel.is_empty() {
            true => e,
            false => e.context(format!("data file {rel}")),
        })?;
        surveyed.push((name.clone(), table.rows.len(), fields_of(&table.rows)));
    }
    let mut spec = with_fields(&head, &surveyed);
    let (first, _, fields) = &surveyed[0];
    spec.push_str(&example(first, fields));
    // What is written runs: built in memory first, as `gen` would.
    let built =
        crate::spec::parse(&spec, &spec_path).and_then(|s| crate::run::build(&s, &[], None));
    match built {
        Ok(b) if b.errors.is_empty() => {}
        Ok(b) => {
            return Err(b
                .errors
                .into_iter()
                .next()
                .expect("an error")
                .context("the starter spec"));
        }
        Err(e) => return Err(e.context("the starter spec")),
    }
    write_files(&root, spec)
}

/// Each data file's source name (unique, never a starter table's) and its
/// path relative to `root`.
fn name_sources(root: &Path, data: &[PathBuf]) -> Result<Vec<(String, String)>> {
    // Sources: (name, path relative to the folder).
    let mut sources: Vec<(String, String)> = Vec::new();
    for d in data {
        let abs = d.canonicalize().map_err(|e| Error::io(d, e))?;
        let rel = crate::spec::paths::relative_to(root, &abs).ok_or_else(|| {
            Error::msg(format!(
                "{}: cannot be named relative to {}",
                shown(&d.display().to_string()),
                shown(&root.display().to_string())
            ))
        })?;
        let mut name = source_name(&abs);
        // The starter tables' names are taken: sources and tables share one
        // namespace.
        if ["example", "example_count"].contains(&name.as_str()) {
            name.push_str("_data");
        }
        let base = name.clone();
        let mut k = 2;
        while sources.iter().any(|(n, _)| *n == name) {
            name = format!("{base}_{k}");
            k += 1;
        }
        sources.push((name, rel));
    }
    Ok(sources)
}

/// The spec's comment, `[output]` and sources; with no data, a source of
/// inline rows (added to `sources`).
fn spec_head(sources: &mut Vec<(String, String)>) -> String {
    let mut head = String::new();
    let _ = writeln!(
        head,
        "# artifact.toml: every figure and number of the paper, from the data.\n\
         # `artifact gen` builds them; `artifact check` fails when they drift;\n\
         # `artifact show NAME` prints a source's or table's fields and rows.\n\
         # Paths are relative to this file. Reference: docs/spec.md.\n"
    );
    let _ = writeln!(
        head,
        "[output]\nfigures = \"figures\"\ngenerated = \"generated\"\n"
    );
    if sources.is_empty() {
        let _ = writeln!(
            head,
            "# No data was given: a few inline rows to start from.\n[sources.runs]\n{SAMPLE_ROWS}\n"
        );
        sources.push(("runs".into(), String::new()));
    } else {
        for (name, rel) in sources.iter() {
            // A file name with `[`, `*` or `?` is that file, not a pattern.
            let _ = writeln!(
                head,
                "[sources.{name}]\npath = {}\n",
                quoted(&glob::Pattern::escape(rel))
            );
        }
    }
    head
}

/// `head` with each source's fields listed as comments after its `path`
/// (or rows).
fn with_fields(head: &str, surveyed: &[(String, usize, Vec<FieldSummary>)]) -> String {
    let mut spec = String::new();
    let mut lines = head.lines().peekable();
    while let Some(line) = lines.next() {
        spec.push_str(line);
        spec.push('\n');
        // The fields, after each source's `path` (or rows).
        let Some(name) = line
            .strip_prefix("[sources.")
            .and_then(|l| l.strip_suffix(']'))
        else {
            continue;
        };
        while let Some(l) = lines.next_if(|l| !l.is_empty()) {
            spec.push_str(l);
            spec.push('\n');
        }
        if let Some((_, rows, fields)) = surveyed.iter().find(|(n, ..)| n == name) {
            let plural = if *rows == 1 { "" } else { "s" };
            let _ = writeln!(
                spec,
                "# {rows} row{plural}; fields (type, distinct values, first value):"
            );
            for f in fields.iter().take(60) {
                let ex: String = f
                    .example
                    .as_deref()
                    .unwrap_or("-")
                    .chars()
                    .take(40)
                    .collect();
                let _ = writeln!(
                    spec,
                    "#   {}: {}, {} distinct, e.g. {}",
                    f.name,
                    f.types,
                    f.distinct,
                    ex.replace(['\n', '\r'], " ")
                );
            }
            if fields.len() > 60 {
                let _ = writeln!(spec, "#   ... and {} more", fields.len() - 60);
            }
        }
    }
    spec
}

/// Writes `artifact.toml` (`spec`) and the paper stubs that do not exist.
/// Every file complete in a temporary file first; then each linked into
/// place only where nothing is (a dangling link counts as something); a
/// failure removes what this run linked: a failed init leaves nothing.
fn write_files(root: &Path, spec: String) -> Result<Initialized> {
    let mut done = Initialized::default();
    let median = spec.contains("[numbers.example-median]");
    let mut files = vec![(SPEC_FILE, spec)];
    for (file, text) in [
        ("main.typ", typst_stub(median)),
        ("main.tex", latex_stub(median)),
    ] {
        if root.join(file).symlink_metadata().is_ok() {
            done.kept.push(file.into());
        } else {
            files.push((file, text));
        }
    }
    let staged: Vec<(&str, tempfile::NamedTempFile)> = files
        .iter()
        .map(|(f, text)| {
            Ok((
                *f,
                crate::output::staged_new(&root.join(f), text.as_bytes())?,
            ))
        })
        .collect::<Result<_>>()?;
    for (file, tmp) in staged {
        let target = root.join(file);
        if let Err(e) = tmp.persist_noclobber(&target) {
            for w in &done.written {
                let _ = std::fs::remove_file(root.join(w));
            }
            return Err(Error::io(&target, e.error));
        }
        done.written.push(file.into());
    }
    Ok(done)
}

/// The example table, number and figure for source `src` with `fields`.
fn example(src: &str, fields: &[FieldSummary]) -> String {
    // The numeric fields with the most distinct values (file order on ties).
    let mut nums: Vec<&FieldSummary> = fields.iter().filter(|f| numeric(f)).collect();
    nums.sort_by_key(|f| std::cmp::Reverse(f.distinct));
    let text = fields.iter().find(|f| text_field(f));
    let mut o = String::new();
    let _ = writeln!(
        o,
        "# An example table, number and figure: change them to what the paper shows."
    );
    match (nums.as_slice(), text) {
        ([a, b, ..], _) => {
            // x: the one with fewer distinct values (a parameter), y: the
            // other (a measurement); file order on a tie.
            let (x, y) = match (a.distinct, b.distinct) {
                (da, db) if da < db => (a, b),
                (da, db) if da > db => (b, a),
                _ if fields.iter().position(|f| f.name == a.name)
                    < fields.iter().position(|f| f.name == b.name) =>
                {
                    (a, b)
                }
                _ => (b, a),
            };
            let _ = writeln!(
                o,
                "[tables.example]\nfrom = \"{src}\"\nsteps = [{{ filter = \"{x} is number and {y} is number\" }}]\n\n\
                 [numbers.example-median]\ntable = \"example\"\nvalue = {{ median = \"{y}\" }}\nformat = {{ figures = 3 }}\n\
                 description = \"median {y}\"\n\n\
                 [numbers.example-rows]\ntable = \"example\"\nvalue = \"count\"\ndescription = \"rows in the example figure\"\n\n\
                 [figures.example]\nsize = [5, 3.2]\ntitle = \"{y} against {x} ({{{{ n['example-rows'] }}}} rows)\"\n\
                 x = {{ title = \"{x}\" }}\ny = {{ title = \"{y}\" }}\n\
                 layers = [{{ mark = \"point\", data = \"example\", x = \"{x}\", y = \"{y}\" }}]",
                x = x.name,
                y = y.name
            );
        }
        ([x], _) => {
            let _ = writeln!(
                o,
                "[tables.example]\nfrom = \"{src}\"\nsteps = [{{ filter = \"{x} is number\" }}]\n\n\
                 [numbers.example-median]\ntable = \"example\"\nvalue = {{ median = \"{x}\" }}\nformat = {{ figures = 3 }}\n\
                 description = \"median {x}\"\n\n\
                 [numbers.example-rows]\ntable = \"example\"\nvalue = \"count\"\ndescription = \"rows in the example figure\"\n\n\
                 [figures.example]\nsize = [5, 3.2]\ntitle = \"{x} ({{{{ n['example-rows'] }}}} rows)\"\n\
                 x = {{ title = \"{x}\" }}\ny = {{ title = \"rows\" }}\n\
                 layers = [{{ mark = \"hist\", data = \"example\", x = \"{x}\", bins = 20 }}]",
                x = x.name
            );
        }
        ([], Some(t)) => {
            let _ = writeln!(
                o,
                "[tables.example]\nfrom = \"{src}\"\n\
                 steps = [{{ filter = \"{t} is string\" }}, {{ group = \"{t}\", aggregate = {{ n = \"count\" }} }}]\n\n\
                 [numbers.example-rows]\ntable = \"example\"\nvalue = \"count\"\ndescription = \"values of {t}\"\n\n\
                 [figures.example]\nsize = [5, 3.2]\ntitle = \"rows per {t} ({{{{ n['example-rows'] }}}} values)\"\n\
                 x = {{ title = \"{t}\" }}\ny = {{ title = \"rows\" }}\n\
                 layers = [{{ mark = \"bar\", data = \"example\", x = \"{t}\", y = \"n\" }}]",
                t = t.name
            );
        }
        ([], None) => {
            let _ = writeln!(
                o,
                "[tables.example]\nfrom = \"{src}\"\n\n\
                 [numbers.example-rows]\ntable = \"example\"\nvalue = \"count\"\ndescription = \"rows of {src}\"\n\n\
                 [tables.example_count]\nfrom = \"{src}\"\nsteps = [{{ group = [], aggregate = {{ n = \"count\" }} }}, {{ derive = {{ what = \"'rows'\" }} }}]\n\n\
                 [figures.example]\nsize = [5, 3.2]\ntitle = \"rows of {src}\"\ny = {{ title = \"rows\" }}\n\
                 layers = [{{ mark = \"bar\", data = \"example_count\", x = \"what\", y = \"n\" }}]"
            );
        }
    }
    o
}

fn typst_stub(median: bool) -> String {
    let median = if median {
        " (median #example-median)"
    } else {
        ""
    };
    format!(
        "// The paper: every number from generated/macros.typ, every figure from\n\
     // figures/, both made by `artifact gen`. Build: artifact gen && typst compile main.typ\n\
     #import \"generated/macros.typ\": *\n\n\
     = Results\n\n\
     The example figure shows #example-rows rows{median}.\n\n\
     #figure(image(\"figures/example.pdf\", width: 80%), caption: [The example figure.])\n"
    )
}

fn latex_stub(median: bool) -> String {
    let median = if median {
        " (median \\artnum{example-median})"
    } else {
        ""
    };
    let body = "% The paper: every number from generated/macros.tex, every figure from\n\
     % figures/, both made by `artifact gen`. Build: artifact gen && pdflatex main.tex\n\
     \\documentclass{article}\n\\usepackage{graphicx}\n\\input{generated/macros.tex}\n\n\
     \\begin{document}\n\\section{Results}\n\n\
     The example figure shows \\artnum{example-rows} rows MEDIAN.\n\n\
     \\begin{figure}[t]\\centering\n\\includegraphics[width=0.8\\linewidth]{figures/example.pdf}\n\
     \\caption{The example figure.}\n\\end{figure}\n\\end{document}\n";
    body.replace(" MEDIAN", median)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_names_from_file_names() {
        assert_eq!(source_name(Path::new("data/Run-1.jsonl.zst")), "run_1");
        assert_eq!(
            source_name(Path::new("2024 results.csv")),
            "data_2024_results"
        );
    }
}
