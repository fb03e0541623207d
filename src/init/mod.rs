//! `artifact init [DATA...]`: a starter spec and paper for new data.
//!
//! Writes, in the spec's folder, `artifact.toml` with one source per data
//! file (its format as the extension says, else as its first bytes show,
//! or `--format`; for a JSON document the records array it finds, or
//! `--records`: see [`probe`]), its fields, types, distinct counts and an
//! example listed as comments (read the way `gen` reads the file, from its
//! first [`probe::SAMPLE_ROWS`] rows), one example table, one number and
//! one figure that run as written, and `main.typ` and `main.tex` stubs
//! that include them. With no data, the source is a few inline rows.
//! Nothing existing is ever overwritten: an existing `artifact.toml` is an
//! error, and an existing paper stub is left as it is (and said so).
//!
//! The example follows the data (see [`example`]): two numeric fields give
//! a scatter plot (point mark) and their median; one gives a histogram;
//! none gives a bar per value of a text field of 2 to 30 values. A name
//! that is no plain identifier is read as `_['Time (s)']`; pandas' index
//! column (`Unnamed: 0`, or no name) is never the example. A source of
//! more rows than the example can draw at once gets a `limit`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result, shown};
use crate::inspect::show::{FieldSummary, fields_of};
use crate::spec::SPEC_FILE;

mod example;
mod probe;
mod recipes;

use example::{example, latex_stub, typst_stub};

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

/// How an expression reads field `name`: bare when it is plain, else
/// `_['name']`; `None` for a name no expression should spell (a nested
/// path, quotes, braces a template would read, control characters) and
/// for pandas' index column (`Unnamed: 0`, or no name), which is no
/// measurement.
fn expr_of(name: &str) -> Option<String> {
    if plain(name) {
        return Some(name.to_string());
    }
    let index = name.is_empty() || name.starts_with("Unnamed: ");
    let odd = |c: char| c.is_control() || matches!(c, '\'' | '\\' | '{' | '}' | '.' | '%' | '#');
    (!index && !name.chars().any(odd)).then(|| format!("_['{name}']"))
}

fn numeric(f: &FieldSummary) -> bool {
    expr_of(&f.name).is_some()
        && f.name != "index"
        && f.types
            .split('|')
            .all(|t| matches!(t, "int" | "float" | "null" | "missing"))
        && f.types.split('|').any(|t| matches!(t, "int" | "float"))
}

fn text_field(f: &FieldSummary) -> bool {
    expr_of(&f.name).is_some() && f.types.split('|').any(|t| t == "string")
}

/// For a text field whose first value is a quantity with a unit
/// (`87us`, `2.80ms`, `1.2 GiB`): how an expression reads it as a number.
fn quantity_hint(f: &FieldSummary) -> Option<String> {
    let ex = f.example.as_deref()?;
    if !f.types.split('|').any(|t| t == "string") {
        return None;
    }
    let e = expr_of(&f.name)?;
    ["s", "B", "b", "Hz", "W", "J", "op/s", "B/s"]
        .into_iter()
        .find(|unit| crate::format::prefix::parse_quantity(ex, unit).is_ok())
        .map(|unit| {
            format!(
                "a quantity with its unit: `quantity({e}, '{unit}')` reads it as a number of {unit}"
            )
        })
}

/// TOML's basic string for `s`.
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// What the command line says about the data files (`--format`,
/// `--records`), for every file given.
#[derive(Debug, Default)]
pub struct Options {
    /// The files' format (`jsonl`, `json`, `csv`, `tsv`, `parquet`) where
    /// their extension does not say it or says it wrong.
    pub format: Option<String>,
    /// JSON documents: the JSON pointer to the records (by default the
    /// longest array of objects, or the whole document as one record).
    pub records: Option<String>,
}

