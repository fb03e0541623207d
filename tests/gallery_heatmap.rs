//! The heatmap and colour-scheme galleries (`examples/gallery/heatmap`,
//! `examples/gallery/schemes`): each figure's CSV against values computed
//! here from the data, the colour bar and the hatches in the laid-out
//! scene, the committed outputs current, and the errors of colour scales.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use artifact::figures::model::{Mark, Swatch};
use artifact::figures::{Outcome, compile};
use artifact::render::scene::Prim;
use common::{artifact, copy_dir, root};

/// A copy of a gallery folder, with its committed outputs.
fn gallery(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("examples/gallery").join(name), dir.path());
    dir
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The records of a figure's CSV as column -> text maps.
fn records(dir: &Path, fig: &str) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(dir.join("figures").join(format!("{fig}.csv"))).unwrap();
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

fn hex(c: colorous::Color) -> String {
    format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
}

/// WCAG 2 relative luminance of `#rrggbb`.
fn luminance(hex: &str) -> f64 {
    let ch = |i: usize| {
        let s = u8::from_str_radix(&hex[i..i + 2], 16).unwrap() as f64 / 255.0;
        if s <= 0.04045 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * ch(1) + 0.7152 * ch(3) + 0.0722 * ch(5)
}

/// Black or white text, whichever has the higher WCAG contrast ratio.
fn text_colour(fill: &str) -> &'static str {
    let l = luminance(fill);
    let on_black = (l + 0.05) / 0.05;
    let on_white = 1.05 / (l + 0.05);
    if on_black >= on_white {
        "#000000"
    } else {
        "#ffffff"
    }
}

/// The figure `name` of the spec in `dir`, compiled through the library.
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

#[test]
fn gallery_outputs_are_current_and_regenerate_the_same() {
    for g in ["heatmap", "schemes"] {
        let dir = gallery(g);
        let out = artifact(dir.path(), &["check"]);
        assert!(out.status.success(), "{g}: {}", stderr(&out));
        // From scratch: the same CSVs as committed.
        let fresh = gallery(g);
        std::fs::remove_dir_all(fresh.path().join("figures")).unwrap();
        std::fs::remove_file(fresh.path().join("artifact.lock")).unwrap();
        let out = artifact(fresh.path(), &["gen"]);
        assert!(out.status.success(), "{g}: {}", stderr(&out));
        for e in std::fs::read_dir(dir.path().join("figures")).unwrap() {
            let name = e.unwrap().file_name();
            let a = std::fs::read(dir.path().join("figures").join(&name)).unwrap();
            let b = std::fs::read(fresh.path().join("figures").join(&name)).unwrap();
            assert!(a == b, "{g}: {name:?} differs when regenerated");
        }
    }
}

#[test]
fn hit_rate_cells_take_viridis_at_their_normalized_value() {
    let dir = gallery("heatmap");
    // Hit rate per (batch, cache) pooled over seeds, from the JSONL.
    let mut sums: BTreeMap<(String, String), (f64, f64)> = BTreeMap::new();
    let text = std::fs::read_to_string(dir.path().join("data/cache_sim.jsonl")).unwrap();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let key = (v["batch"].to_string(), v["cache_mb"].to_string());
        let e = sums.entry(key).or_default();
        e.0 += v["hits"].as_f64().unwrap();
        e.1 += v["lookups"].as_f64().unwrap();
    }
    let rate: BTreeMap<_, f64> = sums.into_iter().map(|(k, (h, n))| (k, h / n)).collect();
    let lo = rate.values().copied().fold(f64::INFINITY, f64::min);
    let hi = rate.values().copied().fold(f64::NEG_INFINITY, f64::max);
    let recs = records(dir.path(), "hit_rate");
    assert_eq!(recs.len(), 30);
    for r in &recs {
        let v = rate[&(r["y"].clone(), r["x"].clone())];
        let want = hex(colorous::VIRIDIS.eval_continuous((v - lo) / (hi - lo)));
        assert_eq!(r["color"], want, "cell {} x {}", r["y"], r["x"]);
        assert_eq!(r["text"], format!("{v:.2}"));
        assert_eq!(r["text_color"], text_colour(&r["color"]));
    }
    // The ends of the domain take the ends of viridis.
    assert!(recs.iter().any(|r| r["color"] == "#440154"));
    assert!(recs.iter().any(|r| r["color"] == "#fde725"));
    // Both text colours are used: dark cells get white text.
    assert!(recs.iter().any(|r| r["text_color"] == "#ffffff"));
    assert!(recs.iter().any(|r| r["text_color"] == "#000000"));
}

