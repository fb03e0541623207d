//! Bounds and keys that did nothing (issue 12's break-it review): labels
//! `avoid_overlap` would take minutes to place, a dodge `band` that points
//! and error bars ignored, `font_size` / facet `sort` / a constant offset
//! accepted though they change nothing.

mod common;

use artifact::figures::model::Mark;
use common::small::stderr;
use common::*;

const HEAD: &str = "[sources.s]\npath = \"d.csv\"\n\n[figures.f]\nsize = [4, 3]\n";

const DATA: &str = "a,b,cat,sys,lo,hi\n1,2,x,p,1,3\n2,3,y,p,2,4\n3,5,x,q,4,6\n4,1,y,q,0,2\n";

fn write(fig: &str, data: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.csv"), data).unwrap();
    std::fs::write(dir.path().join("artifact.toml"), format!("{HEAD}{fig}\n")).unwrap();
    dir
}

fn gen_error(fig: &str, data: &str) -> String {
    let dir = write(fig, data);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let e = stderr(&out);
    e[e.find("error: ").unwrap()..]
        .lines()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn avoid_overlap_on_20000_labels_is_an_error_at_the_key() {
    let mut data = String::from("a,b,name\n");
    for i in 0..20_000 {
        data.push_str(&format!("{},{},n{i}\n", i % 97, i % 89));
    }
    assert_eq!(
        gen_error(
            r#"layers = [{ mark = "text", data = "s", x = "a", y = "b", text = "{name}", avoid_overlap = true }]"#,
            &data
        ),
        "error: figure `f`: artifact.toml:6:91: avoid_overlap places at most 1000 labels; this layer has 20000: filter the table (`where`) or drop avoid_overlap"
    );
}

/// Bars with `band = 0.5` and error bars and points dodged with them but
/// without `band` once split 0.8 wide bands: each error bar stood beside
/// its bar.
#[test]
fn a_bar_band_is_the_band_of_the_errorbars_dodged_with_it() {
    let dir = write(
        r#"layers = [
  { mark = "bar", data = "s", x = "cat", y = "b", xOffset = "sys", band = 0.5 },
  { mark = "errorbar", data = "s", x = "cat", y = "lo", y2 = "hi", xOffset = "sys" },
  { mark = "point", data = "s", x = "cat", y = "b", xOffset = "sys" },
]"#,
        DATA,
    );
    let spec = artifact::spec::load(&dir.path().join("artifact.toml")).unwrap();
    let plan = artifact::plan::Plan::compile(&spec).unwrap();
    let cat = artifact::tables::Catalog::new(&plan).unwrap();
    let globals = std::sync::Arc::new(artifact::expr::Globals::default());
    let p = match artifact::figures::compile(&plan.figures["f"], &cat, &globals).unwrap() {
        artifact::figures::Outcome::Drawn(f) => f.plot,
        artifact::figures::Outcome::Skipped(why) => panic!("{why}"),
    };
    let (Mark::Rects(bars), Mark::Segments(errs), Mark::Points(pts)) = (
        &p.panels[0].layers[0],
        &p.panels[0].layers[1],
        &p.panels[0].layers[2],
    ) else {
        panic!("bars, error bars, points")
    };
    assert_eq!((bars.len(), errs.len(), pts.len()), (4, 4, 4));
    // Category x at 0, y at 1; sys p, q split a 0.5 band: centres ±0.125.
    let centres = [-0.125, 0.875, 0.125, 1.125];
    for (k, ((b, e), pt)) in bars.iter().zip(errs).zip(pts).enumerate() {
        let (a, z) = b.x.unwrap();
        assert!(((a + z) / 2.0 - centres[k]).abs() < 1e-12, "{k}: {a} {z}");
        assert!((e.from.0 - centres[k]).abs() < 1e-12, "{k}: {}", e.from.0);
        assert!((pt.x - centres[k]).abs() < 1e-12, "{k}: {}", pt.x);
    }
}

#[test]
fn a_second_band_for_the_same_offset_is_an_error_at_the_key() {
    assert_eq!(
        gen_error(
            r#"layers = [
  { mark = "bar", data = "s", x = "cat", y = "b", xOffset = "sys", band = 0.5 },
  { mark = "errorbar", data = "s", x = "cat", y = "lo", y2 = "hi", xOffset = "sys", band = 0.8 },
]"#,
            DATA
        ),
        "error: figure `f`: artifact.toml:8:92: `band` is 0.5 for this panel's `xOffset` groups (set by an earlier layer); this layer's 0.8 would put its marks beside theirs"
    );
}

#[test]
fn font_size_on_a_bar_without_text_is_an_error_at_the_key() {
    assert_eq!(
        gen_error(
            r#"layers = [{ mark = "bar", data = "s", x = "cat", y = "b", font_size = 12 }]"#,
            DATA
        ),
        "error: figure `f`: artifact.toml:6:71: `font_size` does nothing on a `bar` without `text` (value labels)"
    );
}

#[test]
fn font_size_on_a_line_without_end_labels_is_an_error_at_the_key() {
    assert_eq!(
        gen_error(
            r#"layers = [{ mark = "line", data = "s", x = "a", y = "b", end_labels = false, font_size = 12 }]"#,
            DATA
        ),
        "error: figure `f`: artifact.toml:6:90: `font_size` does nothing on a `line` without `end_labels = true`"
    );
    assert_eq!(
        gen_error(
            r#"layers = [{ mark = "line", data = "s", x = "a", y = "b", font_size = 12 }]"#,
            DATA
        ),
        "error: figure `f`: artifact.toml:6:70: `font_size` does nothing on a `line` without `end_labels = true`"
    );
}

