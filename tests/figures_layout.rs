//! Issue 26, part 1: no text sits on a mark, and a `best` legend finds
//! room. Every figure of the demo paper and of the gallery is laid out and
//! its texts (legends, value and point labels, annotations, titles) checked
//! against its marks' geometry (bars, error bars, lines, rules, areas,
//! points) as drawn.

mod common;
mod labels_util;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use artifact::color::{Color, cvd};
use artifact::figures::{Outcome, compile};
use artifact::render::geometry::Area;
use artifact::render::layout::{layout, layout_notes, plot_areas};
use artifact::render::lint::{Over, covered, describe, text_on_marks};
use artifact::render::place::{CLEAR, ROOMY};
use artifact::render::scene::{MarkShape, Prim, Scene};
use labels_util::plot_of;

/// The demo paper and every folder with a spec under the gallery (nested
/// ones too), in path order.
fn projects() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        if dir.join("artifact.toml").is_file() {
            out.push(dir.to_path_buf());
        }
        let mut subs: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect();
        subs.sort();
        for s in subs {
            walk(&s, out);
        }
    }
    let root = common::root();
    let mut dirs = vec![root.join("paper")];
    walk(&root.join("examples/gallery"), &mut dirs);
    dirs
}

/// Every drawn figure of the project in `dir`, laid out, by name.
fn scenes(dir: &Path) -> Vec<(String, Scene)> {
    let spec = artifact::spec::load(&dir.join("artifact.toml")).unwrap();
    let plan = artifact::plan::Plan::compile(&spec).unwrap();
    let cat = artifact::tables::Catalog::new(&plan).unwrap();
    let (_, globals): (_, Arc<_>) = artifact::numbers::compute(&spec, &cat, &|_, _| None);
    let mut out = Vec::new();
    for (name, fig) in &plan.figures {
        if let Ok(Outcome::Drawn(f)) = compile(fig, &cat, &globals) {
            out.push((name.clone(), layout(&f.plot)));
        }
    }
    out
}

/// Per figure: (project/figure, marks, texts on marks, what each covers).
fn table() -> Vec<(String, usize, usize, Vec<String>)> {
    let root = common::root();
    let mut rows = Vec::new();
    for dir in projects() {
        let project = dir.strip_prefix(&root).unwrap().display().to_string();
        for (name, scene) in scenes(&dir) {
            let (on, stopped) = text_on_marks(&scene);
            assert!(!stopped, "{project}/{name}: too many texts to check");
            let what = on
                .iter()
                .map(|o| format!("{:?} on {}", o.text, describe(&o.covered)))
                .collect();
            let n = on.iter().map(|o| o.count()).sum();
            rows.push((format!("{project}/{name}"), scene.marks.len(), n, what));
        }
    }
    rows
}

/// The issue's figures: fig1's legend covered 45 of 144 bars, fig3's the
/// tops of the two tallest bins, memory_area's the stack top, grouped
/// speedup's an error bar, speedup_bars' y = 1 rule ran through "0.8×",
/// speedup_column's `best` legend sat on an error bar at 0 pt. No figure
/// of the paper or the gallery has a text box on a mark's box.
#[test]
fn no_text_lies_on_a_mark_in_any_paper_or_gallery_figure() {
    let rows = table();
    let named = [
        "paper/fig1",
        "paper/fig3",
        "examples/gallery/distributions/memory_area",
        "examples/gallery/grouped/speedup",
        "examples/gallery/labels/speedup_bars",
        "examples/gallery/paper-size/speedup_column",
    ];
    for n in named {
        let row = rows.iter().find(|r| r.0 == n);
        assert!(
            row.is_some_and(|r| r.1 > 0),
            "{n}: not laid out, or no marks"
        );
    }
    let bad: Vec<String> = rows
        .iter()
        .filter(|r| r.2 > 0)
        .map(|r| format!("{}: {}", r.0, r.3.join("; ")))
        .collect();
    assert!(bad.is_empty(), "texts on marks:\n{}", bad.join("\n"));
}