#[test]
fn speedup_is_centred_at_zero_on_the_diverging_scheme() {
    let dir = gallery("heatmap");
    let mut rdr = csv::Reader::from_path(dir.path().join("data/speedup.csv")).unwrap();
    let mut log2: BTreeMap<(String, String), f64> = BTreeMap::new();
    for rec in rdr.records() {
        let rec = rec.unwrap();
        let (base, t): (f64, f64) = (rec[2].parse().unwrap(), rec[3].parse().unwrap());
        log2.insert(
            (rec[0].to_string(), rec[1].to_string()),
            (base / t).ln() / 2f64.ln(),
        );
    }
    let lo = log2.values().copied().fold(f64::INFINITY, f64::min);
    let hi = log2.values().copied().fold(f64::NEG_INFINITY, f64::max);
    assert!(lo < 0.0 && hi > 0.0);
    let recs = records(dir.path(), "speedup");
    assert_eq!(recs.len(), 30);
    for r in &recs {
        let v = log2[&(r["x"].clone(), r["y"].clone())];
        // Vega-Lite's domainMid: [lo, 0] onto [0, 0.5], [0, hi] onto [0.5, 1].
        let t = if v < 0.0 {
            0.5 * (v - lo) / -lo
        } else {
            0.5 + 0.5 * v / hi
        };
        assert_eq!(
            r["color"],
            hex(colorous::RED_BLUE.eval_continuous(t)),
            "{} {}",
            r["x"],
            r["y"]
        );
        assert_eq!(r["text_color"], text_colour(&r["color"]));
    }
    // The baseline row (speedup 1, log2 0) takes the scheme's midpoint.
    let mid = hex(colorous::RED_BLUE.eval_continuous(0.5));
    let base: Vec<_> = recs.iter().filter(|r| r["y"] == "baseline").collect();
    assert_eq!(base.len(), 6);
    assert!(base.iter().all(|r| r["color"] == mid), "{mid}");
}

#[test]
fn colour_bar_ticks_span_the_domain_right_of_the_plot() {
    let dir = gallery("heatmap");
    let plot = plot_of(dir.path(), "speedup");
    let cb = plot.panels[0].colorbar.clone().expect("a colour bar");
    assert_eq!(cb.title, "log2 speedup");
    let recs = records(dir.path(), "speedup");
    assert_eq!(cb.colors.len(), 128);
    // The domain is the data's range.
    let mut rdr = csv::Reader::from_path(dir.path().join("data/speedup.csv")).unwrap();
    let vals: Vec<f64> = rdr
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[2].parse::<f64>().unwrap() / r[3].parse::<f64>().unwrap()).ln() / 2f64.ln()
        })
        .collect();
    let lo = vals.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = vals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    assert!((cb.domain.0 - lo).abs() < 1e-12 && (cb.domain.1 - hi).abs() < 1e-12);
    assert_eq!(recs.len(), 30);

    let scene = artifact::render::layout::layout(&plot);
    // The plot area: the extent of the heatmap's cells (filled rects with
    // a cell colour).
    let cell_colours: Vec<String> = recs.iter().map(|r| r["color"].clone()).collect();
    let mut plot_x1: f64 = 0.0;
    let mut bands = Vec::new();
    for p in &scene.prims {
        if let Prim::Rect {
            x,
            w,
            h,
            fill: Some(c),
            y,
            ..
        } = p
        {
            if *w > 20.0 && cell_colours.contains(&c.hex()) {
                plot_x1 = plot_x1.max(x + w);
            } else if *w == artifact::render::colorbar::BAR_WIDTH {
                bands.push((*x, *y, *h));
            }
        }
    }
    assert_eq!(bands.len(), 128);
    let bar_x = bands[0].0;
    assert!(
        bar_x > plot_x1 + 1.0,
        "bar at {bar_x}, plot ends at {plot_x1}"
    );
    let (bar_top, bar_bottom) = (
        bands.iter().map(|b| b.1).fold(f64::INFINITY, f64::min),
        bands.iter().map(|b| b.1 + b.2).fold(0.0, f64::max),
    );
    // Tick labels right of the bar: inside the canvas, spanning the domain.
    let labels: Vec<(f64, f64, String)> = scene
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Text {
                x, y, text, size, ..
            } if *x > bar_x + 10.0 && *y > bar_top => {
                let w = artifact::font::width(text, *size);
                assert!(x + w <= scene.width, "{text} runs off the canvas");
                Some((*x, *y, text.clone()))
            }
            _ => None,
        })
        .collect();
    let values: Vec<f64> = labels
        .iter()
        .map(|(_, _, t)| t.replace('\u{2212}', "-").parse::<f64>().unwrap())
        .collect();
    assert_eq!(values, vec![-0.2, 0.0, 0.2]);
    assert!(values.iter().all(|v| *v >= lo && *v <= hi));
    // A tick every 0.2: the first within a step of the low end, the last
    // within a step of the high end.
    assert!(values[0] - lo < 0.2 && hi - values[2] < 0.2);
    // Higher values higher up, all within the bar.
    for w in labels.windows(2) {
        assert!(w[1].1 < w[0].1);
    }
    for (_, y, _) in &labels {
        assert!(*y > bar_top - 10.0 && *y < bar_bottom);
    }
}

