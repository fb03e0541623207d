//! The compression paper on setA: every required number and every figure's
//! data equal what the seed script (render_figures.py) computed on the same
//! files, as recorded in `tests/fixtures/setA/reference.json`.

mod common;

use common::*;

#[test]
fn required_numbers_equal_the_seed_values() {
    let dir = paper_copy();
    gen_ok(dir.path());
    let n = numbers(dir.path());
    let r = &reference()["render_figures"];
    let value = |k: &str| f(&n[k]["value"]);
    let text = |k: &str| n[k]["text"].as_str().unwrap().to_string();

    assert_eq!(value("fig1-bars"), f(&r["fig1"]["n_bars"]));
    assert_eq!(value("fig2-bf16-n"), f(&r["fig2"]["n_bf"]));
    assert_eq!(value("fig2-q4k-n"), f(&r["fig2"]["n_q4"]));
    assert_eq!(value("fig3-n"), f(&r["fig3"]["n"]));
    assert!(close(value("fig3-median"), f(&r["fig3"]["median"])));
    assert_eq!(
        format!("median = {} bits", text("fig3-median")),
        r["fig3"]["median_label"].as_str().unwrap()
    );
    assert_eq!(value("fig4-n"), f(&r["fig4"]["n"]));
    assert!(close(value("fig4-median"), f(&r["fig4"]["median"])));
    assert_eq!(
        format!("median = {}", text("fig4-median")),
        r["fig4"]["median_label"].as_str().unwrap()
    );

    let points = r["fig5"]["points"].as_array().unwrap();
    assert_eq!(value("fig5-points") as usize, points.len());
    let pareto = points
        .iter()
        .filter(|p| p["pareto"].as_bool().unwrap())
        .count();
    assert_eq!(value("fig5-pareto") as usize, pareto);
    let split = points
        .iter()
        .find(|p| p["corpus"] == "bf16" && p["method"] == "bf16_split")
        .unwrap();
    assert!(close(value("fig5-bf16-split-ratio"), f(&split["bw_ratio"])));
    assert!(close(
        value("fig5-bf16-split-mbps"),
        f(&split["median_decompress_MBps"])
    ));
    assert_eq!(
        text("fig5-bf16-split-ratio"),
        format!("{:.3}", f(&split["bw_ratio"]))
    );
    assert_eq!(
        text("fig5-bf16-split-mbps"),
        format!("{:.1}", f(&split["median_decompress_MBps"]))
    );
}

#[test]
fn fig4_band_is_the_t_interval_of_the_mean_correlation() {
    let dir = paper_copy();
    gen_ok(dir.path());
    let n = numbers(dir.path());
    let values: Vec<f64> = reference()["render_figures"]["fig4"]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(f)
        .collect();
    let m = values.iter().sum::<f64>() / values.len() as f64;
    let s =
        (values.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (values.len() - 1) as f64).sqrt();
    // scipy.stats.t.ppf(0.975, 159) == 1.9749962127674756, and
    // scipy.stats.t.interval(0.95, 159, loc=mean, scale=sem) on these values
    // == (0.17626452862187184, 0.28234007339062817).
    let half = 1.974_996_212_767_475_6 * s / (values.len() as f64).sqrt();
    assert!((f(&n["fig4-ci-low"]["value"]) - (m - half)).abs() < 1e-12);
    assert!((f(&n["fig4-ci-high"]["value"]) - (m + half)).abs() < 1e-12);
    assert!((f(&n["fig4-ci-low"]["value"]) - 0.176_264_528_621_871_84).abs() < 1e-12);
    assert!((f(&n["fig4-ci-high"]["value"]) - 0.282_340_073_390_628_17).abs() < 1e-12);
    assert_eq!(n["fig4-ci-low"]["text"], "+0.1763");
    assert_eq!(n["fig4-ci-high"]["text"], "+0.2823");
    // The band drawn in fig4 is those two values.
    let rows = csv(dir.path(), "fig4");
    let band = rows.iter().find(|r| r["mark"] == "rect").unwrap();
    assert!(close(num(&band["x"]), f(&n["fig4-ci-low"]["value"])));
    assert!(close(num(&band["x2"]), f(&n["fig4-ci-high"]["value"])));
    assert_eq!(band["label"], "95% CI of the mean [+0.1763, +0.2823]");
}

