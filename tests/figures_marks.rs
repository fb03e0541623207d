//! Issue 26, part 6, the missing marks: `arc` (pie, donut), `rule` with
//! `x2`/`y2`, `grid` on one axis, dashes as `stroke-dasharray`, opaque
//! PNGs, and a stacked legend in stack order. Each test pins the laid-out
//! geometry, the written bytes or the exact message.

mod common;
mod labels_util;

use std::path::Path;

use artifact::color::Color;
use artifact::render::layout::layout;
use artifact::render::scene::{Prim, Scene};
use labels_util::plot_of;

/// A project with `data.csv` holding `csv` and `artifact.toml` holding
/// a `data` source and `figures`.
fn project(csv: &str, figures: &str) -> tempfile::TempDir {
    let spec = format!("[sources.data]\npath = \"data.csv\"\n\n{figures}");
    let dir = common::project(&spec);
    std::fs::write(dir.path().join("data.csv"), csv).unwrap();
    dir
}

/// The wedges of a scene: (centre, inner, outer, start, end, fill).
#[allow(clippy::type_complexity)]
fn wedges(scene: &Scene) -> Vec<((f64, f64), f64, f64, f64, f64, Option<Color>)> {
    scene
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Wedge {
                cx,
                cy,
                inner,
                outer,
                start,
                end,
                fill,
                ..
            } => Some(((*cx, *cy), *inner, *outer, *start, *end, *fill)),
            _ => None,
        })
        .collect()
}

/// The scene's one-line texts as (text, x, top).
fn texts(scene: &Scene) -> Vec<(String, f64, f64)> {
    scene
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Text { text, x, y, .. } => Some((text.clone(), *x, *y)),
            _ => None,
        })
        .collect()
}

const SHARES: &str = "part,n\na,50\nb,30\nc,20\n";

#[test]
fn a_pie_s_angles_are_the_shares_from_twelve_o_clock_clockwise() {
    let dir = project(
        SHARES,
        "[figures.pie]\nsize = [4, 3]\nlayers = [{ mark = \"arc\", data = \"data\", theta = \"n\", color = { field = \"part\" } }]\n",
    );
    common::gen_ok(dir.path());
    let scene = layout(&plot_of(dir.path(), "pie"));
    let w = wedges(&scene);
    let angles: Vec<(f64, f64)> = w.iter().map(|w| (w.3, w.4)).collect();
    // 50/30/20: 180, 108 and 72 degrees, exactly, in row order.
    assert_eq!(angles, vec![(0.0, 180.0), (180.0, 288.0), (288.0, 360.0)]);
    for x in &w {
        assert_eq!(x.1, 0.0, "a pie has no hole");
    }
    // The default scheme's (Okabe–Ito's) first three colours, one per part.
    let fills: Vec<String> = w.iter().map(|x| x.5.unwrap().hex()).collect();
    assert_eq!(fills, vec!["#0072b2", "#e69f00", "#009e73"]);
    let csv = common::csv(dir.path(), "pie");
    let shares: Vec<&str> = csv.iter().map(|r| r["share"].as_str()).collect();
    assert_eq!(shares, vec!["0.5", "0.3", "0.2"]);
}

#[test]
fn a_pie_has_no_axes_and_a_legend_of_its_colours() {
    let dir = project(
        SHARES,
        "[figures.pie]\nsize = [4, 3]\nlayers = [{ mark = \"arc\", data = \"data\", theta = \"n\", color = { field = \"part\" } }]\n",
    );
    common::gen_ok(dir.path());
    let plot = plot_of(dir.path(), "pie");
    let labels: Vec<&str> = plot.panels[0]
        .legend
        .entries
        .iter()
        .map(|e| e.label.as_str())
        .collect();
    assert_eq!(labels, vec!["a", "b", "c"]);
    let scene = layout(&plot);
    // No frame, no ticks: the only paths are the legend's.
    let paths = scene
        .prims
        .iter()
        .filter(|p| matches!(p, Prim::Path { closed: false, .. }))
        .count();
    assert_eq!(paths, 0);
    let t: Vec<String> = texts(&scene).into_iter().map(|t| t.0).collect();
    assert_eq!(t, vec!["a", "b", "c"], "no tick labels, only the legend");
}

