//! Grouped and stacked layers (issue 12): stacking arithmetic on small data,
//! and every option a layer would not use is an error at its line and
//! column (a vertical bar's `x2`, a rule's second position and `padding`
//! without groups were ignored before).

mod common;

use common::small::stderr;
use common::*;

const HEAD: &str = "[sources.s]\npath = \"d.csv\"\n\n[figures.f]\nsize = [4, 3]\nlayers = [";

const DATA: &str = "a,b,cat,sys\n1,2,x,p\n2,-3,y,p\n3,5,x,q\n4,-1,y,q\n5,4,x,p\n";

fn write(layer: &str, extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.csv"), DATA).unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        format!("{extra}{HEAD}{layer}]\n"),
    )
    .unwrap();
    dir
}

fn gen_error(layer: &str) -> String {
    let dir = write(layer, "");
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let e = stderr(&out);
    e[e.find("error: ").unwrap()..]
        .lines()
        .next()
        .unwrap()
        .to_string()
}

fn figure_csv(layer: &str) -> String {
    let dir = write(layer, "");
    gen_ok(dir.path());
    std::fs::read_to_string(dir.path().join("figures/f.csv")).unwrap()
}

#[test]
fn negative_values_stack_downwards_from_zero() {
    let csv = figure_csv(r#"{ mark = "bar", data = "s", x = "cat", y = "b", stack = true }"#);
    assert_eq!(
        csv,
        "panel,layer,mark,x,y,y2,value,color\n\
         0,0,bar,x,2,0,2,#0072b2\n\
         0,0,bar,y,-3,0,-3,#0072b2\n\
         0,0,bar,x,7,2,5,#0072b2\n\
         0,0,bar,y,-4,-3,-1,#0072b2\n\
         0,0,bar,x,11,7,4,#0072b2\n"
    );
}

#[test]
fn normalized_stacks_are_shares_of_the_group_total() {
    let csv = figure_csv(
        r#"{ mark = "bar", data = "s", x = "cat", y = "a", xOffset = "sys", stack = "normalize" }"#,
    );
    // x/p: 1 and 5 (total 6); y/p: 2; x/q: 3; y/q: 4 (negative parts are an error).
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let yy2: Vec<(f64, f64)> = rows
        .iter()
        .map(|r| (r[5].parse().unwrap(), r[6].parse().unwrap()))
        .collect();
    assert_eq!(
        yy2,
        vec![
            (1.0 / 6.0, 0.0),
            (1.0, 0.0),
            (1.0, 0.0),
            (1.0, 0.0),
            (1.0 / 6.0 + 5.0 / 6.0, 1.0 / 6.0)
        ]
    );
    assert_eq!(rows[0][4], "p");
    assert_eq!(rows[2][4], "q");
}

#[test]
fn pareto_per_group_flags_one_front_per_group() {
    let dir = write(
        r#"{ mark = "point", data = "t", x = "a", y = "b", detail = ["front", "sys"] }"#,
        "[tables.t]\nfrom = \"s\"\nsteps = [{ pareto = [\"a\", \"b\"], per = \"sys\", as = \"front\" }]\n\n",
    );
    gen_ok(dir.path());
    let csv = std::fs::read_to_string(dir.path().join("figures/f.csv")).unwrap();
    let flags: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').nth(1).unwrap())
        .collect();
    // p: (1,2) (2,-3) (5,4) -> only (5,4); q: (3,5) (4,-1) -> both.
    assert_eq!(flags, ["false", "false", "true", "true", "true"]);
}

#[test]
fn pareto_per_a_missing_field_is_an_error_not_one_pooled_front() {
    let dir = write(
        r#"{ mark = "point", data = "t", x = "a", y = "b" }"#,
        "[tables.t]\nfrom = \"s\"\nsteps = [{ pareto = [\"a\", \"b\"], per = \"corpus\" }]\n\n",
    );
    let out = artifact(dir.path(), &["gen"]);
    assert!(!out.status.success());
    let e = stderr(&out);
    assert!(
        e.contains("error: figure `f`: table `t`, step 1 (pareto, artifact.toml line 3): d.csv:2: field `corpus`: pareto: no field `corpus` (fields: a, b, cat, sys)"),
        "{e}"
    );
}

#[test]
fn xoffset_on_a_rule_is_an_error_at_the_key() {
    assert_eq!(
        gen_error(r#"{ mark = "rule", data = "s", x = "a", xOffset = "cat" }"#),
        "error: artifact.toml:6:49: `xOffset` does not apply to a `rule` layer (only to `bar`, `hist`, `point`, `text`, `errorbar`); a `rule` layer takes: mark, data, where, x, y, x2, y2, color, opacity, stroke_width, dash, label, legend, orient, detail, rasterize, z"
    );
}

#[test]
fn xoffset_on_a_line_is_an_error_at_the_key() {
    assert_eq!(
        gen_error(r#"{ mark = "line", data = "s", x = "a", y = "b", xOffset = "cat" }"#),
        "error: artifact.toml:6:58: `xOffset` does not apply to a `line` layer (only to `bar`, `hist`, `point`, `text`, `errorbar`); a `line` layer takes: mark, data, where, x, y, color, shape, opacity, stroke_width, dash, series, end_labels, label, legend, marker, marker_size, font_size, detail, rasterize, z"
    );
}

#[test]
fn yoffset_on_a_vertical_bar_is_an_error_at_the_key() {
    assert_eq!(
        gen_error(r#"{ mark = "bar", data = "s", x = "cat", y = "b", yOffset = "sys" }"#),
        "error: figure `f`: artifact.toml:6:69: `yOffset` does nothing on a vertical `bar` (it dodges along its categories: `xOffset`)"
    );
    assert_eq!(
        gen_error(
            r#"{ mark = "bar", data = "s", y = "cat", x = "b", orient = "horizontal", xOffset = "sys" }"#
        ),
        "error: figure `f`: artifact.toml:6:92: `xOffset` does nothing on a horizontal `bar` (it dodges along its categories: `yOffset`)"
    );
}

#[test]
fn padding_without_an_offset_is_an_error_not_ignored() {
    assert_eq!(
        gen_error(r#"{ mark = "bar", data = "s", x = "cat", y = "b", padding = 0.2 }"#),
        "error: figure `f`: artifact.toml:6:69: `padding` separates the groups of an `xOffset` / `yOffset`; this layer has none"
    );
    assert_eq!(
        gen_error(
            r#"{ mark = "bar", data = "s", x = "cat", y = "b", xOffset = "sys", padding = 1 }"#
        ),
        "error: figure `f`: artifact.toml:6:86: `padding` is from 0 to below 1"
    );
}

#[test]
fn band_on_a_point_without_an_offset_is_an_error() {
    assert_eq!(
        gen_error(r#"{ mark = "point", data = "s", x = "cat", y = "b", band = 0.5 }"#),
        "error: figure `f`: artifact.toml:6:68: `band` on a `point` is the width its `xOffset` / `yOffset` groups share; this layer has none"
    );
}

#[test]
fn stack_errors_name_the_key() {
    assert_eq!(
        gen_error(r#"{ mark = "bar", data = "s", x = "cat", y = "b", y2 = "a", stack = true }"#),
        "error: figure `f`: artifact.toml:6:64: stacked bars start where the previous one ends: drop `y2` (or `stack`)"
    );
    assert_eq!(
        gen_error(r#"{ mark = "bar", data = "s", x = "cat", y = "b", stack = "center" }"#),
        "error: figure `f`: artifact.toml:6:67: `stack` is true, false, \"zero\" or \"normalize\""
    );
    assert_eq!(
        gen_error(r#"{ mark = "hist", data = "s", x = "a", stack = true }"#),
        "error: figure `f`: artifact.toml:6:57: `stack` on a `hist` stacks its groups: give `color = { field = ... }` or `series`"
    );
    assert_eq!(
        gen_error(r#"{ mark = "hist", data = "s", x = "a", xOffset = "sys", stack = true }"#),
        "error: figure `f`: artifact.toml:6:74: a `hist` is either stacked or side by side (`xOffset`), not both"
    );
}

#[test]
fn a_grouped_hist_with_a_label_is_an_error() {
    assert_eq!(
        gen_error(
            r#"{ mark = "hist", data = "s", x = "a", color = { field = "sys" }, label = "all" }"#
        ),
        "error: figure `f`: artifact.toml:6:84: a `hist` with groups takes its legend entries from the groups' values: drop `label`"
    );
}

#[test]
fn a_range_on_an_offset_scale_is_an_error() {
    assert_eq!(
        gen_error(
            r#"{ mark = "bar", data = "s", x = "cat", y = "b", xOffset = { field = "sys", scale = { range = ["a", "b"] } } }"#
        ),
        "error: figure `f`: artifact.toml:6:69: `range` does nothing on `xOffset` (its sub-bands follow `domain`)"
    );
}

#[test]
fn color_by_field_on_a_rule_and_a_rect_makes_legend_entries() {
    // Before: only a `label` made an entry for these marks; a colour
    // scale drew colours with no key.
    let dir = write(
        r#"{ mark = "rule", data = "s", x = "a", color = { field = "sys" } }, { mark = "rect", data = "s", x = "a", x2 = "b", color = { field = "cat" } }"#,
        "",
    );
    gen_ok(dir.path());
    let svg = std::fs::read_to_string(dir.path().join("figures/f.svg")).unwrap();
    for key in ["p", "q", "x", "y"] {
        assert!(
            svg.contains(&format!(">\n{key}\n</text>")),
            "no legend entry {key}"
        );
    }
}

#[test]
fn an_offset_and_a_colour_by_the_same_field_make_one_legend() {
    let dir = write(
        r#"{ mark = "bar", data = "s", where = "a != 5", x = "cat", y = "a", xOffset = "sys", color = { field = "sys" } }, { mark = "errorbar", data = "s", x = "cat", y = "a", y2 = "b", xOffset = "sys" }, { mark = "point", data = "s", x = "cat", y = "a", xOffset = "sys" }"#,
        "",
    );
    gen_ok(dir.path());
    let svg = std::fs::read_to_string(dir.path().join("figures/f.svg")).unwrap();
    for key in ["p", "q"] {
        assert_eq!(
            svg.matches(&format!(">\n{key}\n</text>")).count(),
            1,
            "{key}"
        );
    }
    let csv = std::fs::read_to_string(dir.path().join("figures/f.csv")).unwrap();
    // Bars, error bars and points of one row share the sub-band: the CSV
    // names the offset of each.
    assert_eq!(csv.matches(",x,q,").count(), 3, "{csv}");
}

#[test]
fn a_later_layer_with_a_new_offset_value_does_not_shift_the_bars() {
    // The points bring `r`, which no bar has: bars and points still split
    // each band into the same three sub-bands (before, the bars took two).
    let dir = write(
        r#"{ mark = "bar", data = "s", where = "a != 5", x = "cat", y = "a", xOffset = "sys" }, { mark = "point", data = "s", x = "cat", y = "a", xOffset = "sys + ('r' if a == 5 else '')" }"#,
        "",
    );
    let spec = artifact::spec::load(&dir.path().join("artifact.toml")).unwrap();
    let plan = artifact::plan::Plan::compile(&spec).unwrap();
    let cat = artifact::tables::Catalog::new(&plan).unwrap();
    let globals = std::sync::Arc::new(artifact::expr::Globals::default());
    let plot = match artifact::figures::compile(&plan.figures["f"], &cat, &globals).unwrap() {
        artifact::figures::Outcome::Drawn(f) => f.plot,
        _ => panic!(),
    };
    use artifact::figures::model::Mark;
    let (Mark::Rects(bars), Mark::Points(pts)) =
        (&plot.panels[0].layers[0], &plot.panels[0].layers[1])
    else {
        panic!()
    };
    let slot = 0.8 / 3.0;
    // Rows 0..3 have the same offset in both layers (p, p, q, q).
    for i in 0..4 {
        let (a, z) = bars[i].x.unwrap();
        assert!(((a + z) / 2.0 - pts[i].x).abs() < 1e-12, "row {i}");
        assert!(((z - a) - slot * 0.9).abs() < 1e-12, "row {i}: {}", z - a);
    }
    // Row 4 (x, `pr`) has the third sub-band.
    assert!((pts[4].x - (-0.4 + 2.5 * slot)).abs() < 1e-12);
}
