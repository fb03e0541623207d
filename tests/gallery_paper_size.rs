//! The paper-size gallery (`examples/gallery/paper-size`): figures sized by
//! `[style]` presets, PNG at a dpi, a white background, PDF 1.5 with a Title.

mod common;

use std::path::{Path, PathBuf};

use common::{artifact, copy_dir, root};

fn gallery() -> PathBuf {
    root().join("examples/gallery/paper-size")
}

/// A copy of the gallery folder with its committed outputs.
fn copy() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    copy_dir(&gallery(), d.path());
    d
}

const BP_PER_TEX_PT: f64 = 72.0 / 72.27;
const GOLDEN: f64 = 1.618_033_988_749_895;

/// The `width` and `height` attributes of an SVG, in points.
fn svg_size(svg: &str) -> (f64, f64) {
    let attr = |name: &str| -> f64 {
        let i = svg.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        let rest = &svg[i..];
        rest[..rest.find("pt\"").unwrap()].parse().unwrap()
    };
    (attr("width"), attr("height"))
}

/// The distinct font sizes of an SVG's texts, in points (the SVG is drawn
/// at 10 units per point).
fn font_sizes(svg: &str) -> Vec<f64> {
    let mut v: Vec<f64> = svg
        .split("font-size=\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].parse::<f64>().unwrap() / 10.0)
        .collect();
    v.sort_by(f64::total_cmp);
    v.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
    v
}

fn png_header(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    (w, h)
}

fn read(dir: &Path, rel: &str) -> Vec<u8> {
    std::fs::read(dir.join(rel)).unwrap()
}

#[test]
fn gallery_paper_size_outputs_are_current() {
    let d = copy();
    for sub in [".", "ieeetran"] {
        let out = artifact(&d.path().join(sub), &["check"]);
        assert!(
            out.status.success(),
            "{sub}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_column_figure_is_the_presets_column_wide_at_the_golden_ratio() {
    let d = copy();
    for (sub, column_pt, font_pt) in [(".", 241.147_49, 9.0), ("ieeetran", 252.0, 10.0)] {
        let dir = d.path().join(sub);
        assert!(artifact(&dir, &["gen", "--force"]).status.success());
        let svg = String::from_utf8(read(&dir, "figures/speedup_column.svg")).unwrap();
        let (w, h) = svg_size(&svg);
        // The SVG's size is written to 0.01 pt.
        assert!(
            (w - column_pt * BP_PER_TEX_PT).abs() < 0.006,
            "{sub}: width {w}"
        );
        assert!(
            (h - column_pt * BP_PER_TEX_PT / GOLDEN).abs() < 0.006,
            "{sub}: height {h}"
        );
        // Axis titles at the document's size; tick labels and the legend
        // 2 pt smaller (tueplots' defaults).
        let sizes = font_sizes(&svg);
        let want = [(font_pt - 2.0) * BP_PER_TEX_PT, font_pt * BP_PER_TEX_PT];
        assert_eq!(sizes.len(), 2, "{sub}: {sizes:?}");
        for (got, want) in sizes.iter().zip(want) {
            assert!((got - want).abs() < 1e-6, "{sub}: {sizes:?} against {want}");
        }
    }
}

#[test]
fn text_width_and_aspect_give_the_size() {
    let d = copy();
    let svg = String::from_utf8(read(d.path(), "figures/latency_text.svg")).unwrap();
    let (w, h) = svg_size(&svg);
    assert!((w - 506.295 * BP_PER_TEX_PT).abs() < 0.006, "{w}");
    assert!((h - 506.295 * BP_PER_TEX_PT / 3.5).abs() < 0.006, "{h}");
    let svg = String::from_utf8(read(d.path(), "figures/latency_white.svg")).unwrap();
    let (w, h) = svg_size(&svg);
    assert!((w - 0.5 * 506.295 * BP_PER_TEX_PT).abs() < 0.006, "{w}");
    assert!(
        (h - 0.5 * 506.295 * BP_PER_TEX_PT / 1.4).abs() < 0.006,
        "{h}"
    );
}

#[test]
fn png_is_width_in_inches_times_dpi_and_white_only_where_asked() {
    let d = copy();
    for (name, width_pt, height_pt, white) in [
        ("speedup_column", 241.147_49, 241.147_49 / GOLDEN, false),
        ("latency_white", 0.5 * 506.295, 0.5 * 506.295 / 1.4, true),
    ] {
        let png = read(d.path(), &format!("figures/{name}.png"));
        let (w, h) = png_header(&png);
        let px = |tex_pt: f64| (tex_pt / 72.27 * 200.0).round() as u32;
        assert_eq!((w, h), (px(width_pt), px(height_pt)), "{name}");
        // The background is the SVG's first shape: a white rect over the
        // whole canvas (which the PDF and PNG are drawn from).
        let svg = String::from_utf8(read(d.path(), &format!("figures/{name}.svg"))).unwrap();
        let view = svg.split("viewBox=\"0 0 ").nth(1).unwrap();
        let (vw, rest) = view.split_once(' ').unwrap();
        let vh = &rest[..rest.find('"').unwrap()];
        let first = svg.lines().nth(1).unwrap();
        assert_eq!(
            first.starts_with(&format!(
                "<rect x=\"0\" y=\"0\" width=\"{vw}\" height=\"{vh}\" fill=\"#FFFFFF\""
            )),
            white,
            "{name}: {first}"
        );
    }
}

#[test]
fn png_bytes_are_the_same_on_every_run() {
    let d = copy();
    assert!(artifact(d.path(), &["gen", "--force"]).status.success());
    for name in ["speedup_column", "latency_text", "latency_white"] {
        assert_eq!(
            read(d.path(), &format!("figures/{name}.png")),
            read(&gallery(), &format!("figures/{name}.png")),
            "{name}"
        );
    }
}

#[test]
fn pdf_is_version_1_5_with_a_title() {
    let d = copy();
    let pdf = read(d.path(), "figures/speedup_column.pdf");
    assert_eq!(&pdf[..8], b"%PDF-1.5");
    let text = String::from_utf8_lossy(&pdf);
    // No title in the spec: the figure's name.
    assert!(text.contains("/Title(speedup_column)"), "no Info Title");
    assert!(text.contains("<rdf:li xml:lang=\"x-default\">speedup_column</rdf:li>"));
    assert!(!text.contains("CreationDate"));
}

#[test]
fn pdflatex_includes_the_figure_without_a_version_warning() {
    if std::process::Command::new("pdflatex")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("pdflatex is not installed: skipped");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    std::fs::copy(
        gallery().join("figures/speedup_column.pdf"),
        d.path().join("fig.pdf"),
    )
    .unwrap();
    std::fs::write(
        d.path().join("t.tex"),
        "\\documentclass{article}\\usepackage{graphicx}\\begin{document}\\includegraphics{fig.pdf}\\end{document}\n",
    )
    .unwrap();
    let out = std::process::Command::new("pdflatex")
        .args(["-interaction=nonstopmode", "t.tex"])
        .current_dir(d.path())
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{log}");
    assert!(!log.contains("PDF inclusion"), "{log}");
}

#[test]
fn speedup_bars_are_the_mean_of_five_runs() {
    let d = copy();
    let mut runs: Vec<(String, Vec<f64>)> = Vec::new();
    let data = std::fs::read_to_string(d.path().join("speedup.csv")).unwrap();
    for line in data.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let x: f64 = f[2].parse().unwrap();
        match runs.iter_mut().find(|(n, _)| n == f[0]) {
            Some((_, v)) => v.push(x),
            None => runs.push((f[0].to_string(), vec![x])),
        }
    }
    let csv = std::fs::read_to_string(d.path().join("figures/speedup_column.csv")).unwrap();
    let bars: Vec<(String, f64)> = csv
        .lines()
        .skip(1)
        .filter(|l| l.split(',').nth(2) == Some("bar"))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[3].to_string(), f[4].parse().unwrap())
        })
        .collect();
    assert_eq!(bars.len(), 6);
    for ((name, v), (bar, y)) in runs.iter().zip(&bars) {
        assert_eq!(name, bar);
        assert_eq!(v.len(), 5);
        let mean = v.iter().sum::<f64>() / 5.0;
        assert!((mean - y).abs() < 1e-12, "{name}: {mean} against {y}");
    }
    // redis is the fastest: 1.42 x on average in make_data.py.
    assert_eq!(
        bars.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0,
        "redis"
    );
}

