//! Axes that read right (issue 26, part 4): a log axis of less than a
//! decade gets labelled ticks; bars on a log axis grow from 1 (or their
//! stated `y2`); rows outside a fixed domain are counted in a note; a
//! scientific axis factors its power of ten once at the axis's end;
//! integer data gets integer ticks. Each test reads the laid-out scene.

mod common;

use std::path::Path;

use artifact::figures::model::{Align, Plot};
use artifact::figures::{Outcome, compile};
use artifact::render::geometry::Area;
use artifact::render::layout::{Scale, layout, plot_areas};
use artifact::render::scene::{Prim, Scene};
use common::*;

/// The figure `name` of the spec in `dir`, compiled (not laid out).
fn plot_of(dir: &Path, name: &str) -> Plot {
    let spec = artifact::spec::load(&dir.join("artifact.toml")).unwrap();
    let plan = artifact::plan::Plan::compile(&spec).unwrap();
    let cat = artifact::tables::Catalog::new(&plan).unwrap();
    let (_, globals) = artifact::numbers::compute(&spec, &cat, &|_, _| None);
    match compile(&plan.figures[name], &cat, &globals).unwrap() {
        Outcome::Drawn(f) => f.plot,
        Outcome::Skipped(why) => panic!("{why}"),
    }
}

/// A spec of one figure `f` over source `s` with `rows` (inline TOML)
/// and the figure's body `figure`, compiled and laid out.
fn laid_out(rows: &str, figure: &str) -> (Plot, Scene, Area) {
    let dir = project(&format!(
        "[sources.s]\nrows = [{rows}]\n\n[figures.f]\n{figure}"
    ));
    let plot = plot_of(dir.path(), "f");
    let scene = layout(&plot);
    let area = plot_areas(&plot)[0];
    (plot, scene, area)
}

/// Level texts (text, x, y, align) of the scene.
fn level_texts(s: &Scene) -> Vec<(String, f64, f64, Align)> {
    s.prims
        .iter()
        .filter_map(|p| match p {
            Prim::Text {
                text,
                x,
                y,
                align,
                vertical: false,
                ..
            } => Some((text.clone(), *x, *y, *align)),
            _ => None,
        })
        .collect()
}

/// The y axis's tick labels, bottom to top: right-aligned left of the plot.
fn y_labels(s: &Scene, area: &Area) -> Vec<String> {
    let mut t: Vec<_> = level_texts(s)
        .into_iter()
        .filter(|(_, x, y, a)| *a == Align::Right && *x < area.x0 && *y <= area.y1 + 1.0)
        .collect();
    t.sort_by(|a, b| b.2.total_cmp(&a.2));
    t.into_iter().map(|(l, ..)| l).collect()
}

/// The x axis's tick labels, left to right: centred below the plot.
fn x_labels(s: &Scene, area: &Area) -> Vec<String> {
    let mut t: Vec<_> = level_texts(s)
        .into_iter()
        .filter(|(_, _, y, a)| *a == Align::Center && *y > area.y1 && *y < area.y1 + 20.0)
        .collect();
    t.sort_by(|a, b| a.1.total_cmp(&b.1));
    t.into_iter().map(|(l, ..)| l).collect()
}

#[test]
fn log_axis_under_a_decade_gets_labelled_ticks() {
    // 150..260 ns holds no decade and only one 1-2-5 multiple (200): it
    // had no tick label at all.
    let (_, s, area) = laid_out(
        "{ a = 1, ns = 170 }, { a = 2, ns = 240 }",
        "size = [4, 3]\ny = { scale = \"log\", domain = [150, 260] }\nlayers = [{ mark = \"point\", data = \"s\", x = \"a\", y = \"ns\" }]\n",
    );
    assert_eq!(
        y_labels(&s, &area),
        ["160", "180", "200", "220", "240", "260"]
    );
    // Where room is short, a coarser step: still two labels or more.
    let (_, s, area) = laid_out(
        "{ a = 1, ns = 170 }, { a = 2, ns = 240 }",
        "size = [4, 1.2]\ny = { scale = \"log\", domain = [150, 260] }\nlayers = [{ mark = \"point\", data = \"s\", x = \"a\", y = \"ns\" }]\n",
    );
    assert_eq!(y_labels(&s, &area), ["150", "250"]);
}