#[test]
fn a_facet_sort_value_no_row_has_is_an_error_naming_it() {
    assert_eq!(
        gen_error(
            "facet = { field = \"sys\", sort = [\"q\", \"zz\"] }\nlayers = [{ mark = \"point\", data = \"s\", x = \"a\", y = \"b\" }]",
            DATA
        ),
        "error: figure `f`: artifact.toml:6:33: the facet's `sort` lists `zz` no row has (the values: `p`, `q`)"
    );
}

#[test]
fn a_constant_x_offset_is_an_error_at_the_key() {
    assert_eq!(
        gen_error(
            r#"layers = [{ mark = "bar", data = "s", x = "cat", y = "b", xOffset = 3 }]"#,
            DATA
        ),
        "error: figure `f`: artifact.toml:6:69: `xOffset` is one value for every row: one group, nothing to dodge; give a field (`xOffset = \"name\"`)"
    );
}

/// `gen` with svg and pdf, then new data and `formats = ["svg"]`: the old
/// PDF stayed, showing old data, and `check` called everything current
/// (`\includegraphics{figures/f}` picks the PDF).
#[test]
fn a_dropped_format_leaves_no_stale_file_and_check_reports_an_orphan() {
    let fig = r#"layers = [{ mark = "point", data = "s", x = "a", y = "b" }]"#;
    let dir = write(fig, DATA);
    let spec = |formats: &str| format!("[output]\nformats = {formats}\n\n{HEAD}{fig}\n");
    std::fs::write(dir.path().join("artifact.toml"), spec(r#"["svg", "pdf"]"#)).unwrap();
    gen_ok(dir.path());
    let pdf = dir.path().join("figures/f.pdf");
    assert!(pdf.is_file());
    std::fs::write(dir.path().join("d.csv"), DATA.replace("1,2,x", "1,9,x")).unwrap();
    std::fs::write(dir.path().join("artifact.toml"), spec(r#"["svg"]"#)).unwrap();
    let out = gen_ok(dir.path());
    assert!(!pdf.exists(), "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(artifact(dir.path(), &["check"]).status.code(), Some(0));
    // A PDF the lock does not record (an older run's): check names it.
    std::fs::write(&pdf, b"%PDF-1.5 old").unwrap();
    let out = artifact(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &stderr(&out);
    assert!(
        text.contains("  figures/f.pdf (orphaned: `[output] formats` has no pdf; `artifact gen` removes it if it wrote it, else delete it)"),
        "{text}"
    );
}

fn compiled(dir: &std::path::Path) -> artifact::figures::model::Plot {
    let spec = artifact::spec::load(&dir.join("artifact.toml")).unwrap();
    let plan = artifact::plan::Plan::compile(&spec).unwrap();
    let cat = artifact::tables::Catalog::new(&plan).unwrap();
    let globals = std::sync::Arc::new(artifact::expr::Globals::default());
    match artifact::figures::compile(&plan.figures["f"], &cat, &globals).unwrap() {
        artifact::figures::Outcome::Drawn(f) => f.plot,
        artifact::figures::Outcome::Skipped(why) => panic!("{why}"),
    }
}

/// A 300-character x category left a blank PDF, a 40-character one a plot
/// 15 px tall, with exit 0 and no note: the label is cut to half of the
/// figure's height with "…", with a note; the CSV keeps it whole.
#[test]
fn a_long_category_label_is_shortened_with_an_ellipsis_and_a_note() {
    let long = "a".repeat(300);
    let dir = write(
        r#"layers = [{ mark = "bar", data = "s", x = "k", y = "v" }]"#,
        &format!("k,v\nshort,3\n{long},5\nmid,2\n"),
    );
    let out = gen_ok(dir.path());
    let err = stderr(&out);
    let note = format!(
        "note: figure `f`: x tick label \"{long}\" is too long for the figure; shown as \"aaaaaaaaaaaaaaaaaaaaaaa…\""
    );
    assert!(err.lines().any(|l| l == note), "{err}");
    assert!(!err.contains("crosses the canvas edge"), "{err}");
    let rows = csv(dir.path(), "f");
    assert_eq!(rows[1]["x"], long);
    // The plot keeps room (the 300-character label once took it all).
    let plot = compiled(dir.path());
    let area = &artifact::render::layout::plot_areas(&plot)[0];
    assert!(area.y1 - area.y0 > 216.0 * 0.3, "{area:?}");
    let (scene, notes) = artifact::render::layout::layout_notes(&plot);
    assert!(notes[0].ends_with("shown as \"aaaaaaaaaaaaaaaaaaaaaaa…\""));
    assert!(artifact::render::lint::problems(&scene).is_empty());
}

#[test]
fn ellipsize_keeps_a_fitting_label_and_cuts_a_long_one() {
    use artifact::render::axis::ellipsize;
    assert_eq!(ellipsize("short", 10.0, 100.0), "short");
    let cut = ellipsize(&"word ".repeat(40), 10.0, 60.0);
    assert!(cut.ends_with('…') && artifact::font::width(&cut, 10.0) <= 60.0);
    assert_eq!(ellipsize("abc", 10.0, 0.0), "…");
}
