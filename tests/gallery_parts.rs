//! The marks gallery (`examples/gallery/parts`): a pie and a donut of a
//! cloc breakdown, lollipops (rule from 1 to the value, and a point), and
//! stacked bars whose legend reads as the stack. Each figure's CSV is
//! checked against values computed here from the data, with the laid-out
//! geometry, and the committed outputs are current.

mod common;
mod labels_util;

use std::collections::BTreeMap;
use std::path::Path;

use artifact::render::layout::layout;
use artifact::render::scene::{Prim, Scene};
use common::{copy_dir, root};
use labels_util::plot_of;

/// A copy of the gallery folder, with its committed outputs.
fn gallery() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("examples/gallery/parts"), dir.path());
    dir
}

/// The rows of a CSV file as column -> text maps.
fn rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let head = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            head.iter()
                .zip(rec.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

fn num(s: &str) -> f64 {
    s.parse().unwrap()
}

/// The wedges of a scene as (inner, outer, start, end).
fn wedges(scene: &Scene) -> Vec<(f64, f64, f64, f64)> {
    scene
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Wedge {
                inner,
                outer,
                start,
                end,
                ..
            } => Some((*inner, *outer, *start, *end)),
            _ => None,
        })
        .collect()
}

#[test]
fn gallery_parts_outputs_are_current() {
    let dir = gallery();
    let out = common::artifact(dir.path(), &["check"]);
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn cloc_pie_wedges_are_each_language_s_share_of_the_lines() {
    let dir = gallery();
    let data = rows(&dir.path().join("cloc.csv"));
    let total: f64 = data.iter().map(|r| num(&r["code"])).sum();
    let drawn = rows(&dir.path().join("figures/cloc_pie.csv"));
    assert_eq!(drawn.len(), data.len());
    let mut before = 0.0;
    for (d, r) in data.iter().zip(&drawn) {
        let n = num(&d["code"]);
        assert!((num(&r["share"]) - n / total).abs() < 1e-12, "{r:?}");
        assert!((num(&r["start"]) - before * 360.0 / total).abs() < 1e-9);
        before += n;
        assert!((num(&r["end"]) - before * 360.0 / total).abs() < 1e-9);
        assert_eq!(r["text"], format!("{:.0}%", n / total * 100.0));
    }
    let plot = plot_of(dir.path(), "cloc_pie");
    let legend: Vec<&str> = plot.panels[0]
        .legend
        .entries
        .iter()
        .map(|e| e.label.as_str())
        .collect();
    assert_eq!(legend, vec!["Rust", "Python", "C++", "Shell", "TOML"]);
    let w = wedges(&layout(&plot));
    assert_eq!(w.first().unwrap().2, 0.0, "from 12 o'clock");
    assert_eq!(w.last().unwrap().3, 360.0, "all the way round");
}

#[test]
fn cloc_donut_has_its_hole_and_its_labels_on_the_ring() {
    let dir = gallery();
    let scene = layout(&plot_of(dir.path(), "cloc_donut"));
    let w = wedges(&scene);
    assert_eq!(w.len(), 5);
    for x in &w {
        assert_eq!(x.0, 40.0);
        assert!(x.1 > 40.0);
    }
    let drawn = rows(&dir.path().join("figures/cloc_donut.csv"));
    for r in &drawn {
        assert_eq!(
            r["text"],
            format!("{}%", (num(&r["share"]) * 100.0).round())
        );
    }
}

#[test]
fn speedup_lollipop_stems_run_from_one_to_each_value_under_its_point() {
    let dir = gallery();
    let data = rows(&dir.path().join("speedups.csv"));
    let drawn: Vec<_> = rows(&dir.path().join("figures/speedup_lollipop.csv"))
        .into_iter()
        .filter(|r| r["mark"] == "rule" && r.get("y2").is_some_and(|v| !v.is_empty()))
        .collect();
    assert_eq!(drawn.len(), data.len());
    for (d, r) in data.iter().zip(&drawn) {
        assert_eq!(r["y"], "1");
        assert_eq!(num(&r["y2"]), num(&d["speedup"]));
    }
    let scene = layout(&plot_of(dir.path(), "speedup_lollipop"));
    let stems = labels_util::paths(&scene, 1.5);
    let points = labels_util::markers(&scene);
    assert_eq!(stems.len(), data.len());
    assert_eq!(points.len(), data.len());
    for (s, p) in stems.iter().zip(&points) {
        // Vertical, ending at its point's centre.
        assert_eq!(s[0].0, s[1].0);
        let c = p.centre();
        assert!((s[1].0 - c.0).abs() < 1e-9 && (s[1].1 - c.1).abs() < 1e-9);
    }
    let svg = std::fs::read_to_string(dir.path().join("figures/speedup_lollipop.svg")).unwrap();
    assert_eq!(svg.matches("stroke-dasharray").count(), 1, "the baseline");
}

#[test]
fn phases_stacked_legend_reads_top_down_as_the_stacks() {
    let dir = gallery();
    let plot = plot_of(dir.path(), "phases_stacked");
    let legend: Vec<&str> = plot.panels[0]
        .legend
        .entries
        .iter()
        .map(|e| e.label.as_str())
        .collect();
    assert_eq!(legend, vec!["write", "compute", "load"]);
}
