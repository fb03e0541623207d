//! Issue 27, part C: any JSON shape (`records = ""` reads a summary file
//! as one record), `lag`/`lead` of a field a row lacks, and number keys
//! made from tool names with the `slug` filter.

mod common;

use std::path::Path;

use common::small::stderr;
use common::*;
use serde_json::Value;

/// A Hugging Face Trainer `all_results.json` (flat: one summary object).
const ALL_RESULTS: &str = r#"{
    "epoch": 3.0,
    "eval_accuracy": 0.8459,
    "eval_loss": 0.4213,
    "eval_runtime": 12.345,
    "eval_samples_per_second": 330.49,
    "train_loss": 0.2871,
    "train_runtime": 1520.5
}"#;

/// A folder with `artifact.toml` = `spec` and `data/NAME` = `text` for each file.
fn folder(spec: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join("data").join(name), text).unwrap();
    }
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    dir
}

fn gen_numbers(dir: &Path) -> Value {
    let out = artifact(dir, &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(dir.join("generated/numbers.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn show_csv(dir: &Path, table: &str) -> String {
    let out = artifact(dir, &["show", table, "--format", "csv", "--rows", "100"]);
    assert!(out.status.success(), "{}", stderr(&out));
    String::from_utf8(out.stdout).unwrap()
}

const HF_SPEC: &str = r#"
[sources.hf]
path = "data/all_results.json"
records = ""

[numbers.acc]
table = "hf"
value = { cell = "eval_accuracy" }
format = { places = 4 }

[numbers.rows]
table = "hf"
value = "count"
"#;

#[test]
fn records_empty_reads_a_hugging_face_all_results_as_one_record() {
    let dir = folder(HF_SPEC, &[("all_results.json", ALL_RESULTS)]);
    let n = gen_numbers(dir.path());
    assert_eq!(n["acc"]["value"].as_f64(), Some(0.8459));
    assert_eq!(n["acc"]["text"], "0.8459");
    assert_eq!(n["rows"]["value"].as_f64(), Some(1.0));
    assert_eq!(
        show_csv(dir.path(), "hf"),
        "epoch,eval_accuracy,eval_loss,eval_runtime,eval_samples_per_second,train_loss,train_runtime\n\
         3.0,0.8459,0.4213,12.345,330.49,0.2871,1520.5\n"
    );
}

#[test]
fn records_empty_on_a_top_level_array_still_reads_each_element() {
    let dir = folder(
        "[sources.s]\npath = \"data/a.json\"\nrecords = \"\"\n",
        &[("a.json", r#"[{"x": 1}, {"x": 2}]"#)],
    );
    assert_eq!(show_csv(dir.path(), "s"), "x\n1\n2\n");
}

#[test]
fn records_pointer_to_a_nested_object_is_one_record_and_the_rest_is_meta() {
    let spec = "[sources.s]\npath = \"data/a.json\"\nrecords = \"/summary\"\n\n\
                [tables.t]\nfrom = \"s\"\nsteps = [{ derive = { seed = \"_source.meta.seed\" } }]\n";
    let dir = folder(
        spec,
        &[(
            "a.json",
            r#"{"seed": 7, "summary": {"p50": 1.5, "p99": 9.25}}"#,
        )],
    );
    assert_eq!(show_csv(dir.path(), "t"), "p50,p99,seed\n1.5,9.25,7\n");
}

#[test]
fn records_slash_is_the_key_empty_and_the_error_suggests_records_empty() {
    let dir = folder(
        &HF_SPEC.replace("records = \"\"", "records = \"/\""),
        &[("all_results.json", ALL_RESULTS)],
    );
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "data/all_results.json: the document has nothing at JSON pointer `/` \
             (keys at `/`: epoch, eval_accuracy, eval_loss, eval_runtime, eval_samples_per_second, \
             train_loss, train_runtime); `/` names the key \"\" (RFC 6901): for the whole document \
             as one record, write `records = \"\"`"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn records_left_out_on_a_top_level_object_suggests_records_empty() {
    let dir = folder(
        &HF_SPEC.replace("records = \"\"\n", ""),
        &[("all_results.json", ALL_RESULTS)],
    );
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "data/all_results.json: expected an array of records at the top level, found a mapping \
             (set `records` to the JSON pointer of the array, or `records = \"\"` to read the whole \
             document as one record)"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn lag_and_lead_of_a_field_a_row_lacks_are_none() {
    // pandas: Series([1.0, NaN, 3.0]).shift(1) == [NaN, 1.0, NaN]; the row
    // without `t` reads as null, and so does the lag that reads from it.
    let csv = show_table(
        "{\"i\":0,\"t\":1}\n{\"i\":1}\n{\"i\":2,\"t\":3}\n",
        None,
        "[tables.w]\nfrom = \"s\"\nsteps = [{ window = { prev = { lag = \"t\" }, next = { lead = \"t\", default = -1 } } }]\n",
        "w",
    )
    .unwrap();
    assert_eq!(csv, "i,t,prev,next\n0,1,,\n1,,1,3\n2,3,,-1\n");
}

#[test]
fn lag_of_a_field_no_row_has_is_still_an_error() {
    let err = show_table(
        "{\"i\":0,\"t\":1}\n{\"i\":1}\n",
        None,
        "[tables.w]\nfrom = \"s\"\nsteps = [{ window = { prev = { lag = \"tt\" } } }]\n",
        "w",
    )
    .unwrap_err();
    assert!(err.contains("window `prev`"), "{err}");
    assert!(err.contains("s.jsonl:1"), "{err}");
    assert!(err.contains("window: no field `tt`"), "{err}");
}

/// ripgrep's benchmark names, as its suite prints them.
const TOOLS: &str = r#"{"name": "linux_literal-rg (mmap)", "ms": 1.25}
{"name": "linux_literal-rg (no mmap)", "ms": 1.5}
{"name": "linux_literal-ag (ASCII)", "ms": 2.0}
{"name": "linux_literal.git grep", "ms": 3.75}
"#;

const FAMILY: &str = r#"
[sources.runs]
path = "data/runs.jsonl"

[numbers.time]
table = "runs"
each = "{{ name | slug }}"
value = { cell = "ms" }
format = { places = 2 }
"#;

#[test]
fn slug_makes_family_keys_from_tool_names() {
    let dir = folder(FAMILY, &[("runs.jsonl", TOOLS)]);
    let n = gen_numbers(dir.path());
    let keys: Vec<&str> = n.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "linux_literal-ag_ASCII",
            "linux_literal-rg_mmap",
            "linux_literal-rg_no_mmap",
            "linux_literal_git_grep",
        ]
    );
    assert_eq!(n["linux_literal-rg_mmap"]["text"], "1.25");
    let tex = std::fs::read_to_string(dir.path().join("generated/macros.tex")).unwrap();
    assert!(tex.contains("\\artLinuxLiteralRgMmap"), "{tex}");
}

#[test]
fn family_keys_without_slug_are_still_refused() {
    let dir = folder(
        &FAMILY.replace("{{ name | slug }}", "{{ name }}"),
        &[("runs.jsonl", TOOLS)],
    );
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "gives the key `linux_literal-rg (mmap)`: number key `linux_literal-rg (mmap)` holds ` `"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn slug_of_a_name_of_symbols_only_is_an_empty_key_error() {
    let dir = folder(
        FAMILY,
        &[("runs.jsonl", "{\"name\": \"(*)\", \"ms\": 1}\n")],
    );
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("gives the key ``: a number key cannot be empty"),
        "{}",
        stderr(&out)
    );
}