#[test]
fn okabe_ito_colours_each_allocator_in_the_default_order() {
    let dir = gallery("schemes");
    let recs = records(dir.path(), "alloc_okabe_ito");
    // Okabe & Ito (2008) as the default scheme orders it: blue, orange,
    // green first, yellow and black last.
    let want = [
        "#0072b2", "#e69f00", "#009e73", "#d55e00", "#56b4e9", "#cc79a7", "#f0e442", "#000000",
    ];
    let got: Vec<&str> = recs.iter().map(|r| r["color"].as_str()).collect();
    assert_eq!(got, want);
    // The geometric mean over benchmarks of the median speedup over glibc.
    let mut rdr = csv::Reader::from_path(dir.path().join("data/alloc.csv")).unwrap();
    let mut runs: BTreeMap<(String, String), Vec<f64>> = BTreeMap::new();
    for r in rdr.records() {
        let r = r.unwrap();
        runs.entry((r[0].to_string(), r[1].to_string()))
            .or_default()
            .push(r[3].parse().unwrap());
    }
    let median = |v: &Vec<f64>| {
        let mut v = v.clone();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for r in &recs {
        let a = &r["y"];
        let logs: Vec<f64> = runs
            .iter()
            .filter(|((al, _), _)| al == a)
            .map(|((_, b), v)| (median(v) / median(&runs[&("glibc".to_string(), b.clone())])).ln())
            .collect();
        assert_eq!(logs.len(), 6);
        let geo = (logs.iter().sum::<f64>() / 6.0).exp();
        let got: f64 = r["x"].parse().unwrap();
        assert!((got - geo).abs() < 1e-12, "{a}: {got} vs {geo}");
    }
}

#[test]
fn greys_hatch_every_allocator_in_the_bars_and_the_legend() {
    let dir = gallery("schemes");
    let recs = records(dir.path(), "alloc_greys");
    let patterns = [
        "diagonal",
        "back-diagonal",
        "crossed-diagonal",
        "dots",
        "horizontal",
        "vertical",
        "grid",
        "circles",
    ];
    let got: Vec<&str> = recs.iter().map(|r| r["hatch"].as_str()).collect();
    assert_eq!(got, patterns);
    // Four greys, cycled.
    let colours: Vec<&str> = recs.iter().map(|r| r["color"].as_str()).collect();
    assert_eq!(colours[..4], colours[4..]);
    let distinct: std::collections::BTreeSet<_> = colours.iter().collect();
    assert_eq!(distinct.len(), 4);

    let plot = plot_of(dir.path(), "alloc_greys");
    let p = &plot.panels[0];
    let hatched: Vec<char> = p
        .legend
        .entries
        .iter()
        .filter_map(|e| match e.swatch {
            Swatch::Hatched(_, h) => Some(h),
            _ => None,
        })
        .collect();
    assert_eq!(hatched.len(), 8);
    let Some(Mark::Hatches(items)) = p.layers.get(1) else {
        panic!("the hatch layer follows the bars")
    };
    assert_eq!(items.len(), 8);
    // In the scene: every bar holds lines or dots of its pattern, all
    // within the bar.
    let scene = artifact::render::layout::layout(&plot);
    let bars: Vec<(f64, f64, f64, f64)> = scene
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Rect {
                x,
                y,
                w,
                h,
                fill: Some(c),
                ..
            } if colours.contains(&c.hex().as_str()) && *w > 30.0 => Some((*x, *y, x + w, y + h)),
            _ => None,
        })
        .collect();
    assert_eq!(bars.len(), 8);
    for (i, b) in bars.iter().enumerate() {
        let inside = |x: f64, y: f64| {
            x >= b.0 - 1e-6 && x <= b.2 + 1e-6 && y >= b.1 - 1e-6 && y <= b.3 + 1e-6
        };
        let n = scene
            .prims
            .iter()
            .filter(|p| match p {
                Prim::Path {
                    pts,
                    stroke: Some(s),
                    ..
                } if s.width == 0.6 => pts.iter().all(|(x, y)| inside(*x, *y)),
                Prim::Circle { cx, cy, .. } => inside(*cx, *cy),
                _ => false,
            })
            .count();
        assert!(n > 0, "bar {i} ({}) has no hatch", patterns[i]);
    }
}

