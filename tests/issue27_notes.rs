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

/// Figure `f` over `a.csv`; number `total` over the same file, which
/// fails when its field is `z`.
const REBUILD_SPEC: &str = r#"[sources.a]
path = "a.csv"

[tables.ta]
from = "a"

[numbers.total]
table = "ta"
value = { sum = "y" }

[figures.f]
size = [3, 2]
layers = [{ mark = "point", data = "ta", x = "x", y = "x" }]
"#;

/// The `rebuilt ...` lines of a run.
fn rebuilt(err: &str) -> Vec<&str> {
    err.lines().filter(|l| l.starts_with("rebuilt ")).collect()
}

fn write(dir: &std::path::Path, rel: &str, text: &str) {
    std::fs::write(dir.join(rel), text).unwrap();
}

/// A run where `a.csv` changed and `total` failed keeps `a.csv`'s old hash
/// in the lock for `total`; `f` was built from the new one. When only
/// `f`'s spec changes next, `a.csv` is no input that changed for it.
#[test]
fn a_rebuild_after_a_failed_run_does_not_name_an_input_unchanged_since_it_was_built() {
    let dir = project(REBUILD_SPEC);
    let d = dir.path();
    write(d, "a.csv", "x,y\n1,1\n2,2\n");
    assert!(artifact(d, &["gen"]).status.success());
    write(d, "a.csv", "x,y\n1,1\n2,5\n");
    let spec = REBUILD_SPEC.replace("sum = \"y\"", "sum = \"z\"");
    write(d, "artifact.toml", &spec);
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(rebuilt(&stderr(&out)), ["rebuilt f (input changed: a.csv)"]);
    write(d, "artifact.toml", &spec.replace("[3, 2]", "[3, 2.5]"));
    let out = artifact(d, &["gen"]);
    assert_eq!(rebuilt(&stderr(&out)), ["rebuilt f (spec changed)"]);
    // `total` was last built from the first `a.csv`: for it, it changed.
    write(
        d,
        "artifact.toml",
        &REBUILD_SPEC.replace("[3, 2]", "[3, 2.5]"),
    );
    let out = artifact(d, &["gen"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("number total: 3 -> 6 (input changed: a.csv)\n"),
        "{err}"
    );
    assert_eq!(rebuilt(&err), Vec::<&str>::new());
}

/// A data file broken (a part fails) then put back byte for byte: `f`,
/// built from the broken file, is rebuilt because that input changed, not
/// because "its record in artifact.lock was edited".
#[test]
fn a_file_put_back_after_a_failed_run_is_an_input_change_not_an_edited_record() {
    let dir = project(REBUILD_SPEC);
    let d = dir.path();
    write(d, "a.csv", "x,y\n1,1\n2,2\n");
    assert!(artifact(d, &["gen"]).status.success());
    write(d, "a.csv", "x,y\n1,1\n2,foo\n");
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    write(d, "a.csv", "x,y\n1,1\n2,2\n");
    let check = artifact(d, &["check"]);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&check.stdout),
        stderr(&check)
    );
    assert!(
        said.contains("all figures and numbers are current"),
        "{said}"
    );
    assert!(!said.contains("was edited"), "{said}");
    let out = artifact(d, &["gen"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert_eq!(rebuilt(&err), ["rebuilt f (input changed: a.csv)"]);
    // Nothing failed: no hash kept back, none read apart.
    let lock = std::fs::read_to_string(d.join("artifact.lock")).unwrap();
    assert!(!lock.contains("inputs_read"), "{lock}");
}

/// Groups of `d.jsonl` counted into an aggregate output named `n`.
const N_SPEC: &str = r#"[sources.d]
path = "d.jsonl"

[tables.t]
from = "d"
steps = [{ group = ["g"], aggregate = { n = "count" } }, { filter = "n > 1" }, { derive = { m = "n * 10" } }]

[numbers.most]
table = "t"
value = { max = "n" }

[numbers.tens]
table = "t"
value = { max = "m" }

[numbers.count]
table = "t"
each = "count-{{ g }}-{{ _['n'] }}"
value = { cell = "n" }
"#;

const N_DATA: &str = "{\"g\": \"a\"}\n{\"g\": \"a\"}\n{\"g\": \"a\"}\n{\"g\": \"b\"}\n";

/// docs/spec.md: a row field shadows `n`. An aggregate output `n` is read
/// as the field by a filter, a derive and a number, and as `_['n']` in a
/// family's key.
#[test]
fn an_aggregate_output_named_n_is_the_field_where_the_docs_say_it_shadows_n() {
    let dir = project(N_SPEC);
    let d = dir.path();
    write(d, "d.jsonl", N_DATA);
    let out = artifact(d, &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let nums = common::numbers(d);
    assert_eq!(nums["most"]["value"], 3, "{nums}");
    assert_eq!(nums["tens"]["value"], 30, "{nums}");
    assert_eq!(nums["count-a-3"]["value"], 3, "{nums}");
}

/// Where a number uses `n` as a map (`{{ n }}` in its `each`), the order
/// numbers are computed in would depend on every number: an error at the
/// `n`, saying the rule docs/spec.md states (a row field does not shadow
/// it there), not a refusal the docs contradict.
#[test]
fn n_used_as_a_map_in_a_family_key_is_an_error_at_its_column_saying_the_documented_rule() {
    let spec = N_SPEC.replace("{{ _['n'] }}", "{{ n }}");
    let dir = project(&spec);
    let d = dir.path();
    write(d, "d.jsonl", N_DATA);
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let rule = "a row field named `n` or `v` does not shadow them in such a use: read it as _['n'] / _['v']";
    assert_eq!(
        stderr(&out).lines().next().unwrap_or(""),
        format!(
            "error: artifact.toml:18:26: number `count` reads numbers by a key not written out (`n`): write each as v['KEY'] (or v.KEY, v.get('KEY', default), 'KEY' in v), so it is computed after them; {rule}"
        )
    );
    let docs = std::fs::read_to_string(common::root().join("docs/spec.md")).unwrap();
    assert!(docs.contains(rule), "docs/spec.md shows the error");
    assert!(
        docs.replace('\n', " ").contains(
            "even where a row field of that name exists: read the field as `_['n']` there"
        ),
        "docs/spec.md states the exception"
    );
}
