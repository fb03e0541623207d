//! New steps (fold, window, joinaggregate, bin) never overwrite a field
//! silently: an error at the key when the spec decides it, else naming the
//! row and field; keys that would do nothing (`per = []`, `fold = []`) are
//! errors at their place.

mod common;
use common::*;

fn show(data: &str, tables: &str, table: &str) -> Result<String, String> {
    show_table(data, None, tables, table)
}

fn step(s: &str) -> String {
    format!("[tables.t]\nfrom = \"s\"\nsteps = [{s}]\n")
}

const ROWS: &str = "{\"g\":\"a\",\"t\":1,\"b\":2}\n{\"g\":\"b\",\"t\":2,\"b\":3}\n";

#[test]
fn new_steps_that_would_overwrite_a_field_are_errors_not_silent() {
    // fold's key over an existing field: every row's `g` became "t".
    let err = show(ROWS, &step("{ fold = [\"t\"], key = \"g\" }"), "t").unwrap_err();
    assert!(
        err.contains("s.jsonl:1: field `g`: fold: the new field `g` would overwrite the row's own `g`; give the new field another name (only `derive` overwrites)"),
        "{err}"
    );
    // key and value alike: one field left.
    let err = show(
        ROWS,
        &step("{ fold = [\"t\"], key = \"x\", value = \"x\" }"),
        "t",
    )
    .unwrap_err();
    assert!(
        err.contains("artifact.toml:6:10: fold: `key` and `value` are both `x`: the value would overwrite the name; give them different names"),
        "{err}"
    );
    // A fold may reuse a folded field's name (it is consumed).
    assert_eq!(
        show(
            ROWS,
            &step("{ fold = [\"t\"], key = \"t\", value = \"v\" }"),
            "t"
        )
        .unwrap(),
        "g,b,t,v\na,2,t,1\nb,3,t,2\n"
    );
    // joinaggregate over its own group key.
    let err = show(
        ROWS,
        &step("{ joinaggregate = { g = \"count\" }, per = \"g\" }"),
        "t",
    )
    .unwrap_err();
    assert!(
        err.contains("artifact.toml:6:34: joinaggregate: the new field `g` would overwrite the group field `g` named in `per`"),
        "{err}"
    );
    let err = show(ROWS, &step("{ joinaggregate = { t = \"count\" } }"), "t").unwrap_err();
    assert!(
        err.contains("s.jsonl:1: field `t`: joinaggregate: the new field `t` would overwrite the row's own `t`"),
        "{err}"
    );
    let err = show(
        ROWS,
        &step("{ window = { g = \"row_number\" }, per = \"g\" }"),
        "t",
    )
    .unwrap_err();
    assert!(
        err.contains("artifact.toml:6:27: window: the new field `g` would overwrite the group field `g` named in `per`"),
        "{err}"
    );
    let err = show(ROWS, &step("{ window = { b = \"row_number\" } }"), "t").unwrap_err();
    assert!(
        err.contains(
            "s.jsonl:1: field `b`: window: the new field `b` would overwrite the row's own `b`"
        ),
        "{err}"
    );
    // bin's `as` over an existing field, and its `_end`.
    let err = show(ROWS, &step("{ bin = \"b\", as = \"t\" }"), "t").unwrap_err();
    assert!(
        err.contains(
            "s.jsonl:1: field `t`: bin: the new field `t` would overwrite the row's own `t`"
        ),
        "{err}"
    );
    let rows = "{\"b\":1,\"x_end\":0}\n";
    let err = show(rows, &step("{ bin = \"b\", as = \"x\" }"), "t").unwrap_err();
    assert!(
        err.contains("field `x_end`: bin: the new field `x_end` would overwrite"),
        "{err}"
    );
    // derive overwrites on purpose.
    assert_eq!(
        show(ROWS, &step("{ derive = { t = \"t * 10\" } }"), "t").unwrap(),
        "g,t,b\na,10,2\nb,20,3\n"
    );
}

#[test]
fn per_and_fold_that_name_nothing_are_errors_at_the_key() {
    for s in [
        "{ window = { i = \"row_number\" }, per = [] }",
        "{ joinaggregate = { n = \"count\" }, per = [] }",
    ] {
        let err = show(ROWS, &step(s), "t").unwrap_err();
        assert!(
            err.contains("`per = []` groups by nothing: leave `per` out for the whole table, or name the group fields"),
            "{s}: {err}"
        );
    }
    let err = show(ROWS, &step("{ fold = [] }"), "t").unwrap_err();
    assert!(
        err.contains("artifact.toml:6:19: `fold = []` folds no field (and would leave no rows): name the fields to fold"),
        "{err}"
    );
}
