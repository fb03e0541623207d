//! Regression tests for the break-it review of issue 12's figures: values
//! that overflow double precision, degenerate domains, channels and
//! scales that would do nothing or mislead, SI prefixes, error texts,
//! legend merging and colour schemes that would repeat colours.

mod common;

use common::small::stderr;
use common::*;

/// A project with `d.csv` holding `data` and figure `f` with `body`.
fn write(data: &str, body: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.csv"), data).unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        format!("[sources.s]\npath = \"d.csv\"\n\n[figures.f]\nsize = [4, 3]\n{body}\n"),
    )
    .unwrap();
    dir
}

/// The error line and the caret's line of a failing `gen`.
fn gen_error(data: &str, body: &str) -> (String, String) {
    let dir = write(data, body);
    let out = artifact(dir.path(), &["gen"]);
    let e = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{e}");
    let at = e.find("error: ").unwrap();
    let mut lines = e[at..].lines();
    let msg = lines.next().unwrap().to_string();
    let code = lines.nth(1).unwrap_or_default().to_string();
    (msg, code)
}

/// The figure's CSV after a successful `gen`.
fn figure_csv(data: &str, body: &str) -> String {
    let dir = write(data, body);
    gen_ok(dir.path());
    std::fs::read_to_string(dir.path().join("figures/f.csv")).unwrap()
}

const HUGE: &str = "g,v\na,1e308\na,-1e308\na,1.7976931348623157e308\na,5\n";

#[test]
fn boxplot_over_1e308_draws_inf_ticks() {
    let (msg, code) = gen_error(
        HUGE,
        r#"layers = [{ mark = "boxplot", data = "s", x = "g", y = "v" }]"#,
    );
    assert_eq!(
        msg,
        "error: figure `f`: artifact.toml:4:1: the axis domain [-inf, inf] is not finite: \
         the data [-1e308, 1.7976931348623157e308] and their margin overflow double precision; \
         rescale them (other units) or set `domain`"
    );
    assert_eq!(code, "4 | [figures.f]");
}

#[test]
fn errorbar_ci_over_1e308_writes_inf() {
    let (msg, _) = gen_error(
        "g,v\na,1e308\na,1e308\na,1e308\n",
        r#"layers = [{ mark = "errorbar", data = "s", x = "g", y = "v", extent = "ci" }]"#,
    );
    assert_eq!(
        msg,
        "error: figure `f`: artifact.toml:6:11: layer 1 (errorbar) computes center = inf (at x = a): \
         not a finite number (the values overflow double precision; rescale them, e.g. to other units)"
    );
}

#[test]
fn stacked_bars_whose_sum_overflows() {
    let (msg, _) = gen_error(
        "g,v\na,1e308\na,1e308\n",
        r#"layers = [{ mark = "bar", data = "s", x = "g", y = "v", stack = true }]"#,
    );
    assert_eq!(
        msg,
        "error: figure `f`: artifact.toml:6:11: layer 1 (bar) computes y = inf (d.csv line 3): \
         not a finite number (the values overflow double precision; rescale them, e.g. to other units)"
    );
}

#[test]
fn violin_over_1e308_writes_nan_densities() {
    let (msg, _) = gen_error(
        HUGE,
        r#"layers = [{ mark = "violin", data = "s", x = "g", y = "v" }]"#,
    );
    assert_eq!(
        msg,
        "error: figure `f`: artifact.toml:6:11: layer 1 (violin) computes bandwidth = inf \
         (at part = violin, x = a): not a finite number (the values overflow double precision; \
         rescale them, e.g. to other units)"
    );
}

#[test]
fn ecdf_and_points_at_1e308_overflow_the_padded_domain() {
    for layer in [
        r#"{ mark = "ecdf", data = "s", x = "v" }"#,
        r#"{ mark = "point", data = "s", x = "v", y = "v" }"#,
    ] {
        let (msg, _) = gen_error(HUGE, &format!("layers = [{layer}]"));
        assert!(
            msg.ends_with(
                "the axis domain [-inf, inf] is not finite: the data [-1e308, 1.7976931348623157e308] \
                 and their margin overflow double precision; rescale them (other units) or set `domain`"
            ),
            "{msg}"
        );
    }
}

#[test]
fn symlog_constant_1e_300_draws_603_tick_labels() {
    for (c, shown) in [("1e-300", "1e-300"), ("1e300", "1e300")] {
        let (msg, code) = gen_error(
            "x\n1\n2\n",
            &format!(
                "layers = [{{ mark = \"point\", data = \"s\", x = \"x\", y = \"x\" }}]\n\
                 x = {{ scale = \"symlog\", constant = {c} }}"
            ),
        );
        assert_eq!(
            msg,
            format!(
                "error: figure `f`: artifact.toml:7:36: `constant` must be a positive number \
                 from 1e-12 to 1e12, got {shown}"
            )
        );
        assert!(code.starts_with("7 | x = { scale"), "{code}");
    }
}

