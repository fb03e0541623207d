//! The axes gallery (examples/gallery/axes) and the layout bugs of issue
//! 12: log axes at 0, symlog, tick formats, turned and thinned labels,
//! wrapped titles, aligned panel grids, and the layout lint.

mod common;

use std::path::Path;

use artifact::figures::{Outcome, compile};
use artifact::render::geometry::Area;
use artifact::render::layout::{layout, plot_areas};
use artifact::render::lint::problems;
use artifact::render::scene::{Prim, Scene};
use common::small::stderr;
use common::*;

const GALLERY: &str = "examples/gallery/axes";

fn gallery_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join(GALLERY), dir.path());
    dir
}

/// The figure `name` of the spec in `dir`, compiled and laid out.
fn plot_of(dir: &Path, name: &str) -> artifact::figures::model::Plot {
    let spec = artifact::spec::load(&dir.join("artifact.toml")).unwrap();
    let plan = artifact::plan::Plan::compile(&spec).unwrap();
    let cat = artifact::tables::Catalog::new(&plan).unwrap();
    let (_, globals) = artifact::numbers::compute(&spec, &cat, &|_, _| None);
    match compile(&plan.figures[name], &cat, &globals).unwrap() {
        Outcome::Drawn(f) => f.plot,
        Outcome::Skipped(why) => panic!("{why}"),
    }
}

fn scene_of(dir: &Path, name: &str) -> Scene {
    layout(&plot_of(dir, name))
}

