//! Issue 26, part 1: no text sits on a mark, and a `best` legend finds
//! room. Every figure of the demo paper and of the gallery is laid out and
//! its texts (legends, value and point labels, annotations, titles) checked
//! against its marks' geometry (bars, error bars, lines, rules, areas,
//! points) as drawn.

mod common;
mod labels_util;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use artifact::figures::{Outcome, compile};
use artifact::render::geometry::Area;
use artifact::render::layout::{layout, layout_notes, plot_areas};
use artifact::render::lint::{Over, covered, describe, text_on_marks};
use artifact::render::place::{CLEAR, ROOMY};
use artifact::render::scene::{MarkShape, Scene};
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

/// Prints the table for examples/gallery/README.md:
/// `cargo test --test figures_layout -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_text_on_mark_table() {
    println!("| figure | marks | texts on marks |");
    println!("| --- | ---: | ---: |");
    for (name, marks, n, what) in table() {
        let what = if what.is_empty() {
            String::new()
        } else {
            format!(" ({})", what.join("; "))
        };
        println!("| {name} | {marks} | {n}{what} |");
    }
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
