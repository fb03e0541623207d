//! The metadata of many JSON documents: each row sees its own file's as
//! `_source.meta`; `meta.NAME` of a source of several files is an error.
//! The fixtures (`tests/fixtures/sims/`) are three simulator outputs of a
//! sweep over `config.loaders` (2, 4, 8), each `{"config": ..., "results": [...]}`.

mod common;

use std::path::Path;

use common::{artifact, root};

/// The sweep: loaders read from each row's own file, a median per loaders.
const SPEC: &str = r#"[sources.sims]
path = "data/sim_olmoe_v2_ssd043_m*.json"
records = "/results"

[tables.runs]
from = "sims"
steps = [
  { derive = { loaders = "_source.meta.config.loaders", seed = "_source.meta['config']['seed']" } },
]

[tables.sweep]
from = "runs"
steps = [
  { group = ["loaders"], aggregate = { median_ms = { median = "ms" }, n = "count" } },
  { derive = { model = "_source.meta.config.model" } },
  { sort = ["loaders"] },
]

[numbers.ms-m4]
table = "sweep"
where = "loaders == 4 and model == 'olmoe'"
value = { cell = "median_ms" }
format = { places = 2 }

[numbers.ms-m8-run]
table = "sims"
where = "_source.meta.config.loaders == 8 and phase == 'run'"
value = { median = "ms" }
format = { places = 3 }

[numbers.seed-sum]
table = "runs"
value = { sum = "seed" }

[figures.sweep]
size = [4, 3]
layers = [
  { mark = "line", data = "sweep", x = "loaders", y = "median_ms" },
  { mark = "point", data = "sims", x = "_source.meta.config.loaders", y = "ms" },
]
"#;