/// The size (pt) a figure's smallest text prints at: the gallery shows
/// each figure at its own size; the demo paper includes figure `name` at
/// `width=F\linewidth` of its text width (main.tex), so its text scales
/// by that width over the figure's.
fn printed_scale(dir: &Path, name: &str, scene: &Scene) -> f64 {
    let Ok(tex) = std::fs::read_to_string(dir.join("main.tex")) else {
        return 1.0;
    };
    let spec = artifact::spec::load(&dir.join("artifact.toml")).unwrap();
    let text = artifact::plan::sizing::style(&spec).unwrap().text.unwrap();
    let needle = format!("{{figures/{name}.pdf}}");
    let line = tex.lines().find(|l| l.contains(&needle)).unwrap();
    let width = line
        .split("width=")
        .nth(1)
        .and_then(|w| w.split(['\\', ']', ',']).next())
        .unwrap();
    let fraction: f64 = if width.is_empty() {
        1.0
    } else {
        width.parse().unwrap()
    };
    fraction * text / scene.width
}

/// The smallest text of `scene`, in points as drawn.
fn smallest_text(scene: &Scene) -> f64 {
    scene
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Text { size, text, .. } | Prim::TextRotated { size, text, .. }
                if !text.trim().is_empty() =>
            {
                Some(*size)
            }
            _ => None,
        })
        .fold(f64::INFINITY, f64::min)
}

/// The chromatic colours `scene`'s marks are filled or stroked with (greys,
/// black and white tell nothing apart by hue, and texts are not marks).
fn mark_colors(scene: &Scene) -> Vec<Color> {
    let mut out: Vec<Color> = Vec::new();
    let mut add = |c: Option<Color>| {
        if let Some(c) = c.filter(|c| c.a > 0.0 && !(c.r == c.g && c.g == c.b))
            && !out.iter().any(|o| o.hex() == c.hex())
        {
            out.push(c);
        }
    };
    for p in &scene.prims {
        match p {
            Prim::Rect { fill, stroke, .. }
            | Prim::Path { fill, stroke, .. }
            | Prim::Circle { fill, stroke, .. }
            | Prim::Wedge { fill, stroke, .. } => {
                add(*fill);
                add(stroke.as_ref().map(|s| s.color));
            }
            _ => {}
        }
    }
    out
}

/// More distinct colours than this in one figure is a continuous scale (a
/// heatmap's gradient), judged by its scheme, not pair by pair.
const GRADIENT: usize = 12;

/// One row of the gallery's table per paper and gallery figure: the size
/// its smallest text prints at, texts on marks, the closest pair of its
/// colours under colour-vision deficiencies, and whether it is ready.
fn readiness_table() -> (String, Vec<String>) {
    let root = common::root();
    let on_marks = table();
    let mut out = String::from(
        "| figure | smallest text printed | texts on marks | closest colours, colour-blind (ΔE00) | colour-blind safe | ready |\n| --- | ---: | ---: | --- | --- | --- |\n",
    );
    let mut not_ready = Vec::new();
    for dir in projects() {
        let project = dir.strip_prefix(&root).unwrap().display().to_string();
        let short = project
            .strip_prefix("examples/gallery/")
            .unwrap_or(&project);
        for (name, scene) in scenes(&dir) {
            let key = format!("{project}/{name}");
            let overlaps = on_marks.iter().find(|r| r.0 == key).map_or(0, |r| r.2);
            let printed = smallest_text(&scene) * printed_scale(&dir, &name, &scene);
            let colors = mark_colors(&scene);
            let (closest, safe) = if colors.len() > GRADIENT {
                (format!("a gradient of {} colours", colors.len()), true)
            } else {
                match cvd::closest_pair(&colors) {
                    None => ("one colour".to_string(), true),
                    Some(c) => (
                        format!(
                            "{:.1} ({}, {} and {})",
                            c.distance, c.deficiency, c.pair.0, c.pair.1
                        ),
                        c.distance >= cvd::SAFE_DISTANCE,
                    ),
                }
            };
            // As printed in the table, to 0.1 pt (a 9 pt TeX font less 2 is 6.97 bp).
            let ready = overlaps == 0 && (printed * 10.0).round() >= 70.0 && safe;
            if !ready {
                not_ready.push(key.clone());
            }
            let yes = |b: bool| if b { "yes" } else { "no" };
            out.push_str(&format!(
                "| {short}/{name} | {printed:.1} pt | {overlaps} | {closest} | {} | {} |\n",
                yes(safe),
                yes(ready)
            ));
        }
    }
    (out, not_ready)
}

