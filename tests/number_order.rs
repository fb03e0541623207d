//! Numbers and tables read each other in any order of declaration: the
//! order comes from what they read, and a cycle is an error naming it.

mod common;

use std::path::Path;

use common::{artifact, project, stderr};

fn lock_key(dir: &Path, key: &str) -> String {
    let lock: toml::Table =
        toml::from_str(&std::fs::read_to_string(dir.join("artifact.lock")).unwrap()).unwrap();
    lock["numbers"][key]["key"].as_str().unwrap().to_string()
}

const RUNS: &str = r#"[sources.runs]
rows = [
  { name = "a", x = 1.0 },
  { name = "b", x = 3.0 },
  { name = "c", x = 4.0 },
]

[sources.other]
rows = [{ y = 2.0 }]
"#;

#[test]
fn undefined_and_undefined_from_declaring_in_the_wrong_order() {
    // Declared before the numbers it reads: "undefined and undefined" before.
    let spec = format!(
        "{RUNS}\n[numbers.mean]\nvalue = {{ expr = \"v['total'] / v['count']\" }}\nformat = {{ places = 3 }}\n\n[numbers.total]\ntable = \"runs\"\nvalue = {{ sum = \"x\" }}\n\n[numbers.count]\ntable = \"runs\"\nvalue = \"count\"\n"
    );
    let dir = project(&spec);
    common::gen_ok(dir.path());
    let n = common::numbers(dir.path());
    assert_eq!(n["mean"]["text"], "2.667");
    assert_eq!(n["mean"]["sources"], serde_json::json!(["runs"]));
}

#[test]
fn a_derive_reads_a_number_for_a_share_of_the_total() {
    let spec = format!(
        "{RUNS}\n[tables.share]\nfrom = \"runs\"\nsteps = [{{ derive = {{ share = \"x / v['total']\" }} }}]\n\n[numbers.share-c]\ntable = \"share\"\nwhere = \"name == 'c'\"\nvalue = {{ cell = \"share\" }}\nformat = {{ places = 4 }}\n\n[numbers.total]\ntable = \"runs\"\nvalue = {{ sum = \"x\" }}\n"
    );
    let dir = project(&spec);
    common::gen_ok(dir.path());
    let n = common::numbers(dir.path());
    // 4 / (1 + 3 + 4), by hand.
    assert_eq!(n["share-c"]["value"], 0.5);
    assert_eq!(n["share-c"]["text"], "0.5000");
    // A new total changes the share (its key hashes the number the step reads).
    let before = lock_key(dir.path(), "share-c");
    let spec = spec.replace("{ name = \"a\", x = 1.0 }", "{ name = \"a\", x = 4.0 }");
    std::fs::write(dir.path().join("artifact.toml"), &spec).unwrap();
    let out = artifact(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(1));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
    assert!(text.contains("share-c  0.5000 -> 0.3636"), "{text}");
    common::gen_ok(dir.path());
    assert_ne!(lock_key(dir.path(), "share-c"), before);
    assert_eq!(common::numbers(dir.path())["share-c"]["value"], 4.0 / 11.0);
}

#[test]
fn a_filter_reads_a_number_declared_after_it() {
    let spec = format!(
        "{RUNS}\n[tables.big]\nfrom = \"runs\"\nsteps = [{{ filter = \"x > v['mean']\" }}]\n\n[numbers.n-big]\ntable = \"big\"\nvalue = \"count\"\n\n[numbers.mean]\ntable = \"runs\"\nvalue = {{ mean = \"x\" }}\n"
    );
    let dir = project(&spec);
    common::gen_ok(dir.path());
    // mean 8/3: b (3) and c (4) are above it.
    assert_eq!(common::numbers(dir.path())["n-big"]["value"], 2);
}

#[test]
fn a_cycle_through_a_table_is_an_error_naming_it() {
    let spec = format!(
        "{RUNS}\n[tables.t]\nfrom = \"runs\"\nsteps = [{{ derive = {{ y = \"x / v['a']\" }} }}]\n\n[numbers.a]\ntable = \"t\"\nvalue = {{ sum = \"y\" }}\n"
    );
    let dir = project(&spec);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: artifact.toml:15:10: numbers read each other in a cycle: number `a` -> table `t` -> number `a`\n   |\n15 | [numbers.a]\n   |          ^\n"
    );
}

