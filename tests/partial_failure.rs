//! One failing number or figure does not block the others (issue 13, item
//! 6): gen writes what computed, keeps the failed one's previous text and
//! record, writes the lock and exits 2 naming it; check lists what is stale
//! and then the errors (exit 2).

mod common;

use std::path::Path;

use common::{artifact, numbers};

/// Two numbers over `a.csv`, one over `b.csv` (which must hold y > 0).
/// The filter's note shows when table `ta` is built (not reused).
const SPEC: &str = r#"[sources.a]
path = "a.csv"

[sources.b]
path = "b.csv"

[tables.ta]
from = "a"
steps = [{ filter = "z in ['a', 'c']" }]

[tables.tb]
from = "b"
steps = [{ require = "y > 0" }]

[numbers.total]
table = "ta"
value = { sum = "x" }

[numbers.count]
table = "ta"
value = "count"

[numbers.ymax]
table = "tb"
value = { max = "y" }
"#;

const NOTE: &str =
    "note: table `ta`: filter `z in ['a', 'c']` dropped 1 row(s) where `z` is null: a.csv:3\n";
const YMAX_FAILS: &str = "error: number `ymax`: table `tb`, step 1 (require, artifact.toml line 13): b.csv:3: field `y`: required `y > 0` does not hold (where y = -4)\n";

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap()
}

/// The `\@namedef` lines of macros.tex.
fn tex_numbers(dir: &Path) -> Vec<String> {
    read(dir, "generated/macros.tex")
        .lines()
        .filter(|l| l.starts_with("\\@namedef{artnum@"))
        .map(String::from)
        .collect()
}

/// The project built once (total 5, count 2, ymax 4), then new data for
/// `ta` (total 6) and a `b.csv` that breaks `ymax`.
fn project_then_break() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("artifact.toml"), SPEC).unwrap();
    std::fs::write(d.join("a.csv"), "x,z\n1,a\n2,\n4,c\n").unwrap();
    std::fs::write(d.join("b.csv"), "y\n3\n4\n").unwrap();
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::fs::write(d.join("a.csv"), "x,z\n1,a\n2,\n5,c\n").unwrap();
    std::fs::write(d.join("b.csv"), "y\n3\n-4\n").unwrap();
    dir
}

#[test]
fn one_failing_number_keeps_its_old_text_and_the_others_are_written() {
    let dir = project_then_break();
    let d = dir.path();
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "{NOTE}number total: 5 -> 6 (input changed: a.csv)\nwrote generated/macros.tex\nwrote generated/macros.typ\nwrote generated/numbers.json\nwrote artifact.lock\n\
             {YMAX_FAILS}1 part(s) failed; their previous outputs are left as they were\n"
        )
    );
    assert_eq!(
        tex_numbers(d),
        [
            "\\@namedef{artnum@count}{2}",
            "\\@namedef{artnum@total}{6}",
            "\\@namedef{artnum@ymax}{4}"
        ]
    );
    let json = numbers(d);
    assert_eq!(json["total"]["text"], "6");
    assert_eq!(json["count"]["text"], "2");
    assert_eq!(json["ymax"]["text"], "4");
    // The lock: new records for what computed, the old one for `ymax`,
    // whose input keeps the hash its record was computed from.
    let lock = artifact::lock::Lock::read(d).unwrap().unwrap();
    assert_eq!(lock.failed, ["number.ymax"]);
    assert_eq!(lock.numbers["total"].text, "6");
    assert_eq!(lock.numbers["count"].text, "2");
    assert_eq!(lock.numbers["ymax"].text, "4");
    assert_eq!(
        lock.inputs["b.csv"],
        artifact::lock::hash_bytes(b"y\n3\n4\n")
    );
    assert_eq!(
        lock.inputs["a.csv"],
        artifact::lock::hash_bytes(b"x,z\n1,a\n2,\n5,c\n")
    );
    // Nothing is stale but the number that cannot be computed: check says
    // only that (and so does `--fast`: the lock records a failure).
    for args in [&["check"][..], &["check", "--fast"]] {
        let out = artifact(d, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&out), YMAX_FAILS, "{args:?}");
    }
}