const TABLE_START: &str = "<!-- readiness table: written by tests/figures_layout.rs";
const TABLE_END: &str = "<!-- end of the readiness table -->";

/// examples/gallery/README.md holds the readiness table of every demo and
/// gallery figure as the code lays them out now, and every figure is ready:
/// its smallest text prints at 7 pt or more, no text lies on a mark, and
/// its colours stay 10 ΔE00 apart under each colour-vision deficiency.
/// `ARTIFACT_BLESS=1 cargo test --test figures_layout readiness` rewrites it.
#[test]
fn readiness_table_in_the_gallery_readme_is_current_and_every_figure_ready() {
    let (table, not_ready) = readiness_table();
    let path = common::root().join("examples/gallery/README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let start = readme.find(TABLE_START).expect("the table's start marker");
    let body = start + readme[start..].find("-->\n\n").expect("the marker's end") + 5;
    let end = readme.find(TABLE_END).expect("the table's end marker");
    if readme[body..end] != table {
        if std::env::var_os("ARTIFACT_BLESS").is_some() {
            std::fs::write(
                &path,
                format!("{}{table}{}", &readme[..body], &readme[end..]),
            )
            .unwrap();
        } else {
            panic!(
                "examples/gallery/README.md's readiness table is stale; run ARTIFACT_BLESS=1 cargo test --test figures_layout readiness\n{table}"
            );
        }
    }
    assert!(not_ready.is_empty(), "not ready: {not_ready:?}\n{table}");
}

/// The one legend of `scene`, with the plot area of its only panel.
fn legend_and_area(dir: &Path, name: &str) -> (Scene, Area, Area) {
    let plot = plot_of(dir, name);
    let scene = layout(&plot);
    assert_eq!(scene.legends.len(), 1, "{name}");
    let area = plot_areas(&plot)[0];
    (scene.clone(), scene.legends[0], area)
}

/// The marks of `scene` of one kind.
fn marks_of<'a>(scene: &'a Scene, kind: &str) -> Vec<&'a MarkShape> {
    scene.marks.iter().filter(|m| m.kind == kind).collect()
}

/// Whether `inner` lies inside `outer`.
fn inside(inner: &Area, outer: &Area) -> bool {
    inner.x0 >= outer.x0 && inner.x1 <= outer.x1 && inner.y0 >= outer.y0 && inner.y1 <= outer.y1
}

/// paper-size/speedup_column: `best` put the legend (upper left) on the
/// xalan error bar with 0 pt between them. Now it keeps 2 pt from every
/// mark, inside the plot.
#[test]
fn best_legend_keeps_2pt_from_an_error_bar_at_paper_size() {
    let dir = common::root().join("examples/gallery/paper-size");
    let (scene, legend, area) = legend_and_area(&dir, "speedup_column");
    assert!(inside(&legend, &area), "{legend:?} {area:?}");
    assert_eq!(marks_of(&scene, "error bar").len(), 6);
    assert_eq!(
        covered(&legend, &scene.marks, CLEAR - 1e-9, Over::Legend),
        []
    );
}

