//! Every spec error is found by one compile of the plan, before any data
//! is read: a spec with a broken table step, a broken number and a number
//! naming a missing table reports all three, each at its line and column
//! on its own `error:` line, in the order of the spec (regression: the
//! first error used to hide the others, one fix-and-rerun per mistake).

mod common;

use common::*;

const SPEC: &str = r#"[sources.s]
rows = [{ k = 1, x = 2.0 }]

[tables.t]
from = "s"
steps = [{ filter = "x >" }]

[numbers.a]
table = "s"
value = { median = "x" }
where = "k =="

[numbers.b]
table = "nope"
value = "count"

[numbers.ok]
table = "s"
value = "count"
"#;

#[test]
fn a_spec_with_three_mistakes_reports_all_three_in_one_run() {
    let dir = project(SPEC);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 3, "{err}");
    assert!(errors[0].starts_with("error: artifact.toml:6:"), "{err}");
    assert!(errors[1].starts_with("error: artifact.toml:11:"), "{err}");
    assert_eq!(
        errors[2], "error: artifact.toml:14:9: number `b`: no source or table named `nope`",
        "{err}"
    );
    // Nothing was read or written.
    assert!(!dir.path().join("generated").exists());
    assert!(!dir.path().join("artifact.lock").exists());
}

#[test]
fn one_mistake_is_one_error_as_before() {
    let spec = SPEC.replace("x >", "x > 1").replace("k ==", "k == 1");
    let dir = project(&spec);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(
        err.lines()
            .filter(|l| l.starts_with("error:"))
            .collect::<Vec<_>>(),
        ["error: artifact.toml:14:9: number `b`: no source or table named `nope`"],
        "{err}"
    );
}
