//! The grouped gallery (examples/gallery/grouped, issue 12): grouped and
//! stacked bars, per-group histograms and Pareto fronts, checked against
//! values computed here from the data, and the geometry the data decide.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use artifact::figures::model::{Mark, Plot};
use common::*;

fn gallery() -> PathBuf {
    root().join("examples/gallery/grouped")
}

/// A temporary copy of the gallery folder, outputs included.
fn copy() -> tempfile::TempDir {
    fn walk(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                walk(&e.path(), &to.join(e.file_name()));
            } else {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    walk(&gallery(), dir.path());
    dir
}

/// Rows of a CSV as column -> text.
fn read_csv(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = ::csv::Reader::from_path(path).unwrap();
    let head: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            head.iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect()
}

fn num(r: &BTreeMap<String, String>, k: &str) -> f64 {
    r[k].parse().unwrap_or_else(|_| panic!("{k} in {r:?}"))
}

/// The compiled figure `name` of the gallery (data units, before layout).
fn plot(name: &str) -> Plot {
    let spec = artifact::spec::load(&gallery().join("artifact.toml")).unwrap();
    let plan = artifact::plan::Plan::compile(&spec).unwrap();
    let cat = artifact::tables::Catalog::new(&plan).unwrap();
    let globals = Arc::new(artifact::expr::Globals::default());
    match artifact::figures::compile(&plan.figures[name], &cat, &globals).unwrap() {
        artifact::figures::Outcome::Drawn(f) => f.plot,
        artifact::figures::Outcome::Skipped(why) => panic!("{why}"),
    }
}

#[test]
fn the_committed_gallery_is_current() {
    let dir = copy();
    let out = artifact(dir.path(), &["check"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn gen_writes_what_is_committed() {
    let dir = copy();
    std::fs::remove_dir_all(dir.path().join("figures")).unwrap();
    gen_ok(dir.path());
    for f in [
        "speedup.csv",
        "breakdown.csv",
        "latency_stacked.csv",
        "pareto.csv",
    ] {
        assert_eq!(
            std::fs::read(dir.path().join("figures").join(f)).unwrap(),
            std::fs::read(gallery().join("figures").join(f)).unwrap(),
            "{f}"
        );
    }
}

#[test]
fn grouped_bars_of_one_category_never_overlap_and_lie_inside_the_band() {
    let p = plot("speedup");
    let Mark::Rects(bars) = &p.panels[0].layers[0] else {
        panic!("bars first")
    };
    // 6 benchmarks x 4 systems, GraphIt lacks kmeans.
    assert_eq!(bars.len(), 23);
    let mut by_cat: BTreeMap<i64, Vec<(f64, f64)>> = BTreeMap::new();
    for b in bars {
        let (a, z) = b.x.unwrap();
        by_cat
            .entry(((a + z) / 2.0).round() as i64)
            .or_default()
            .push((a, z));
    }
    assert_eq!(by_cat.len(), 6);
    for (c, spans) in &by_cat {
        let c = *c as f64;
        for (i, s) in spans.iter().enumerate() {
            assert!(
                s.0 >= c - 0.4 - 1e-12 && s.1 <= c + 0.4 + 1e-12,
                "{s:?} outside {c}±0.4"
            );
            // Width: a quarter of the band less the 0.1 padding.
            assert!((s.1 - s.0 - 0.2 * 0.9).abs() < 1e-12, "{s:?}");
            for t in &spans[i + 1..] {
                assert!(s.1 <= t.0 || t.1 <= s.0, "{s:?} overlaps {t:?}");
            }
        }
    }
    // kmeans (category 3): GraphIt's sub-band (the third) is a gap, so
    // Ours keeps the fourth sub-band's centre.
    let kmeans = &by_cat[&3];
    assert_eq!(kmeans.len(), 3);
    let centres: Vec<f64> = kmeans.iter().map(|(a, z)| (a + z) / 2.0).collect();
    for (got, want) in centres.iter().zip([2.7, 2.9, 3.3]) {
        assert!((got - want).abs() < 1e-12, "{centres:?}");
    }
}

#[test]
fn errorbars_sit_on_the_centres_of_their_bars() {
    let p = plot("speedup");
    let (Mark::Rects(bars), Mark::Segments(errs)) =
        (&p.panels[0].layers[0], &p.panels[0].layers[1])
    else {
        panic!("bars, then error bars")
    };
    assert_eq!(bars.len(), errs.len());
    let data = read_csv(&gallery().join("data/speedups.csv"));
    for ((b, e), row) in bars.iter().zip(errs).zip(&data) {
        let (a, z) = b.x.unwrap();
        assert!((e.from.0 - (a + z) / 2.0).abs() < 1e-12);
        assert_eq!(e.from.0, e.to.0);
        assert_eq!((e.from.1, e.to.1), (num(row, "lo"), num(row, "hi")));
        assert_eq!(b.y.unwrap().1, num(row, "speedup"));
    }
}

#[test]
fn horizontal_grouped_bars_follow_the_domain_from_the_top() {
    let p = plot("speedup_horizontal");
    let Mark::Rects(bars) = &p.panels[0].layers[0] else {
        panic!()
    };
    let (Mark::Rects(_), Mark::Segments(errs)) = (&p.panels[0].layers[0], &p.panels[0].layers[1])
    else {
        panic!()
    };
    // bfs rows in data order: Baseline, Ligra, GraphIt, Ours; the domain
    // puts Ours in the first sub-band (the top: a category axis reads down).
    let centre = |i: usize| {
        let (a, z) = bars[i].y.unwrap();
        (a + z) / 2.0
    };
    for (i, want) in [(0, 0.3), (1, 0.1), (2, -0.1), (3, -0.3)] {
        assert!((centre(i) - want).abs() < 1e-12, "{i}: {}", centre(i));
        assert!((errs[i].from.1 - want).abs() < 1e-12);
    }
    let csv = read_csv(&gallery().join("figures/speedup_horizontal.csv"));
    assert_eq!(csv[0]["yOffset"], "Baseline");
    assert_eq!(csv[3]["yOffset"], "Ours");
    // The domain orders the sub-bands, not the colours: each system has
    // the colour it has in `speedup` (Baseline blue, Ours vermillion).
    assert_eq!(csv[0]["color"], "#0072b2");
    assert_eq!(csv[3]["color"], "#d55e00");
    let other = read_csv(&gallery().join("figures/speedup.csv"));
    for row in csv.iter().filter(|r| r["mark"] == "bar") {
        let twin = other
            .iter()
            .find(|o| o["x"] == row["y"] && o["xOffset"] == row["yOffset"])
            .unwrap();
        assert_eq!(twin["color"], row["color"], "{}", row["yOffset"]);
    }
}

#[test]
fn stacked_bars_start_where_the_previous_one_ends() {
    let csv = read_csv(&gallery().join("figures/breakdown.csv"));
    let data = read_csv(&gallery().join("data/breakdown.csv"));
    let bars: Vec<_> = csv.iter().filter(|r| r["mark"] == "bar").collect();
    assert_eq!(bars.len(), data.len());
    let mut top: BTreeMap<(String, String), f64> = BTreeMap::new();
    for (r, d) in bars.iter().zip(&data) {
        assert_eq!((&r["x"], &r["xOffset"]), (&d["benchmark"], &d["system"]));
        let t = top
            .entry((d["benchmark"].clone(), d["system"].clone()))
            .or_default();
        assert_eq!(num(r, "y2"), *t, "{r:?}");
        assert!((num(r, "y") - num(r, "y2") - num(d, "seconds")).abs() < 1e-9);
        *t = num(r, "y");
    }
    // The system names sit on their stacks' tops, at their sub-bands.
    let p = plot("breakdown");
    let (Mark::Rects(rects), Mark::Texts { items, .. }) =
        (&p.panels[0].layers[0], &p.panels[0].layers[1])
    else {
        panic!()
    };
    for t in items {
        let on = rects.iter().any(|r| {
            let (a, z) = r.x.unwrap();
            ((a + z) / 2.0 - t.x).abs() < 1e-12 && (r.y.unwrap().1 - t.y).abs() < 1e-9
        });
        assert!(on, "{} at ({}, {}) is on no stack", t.text, t.x, t.y);
    }
}

/// numpy.histogram's counts of `xs` in `edges` (the last bin is closed).
fn np_counts(xs: &[f64], edges: &[f64]) -> Vec<u64> {
    let n = edges.len() - 1;
    let mut c = vec![0; n];
    for &x in xs {
        if let Some(i) =
            (0..n).find(|&i| x >= edges[i] && (x < edges[i + 1] || i == n - 1 && x <= edges[n]))
        {
            c[i] += 1;
        }
    }
    c
}

fn latency() -> Vec<(String, f64)> {
    read_csv(&gallery().join("data/latency.csv"))
        .iter()
        .map(|r| (r["config"].clone(), num(r, "latency_ms")))
        .collect()
}

#[test]
fn hist_counts_per_group_equal_numpy_with_the_shared_edges() {
    let rows = latency();
    let all: Vec<f64> = rows.iter().map(|r| r.1).collect();
    let (lo, hi) = all
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    let edges: Vec<f64> = (0..=30).map(|i| lo + (hi - lo) * i as f64 / 30.0).collect();
    for fig in ["latency_overlay", "latency_stacked"] {
        let csv = read_csv(&gallery().join(format!("figures/{fig}.csv")));
        assert_eq!(csv.len(), 90, "{fig}");
        let mut below = vec![0u64; 30];
        for (g, cfg) in ["no cache", "LRU", "learned"].iter().enumerate() {
            let xs: Vec<f64> = rows.iter().filter(|r| r.0 == *cfg).map(|r| r.1).collect();
            let want = np_counts(&xs, &edges);
            assert_eq!(want.iter().sum::<u64>(), 400);
            for (b, w) in want.iter().enumerate() {
                let r = &csv[g * 30 + b];
                assert_eq!(r["group"], *cfg);
                assert!((num(r, "bin") - edges[b]).abs() < 1e-9 * hi);
                assert_eq!(num(r, "count") as u64, *w, "{fig} {cfg} bin {b}");
                let base = if fig == "latency_stacked" {
                    below[b]
                } else {
                    0
                };
                assert_eq!((num(r, "y2") as u64, num(r, "y") as u64), (base, base + w));
                below[b] += w;
            }
        }
    }
    // Overlaid bars are half transparent, stacked ones opaque.
    let overlay = plot("latency_overlay");
    let Mark::Rects(r) = &overlay.panels[0].layers[0] else {
        panic!()
    };
    assert!((r[0].style.fill.unwrap().a - 0.5).abs() < 0.01);
    assert_eq!(overlay.panels[0].legend.entries.len(), 3);
}

#[test]
fn dodged_hist_bars_share_each_bin_side_by_side() {
    let p = plot("latency_dodged");
    let Mark::Rects(r) = &p.panels[0].layers[0] else {
        panic!()
    };
    let csv = read_csv(&gallery().join("figures/latency_dodged.csv"));
    assert_eq!(r.len(), 36);
    for b in 0..12 {
        let (lo, hi) = (num(&csv[b], "bin"), num(&csv[b], "bin2"));
        let spans: Vec<(f64, f64)> = (0..3).map(|g| r[g * 12 + b].x.unwrap()).collect();
        assert!((spans[0].0 - lo).abs() < 1e-9 && (spans[2].1 - hi).abs() < 1e-9);
        assert!((spans[0].1 - spans[1].0).abs() < 1e-9 && (spans[1].1 - spans[2].0).abs() < 1e-9);
    }
}

#[test]
fn pareto_per_corpus_equals_a_brute_force_front_per_corpus() {
    let data = read_csv(&gallery().join("data/tradeoff.csv"));
    let mut want: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in &data {
        let dominated = data.iter().any(|q| {
            q["corpus"] == r["corpus"]
                && num(q, "ratio") >= num(r, "ratio")
                && num(q, "speed_mbps") >= num(r, "speed_mbps")
                && (num(q, "ratio") > num(r, "ratio")
                    || num(q, "speed_mbps") > num(r, "speed_mbps"))
        });
        if !dominated {
            want.entry(r["corpus"].clone())
                .or_default()
                .push(r["method"].clone());
        }
    }
    let csv = read_csv(&gallery().join("figures/pareto.csv"));
    let mut got: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in csv.iter().filter(|r| r["mark"] == "line") {
        got.entry(r["series"].clone())
            .or_default()
            .push(r["method"].clone());
    }
    for v in want.values_mut().chain(got.values_mut()) {
        v.sort();
    }
    assert_eq!(got.len(), 2);
    assert_eq!(got, want);
    // One global front would drop the weaker corpus entirely.
    assert!(want["weights"].len() >= 3);
}