#[test]
fn a_donut_keeps_its_inner_radius_and_labels_the_ring_with_percentages() {
    let dir = project(
        SHARES,
        "[figures.donut]\nsize = [4, 3]\nlegend = { position = \"none\" }\nlayers = [{ mark = \"arc\", data = \"data\", theta = \"n\", color = { field = \"part\" }, innerRadius = 30, outerRadius = 80, text = { field = \"share\", format = { places = 0, percent = true } } }]\n",
    );
    common::gen_ok(dir.path());
    let scene = layout(&plot_of(dir.path(), "donut"));
    let w = wedges(&scene);
    assert_eq!(w.len(), 3);
    for x in &w {
        assert_eq!((x.1, x.2), (30.0, 80.0));
    }
    let c = w[0].0;
    let t = texts(&scene);
    let words: Vec<&str> = t.iter().map(|t| t.0.as_str()).collect();
    assert_eq!(words, vec!["50%", "30%", "20%"]);
    // Each label is centred halfway across the ring at its wedge's middle
    // angle: 50% at 90 degrees (3 o'clock), on the centre's height.
    let (_, x, top) = &t[0];
    assert!((x - (c.0 + 55.0)).abs() < 1e-9, "{x} {c:?}");
    let h = artifact::font::block("50%", 10.0).1;
    assert!((top + h / 2.0 - c.1).abs() < 1e-9, "{top} {c:?}");
}

#[test]
fn an_arc_beside_a_bar_is_an_error_at_the_bar() {
    let dir = project(
        SHARES,
        "[figures.f]\nsize = [4, 3]\nlayers = [\n  { mark = \"arc\", data = \"data\", theta = \"n\" },\n  { mark = \"bar\", data = \"data\", x = \"part\", y = \"n\" },\n]\n",
    );
    let out = common::artifact(dir.path(), &["gen"]);
    assert!(!out.status.success());
    assert!(
        common::stderr(&out).contains("artifact.toml:8:3: a `bar` layer needs x and y axes, which a panel of `arc`s does not have: draw it in a panel of its own"),
        "{}",
        common::stderr(&out)
    );
}

#[test]
fn x_on_an_arc_is_an_error_at_its_line_and_column() {
    let dir = project(
        SHARES,
        "[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"arc\", data = \"data\", theta = \"n\", x = \"part\" }]\n",
    );
    let out = common::artifact(dir.path(), &["gen"]);
    assert!(!out.status.success());
    let err = common::stderr(&out);
    assert!(
        err.contains("artifact.toml:6:55: `x` does not apply to an `arc` layer"),
        "{err}"
    );
}

#[test]
fn a_negative_theta_is_an_error_naming_the_row() {
    let dir = project(
        "part,n\na,5\nb,-1\n",
        "[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"arc\", data = \"data\", theta = \"n\" }]\n",
    );
    let out = common::artifact(dir.path(), &["gen"]);
    let err = common::stderr(&out);
    assert!(
        err.contains("data.csv:3") && err.contains("a wedge cannot be negative"),
        "{err}"
    );
}

#[test]
fn a_rule_with_y2_is_a_stem_from_y_to_y2_at_x() {
    let dir = project(
        "b,s\np,2\nq,3\n",
        "[figures.f]\nsize = [4, 3]\ny = { domain = [0, 4] }\nlayers = [{ mark = \"rule\", data = \"data\", x = \"b\", y = 0, y2 = \"s\", stroke_width = 2 }]\n",
    );
    common::gen_ok(dir.path());
    let plot = plot_of(dir.path(), "f");
    let artifact::figures::model::Mark::Rules(items) = &plot.panels[0].layers[0] else {
        panic!("{:?}", plot.panels[0].layers[0]);
    };
    let kinds: Vec<_> = items.iter().map(|r| r.kind.clone()).collect();
    use artifact::figures::model::RuleKind::Segment;
    assert_eq!(
        kinds,
        vec![
            Segment((0.0, 0.0), (0.0, 2.0)),
            Segment((1.0, 0.0), (1.0, 3.0))
        ]
    );
    // Laid out: vertical, from the y = 0 edge up to 2 and 3 (of 4).
    let scene = layout(&plot);
    let stems = labels_util::paths(&scene, 2.0);
    assert_eq!(stems.len(), 2);
    for s in &stems {
        assert_eq!(s[0].0, s[1].0, "vertical");
    }
    // From one base (y = 0) up: lengths 2 and 3 data units.
    assert_eq!(stems[0][0].1, stems[1][0].1);
    let len = |s: &Vec<(f64, f64)>| s[0].1 - s[1].1;
    assert!((len(&stems[0]) / len(&stems[1]) - 2.0 / 3.0).abs() < 1e-9);
    let csv = common::csv(dir.path(), "f");
    assert_eq!(
        (
            csv[1]["x"].as_str(),
            csv[1]["y"].as_str(),
            csv[1]["x2"].as_str(),
            csv[1]["y2"].as_str()
        ),
        ("1", "0", "1", "3")
    );
}

