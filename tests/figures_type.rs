//! Issue 26, part 3 and 4: the paper's typeface and line widths, and the
//! size a figure's text prints at. Text was always DejaVu Sans (x-height
//! 0.547 em against 0.431 for Computer Modern: "10 pt" looked 27% larger
//! than the body), the SVG named it with no generic fallback, frames were
//! 0.8 pt where tueplots draws 0.5 pt, and a figure with an absolute
//! `size` included at 0.7\linewidth printed at 6.1 pt with nothing said.

mod common;

use std::path::Path;

use artifact::figures::{Outcome, compile};
use artifact::font::Face;
use artifact::render::layout::layout;
use artifact::render::scene::{Prim, Scene};
use common::{artifact, gen_ok, stderr};

const DATA: &str = "name,v\nalpha,1.5\nbeta,2.25\ngamma,3\n";

/// A folder with `d.csv` and a spec of `style` and one bar figure `f`
/// sized by `size` (e.g. `width = "column"`).
fn project(style: &str, size: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.csv"), DATA).unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        format!(
            "{style}\n[sources.d]\npath = \"d.csv\"\n\n[figures.f]\n{size}\ntitle = \"Speedup by codec\"\nlayers = [{{ mark = \"bar\", data = \"d\", x = \"name\", y = \"v\" }}]\n"
        ),
    )
    .unwrap();
    dir
}

fn plot_of(dir: &Path) -> artifact::figures::model::Plot {
    let spec = artifact::spec::load(&dir.join("artifact.toml")).unwrap();
    let plan = artifact::plan::Plan::compile(&spec).unwrap();
    let cat = artifact::tables::Catalog::new(&plan).unwrap();
    let (_, globals) = artifact::numbers::compute(&spec, &cat, &|_, _| None);
    match compile(&plan.figures["f"], &cat, &globals).map_err(|e| e.to_string()) {
        Ok(Outcome::Drawn(f)) => f.plot,
        Ok(Outcome::Skipped(why)) => panic!("{why}"),
        Err(e) => panic!("{e}"),
    }
}

fn read(dir: &Path, file: &str) -> Vec<u8> {
    std::fs::read(dir.join(file)).unwrap()
}

