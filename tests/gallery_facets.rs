//! The facets gallery (`examples/gallery/facets`): small multiples with
//! shared or independent scales, panel titles, one legend and the facet
//! columns of the CSV; and the errors of a facet written wrong.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use artifact::figures::model::{LegendPos, Mark, Plot};
use artifact::figures::{Outcome, compile};
use artifact::render::layout::layout;
use artifact::render::scene::Prim;
use common::{artifact, copy_dir};

fn gallery() -> PathBuf {
    common::root().join("examples/gallery/facets")
}

/// A temporary copy of the gallery folder, committed outputs included.
fn gallery_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&gallery(), dir.path());
    dir
}

/// Figure `name` of the spec in `dir`, compiled through the library.
fn plot_of(dir: &Path, name: &str) -> Plot {
    let spec = artifact::spec::load(&dir.join("artifact.toml")).unwrap();
    let plan = artifact::plan::Plan::compile(&spec).unwrap();
    let cat = artifact::tables::Catalog::new(&plan).unwrap();
    let (_, globals) = artifact::numbers::compute(&spec, &cat, &|_, _| None);
    match compile(&plan.figures[name], &cat, &globals).unwrap() {
        Outcome::Drawn(f) => f.plot,
        Outcome::Skipped(why) => panic!("skipped: {why}"),
    }
}

/// Records of a CSV file as column -> text maps.
fn read_csv(path: &Path) -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(|c| c.trim_start_matches('\'').to_string()))
                .collect()
        })
        .collect()
}

/// Each panel's plot area (x0, y0, x1, y1) in points, from its frame: the
/// four long black lines of width 0.8 drawn per panel (left, right, top,
/// bottom).
fn plot_areas(plot: &Plot) -> Vec<(f64, f64, f64, f64)> {
    let scene = layout(plot);
    let frame: Vec<((f64, f64), (f64, f64))> = scene
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Path {
                pts,
                stroke: Some(s),
                ..
            } if pts.len() == 2 && s.width == 0.8 && s.color == artifact::color::Color::BLACK => {
                let (a, b) = (pts[0], pts[1]);
                let len = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
                (len > 20.0).then_some((a, b))
            }
            _ => None,
        })
        .collect();
    assert_eq!(frame.len() % 4, 0, "four frame lines per panel");
    frame
        .chunks(4)
        .map(|c| (c[0].0.0, c[2].0.1, c[1].0.0, c[3].0.1))
        .collect()
}

#[test]
fn gallery_facets_outputs_are_current() {
    let dir = gallery_copy();
    let out = artifact(dir.path(), &["check"]);
    assert!(
        out.status.success(),
        "artifact check failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn facet_field_makes_one_panel_per_value_with_shared_scales_and_one_legend() {
    let dir = gallery_copy();
    let plot = plot_of(dir.path(), "throughput");
    // sort = "none": the data's order; columns = 3.
    let titles: Vec<&str> = plot
        .panels
        .iter()
        .map(|p| p.title.as_deref().unwrap())
        .collect();
    assert_eq!(
        titles,
        ["ycsb-a", "ycsb-b", "ycsb-c", "ycsb-f", "tpcc", "smallbank"]
    );
    assert_eq!(plot.layout, (2, 3));
    // Shared scales: every panel has the first panel's domains, and they
    // hold every benchmark's data (max 1.05 * the largest throughput...).
    let rows = read_csv(&gallery().join("data/throughput.csv"));
    let kops: Vec<f64> = rows.iter().map(|r| r["kops"].parse().unwrap()).collect();
    let (lo, hi) = kops
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let m = (hi - lo) * 0.05;
    for p in &plot.panels {
        assert_eq!(p.x.domain, plot.panels[0].x.domain);
        assert_eq!(p.y.domain, (lo - m, hi + m));
    }
    // Labels on the outer panels only: y on the first column, x on the last row.
    let ylab: Vec<bool> = plot.panels.iter().map(|p| p.y.labels).collect();
    let xlab: Vec<bool> = plot.panels.iter().map(|p| p.x.labels).collect();
    assert_eq!(ylab, [true, false, false, true, false, false]);
    assert_eq!(xlab, [false, false, false, true, true, true]);
    // One legend for the figure (`position = "right"`), right of the grid,
    // one entry per system; none in the panels.
    assert!(plot.panels.iter().all(|p| p.legend.entries.is_empty()));
    let legend = plot.legend.as_ref().unwrap();
    let labels: Vec<&str> = legend.entries.iter().map(|e| e.label.as_str()).collect();
    assert_eq!(labels, ["rocksdb", "leveldb", "ours"]);
    let right = plot_areas(&plot)
        .iter()
        .map(|a| a.2)
        .fold(f64::NEG_INFINITY, f64::max);
    let frames: Vec<f64> = layout(&plot)
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Rect {
                x, stroke: Some(s), ..
            } if s.color == artifact::color::Color::rgb(0xcc, 0xcc, 0xcc) => Some(*x),
            _ => None,
        })
        .collect();
    assert_eq!(frames.len(), 1, "one legend frame");
    assert!(frames[0] > right + 5.0, "{frames:?} {right}");
    assert!(frames[0] < plot.width);
    // A system has one colour in every panel.
    let mut colour: BTreeMap<String, String> = BTreeMap::new();
    let out = dir.path().join("figures/throughput.csv");
    common::gen_ok(dir.path());
    let csv = read_csv(&out);
    for r in &csv {
        let c = colour
            .entry(r["series"].clone())
            .or_insert(r["color"].clone());
        assert_eq!(*c, r["color"], "{r:?}");
    }
    assert_eq!(colour.len(), 3);
    // The CSV's facet column: each record is its benchmark's row, in its panel.
    assert_eq!(csv.len(), rows.len());
    for r in &csv {
        let panel: usize = r["panel"].parse().unwrap();
        assert_eq!(r["facet"], titles[panel]);
        assert!(
            rows.iter().any(|d| d["benchmark"] == r["facet"]
                && d["system"] == r["series"]
                && d["threads"] == r["x"]
                && d["kops"].parse::<f64>().unwrap() == r["y"].parse::<f64>().unwrap()),
            "{r:?}"
        );
    }
}