#[test]
fn a_cycle_of_numbers_is_an_error_naming_it() {
    let spec = format!(
        "{RUNS}\n[numbers.a]\nvalue = {{ expr = \"v['b'] + 1\" }}\n\n[numbers.b]\nvalue = {{ expr = \"v['c'] + 1\" }}\n\n[numbers.c]\nvalue = {{ expr = \"n['a']\" }}\n"
    );
    let dir = project(&spec);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(
            "error: artifact.toml:11:10: numbers read each other in a cycle: number `a` -> number `b` -> number `c` -> number `a`\n"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_unknown_number_read_by_a_step_is_an_error_at_its_expression() {
    let spec = format!(
        "{RUNS}\n[tables.t]\nfrom = \"runs\"\nsteps = [{{ derive = {{ y = \"x / v['totl']\" }} }}]\n\n[numbers.total]\ntable = \"runs\"\nvalue = {{ sum = \"x\" }}\n\n[numbers.a]\ntable = \"t\"\nvalue = {{ sum = \"y\" }}\n"
    );
    let dir = project(&spec);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: artifact.toml:13:32: table `t` reads no number: no number `totl`; did you mean `total`?\n   |\n13 | steps = [{ derive = { y = \"x / v['totl']\" } }]\n   |                                ^^^^^^^^^\n"
    );
}

#[test]
fn an_expr_number_hashes_only_the_numbers_it_reads() {
    let spec = format!(
        "{RUNS}\n[numbers.double]\nvalue = {{ expr = \"v['total'] * 2\" }}\n\n[numbers.total]\ntable = \"runs\"\nvalue = {{ sum = \"x\" }}\n\n[numbers.other-y]\ntable = \"other\"\nvalue = {{ sum = \"y\" }}\n"
    );
    let dir = project(&spec);
    common::gen_ok(dir.path());
    let double = lock_key(dir.path(), "double");
    let other = lock_key(dir.path(), "other-y");
    // A number it does not read changes: its key stays.
    std::fs::write(
        dir.path().join("artifact.toml"),
        spec.replace("{ y = 2.0 }", "{ y = 5.0 }"),
    )
    .unwrap();
    common::gen_ok(dir.path());
    assert_ne!(lock_key(dir.path(), "other-y"), other);
    assert_eq!(lock_key(dir.path(), "double"), double);
    let n = common::numbers(dir.path());
    assert_eq!(n["double"]["value"], 16.0);
    // Its sources are those of the number it reads, not `other`.
    assert_eq!(n["double"]["sources"], serde_json::json!(["runs"]));
}

#[test]
fn an_expr_number_with_where_is_an_error() {
    let spec = format!("{RUNS}\n[numbers.a]\nwhere = \"x > 1\"\nvalue = {{ expr = \"1\" }}\n");
    let dir = project(&spec);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(
            "error: artifact.toml:12:1: `where` does not apply to a number with `value = { expr = ... }`; a number with `value = { expr = ... }` takes: value, uncertainty, format, description\n"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn explain_follows_numbers_declared_later() {
    let spec = format!(
        "{RUNS}\n[numbers.mean]\nvalue = {{ expr = \"v['total'] / 3\" }}\n\n[numbers.total]\ntable = \"runs\"\nvalue = {{ sum = \"x\" }}\n"
    );
    let dir = project(&spec);
    let out = artifact(dir.path(), &["explain", "mean"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("reads numbers:\n  total = 8.0 (value 8.0)\n"),
        "{text}"
    );
}

#[test]
fn show_computes_the_numbers_a_table_reads() {
    let spec = format!(
        "{RUNS}\n[tables.share]\nfrom = \"runs\"\nsteps = [{{ derive = {{ share = \"x / v['total']\" }} }}]\n\n[numbers.total]\ntable = \"runs\"\nvalue = {{ sum = \"x\" }}\n"
    );
    let dir = project(&spec);
    let out = artifact(dir.path(), &["show", "share", "--format", "csv"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "name,x,share\na,1.0,0.125\nb,3.0,0.375\nc,4.0,0.5\n"
    );
}

#[test]
fn a_number_over_a_table_reading_a_number_has_that_numbers_sources() {
    let spec = format!(
        "{RUNS}\n[tables.scaled]\nfrom = \"runs\"\nsteps = [{{ derive = {{ z = \"x * v['y-max']\" }} }}]\n\n[numbers.z-sum]\ntable = \"scaled\"\nvalue = {{ sum = \"z\" }}\n\n[numbers.y-max]\ntable = \"other\"\nvalue = {{ max = \"y\" }}\n"
    );
    let dir = project(&spec);
    common::gen_ok(dir.path());
    let n = common::numbers(dir.path());
    // (1 + 3 + 4) * 2
    assert_eq!(n["z-sum"]["value"], 16.0);
    assert_eq!(n["z-sum"]["sources"], serde_json::json!(["other", "runs"]));
}
