//! The labels gallery (`examples/gallery/labels`): value labels on bars,
//! line end labels and a dense labelled scatter, pinned on their CSVs and
//! their geometry.

mod common;
mod labels_util;

use std::path::Path;

use artifact::color::Color;
use artifact::render::layout::layout;
use artifact::render::scene::Prim;
use labels_util::*;

fn gallery() -> std::path::PathBuf {
    common::root().join("examples/gallery/labels")
}

/// A temporary copy of the gallery's spec and data (`with_outputs`: and
/// its committed figures, generated files and lock).
fn copy(with_outputs: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(gallery()).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().into_string().unwrap();
        if e.file_type().unwrap().is_dir() {
            if with_outputs {
                std::fs::create_dir_all(dir.path().join(&name)).unwrap();
                for f in std::fs::read_dir(e.path()).unwrap() {
                    let f = f.unwrap();
                    std::fs::copy(f.path(), dir.path().join(&name).join(f.file_name())).unwrap();
                }
            }
        } else if with_outputs || name != "artifact.lock" {
            std::fs::copy(e.path(), dir.path().join(&name)).unwrap();
        }
    }
    dir
}

/// Rows of a CSV file as maps.
fn rows(path: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
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

/// The plot area's top and right edges (the frame's top and right spines).
fn frame(scene: &artifact::render::scene::Scene) -> Bx {
    let lines: Vec<Vec<(f64, f64)>> = paths(scene, 0.8)
        .into_iter()
        .filter(|p| p.len() == 2 && (p[0].0 - p[1].0).hypot(p[0].1 - p[1].1) > 50.0)
        .collect();
    let xs = lines.iter().flat_map(|p| p.iter().map(|q| q.0));
    let ys = lines.iter().flat_map(|p| p.iter().map(|q| q.1));
    Bx {
        x0: xs.clone().fold(f64::INFINITY, f64::min),
        x1: xs.fold(f64::NEG_INFINITY, f64::max),
        y0: ys.clone().fold(f64::INFINITY, f64::min),
        y1: ys.fold(f64::NEG_INFINITY, f64::max),
    }
}

#[test]
fn gallery_labels_outputs_are_current() {
    let dir = copy(true);
    let out = common::artifact(dir.path(), &["check"]);
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn speedup_bars_print_their_values_above_each_bar_inside_the_frame() {
    let dir = copy(false);
    common::gen_ok(dir.path());
    let data = rows(&dir.path().join("speedups.csv"));
    let drawn: Vec<_> = rows(&dir.path().join("figures/speedup_bars.csv"))
        .into_iter()
        .filter(|r| r["mark"] == "bar")
        .collect();
    assert_eq!(drawn.len(), 8);
    for (d, r) in data.iter().zip(&drawn) {
        assert_eq!(r["x"], d["benchmark"]);
        assert_eq!(r["text"], format!("{:.1}×", num(&d["speedup"])));
    }
    let scene = layout(&plot_of(dir.path(), "speedup_bars"));
    let labels = texts(&scene, 8.0);
    let bars = rects(&scene);
    let fr = frame(&scene);
    assert_eq!(labels.len(), 8);
    // The dashed y = 1 rule (0.8 pt wide), the one dashed path.
    let rule: Vec<f64> = scene
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Path {
                pts,
                stroke: Some(s),
                ..
            } if s.dash.is_some() => Some(pts[0].1),
            _ => None,
        })
        .collect();
    assert_eq!(rule.len(), 1);
    let rule_y = rule[0];
    for (l, (b, _)) in labels.iter().zip(&bars) {
        // Centred on its own bar, just above its top, never clipped.
        assert!((l.bx.centre().0 - b.centre().0).abs() < 1e-6, "{}", l.text);
        if l.text == "0.8×" {
            // The rule ran through it: moved up, a point at a time, to
            // 2 pt above the rule's stroke (0.4 pt half width).
            assert!(l.bx.y1 < b.y0 && l.bx.y1 < rule_y - 2.4, "{:?}", l.bx);
            assert!(l.bx.y1 >= rule_y - 3.4, "{:?} {rule_y}", l.bx);
            continue;
        }
        assert!(
            l.bx.y1 <= b.y0 && b.y0 - l.bx.y1 < 4.0,
            "{} {:?} {:?}",
            l.text,
            l.bx,
            b
        );
        assert!(
            l.bx.y0 >= fr.y0,
            "`{}` sticks out of the plot's top ({:?} above {})",
            l.text,
            l.bx,
            fr.y0
        );
        assert_eq!(l.color, Color::BLACK);
    }
}