fn contains(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

/// The text of `scene` equal to `t`: its size and left and right edges as
/// the lint measures them (in the scene's face).
fn text_box(scene: &Scene, t: &str) -> (f64, f64) {
    let boxes = artifact::render::lint::text_boxes(scene);
    let (_, a) = boxes
        .iter()
        .find(|(s, _)| *s == t)
        .expect("the text is drawn");
    (a.x0, a.x1)
}

#[test]
fn the_pdf_embeds_each_presets_font() {
    for (preset, font) in [
        ("ieeetran", "TeXGyreTermes-Regular"),
        ("neurips", "TeXGyreTermes-Regular"),
        ("acmart", "LinLibertineO"),
        ("lncs", "LMRoman10-Regular"),
        ("article", "LMRoman10-Regular"),
    ] {
        let dir = project(
            &format!("[style]\npreset = \"{preset}\""),
            "width = \"column\"",
        );
        gen_ok(dir.path());
        let pdf = read(dir.path(), "figures/f.pdf");
        // krilla subsets the font: `/BaseFont /ABCDEF+TeXGyreTermes-Regular`.
        assert!(contains(&pdf, &format!("+{font}")), "{preset}: no {font}");
        assert!(
            !contains(&pdf, "DejaVuSans"),
            "{preset}: DejaVu Sans embedded too"
        );
    }
}

#[test]
fn without_a_preset_or_font_the_text_stays_dejavu_sans() {
    let dir = project("", "size = [4, 3]");
    gen_ok(dir.path());
    assert!(contains(&read(dir.path(), "figures/f.pdf"), "+DejaVuSans"));
    let svg = String::from_utf8(read(dir.path(), "figures/f.svg")).unwrap();
    assert!(
        svg.contains("font-family=\"DejaVu Sans, sans-serif\""),
        "{svg}"
    );
}

#[test]
fn the_svg_names_the_family_with_a_generic_fallback() {
    let dir = project("[style]\npreset = \"icml\"", "width = \"column\"");
    gen_ok(dir.path());
    let svg = String::from_utf8(read(dir.path(), "figures/f.svg")).unwrap();
    let families: std::collections::BTreeSet<&str> = svg
        .split("font-family=\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    assert_eq!(
        families.into_iter().collect::<Vec<_>>(),
        ["TeX Gyre Termes, Times, serif"]
    );
}

#[test]
fn font_overrides_the_preset_and_a_figure_given_a_size_takes_it_too() {
    let dir = project(
        "[style]\npreset = \"acmart\"\nfont = \"latin-modern\"",
        "width = \"0.5 text\"",
    );
    gen_ok(dir.path());
    assert!(contains(
        &read(dir.path(), "figures/f.pdf"),
        "+LMRoman10-Regular"
    ));
    // The paper's typeface is every figure's, also one sized in inches.
    let dir = project("[style]\nfont = \"times\"", "size = [4, 3]");
    gen_ok(dir.path());
    assert!(contains(
        &read(dir.path(), "figures/f.pdf"),
        "+TeXGyreTermes-Regular"
    ));
}

#[test]
fn the_png_draws_the_presets_font_not_dejavu() {
    let png = |style: &str| {
        let dir = project(
            &format!("{style}\n[output]\nformats = [\"png\"]\ndpi = 100"),
            "size = [4, 3]",
        );
        gen_ok(dir.path());
        read(dir.path(), "figures/f.png")
    };
    let (sans, times, times_again) = (
        png("[style]\nfont = \"sans\""),
        png("[style]\nfont = \"times\""),
        png("[style]\nfont = \"times\""),
    );
    assert_ne!(sans, times);
    assert_eq!(times, times_again);
}

#[test]
fn text_widths_are_measured_with_the_figures_font() {
    let dir = project("[style]\npreset = \"ieeetran\"", "width = \"column\"");
    let plot = plot_of(dir.path());
    assert_eq!(plot.face, Face::Termes);
    let scene = layout(&plot);
    assert_eq!(scene.face, Face::Termes);
    let size = plot.title_size;
    let (x0, x1) = text_box(&scene, "Speedup by codec");
    let termes = artifact::font::width_in(Face::Termes, "Speedup by codec", size);
    let dejavu = artifact::font::width_in(Face::DejaVuSans, "Speedup by codec", size);
    assert!((x1 - x0 - termes).abs() < 1e-9, "{} vs {termes}", x1 - x0);
    assert!(dejavu > 1.2 * termes, "{dejavu} {termes}");
}

/// The strokes of `scene`'s two-point black paths: (width, length).
fn black_segments(scene: &Scene) -> Vec<(f64, f64)> {
    scene
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Path {
                pts,
                stroke: Some(s),
                ..
            } if pts.len() == 2 && s.color == artifact::color::Color::BLACK => {
                let (a, b) = (pts[0], pts[1]);
                Some((s.width, ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_figure_sized_with_width_draws_tueplots_half_point_frame_and_3pt_ticks() {
    let dir = project("[style]\npreset = \"neurips\"", "width = \"0.5 text\"");
    let scene = layout(&plot_of(dir.path()));
    let segs = black_segments(&scene);
    // Frame and major ticks 0.5 pt; the ticks 3 pt long.
    assert!(segs.iter().all(|(w, _)| *w == 0.5), "{segs:?}");
    let ticks: Vec<f64> = segs.iter().map(|s| s.1).filter(|l| *l < 10.0).collect();
    assert!(
        !ticks.is_empty() && ticks.iter().all(|l| (l - 3.0).abs() < 1e-9),
        "{ticks:?}"
    );
    // tueplots' pad_inches = 0.015: the title sits 1.08 pt below the top.
    let title = scene
        .prims
        .iter()
        .find_map(|p| match p {
            Prim::Text { y, text, .. } if text == "Speedup by codec" => Some(*y),
            _ => None,
        })
        .unwrap();
    assert!((title - 1.08).abs() < 1e-9, "{title}");
}

#[test]
fn a_figure_given_a_size_keeps_matplotlibs_lines() {
    let dir = project("", "size = [4, 3]");
    let segs = black_segments(&layout(&plot_of(dir.path())));
    assert!(segs.iter().all(|(w, _)| *w == 0.8), "{segs:?}");
    let ticks: Vec<f64> = segs.iter().map(|s| s.1).filter(|l| *l < 10.0).collect();
    assert!(
        !ticks.is_empty() && ticks.iter().all(|l| (l - 3.5).abs() < 1e-9),
        "{ticks:?}"
    );
}

#[test]
fn an_unknown_font_is_an_error_naming_the_nearest() {
    let dir = project("[style]\nfont = \"Times\"", "size = [4, 3]");
    let out = artifact(dir.path(), &["gen"]);
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out).lines().next().unwrap(),
        "error: artifact.toml:2:8: unknown font `Times` (sans, times, libertine, latin-modern); did you mean `times`?"
    );
}

#[test]
fn a_font_with_no_figure_is_an_error_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        "[style]\nfont = \"times\"\n",
    )
    .unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out).lines().next().unwrap(),
        "error: artifact.toml:2:8: `[style]` does nothing: there is no figure"
    );
}