/// fig3 (`upper left`) hid the tops of the two tallest bins and the
/// median rule; `best` finds a free place inside the plot with room to
/// spare, 6 pt from the bins and both rules.
#[test]
fn fig3_best_legend_clears_the_tallest_bins_and_the_median_rule() {
    let dir = common::paper_copy();
    let (scene, legend, area) = legend_and_area(dir.path(), "fig3");
    assert!(inside(&legend, &area), "{legend:?} {area:?}");
    assert_eq!(marks_of(&scene, "rule").len(), 2);
    assert_eq!(
        covered(&legend, &scene.marks, ROOMY - 1e-9, Over::Legend),
        []
    );
}

/// fig1 (`lower right`) covered 84 of its 288 bar segments and 2
/// category rules; no place inside is free of the category rules and
/// bars, so `best` puts the legend below the plot, in one row, inside the
/// figure's fixed size.
#[test]
fn fig1_best_legend_with_no_free_place_inside_goes_below_in_one_row() {
    let dir = common::paper_copy();
    let plot = plot_of(dir.path(), "fig1");
    let (scene, legend, area) = legend_and_area(dir.path(), "fig1");
    assert_eq!(marks_of(&scene, "bar").len(), 288);
    assert!(legend.y0 > area.y1, "{legend:?} {area:?}");
    assert!(legend.x0 >= 0.0 && legend.x1 <= plot.width && legend.y1 <= plot.height);
    // One row: three entries side by side, one line high.
    assert!(legend.h() < 2.0 * 8.0, "{legend:?}");
    assert_eq!(covered(&legend, &scene.marks, CLEAR, Over::Legend), []);
}

/// distributions/memory_area (`upper left`) hid the stack's top for the
/// first fifth of the time axis. The stack leaves no free place inside,
/// and below the plot costs less of it than beside it.
#[test]
fn memory_area_best_legend_goes_below_off_the_stack() {
    let dir = common::root().join("examples/gallery/distributions");
    let plot = plot_of(&dir, "memory_area");
    let (scene, legend, area) = legend_and_area(&dir, "memory_area");
    assert_eq!(marks_of(&scene, "area").len(), 3);
    assert!(legend.y0 > area.y1, "{legend:?} {area:?}");
    assert!(legend.x0 >= 0.0 && legend.x1 <= plot.width, "{legend:?}");
}

/// grouped/speedup (`upper left`, 4 columns): the sssp error bar of
/// `Ours` struck the legend's text. `best` keeps its 4 columns below
/// the plot.
#[test]
fn grouped_speedup_legend_clears_the_error_bars() {
    let dir = common::root().join("examples/gallery/grouped");
    let (scene, legend, area) = legend_and_area(&dir, "speedup");
    assert_eq!(marks_of(&scene, "error bar").len(), 23);
    assert!(!inside(&legend, &area));
    assert_eq!(covered(&legend, &scene.marks, CLEAR, Over::Legend), []);
}

/// Two series; `s = "a"` runs from the top edge at x = 6 to the right
/// edge at y = 9, across the upper right corner, with no vertex there.
const CORNER_LINE: &str = r#"
[sources.s]
rows = [
  { s = "a", x = 0, y = 0 },
  { s = "a", x = 6, y = 10 },
  { s = "a", x = 10, y = 9 },
  { s = "b", x = 0, y = 1 },
  { s = "b", x = 10, y = 1 },
]

[figures.lines]
size = [4, 2.5]
x = { domain = [0, 10] }
y = { domain = [0, 10] }
layers = [
  { mark = "line", data = "s", x = "x", y = "y", series = "s", color = { field = "s" } },
]
"#;

/// On another paper's data a `best` legend hid the first points of a
/// line: only the line's vertices were kept off, so a segment crossing a
/// corner between two vertices did not count. Now every segment does.
#[test]
fn best_legend_does_not_sit_on_a_line_between_its_vertices() {
    let dir = common::project(CORNER_LINE);
    let (scene, legend, area) = legend_and_area(dir.path(), "lines");
    assert!(inside(&legend, &area));
    assert_eq!(marks_of(&scene, "line").len(), 2);
    assert_eq!(
        covered(&legend, &scene.marks, CLEAR - 1e-9, Over::Legend),
        []
    );
    // Not the upper right, where the line runs.
    assert!(
        legend.x1 < area.x1 - 10.0 || legend.y0 > area.y0 + 10.0,
        "{legend:?}"
    );
}

