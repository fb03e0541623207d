//! `rasterize = true` on a layer (matplotlib's `rasterized=True`): its
//! marks are one PNG at the figure's dpi inside the SVG and PDF, the axes
//! and texts stay vectors, the PNG output is drawn from the vectors; a
//! vector layer of 10,000 marks or more is noted.

mod common;

use common::*;

fn points(n: usize) -> String {
    (0..n)
        .map(|i| format!("{{\"x\": {}, \"y\": {}}}\n", i % 97, (i * 7) % 89))
        .collect()
}

const SPEC: &str = r#"[sources.pts]
path = "pts.jsonl"

[output]
formats = ["svg", "pdf", "png"]

[figures.f]
size = [3, 2]
title = "dense"
layers = [{ mark = "point", data = "pts", x = "x", y = "y", size = 2, rasterize = RASTER }]
"#;

fn project_of(n: usize, raster: bool) -> tempfile::TempDir {
    let dir = project(&SPEC.replace("RASTER", &raster.to_string()));
    std::fs::write(dir.path().join("pts.jsonl"), points(n)).unwrap();
    dir
}

#[test]
fn a_rasterized_layer_is_one_png_in_the_svg_and_pdf_and_its_texts_stay_text() {
    let dir = project_of(500, true);
    gen_ok(dir.path());
    let svg = std::fs::read_to_string(dir.path().join("figures/f.svg")).unwrap();
    assert_eq!(svg.matches("<image ").count(), 1, "{svg}");
    assert!(svg.contains("href=\"data:image/png;base64,iVBORw0KGgo"));
    assert_eq!(svg.matches("<circle").count(), 0);
    assert!(
        svg.lines().any(|l| l.trim() == "dense"),
        "the title stays text"
    );
    if has_tool("pdfimages") {
        // One image at the PNG's 300 dpi: 3 x 2 in is 900 x 600 pixels.
        let list = std::process::Command::new("pdfimages")
            .args(["-list", "figures/f.pdf"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let list = String::from_utf8_lossy(&list.stdout);
        assert!(list.contains("image     900   600  rgb"), "{list}");
        assert!(list.contains("smask     900   600  gray"), "{list}");
    } else {
        eprintln!("pdfimages is not installed: the PDF's image is not checked");
    }
    // The same points as vectors: 500 circles, no image.
    let vec = project_of(500, false);
    gen_ok(vec.path());
    let svg = std::fs::read_to_string(vec.path().join("figures/f.svg")).unwrap();
    assert_eq!(svg.matches("<image ").count(), 0);
    assert_eq!(svg.matches("<circle").count(), 500);
    // The PNG output is drawn from the vectors: the same bytes either way.
    assert_eq!(
        std::fs::read(dir.path().join("figures/f.png")).unwrap(),
        std::fs::read(vec.path().join("figures/f.png")).unwrap()
    );
    // And reruns give the same bytes.
    let before = snapshot(dir.path());
    let out = artifact(dir.path(), &["gen", "--force"]);
    assert!(out.status.success());
    assert_eq!(before, snapshot(dir.path()));
}

#[test]
fn ten_thousand_vector_points_get_a_note_suggesting_rasterize() {
    let dir = project_of(10_000, false);
    let out = gen_ok(dir.path());
    // The size is the PDF's as written (456.2 KiB today).
    let pdf = std::fs::metadata(dir.path().join("figures/f.pdf"))
        .unwrap()
        .len();
    let size = artifact::value::held::size_text(pdf);
    assert!(size.ends_with(" KiB"), "{size}");
    assert!(stderr(&out).contains(&format!(
        "note: figure `f`: layer 1 (point) draws 10000 marks as vectors into a PDF of {size}, which a viewer draws mark by mark when it opens it: `rasterize = true` draws them as one image at the PNG's dpi\n"
    )), "{}", stderr(&out));
    // A figure written only as PNG has no vector file to warn of.
    let png_only = project(
        &SPEC
            .replace("RASTER", "false")
            .replace(r#"["svg", "pdf", "png"]"#, r#"["png"]"#),
    );
    std::fs::write(png_only.path().join("pts.jsonl"), points(10_000)).unwrap();
    let out = gen_ok(png_only.path());
    assert!(!stderr(&out).contains("as vectors"), "{}", stderr(&out));
    let dir = project_of(10_000, true);
    let out = gen_ok(dir.path());
    assert!(!stderr(&out).contains("as vectors"), "{}", stderr(&out));
}

#[test]
fn rasterize_on_a_text_layer_is_an_error_at_its_key() {
    let dir = project(
        "[figures.f]\nsize = [3, 2]\nlayers = [{ mark = \"text\", x = 1, y = 1, text = \"a\", rasterize = true }]\n",
    );
    let out = artifact(dir.path(), &["gen"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).starts_with("error: artifact.toml:3:"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("`rasterize`"), "{}", stderr(&out));
}
