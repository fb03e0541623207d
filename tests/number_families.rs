//! Number families: one `[numbers.NAME]` with `each` gives one number per
//! row (or `per` group) of its table, each a number like any other.

mod common;

use std::path::Path;

use common::{artifact, project, stderr};

fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap()
}

const RUNS: &str = r#"[sources.runs]
rows = [
  { benchmark = "nbody", command = "fast", time_ms = 10.0 },
  { benchmark = "nbody", command = "fast", time_ms = 12.0 },
  { benchmark = "nbody", command = "slow", time_ms = 30.0 },
  { benchmark = "fib", command = "fast", time_ms = 5.0 },
]
"#;

const FAMILY: &str = r#"
[numbers.bench-mean]
table = "runs"
each = "{{ benchmark }}-{{ command }}-mean"
per = ["benchmark", "command"]
value = { mean = "time_ms" }
format = { places = 2 }
description = "mean time of {{ command }} on {{ benchmark }}"
"#;

#[test]
fn a_family_gives_one_number_per_group_in_every_output() {
    let dir = project(&format!("{RUNS}{FAMILY}"));
    common::gen_ok(dir.path());
    let n = common::numbers(dir.path());
    let keys: Vec<&String> = n.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["fib-fast-mean", "nbody-fast-mean", "nbody-slow-mean"]
    );
    assert_eq!(n["nbody-fast-mean"]["value"], 11.0);
    assert_eq!(n["nbody-fast-mean"]["text"], "11.00");
    assert_eq!(n["nbody-fast-mean"]["rows"], 2);
    assert_eq!(
        n["nbody-fast-mean"]["description"],
        "mean time of fast on nbody"
    );
    assert_eq!(n["nbody-slow-mean"]["text"], "30.00");
    assert_eq!(n["fib-fast-mean"]["text"], "5.00");
    let tex = read(dir.path(), "generated/macros.tex");
    assert!(tex.contains("\\@namedef{artnum@nbody-fast-mean}{11.00}\n"));
    assert!(tex.contains("\\providecommand{\\artNbodyFastMean}{\\artnum{nbody-fast-mean}}\n"));
    let typ = read(dir.path(), "generated/macros.typ");
    assert!(typ.contains("#let nbody-slow-mean = \"30.00\"\n"));
    // Each member has its own record in the lock, naming its family.
    let lock = read(dir.path(), "artifact.lock");
    assert!(lock.contains("[numbers.fib-fast-mean]\nkey = \"",));
    assert!(lock.contains("rows = 1\nsources = [\"runs\"]\nfamily = \"bench-mean\"\n"));
    assert!(!lock.contains("[numbers.bench-mean]"));
}

#[test]
fn a_family_without_per_gives_one_number_per_row() {
    let spec = format!(
        "{RUNS}\n[numbers.row]\ntable = \"runs\"\nwhere = \"command == 'fast'\"\neach = \"t-{{{{ benchmark }}}}-{{{{ time_ms | int }}}}\"\nvalue = {{ cell = \"time_ms\" }}\n"
    );
    let dir = project(&spec);
    common::gen_ok(dir.path());
    let n = common::numbers(dir.path());
    let keys: Vec<&String> = n.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["t-fib-5", "t-nbody-10", "t-nbody-12"]);
    assert_eq!(n["t-nbody-12"]["value"], 12.0);
    assert_eq!(n["t-nbody-12"]["rows"], 1);
}