/// Writes the starter files in `dir` for `data` (paths as given, relative
/// to the current folder; written in the spec relative to `dir`). Each
/// file is described from its first [`probe::SAMPLE_ROWS`] rows, so a big
/// log is read only as far as that (and once more, streamed, when the
/// starter is built).
///
/// Errors: `artifact.toml` exists; a data file is missing or cannot be
/// read as a source (its content bad: the error names the file and line,
/// as `gen`'s would); a JSON document with several arrays of records of
/// one length and no `--records`; a file cannot be written. Nothing is
/// written unless every source reads and the starter builds.
pub fn init(dir: &Path, data: &[PathBuf], opts: &Options) -> Result<Initialized> {
    let root = dir.canonicalize().map_err(|e| Error::io(dir, e))?;
    let spec_path = root.join(SPEC_FILE);
    if spec_path.symlink_metadata().is_ok() {
        return Err(Error::msg(format!(
            "{} exists: init never overwrites it (edit it, or start in another folder)",
            shown(&spec_path.display().to_string())
        )));
    }
    let mut sources = name_sources(&root, data, opts)?;
    let head = spec_head(&mut sources);
    // Read the first rows of every source the way gen does, for its fields.
    let draft = crate::spec::parse(&head, &spec_path)?;
    let mut surveyed = Vec::new();
    // The sample of each source that has more rows than it.
    let mut cut = Vec::new();
    for s in &sources {
        let (rows, more) = probe::sample(&draft, &s.name).map_err(|e| match s.rel.is_empty() {
            true => e,
            false => e.context(format!("data file {}", s.rel)),
        })?;
        surveyed.push(Surveyed {
            name: s.name.clone(),
            rows: rows.len(),
            more,
            fields: fields_of(&rows),
        });
        // A glob's rows read `_source.path` (criterion's): the files' own.
        cut.push((more && s.probed.path.is_none()).then_some(rows));
    }
    let mut spec = with_fields(&head, &surveyed);
    let first = &surveyed[0];
    let body = match sources[0].probed.kind {
        Some(kind) => recipes::recipe(kind, first, &sources[0].probed),
        None => example(first),
    };
    spec.push_str(&body);
    // What is written runs: built in memory first, as `gen` would (on the
    // samples of the sources that have more rows: see `sampled`).
    let staged = sampled(&root, &sources, cut)?;
    let checked = match &staged {
        Some((_, head)) => format!("{head}{body}"),
        None => spec.clone(),
    };
    let built =
        crate::spec::parse(&checked, &spec_path).and_then(|s| crate::run::build(&s, &[], None));
    drop(staged);
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

/// The starter's head with every source that has more rows than its
/// sample (`cut[i]` holds the sample) read from that sample instead: the
/// rows written as JSONL in a temporary folder beside the spec (removed
/// when the folder is dropped), so checking the starter reads a big log's
/// first rows, not the whole log again. `None` when no source was cut.
fn sampled(
    root: &Path,
    sources: &[Source],
    cut: Vec<Option<Vec<crate::value::Row>>>,
) -> Result<Option<(tempfile::TempDir, String)>> {
    if cut.iter().all(Option::is_none) {
        return Ok(None);
    }
    let dir = tempfile::Builder::new()
        .prefix(".artifact-init-")
        .tempdir_in(root)
        .map_err(|e| Error::io(root, e))?;
    let mut checked = Vec::new();
    for (s, rows) in sources.iter().zip(cut) {
        let probed = match rows {
            None => probe::Probed {
                format: s.probed.format,
                records: s.probed.records.clone(),
                path: s.probed.path.clone(),
                ..probe::Probed::default()
            },
            Some(rows) => {
                let file = dir.path().join(format!("{}.jsonl", s.name));
                write_jsonl(&file, &rows)?;
                let rel = crate::spec::paths::relative_to(root, &file)
                    .ok_or_else(|| Error::msg("the sample's folder is not in the spec's"))?;
                probe::Probed {
                    format: Some("jsonl"),
                    path: Some(glob::Pattern::escape(&rel)),
                    ..probe::Probed::default()
                }
            }
        };
        checked.push(Source {
            name: s.name.clone(),
            rel: s.rel.clone(),
            probed,
        });
    }
    let head = spec_head(&mut checked);
    Ok(Some((dir, head)))
}

/// `rows` as JSONL at `file`: each row's fields as a JSON object (a NaN or
/// an infinity as its text, see [`crate::inspect::to_json`]).
fn write_jsonl(file: &Path, rows: &[crate::value::Row]) -> Result<()> {
    use std::io::Write as _;
    let io = |e: std::io::Error| Error::io(file, e);
    let mut out = std::io::BufWriter::new(std::fs::File::create(file).map_err(io)?);
    for row in rows {
        let obj: serde_json::Map<String, serde_json::Value> = row
            .flat_fields()
            .0
            .iter()
            .map(|(k, v)| (k.to_string(), crate::inspect::to_json(v)))
            .collect();
        serde_json::to_writer(&mut out, &obj).map_err(|e| io(e.into()))?;
        out.write_all(b"\n").map_err(io)?;
    }
    out.flush().map_err(io)
}

/// A data file as a source of the starter spec.
struct Source {
    /// The source's name.
    name: String,
    /// The path relative to the spec's folder (empty: inline rows).
    rel: String,
    /// Its `format` and `records`, where needed.
    probed: probe::Probed,
}

/// A source's sample: its name, rows read, whether it has more, fields.
pub(crate) struct Surveyed {
    pub(crate) name: String,
    pub(crate) rows: usize,
    pub(crate) more: bool,
    pub(crate) fields: Vec<FieldSummary>,
}

/// Each data file's source name (unique, never a starter table's) and its
/// path relative to `root`.
fn name_sources(root: &Path, data: &[PathBuf], opts: &Options) -> Result<Vec<Source>> {
    let mut sources: Vec<Source> = Vec::new();
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
        if [
            "example",
            "example_count",
            "commands",
            "times",
            "curves",
            "benchmarks",
            "ids",
            "runs",
            "tests",
        ]
        .contains(&name.as_str())
        {
            name.push_str("_data");
        }
        let base = name.clone();
        let mut k = 2;
        while sources.iter().any(|s| s.name == name) {
            name = format!("{base}_{k}");
            k += 1;
        }
        let probed = probe::probe(&abs, &rel, opts.format.as_deref(), opts.records.as_deref())?;
        sources.push(Source { name, rel, probed });
    }
    Ok(sources)
}

