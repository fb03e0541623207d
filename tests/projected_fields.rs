//! Messages about a missing field in a table whose JSONL records are read
//! in part (a group step: only the fields its expressions read are built)
//! list the fields the data has, not the few the table kept.

mod common;

use std::path::Path;

use common::small::stderr;

const LOG: &str = "{\"k\": \"a\", \"thruput\": 1, \"p50\": 2, \"a.b\": 1}\n\
                   {\"k\": \"b\", \"thruput\": 3, \"p50\": 4, \"a.b\": 2, \"extra\": 5}\n";

/// The first error line of `artifact gen` on table `t` with `steps`, on
/// the fast path or the generic path only.
fn error_of(steps: &str, generic_only: bool) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/r.jsonl"), LOG).unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        format!(
            "[sources.r]\npath = \"data/r.jsonl\"\n\n[tables.t]\nfrom = \"r\"\nsteps = {steps}\n\n[numbers.n]\ntable = \"t\"\nvalue = \"count\"\n"
        ),
    )
    .unwrap();
    let out = run(dir.path(), generic_only);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let e = stderr(&out);
    e[e.find("error: ").unwrap()..]
        .lines()
        .next()
        .unwrap()
        .to_string()
}

fn run(dir: &Path, generic_only: bool) -> std::process::Output {
    let mut cmd = assert_cmd::Command::cargo_bin("artifact").unwrap();
    cmd.current_dir(dir).arg("gen");
    if generic_only {
        cmd.env("ARTIFACT_GENERIC_ONLY", "1");
    }
    cmd.output().unwrap()
}

/// Found by a reviewer: `group = ["p50 ms"]` said `(fields: none)` and a
/// typo'd aggregate listed only `k`, with no did-you-mean.
#[test]
fn a_missing_field_under_a_projection_lists_the_records_fields() {
    for generic_only in [false, true] {
        assert_eq!(
            error_of(
                r#"[{ group = ["p50 ms"], aggregate = { n = "count" } }]"#,
                generic_only
            ),
            "error: number `n`: table `t`, step 1 (group, artifact.toml line 6): data/r.jsonl:1: field `p50 ms`: group: no field `p50 ms` (fields: k, thruput, p50, a.b); did you mean `p50`?"
        );
        assert_eq!(
            error_of(
                r#"[{ group = ["k"], aggregate = { s = { sum = "thruput2" } } }]"#,
                generic_only
            ),
            "error: number `n`: table `t`, step 1 (group, artifact.toml line 6): aggregate `s` of group (a): data/r.jsonl:1: no field `thruput2` in table `t` (fields: k, thruput, p50, a.b); did you mean `thruput`?"
        );
        // A field a step made is listed after the record's.
        assert_eq!(
            error_of(
                r#"[{ filter = "k == 'b'" }, { derive = { y = "1" } }, { derive = { z = "throughput * y" } }, { group = ["k"], aggregate = { n = "count" } }]"#,
                generic_only
            ),
            "error: number `n`: table `t`, step 3 (derive, artifact.toml line 6): data/r.jsonl:2: cannot evaluate `throughput * y`: no field `throughput` in table `t` (fields: k, thruput, p50, a.b, extra, y); did you mean `thruput`?"
        );
        assert_eq!(
            error_of(
                r#"[{ group = ["_['a.b']"], aggregate = { n = "count" } }]"#,
                generic_only
            ),
            "error: number `n`: table `t`, step 1 (group, artifact.toml line 6): data/r.jsonl:1: field `_['a.b']`: group: no field `_['a.b']` (fields: k, thruput, p50, a.b); keys here are plain field names, not expressions: `a.b`"
        );
    }
}