#[test]
fn members_are_read_by_other_numbers_and_figures_declared_before_the_family() {
    let spec = format!(
        "{RUNS}\n[numbers.speedup]\nvalue = {{ expr = \"v['nbody-slow-mean'] / v['nbody-fast-mean']\" }}\nformat = {{ places = 3 }}\n{FAMILY}"
    );
    let dir = project(&spec);
    common::gen_ok(dir.path());
    let n = common::numbers(dir.path());
    // 30 / ((10 + 12) / 2)
    assert_eq!(n["speedup"]["text"], "2.727");
    assert_eq!(n["speedup"]["sources"], serde_json::json!(["runs"]));
    let out = artifact(dir.path(), &["explain", "speedup"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("reads numbers:\n  nbody-fast-mean = 11.00 (value 11.0)\n  nbody-slow-mean = 30.00 (value 30.0)\n"),
        "{text}"
    );
}

#[test]
fn two_rows_giving_one_key_is_an_error_naming_both_rows() {
    let spec = format!(
        "{RUNS}\n[numbers.bench]\ntable = \"runs\"\neach = \"{{{{ benchmark }}}}-{{{{ command }}}}\"\nvalue = {{ cell = \"time_ms\" }}\n"
    );
    let dir = project(&spec);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "error: number family `bench`: artifact.toml line 9: row 1 of table `runs` (benchmark = \"nbody\", command = \"fast\") and row 2 of table `runs` (benchmark = \"nbody\", command = \"fast\") both give the key `nbody-fast`\n"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_member_colliding_with_a_declared_number_is_an_error() {
    let spec =
        format!("{RUNS}{FAMILY}\n[numbers.fib-fast-mean]\ntable = \"runs\"\nvalue = \"count\"\n");
    let dir = project(&spec);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "error: number family `bench-mean`: artifact.toml line 9: the group of 1 row(s) from row 4 of table `runs` (benchmark = \"fib\", command = \"fast\") gives the key `fib-fast-mean`, which `[numbers.fib-fast-mean]` (artifact.toml line 17) declares too\n"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn two_families_giving_one_key_is_an_error() {
    let spec = format!(
        "{RUNS}\n[numbers.a]\ntable = \"runs\"\nwhere = \"time_ms == 5\"\neach = \"{{{{ benchmark }}}}\"\nvalue = {{ cell = \"time_ms\" }}\n\n[numbers.b]\ntable = \"runs\"\nwhere = \"time_ms == 30\"\neach = \"fib\"\nvalue = {{ cell = \"time_ms\" }}\n"
    );
    let dir = project(&spec);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "error: number family `b`: artifact.toml line 15: it gives the key `fib`, which number family `a` gives too\n"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_generated_key_that_is_no_valid_key_is_an_error_naming_the_row() {
    let spec = format!(
        "{RUNS}\n[numbers.bench]\ntable = \"runs\"\nper = \"benchmark\"\neach = \"{{{{ benchmark }}}} mean\"\nvalue = \"count\"\n"
    );
    let dir = project(&spec);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "error: number family `bench`: artifact.toml line 9: the group of 3 row(s) from row 1 of table `runs` (benchmark = \"nbody\") gives the key `nbody mean`: number key `nbody mean` holds ` `: use ASCII letters, digits, `-` and `_`, starting with a letter (it becomes a LaTeX and typst name)\n"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_empty_table_gives_no_members_and_a_note() {
    let spec = format!(
        "{RUNS}\n[numbers.n]\ntable = \"runs\"\nvalue = \"count\"\n\n[numbers.slow]\ntable = \"runs\"\nwhere = \"time_ms > 100\"\neach = \"slow-{{{{ benchmark }}}}\"\nvalue = \"count\"\n"
    );
    let dir = project(&spec);
    let out = common::gen_ok(dir.path());
    let all = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
    assert!(
        all.contains("number family `slow`: table `runs` has no rows where `where` holds, so it gives no numbers"),
        "{all}"
    );
    let n = common::numbers(dir.path());
    let keys: Vec<&String> = n.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["n"]);
}

#[test]
fn more_members_than_the_cap_is_an_error() {
    let dir = project(
        "[sources.big]\npath = \"big.csv\"\n\n[numbers.each-row]\ntable = \"big\"\neach = \"r{{ i }}\"\nvalue = { cell = \"i\" }\n",
    );
    let mut csv = String::from("i\n");
    for i in 0..100_001 {
        csv.push_str(&format!("{i}\n"));
    }
    std::fs::write(dir.path().join("big.csv"), csv).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "error: number family `each-row`: artifact.toml line 4: table `big` gives 100001 numbers, more than the 100000 a family may have\n"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn members_are_reused_from_the_lock_and_checked_like_any_number() {
    let dir = project(&format!("{RUNS}{FAMILY}"));
    common::gen_ok(dir.path());
    let lock = read(dir.path(), "artifact.lock");
    let again = common::gen_ok(dir.path());
    assert!(stderr(&again).contains("3 file(s) already up to date"));
    assert_eq!(read(dir.path(), "artifact.lock"), lock);
    let out = artifact(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // New data: check names the one member that changed.
    let spec = format!("{RUNS}{FAMILY}").replace("time_ms = 30.0", "time_ms = 31.0");
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(1));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
    assert!(text.contains("stale: 1 number\n"), "{text}");
    assert!(text.contains("nbody-slow-mean  30.00 -> 31.00"), "{text}");
}

#[test]
fn a_family_key_template_is_checked_before_anything_runs() {
    let spec = format!(
        "{RUNS}\n[numbers.bench]\ntable = \"runs\"\neach = \"{{{{ benchmark \"\nvalue = \"count\"\n"
    );
    let dir = project(&spec);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: artifact.toml:11:8: invalid template: syntax error: unexpected end of input, expected end of variable block\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn per_without_each_is_an_error_at_its_line() {
    let spec =
        format!("{RUNS}\n[numbers.n]\ntable = \"runs\"\nper = \"benchmark\"\nvalue = \"count\"\n");
    let dir = project(&spec);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.starts_with("error: artifact.toml:11:1: `per` does nothing without `each` in a number computed from a table\n"), "{err}");
}

#[test]
fn explain_tells_where_a_member_comes_from() {
    let dir = project(&format!("{RUNS}{FAMILY}"));
    common::gen_ok(dir.path());
    let out = artifact(dir.path(), &["explain", "nbody-fast-mean"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("number nbody-fast-mean\nvalue: 11.0\ntext: 11.00\nspec: artifact.toml:9\n  [numbers.bench-mean]\n"),
        "{text}"
    );
    assert!(text.contains("rows: 2 (of 4 in table `runs`)\n"), "{text}");
    assert!(
        text.contains("artifact.lock: same text and value"),
        "{text}"
    );
    let out = artifact(dir.path(), &["explain", "bench-mean"]);
    assert_eq!(
        stderr(&out),
        "error: `bench-mean` is a number family, not a number: explain one of its members (`nbody-fast-mean`, `nbody-slow-mean`, `fib-fast-mean`)\n"
    );
}

/// Data for a family over `d.csv` (fields `b`, `t`), one member per row
/// with `t > 0`.
const ZERO: &str = r#"[sources.s]
path = "d.csv"

[tables.t]
from = "s"
steps = [{ filter = "t > 0" }]

[numbers.fam]
table = "t"
each = "{{ b }}-t"
value = { cell = "t" }
"#;

fn lock_numbers(dir: &Path) -> Vec<String> {
    let lock: toml::Table = toml::from_str(&read(dir, "artifact.lock")).unwrap();
    lock.get("numbers")
        .and_then(|n| n.as_table())
        .map(|n| n.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn a_family_that_gives_no_members_kept_its_old_members_in_the_lock() {
    let dir = project(ZERO);
    let d = dir.path();
    std::fs::write(d.join("d.csv"), "b,t\nx,1\ny,2\n").unwrap();
    common::gen_ok(d);
    assert_eq!(lock_numbers(d), ["x-t", "y-t"]);
    std::fs::write(d.join("d.csv"), "b,t\nx,-1\ny,-2\n").unwrap();
    common::gen_ok(d);
    assert!(lock_numbers(d).is_empty());
    assert!(!read(d, "generated/macros.tex").contains("artnum@x-t"));
    assert_eq!(artifact(d, &["check"]).status.code(), Some(0));
}

#[test]
fn a_failing_family_keeps_its_members_texts_and_records() {
    let dir = project(ZERO);
    let d = dir.path();
    std::fs::write(d.join("d.csv"), "b,t\nx,1\ny,2\n").unwrap();
    common::gen_ok(d);
    // Two rows now give `x-t`.
    std::fs::write(d.join("d.csv"), "b,t\nx,5\nx,2\n").unwrap();
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("error: number family `fam`: artifact.toml line 8: row 1 of table `t` (b = \"x\") and row 2 of table `t` (b = \"x\") both give the key `x-t`\n"), "{}", stderr(&out));
    assert_eq!(lock_numbers(d), ["x-t", "y-t"]);
    assert!(read(d, "artifact.lock").contains("failed = [\"family.fam\"]"));
    let tex = read(d, "generated/macros.tex");
    assert!(
        tex.contains("\\@namedef{artnum@x-t}{1}") && tex.contains("\\@namedef{artnum@y-t}{2}"),
        "{tex}"
    );
}

/// `n` rows `i` (0..n) and `g` (i, or i % 2 with `pairs`) as CSV.
fn big_csv(dir: &Path, n: usize) {
    let mut csv = String::from("i,g\n");
    for i in 0..n {
        csv.push_str(&format!("{i},{i}\n"));
    }
    std::fs::write(dir.join("big.csv"), csv).unwrap();
}

#[test]
fn more_groups_than_the_cap_is_an_error_before_any_member_is_built() {
    let dir = project(
        "[sources.big]\npath = \"big.csv\"\n\n[numbers.per-g]\ntable = \"big\"\neach = \"g{{ g }}\"\nper = [\"g\"]\nvalue = \"count\"\n",
    );
    big_csv(dir.path(), 100_001);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "error: number family `per-g`: artifact.toml line 4: table `big` gives more than the 100000 numbers a family may have (groups of `per`; counting stopped there)\n"
        ),
        "{}",
        stderr(&out)
    );
}

const NULLS: &str = "[sources.s]\npath = \"s.jsonl\"\n";

fn nulls(spec: &str) -> tempfile::TempDir {
    let dir = project(spec);
    std::fs::write(
        dir.path().join("s.jsonl"),
        "{\"m\": \"a\", \"x\": 1}\n{\"m\": \"b\", \"x\": 2}\n{\"m\": null, \"x\": 3}\n",
    )
    .unwrap();
    dir
}

#[test]
fn a_null_per_field_is_an_error_naming_the_row_and_field() {
    let spec = format!(
        "{NULLS}\n[numbers.m]\ntable = \"s\"\neach = \"m-{{{{ m }}}}\"\nper = [\"m\"]\nvalue = {{ sum = \"x\" }}\n"
    );
    let dir = nulls(&spec);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(
        e.contains("error: number family `m`: artifact.toml line 4: row 3 of table `s`")
            && e.contains("has a null `m`, read by `per`: a key is never made from a null (leave such rows out with `where`)"),
        "{e}"
    );
    assert!(!e.contains("m-None"), "{e}");
    // Without `per`: the same for a field `each` reads.
    let dir = nulls(&spec.replace(
        "per = [\"m\"]\nvalue = { sum = \"x\" }",
        "value = { cell = \"x\" }",
    ));
    let e = stderr(&artifact(dir.path(), &["gen"]));
    assert!(
        e.contains("has a null `m`, read by `each`: a key is never made from a null"),
        "{e}"
    );
}

#[test]
fn a_family_reading_its_own_member_is_a_cycle_naming_it() {
    let dir = project(&format!(
        "{RUNS}\n[numbers.m]\ntable = \"runs\"\neach = \"m{{{{ command }}}}\"\nper = [\"command\"]\nwhere = \"time_ms > v['mfast']\"\nvalue = \"count\"\n"
    ));
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains("numbers read each other in a cycle: number `m` -> number `m`"),
        "{e}"
    );
    assert!(!e.contains("no number `mfast`"), "{e}");
}

#[test]
fn a_member_key_equal_to_its_family_name_is_an_error() {
    let dir = project(&format!(
        "{RUNS}\n[numbers.fast]\ntable = \"runs\"\neach = \"{{{{ command }}}}\"\nper = [\"command\"]\nvalue = \"count\"\n"
    ));
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains("error: number family `fast`: artifact.toml line 9: the group of 3 row(s) from row 1 of table `runs` (command = \"fast\") gives the key `fast`, its own family's name: a member's key must differ from every family's name (`artifact explain fast` names the family)"),
        "{e}"
    );
}

#[test]
fn check_names_a_vanished_family_member() {
    let spec = format!("{RUNS}{FAMILY}");
    let dir = project(&spec);
    common::gen_ok(dir.path());
    // fib's only run goes: its member goes with it.
    std::fs::write(
        dir.path().join("artifact.toml"),
        spec.replace(
            "  { benchmark = \"fib\", command = \"fast\", time_ms = 5.0 },\n",
            "",
        ),
    )
    .unwrap();
    let out = artifact(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &stderr(&out);
    assert!(
        text.contains(
            "fib-fast-mean  5.00 -> (removed)   (family `bench-mean` no longer gives it)"
        ),
        "{text}"
    );
    let out = common::gen_ok(dir.path());
    assert!(
        stderr(&out).contains(
            "number fib-fast-mean: 5.00 -> (removed) (family `bench-mean` no longer gives it)"
        ),
        "{}",
        stderr(&out)
    );
    assert_eq!(artifact(dir.path(), &["check"]).status.code(), Some(0));
}