/// The spec's comment, `[output]` and sources; with no data, a source of
/// inline rows (added to `sources`).
fn spec_head(sources: &mut Vec<Source>) -> String {
    let mut head = String::new();
    let _ = writeln!(
        head,
        "# artifact.toml: every figure and number of the paper, from the data.\n\
         # `artifact gen` builds them; `artifact check` fails when they drift;\n\
         # `artifact show NAME` prints a source's or table's fields and rows.\n\
         # Paths are relative to this file; `artifact schema --markdown` prints\n\
         # every key with what it does.\n"
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
        sources.push(Source {
            name: "runs".into(),
            rel: String::new(),
            probed: probe::Probed::default(),
        });
    } else {
        for s in sources.iter() {
            // A file name with `[`, `*` or `?` is that file, not a pattern.
            let path = match &s.probed.path {
                Some(glob) => glob.clone(),
                None => glob::Pattern::escape(&s.rel),
            };
            let _ = writeln!(head, "[sources.{}]\npath = {}", s.name, quoted(&path));
            if let Some(f) = s.probed.format {
                let _ = writeln!(head, "format = \"{f}\"");
            }
            if let Some(r) = &s.probed.records {
                for (p, n) in &s.probed.others {
                    let _ = writeln!(
                        head,
                        "# also an array of {n} records: records = {}",
                        quoted(p)
                    );
                }
                let _ = writeln!(head, "records = {}", quoted(r));
            }
            head.push('\n');
        }
    }
    head
}

/// `head` with each source's fields listed as comments after its `path`
/// (or rows).
fn with_fields(head: &str, surveyed: &[Surveyed]) -> String {
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
        if let Some(Surveyed {
            rows, more, fields, ..
        }) = surveyed.iter().find(|s| s.name == name)
        {
            let plural = if *rows == 1 { "" } else { "s" };
            let first = if *more { "the first " } else { "" };
            let _ = writeln!(
                spec,
                "# {first}{rows} row{plural}; fields (type, distinct values, first value):"
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
                    if f.name.is_empty() {
                        "\"\" (no name)".to_string()
                    } else {
                        shown(&f.name)
                    },
                    f.types,
                    f.distinct,
                    ex.replace(['\n', '\r'], " ")
                );
                if let Some(hint) = quantity_hint(f) {
                    let _ = writeln!(spec, "#     {hint}");
                }
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