#[test]
fn panels_of_one_grid_row_have_equal_plot_areas() {
    let dir = gallery_copy();
    for name in ["throughput", "accuracy", "latency"] {
        let plot = plot_of(dir.path(), name);
        let areas = plot_areas(&plot);
        assert_eq!(areas.len(), plot.panels.len(), "{name}");
        let cols = plot.layout.1;
        for (i, a) in areas.iter().enumerate() {
            let first_of_row = areas[i - i % cols];
            assert!((a.1 - first_of_row.1).abs() < 0.1, "{name} {i}: {a:?}");
            assert!((a.3 - first_of_row.3).abs() < 0.1, "{name} {i}: {a:?}");
            // And columns share their widths.
            let first_of_col = areas[i % cols];
            assert!((a.0 - first_of_col.0).abs() < 0.1, "{name} {i}: {a:?}");
            assert!((a.2 - first_of_col.2).abs() < 0.1, "{name} {i}: {a:?}");
        }
    }
}

#[test]
fn row_and_column_facets_make_a_grid_in_ascending_order() {
    let dir = gallery_copy();
    let plot = plot_of(dir.path(), "accuracy");
    assert_eq!(plot.layout, (3, 2));
    let titles: Vec<&str> = plot
        .panels
        .iter()
        .map(|p| p.title.as_deref().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "CIFAR-10 / ResNet-50",
            "CIFAR-10 / ViT-B/16",
            "CIFAR-100 / ResNet-50",
            "CIFAR-100 / ViT-B/16",
            "ImageNet / ResNet-50",
            "ImageNet / ViT-B/16"
        ]
    );
    // Shared categorical x: the same three recipes, in first-seen order.
    for p in &plot.panels {
        let ticks: Vec<&str> =
            p.x.ticks
                .as_ref()
                .unwrap()
                .iter()
                .map(|(_, l)| l.as_str())
                .collect();
        assert_eq!(ticks, ["baseline", "+mixup", "ours"]);
        // Bars of one panel do not overlap.
        let Mark::Rects(bars) = &p.layers[0] else {
            panic!("bars")
        };
        let mut spans: Vec<(f64, f64)> = bars.iter().map(|b| b.x.unwrap()).collect();
        spans.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert_eq!(spans.len(), 3);
        for w in spans.windows(2) {
            assert!(w[0].1 <= w[1].0, "{spans:?}");
        }
    }
    // The CSV names each bar's row and column value; its height is the data's.
    common::gen_ok(dir.path());
    let csv = read_csv(&dir.path().join("figures/accuracy.csv"));
    let data = read_csv(&gallery().join("data/accuracy.csv"));
    assert_eq!(csv.len(), 18);
    for r in &csv {
        let panel: usize = r["panel"].parse().unwrap();
        assert_eq!(format!("{} / {}", r["row"], r["column"]), titles[panel]);
        let d = data
            .iter()
            .find(|d| {
                d["dataset"] == r["row"] && d["model"] == r["column"] && d["recipe"] == r["x"]
            })
            .unwrap();
        assert_eq!(
            d["top1"].parse::<f64>().unwrap(),
            r["y"].parse::<f64>().unwrap()
        );
    }
}

