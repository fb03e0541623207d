//! Hostile input, round three (issue 25), points 2, 4 and 5: a message
//! about a wide row names a bounded number of fields; a `**` glob ends
//! through links that loop back; a project folder or a file named with
//! glob characters is read as written.

mod common;

use std::path::Path;

use common::{artifact, numbers, stderr};

/// `artifact.toml` with `spec` in `dir` (created).
fn write_spec(dir: &Path, spec: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("artifact.toml"), spec).unwrap();
}

/// A file of `text` at `rel` under `dir`, its folders created.
fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// The input files `artifact.lock` records, in its order.
fn lock_inputs(dir: &Path) -> Vec<String> {
    let lock = std::fs::read_to_string(dir.join("artifact.lock")).unwrap();
    let inputs = lock.split("[inputs]\n").nth(1).unwrap();
    inputs
        .lines()
        .take_while(|l| !l.is_empty())
        .map(|l| l.split('"').nth(1).unwrap().to_string())
        .collect()
}

const SUM_OF_X: &str = "[numbers.n]\ntable = \"s\"\nvalue = { sum = \"x\" }\n";

// Point 2: an error on a wide row.

/// The line of `stderr` that starts with `error:`.
fn error_line(out: &std::process::Output) -> String {
    stderr(out)
        .lines()
        .find(|l| l.starts_with("error:"))
        .unwrap_or_else(|| panic!("no error in {}", stderr(out)))
        .to_string()
}

#[test]
fn an_error_on_a_wide_jsonl_row_names_30_fields_and_counts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fields: Vec<String> = (0..200_000).map(|i| format!("\"k{i}\": {i}")).collect();
    write(d, "wide.jsonl", &format!("{{{}}}\n", fields.join(", ")));
    write_spec(
        d,
        "[sources.s]\npath = \"wide.jsonl\"\n\n[numbers.n]\ntable = \"s\"\nvalue = { sum = \"k9999x\" }\n",
    );
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let named: Vec<String> = (0..30).map(|i| format!("k{i}")).collect();
    assert_eq!(
        error_line(&out),
        format!(
            "error: number `n`: over 1 row(s) of table `s`: wide.jsonl:1: no field `k9999x` in table `s` (fields: {} and 199,970 more); did you mean `k9999`?",
            named.join(", ")
        )
    );
    // The same through a derive, whose table reads the record in part
    // (the message reads the whole record again).
    write_spec(
        d,
        "[sources.s]\npath = \"wide.jsonl\"\n\n[tables.t]\nfrom = \"s\"\nsteps = [{ derive = { y = \"nope * 2\" } }]\n\n[numbers.n]\ntable = \"t\"\nvalue = { sum = \"y\" }\n",
    );
    let out = artifact(d, &["gen"]);
    let line = error_line(&out);
    assert!(
        line.ends_with(&format!("(fields: {} and 199,970 more)", named.join(", "))),
        "{line}"
    );
    assert_eq!(line.matches(", k").count(), 29);
}

#[test]
fn an_error_on_a_wide_csv_row_is_one_line_of_the_values_read() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let header: Vec<String> = (0..100_000).map(|i| format!("c{i}")).collect();
    let row: Vec<String> = (0..100_000).map(|i| i.to_string()).collect();
    write(
        d,
        "wide.csv",
        &format!("{}\n{}\n", header.join(","), row.join(",")),
    );
    write_spec(
        d,
        "[sources.s]\npath = \"wide.csv\"\n\n[tables.t]\nfrom = \"s\"\nsteps = [{ derive = { y = \"c5 / 0\" } }]\n\n[numbers.n]\ntable = \"t\"\nvalue = { sum = \"y\" }\n",
    );
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        error_line(&out),
        "error: number `n`: table `t`, step 1 (derive, artifact.toml line 6): wide.csv:2: cannot evaluate `c5 / 0`: invalid operation: unable to calculate 5 / 0 (where c5 = 5)"
    );
}