#[test]
fn empty_domain_points_at_the_domain_key() {
    for (d, shown) in [("[5, -5]", "[5, -5]"), ("[0, 0]", "[0, 0]")] {
        let (msg, _) = gen_error(
            "x\n1\n2\n",
            &format!(
                "layers = [{{ mark = \"point\", data = \"s\", x = \"x\", y = \"x\" }}]\nx = {{ domain = {d} }}"
            ),
        );
        assert_eq!(
            msg,
            format!(
                "error: figure `f`: artifact.toml:7:17: the axis domain {shown} is empty or invalid"
            )
        );
    }
}

#[test]
fn ccdf_of_one_distinct_value_has_an_empty_domain() {
    for c in ["true", "false"] {
        let dir = write(
            "v\n1\n1\n1\n",
            &format!(
                "layers = [{{ mark = \"ecdf\", data = \"s\", x = \"v\", complementary = {c} }}]"
            ),
        );
        gen_ok(dir.path());
        let csv = std::fs::read_to_string(dir.path().join("figures/f.csv")).unwrap();
        assert!(csv.starts_with("panel,layer,mark,series,x,y\n"), "{csv}");
    }
}

#[test]
fn xoffset_on_a_numeric_axis_shifts_points_off_their_values() {
    for mark in ["point", "bar"] {
        let (msg, code) = gen_error(
            "x,v,s\n1,1,p\n2,2,q\n",
            &format!(
                "layers = [{{ mark = \"{mark}\", data = \"s\", x = \"x\", y = \"v\", xOffset = \"s\" }}]"
            ),
        );
        let col = if mark == "bar" { 67 } else { 69 };
        assert_eq!(
            msg,
            format!(
                "error: figure `f`: artifact.toml:6:{col}: xOffset dodges within categories; \
                 x here holds numbers (1)"
            )
        );
        assert!(code.contains("xOffset = \"s\""), "{code}");
    }
}

#[test]
fn symlog_or_log_scale_on_a_categorical_axis_is_ignored() {
    for (scale, mark) in [("symlog", "point"), ("log", "point"), ("log", "bar")] {
        let (msg, _) = gen_error(
            "x,v\na,1\nb,2\n",
            &format!(
                "layers = [{{ mark = \"{mark}\", data = \"s\", x = \"x\", y = \"v\" }}]\n\
                 x = {{ scale = \"{scale}\" }}"
            ),
        );
        assert_eq!(
            msg,
            "error: figure `f`: artifact.toml:7:15: a log/symlog scale needs numbers; \
             x holds categories (\"a\")"
        );
    }
}

#[test]
fn normalized_stack_with_negative_values_does_not_sum_to_1() {
    let (msg, _) = gen_error(
        "x,k,v\na,A,3\na,B,-2\na,C,5\n",
        r#"layers = [{ mark = "bar", data = "s", x = "x", y = "v", color = { field = "k" }, stack = "normalize" }]"#,
    );
    assert_eq!(
        msg,
        "error: figure `f`: d.csv:3: field `y`: `stack = \"normalize\"` draws shares of a \
         whole; `y` is -2 here: shares of negative parts are undefined (use `stack = true`)"
    );
}

#[test]
fn hist_over_1e308_prints_a_309_digit_range() {
    let (msg, _) = gen_error(
        "v\n1e308\n-1e308\n",
        r#"layers = [{ mark = "hist", data = "s", x = "v" }]"#,
    );
    assert_eq!(
        msg,
        "error: figure `f`: artifact.toml:6:11: a `hist` over [-1e308, 1e308] has bins wider \
         than double precision holds: rescale the values (other units)"
    );
}

#[test]
fn area_on_a_log_axis_blames_the_row_for_its_implicit_base() {
    let (msg, _) = gen_error(
        "x,v\n1,1\n2,3\n",
        "layers = [{ mark = \"area\", data = \"s\", x = \"x\", y = \"v\" }]\ny = { scale = \"log\" }",
    );
    assert_eq!(
        msg,
        "error: figure `f`: artifact.toml:6:11: layer 1 (area): an area's base y2 (default 0) \
         is not on a log axis (d.csv line 2): give y2 or a linear axis"
    );
}

