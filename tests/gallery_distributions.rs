//! The distributions gallery (`examples/gallery/distributions`): boxplot,
//! ecdf, area, errorband, errorbar from raw rows and violin, each checked
//! against an independent computation on the same data (numpy's linear
//! quantile, the ECDF's definition, Student t from statrs), and the
//! committed outputs against `artifact check`.

mod common;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use common::{artifact, copy_dir, csv, gen_ok, root};
use statrs::distribution::{ContinuousCDF, StudentsT};

/// A temporary copy of the gallery folder, outputs included.
fn gallery() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("examples/gallery/distributions"), dir.path());
    dir
}

/// A generated copy of the gallery.
fn generated() -> tempfile::TempDir {
    let dir = gallery();
    gen_ok(dir.path());
    dir
}

/// The rows of a data file of the gallery: column -> text.
fn data(dir: &Path, name: &str) -> Vec<HashMap<String, String>> {
    let mut rdr = ::csv::Reader::from_path(dir.join("data").join(name)).unwrap();
    let headers: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
    rdr.records()
        .map(|r| {
            headers
                .iter()
                .cloned()
                .zip(r.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

/// `field` of the rows where `key` is `value`, as numbers.
fn values_where(rows: &[HashMap<String, String>], key: &str, value: &str, field: &str) -> Vec<f64> {
    rows.iter()
        .filter(|r| r[key] == value)
        .map(|r| r[field].parse().unwrap())
        .collect()
}

fn num(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

/// numpy.quantile(xs, q) with the default 'linear' method, written out.
fn np_quantile(xs: &[f64], q: f64) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let pos = q * (v.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = (lo + 1).min(v.len() - 1);
    v[lo] + (v[hi] - v[lo]) * (pos - lo as f64)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
}

fn assert_close(got: f64, want: f64, what: &str) {
    assert!(close(got, want), "{what}: got {got}, want {want}");
}

#[test]
fn committed_gallery_outputs_are_current() {
    let dir = gallery();
    let out = artifact(dir.path(), &["check"]);
    assert!(
        out.status.success(),
        "artifact check failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn boxplot_quartiles_whiskers_and_outliers_are_numpys_tukey() {
    let dir = generated();
    let lat = data(dir.path(), "latency.csv");
    let rows = csv(dir.path(), "box_tukey");
    let boxes: Vec<_> = rows.iter().filter(|r| r["part"] == "box").collect();
    assert_eq!(
        boxes.iter().map(|r| r["x"].as_str()).collect::<Vec<_>>(),
        ["baseline", "cached", "prefetch"]
    );
    for b in boxes {
        let xs = values_where(&lat, "system", &b["x"], "latency_ms");
        let (q1, med, q3) = (
            np_quantile(&xs, 0.25),
            np_quantile(&xs, 0.5),
            np_quantile(&xs, 0.75),
        );
        assert_eq!(num(&b["n"]) as usize, xs.len());
        assert_close(num(&b["q1"]), q1, "q1");
        assert_close(num(&b["median"]), med, "median");
        assert_close(num(&b["q3"]), q3, "q3");
        // Whiskers: the most extreme data within 1.5 IQR of the box.
        let (lo_fence, hi_fence) = (q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1));
        let lower = xs
            .iter()
            .copied()
            .filter(|v| *v >= lo_fence)
            .fold(f64::MAX, f64::min);
        let upper = xs
            .iter()
            .copied()
            .filter(|v| *v <= hi_fence)
            .fold(f64::MIN, f64::max);
        assert_eq!(num(&b["lower"]), lower);
        assert_eq!(num(&b["upper"]), upper);
        let mut want: Vec<f64> = xs
            .iter()
            .copied()
            .filter(|v| *v < lo_fence || *v > hi_fence)
            .collect();
        let mut got: Vec<f64> = rows
            .iter()
            .filter(|r| r["part"] == "outlier" && r["x"] == b["x"])
            .map(|r| num(&r["y"]))
            .collect();
        want.sort_by(f64::total_cmp);
        got.sort_by(f64::total_cmp);
        assert!(
            !want.is_empty(),
            "{}: the gallery's data has a tail",
            b["x"]
        );
        assert_eq!(got, want, "outliers of {}", b["x"]);
    }
}

#[test]
fn boxplot_min_max_whiskers_reach_the_extremes_without_outliers() {
    let dir = generated();
    let lat = data(dir.path(), "latency.csv");
    let rows = csv(dir.path(), "box_minmax");
    assert!(rows.iter().all(|r| r["part"] == "box"), "no outliers");
    assert_eq!(rows.len(), 3);
    for b in &rows {
        // Horizontal: the categories are on y.
        let xs = values_where(&lat, "system", &b["y"], "latency_ms");
        assert_eq!(
            num(&b["lower"]),
            xs.iter().copied().fold(f64::MAX, f64::min)
        );
        assert_eq!(
            num(&b["upper"]),
            xs.iter().copied().fold(f64::MIN, f64::max)
        );
        assert_close(num(&b["median"]), np_quantile(&xs, 0.5), "median");
    }
}

/// The ECDF's step vertices by its definition: from (min, 0), at each
/// distinct value v up from F(v-) to F(v) = #{x <= v} / n.
fn ecdf_vertices(xs: &[f64], complementary: bool) -> Vec<(f64, f64)> {
    let mut counts: BTreeMap<u64, usize> = BTreeMap::new();
    for x in xs {
        // Positive values order as their bits.
        *counts.entry(x.to_bits()).or_default() += 1;
    }
    let n = xs.len();
    // The fraction at or below, or above (#{x > v} / n).
    let f = |c: usize| {
        if complementary {
            (n - c) as f64 / n as f64
        } else {
            c as f64 / n as f64
        }
    };
    let mut out = Vec::new();
    let mut below = 0;
    for (bits, c) in counts {
        let v = f64::from_bits(bits);
        out.push((v, f(below)));
        below += c;
        if !(complementary && below == n) {
            out.push((v, f(below)));
        }
    }
    out
}

fn steps_of(rows: &[HashMap<String, String>], series: &str) -> Vec<(f64, f64)> {
    rows.iter()
        .filter(|r| r["series"] == series)
        .map(|r| (num(&r["x"]), num(&r["y"])))
        .collect()
}

#[test]
fn ecdf_steps_are_the_fraction_of_values_at_or_below_x() {
    let dir = generated();
    let lat = data(dir.path(), "latency.csv");
    let rows = csv(dir.path(), "ecdf_latency");
    for system in ["baseline", "cached", "prefetch"] {
        let xs = values_where(&lat, "system", system, "latency_ms");
        let got = steps_of(&rows, system);
        assert_eq!(got, ecdf_vertices(&xs, false), "{system}");
        assert_eq!(got.first().unwrap().1, 0.0);
        assert_eq!(got.last().unwrap().1, 1.0);
    }
}

#[test]
fn ccdf_steps_are_one_minus_the_ecdf_and_never_reach_zero() {
    let dir = generated();
    let lat = data(dir.path(), "latency.csv");
    let rows = csv(dir.path(), "ccdf_latency");
    for system in ["baseline", "cached", "prefetch"] {
        let xs = values_where(&lat, "system", system, "latency_ms");
        let got = steps_of(&rows, system);
        assert_eq!(got, ecdf_vertices(&xs, true), "{system}");
        assert_eq!(got.first().unwrap().1, 1.0);
        // The last step, at the largest value, is the share of values equal
        // to it (1/n when unique); the drop to 0 is left out for a log axis.
        let max = xs.iter().copied().fold(f64::MIN, f64::max);
        let at_max = xs.iter().filter(|v| **v == max).count();
        assert_eq!(*got.last().unwrap(), (max, at_max as f64 / xs.len() as f64));
        assert!(got.iter().all(|(_, y)| *y > 0.0));
    }
}

/// mean ± t(0.975, n-1) · s / √n, s with ddof = 1.
fn ci95(xs: &[f64]) -> (f64, f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let s = (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    let t = StudentsT::new(0.0, 1.0, n - 1.0)
        .unwrap()
        .inverse_cdf(0.975);
    (m, m - t * s / n.sqrt(), m + t * s / n.sqrt())
}

#[test]
fn errorband_ci_is_the_mean_plus_minus_t_sd_over_root_n_at_each_step() {
    let dir = generated();
    let loss = data(dir.path(), "loss.csv");
    let rows = csv(dir.path(), "loss_band");
    let band: Vec<_> = rows.iter().filter(|r| r["mark"] == "errorband").collect();
    assert_eq!(band.len(), 21, "steps 0 to 2000 by 100");
    for r in band {
        let xs = values_where(&loss, "step", &r["x"], "loss");
        assert_eq!(xs.len(), 5);
        assert_eq!(r["n"], "5");
        let (m, lo, hi) = ci95(&xs);
        assert_close(num(&r["center"]), m, "center");
        assert_close(num(&r["lower"]), lo, "lower");
        assert_close(num(&r["upper"]), hi, "upper");
    }
    // The line of means drawn over it is the band's centre.
    let line: Vec<_> = rows.iter().filter(|r| r["mark"] == "line").collect();
    assert_eq!(line.len(), 21);
    for l in line {
        let xs = values_where(&loss, "step", &l["x"], "loss");
        assert_close(num(&l["y"]), ci95(&xs).0, "mean line");
    }
}

#[test]
fn errorbar_from_raw_rows_is_each_benchmarks_ci_around_the_bar_of_its_mean() {
    let dir = generated();
    let sp = data(dir.path(), "speedup.csv");
    let rows = csv(dir.path(), "speedup_errorbar");
    let bars: Vec<_> = rows.iter().filter(|r| r["mark"] == "bar").collect();
    let errs: Vec<_> = rows.iter().filter(|r| r["mark"] == "errorbar").collect();
    assert_eq!(errs.len(), 5);
    for (b, e) in bars.iter().zip(&errs) {
        assert_eq!(b["x"], e["x"]);
        let xs = values_where(&sp, "benchmark", &e["x"], "speedup");
        let (m, lo, hi) = ci95(&xs);
        assert_close(num(&e["center"]), m, "center");
        assert_close(num(&e["lower"]), lo, "lower");
        assert_close(num(&e["upper"]), hi, "upper");
        assert_close(num(&b["y"]), m, "bar");
        assert!(num(&e["lower"]) < num(&b["y"]) && num(&b["y"]) < num(&e["upper"]));
    }
}

#[test]
fn area_draws_each_components_rows_between_its_bounds() {
    let dir = generated();
    let mem = data(dir.path(), "memory.csv");
    let rows = csv(dir.path(), "memory_area");
    assert_eq!(rows.len(), mem.len());
    // One area per component, in first-seen order, each its rows in order.
    let mut by_component = mem.clone();
    by_component.sort_by_key(|d| {
        ["weights", "kv_cache", "activations"]
            .iter()
            .position(|c| *c == d["component"])
    });
    for (r, d) in rows.iter().zip(&by_component) {
        assert_eq!(r["series"], d["component"]);
        assert_eq!(num(&r["x"]), num(&d["time_s"]));
        assert_eq!(num(&r["y"]), num(&d["upper_gb"]));
        assert_eq!(num(&r["y2"]), num(&d["lower_gb"]));
    }
}

#[test]
fn violin_density_is_scipys_gaussian_kde_with_scotts_bandwidth() {
    let dir = generated();
    let dec = data(dir.path(), "decode.csv");
    let rows = csv(dir.path(), "violin_decode");
    for batch in ["batch 1", "batch 8", "batch 32"] {
        let xs = values_where(&dec, "batch", batch, "decode_ms");
        let n = xs.len() as f64;
        let m = xs.iter().sum::<f64>() / n;
        let s = (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        let bw = s * n.powf(-0.2);
        let head = rows
            .iter()
            .find(|r| r["part"] == "violin" && r["x"] == batch)
            .unwrap();
        assert_close(num(&head["bandwidth"]), bw, "bandwidth");
        assert_close(num(&head["median"]), np_quantile(&xs, 0.5), "median");
        let dens: Vec<_> = rows
            .iter()
            .filter(|r| r["part"] == "density" && r["x"] == batch)
            .collect();
        assert_eq!(dens.len(), 100);
        for d in dens.iter().step_by(17) {
            let t = num(&d["y"]);
            let want = xs
                .iter()
                .map(|x| (-0.5 * ((t - x) / bw).powi(2)).exp())
                .sum::<f64>()
                / (n * bw * (2.0 * std::f64::consts::PI).sqrt());
            assert!((num(&d["density"]) - want).abs() < 1e-12, "{batch} at {t}");
        }
    }
}

/// Runs gen on a spec of one figure with `layer` over the gallery's data;
/// returns stderr.
fn gen_err(layer: &str) -> String {
    let dir = gallery();
    std::fs::write(
        dir.path().join("artifact.toml"),
        format!(
            "[sources.latency]\npath = \"data/latency.csv\"\n[sources.loss]\npath = \"data/loss.csv\"\n[figures.f]\nsize = [4, 3]\nlayers = [\n  {layer},\n]\n"
        ),
    )
    .unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert!(!out.status.success(), "gen should fail on {layer}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn options_meaningless_for_a_mark_are_errors_at_their_key() {
    let e = gen_err(
        r#"{ mark = "boxplot", data = "latency", x = "system", y = "latency_ms", bins = 10 }"#,
    );
    assert!(
        e.contains(
            "error: artifact.toml:8:73: `bins` does not apply to a `boxplot` layer (only to `hist`)"
        ),
        "{e}"
    );
    let e = gen_err(
        r#"{ mark = "bar", data = "latency", x = "system", y = "latency_ms", extent = "ci" }"#,
    );
    assert!(e.contains("error: artifact.toml:8:69: `extent` does not apply to a `bar` layer (only to `errorbar`, `boxplot`, `errorband`)"), "{e}");
    let e = gen_err(
        r#"{ mark = "line", data = "latency", x = "request", y = "latency_ms", complementary = true }"#,
    );
    assert!(e.contains("error: artifact.toml:8:71: `complementary` does not apply to a `line` layer (only to `ecdf`)"), "{e}");
    let e = gen_err(r#"{ mark = "ecdf", data = "latency", y = "latency_ms" }"#);
    assert!(
        e.contains("error: artifact.toml:8:38: `y` does not apply to an `ecdf` layer"),
        "{e}"
    );
}

#[test]
fn a_bad_extent_is_an_error_at_the_extent() {
    let e =
        gen_err(r#"{ mark = "errorband", data = "loss", x = "step", y = "loss", extent = "sd" }"#);
    assert!(e.contains("artifact.toml:8:73: unknown extent `sd` for an `errorband` (\"ci\", \"stderr\", \"stdev\", \"iqr\" or \"min-max\")"), "{e}");
    let e = gen_err(
        r#"{ mark = "boxplot", data = "latency", x = "system", y = "latency_ms", extent = "ci" }"#,
    );
    assert!(e.contains("artifact.toml:8:82: a boxplot's `extent` is a number of IQRs (Tukey's 1.5) or \"min-max\""), "{e}");
    let e = gen_err(
        r#"{ mark = "boxplot", data = "latency", x = "system", y = "latency_ms", extent = -1 }"#,
    );
    assert!(e.contains("artifact.toml:8:82: a boxplot's `extent` is a number of IQRs (Tukey's 1.5) or \"min-max\""), "{e}");
}

#[test]
fn an_errorband_needs_y2_or_extent_and_not_both() {
    let e = gen_err(r#"{ mark = "errorband", data = "loss", x = "step", y = "loss" }"#);
    assert!(e.contains("artifact.toml:8:3: an `errorband` needs `y2` (a band from `y` to `y2`) or `extent` (computed from the rows at each x: \"ci\", \"stderr\", \"stdev\", \"iqr\" or \"min-max\")"), "{e}");
    let e = gen_err(
        r#"{ mark = "errorband", data = "loss", x = "step", y = "loss", y2 = "loss", extent = "ci" }"#,
    );
    assert!(e.contains("artifact.toml:8:3: an `errorband` takes its bounds from `y` and `y2`, or computes them with `extent`: not both"), "{e}");
    let e = gen_err(
        r#"{ mark = "errorbar", data = "loss", x = "step", y = "loss", y2 = "loss", extent = "ci" }"#,
    );
    assert!(e.contains("artifact.toml:8:3: an `errorbar` takes its bounds from `y` and `y2`, or computes them from the rows' `y` with `extent`: not both"), "{e}");
}

#[test]
fn a_ci_over_one_row_and_a_violin_of_one_value_are_errors_not_empty_shapes() {
    let e = gen_err(
        r#"{ mark = "errorband", data = "loss", x = "seed", y = "loss", extent = "ci", where = "step == 0 or seed == 1" }"#,
    );
    assert!(e.contains("artifact.toml:8:73: `extent` needs at least 2 rows at each x for a standard deviation; x = 0 has 1"), "{e}");
    let e = gen_err(
        r#"{ mark = "violin", data = "latency", x = "system", y = "latency_ms", where = "request < 1" }"#,
    );
    assert!(e.contains("artifact.toml:8:3: a `violin` needs at least 2 different values at each x for a density; x = baseline has 1 value and no spread"), "{e}");
}

#[test]
fn a_colour_changing_within_an_area_names_the_row() {
    let e = gen_err(
        r#"{ mark = "area", data = "loss", x = "step", y = "loss", color = { expr = "'red' if loss > 1 else 'blue'" } }"#,
    );
    assert!(e.contains("data/loss.csv:7: field `color`: an `area` has one colour per series: this row's is #0000ff where its series began with #ff0000; give `series` the expression that picks the colour"), "{e}");
}

/// The value of attribute `name` in an SVG element's text.
fn attr(el: &str, name: &str) -> Option<f64> {
    let at = el.find(&format!(" {name}=\""))? + name.len() + 3;
    el[at..].split('"').next()?.parse().ok()
}

/// The x spans (left, right) of the SVG's rects filled in the first three
/// colours of the default scheme (Okabe–Ito), in drawing order: boxes,
/// then legend swatches.
fn filled_spans(svg: &str) -> Vec<(f64, f64)> {
    svg.split('<')
        .filter(|e| {
            e.starts_with("rect")
                && ["#0072B2", "#E69F00", "#009E73"]
                    .iter()
                    .any(|c| e.contains(c))
        })
        .map(|e| {
            let (x, w) = (attr(e, "x").unwrap(), attr(e, "width").unwrap());
            (x, x + w)
        })
        .collect()
}

#[test]
fn boxes_of_different_systems_do_not_overlap_and_every_outlier_is_drawn() {
    let dir = generated();
    let svg = std::fs::read_to_string(dir.path().join("figures/box_tukey.svg")).unwrap();
    // The three boxes: filled rects in the systems' colours.
    let mut boxes = filled_spans(&svg);
    assert_eq!(boxes.len(), 3, "{svg}");
    boxes.sort_by(|a, b| a.0.total_cmp(&b.0));
    for w in boxes.windows(2) {
        assert!(w[0].1 < w[1].0, "boxes overlap: {boxes:?}");
    }
    let outliers = csv(dir.path(), "box_tukey")
        .iter()
        .filter(|r| r["part"] == "outlier")
        .count();
    assert_eq!(svg.matches("<circle").count(), outliers);
}

#[test]
fn an_ecdf_over_a_category_axis_is_an_error_not_a_fraction_drawn_between_categories() {
    let e = gen_err(
        r#"{ mark = "violin", data = "latency", y = "system", x = "latency_ms", orient = "horizontal" },
  { mark = "ecdf", data = "latency", x = "latency_ms" }"#,
    );
    assert!(e.contains("artifact.toml:9:3: an `ecdf` layer puts numbers on y, where this panel's y holds categories (\"baseline\")"), "{e}");
}

/// Boxes of two colours at one category were an error (a new user reached
/// for seaborn's `hue`): they now stand side by side in the category's
/// band, each 90% of its half, never over each other.
#[test]
fn boxes_of_two_colours_at_one_category_stand_side_by_side() {
    let dir = gallery();
    std::fs::write(
        dir.path().join("artifact.toml"),
        "[sources.latency]\npath = \"data/latency.csv\"\n[figures.f]\nsize = [4, 3]\nlayers = [\n  { mark = \"boxplot\", data = \"latency\", x = \"'all'\", y = \"latency_ms\", color = { field = \"system\" } },\n]\n",
    )
    .unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(dir.path().join("figures/f.svg")).unwrap();
    let mut boxes = filled_spans(&svg);
    // The boxes, then the legend's three swatches.
    assert_eq!(boxes.len(), 6, "one box per system: {svg}");
    boxes.truncate(3);
    boxes.sort_by(|a, b| a.0.total_cmp(&b.0));
    let widths: Vec<f64> = boxes.iter().map(|b| b.1 - b.0).collect();
    for w in boxes.windows(2) {
        assert!(w[0].1 < w[1].0, "boxes overlap: {boxes:?}");
    }
    assert!(
        widths.iter().all(|w| (w - widths[0]).abs() < 0.01),
        "equal widths: {widths:?}"
    );
}

#[test]
fn errorband_stdev_per_series_is_each_optimizers_mean_plus_minus_sd() {
    let dir = generated();
    let loss = data(dir.path(), "loss_opt.csv");
    let rows = csv(dir.path(), "loss_band_series");
    let band: Vec<_> = rows.iter().filter(|r| r["mark"] == "errorband").collect();
    assert_eq!(band.len(), 42, "21 steps for each of two optimizers");
    for r in band {
        let xs: Vec<f64> = loss
            .iter()
            .filter(|d| d["optimizer"] == r["series"] && d["step"] == r["x"])
            .map(|d| num(&d["loss"]))
            .collect();
        assert_eq!(xs.len(), 5, "{} at {}", r["series"], r["x"]);
        let n = xs.len() as f64;
        let m = xs.iter().sum::<f64>() / n;
        let sd = (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        assert_close(num(&r["center"]), m, "center");
        assert_close(num(&r["lower"]), m - sd, "lower");
        assert_close(num(&r["upper"]), m + sd, "upper");
    }
}
