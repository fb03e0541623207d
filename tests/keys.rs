//! Nothing in the spec is ignored: every key of the demo paper's spec,
//! misspelled, fails `artifact gen` at that key's line and column; and
//! `artifact schema` prints a JSON Schema the demo spec satisfies, which
//! refuses a key its variant does not read.

mod common;

use common::*;
use toml::de::{DeTable, DeValue};

fn line_col(text: &str, at: usize) -> (usize, usize) {
    let line = text[..at].matches('\n').count() + 1;
    let col = text[..at].chars().count()
        - text[..at]
            .rfind('\n')
            .map_or(0, |i| text[..=i].chars().count())
        + 1;
    (line, col)
}

/// Every key of every table in `v`, however deep (for the count).
fn count_keys(v: &DeValue<'_>) -> usize {
    match v {
        DeValue::Table(t) => t.iter().map(|(_, v)| 1 + count_keys(v.get_ref())).sum(),
        DeValue::Array(a) => a.iter().map(|v| count_keys(v.get_ref())).sum(),
        _ => 0,
    }
}

#[test]
fn every_key_of_the_demo_spec_misspelled_fails_gen_at_its_line_and_column() {
    use artifact::spec::keys::{Role, all_keys};
    let dir = paper_copy();
    let text = std::fs::read_to_string(root().join("paper/artifact.toml")).unwrap();
    let keys = all_keys(&text);
    // The walk reaches every key of the file: none is left unchecked.
    let doc = DeTable::parse(&text).unwrap();
    let all = count_keys(&DeValue::Table(doc.get_ref().clone()));
    assert_eq!(keys.len(), all, "keys the check never saw");
    let declared: Vec<_> = keys
        .iter()
        .filter(|(_, r)| *r == Role::Declared)
        .map(|(s, _)| s.clone())
        .collect();
    assert!(declared.len() > 300, "{}", declared.len());
    for span in declared {
        let word = &text[span.clone()];
        let bad = format!("{}x{}", &text[..span.end], &text[span.end..]);
        std::fs::write(dir.path().join("artifact.toml"), &bad).unwrap();
        let out = artifact(dir.path(), &["gen"]);
        let err = String::from_utf8_lossy(&out.stderr);
        let (line, col) = line_col(&bad, span.start);
        assert_eq!(out.status.code(), Some(2), "`{word}x`: {err}");
        assert!(
            err.starts_with(&format!(
                "error: artifact.toml:{line}:{col}: unknown key `{word}x` in "
            )),
            "`{word}x` at {line}:{col}: {err}"
        );
    }
}

fn schema() -> serde_json::Value {
    let out = artifact(&root(), &["schema"]);
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

fn as_json(toml_text: &str) -> serde_json::Value {
    let t: toml::Table = toml::from_str(toml_text).unwrap();
    serde_json::to_value(t).unwrap()
}

#[test]
fn every_committed_spec_satisfies_the_printed_schema() {
    let schema = schema();
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
    let validator = jsonschema::draft7::new(&schema).unwrap();
    // Every committed spec: the demo paper and every gallery folder.
    let mut specs = vec![root().join("paper/artifact.toml")];
    let mut dirs = vec![root().join("examples")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.file_name().is_some_and(|n| n == "artifact.toml") {
                specs.push(path);
            }
        }
    }
    specs.sort();
    assert!(specs.len() > 5, "{specs:?}");
    for path in specs {
        let spec = as_json(&std::fs::read_to_string(&path).unwrap());
        let errors: Vec<String> = validator
            .iter_errors(&spec)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
    }
    // A key its mark does not read, an unknown key, a needed key missing.
    for bad in [
        "[figures.f]\nsize = [1, 1]\nlayers = [{ mark = \"bar\", x = \"a\", y = \"b\", series = \"c\" }]\n",
        "[tables.t]\nfrom = \"s\"\nsteps = [{ fliter = \"x\" }]\n",
        "[tables.t]\nfrom = \"s\"\nsteps = [{ pareto = \"x\", keep = \"y\" }]\n",
        "[figures.f]\nsize = [1, 1]\nlayers = [{ mark = \"line\", x = \"a\", y = \"b\", marker_size = 3 }]\n",
        "[numbers.n]\ntable = \"t\"\nvalue = { expr = \"1\" }\n",
        "[tables.t]\nfrom = \"s\"\nsteps = [{ minimize = \"x\" }]\n",
    ] {
        assert!(!validator.is_valid(&as_json(bad)), "{bad}");
    }
}

#[test]
fn the_schema_is_the_same_bytes_every_time() {
    let a = artifact(&root(), &["schema"]).stdout;
    let b = artifact(&root(), &["schema"]).stdout;
    assert_eq!(a, b);
}

#[test]
fn a_format_on_a_value_that_is_not_a_number_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let spec = "[sources.s]\nrows = [{ name = \"abc\" }]\n\n[numbers.who]\ntable = \"s\"\nvalue = { cell = \"name\" }\nformat = { places = 2 }\n";
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("\nerror: number `who`: artifact.toml:7:1: `format` does nothing here: the value is not a number (string \"abc\")\n"),
        "{err}"
    );
}

#[test]
fn every_key_another_variant_reads_is_an_error_in_every_table_of_the_demo_spec() {
    use artifact::spec::keys::all_tables;
    let text = std::fs::read_to_string(root().join("paper/artifact.toml")).unwrap();
    let mut tried = 0;
    for t in all_tables(&text) {
        let Some(var) = &t.variant else { continue };
        let accepted = t.kind.keys_of(Some(var));
        // For a kind chosen by key, another variant's own key makes two.
        for key in t
            .kind
            .keys
            .iter()
            .filter(|k| !accepted.contains(&k.name) && !t.kind.is_variant(k.name))
        {
            let inline = text[..t.first_key.start].trim_end().ends_with(['{', ',']);
            let insert = if inline {
                format!("{} = 1, ", key.name)
            } else {
                format!("{} = 1\n", key.name)
            };
            let at = t.first_key.start;
            let bad = format!("{}{insert}{}", &text[..at], &text[at..]);
            let err = artifact::spec::parse(&bad, std::path::Path::new("artifact.toml"))
                .unwrap_err()
                .to_string();
            let (line, col) = line_col(&bad, at);
            let noun = t.kind.variant_noun(var);
            assert!(
                err.starts_with(&format!(
                    "artifact.toml:{line}:{col}: `{}` does not apply to {noun}",
                    key.name
                )),
                "{} in {noun}: {err}",
                key.name
            );
            tried += 1;
        }
    }
    assert!(tried > 500, "{tried}");
}