#[test]
fn fig1_csv_holds_the_seed_bars() {
    let dir = paper_copy();
    gen_ok(dir.path());
    let rows = csv(dir.path(), "fig1");
    let bars: Vec<_> = rows
        .iter()
        .filter(|r| r["mark"] == "bar" && r["y2"] != "0")
        .collect();
    let reference = reference();
    let expected = reference["render_figures"]["fig1"]["bars"]
        .as_array()
        .unwrap();
    assert_eq!(bars.len(), expected.len());
    for (row, e) in bars.iter().zip(expected) {
        assert_eq!(num(&row["x"]), f(&e["x"]));
        assert_eq!(row["tensor_name"], e["tensor_name"].as_str().unwrap());
        assert_eq!(num(&row["y2"]), f(&e["H_byte1"]));
        assert!(
            close(num(&row["y"]), f(&e["top"])),
            "{} vs {}",
            row["y"],
            e["top"]
        );
    }
    let ticks: Vec<_> = rows
        .iter()
        .filter(|r| r["mark"] == "rule" && r["color"] == "#cccccc")
        .collect();
    assert_eq!(ticks.len(), 6, "one separator per category");
}

#[test]
fn fig2_csv_holds_the_seed_points() {
    let dir = paper_copy();
    gen_ok(dir.path());
    let rows = csv(dir.path(), "fig2");
    let reference = reference();
    for (panel, key) in [("0", "pts_bf"), ("1", "pts_q4")] {
        let got: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| r["mark"] == "point" && r["panel"] == panel)
            .map(|r| (num(&r["x"]), num(&r["y"])))
            .collect();
        let want: Vec<(f64, f64)> = reference["render_figures"]["fig2"][key]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (f(&p[0]), f(&p[1])))
            .collect();
        assert_eq!(got.len(), want.len(), "{key}");
        for (g, w) in got.iter().zip(&want) {
            assert!(close(g.0, w.0) && close(g.1, w.1), "{key}: {g:?} vs {w:?}");
        }
    }
}

#[test]
fn fig3_and_fig4_csv_hold_the_seed_histograms() {
    let dir = paper_copy();
    gen_ok(dir.path());
    let reference = reference();
    for fig in ["fig3", "fig4"] {
        let rows = csv(dir.path(), fig);
        let bins: Vec<_> = rows.iter().filter(|r| r["mark"] == "hist").collect();
        let counts = reference["render_figures"][fig]["hist_counts"]
            .as_array()
            .unwrap();
        let edges = reference["render_figures"][fig]["hist_edges"]
            .as_array()
            .unwrap();
        assert_eq!(bins.len(), counts.len(), "{fig}");
        for (i, b) in bins.iter().enumerate() {
            assert_eq!(num(&b["y"]), f(&counts[i]), "{fig} bin {i}");
            assert!(close(num(&b["x"]), f(&edges[i])), "{fig} edge {i}");
            assert!(
                close(num(&b["x2"]), f(&edges[i + 1])),
                "{fig} edge {}",
                i + 1
            );
        }
    }
}

#[test]
fn fig5_csv_holds_the_seed_points_and_pareto_flags() {
    let dir = paper_copy();
    gen_ok(dir.path());
    let rows = csv(dir.path(), "fig5");
    let points: Vec<_> = rows.iter().filter(|r| r["mark"] == "point").collect();
    let reference = reference();
    let want = reference["render_figures"]["fig5"]["points"]
        .as_array()
        .unwrap();
    assert_eq!(points.len(), want.len());
    for (p, w) in points.iter().zip(want) {
        assert_eq!(p["corpus"], w["corpus"].as_str().unwrap());
        assert_eq!(p["method"], w["method"].as_str().unwrap());
        assert_eq!(p["class"], w["class"].as_str().unwrap());
        assert_eq!(num(&p["n"]), f(&w["n"]));
        assert_eq!(
            p["on_front"],
            if w["pareto"].as_bool().unwrap() {
                "true"
            } else {
                "false"
            }
        );
        assert!(close(num(&p["x"]), f(&w["median_decompress_MBps"])));
        assert!(close(num(&p["y"]), f(&w["bw_ratio"])));
        assert!(
            close(num(&p["size"]), f(&w["marker_size"])),
            "{} vs {}",
            p["size"],
            w["marker_size"]
        );
    }
    let front: Vec<(f64, f64)> = rows
        .iter()
        .filter(|r| r["mark"] == "line")
        .map(|r| (num(&r["x"]), num(&r["y"])))
        .collect();
    let want_front: Vec<(f64, f64)> = reference["render_figures"]["fig5"]["pareto_front"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (f(&p[0]), f(&p[1])))
        .collect();
    assert_eq!(front, want_front);
}

#[test]
fn titles_print_the_same_text_as_the_macros() {
    let dir = paper_copy();
    gen_ok(dir.path());
    let svg = std::fs::read_to_string(dir.path().join("figures/fig3.svg")).unwrap();
    assert!(svg.contains("(n = 138 Q4_K-typed tensors)"));
    assert!(svg.contains("median = 3.859 bits"));
    let tex = std::fs::read_to_string(dir.path().join("generated/macros.tex")).unwrap();
    assert!(tex.contains("\\@namedef{artnum@fig3-median}{3.859}"));
    let typ = std::fs::read_to_string(dir.path().join("generated/macros.typ")).unwrap();
    assert!(typ.contains("#let fig3-median = \"3.859\""));
}