fn project(spec: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(
        dir.path().join("data/p.csv"),
        "bench,cfg,v\nbfs,a,0.5\nbfs,b,1.5\npr,a,2\npr,b,x\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        format!("[sources.p]\npath = \"data/p.csv\"\n\n{spec}"),
    )
    .unwrap();
    dir
}

fn gen_err(spec: &str) -> String {
    let dir = project(spec);
    let out = artifact(dir.path(), &["gen"]);
    assert!(!out.status.success());
    stderr(&out)
}

#[test]
fn a_continuous_scheme_fed_text_names_the_row() {
    let err = gen_err(
        "[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"rect\", data = \"p\", x = \"bench\", y = \"cfg\", color = { field = \"v\", scale = { scheme = \"viridis\" } } }]\n",
    );
    assert!(
        err.contains("data/p.csv:5: field `v`: `v` is \"x\": a quantitative colour scale (viridis) needs numbers; colour categories with a categorical scheme (tab10, okabe-ito, greys)"),
        "{err}"
    );
}

#[test]
fn an_unknown_scheme_suggests_the_nearest() {
    let err = gen_err(
        "[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"rect\", data = \"p\", x = \"bench\", y = \"cfg\", color = { field = \"v\", scale = { scheme = \"virdis\" } } }]\n",
    );
    assert!(err.contains("unknown scheme `virdis` (categorical: tab10, category10, tab20, category20, tableau10, okabe-ito, greys, set1, set2, set3, dark2, paired, accent, pastel1, pastel2; continuous: viridis,"), "{err}");
    assert!(err.contains("; did you mean `viridis`?"), "{err}");
    assert!(err.contains("artifact.toml:6:"), "{err}");
}

#[test]
fn domain_mid_on_a_categorical_scale_is_an_error() {
    let err = gen_err(
        "[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"bar\", data = \"p\", x = \"bench\", y = 1, color = { field = \"cfg\", scale = { scheme = \"okabe-ito\", domainMid = 0 } } }]\n",
    );
    assert!(err.contains("`domainMid` centres a quantitative colour scale; this one is categorical (give `type = \"quantitative\"` or a continuous `scheme`)"), "{err}");
}

#[test]
fn a_figure_scheme_must_be_categorical() {
    let err = gen_err(
        "[figures.f]\nsize = [4, 3]\nscheme = \"viridis\"\nlayers = [{ mark = \"bar\", data = \"p\", x = \"bench\", y = 1, color = { field = \"cfg\" } }]\n",
    );
    assert!(
        err.contains("a figure's `scheme` is a categorical scheme (tab10, category10,"),
        "{err}"
    );
    assert!(err.contains("artifact.toml:6:10"), "{err}");
}

#[test]
fn a_rect_with_a_numeric_x_and_no_x2_is_an_error() {
    let err = gen_err(
        "[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"rect\", data = \"p\", x = \"1\", y = \"cfg\" }]\n",
    );
    assert!(err.contains("a `rect` with a numeric `x` needs `x2`: give each cell's two edges (binned numbers), or categories (strings) whose slot the cell fills"), "{err}");
}

#[test]
fn a_scheme_on_a_shape_is_an_error() {
    let err = gen_err(
        "[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"point\", data = \"p\", x = \"bench\", y = 1, shape = { field = \"cfg\", scale = { scheme = \"greys\" } } }]\n",
    );
    assert!(
        err.contains("a `scheme`, `type` or `domainMid` is for a colour scale (`color`)"),
        "{err}"
    );
}