#[test]
fn change_bars_put_negative_labels_below_the_bar_end() {
    let dir = copy(false);
    common::gen_ok(dir.path());
    let data = rows(&dir.path().join("change.csv"));
    let drawn: Vec<_> = rows(&dir.path().join("figures/change_bars.csv"))
        .into_iter()
        .filter(|r| r["mark"] == "bar")
        .collect();
    for (d, r) in data.iter().zip(&drawn) {
        let v = num(&d["change"]);
        let want = format!("{}{:.1}", if v >= 0.0 { "+" } else { "-" }, v.abs());
        assert_eq!(r["text"].replace('\u{2212}', "-"), want);
    }
    let scene = layout(&plot_of(dir.path(), "change_bars"));
    let labels = texts(&scene, 8.0);
    let bars = rects(&scene);
    let fr = frame(&scene);
    assert_eq!(labels.len(), 8);
    for ((l, (b, _)), d) in labels.iter().zip(&bars).zip(&data) {
        if num(&d["change"]) < 0.0 {
            assert!(
                l.bx.y0 >= b.y1 && l.bx.y0 - b.y1 < 4.0,
                "{} below {:?}",
                l.text,
                b
            );
            assert!(
                l.bx.y1 <= fr.y1,
                "`{}` sticks out of the plot's bottom",
                l.text
            );
        } else {
            assert!(
                l.bx.y1 <= b.y0 && b.y0 - l.bx.y1 < 4.0,
                "{} above {:?}",
                l.text,
                b
            );
            assert!(
                l.bx.y0 >= fr.y0,
                "`{}` sticks out of the plot's top",
                l.text
            );
        }
    }
}

#[test]
fn horizontal_bars_hold_their_labels_inside_in_a_contrasting_colour() {
    let dir = copy(false);
    common::gen_ok(dir.path());
    let data = rows(&dir.path().join("hitrate.csv"));
    let drawn: Vec<_> = rows(&dir.path().join("figures/hitrate_hbars.csv"))
        .into_iter()
        .filter(|r| r["mark"] == "bar")
        .collect();
    for (d, r) in data.iter().zip(&drawn) {
        assert_eq!(r["y"], d["system"]);
        assert_eq!(r["text"], format!("{:.1}%", num(&d["hit"]) * 100.0));
    }
    let scene = layout(&plot_of(dir.path(), "hitrate_hbars"));
    let labels = texts(&scene, 8.0);
    let bars = rects(&scene);
    assert_eq!(labels.len(), 5);
    for (l, (b, fill)) in labels.iter().zip(&bars) {
        assert!(
            l.bx.x0 >= b.x0 && l.bx.x1 <= b.x1 && b.x1 - l.bx.x1 < 4.0,
            "{} in {:?}",
            l.text,
            b
        );
        assert!((l.bx.centre().1 - b.centre().1).abs() < 1.0, "{}", l.text);
        // White on the default blue (Okabe–Ito's), whose luminance (0.15)
        // is below 0.179.
        assert_eq!(*fill, Color::rgb(0x00, 0x72, 0xb2));
        assert_eq!(l.color, Color::WHITE);
    }
}

#[test]
fn line_end_labels_sit_right_of_each_last_point_apart_and_unclipped() {
    let dir = copy(false);
    common::gen_ok(dir.path());
    let scene = layout(&plot_of(dir.path(), "throughput_lines"));
    let labels = texts(&scene, 8.0);
    let names: Vec<&str> = labels.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(names.len(), 4);
    for n in ["vLLM", "TGI", "SGLang", "ours"] {
        assert!(names.contains(&n), "{names:?}");
    }
    let lines = paths(&scene, 1.5);
    let fr = frame(&scene);
    for l in &labels {
        // Each line's last vertex in the label's colour family lies left of it.
        let last = lines
            .iter()
            .map(|p| *p.last().unwrap())
            .min_by(|a, b| l.bx.dist(*a).total_cmp(&l.bx.dist(*b)))
            .unwrap();
        assert!(l.bx.x0 > last.0 + 3.0, "{} right of {last:?}", l.text);
        assert!(l.bx.x1 <= fr.x1, "`{}` is clipped at the right", l.text);
        assert!(l.bx.y0 >= fr.y0 && l.bx.y1 <= fr.y1);
    }
    for (i, a) in labels.iter().enumerate() {
        for b in &labels[i + 1..] {
            assert!(!a.bx.overlaps(&b.bx), "{} / {}", a.text, b.text);
        }
    }
}

#[test]
fn dense_scatter_labels_sit_by_their_own_markers_with_leaders() {
    let dir = copy(false);
    common::gen_ok(dir.path());
    let drawn: Vec<_> = rows(&dir.path().join("figures/config_scatter.csv"))
        .into_iter()
        .filter(|r| r["mark"] == "text")
        .collect();
    assert_eq!(drawn.len(), 25);
    let scene = layout(&plot_of(dir.path(), "config_scatter"));
    let labels = texts(&scene, 7.0);
    assert_eq!(labels.len(), 25);
    for (l, r) in labels.iter().zip(&drawn) {
        assert_eq!(l.text, r["text"]);
    }
    let marks = markers(&scene);
    let leaders = paths(&scene, 0.4);
    assert!(
        !leaders.is_empty(),
        "a dense scatter moves some labels away"
    );
    assert_labels_by_markers(&labels, &marks[..25], &leaders, &[]);
}