fn texts(s: &Scene) -> Vec<String> {
    s.prims
        .iter()
        .filter_map(|p| match p {
            Prim::Text { text, .. } | Prim::TextRotated { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

fn column(csv_text: &str, name: &str) -> Vec<String> {
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let i = r.headers().unwrap().iter().position(|h| h == name).unwrap();
    r.records().map(|x| x.unwrap()[i].to_string()).collect()
}

const FIGURES: [&str; 9] = [
    "loglog_latency",
    "symlog_change",
    "percent_hitrate",
    "si_throughput",
    "scientific_energy",
    "long_categories",
    "label_angle",
    "grid_2x2",
    "wrapped_title_legend",
];

#[test]
fn gallery_outputs_are_current() {
    let dir = gallery_copy();
    let out = artifact(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn gallery_figures_have_no_layout_problems() {
    let dir = gallery_copy();
    for name in FIGURES {
        let s = scene_of(dir.path(), name);
        assert_eq!(problems(&s), Vec::<String>::new(), "figure {name}");
    }
}

#[test]
fn gallery_csvs_hold_the_data_drawn() {
    let dir = gallery_copy();
    gen_ok(dir.path());
    let read = |p: &str| std::fs::read_to_string(dir.path().join(p)).unwrap();
    // Each store's bar ends at its throughput and grows from 1 (a log
    // axis has no 0; issue 26).
    let data = read("data/throughput.csv");
    let fig = read("figures/si_throughput.csv");
    assert_eq!(column(&fig, "x"), column(&data, "ops_per_s"));
    assert_eq!(column(&fig, "y"), column(&data, "store"));
    assert!(column(&fig, "x2").iter().all(|v| v == "1"));
    // symlog draws the signed values as they are.
    let data = read("data/change.csv");
    let fig = read("figures/symlog_change.csv");
    let drawn: Vec<f64> = column(&fig, "y")[1..]
        .iter()
        .map(|v| v.parse().unwrap())
        .collect();
    let want: Vec<f64> = column(&data, "change_pct")
        .iter()
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(drawn, want);
    assert!(want.iter().any(|v| *v < -100.0) && want.iter().any(|v| *v > 100.0));
}

#[test]
fn log_bar_axis_grows_bars_from_1() {
    let dir = gallery_copy();
    let plot = plot_of(dir.path(), "si_throughput");
    // Domain: from the bars' base 1 (sticky: no margin below it) to the
    // data's top plus 5% of the decades, as matplotlib autoscales.
    let data = std::fs::read_to_string(dir.path().join("data/throughput.csv")).unwrap();
    let v: Vec<f64> = column(&data, "ops_per_s")
        .iter()
        .map(|x| x.parse().unwrap())
        .collect();
    let hi = v.iter().copied().fold(0.0, f64::max).log10();
    let m = hi * 0.05;
    assert_eq!(plot.panels[0].x.domain.0, 1.0);
    assert!((plot.panels[0].x.domain.1 - 10f64.powf(hi + m)).abs() < 1e-3);
    let area = plot_areas(&plot)[0];
    let s = layout(&plot);
    let bars: Vec<f64> = s
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Rect {
                x, fill: Some(_), ..
            } => Some(*x),
            _ => None,
        })
        .collect();
    assert_eq!(bars.len(), 7);
    assert!(bars.iter().all(|x| (x - area.x0).abs() < 1e-9), "{bars:?}");
    let t = texts(&s);
    for label in ["1 ops/s", "1 kops/s", "1 Mops/s", "1 Gops/s"] {
        assert!(t.contains(&label.to_string()), "{t:?}");
    }
}

#[test]
fn symlog_ticks_are_zero_and_signed_decades() {
    let dir = gallery_copy();
    let t = texts(&scene_of(dir.path(), "symlog_change"));
    for label in ["−100", "−10", "0", "10", "100"] {
        assert!(t.contains(&label.to_string()), "{t:?}");
    }
}

#[test]
fn percent_and_scientific_formats_write_the_tick_labels() {
    let dir = gallery_copy();
    let t = texts(&scene_of(dir.path(), "percent_hitrate"));
    for label in ["30%", "50%", "100%"] {
        assert!(t.contains(&label.to_string()), "{t:?}");
    }
    // The power of ten factored out once per axis (issue 26).
    let t = texts(&scene_of(dir.path(), "scientific_energy"));
    for label in ["0.2", "1.0", "×10⁹", "1", "3", "×10⁶"] {
        assert!(t.contains(&label.to_string()), "{t:?}");
    }
    assert!(
        !t.iter().any(|l| l.contains('×') && l.len() > "×10⁹".len()),
        "{t:?}"
    );
}

/// The turned tick labels: (text, anchor x, angle, align).
fn turned(s: &Scene) -> Vec<(String, f64, f64, artifact::figures::model::Align)> {
    s.prims
        .iter()
        .filter_map(|p| match p {
            Prim::TextRotated {
                text,
                x,
                angle,
                align,
                ..
            } => Some((text.clone(), *x, *angle, *align)),
            _ => None,
        })
        .collect()
}

#[test]
fn label_angle_turns_each_label_to_end_at_its_tick() {
    let dir = gallery_copy();
    let plot = plot_of(dir.path(), "label_angle");
    let s = layout(&plot);
    let area = plot_areas(&plot)[0];
    let t = turned(&s);
    assert_eq!(t.len(), 8);
    // Category i sits at i on a domain of -0.5 .. 7.5 (the bars' band).
    let (d0, d1) = plot.panels[0].x.domain;
    for (i, (_, x, angle, align)) in t.iter().enumerate() {
        let want = area.x0 + (i as f64 - d0) / (d1 - d0) * area.w();
        assert!((x - want).abs() < 1e-9, "{i}: {x} vs {want}");
        assert_eq!(*angle, -45.0);
        assert_eq!(*align, artifact::figures::model::Align::Right);
    }
    assert_eq!(t[0].0, "ycsb_workload_a_update_heavy");
}

#[test]
fn long_category_labels_are_turned_when_they_collide() {
    let dir = gallery_copy();
    let s = scene_of(dir.path(), "long_categories");
    let t = turned(&s);
    assert_eq!(t.len(), 8);
    assert!(t.iter().all(|(_, _, a, _)| *a == -45.0));
    assert!(problems(&s).is_empty());
}

fn assert_aligned(areas: &[Area], rows: usize, cols: usize) {
    for r in 0..rows {
        for c in 0..cols {
            let a = areas[r * cols + c];
            let first_in_col = areas[c];
            let first_in_row = areas[r * cols];
            assert!((a.x0 - first_in_col.x0).abs() < 0.1, "left {r},{c}");
            assert!((a.x1 - first_in_col.x1).abs() < 0.1, "right {r},{c}");
            assert!((a.y0 - first_in_row.y0).abs() < 0.1, "top {r},{c}");
            assert!((a.y1 - first_in_row.y1).abs() < 0.1, "bottom {r},{c}");
        }
    }
}

#[test]
fn grid_panels_align_their_plot_areas_despite_tick_label_widths() {
    let dir = gallery_copy();
    let plot = plot_of(dir.path(), "grid_2x2");
    let areas = plot_areas(&plot);
    assert_aligned(&areas, 2, 2);
    // The tick labels do differ: "20,000,000" is far wider than "0".
    let t = texts(&layout(&plot));
    assert!(t.contains(&"20,000,000".to_string()) && t.contains(&"0".to_string()));
}

#[test]
fn fig2_stacked_panels_share_left_and_right_plot_edges() {
    // They differed by 6.3 pt: each panel's margin followed its own tick
    // labels; the seed's matplotlib figure aligns them.
    let dir = paper_copy();
    let areas = plot_areas(&plot_of(dir.path(), "fig2"));
    assert_eq!(areas.len(), 2);
    assert_aligned(&areas, 2, 1);
}

fn small(spec_tail: &str, data: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.csv"), data).unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        format!("[sources.s]\npath = \"d.csv\"\n\n[figures.f]\n{spec_tail}"),
    )
    .unwrap();
    dir
}

fn first_error(dir: &Path) -> String {
    let out = artifact(dir, &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let e = stderr(&out);
    e[e.find("error: ").unwrap()..]
        .lines()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn a_point_at_zero_on_a_log_axis_names_the_layer_and_the_row() {
    let dir = small(
        "size = [4, 3]\nx = { scale = \"log\" }\nlayers = [\n  { mark = \"rule\", y = 1 },\n  { mark = \"point\", data = \"s\", x = \"a\", y = \"b\" },\n]\n",
        "a,b\n1,2\n5,3\n0,4\n",
    );
    assert_eq!(
        first_error(dir.path()),
        "error: figure `f`: artifact.toml:9:3: layer 2 (point) has x = 0 (d.csv line 4): a log axis needs positive values"
    );
}

#[test]
fn a_bar_on_a_log_axis_grows_from_1_not_an_error() {
    let dir = small(
        "size = [4, 3]\ny = { scale = \"log\" }\nlayers = [{ mark = \"bar\", data = \"s\", x = \"k\", y = \"v\" }]\n",
        "k,v\na,10\nb,1000\n",
    );
    gen_ok(dir.path());
    let plot = plot_of(dir.path(), "f");
    // The domain stops at the bars' base 1 (issue 26), with 5% of the
    // decades above the data.
    let (lo, hi) = plot.panels[0].y.domain;
    assert!(
        lo == 1.0 && (hi - 10f64.powf(3.15)).abs() < 1e-9,
        "{lo} {hi}"
    );
}

#[test]
fn a_negative_bar_value_on_a_log_axis_is_an_error_naming_the_row() {
    let dir = small(
        "size = [4, 3]\ny = { scale = \"log\" }\nlayers = [{ mark = \"bar\", data = \"s\", x = \"k\", y = \"v\" }]\n",
        "k,v\na,10\nb,-3\n",
    );
    assert_eq!(
        first_error(dir.path()),
        "error: figure `f`: artifact.toml:7:11: layer 1 (bar) has y = -3 (d.csv line 3): a log axis needs positive values"
    );
}

#[test]
fn label_angle_beyond_90_degrees_is_an_error_at_the_key() {
    let dir = small(
        "size = [4, 3]\nx = { labelAngle = 120 }\nlayers = [{ mark = \"point\", data = \"s\", x = \"a\", y = \"b\" }]\n",
        "a,b\n1,2\n",
    );
    assert_eq!(
        first_error(dir.path()),
        "error: figure `f`: artifact.toml:6:20: labelAngle is in degrees from -90 to 90, got 120"
    );
}

#[test]
fn a_symlog_constant_on_a_linear_axis_is_an_error() {
    let dir = small(
        "size = [4, 3]\ny = { scale = \"linear\", constant = 10 }\nlayers = [{ mark = \"point\", data = \"s\", x = \"a\", y = \"b\" }]\n",
        "a,b\n1,2\n",
    );
    assert_eq!(
        first_error(dir.path()),
        "error: figure `f`: artifact.toml:6:36: `constant` sets the linear range of a `symlog` scale; this axis is not symlog"
    );
}

#[test]
fn long_title_with_legend_right_is_not_cut_at_the_left_edge() {
    // The title was centred over the plot, which the outside legend pulls
    // left: its start fell off the canvas.
    let dir = small(
        "size = [8, 2.5]\ntitle = \"ripgrep benchsuite: median wall time per query across corpora, lower is better\"\nlegend = { position = \"right\" }\nlayers = [{ mark = \"line\", data = \"s\", x = \"a\", y = \"b\", series = \"k\", color = { field = \"k\" } }]\n",
        "a,b,k\n1,2,linux_kernel_source_tree\n2,3,linux_kernel_source_tree\n1,1,subtitles_en\n2,2,subtitles_en\n",
    );
    let s = scene_of(dir.path(), "f");
    assert_eq!(problems(&s), Vec::<String>::new());
    let out = gen_ok(dir.path());
    assert!(
        !stderr(&out).contains("crosses the canvas"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn crowded_numeric_tick_labels_are_thinned_not_overlapped() {
    let dir = small(
        "size = [4, 2]\nx = { format = { group-digits = true } }\nlayers = [{ mark = \"point\", data = \"s\", x = \"a\", y = \"b\" }]\n",
        "a,b\n1000000,1\n9000000,2\n",
    );
    let s = scene_of(dir.path(), "f");
    assert_eq!(problems(&s), Vec::<String>::new());
    let t = texts(&s);
    assert!(t.contains(&"4,000,000".to_string()), "{t:?}");
}

#[test]
fn a_wide_outside_legend_wraps_its_labels_inside_the_canvas() {
    let dir = small(
        "size = [3.5, 2.2]\nlegend = { position = \"right\" }\nlayers = [{ mark = \"line\", data = \"s\", x = \"a\", y = \"b\", series = \"k\", color = { field = \"k\" } }]\n",
        "a,b,k\n1,2,linux_kernel_source_tree_full_checkout\n2,3,linux_kernel_source_tree_full_checkout\n1,1,opensubtitles english corpus 2018\n2,2,opensubtitles english corpus 2018\n",
    );
    let plot = plot_of(dir.path(), "f");
    let s = layout(&plot);
    assert_eq!(problems(&s), Vec::<String>::new());
    let t = texts(&s);
    assert!(
        t.contains(&"linux_".to_string()) && t.contains(&"checkout".to_string()),
        "{t:?}"
    );
    // The legend takes at most 40% of the cell: the plot keeps the rest
    // but for the axis labels and paddings.
    let a = plot_areas(&plot)[0];
    assert!(a.w() > 0.38 * plot.width, "{}", a.w());
}

#[test]
fn gallery_title_and_legend_label_are_wrapped_not_cut() {
    let dir = gallery_copy();
    let s = scene_of(dir.path(), "wrapped_title_legend");
    let t = texts(&s);
    // Each line of the wrapped title and legend label is drawn in full.
    assert!(
        t.contains(&"Cache hit rate by batch size on the".to_string()),
        "{t:?}"
    );
    assert!(t.contains(&"served from".to_string()), "{t:?}");
    assert!(problems(&s).is_empty());
}

#[test]
fn many_overlapping_texts_are_named_up_to_a_cap() {
    use artifact::color::Color;
    use artifact::figures::model::Align;
    let prims = (0..30)
        .map(|i| Prim::Text {
            x: 10.0 + i as f64 * 0.1,
            y: 10.0,
            text: format!("t{i}"),
            size: 10.0,
            color: Color::BLACK,
            align: Align::Left,
            vertical: false,
        })
        .collect();
    let p = problems(&Scene {
        width: 100.0,
        height: 100.0,
        prims,
        ..Scene::default()
    });
    assert_eq!(p.len(), 11);
    assert_eq!(p[10], "and more overlapping pairs of texts");
}

#[test]
fn a_format_on_a_categorical_axis_is_an_error_at_the_key() {
    let dir = small(
        "size = [4, 3]\nx = { format = { places = 1 } }\nlayers = [{ mark = \"bar\", data = \"s\", x = \"k\", y = \"v\" }]\n",
        "k,v\na,10\nb,3\n",
    );
    assert_eq!(
        first_error(dir.path()),
        "error: figure `f`: artifact.toml:6:16: `format` writes numeric tick labels; this axis's labels are categories"
    );
}

#[test]
fn a_misspelt_label_angle_suggests_the_vega_lite_name() {
    let dir = small(
        "size = [4, 3]\nx = { label_angle = -45 }\nlayers = [{ mark = \"point\", data = \"s\", x = \"a\", y = \"b\" }]\n",
        "a,b\n1,2\n",
    );
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("did you mean `labelAngle`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_hist_on_a_log_count_axis_starts_at_the_axis_edge() {
    // Empty bins (count 0) draw nothing and are no error; the domain is
    // the non-empty counts' decades plus 5%.
    let dir = small(
        "size = [4, 3]\ny = { scale = \"log\" }\nlayers = [{ mark = \"hist\", data = \"s\", x = \"a\", bins = 4 }]\n",
        "a\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n4\n",
    );
    gen_ok(dir.path());
    let plot = plot_of(dir.path(), "f");
    let (lo, hi) = plot.panels[0].y.domain;
    let m = 10f64.log10() * 0.05;
    assert!((lo - 10f64.powf(-m)).abs() < 1e-9, "{lo}");
    assert!((hi - 10f64.powf(1.0 + m)).abs() < 1e-9, "{hi}");
    let area = plot_areas(&plot)[0];
    let s = layout(&plot);
    let bottoms: Vec<f64> = s
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Rect {
                y,
                h,
                fill: Some(_),
                ..
            } => Some(y + h),
            _ => None,
        })
        .collect();
    assert_eq!(bottoms.len(), 2);
    assert!(
        bottoms.iter().all(|b| (b - area.y1).abs() < 1e-9),
        "{bottoms:?}"
    );
}