/// The compiled plot of figure `f`.
fn plot(data: &str, body: &str) -> artifact::figures::model::Plot {
    let dir = write(data, body);
    let spec = artifact::spec::load(&dir.path().join("artifact.toml")).unwrap();
    let plan = artifact::plan::Plan::compile(&spec).unwrap();
    let cat = artifact::tables::Catalog::new(&plan).unwrap();
    let globals = std::sync::Arc::new(artifact::expr::Globals::default());
    match artifact::figures::compile(&plan.figures["f"], &cat, &globals).unwrap() {
        artifact::figures::Outcome::Drawn(f) => f.plot,
        _ => panic!("not drawn"),
    }
}

#[test]
fn legend_entries_p_q_p_q_across_a_line_and_a_point_layer() {
    use artifact::figures::model::Swatch;
    let p = plot(
        "x,v,s\n1,1,p\n2,2,p\n1,2,q\n2,3,q\n",
        r#"layers = [{ mark = "line", data = "s", x = "x", y = "v", series = "s", color = { field = "s" } }, { mark = "point", data = "s", x = "x", y = "v", color = { field = "s" } }]"#,
    );
    let entries = &p.panels[0].legend.entries;
    let labels: Vec<&str> = entries.iter().map(|e| e.label.as_str()).collect();
    assert_eq!(labels, ["p", "q"], "{entries:?}");
    for e in entries {
        assert!(
            matches!(e.swatch, Swatch::Line(_, Some(_))),
            "{:?}",
            e.swatch
        );
    }
}

#[test]
fn null_group_value_becomes_a_group_labelled_none() {
    for (layer, what) in [
        (
            r#"{ mark = "bar", data = "s", x = "x", y = "v", xOffset = "s" }"#,
            "offset",
        ),
        (
            r#"{ mark = "bar", data = "s", x = "x", y = "v", color = { field = "s" } }"#,
            "colour",
        ),
        (
            r#"{ mark = "hist", data = "s", x = "v", xOffset = "s" }"#,
            "offset",
        ),
        (
            r#"{ mark = "hist", data = "s", x = "v", color = { field = "s" } }"#,
            "colour",
        ),
    ] {
        let (msg, _) = gen_error("x,v,s\na,1,p\nb,2,\n", &format!("layers = [{layer}]"));
        assert_eq!(
            msg,
            format!(
                "error: figure `f`: d.csv:3: field `s`: `s` gives no value (null or empty) for \
                 this row, so it has no {what} group; filter such rows out with the layer's `where`"
            )
        );
    }
}

/// Twelve categories k0..k11.
fn twelve() -> String {
    let mut d = "k,v\n".to_string();
    for i in 0..12 {
        d.push_str(&format!("k{i},{i}\n"));
    }
    d
}

#[test]
fn colour_schemes_cycle_silently_repeating_k0s_colour_on_k8() {
    for (mark, scale, col, said) in [
        (
            "bar",
            ", scale = { scheme = \"okabe-ito\" }",
            65,
            "okabe-ito has 8 colours",
        ),
        (
            "bar",
            ", scale = { scheme = \"greys\" }",
            65,
            "greys has 8 grey and hatch pairs",
        ),
        (
            "point",
            ", scale = { scheme = \"greys\" }",
            67,
            "greys has 4 colours",
        ),
        ("bar", "", 65, "okabe-ito has 8 colours"),
    ] {
        let (msg, _) = gen_error(
            &twelve(),
            &format!(
                "layers = [{{ mark = \"{mark}\", data = \"s\", x = \"k\", y = \"v\", color = {{ field = \"k\"{scale} }} }}]"
            ),
        );
        assert_eq!(
            msg,
            format!(
                "error: figure `f`: artifact.toml:6:{col}: `color` colours by `k`, which has 12 values \
                 across the paper's figures so far (k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11); \
                 {said}: give the values colours in `[style] colors`, a scheme with more colours \
                 (`scheme = \"tab20\"`), or fewer values"
            )
        );
    }
    // tab20 tells 12 apart: 12 distinct colours.
    let csv = figure_csv(
        &twelve(),
        r#"layers = [{ mark = "bar", data = "s", x = "k", y = "v", color = { field = "k", scale = { scheme = "tab20" } } }]"#,
    );
    let mut colours: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap())
        .collect();
    colours.sort();
    colours.dedup();
    assert_eq!(colours.len(), 12, "{csv}");
}

#[test]
fn greys_on_points_gives_a_near_white_first_key() {
    let csv = figure_csv(
        "k,v\na,1\nb,2\n",
        r#"layers = [{ mark = "point", data = "s", x = "k", y = "v", color = { field = "k", scale = { scheme = "greys" } } }]"#,
    );
    assert_eq!(
        csv,
        "panel,layer,mark,x,y,size,color,shape\n0,0,point,a,1,36,#888888,circle\n0,0,point,b,2,36,#5e5e5e,circle\n"
    );
}
