//! The compile step of `gen` and `check`: the spec's output paths
//! (`spec::paths::check`), then the whole plan ([`Plan::compile`]: every
//! name a part refers to exists, no table reads itself through a cycle or
//! a chain of more than 100 tables, every setting within its bounds, every
//! step, aggregate, expression, template, channel and format compiled),
//! then that there is something to generate. A mistake in the spec is
//! reported with its line and column before any file is read. The fuzz
//! targets use it too.

use std::sync::Arc;

use super::Plan;
use crate::error::Result;
use crate::expr::{Expr, Globals, Template};
use crate::spec::LoadedSpec;
use crate::value::{Origin, Record, Row, Value};

/// Checks and compiles `spec` as described in the module docs: its plan,
/// or every spec error found.
pub fn validate(spec: &LoadedSpec) -> Result<Plan<'_>> {
    crate::spec::paths::check(spec)?;
    let plan = Plan::compile(spec)?;
    // Last, so a spec of tables alone still has them checked.
    if spec.spec.numbers.is_empty()
        && spec.spec.figures.is_empty()
        && spec.spec.results_tables.is_empty()
    {
        return Err(crate::error::Error::msg(format!(
            "{}: the spec declares no [numbers] and no [figures], so there is nothing to generate",
            crate::spec::SPEC_FILE
        )));
    }
    Ok(plan)
}