#[test]
fn independent_y_scales_differ_and_fit_their_own_panel() {
    let dir = gallery_copy();
    let plot = plot_of(dir.path(), "latency");
    let titles: Vec<&str> = plot
        .panels
        .iter()
        .map(|p| p.title.as_deref().unwrap())
        .collect();
    // sort = a list: its order.
    assert_eq!(titles, ["GET p99", "PUT p99", "SCAN p99", "COMPACT p99"]);
    let data = read_csv(&gallery().join("data/latency.csv"));
    for (p, op) in plot.panels.iter().zip(["GET", "PUT", "SCAN", "COMPACT"]) {
        // The panel's own p99s and the 1 ms rule, plus matplotlib's 5%.
        let (lo, hi) = data
            .iter()
            .filter(|d| d["op"] == op)
            .map(|d| d["p99_ms"].parse::<f64>().unwrap())
            .chain([1.0])
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(v), b.max(v))
            });
        let m = (hi - lo) * 0.05;
        assert_eq!(p.y.domain, (lo - m, hi + m), "{op}");
        assert!(p.y.labels, "independent y: every panel labels it");
        // x stays shared.
        assert_eq!(p.x.domain, plot.panels[0].x.domain);
    }
    assert_ne!(plot.panels[0].y.domain, plot.panels[3].y.domain);
    // The legend (inside, by default) is in the top-right panel only.
    assert!(plot.legend.is_none());
    let legends: Vec<Vec<&str>> = plot
        .panels
        .iter()
        .map(|p| p.legend.entries.iter().map(|e| e.label.as_str()).collect())
        .collect();
    assert_eq!(legends, [vec![], vec![], vec![], vec!["1 ms"]]);
}

/// `artifact gen` on a spec of two rows plus `figure`; its error output.
fn gen_error(figure: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let spec = format!(
        "[sources.r]\nrows = [\n  {{ b = \"x\", t = 1, v = 2.0 }},\n  {{ b = \"y\", t = 2, v = 3.0 }},\n]\n{figure}"
    );
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert!(!out.status.success());
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// The first line of `stderr` that is an error.
fn first_error(stderr: &str) -> &str {
    stderr
        .lines()
        .find(|l| l.starts_with("error"))
        .unwrap_or(stderr)
}

const POINTS: &str = "layers = [{ mark = \"point\", data = \"r\", x = \"t\", y = \"v\" }]\n";

#[test]
fn facet_errors_point_at_their_line_and_column() {
    let cases: Vec<(String, &str)> = vec![
        (
            "[figures.f]\nsize = [4, 3]\nfacet = { field = \"b\" }\npanels = [{ layers = [] }]\n"
                .into(),
            "error: artifact.toml:8:1: `facet` cannot be given with `panels` in a figure",
        ),
        (
            format!(
                "[figures.f]\nsize = [4, 3]\nlayout = [1, 2]\nfacet = {{ field = \"b\" }}\n{POINTS}"
            ),
            "error: figure `f`: artifact.toml:9:9: `facet` arranges its panels itself: give `columns` in the facet instead of the figure's `layout`",
        ),
        (
            format!("[figures.f]\nsize = [4, 3]\nfacet = {{ feild = \"b\" }}\n{POINTS}"),
            "error: artifact.toml:8:11: unknown key `feild` in a facet; did you mean `field`? (a facet takes one of: field, row, column, columns, sort, title)",
        ),
        (
            format!(
                "[figures.f]\nsize = [4, 3]\nfacet = {{ field = \"b\" }}\nresolve = {{ scale = {{ y = \"indep\" }} }}\n{POINTS}"
            ),
            "error: figure `f`: artifact.toml:9:27: unknown scale resolution `indep` (shared, independent)",
        ),
        (
            format!("[figures.f]\nsize = [4, 3]\nfacet = {{ field = \"c\" }}\n{POINTS}"),
            "error: figure `f`: artifact.toml:8:19: layer 1 (point) cannot be split by the facet: artifact.toml [sources.r]: no field `c` in table `r` (fields: b, t, v)",
        ),
        (
            format!(
                "[figures.f]\nsize = [4, 3]\nfacet = {{ field = \"b if t > 1 else none\" }}\n{POINTS}"
            ),
            "error: figure `f`: artifact.toml:8:19: the facet `b if t > 1 else none` gives no value (null or empty) for a row of table `r` (artifact.toml [sources.r]), drawn by layer 1 (point); filter such rows out with the layer's `where`",
        ),
        (
            format!("[figures.f]\nsize = [4, 3]\nfacet = {{ row = \"b\", columns = 2 }}\n{POINTS}"),
            "error: artifact.toml:8:22: `columns` does nothing without `field` in a facet",
        ),
        (
            format!(
                "[figures.f]\nsize = [4, 3]\nfacet = {{ field = \"b\", row = \"t\" }}\n{POINTS}"
            ),
            "error: artifact.toml:8:11: `field` cannot be given with `row` in a facet",
        ),
        (
            format!(
                "[figures.f]\nsize = [4, 3]\nresolve = {{ scale = {{ y = \"independent\" }} }}\n{POINTS}"
            ),
            "error: artifact.toml:8:1: `resolve` does nothing without `facet` in a figure",
        ),
        (
            format!(
                "[figures.f]\nsize = [4, 3]\nfacet = {{ field = \"b\", sort = \"up\" }}\n{POINTS}"
            ),
            "error: figure `f`: artifact.toml:8:31: unknown facet sort `up` (ascending, descending, none, or a list of values)",
        ),
    ];
    for (figure, want) in cases {
        let e = gen_error(&figure);
        assert_eq!(first_error(&e), want, "{figure}\n{e}");
    }
}

#[test]
fn a_facet_of_more_than_100_values_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let rows: Vec<String> = (0..150)
        .map(|i| format!("  {{ b = \"k{i}\", t = {i}, v = 1.0 }},"))
        .collect();
    let spec = format!(
        "[sources.r]\nrows = [\n{}\n]\n[figures.f]\nsize = [4, 3]\nfacet = {{ field = \"b\" }}\n{POINTS}",
        rows.join("\n")
    );
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        first_error(&e),
        "error: figure `f`: artifact.toml:156:19: the facet `b` has more than 100 values; a figure has at most 100 panels (filter the rows with the layer's `where`, or facet by a coarser field)"
    );
}