/// A folder with the three simulator outputs in `data/` and `spec`.
fn project(spec: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    for m in [2, 4, 8] {
        let name = format!("sim_olmoe_v2_ssd043_m{m}.json");
        std::fs::copy(
            root().join("tests/fixtures/sims").join(&name),
            data.join(&name),
        )
        .unwrap();
    }
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    dir
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `gen`'s errors (stderr from the first `error: `), after a failed run.
fn errors(dir: &Path) -> String {
    let out = artifact(dir, &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let e = stderr(&out);
    e[e.find("error: ").expect("an error")..].to_string()
}

/// `numbers.json` as JSON.
fn numbers(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("generated/numbers.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn each_row_sees_its_own_files_metadata() {
    let dir = project(SPEC);
    let out = artifact(dir.path(), &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let n = numbers(dir.path());
    // m4's four values 6, 5, 7, 9: median 6.5.
    assert_eq!(n["ms-m4"]["value"], serde_json::json!(6.5));
    assert_eq!(n["ms-m4"]["text"], "6.50");
    // m8's run phase 4.0, 3.5 (a `where` reading `_source.meta` on the source).
    assert_eq!(n["ms-m8-run"]["value"], serde_json::json!(3.75));
    assert_eq!(n["ms-m8-run"]["text"], "3.750");
    // A derive per row: seeds 11 x 3 + 12 x 4 + 13 x 3.
    assert_eq!(n["seed-sum"]["value"], serde_json::json!(120));
    assert_eq!(n["seed-sum"]["rows"], serde_json::json!(10));
    // The line: one median per loaders; the points: x from each row's file.
    let csv = std::fs::read_to_string(dir.path().join("figures/sweep.csv")).unwrap();
    assert_eq!(
        csv,
        "panel,layer,mark,series,x,y,color,size,shape\n\
         0,0,line,,2,11,#0072b2,,\n\
         0,0,line,,4,6.5,#0072b2,,\n\
         0,0,line,,8,3.5,#0072b2,,\n\
         0,1,point,,2,10,#0072b2,36,circle\n\
         0,1,point,,2,12,#0072b2,36,circle\n\
         0,1,point,,2,11,#0072b2,36,circle\n\
         0,1,point,,4,6,#0072b2,36,circle\n\
         0,1,point,,4,5,#0072b2,36,circle\n\
         0,1,point,,4,7,#0072b2,36,circle\n\
         0,1,point,,4,9,#0072b2,36,circle\n\
         0,1,point,,8,3,#0072b2,36,circle\n\
         0,1,point,,8,4,#0072b2,36,circle\n\
         0,1,point,,8,3.5,#0072b2,36,circle\n"
    );
    let check = artifact(dir.path(), &["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    assert_eq!(
        String::from_utf8_lossy(&check.stdout),
        "all figures and numbers are current\n"
    );
}

#[test]
fn a_list_of_documents_is_read_as_the_glob_is() {
    // A list of `.json` paths, no `format`: documents too, each with its own.
    let spec = SPEC.replace(
        r#"path = "data/sim_olmoe_v2_ssd043_m*.json""#,
        r#"path = ["data/sim_olmoe_v2_ssd043_m8.json", "data/sim_olmoe_v2_ssd043_m4.json"]"#,
    );
    let dir = project(&spec);
    let out = artifact(dir.path(), &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let n = numbers(dir.path());
    assert_eq!(n["ms-m4"]["value"], serde_json::json!(6.5));
    assert_eq!(n["ms-m8-run"]["value"], serde_json::json!(3.75));
    // 13 x 3 + 12 x 4.
    assert_eq!(n["seed-sum"]["value"], serde_json::json!(87));
}

#[test]
fn meta_of_a_source_of_several_files_is_an_error_at_its_place() {
    let dir = project(&format!(
        "{SPEC}\n[numbers.loaders]\nvalue = {{ expr = \"meta.sims.config.loaders\" }}\n"
    ));
    assert_eq!(
        errors(dir.path()),
        "error: number `loaders`: artifact.toml:43:9: meta.sims: source `sims` reads 3 files \
         (data/sim_olmoe_v2_ssd043_m2.json, data/sim_olmoe_v2_ssd043_m4.json, \
         data/sim_olmoe_v2_ssd043_m8.json); each row has its own file's metadata as \
         `_source.meta`, or read one file\n   |\n\
         43 | value = { expr = \"meta.sims.config.loaders\" }\n   |         \
         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n\
         1 part(s) failed; their previous outputs are left as they were\n"
    );
}

#[test]
fn meta_of_several_files_in_a_title_is_an_error_at_the_title() {
    let dir = project(&format!(
        "{SPEC}\n[figures.t]\nsize = [4, 3]\ntitle = \"{{{{ meta['sims'].config.model }}}} sweep\"\n\
         layers = [ {{ mark = \"line\", data = \"sweep\", x = \"loaders\", y = \"median_ms\" }} ]\n"
    ));
    assert_eq!(
        errors(dir.path()),
        "error: figure `t`: artifact.toml:44:9: meta.sims: source `sims` reads 3 files \
         (data/sim_olmoe_v2_ssd043_m2.json, data/sim_olmoe_v2_ssd043_m4.json, \
         data/sim_olmoe_v2_ssd043_m8.json); each row has its own file's metadata as \
         `_source.meta`, or read one file\n   |\n\
         44 | title = \"{{ meta['sims'].config.model }} sweep\"\n   |         \
         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n\
         1 part(s) failed; their previous outputs are left as they were\n"
    );
}

#[test]
fn a_source_of_one_document_keeps_its_meta() {
    // Also a glob that matches one file: the source reads one document.
    let dir = project(
        r#"[sources.m4]
path = "data/sim_olmoe_v2_ssd043_m4*.json"
records = "/results"

[numbers.loaders]
value = { expr = "meta.m4.config.loaders" }

[numbers.ms-per-loader]
table = "m4"
where = "_source.meta.config.seed == meta.m4.config.seed"
value = { mean = "ms / _source.meta.config.loaders" }
format = { places = 4 }
"#,
    );
    let out = artifact(dir.path(), &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let n = numbers(dir.path());
    assert_eq!(n["loaders"]["value"], serde_json::json!(4));
    // (6 + 5 + 7 + 9) / 4 / 4.
    assert_eq!(n["ms-per-loader"]["value"], serde_json::json!(1.6875));
    assert_eq!(n["ms-per-loader"]["text"], "1.6875");
}

#[test]
fn a_group_of_rows_from_several_files_has_no_meta() {
    let dir = project(&format!(
        "{SPEC}\n[tables.phases]\nfrom = \"runs\"\nsteps = [\n  \
         {{ group = [\"phase\"], aggregate = {{ n = \"count\" }} }},\n  \
         {{ derive = {{ seed = \"_source.meta.config.seed\" }} }},\n]\n\n\
         [numbers.phases]\ntable = \"phases\"\nvalue = \"count\"\n"
    ));
    assert_eq!(
        errors(dir.path()),
        "error: number `phases`: table `phases`, step 2 (derive, artifact.toml line 46): \
         data/sim_olmoe_v2_ssd043_m2.json: cannot evaluate `_source.meta.config.seed`: \
         `_source.meta`: this row is a group of rows from more than one file \
         (data/sim_olmoe_v2_ssd043_m2.json, data/sim_olmoe_v2_ssd043_m4.json); derive what \
         it needs from `_source.meta` before the `group` step\n\
         1 part(s) failed; their previous outputs are left as they were\n"
    );
}

#[test]
fn rows_of_jsonl_and_csv_have_no_meta() {
    for (file, text) in [
        ("runs.jsonl", "{\"ms\": 1.5}\n{\"ms\": 2.5}\n"),
        ("runs.csv", "ms\n1.5\n2.5\n"),
    ] {
        // Streamed into a group (the JSONL fast path's case) and not.
        for steps in [
            "{ derive = { l = \"_source.meta.config.loaders\" } }",
            "{ filter = \"_source.meta.x > 0\" }, { group = [\"ms\"], aggregate = { n = \"count\" } }",
        ] {
            let dir = project(&format!(
                "{SPEC}\n[sources.logs]\npath = \"data/{file}\"\n\n\
                 [tables.logs_m]\nfrom = \"logs\"\nsteps = [ {steps} ]\n\n\
                 [numbers.logs]\ntable = \"logs_m\"\nvalue = \"count\"\n"
            ));
            std::fs::write(dir.path().join("data").join(file), text).unwrap();
            let line = if file.ends_with(".csv") { 2 } else { 1 };
            let (verb, expr) = if steps.starts_with("{ derive") {
                ("derive", "_source.meta.config.loaders")
            } else {
                ("filter", "_source.meta.x > 0")
            };
            assert_eq!(
                errors(dir.path()),
                format!(
                    "error: number `logs`: table `logs_m`, step 1 ({verb}, artifact.toml line 47): \
                     data/{file}:{line}: cannot evaluate `{expr}`: `_source.meta`: only rows of \
                     JSON documents (`format = \"json\"`) have metadata, and this row is not \
                     from one\n\
                     1 part(s) failed; their previous outputs are left as they were\n"
                ),
                "{file}: {steps}"
            );
        }
    }
}

#[test]
fn a_number_over_the_meta_of_a_listed_document_is_rebuilt_when_it_changes() {
    // A list of one `.json` path: a document, so `meta.doc` is its metadata
    // (here the whole array: no `records` pointer) and its number's key
    // depends on the file.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        "[sources.doc]\npath = [\"data/doc.json\"]\n\n[numbers.n]\nvalue = { expr = \"meta.doc | length\" }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("data/doc.json"),
        r#"[{"ms": 1}, {"ms": 2}]"#,
    )
    .unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(numbers(dir.path())["n"]["value"], serde_json::json!(2));
    std::fs::write(
        dir.path().join("data/doc.json"),
        r#"[{"ms": 1}, {"ms": 2}, {"ms": 3}]"#,
    )
    .unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(numbers(dir.path())["n"]["value"], serde_json::json!(3));
}

#[test]
fn a_broken_json_document_fails_only_what_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("broken.json"), r#"{"runs": [1, 2"#).unwrap();
    std::fs::write(data.join("ok.json"), r#"{"runs": [{"t": 1}]}"#).unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        r#"[sources.broken]
path = "data/broken.json"
records = "/runs"

[sources.ok]
path = "data/ok.json"
records = "/runs"

[numbers.cn]
table = "ok"
value = "count"

[numbers.cb]
table = "broken"
value = "count"

[numbers.mb]
value = { expr = "meta.broken.cfg" }

[figures.f]
size = [4, 3]
title = "{{ meta.broken.cfg }}"
layers = [ { mark = "point", data = "ok", x = "t", y = "t" } ]
"#,
    )
    .unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let broken =
        "source `broken`: data/broken.json:1: invalid JSON at column 14: EOF while parsing a list";
    assert_eq!(
        errors(dir.path()),
        format!(
            "error: number `cb`: {broken}\n\
             error: number `mb`: cannot evaluate `meta.broken.cfg`: {broken}\n\
             error: figure `f`: artifact.toml:22:9: cannot render: {broken}\n   \
             |\n22 | title = \"{{{{ meta.broken.cfg }}}}\"\n   |         {}\n\
             3 part(s) failed; their previous outputs are left as they were\n",
            "^".repeat(23)
        )
    );
    assert_eq!(numbers(dir.path())["cn"]["value"], 1);
    let show = artifact(dir.path(), &["show", "ok"]);
    assert!(show.status.success(), "{}", stderr(&show));
    let show = artifact(dir.path(), &["show", "broken"]);
    assert_eq!(show.status.code(), Some(2));
    assert_eq!(stderr(&show).trim_end(), format!("error: {broken}"));
}