fn spec_error(spec: &str) -> String {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("t.csv"), "a,b\n1,2\n2,3\n").unwrap();
    std::fs::write(
        d.path().join("artifact.toml"),
        format!("[sources.t]\npath = \"t.csv\"\n\n{spec}"),
    )
    .unwrap();
    let out = artifact(d.path(), &["gen"]);
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    e.lines()
        .find(|l| l.contains("artifact.toml:"))
        .unwrap_or(&e)
        .trim_start_matches("error: ")
        .to_string()
}

const LAYER: &str = "layers = [{ mark = \"point\", data = \"t\", x = \"a\", y = \"b\" }]\n";

#[test]
fn sizing_and_output_errors_name_the_place() {
    assert_eq!(
        spec_error(&format!(
            "[style]\npreset = \"acmrt\"\n[figures.f]\nwidth = \"column\"\n{LAYER}"
        )),
        "artifact.toml:5:10: unknown preset `acmrt` (acmart, ieeetran, neurips, icml, usenix, lncs, article); did you mean `acmart`?"
    );
    assert_eq!(
        spec_error(&format!("[figures.f]\nwidth = \"text\"\n{LAYER}")),
        "artifact.toml:5:9: `width = \"text\"` needs the document's text width: add `[style]` with `preset` (acmart, ieeetran, neurips, icml, usenix, lncs, article) or `text_width`"
    );
    assert_eq!(
        spec_error(&format!(
            "[style]\npreset = \"lncs\"\n[figures.f]\nsize = [3, 2]\nwidth = \"text\"\n{LAYER}"
        )),
        "artifact.toml:8:1: `width` cannot be given with `size` in a figure"
    );
    assert_eq!(
        spec_error(&format!(
            "[output]\nformats = [\"svg\", \"jpg\"]\n[figures.f]\nsize = [3, 2]\n{LAYER}"
        )),
        "artifact.toml:5:19: unknown format `jpg` (svg, pdf, png)"
    );
    assert_eq!(
        spec_error(&format!(
            "[output]\nformats = [\"png\", \"svg\", \"png\"]\n[figures.f]\nsize = [3, 2]\n{LAYER}"
        )),
        "artifact.toml:5:26: `png` is listed twice"
    );
    assert_eq!(
        spec_error(&format!(
            "[output]\nformats = []\n[figures.f]\nsize = [3, 2]\n{LAYER}"
        )),
        "artifact.toml:5:11: `formats` is empty: list at least one of svg, pdf, png"
    );
    assert_eq!(
        spec_error(&format!(
            "[style]\npreset = \"icml\"\n[figures.f]\nwidth = \"column\"\naspect = 40\n{LAYER}"
        )),
        "artifact.toml:8:10: `aspect` (width / height) must be from 0.1 to 10, got 40"
    );
    assert_eq!(
        spec_error(&format!(
            "[output]\ndpi = 300\n[figures.f]\nsize = [3, 2]\n{LAYER}"
        )),
        "artifact.toml:5:7: `dpi` does nothing without `png` in `formats` (formats = [\"svg\", \"pdf\", \"png\"])"
    );
    assert_eq!(
        spec_error(&format!(
            "[output]\nformats = [\"png\"]\ndpi = 5000\n[figures.f]\nsize = [3, 2]\n{LAYER}"
        )),
        "artifact.toml:6:7: `dpi` must be from 10 to 2400, got 5000"
    );
    assert_eq!(
        spec_error(&format!(
            "[figures.f]\nsize = [3, 2]\nbackground = \"whte\"\n{LAYER}"
        )),
        "artifact.toml:6:14: background: unknown colour `whte` (use #rrggbb, a CSS name, tab:blue ... tab:cyan or C0 ... C9); did you mean `white`?"
    );
}