#[test]
fn a_layer_without_data_is_drawn_in_every_panel() {
    let dir = tempfile::tempdir().unwrap();
    let spec = r#"[sources.r]
rows = [
  { b = "x", t = 1, v = 2.0 },
  { b = "y", t = 2, v = 3.0 },
]
[figures.f]
size = [4, 3]
facet = { field = "b", sort = "descending" }
legend = { position = "bottom" }
layers = [
  { mark = "point", data = "r", x = "t", y = "v" },
  { mark = "rule", y = 2.5, label = "target" },
]
"#;
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let plot = plot_of(dir.path(), "f");
    let titles: Vec<&str> = plot
        .panels
        .iter()
        .map(|p| p.title.as_deref().unwrap())
        .collect();
    assert_eq!(titles, ["y", "x"]);
    for p in &plot.panels {
        assert_eq!(p.layers.len(), 2);
        assert!(matches!(&p.layers[1], Mark::Rules(r) if r.len() == 1));
    }
    let Mark::Points(pts) = &plot.panels[0].layers[0] else {
        panic!("points")
    };
    assert_eq!((pts.len(), pts[0].x, pts[0].y), (1, 2.0, 3.0));
    // The rule's legend entry once (not once per panel), below the grid.
    let legend = plot.legend.as_ref().unwrap();
    assert_eq!(legend.position, LegendPos::Bottom);
    let labels: Vec<&str> = legend.entries.iter().map(|e| e.label.as_str()).collect();
    assert_eq!(labels, ["target"]);
}

#[test]
fn numeric_facet_values_sort_as_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let spec = r#"[sources.r]
rows = [
  { t = 10, v = 1.0 },
  { t = 9, v = 2.0 },
  { t = 100, v = 3.0 },
]
[figures.f]
size = [6, 3]
facet = { field = "t", title = "{{ value }} threads" }
layers = [{ mark = "point", data = "r", x = "v", y = "v" }]
"#;
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let plot = plot_of(dir.path(), "f");
    let titles: Vec<&str> = plot
        .panels
        .iter()
        .map(|p| p.title.as_deref().unwrap())
        .collect();
    assert_eq!(titles, ["9 threads", "10 threads", "100 threads"]);
    assert_eq!(plot.layout, (1, 3));
}