#[test]
fn log_axis_under_a_decade_labels_2_3_and_5_multiples() {
    // 250..650: one 1-2-5 multiple (500); the 3s make two.
    let (_, s, area) = laid_out(
        "{ a = 1, ns = 170 }, { a = 2, ns = 600 }",
        "size = [4, 3]\nx = { scale = \"log\", domain = [250, 650] }\nlayers = [{ mark = \"point\", data = \"s\", y = \"a\", x = \"ns\" }]\n",
    );
    assert_eq!(x_labels(&s, &area), ["300", "500"]);
    let (_, s, area) = laid_out(
        "{ a = 1, ns = 250 }, { a = 2, ns = 450 }",
        "size = [4, 3]\nx = { scale = \"log\", domain = [250, 450] }\nlayers = [{ mark = \"point\", data = \"s\", y = \"a\", x = \"ns\" }]\n",
    );
    assert_eq!(x_labels(&s, &area), ["300", "400"]);
}

/// The filled rects of the scene: (top, bottom) in points.
fn bar_ys(s: &Scene) -> Vec<(f64, f64)> {
    s.prims
        .iter()
        .filter_map(|p| match p {
            Prim::Rect {
                y,
                h,
                fill: Some(_),
                ..
            } => Some((*y, *y + *h)),
            _ => None,
        })
        .collect()
}

#[test]
fn log_bar_below_1_is_drawn_down_from_1() {
    // A speedup of 0.375x was drawn as an upward bar from the axis's
    // low end, as tall as a gain.
    let (plot, s, area) = laid_out(
        "{ k = \"a\", speedup = 0.375 }, { k = \"b\", speedup = 2.5 }, { k = \"c\", speedup = 8 }",
        "size = [4, 3]\ny = { scale = \"log\" }\nlayers = [{ mark = \"bar\", data = \"s\", x = \"k\", y = \"speedup\" }]\n",
    );
    let sy = Scale::new(&plot.panels[0].y, area.y1, area.y0);
    let bars = bar_ys(&s);
    assert_eq!(bars.len(), 3);
    // y grows upward: a bar's top is the smaller y.
    let (top, bottom) = bars[0];
    assert!((top - sy.map(1.0)).abs() < 1e-6, "{bars:?}");
    assert!((bottom - sy.map(0.375)).abs() < 1e-6, "{bars:?}");
    for (i, v) in [(1, 2.5), (2, 8.0)] {
        assert!((bars[i].0 - sy.map(v)).abs() < 1e-6, "{bars:?}");
        assert!((bars[i].1 - sy.map(1.0)).abs() < 1e-6, "{bars:?}");
    }
    // The domain reaches down to the lowest bar with its margin.
    assert!(plot.panels[0].y.domain.0 < 0.375);
}

#[test]
fn log_bar_grows_from_its_stated_base() {
    let (plot, s, area) = laid_out(
        "{ k = \"a\", v = 50 }, { k = \"b\", v = 400 }",
        "size = [4, 3]\ny = { scale = \"log\" }\nlayers = [{ mark = \"bar\", data = \"s\", x = \"k\", y = \"v\", y2 = 100 }]\n",
    );
    let sy = Scale::new(&plot.panels[0].y, area.y1, area.y0);
    let bars = bar_ys(&s);
    assert!((bars[0].0 - sy.map(100.0)).abs() < 1e-6, "{bars:?}");
    assert!((bars[0].1 - sy.map(50.0)).abs() < 1e-6, "{bars:?}");
    assert!((bars[1].0 - sy.map(400.0)).abs() < 1e-6, "{bars:?}");
    assert!((bars[1].1 - sy.map(100.0)).abs() < 1e-6, "{bars:?}");
}