/// Four bars from 0 to the top of the y axis: no place inside is free.
const FULL_BARS: &str = r#"
[sources.s]
rows = [
  { bench = "a", system = "base", speedup = 10 },
  { bench = "b", system = "fast", speedup = 10 },
  { bench = "c", system = "fast", speedup = 10 },
  { bench = "d", system = "new", speedup = 10 },
]

[figures.bars]
size = [SIZE]
y = { domain = [0, 10] }
layers = [
  { mark = "bar", data = "s", x = "bench", y = "speedup", color = { field = "system" } },
]
"#;

/// With no free place inside, `best` moves the legend out of the plot to
/// the side that leaves the larger plot area: right of a wide figure,
/// below a tall one. The plot shrinks; the figure keeps its size.
#[test]
fn best_legend_with_no_room_goes_right_of_a_wide_plot_and_below_a_tall_one() {
    for (size, right) in [("6, 2", true), ("2.5, 4", false)] {
        let spec = FULL_BARS.replace("SIZE", size);
        let dir = common::project(&spec);
        let (scene, legend, area) = legend_and_area(dir.path(), "bars");
        if right {
            assert!(legend.x0 > area.x1, "{size}: {legend:?} {area:?}");
        } else {
            assert!(legend.y0 > area.y1, "{size}: {legend:?} {area:?}");
        }
        assert!(legend.x1 <= scene.width && legend.y1 <= scene.height);
        let bare = common::project(&spec.replace(
            "y = { domain",
            "legend = { position = \"none\" }\ny = { domain",
        ));
        let full = plot_areas(&plot_of(bare.path(), "bars"))[0];
        let b = layout(&plot_of(bare.path(), "bars"));
        assert_eq!((b.width, b.height), (scene.width, scene.height));
        assert!(area.w() * area.h() < full.w() * full.h() - 1.0, "{size}");
        assert_eq!(text_on_marks(&scene).0, []);
    }
}

/// On another paper's data `upper left` covered the tallest bar with no
/// note. An explicit position stays where the spec asks, and `gen` says
/// what it covers.
#[test]
fn an_explicit_legend_over_the_tallest_bar_is_a_note_naming_it() {
    let spec = FULL_BARS
        .replace("SIZE", "4, 2.5")
        .replace("speedup = 10 }", "speedup = 4 }")
        .replacen("speedup = 4 }", "speedup = 10 }", 1)
        .replace(
            "y = { domain",
            "legend = { position = \"upper left\" }\ny = { domain",
        );
    let dir = common::project(&spec);
    let out = common::gen_ok(dir.path());
    let err = common::stderr(&out);
    assert!(
        err.contains(
            "note: figure `bars`: the legend at upper left covers a bar; \
             `best` (the default) keeps it off the marks"
        ),
        "{err}"
    );
    let (_, notes) = layout_notes(&plot_of(dir.path(), "bars"));
    assert_eq!(notes.len(), 1, "{notes:?}");
}

/// A text inside its bar is on its own ground, but a legend is not: a
/// legend inside one wide bar hides it, so `best` takes it outside.
#[test]
fn best_legend_does_not_hide_inside_one_wide_bar() {
    let spec = FULL_BARS.replace("SIZE", "4, 2.5").replace(
        "  { bench = \"b\", system = \"fast\", speedup = 10 },\n  { bench = \"c\", system = \"fast\", speedup = 10 },\n  { bench = \"d\", system = \"new\", speedup = 10 },\n",
        "",
    );
    let dir = common::project(&spec);
    let (scene, legend, area) = legend_and_area(dir.path(), "bars");
    assert_eq!(marks_of(&scene, "bar").len(), 1);
    assert!(!inside(&legend, &area), "{legend:?} {area:?}");
    assert_eq!(text_on_marks(&scene).0, []);
}