#[test]
fn check_fails_when_a_png_is_missing_and_gen_writes_it_back() {
    let d = copy();
    std::fs::remove_file(d.path().join("figures/latency_white.png")).unwrap();
    let out = artifact(d.path(), &["check"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(artifact(d.path(), &["gen"]).status.success());
    assert_eq!(
        read(d.path(), "figures/latency_white.png"),
        read(&gallery(), "figures/latency_white.png")
    );
    let lock = String::from_utf8(read(d.path(), "artifact.lock")).unwrap();
    assert!(lock.contains("figures/latency_white.png"));
}

#[test]
fn a_png_over_100_million_pixels_is_an_error_naming_its_size() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("t.csv"), "a,b\n1,2\n2,3\n").unwrap();
    std::fs::write(
        d.path().join("artifact.toml"),
        format!("[output]\nformats = [\"png\"]\ndpi = 2400\n[sources.t]\npath = \"t.csv\"\n[figures.f]\nsize = [50, 50]\n{LAYER}"),
    )
    .unwrap();
    let out = artifact(d.path(), &["gen"]);
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        e.contains("figure `f`: the PNG would be 120000 x 120000 pixels, more than 100 million: lower `dpi` in [output] or the figure's size"),
        "{e}"
    );
    assert!(!d.path().join("figures/f.png").exists());
}