#[test]
fn rows_outside_a_fixed_domain_are_counted_in_a_note() {
    // fig2 lost 140 of its 388 points to its domain without a word.
    let dir = project(
        "[sources.s]\nrows = [{ a = 1, b = 1 }, { a = 5, b = 2 }, { a = 12, b = 3 }, { a = -1, b = 4 }, { a = 9, b = 5 }]\n\n\
         [figures.f]\nsize = [3, 2]\nx = { domain = [0, 10] }\n\
         layers = [{ mark = \"point\", data = \"s\", x = \"a\", y = \"b\" }]\n\n\
         [figures.g]\nsize = [3, 4]\n\n[[figures.g.panels]]\nx = { domain = [0, 10] }\ny = { domain = [0, 3] }\n\
         layers = [{ mark = \"line\", data = \"s\", x = \"a\", y = \"b\" }]\n\n\
         [[figures.g.panels]]\nlayers = [{ mark = \"point\", data = \"s\", x = \"a\", y = \"b\" }]\n",
    );
    let out = gen_ok(dir.path());
    let err = stderr(&out);
    assert!(
        err.contains("note: figure `f`: layer 1 (point): 2 of 5 rows have x outside the axis's domain [0, 10] and are not drawn\n"),
        "{err}"
    );
    assert!(
        err.contains("note: figure `g`: panel 1, layer 1 (line): 3 of 5 rows have x or y outside the axes' domains (x [0, 10]: 2 rows, y [0, 3]: 2 rows) and are not drawn\n"),
        "{err}"
    );
    // The panel without a fixed domain, and rows inside, make no note.
    assert_eq!(err.matches("note: figure").count(), 2, "{err}");
}

#[test]
fn a_single_row_outside_is_named_in_the_singular() {
    let dir = project(
        "[sources.s]\nrows = [{ a = 1, b = 1 }, { a = 50, b = 2 }]\n\n\
         [figures.f]\nsize = [3, 2]\nx = { domain = [0, 10] }\n\
         layers = [{ mark = \"point\", data = \"s\", x = \"a\", y = \"b\" }]\n",
    );
    let err = stderr(&gen_ok(dir.path()));
    assert!(
        err.contains("note: figure `f`: layer 1 (point): 1 of 2 rows has x outside the axis's domain [0, 10] and is not drawn\n"),
        "{err}"
    );
}

#[test]
fn scientific_axis_factors_its_power_once_at_the_axis_end() {
    // "×10⁶" was repeated on every label.
    let (_, s, area) = laid_out(
        "{ p = 1e8, j = 2.5e5 }, { p = 5e8, j = 1.5e6 }, { p = 9.6e8, j = 3.0e6 }",
        "size = [4, 3]\nx = { format = { exponent-mode = \"scientific\" } }\ny = { format = { exponent-mode = \"scientific\" } }\nlayers = [{ mark = \"point\", data = \"s\", x = \"p\", y = \"j\" }]\n",
    );
    let t = level_texts(&s);
    let powers: Vec<_> = t.iter().filter(|(l, ..)| l.starts_with('×')).collect();
    assert_eq!(powers.len(), 2, "{t:?}");
    // y: once, above the plot, starting at the axis.
    let y6 = powers.iter().find(|(l, ..)| l == "×10⁶").expect("×10⁶");
    assert_eq!((y6.1, y6.3), (area.x0, Align::Left));
    assert!(y6.2 < area.y0, "{y6:?} {area:?}");
    // x: once, right-aligned at the axis's end, below the tick labels.
    let x9 = powers.iter().find(|(l, ..)| l == "×10⁹").expect("×10⁹");
    assert_eq!((x9.1, x9.3), (area.x1, Align::Right));
    let label_y = t.iter().find(|(l, ..)| l == "0.2").expect("0.2").2;
    assert!(x9.2 > label_y + 5.0, "{x9:?}");
    // The labels themselves are plain mantissas.
    assert_eq!(
        y_labels(&s, &area),
        ["0.5", "1.0", "1.5", "2.0", "2.5", "3.0"]
    );
    assert_eq!(x_labels(&s, &area), ["0.2", "0.4", "0.6", "0.8", "1.0"]);
}

