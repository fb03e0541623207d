//! Issue 27, item 8: notes that tell the truth. A filter's drop note names
//! the `and` term that dropped the rows; a rebuild reason names only the
//! inputs whose content changed; a field named like a global (`n`, `v`)
//! works as docs/spec.md says.

mod common;

use common::{artifact, gen_on, project, stderr};

/// The drop notes (lines naming a filter) of a run's stderr.
fn drop_notes(err: &str) -> Vec<&str> {
    err.lines().filter(|l| l.contains(": filter `")).collect()
}

/// Rows `x is number and x > 0 and y is number` drops: line 2 by `x > 0`
/// (y is null too, but `and` never read it), line 3 by `y is number` where
/// y is null, line 4 by `x > 0` where x is 0, line 5 by `x is number`
/// where x is null.
const XY: &str = concat!(
    r#"{"x": 1, "y": 1}"#,
    "\n",
    r#"{"x": -1, "y": null}"#,
    "\n",
    r#"{"x": 2, "y": null}"#,
    "\n",
    r#"{"x": 0, "y": 3}"#,
    "\n",
    r#"{"x": null, "y": null}"#,
    "\n",
);

const XY_SPEC: &str = r#"[sources.s]
path = "s.jsonl"

[tables.t]
from = "s"
steps = [{ filter = "x is number and x > 0 and y is number" }, { group = [], aggregate = { k = "count" } }]

[numbers.kept]
table = "t"
value = { max = "k" }
"#;

#[test]
fn a_drop_note_names_the_and_term_that_dropped_the_rows_not_a_later_terms_null() {
    for generic in [false, true] {
        let dir = project(XY_SPEC);
        std::fs::write(dir.path().join("s.jsonl"), XY).unwrap();
        let out = gen_on(dir.path(), generic);
        let err = stderr(&out);
        assert!(out.status.success(), "{err}");
        assert_eq!(
            drop_notes(&err),
            [
                "note: table `t`: filter `x is number and x > 0 and y is number` dropped 1 row(s) by `y is number` where `y` is null: s.jsonl:3",
                "note: table `t`: filter `x is number and x > 0 and y is number` dropped 1 row(s) by `x > 0` where `x` is 0: s.jsonl:4",
                "note: table `t`: filter `x is number and x > 0 and y is number` dropped 1 row(s) by `x is number` where `x` is null: s.jsonl:5",
            ],
            "generic only: {generic}"
        );
    }
}

/// The issue's filter: rows its first term drops (a name not curated) are
/// not "dropped where `err` is null"; a null name is said to be dropped
/// by the first term.
#[test]
fn a_drop_note_does_not_blame_err_is_none_for_rows_the_startswith_term_dropped() {
    let dir = project(
        r#"[sources.s]
path = "s.csv"

[tables.t]
from = "s"
steps = [{ filter = "kind == 'curated' and (err is none)" }]

[numbers.kept]
table = "t"
value = "count"
"#,
    );
    std::fs::write(
        dir.path().join("s.csv"),
        "kind,err\ncurated,\nraw,\nraw,\ncurated,oom\n,\n",
    )
    .unwrap();
    let out = artifact(dir.path(), &["gen"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert_eq!(
        drop_notes(&err),
        [
            "note: table `t`: filter `kind == 'curated' and (err is none)` dropped 1 row(s) by `kind == 'curated'` where `kind` is null: s.csv:6"
        ],
    );
}