#[test]
fn after_the_fix_only_the_failed_number_is_recomputed() {
    let dir = project_then_break();
    let d = dir.path();
    assert_eq!(artifact(d, &["gen"]).status.code(), Some(2));
    std::fs::write(d.join("b.csv"), "y\n3\n7\n").unwrap();
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // No note from table `ta`: `total` and `count` came from the lock.
    assert_eq!(
        stderr(&out),
        "number ymax: 4 -> 7 (input changed: b.csv)\nwrote generated/macros.tex\nwrote generated/macros.typ\nwrote generated/numbers.json\nwrote artifact.lock\n"
    );
    assert_eq!(
        tex_numbers(d),
        [
            "\\@namedef{artnum@count}{2}",
            "\\@namedef{artnum@total}{6}",
            "\\@namedef{artnum@ymax}{7}"
        ]
    );
    let lock = artifact::lock::Lock::read(d).unwrap().unwrap();
    assert!(lock.failed.is_empty());
    assert!(!read(d, "artifact.lock").contains("failed"));
    let out = artifact(d, &["check", "--fast"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn check_lists_the_stale_numbers_when_another_one_fails() {
    let dir = project_then_break();
    let out = artifact(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "stale: 1 number\n\n\
             numbers (committed -> from the data now):\n  \
             total  5 -> 6   (input changed: a.csv)\n\n\
             inputs since artifact.lock:\n  changed  a.csv\n  changed  b.csv\n\n\
             to bring them up to date: artifact gen\n{YMAX_FAILS}"
        )
    );
}

#[test]
fn a_failing_number_without_a_previous_text_is_left_out_of_the_macros() {
    let dir = project_then_break();
    let d = dir.path();
    std::fs::write(d.join("artifact.toml"), SPEC.replace("ymax", "ynew")).unwrap();
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).ends_with(&format!(
            "{}1 part(s) failed; their previous outputs are left as they were\n",
            YMAX_FAILS.replace("ymax", "ynew")
        )),
        "{}",
        stderr(&out)
    );
    // The paper fails on \artnum{ynew} rather than print a stale text.
    assert_eq!(
        tex_numbers(d),
        ["\\@namedef{artnum@count}{2}", "\\@namedef{artnum@total}{6}"]
    );
    let lock = artifact::lock::Lock::read(d).unwrap().unwrap();
    assert_eq!(lock.failed, ["number.ynew"]);
    assert!(!lock.numbers.contains_key("ynew") && !lock.numbers.contains_key("ymax"));
    // b.csv keeps the hash the last lock recorded (not the file that fails).
    assert_eq!(
        lock.inputs["b.csv"],
        artifact::lock::hash_bytes(b"y\n3\n4\n")
    );
}

#[test]
fn a_failing_figure_keeps_its_files_and_its_record() {
    let dir = project_then_break();
    let d = dir.path();
    std::fs::write(d.join("b.csv"), "y\n3\n4\n").unwrap();
    let fig = "\n[figures.f]\nsize = [3, 2]\nlayers = [{ mark = \"point\", data = \"tb\", x = \"y\", y = \"y\" }]\n";
    std::fs::write(d.join("artifact.toml"), format!("{SPEC}{fig}")).unwrap();
    assert_eq!(artifact(d, &["gen"]).status.code(), Some(0));
    let svg = read(d, "figures/f.svg");
    let before = artifact::lock::Lock::read(d).unwrap().unwrap();
    std::fs::write(d.join("b.csv"), "y\n3\n-4\n").unwrap();
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "wrote artifact.lock\n\
         error: table `tb`, step 1 (require, artifact.toml line 13): b.csv:3: field `y`: required `y > 0` does not hold (where y = -4)\n  \
         (this fails number `ymax`, figure `f`)\n\
         2 part(s) failed; their previous outputs are left as they were\n"
    );
    assert_eq!(read(d, "figures/f.svg"), svg);
    let lock = artifact::lock::Lock::read(d).unwrap().unwrap();
    assert_eq!(lock.failed, ["figure.f", "number.ymax"]);
    assert_eq!(lock.figures["f"], before.figures["f"]);
    assert_eq!(
        lock.outputs["figures/f.svg"],
        before.outputs["figures/f.svg"]
    );
    assert_eq!(lock.inputs["b.csv"], before.inputs["b.csv"]);
}