#[test]
fn a_figure_scheme_applies_to_colour_scales_without_their_own() {
    let dir = project(
        "[figures.f]\nsize = [4, 3]\nscheme = \"tab10\"\nlayers = [\n  { mark = \"bar\", data = \"p\", x = \"bench\", y = 1, xOffset = \"cfg\", color = { field = \"cfg\" }, where = \"v is number\" },\n  { mark = \"point\", data = \"p\", x = \"bench\", y = 2, color = { field = \"cfg\", scale = { range = [\"red\", \"blue\"] } }, where = \"v is number\" },\n]\n",
    );
    let out = artifact(dir.path(), &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let recs = records(dir.path(), "f");
    let colours: Vec<(&str, &str)> = recs
        .iter()
        .map(|r| (r["mark"].as_str(), r["color"].as_str()))
        .collect();
    assert_eq!(
        colours,
        [
            ("bar", "#1f77b4"),
            ("bar", "#ff7f0e"),
            ("bar", "#1f77b4"),
            ("point", "#ff0000"),
            ("point", "#0000ff"),
            ("point", "#ff0000"),
        ]
    );
}

#[test]
fn a_figure_scheme_that_colours_nothing_is_an_error() {
    let err = gen_err(
        "[figures.f]\nsize = [4, 3]\nscheme = \"greys\"\nlayers = [{ mark = \"bar\", data = \"p\", x = \"bench\", y = 1, color = { field = \"cfg\", scale = { scheme = \"okabe-ito\" } } }]\n",
    );
    assert!(err.contains("the figure's `scheme` colours nothing: no layer has `color = { field = ... }` without its own `range` or `scheme`"), "{err}");
}

#[test]
fn a_continuous_scheme_on_a_nominal_scale_is_an_error() {
    let err = gen_err(
        "[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"bar\", data = \"p\", x = \"bench\", y = 1, color = { field = \"cfg\", type = \"nominal\", scale = { scheme = \"viridis\" } } }]\n",
    );
    assert!(err.contains("`viridis` is a continuous scheme; a nominal scale takes a categorical one (tab10, category10,"), "{err}");
}

#[test]
fn latency_bins_are_counted_and_coloured_by_viridis() {
    let dir = gallery("heatmap");
    let text = std::fs::read_to_string(dir.path().join("data/latency.jsonl")).unwrap();
    let mut counts: BTreeMap<(i64, i64), u64> = BTreeMap::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let minute = (v["t_s"].as_f64().unwrap() / 60.0).floor() as i64 * 60;
        let lat = (v["latency_ms"].as_f64().unwrap() / 2.0).floor() as i64 * 2;
        *counts.entry((minute, lat)).or_default() += 1;
    }
    let lo = *counts.values().min().unwrap() as f64;
    let hi = *counts.values().max().unwrap() as f64;
    let recs = records(dir.path(), "latency");
    assert_eq!(recs.len(), counts.len());
    for r in &recs {
        let (x, y): (f64, f64) = (r["x"].parse().unwrap(), r["y"].parse().unwrap());
        assert_eq!(r["x2"].parse::<f64>().unwrap(), x + 60.0);
        assert_eq!(r["y2"].parse::<f64>().unwrap(), y + 2.0);
        let n = counts[&(x as i64, y as i64)] as f64;
        let want = hex(colorous::VIRIDIS.eval_continuous((n - lo) / (hi - lo)));
        assert_eq!(r["color"], want, "cell at {x} s, {y} ms");
    }
    // Cells of one row of bins do not overlap.
    let plot = plot_of(dir.path(), "latency");
    let Mark::Rects(cells) = &plot.panels[0].layers[0] else {
        panic!("rects")
    };
    for (i, a) in cells.iter().enumerate() {
        for b in &cells[i + 1..] {
            let (ax, ay, bx, by) = (a.x.unwrap(), a.y.unwrap(), b.x.unwrap(), b.y.unwrap());
            let overlap_x = ax.0.max(bx.0) < ax.1.min(bx.1);
            let overlap_y = ay.0.max(by.0) < ay.1.min(by.1);
            assert!(!(overlap_x && overlap_y), "{ax:?} {ay:?} / {bx:?} {by:?}");
        }
    }
}

#[test]
fn cell_text_on_a_band_spanning_an_axis_is_an_error() {
    let err = gen_err(
        "[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"rect\", data = \"p\", x = \"bench\", text = \"{{ cfg }}\" }]\n",
    );
    assert!(
        err.contains("cell `text` on a `rect` needs both `x` and `y`"),
        "{err}"
    );
}

#[test]
fn a_rect_band_beyond_its_slot_is_an_error() {
    let err = gen_err(
        "[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"rect\", data = \"p\", x = \"bench\", y = \"cfg\", band = 1.5 }]\n",
    );
    assert!(
        err.contains("a rect's `band` is a fraction of the slot, above 0 and at most 1"),
        "{err}"
    );
    assert!(err.contains("artifact.toml:6:"), "{err}");
}