#[test]
fn a_height_with_a_unit_and_a_width_length_need_no_preset_widths() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("t.csv"), "a,b\n1,2\n2,3\n").unwrap();
    std::fs::write(
        d.path().join("artifact.toml"),
        format!("[style]\nfont_size = 8\n[sources.t]\npath = \"t.csv\"\n[figures.f]\nwidth = \"3in\"\nheight = \"5cm\"\nx = {{ title = \"a\" }}\n{LAYER}"),
    )
    .unwrap();
    assert!(artifact(d.path(), &["gen"]).status.success());
    let svg = String::from_utf8(read(d.path(), "figures/f.svg")).unwrap();
    let (w, h) = svg_size(&svg);
    assert_eq!((w, h), (216.0, 141.73));
    let sizes = font_sizes(&svg);
    assert!((sizes[0] - 6.0 * BP_PER_TEX_PT).abs() < 1e-9, "{sizes:?}");
    assert!((sizes[1] - 8.0 * BP_PER_TEX_PT).abs() < 1e-9, "{sizes:?}");
}

/// The PNG said nothing of its dpi (tiny-skia writes no pHYs chunk), so a
/// word processor or LaTeX placed the 200 dpi figure at 72 or 96 dpi.
#[test]
fn png_without_a_phys_chunk_was_sized_at_72_dpi() {
    let d = copy();
    let png = read(d.path(), "figures/speedup_column.png");
    let at = png
        .windows(4)
        .position(|w| w == b"pHYs")
        .expect("a pHYs chunk");
    let be = |i: usize| u32::from_be_bytes(png[i..i + 4].try_into().unwrap());
    // Length 9: x and y pixels per unit, then the unit (1 = metre).
    assert_eq!(be(at - 4), 9);
    assert_eq!((be(at + 4), be(at + 8), png[at + 12]), (7874, 7874, 1));
    // 7874 pixels per metre is 200 dpi (Pillow writes the same).
    assert_eq!((7874.0_f64 * 0.0254).round(), 200.0);
}
