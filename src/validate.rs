//! Checking a spec without reading any data: every name it refers to
//! exists, no table reads itself through a cycle of tables (nor through a
//! chain of more than 100), every numeric
//! setting is within its bounds (`spec::bounds`), and every step,
//! aggregate, expression and template compiles.
//! `gen` and `check` run this first, so a typo in the spec is reported
//! with its line and column before any file is read. The fuzz targets use
//! it too.

use std::sync::Arc;

use crate::error::Result;
use crate::expr::{Expr, Globals, Template};
use crate::figures::channels::{Chan, Kind};
use crate::plan::Plan;
use crate::spec::{LayerSpec, LoadedSpec, no_table};
use crate::value::{Origin, Record, Row, Value};

fn known(spec: &LoadedSpec, name: &str) -> bool {
    spec.spec.tables.contains_key(name) || spec.spec.sources.contains_key(name)
}

fn layer(spec: &LoadedSpec, l: &LayerSpec) -> Result<()> {
    if let Some(d) = &l.data
        && !known(spec, d.get_ref())
    {
        return Err(spec.error(d.span(), no_table(spec, d.get_ref())));
    }
    orientation(spec, l)?;
    if let Some(t) = &l.text {
        let t = crate::figures::text_source::TextSpec::parse(spec, t)?;
        if let Some(s) = t.template() {
            Template::compile(spec, s)?;
        }
    }
    for t in [&l.label].into_iter().flatten() {
        Template::compile(spec, t)?;
    }
    for w in [&l.where_].into_iter().flatten() {
        Expr::compile(spec, w)?;
    }
    for raw in [
        &l.x,
        &l.y,
        &l.x2,
        &l.y2,
        &l.size,
        &l.opacity,
        &l.stroke_width,
    ]
    .into_iter()
    .flatten()
    {
        Chan::compile(spec, raw, Kind::Data, &[])?;
    }
    if let Some(raw) = &l.color {
        let black = ["#000000".to_string()];
        Chan::compile_scaled(spec, raw, Kind::Style, (&black, false), true)?;
    }
    for raw in [&l.stroke, &l.shape].into_iter().flatten() {
        Chan::compile(spec, raw, Kind::Style, &["#000000"])?;
    }
    // A scale's range is the spec's own: an unknown colour or shape in it
    // is the spec's mistake, not the row's that happens to pick it.
    for (raw, shape) in [(&l.color, false), (&l.stroke, false), (&l.shape, true)] {
        let Some(raw) = raw else { continue };
        let Some(toml::Value::Array(range)) =
            raw.get_ref().get("scale").and_then(|sc| sc.get("range"))
        else {
            continue;
        };
        for (i, entry) in range.iter().enumerate() {
            let text = match entry {
                toml::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let problem = if shape {
                crate::figures::model::Shape::parse(&text)
                    .is_none()
                    .then(|| format!("unknown shape `{text}` (circle, square, triangle, diamond)"))
            } else {
                crate::color::parse(&text).err()
            };
            if let Some(problem) = problem {
                let at = range_entry_span(spec, raw.span(), i).unwrap_or(raw.span());
                return Err(spec.error(at, problem));
            }
        }
    }
    Ok(())
}

/// The span of entry `i` of the `scale.range` of the channel table at
/// `chan` in the spec's text (the parsed spec keeps no spans inside it).
fn range_entry_span(
    spec: &LoadedSpec,
    chan: std::ops::Range<usize>,
    i: usize,
) -> Option<std::ops::Range<usize>> {
    use toml::de::{DeTable, DeValue};
    const PREFIX: &str = "x = ";
    let doc = format!("{PREFIX}{}", spec.text.get(chan.clone())?);
    let doc = DeTable::parse(&doc).ok()?;
    let DeValue::Table(t) = doc.get_ref().get("x")?.get_ref() else {
        return None;
    };
    let DeValue::Table(scale) = t.get("scale")?.get_ref() else {
        return None;
    };
    let DeValue::Array(range) = scale.get("range")?.get_ref() else {
        return None;
    };
    let at = range.get(i)?.span();
    let start = at.start.checked_sub(PREFIX.len())? + chan.start;
    Some(start..start + at.len())
}

/// The keys a layer's orientation leaves unread are errors: a vertical
/// bar's base is `y2` (a horizontal one's `x2`), an errorbar spans `y` to
/// `y2` (horizontal: `x` to `x2`), and a rule is vertical at `x`,
/// horizontal at `y`, or the diagonal.
fn orientation(spec: &LoadedSpec, l: &LayerSpec) -> Result<()> {
    let mark = l.mark.get_ref().as_str();
    let orient = l.orient.as_ref().map(|o| o.get_ref().as_str());
    let horizontal = orient == Some("horizontal");
    match mark {
        "bar" | "errorbar" => {
            let (unread, read, how) = if horizontal {
                (&l.y2, "x2", "horizontal")
            } else {
                (&l.x2, "y2", "vertical")
            };
            if let Some(raw) = unread {
                let name = if horizontal { "y2" } else { "x2" };
                return Err(spec.error(
                    raw.span(),
                    format!(
                        "`{name}` does nothing on a {how} `{mark}`: its second position is `{read}`"
                    ),
                ));
            }
        }
        "rule" => {
            if let Some(o) = &l.orient
                && o.get_ref() != "diagonal"
            {
                return Err(spec.error(
                    o.span(),
                    "a rule's `orient` is only `diagonal`: a rule is vertical at `x` and horizontal at `y`",
                ));
            }
            let extra = if orient == Some("diagonal") {
                l.x.as_ref()
                    .or(l.y.as_ref())
                    .map(|r| (r, "with `orient = \"diagonal\"`"))
            } else {
                l.x.as_ref().and(l.y.as_ref()).map(|r| {
                    (
                        r,
                        "with `x`: a rule is vertical at `x` or horizontal at `y`",
                    )
                })
            };
            if let Some((raw, why)) = extra {
                let name = if l.y.as_ref().is_some_and(|y| y.span() == raw.span()) {
                    "y"
                } else {
                    "x"
                };
                return Err(
                    spec.error(raw.span(), format!("`{name}` does nothing on a rule {why}"))
                );
            }
        }
        _ => {}
    }
    Ok(())
}

/// Settings whose other settings leave them unread: `title_size` with no
/// title to print, a hidden legend's looks.
fn unread_figure_keys(spec: &LoadedSpec, f: &crate::spec::FigureSpec) -> Result<()> {
    if let Some(size) = &f.title_size
        && f.title.is_none()
        && !f
            .panels
            .iter()
            .flatten()
            .any(|p| p.get_ref().title.is_some())
    {
        return Err(spec.error(
            size.span(),
            "`title_size` does nothing: neither the figure nor a panel has a `title`",
        ));
    }
    let legends = f.legend.iter().chain(
        f.panels
            .iter()
            .flatten()
            .filter_map(|p| p.get_ref().legend.as_ref()),
    );
    for l in legends {
        if let Some(p) = l.position.as_ref().filter(|p| p.get_ref() == "none") {
            let set: Vec<&str> = [
                ("columns", l.columns.is_some()),
                ("frame", l.frame.is_some()),
                ("font_size", l.font_size.is_some()),
            ]
            .into_iter()
            .filter_map(|(k, on)| on.then_some(k))
            .collect();
            if let Some(first) = set.first() {
                return Err(spec.error(
                    p.span(),
                    format!("a legend with `position = \"none\"` is not drawn, so its `{first}` does nothing"),
                ));
            }
        }
    }
    Ok(())
}

/// Checks `spec` as described in the module docs, and returns its plan.
pub fn validate(spec: &LoadedSpec) -> Result<Plan<'_>> {
    crate::spec::paths::check(spec)?;
    let plan = Plan::compile(spec)?;
    figures(spec)?;
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

fn figures(spec: &LoadedSpec) -> Result<()> {
    crate::figures::sizing::style(spec)?;
    crate::figures::sizing::check_read(spec)?;
    crate::render::formats::Formats::of(spec)?;
    for (name, fig) in &spec.spec.figures {
        crate::figures::sizing::figure_size(spec, name, fig)?;
        crate::render::formats::background(spec, fig.get_ref())?;
        let f = fig.get_ref();
        crate::spec::bounds::figure(spec, f)?;
        unread_figure_keys(spec, f)?;
        if let Some(t) = &f.title {
            Template::compile(spec, t)?;
        }
        for l in f.layers.iter().flatten() {
            layer(spec, l.get_ref())?;
        }
        for p in f.panels.iter().flatten() {
            if let Some(t) = &p.get_ref().title {
                Template::compile(spec, t)?;
            }
            for l in &p.get_ref().layers {
                layer(spec, l.get_ref())?;
            }
        }
    }
    Ok(())
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
            "artifact.toml:3:39: `y` does nothing on a rule with `x`: a rule is vertical at `x` or horizontal at `y`"
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