#[test]
fn a_rule_with_x2_and_y2_runs_between_its_two_points() {
    let dir = project(
        "a,b,c,d\n1,1,3,2\n",
        "[figures.f]\nsize = [4, 3]\nx = { domain = [0, 4] }\ny = { domain = [0, 4] }\nlayers = [{ mark = \"rule\", data = \"data\", x = \"a\", y = \"b\", x2 = \"c\", y2 = \"d\", stroke_width = 2 }]\n",
    );
    common::gen_ok(dir.path());
    let scene = layout(&plot_of(dir.path(), "f"));
    let seg = &labels_util::paths(&scene, 2.0)[0];
    let (a, b) = (seg[0], seg[1]);
    // Width 2 data units, height 1: the slope in points follows the axes.
    assert!(b.0 > a.0 && b.1 < a.1, "{a:?} {b:?}");
    let plot = plot_of(dir.path(), "f");
    let artifact::figures::model::Mark::Rules(items) = &plot.panels[0].layers[0] else {
        panic!()
    };
    assert_eq!(
        items[0].kind,
        artifact::figures::model::RuleKind::Segment((1.0, 1.0), (3.0, 2.0))
    );
}

#[test]
fn y2_on_a_rule_without_y_is_an_error_at_y2() {
    let dir = project(
        "b,s\np,2\n",
        "[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"rule\", data = \"data\", x = \"b\", y2 = \"s\" }]\n",
    );
    let out = common::artifact(dir.path(), &["gen"]);
    let err = common::stderr(&out);
    assert!(
        err.contains("artifact.toml:6:57: `y2` needs `y`: a rule's segment runs from `y` to `y2`"),
        "{err}"
    );
}

/// The grid's lines (light grey, 0.6 pt) as (vertical, horizontal) counts.
fn grid_lines(scene: &Scene) -> (usize, usize) {
    let grey = Color::rgb(0xe3, 0xe3, 0xe3);
    let mut n = (0, 0);
    for p in &scene.prims {
        if let Prim::Path {
            pts,
            stroke: Some(s),
            ..
        } = p
            && s.color == grey
        {
            if pts[0].0 == pts[1].0 {
                n.0 += 1;
            } else {
                n.1 += 1;
            }
        }
    }
    n
}

#[test]
fn grid_y_draws_horizontal_lines_only_and_grid_x_vertical_ones() {
    let fig = |grid: &str| {
        format!(
            "[figures.f]\nsize = [4, 3]\ngrid = {grid}\nx = {{ domain = [0, 10], ticks = [0, 5, 10] }}\ny = {{ domain = [0, 1], ticks = [0, 0.25, 0.5, 0.75, 1] }}\nlayers = [{{ mark = \"point\", data = \"data\", x = \"a\", y = \"b\" }}]\n"
        )
    };
    let mut counts = Vec::new();
    for g in ["\"y\"", "\"x\"", "true"] {
        let dir = project("a,b\n1,0.5\n", &fig(g));
        common::gen_ok(dir.path());
        counts.push(grid_lines(&layout(&plot_of(dir.path(), "f"))));
    }
    assert_eq!(counts, vec![(0, 5), (3, 0), (3, 5)]);
}

#[test]
fn grid_z_is_an_error_naming_the_choices() {
    let dir = project(
        "a,b\n1,0.5\n",
        "[figures.f]\nsize = [4, 3]\ngrid = \"z\"\nlayers = [{ mark = \"point\", data = \"data\", x = \"a\", y = \"b\" }]\n",
    );
    let err = common::stderr(&common::artifact(dir.path(), &["gen"]));
    assert!(err.contains("artifact.toml:6:8:"), "{err}");
}

#[test]
fn a_dashed_rule_is_one_polyline_with_stroke_dasharray_not_one_per_dash() {
    let dir = project(
        "a,b\n1,0.5\n",
        "[figures.f]\nsize = [4, 3]\nlayers = [\n  { mark = \"point\", data = \"data\", x = \"a\", y = \"b\" },\n  { mark = \"rule\", y = 0.5, dash = \"dashed\", stroke_width = 1, color = \"#d62728\" },\n]\n",
    );
    common::gen_ok(dir.path());
    let svg = std::fs::read_to_string(dir.path().join("figures/f.svg")).unwrap();
    let red: Vec<&str> = svg.lines().filter(|l| l.contains("#D62728")).collect();
    assert_eq!(red.len(), 1, "{red:?}");
    // matplotlib's dashed pattern at 1 pt: 3.7 on, 1.6 off (in 0.1 pt units).
    assert!(
        red[0].starts_with("<polyline fill=\"none\" stroke=\"#D62728\" stroke-width=\"10\" stroke-dasharray=\"37,16\" points=\""),
        "{}",
        red[0]
    );
}