/// The demo's fig2 was drawn 8 in wide with 10 pt text and included at
/// 0.7\linewidth of a 175.9 mm text block: it printed at 6.1 pt, above
/// figures at 8.5 to 10 pt, and lint said nothing.
#[test]
fn lint_says_fig2_prints_at_6_1_pt_in_latex_and_typst() {
    let dir = project(
        "[style]\ntext_width = \"175.9mm\"\nfont_size = 10",
        "size = [8, 4]",
    );
    // A second figure drawn at the width it is included at: no warning.
    let mut spec = std::fs::read_to_string(dir.path().join("artifact.toml")).unwrap();
    spec.push_str("\n[figures.g]\nwidth = \"0.7 text\"\nlayers = [{ mark = \"bar\", data = \"d\", x = \"name\", y = \"v\" }]\n");
    std::fs::write(
        dir.path().join("artifact.toml"),
        spec.replace("[figures.f]", "[figures.fig2]"),
    )
    .unwrap();
    gen_ok(dir.path());
    std::fs::write(
        dir.path().join("main.tex"),
        "\\documentclass{article}\n\\begin{document}\n\\includegraphics[width=0.7\\linewidth]{figures/fig2.pdf}\n\\includegraphics[width=0.7\\linewidth]{figures/g.pdf}\n\\end{document}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("main.typ"),
        "#figure(image(\"figures/fig2.pdf\", width: 70%), caption: [a])\n#image(\"figures/g.pdf\", width: 70%)\n",
    )
    .unwrap();
    let out = artifact(dir.path(), &["lint"]);
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &stderr(&out);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("figure-text-size"))
        .collect();
    assert_eq!(
        lines,
        [
            "main.tex:3:39: warning[figure-text-size]: figure `fig2` prints at 6.1 pt; body is 10 pt (drawn 8 in wide, included at 0.7\\linewidth = 4.85 in): draw it at the width it is included at: `width = \"0.7 text\"`",
            "main.typ:1:16: warning[figure-text-size]: figure `fig2` prints at 6.1 pt; body is 10 pt (drawn 8 in wide, included at 70% = 4.85 in): draw it at the width it is included at: `width = \"0.7 text\"`",
        ],
        "{text}"
    );
}

#[test]
fn the_demo_paper_has_no_figure_printing_under_7_pt() {
    let dir = common::paper_whole();
    let out = artifact(dir.path(), &["lint"]);
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &stderr(&out);
    assert!(!text.contains("figure-text-size"), "{text}");
    assert!(text.contains("lint: 0 errors, 0 warnings"), "{text}");
}

#[test]
fn a_superscript_termes_lacks_is_drawn_and_embedded_in_dejavu_sans() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.csv"), "name,v\n10⁻⁴,1\nb,2\n").unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        "[style]\nfont = \"times\"\n[sources.d]\npath = \"d.csv\"\n[figures.f]\nsize = [3, 2]\nlayers = [{ mark = \"bar\", data = \"d\", x = \"name\", y = \"v\" }]\n",
    )
    .unwrap();
    gen_ok(dir.path());
    let pdf = read(dir.path(), "figures/f.pdf");
    assert!(contains(&pdf, "+TeXGyreTermes-Regular") && contains(&pdf, "+DejaVuSans"));
    // The label is measured as drawn: "10" in Termes, "⁻⁴" in DejaVu Sans.
    let scene = layout(&plot_of(dir.path()));
    let (x0, x1) = text_box(&scene, "10⁻⁴");
    let size = match scene.prims.iter().find_map(|p| match p {
        Prim::Text { text, size, .. } if text == "10⁻⁴" => Some(*size),
        _ => None,
    }) {
        Some(s) => s,
        None => panic!("the label is drawn"),
    };
    let want = artifact::font::width_in(Face::Termes, "10", size)
        + artifact::font::width_in(Face::DejaVuSans, "⁻⁴", size);
    assert!((x1 - x0 - want).abs() < 1e-9, "{} vs {want}", x1 - x0);
}

#[test]
fn a_width_sized_colour_bar_ticks_at_half_a_point() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.csv"), "x,y,z\n1,1,0.5\n2,2,1.5\n3,1,3\n").unwrap();
    let spec = |size: &str| {
        format!(
            "[style]\npreset = \"lncs\"\n[sources.d]\npath = \"d.csv\"\n[figures.f]\n{size}\nlayers = [{{ mark = \"point\", data = \"d\", x = \"x\", y = \"y\", color = {{ field = \"z\", scale = {{ scheme = \"viridis\" }} }} }}]\n"
        )
    };
    let widths = |size: &str| {
        std::fs::write(dir.path().join("artifact.toml"), spec(size)).unwrap();
        let mut w: Vec<f64> = black_segments(&layout(&plot_of(dir.path())))
            .into_iter()
            .map(|s| s.0)
            .collect();
        w.dedup();
        w
    };
    assert_eq!(widths("width = \"text\""), [0.5]);
    assert_eq!(widths("size = [4, 3]"), [0.8]);
}
