//! Any column name (`execution time`, ` code`, `p50 (ms)`, `gen/tps`) read
//! as `_['...']`, and messages that name what an expression looked for.

mod common;

use std::path::Path;

use common::small::{last_line, stderr};
use common::{artifact, numbers};

const CSV: &str = "run, code,execution time,p50 (ms),gen/tps,_\n\
                   a,x,1.5,10,100,7\n\
                   b,y,4.5,20,200,8\n\
                   c,x,6,30,300,9\n";

/// A project with `spec` and the CSV above as `data/runs.csv`.
fn project(spec: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/runs.csv"), CSV).unwrap();
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    dir
}

fn gen_ok(dir: &Path) {
    let out = artifact(dir, &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

fn gen_err(dir: &Path) -> String {
    let out = artifact(dir, &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    stderr(&out)
}

const SPEC: &str = r#"[sources.runs]
path = "data/runs.csv"

[tables.slow]
from = "runs"
steps = [
  { filter = "_['execution time'] > 3" },
  { derive = { tps2 = "_['gen/tps'] * 2", code = "_[' code']" } },
  { sort = { by = "_['p50 (ms)']", descending = true } },
]

[tables.by_code]
from = "runs"
steps = [
  { group = " code", aggregate = { t = { sum = "_['execution time']" }, row = { sum = "_['_']" } } },
]

[numbers.slow-tps]
table = "slow"
value = { first = "tps2" }

[numbers.slow-code]
table = "slow"
value = { first = "code" }

[numbers.x-time]
table = "by_code"
where = "_[' code'] == 'x'"
value = { first = "t" }

[numbers.x-row]
table = "by_code"
where = "_[' code'] == 'x'"
value = { first = "row" }

[numbers.p50]
table = "runs"
where = "_.run == 'b'"
value = { first = "_['p50 (ms)']" }

[figures.f]
size = [4, 3]
title = "{{ n['slow-tps'] }} tok/s"
layers = [
  { mark = "point", data = "runs", x = "_['execution time']", y = "_['p50 (ms)']", where = "_['gen/tps'] >= 200" },
  { mark = "text", data = "runs", x = "_['execution time']", y = "_['p50 (ms)']", text = "{{ _['gen/tps'] }}/s" },
]
"#;

#[test]
fn any_column_is_read_as_a_key_of_the_row() {
    let dir = project(SPEC);
    gen_ok(dir.path());
    let n = numbers(dir.path());
    // Sorted by p50 descending: c (300 tok/s) before b.
    assert_eq!(n["slow-tps"]["text"], "600");
    assert_eq!(n["slow-code"]["text"], "x");
    // Group ` code` = x: rows a and c; the field named `_` is `_['_']`.
    assert_eq!(n["x-time"]["text"], "7.5");
    assert_eq!(n["x-row"]["text"], "16");
    assert_eq!(n["p50"]["text"], "20");
    let csv = std::fs::read_to_string(dir.path().join("figures/f.csv")).unwrap();
    assert_eq!(
        csv,
        "panel,layer,mark,x,y,size,color,shape,text\n\
         0,0,point,4.5,20,36,#0072b2,circle,\n\
         0,0,point,6,30,36,#0072b2,circle,\n\
         0,1,text,1.5,10,,,,100/s\n\
         0,1,text,4.5,20,,,,200/s\n\
         0,1,text,6,30,,,,300/s\n"
    );
}

/// A JSONL log read by the fast path and the generic path alike.
#[test]
fn the_fast_path_reads_the_same_fields() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    let mut log = String::new();
    for i in 0..50 {
        log.push_str(&format!(
            "{{\"k\": \"{}\", \"execution time\": {i}, \"m\": {{\"a b\": {{\"ratio\": {i}}}, \"c\": {{\"ratio\": 1}}}}}}\n",
            i % 2
        ));
    }
    std::fs::write(dir.path().join("data/r.jsonl"), log).unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        r#"[sources.r]
path = "data/r.jsonl"

[tables.t]
from = "r"
steps = [
  { filter = "_['execution time'] >= 10" },
  { explode = "m" },
  { group = "k", aggregate = { et = { sum = "_['execution time']" }, r = { sum = "value['ratio']" }, n = "count" } },
]

[numbers.et]
table = "t"
where = "k == '0'"
value = { first = "et" }

[numbers.r]
table = "t"
where = "k == '0'"
value = { first = "r" }
"#,
    )
    .unwrap();
    gen_ok(dir.path());
    // Even i from 10 to 48: 20 rows, each exploded into 2 entries.
    let n = numbers(dir.path());
    assert_eq!(n["et"]["text"], "1160");
    assert_eq!(n["r"]["text"], "600");
    let out = assert_cmd::Command::cargo_bin("artifact")
        .unwrap()
        .current_dir(dir.path())
        .env("ARTIFACT_GENERIC_ONLY", "1")
        .args(["check"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

fn error_of(edit: (&str, &str)) -> String {
    assert!(SPEC.contains(edit.0), "{}", edit.0);
    let dir = project(&SPEC.replace(edit.0, edit.1));
    let e = gen_err(dir.path());
    e[e.find("error: ").unwrap()..].to_string()
}

#[test]
fn a_name_with_a_space_is_shown_how_to_read() {
    assert_eq!(
        error_of((
            "{ filter = \"_['execution time'] > 3\" }",
            "{ filter = \"execution time > 3\" }"
        )),
        "error: artifact.toml:7:14: invalid expression: syntax error: unexpected input after expression — a field name with a space or symbol is read as _['execution time']\n  |\n7 |   { filter = \"execution time > 3\" },\n  |              ^^^^^^^^^^^^^^^^^^^^\n"
    );
    let e = error_of(("where = \"_.run == 'b'\"", "where = \"p50 (ms) > 3\""));
    assert_eq!(
        e.lines().next().unwrap(),
        "error: number `p50`: data/runs.csv:2: cannot evaluate `p50 (ms) > 3`: unknown function: p50 is unknown (where ms = missing) — a field name with a space or symbol is read as _['p50 (ms)']"
    );
    let e = error_of(("where = \"_.run == 'b'\"", "where = \"gen/tps > 3\""));
    assert_eq!(
        e.lines().next().unwrap(),
        "error: number `p50`: data/runs.csv:2: cannot evaluate `gen/tps > 3`: no field `gen` in table `runs` (fields: run,  code, execution time, p50 (ms), gen/tps, _); did you mean `_['gen/tps']`?"
    );
}

#[test]
fn a_missing_field_names_the_table_its_fields_and_the_closest() {
    let e = error_of(("\"_['gen/tps'] * 2\"", "\"_['gen/tsp'] * 2\""));
    assert_eq!(
        e.lines().next().unwrap(),
        "error: table `slow`, step 2 (derive, artifact.toml line 8): data/runs.csv:3: cannot evaluate `_['gen/tsp'] * 2`: no field `gen/tsp` in table `slow` (fields: run,  code, execution time, p50 (ms), gen/tps, _); did you mean `_['gen/tps']`?"
    );
    let e = error_of((
        "value = { first = \"code\" }",
        "value = { first = \"cdoe\" }",
    ));
    assert_eq!(
        e.lines().next().unwrap(),
        "error: number `slow-code`: data/runs.csv:4: no field `cdoe` in table `slow` (fields: run,  code, execution time, p50 (ms), gen/tps, _, tps2, code); did you mean `code`?"
    );
    let e = error_of(("y = \"_['p50 (ms)']\", where", "y = \"p50_ms\", where"));
    assert_eq!(
        e.lines().next().unwrap(),
        "error: figure `f`: data/runs.csv:3: no field `p50_ms` in table `runs` (fields: run,  code, execution time, p50 (ms), gen/tps, _); did you mean `_['p50 (ms)']`?"
    );
    // A group key is a name, and the closest is given as one.
    let e = error_of(("group = \" code\"", "group = \"code\""));
    assert_eq!(
        e.lines().next().unwrap(),
        "error: table `by_code`, step 1 (group, artifact.toml line 15): data/runs.csv:2: field `code`: group: no field `code` (fields: run,  code, execution time, p50 (ms), gen/tps, _); did you mean ` code`?"
    );
    let e = error_of(("text = \"{{ _['gen/tps'] }}/s\"", "text = \"{{ tps }}/s\""));
    assert_eq!(
        e.lines().next().unwrap(),
        "error: figure `f`: data/runs.csv:2: cannot render `{{ tps }}/s`: no field `tps` in table `runs` (fields: run,  code, execution time, p50 (ms), gen/tps, _)"
    );
}

#[test]
fn a_missing_number_is_named_with_the_closest() {
    let dir = project(&SPEC.replace("{{ n['slow-tps'] }}", "{{ n['slow-tsp'] }}"));
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains("error: figure `f`: artifact.toml:43:9: cannot render: no number `slow-tsp` (`n['slow-tsp']`); did you mean `slow-tps`?\n"),
        "{e}"
    );
    assert_eq!(
        last_line(&out),
        "1 part(s) failed; their previous outputs are left as they were"
    );
}

#[test]
fn a_mapping_made_by_a_derive_explodes_in_the_order_written() {
    let dir = project(
        r#"[sources.runs]
path = "data/runs.csv"

[tables.t]
from = "runs"
steps = [
  { derive = { m = "{'z': run, 'b': _['execution time']}" } },
  { explode = "m" },
  { derive = { kv = "key ~ '=' ~ value" } },
]

[numbers.first]
table = "t"
value = { first = "kv" }

[numbers.last]
table = "t"
value = { last = "kv" }

[numbers.count]
table = "t"
value = "count"
"#,
    );
    gen_ok(dir.path());
    let n = numbers(dir.path());
    assert_eq!(n["first"]["text"], "z=a");
    assert_eq!(n["last"]["text"], "b=6");
    assert_eq!(n["count"]["text"], "6");
    // What is not a collection is named as what it is.
    std::fs::write(
        dir.path().join("artifact.toml"),
        std::fs::read_to_string(dir.path().join("artifact.toml"))
            .unwrap()
            .replace("{'z': run, 'b': _['execution time']}", "run ~ 'x'"),
    )
    .unwrap();
    let e = gen_err(dir.path());
    assert!(
        e.contains("error: table `t`, step 2 (explode, artifact.toml line 8): data/runs.csv:2: field `m`: explode needs a mapping or a list, found string \"ax\" (filter such rows first, e.g. `m is mapping`)\n"),
        "{e}"
    );
}