/// Compiles `text` as an expression and as a template and evaluates both on
/// a small row; only errors may come out (for the fuzz targets).
pub fn fuzz_expression(text: &str) {
    let Ok(spec) = crate::spec::parse("", std::path::Path::new("artifact.toml")) else {
        return;
    };
    let mut rec = Record::default();
    rec.insert("x", Value::from(1.5));
    rec.insert("n_items", Value::from(3));
    rec.insert("name", Value::from("café"));
    rec.insert("none_field", Value::from(()));
    rec.insert("nan", Value::from(f64::NAN));
    let mut inner = Record::default();
    inner.insert("ratio", Value::from(1.27));
    rec.insert("m", inner.into_value());
    let row = Row {
        extra: Default::default(),
        fields: Arc::new(rec),
        origin: Origin::line(Arc::from("fuzz.jsonl"), 1),
    };
    let globals = Arc::new(Globals::default());
    if let Ok(e) = Expr::compile_str(&spec, text, 0..text.len()) {
        let _ = e.eval_row(&globals, &row);
        let _ = e.paths();
        // The fast path must agree with minijinja wherever it answers.
        if let Some(Ok(fast)) = crate::expr::fast::compile(text).map(|n| n.eval(&row)) {
            match e.eval_slow(&globals, &row) {
                Ok(slow) => assert_eq!(
                    format!("{fast:?}"),
                    format!("{slow:?}"),
                    "fast path disagrees on `{text}`"
                ),
                Err(err) => {
                    panic!("fast path answered {fast:?} where minijinja fails on `{text}`: {err}")
                }
            }
        }
    }
    let owned = crate::spec::SpannedStr::new(0..text.len(), text.to_string());
    if let Ok(t) = Template::compile(&spec, &owned) {
        let _ = t.render_row(&globals, &row);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> String {
        // One number, so the spec is not empty (its tables are checked first).
        let text = format!("{text}\n[numbers.one]\nvalue = {{ expr = \"1\" }}\n");
        let spec = crate::spec::parse(&text, std::path::Path::new("artifact.toml")).unwrap();
        match validate(&spec) {
            Ok(_) => "ok".into(),
            Err(e) => e.to_string().lines().next().unwrap().to_string(),
        }
    }

    #[test]
    fn keys_an_orientation_leaves_unread_are_errors() {
        let fig = |layer: &str| format!("[figures.f]\nsize = [1, 1]\nlayers = [{layer}]\n");
        assert_eq!(
            check(&fig("{ mark = \"bar\", x = \"a\", y = \"b\", x2 = 1 }")),
            "artifact.toml:3:50: `x2` does nothing on a vertical `bar`: its second position is `y2`"
        );
        assert_eq!(
            check(&fig(
                "{ mark = \"errorbar\", orient = \"horizontal\", y = \"a\", x = 1, x2 = 2, y2 = 3 }"
            )),
            "artifact.toml:3:84: `y2` does nothing on a horizontal `errorbar`: its second position is `x2`"
        );
        assert_eq!(
            check(&fig("{ mark = \"rule\", orient = \"horizontal\", y = 1 }")),
            "artifact.toml:3:37: a rule's `orient` is only `diagonal`: a rule is vertical at `x` and horizontal at `y`"
        );
        assert_eq!(
            check(&fig("{ mark = \"rule\", x = 1, y = 2 }")),
            "artifact.toml:3:39: `y` does nothing on a rule with `x`: a rule is vertical at `x` or horizontal at `y`; for a segment give its other end, `y2` (or `x2`)"
        );
        assert_eq!(
            check(&fig("{ mark = \"rule\", x = 1, y2 = 2 }")),
            "artifact.toml:3:40: `y2` needs `y`: a rule's segment runs from `y` to `y2`"
        );
        assert_eq!(
            check(&fig("{ mark = \"rule\", x = 1, x2 = 2 }")),
            "artifact.toml:3:40: `x2` needs `y`: a segment from `x` to `x2` is drawn at `y` (without `x2`, a rule at `x` spans the plot)"
        );
        assert_eq!(
            check(&fig("{ mark = \"rule\", orient = \"diagonal\", y = 2 }")),
            "artifact.toml:3:53: `y` does nothing on a rule with `orient = \"diagonal\"`"
        );
    }

    #[test]
    fn settings_other_settings_leave_unread_are_errors() {
        assert_eq!(
            check("[figures.f]\nsize = [1, 1]\ntitle_size = 9\n"),
            "artifact.toml:3:14: `title_size` does nothing: neither the figure nor a panel has a `title`"
        );
        assert_eq!(
            check(
                "[figures.f]\nsize = [1, 1]\ntitle = \"t\"\ntitle_size = 9\nlegend = { position = \"none\", columns = 2 }\n"
            ),
            "artifact.toml:5:23: a legend with `position = \"none\"` is not drawn, so its `columns` does nothing"
        );
    }

    #[test]
    fn seed_without_bootstrap_is_an_error() {
        let text = "[sources.s]\nrows = [{ k = 1 }]\n[numbers.n]\ntable = \"s\"\nvalue = { ci95 = \"k\", bound = \"low\", method = \"t\", seed = 1 }\n";
        let spec = crate::spec::parse(text, std::path::Path::new("artifact.toml")).unwrap();
        let e = validate(&spec).unwrap_err().to_string();
        assert_eq!(
            e.lines().next().unwrap(),
            "artifact.toml:5:9: `seed` does nothing without `method = \"bootstrap\"`"
        );
    }

    #[test]
    fn table_reading_itself_is_a_cycle() {
        let text = "[tables.a]\nfrom = \"a\"\n";
        assert_eq!(check(text), "artifact.toml:2:8: cycle of tables: a -> a");
    }

    #[test]
    fn cycle_through_lookup_and_union_is_named_in_order() {
        let text = "[sources.s]\nrows = [{ k = 1 }]\n\
            [tables.a]\nfrom = \"s\"\nsteps = [{ lookup = \"b\", on = \"k\" }]\n\
            [tables.b]\nfrom = \"s\"\nsteps = [{ union = [\"c\"] }]\n\
            [tables.c]\nfrom = \"a\"\n";
        assert_eq!(
            check(text),
            "artifact.toml:10:8: cycle of tables: a -> b -> c -> a"
        );
    }

    #[test]
    fn a_source_and_a_table_of_one_name_are_refused_not_taken_for_a_cycle() {
        // The plan refuses the name before it looks for cycles (the
        // catalog used to, after the data was read).
        let text = "[sources.a]\nrows = [{ k = 1 }]\n[tables.a]\nfrom = \"a\"\n";
        assert_eq!(
            check(text),
            "artifact.toml:1:1: `a` is both a source and a table"
        );
    }

    #[test]
    fn chain_of_more_than_100_tables_is_an_error() {
        let mut text = "[sources.s]\nrows = [{ k = 1 }]\n[tables.t0]\nfrom = \"s\"\n".to_string();
        for i in 1..100 {
            text.push_str(&format!("[tables.t{i}]\nfrom = \"t{}\"\n", i - 1));
        }
        assert_eq!(check(&text), "ok");
        text.push_str("[tables.t100]\nfrom = \"t99\"\n");
        assert_eq!(
            check(&text),
            "artifact.toml:204:8: table `t100` reads through a chain of 101 tables, more than the 100 allowed"
        );
    }

    #[test]
    fn cycle_of_5000_tables_is_found_without_recursion() {
        let mut text = "[sources.s]\nrows = [{ k = 1 }]\n[tables.t0]\nfrom = \"s\"\n".to_string();
        for i in 1..5000 {
            text.push_str(&format!("[tables.t{i}]\nfrom = \"t{}\"\n", i - 1));
        }
        text.push_str("[tables.t0x]\nfrom = \"t4999\"\n");
        text = text.replacen(
            "[tables.t0]\nfrom = \"s\"",
            "[tables.t0]\nfrom = \"t0x\"",
            1,
        );
        let e = check(&text);
        assert!(
            e.starts_with("artifact.toml:6:8: cycle of tables: t0 -> t0x -> t4999 -> t4998 -> "),
            "{e}"
        );
        assert!(e.ends_with(" -> t2 -> t1 -> t0"), "{e}");
    }
}
