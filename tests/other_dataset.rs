//! The demo spec, unchanged, on a second data set in the same layout
//! (`tests/fixtures/setB`): every figure shows what the seed scripts draw
//! on those files (`expected.json`, captured from the seeds' figures).

mod common;

use common::*;
use serde_json::Value;

fn expected() -> Value {
    let text = std::fs::read_to_string(root().join("tests/fixtures/setB/expected.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn compression_figures_match_the_seed_on_another_data_set() {
    let dir = paper_with_data("setB");
    gen_ok(dir.path());
    let e = expected();
    let n = numbers(dir.path());
    let svg = |name: &str| {
        std::fs::read_to_string(dir.path().join(format!("figures/{name}.svg"))).unwrap()
    };

    assert_eq!(n["fig1-bars"]["value"], e["fig1-bars"]);
    let tops: Vec<f64> = csv(dir.path(), "fig1")
        .iter()
        .filter(|r| r["mark"] == "bar" && r["y2"] != "0")
        .map(|r| num(&r["y"]))
        .collect();
    let want: Vec<f64> = e["fig1-tops"].as_array().unwrap().iter().map(f).collect();
    assert_eq!(tops.len(), want.len());
    assert!(tops.iter().zip(&want).all(|(a, b)| close(*a, *b)));

    for title in strs(&e["fig2-titles"]) {
        assert!(svg("fig2").contains(&title), "fig2 lacks {title:?}");
    }
    let fig2 = csv(dir.path(), "fig2");
    for (panel, pts) in e["fig2-pts"].as_array().unwrap().iter().enumerate() {
        let got: Vec<(f64, f64)> = fig2
            .iter()
            .filter(|r| r["mark"] == "point" && r["panel"] == panel.to_string())
            .map(|r| (num(&r["x"]), num(&r["y"])))
            .collect();
        let want: Vec<(f64, f64)> = pts
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (f(&p[0]), f(&p[1])))
            .collect();
        assert_eq!(got, want, "fig2 panel {panel}");
    }

    for fig in ["fig3", "fig4"] {
        let s = svg(fig);
        let title = e[format!("{fig}-title")].as_str().unwrap();
        assert!(s.contains(title), "{fig} title {title:?}");
        let median = strs(&e[format!("{fig}-legend")])
            .into_iter()
            .find(|l| l.starts_with("median"))
            .unwrap();
        assert!(s.contains(&median), "{fig} legend {median:?}");
        let counts: Vec<f64> = csv(dir.path(), fig)
            .iter()
            .filter(|r| r["mark"] == "hist")
            .map(|r| num(&r["y"]))
            .collect();
        let want: Vec<f64> = e[format!("{fig}-counts")]
            .as_array()
            .unwrap()
            .iter()
            .map(f)
            .collect();
        assert_eq!(counts, want, "{fig} histogram");
    }

    let pts: Vec<_> = csv(dir.path(), "fig5")
        .into_iter()
        .filter(|r| r["mark"] == "point")
        .collect();
    let want = e["fig5-points"].as_array().unwrap();
    assert_eq!(pts.len(), want.len());
    assert_eq!(
        n["fig5-points"]["value"].as_u64().unwrap() as usize,
        want.len()
    );
    let pareto = want
        .iter()
        .filter(|p| p["pareto"].as_bool().unwrap())
        .count();
    assert_eq!(n["fig5-pareto"]["value"].as_u64().unwrap() as usize, pareto);
    for (p, w) in pts.iter().zip(want) {
        assert_eq!(
            format!("{} ({})", p["method"], p["corpus"]),
            w["label"].as_str().unwrap()
        );
        assert!(
            close(num(&p["x"]), f(&w["mbps"])) && close(num(&p["y"]), f(&w["ratio"])),
            "{}",
            w["label"]
        );
        assert_eq!(
            p["on_front"] == "true",
            w["pareto"].as_bool().unwrap(),
            "{}",
            w["label"]
        );
    }
}

#[test]
fn offload_figures_match_the_seed_on_another_data_set() {
    let dir = paper_with_data("setB");
    gen_ok(dir.path());
    let e = expected();
    let sim_svg =
        std::fs::read_to_string(dir.path().join("figures/sim_hit_vs_capacity.svg")).unwrap();
    assert!(sim_svg.contains(e["sim-suptitle"].as_str().unwrap()));
    let sim = csv(dir.path(), "sim_hit_vs_capacity");
    for (pred, s) in e["sim-series"].as_object().unwrap() {
        for (panel, key) in [("0", "hit"), ("1", "stall")] {
            let mut got: Vec<(f64, f64)> = sim
                .iter()
                .filter(|r| r["panel"] == panel && &r["series"] == pred)
                .map(|r| (num(&r["x"]), num(&r["y"])))
                .collect();
            got.sort_by(|a, b| a.0.total_cmp(&b.0));
            let want: Vec<(f64, f64)> = s["x"]
                .as_array()
                .unwrap()
                .iter()
                .zip(s[key].as_array().unwrap())
                .map(|(x, y)| (f(x), f(y)))
                .collect();
            assert_eq!(got, want, "{pred} {key}");
        }
    }
    let sweep = csv(dir.path(), "capacity_sweep");
    let bars: Vec<_> = sweep.iter().filter(|r| r["mark"] == "bar").collect();
    assert_eq!(
        bars.iter().map(|r| r["y"].clone()).collect::<Vec<_>>(),
        strs(&e["sweep-labels"])
    );
    let tps: Vec<f64> = bars.iter().map(|r| num(&r["x"])).collect();
    assert_eq!(
        tps,
        e["sweep-tps"]
            .as_array()
            .unwrap()
            .iter()
            .map(f)
            .collect::<Vec<_>>()
    );

    let two = csv(dir.path(), "two_node");
    assert_eq!(
        two.iter().map(|r| r["x"].clone()).collect::<Vec<_>>(),
        strs(&e["two-labels"])
    );
    assert_eq!(
        two.iter().map(|r| num(&r["y"])).collect::<Vec<_>>(),
        e["two-tps"]
            .as_array()
            .unwrap()
            .iter()
            .map(f)
            .collect::<Vec<_>>()
    );

    let attr = csv(dir.path(), "attribution");
    let tops: Vec<(String, f64)> = attr
        .iter()
        .filter(|r| r["layer"] == "2")
        .map(|r| (r["x"].clone(), num(&r["y"])))
        .collect();
    let labels = strs(&e["attr-labels"]);
    for (i, (label, top)) in tops.iter().enumerate() {
        assert_eq!(label, &labels[i]);
        assert!(close(*top, f(&e["attr-tops"][i])), "{label}: {top}");
    }
    let texts: Vec<String> = attr
        .iter()
        .filter(|r| r["mark"] == "text")
        .map(|r| r["text"].clone())
        .collect();
    assert_eq!(texts, strs(&e["attr-texts"]));
}
