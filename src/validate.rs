//! Checking a spec without reading any data: every name it refers to
//! exists and every step, aggregate, expression and template compiles.
//! `gen` and `check` run this first, so a typo in the spec is reported
//! with its line and column before any file is read. The fuzz targets use
//! it too.

use std::sync::Arc;

use crate::error::Result;
use crate::expr::{Expr, Globals, Template};
use crate::figures::channels::{Chan, Kind};
use crate::spec::{LayerSpec, LoadedSpec};
use crate::tables::{aggregate::Agg, steps};
use crate::value::{Origin, Record, Row, Value};

fn known(spec: &LoadedSpec, name: &str) -> bool {
    spec.spec.tables.contains_key(name) || spec.spec.sources.contains_key(name)
}

fn layer(spec: &LoadedSpec, l: &LayerSpec) -> Result<()> {
    if let Some(d) = &l.data
        && !known(spec, d.get_ref())
    {
        return Err(spec.error(
            d.span(),
            format!("no table or source named `{}`", d.get_ref()),
        ));
    }
    for t in [&l.text, &l.label].into_iter().flatten() {
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
    for raw in [&l.color, &l.stroke, &l.shape].into_iter().flatten() {
        Chan::compile(spec, raw, Kind::Style, &["#000000"])?;
    }
    Ok(())
}

/// Checks `spec` as described in the module docs.
pub fn validate(spec: &LoadedSpec) -> Result<()> {
    if spec.spec.numbers.is_empty() && spec.spec.figures.is_empty() {
        return Err(crate::error::Error::msg(format!(
            "{}: the spec declares no [numbers] and no [figures], so there is nothing to generate",
            crate::spec::SPEC_FILE
        )));
    }
    crate::spec::paths::check(spec)?;
    for t in spec.spec.tables.values() {
        let t = t.get_ref();
        if !known(spec, t.from.get_ref()) {
            return Err(spec.error(
                t.from.span(),
                format!("no source or table named `{}`", t.from.get_ref()),
            ));
        }
        for raw in &t.steps {
            for dep in steps::compile(spec, raw)?.dependencies() {
                if !known(spec, dep) {
                    return Err(spec.error(raw.span(), format!("no source or table named `{dep}`")));
                }
            }
        }
    }
    for (key, n) in &spec.spec.numbers {
        let s = n.get_ref();
        if let Some(t) = &s.table
            && !known(spec, t.get_ref())
        {
            return Err(spec.error(
                t.span(),
                format!("number `{key}`: no table or source named `{}`", t.get_ref()),
            ));
        }
        Agg::compile(spec, &s.value, true)?;
        crate::numbers::format::Format::compile(spec, &s.format, n.span())?;
        if let Some(w) = &s.where_ {
            Expr::compile(spec, w)?;
        }
    }
    for f in spec.spec.figures.values() {
        let f = f.get_ref();
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
        if let Some(Ok(fast)) = crate::fastexpr::compile(text).map(|n| n.eval(&row)) {
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