/// The top-left pixel of a PNG as RGBA.
fn corner(path: &Path) -> [u8; 4] {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    [buf[0], buf[1], buf[2], buf[3]]
}

#[test]
fn a_png_is_opaque_white_by_default_and_transparent_with_background_none() {
    let fig = |extra: &str| {
        format!(
            "[output]\nformats = [\"png\"]\ndpi = 50\n{extra}\n[figures.f]\nsize = [2, 2]\nlayers = [{{ mark = \"point\", data = \"data\", x = \"a\", y = \"b\" }}]\n"
        )
    };
    let mut seen = Vec::new();
    for extra in ["", "background = \"none\"", "background = \"transparent\""] {
        let dir = project("a,b\n1,0.5\n", &fig(extra));
        common::gen_ok(dir.path());
        seen.push(corner(&dir.path().join("figures/f.png")));
    }
    assert_eq!(seen, vec![[255, 255, 255, 255], [0, 0, 0, 0], [0, 0, 0, 0]]);
}

#[test]
fn a_vertical_stack_s_legend_lists_the_top_of_the_stack_first() {
    let dir = project(
        "s,phase,ms\nx,load,1\nx,compute,2\nx,write,3\n",
        "[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"bar\", data = \"data\", x = \"s\", y = \"ms\", color = { field = \"phase\" }, stack = true }]\n",
    );
    common::gen_ok(dir.path());
    let plot = plot_of(dir.path(), "f");
    let labels: Vec<&str> = plot.panels[0]
        .legend
        .entries
        .iter()
        .map(|e| e.label.as_str())
        .collect();
    // `write` is stacked last, on top: first in the legend (Vega-Lite, ggplot2).
    assert_eq!(labels, vec!["write", "compute", "load"]);
    let artifact::figures::model::Mark::Rects(bars) = &plot.panels[0].layers[0] else {
        panic!()
    };
    let tops: Vec<f64> = bars.iter().map(|b| b.y.unwrap().1).collect();
    assert_eq!(tops, vec![1.0, 3.0, 6.0]);
}

#[test]
fn a_horizontal_stack_s_legend_keeps_the_base_first() {
    let dir = project(
        "s,phase,ms\nx,load,1\nx,compute,2\n",
        "[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"bar\", orient = \"horizontal\", data = \"data\", y = \"s\", x = \"ms\", color = { field = \"phase\" }, stack = true }]\n",
    );
    common::gen_ok(dir.path());
    let plot = plot_of(dir.path(), "f");
    let labels: Vec<&str> = plot.panels[0]
        .legend
        .entries
        .iter()
        .map(|e| e.label.as_str())
        .collect();
    // Read left to right, as the stack grows.
    assert_eq!(labels, vec!["load", "compute"]);
}

#[test]
fn an_inner_radius_at_or_above_the_outer_is_an_error_at_inner_radius() {
    let dir = project(
        SHARES,
        "[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"arc\", data = \"data\", theta = \"n\", innerRadius = 50, outerRadius = 50 }]\n",
    );
    let err = common::stderr(&common::artifact(dir.path(), &["gen"]));
    assert!(
        err.contains("artifact.toml:6:69: an arc's `innerRadius` (50) must be below its `outerRadius` (50): the hole would cover the ring"),
        "{err}"
    );
}

#[test]
fn a_thin_wedge_s_label_goes_outside_the_pie_clear_of_its_neighbour() {
    let dir = project(
        "part,n\na,96\nb,3\nc,1\n",
        "[figures.f]\nsize = [4, 3]\nlegend = { position = \"none\" }\nlayers = [{ mark = \"arc\", data = \"data\", theta = \"n\", color = { field = \"part\" }, text = { field = \"share\", format = { places = 0, percent = true } } }]\n",
    );
    common::gen_ok(dir.path());
    let scene = layout(&plot_of(dir.path(), "f"));
    let w = wedges(&scene);
    let (c, outer) = (w[0].0, w[0].2);
    let labels = labels_util::texts(&scene, 10.0);
    let words: Vec<&str> = labels.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(words, vec!["96%", "3%", "1%"]);
    // The big wedge's label inside, at 0.6 of the radius.
    let (x, y) = labels[0].bx.centre();
    assert!(((x - c.0).hypot(y - c.1) - 0.6 * outer).abs() < 1e-6);
    // The thin ones outside the circle, off each other, on the canvas.
    for l in &labels[1..] {
        assert!(l.bx.dist(c) > outer, "{} {:?}", l.text, l.bx);
        assert!(l.bx.y0 >= 0.0, "{} {:?}", l.text, l.bx);
    }
    assert!(!labels[1].bx.overlaps(&labels[2].bx));
}