#[test]
fn huge_and_tiny_values_factor_their_power_without_a_format() {
    // A 10⁶-point scatter of sizes up to 10⁹ read `250000000 ... 1000000000`.
    let (_, s, area) = laid_out(
        "{ p = 1e8, j = 2e-5 }, { p = 5e8, j = 5e-5 }, { p = 9.6e8, j = 9e-5 }",
        "size = [4, 3]\nlayers = [{ mark = \"point\", data = \"s\", x = \"p\", y = \"j\" }]\n",
    );
    let t = level_texts(&s);
    let powers: Vec<&str> = t
        .iter()
        .filter(|(l, ..)| l.starts_with('×'))
        .map(|(l, ..)| l.as_str())
        .collect();
    assert_eq!(powers, ["×10⁹", "×10⁻⁵"], "{t:?}");
    assert_eq!(x_labels(&s, &area), ["0.2", "0.4", "0.6", "0.8", "1.0"]);
    assert_eq!(y_labels(&s, &area), ["2", "4", "6", "8"]);
    // Below 10⁶ the labels stay plain, as in matplotlib.
    let (_, s, area) = laid_out(
        "{ p = 1e5, j = 1 }, { p = 9e5, j = 2 }",
        "size = [4, 3]\nlayers = [{ mark = \"point\", data = \"s\", x = \"p\", y = \"j\" }]\n",
    );
    assert!(level_texts(&s).iter().all(|(l, ..)| !l.starts_with('×')));
    assert_eq!(x_labels(&s, &area)[0], "200000");
}

#[test]
fn a_colour_bar_of_huge_values_factors_its_power_above_its_labels() {
    let (_, s, area) = laid_out(
        "{ b = \"a\", c = \"x\", v = 1e6 }, { b = \"b\", c = \"x\", v = 1.2e9 }",
        "size = [4, 3]\nlayers = [{ mark = \"rect\", data = \"s\", x = \"b\", y = \"c\", color = { field = \"v\", title = \"bytes\", scale = { scheme = \"viridis\" } } }]\n",
    );
    let t = level_texts(&s);
    let right: Vec<&(String, f64, f64, Align)> =
        t.iter().filter(|(_, x, ..)| *x > area.x1).collect();
    let texts: Vec<&str> = right.iter().map(|(l, ..)| l.as_str()).collect();
    assert_eq!(
        texts,
        ["bytes", "×10⁹", "0.2", "0.4", "0.6", "0.8", "1.0", "1.2"],
        "{t:?}"
    );
    // The power sits between the title and the top label.
    let y = |l: &str| right.iter().find(|(t, ..)| t == l).unwrap().2;
    assert!(y("bytes") < y("×10⁹") && y("×10⁹") < y("1.2"), "{right:?}");
}

#[test]
fn integer_data_gets_integer_ticks() {
    // A count axis 0..3 got ticks at 0.5, 1.5, 2.5.
    let (plot, s, area) = laid_out(
        "{ a = 0, n = 0 }, { a = 1, n = 3 }, { a = 2, n = 1 }",
        "size = [3, 3]\nlayers = [{ mark = \"point\", data = \"s\", x = \"a\", y = \"n\" }]\n",
    );
    assert!(plot.panels[0].y.integer);
    assert_eq!(y_labels(&s, &area), ["0", "1", "2", "3"]);
    // 0..10 where room asks for a step of 2.5: 5 instead.
    let (_, s, area) = laid_out(
        "{ a = 0, n = 0 }, { a = 10, n = 10 }",
        "size = [2.2, 2]\nx = { domain = [0, 10] }\nlayers = [{ mark = \"point\", data = \"s\", x = \"a\", y = \"n\" }]\n",
    );
    assert_eq!(x_labels(&s, &area), ["0", "5", "10"]);
    // A fractional value: the usual 1-2-2.5-5 steps.
    let (plot, s, area) = laid_out(
        "{ a = 0, n = 0 }, { a = 10, n = 10 }, { a = 5, n = 2.5 }",
        "size = [2.2, 2]\nx = { domain = [0, 10] }\nlayers = [{ mark = \"point\", data = \"s\", x = \"n\", y = \"a\" }]\n",
    );
    assert!(!plot.panels[0].x.integer);
    assert_eq!(x_labels(&s, &area), ["0.0", "2.5", "5.0", "7.5", "10.0"]);
}

#[test]
fn one_integer_value_gets_one_whole_tick_not_halves() {
    // One value: the axis is 4.45..5.55; the fewest-ticks rule gave 4.5
    // and 5.5.
    let (_, s, area) = laid_out(
        "{ a = 1, n = 5 }, { a = 2, n = 5 }",
        "size = [3, 2]
layers = [{ mark = \"point\", data = \"s\", x = \"a\", y = \"n\" }]
",
    );
    assert_eq!(y_labels(&s, &area), ["5"]);
}