#[test]
fn an_unknown_name_lists_30_names_of_the_spec_and_counts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut spec = String::new();
    for i in 0..100 {
        spec.push_str(&format!("[numbers.n{i}]\nvalue = {{ expr = \"{i}\" }}\n\n"));
    }
    write_spec(d, &spec);
    let out = artifact(d, &["explain", "n5x"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let named: Vec<String> = (0..30).map(|i| format!("`n{i}`")).collect();
    assert_eq!(
        stderr(&out),
        format!(
            "error: no number named `n5x` (did you mean `n5`?)\n  numbers: {} and 70 more\n",
            named.join(", ")
        )
    );
}

// Point 4: a `**` glob through links that loop.

#[cfg(unix)]
#[test]
fn a_double_star_glob_through_links_that_loop_back_ends_and_names_them() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "data/a.csv", "x\n1\n");
    write(d, "data/sub/b.csv", "x\n2\n");
    write(d, "data/one/two/c.csv", "x\n4\n");
    symlink(".", d.join("data/loop")).unwrap();
    symlink("..", d.join("data/up")).unwrap();
    // A longer cycle: p/l leads to q, whose l leads back to p.
    std::fs::create_dir_all(d.join("data/p")).unwrap();
    std::fs::create_dir_all(d.join("data/q")).unwrap();
    symlink("../q", d.join("data/p/l")).unwrap();
    symlink("../p", d.join("data/q/l")).unwrap();
    // A link to a folder that does not hold it is followed.
    write(d, "other/d.csv", "x\n8\n");
    symlink("../other", d.join("data/elsewhere")).unwrap();
    write_spec(
        d,
        &format!("[sources.s]\npath = \"data/**/*.csv\"\n\n{SUM_OF_X}"),
    );
    let notes = "note: source `s`: `data/loop` is not followed: it links back to `data`, a folder it is in\n\
                 note: source `s`: `data/p/l/l` is not followed: it links back to `data/p`, a folder it is in\n\
                 note: source `s`: `data/q/l/l` is not followed: it links back to `data/q`, a folder it is in\n\
                 note: source `s`: `data/up` is not followed: it links back to `.`, a folder it is in\n";
    let out = artifact(d, &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "{notes}wrote generated/macros.tex\nwrote generated/macros.typ\nwrote generated/numbers.json\nwrote artifact.lock\n"
        )
    );
    assert_eq!(numbers(d)["n"]["value"], 15);
    assert_eq!(
        lock_inputs(d),
        [
            "data/a.csv",
            "data/elsewhere/d.csv",
            "data/one/two/c.csv",
            "data/sub/b.csv"
        ]
    );
    let out = artifact(d, &["check"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = artifact(d, &["show", "s"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).starts_with(notes), "{}", stderr(&out));
    let out = artifact(d, &["explain", "n"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).starts_with(notes), "{}", stderr(&out));
}

#[cfg(unix)]
#[test]
fn a_glob_matches_files_not_folders_and_a_dangling_link_is_a_missing_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "data/a.csv", "x\n1\n");
    std::fs::create_dir_all(d.join("data/folder.csv")).unwrap();
    write_spec(
        d,
        &format!("[sources.s]\npath = \"data/*.csv\"\n\n{SUM_OF_X}"),
    );
    let out = artifact(d, &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(numbers(d)["n"]["value"], 1);
    std::os::unix::fs::symlink("gone.csv", d.join("data/b.csv")).unwrap();
    let out = artifact(d, &["gen"]);
    assert_eq!(
        error_line(&out),
        "error: number `n`: source `s`: data/b.csv: file not found (mark the source `optional = true` if what needs it may be skipped without it)"
    );
}

// Point 5: a folder or a file named with glob characters.

#[test]
fn a_project_folder_named_with_brackets_reads_its_glob() {
    let dir = tempfile::tempdir().unwrap();
    let d = &dir.path().join("paper [draft]");
    write(d, "data/a.csv", "x\n1\n");
    write(d, "data/b.csv", "x\n2\n");
    write_spec(
        d,
        &format!("[sources.s]\npath = \"data/*.csv\"\n\n{SUM_OF_X}"),
    );
    let out = artifact(d, &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(numbers(d)["n"]["value"], 3);
    assert_eq!(lock_inputs(d), ["data/a.csv", "data/b.csv"]);
    let out = artifact(d, &["check"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn an_output_a_glob_would_read_is_refused_in_a_folder_named_with_brackets() {
    use common::small::{DATA, SPEC};
    let dir = tempfile::tempdir().unwrap();
    let d = &dir.path().join("paper [draft]");
    write(d, "data/runs.csv", DATA);
    write_spec(
        d,
        &format!(
            "[output]\nfigures = \"data\"\n{}",
            SPEC.replace("path = \"data/runs.csv\"", "path = \"data/*.csv\"")
        ),
    );
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).lines().next().unwrap(),
        "error: artifact.toml:12:10: figure `lat` would write data/lat.csv, but source `runs` reads `data/*.csv`, which matches it: an output never overwrites an input (rename it or change [output])"
    );
}

#[test]
fn init_in_a_folder_named_with_brackets_on_a_file_named_with_a_bracket() {
    let dir = tempfile::tempdir().unwrap();
    let d = &dir.path().join("paper [draft]");
    write(d, "data/run[1].csv", "x,y\n1,2\n3,4\n");
    let out = artifact(d, &["init", "data/run[1].csv"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    // The name is escaped: the path is that file, not a pattern.
    assert!(
        spec.contains("[sources.run_1_]\npath = \"data/run[[]1[]].csv\"\n# 2 rows;"),
        "{spec}"
    );
    let out = artifact(d, &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(lock_inputs(d), ["data/run[1].csv"]);
}
