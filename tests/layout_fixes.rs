//! Layout bugs a new user found in faceted, narrow and log figures: room
//! kept for hidden facet labels, text off the canvas, a log bar facet's
//! domain, linear axes thinned to one tick, a bottom legend pushed off the
//! canvas and log axes over one or two decades with one label.

mod common;

use std::path::Path;

use artifact::figures::{Outcome, compile};
use artifact::render::axis::ticks_for;
use artifact::render::layout::{layout, layout_notes, plot_areas};
use artifact::render::lint::problems;
use artifact::render::scene::{Prim, Scene};

/// A folder with `d.csv` and a spec whose `[figures.f]` ends in `tail`.
fn small(head: &str, tail: &str, data: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.csv"), data).unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        format!("{head}\n[sources.d]\npath = \"d.csv\"\n\n[figures.f]\n{tail}"),
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

/// Deterministic throughput rows: 6 inputs x 4 thread counts x 8 codecs,
/// sizes 0.5..3.5 MB, throughputs 0.171..3.8 GB/s (stored in B/s too).
fn rows() -> String {
    let inputs = ["blosc", "multi", "twitter", "wiki", "taxi", "logs"];
    let codecs = [
        "zstd", "lz4", "snappy", "gzip", "brotli", "blosc_lz", "xz", "lzma",
    ];
    let mut s = String::from("input,threads,system,gbps,bps,size\n");
    let mut k = 0u32;
    for i in inputs {
        for t in [1, 2, 4, 8] {
            for c in codecs {
                k += 1;
                let f = ((k * 37) % 101) as f64 / 100.0;
                let g = 0.171 + f * (3.8 - 0.171);
                let size = 0.5 + ((k * 53) % 97) as f64 / 96.0 * 3.0;
                s += &format!("{i},{t},{c},{g:.3},{:.0},{size:.3}\n", g * 1e9);
            }
        }
    }
    s
}

const ACM: &str = "[style]\npreset = \"acmart\"\n";

fn texts(s: &Scene) -> Vec<String> {
    s.prims
        .iter()
        .filter_map(|p| match p {
            Prim::Text { text, .. } | Prim::TextRotated { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

const POINTS: &str = "layers = [{ mark = \"point\", data = \"d\", x = \"size\", y = \"gbps\", color = { field = \"system\" } }]\n";

fn size(a: &artifact::render::geometry::Area) -> (f64, f64) {
    (a.w(), a.h())
}

#[test]
fn facet_inner_panels_keep_no_room_for_hidden_tick_labels() {
    // Was: plot areas 43 x 21 pt (bottom row) in 80 x 60 pt cells, gaps as
    // wide as the panels, "throughput" titles on top of each other.
    let dir = small(
        ACM,
        &format!(
            "width = \"text\"\naspect = 1.5\nfacet = {{ row = \"threads\", column = \"input\" }}\n\
             x = {{ title = \"size (MB)\" }}\ny = {{ title = \"throughput (GB/s)\" }}\n\
             legend = {{ position = \"bottom\", columns = 4 }}\n{POINTS}"
        ),
        &rows(),
    );
    let plot = plot_of(dir.path());
    let areas = plot_areas(&plot);
    assert_eq!(areas.len(), 24);
    let (w0, h0) = size(&areas[0]);
    for a in &areas {
        let (w, h) = size(a);
        assert!((w - w0).abs() < 1e-9 && (h - h0).abs() < 1e-9, "{a:?}");
    }
    assert!(w0 > 55.0 && h0 > 40.0, "{w0} x {h0}");
    // Between two inner columns: the tick marks, their pad and the gap.
    let between = areas[2].x0 - areas[1].x1;
    // (was 41 pt, as wide as the 43 pt panels)
    assert!(between < 0.45 * w0, "{between} vs {w0}");
    let (scene, notes) = layout_notes(&plot);
    assert_eq!(problems(&scene), Vec::<String>::new());
    assert_eq!(notes, Vec::<String>::new());
    // One y title, on the first column.
    let t = texts(&scene);
    assert_eq!(t.iter().filter(|s| *s == "throughput (GB/s)").count(), 1);
    assert_eq!(t.iter().filter(|s| *s == "size (MB)").count(), 6);
}

#[test]
fn grid_facet_panel_titles_stay_inside_their_cells_and_the_canvas() {
    let dir = small(
        ACM,
        &format!(
            "width = \"text\"\naspect = 1.5\nlegend = {{ position = \"bottom\", columns = 4 }}\nfacet = {{ row = \"threads\", column = \"input\", title = \"{{{{ row }}}} threads, input {{{{ column }}}}\" }}\n{POINTS}"
        ),
        &rows(),
    );
    let plot = plot_of(dir.path());
    let scene = layout(&plot);
    let out: Vec<String> = problems(&scene)
        .into_iter()
        .filter(|p| p.contains("canvas edge"))
        .collect();
    assert_eq!(out, Vec::<String>::new());
}

fn column_facet(legend: &str, extra: &str) -> artifact::figures::model::Plot {
    let dir = small(
        ACM,
        &format!(
            "width = \"column\"\n{extra}facet = {{ field = \"input\", columns = 2 }}\n\
             resolve = {{ scale = {{ y = \"independent\" }} }}\n\
             x = {{ title = \"size (MB)\" }}\ny = {{ title = \"GB/s\" }}\n\
             legend = {{ position = \"{legend}\" }}\n{POINTS}"
        ),
        &rows(),
    );
    plot_of(dir.path())
}

#[test]
fn column_facet_legend_and_tick_labels_stay_on_the_canvas() {
    // Was: the legend off the top ("blosc crosses the canvas edge (top by
    // 55.5 pt)"), x tick labels cut at the bottom, ~10 pt tall panels.
    for legend in ["right", "bottom"] {
        // The default golden-ratio height cannot hold three rows of panels
        // 40 pt tall: nothing leaves the canvas and a note says why.
        let plot = column_facet(legend, "");
        let (scene, notes) = layout_notes(&plot);
        assert_eq!(problems(&scene), Vec::<String>::new(), "{legend}");
        assert_eq!(notes.len(), 1, "{legend}: {notes:?}");
        assert!(
            notes[0].starts_with("6 panels (from panel 1): the plot area is only "),
            "{}",
            notes[0]
        );
        assert!(notes[0].ends_with(
            "pt, as its texts take the rest; make the figure taller (`aspect`, `height`) or wider, or use fewer panels per column or row"
        ));
        // Taller, it fits: panels at least 40 pt tall, no problem, no note.
        let plot = column_facet(legend, "aspect = 0.8\n");
        let (scene, notes) = layout_notes(&plot);
        assert_eq!(problems(&scene), Vec::<String>::new(), "{legend}");
        assert_eq!(notes, Vec::<String>::new(), "{legend}");
        for a in plot_areas(&plot) {
            assert!(a.h() >= 40.0 && a.w() >= 40.0, "{legend}: {a:?}");
        }
    }
}

#[test]
fn facet_bar_on_a_shared_log_axis_has_a_valid_domain() {
    // Was: "the axis domain [0, inf] is empty or invalid".
    let dir = small(
        ACM,
        "width = \"column\"\naspect = 0.8\nfacet = { field = \"input\", columns = 2 }\ny = { scale = \"log\" }\nlayers = [{ mark = \"bar\", data = \"d\", x = \"system\", y = \"gbps\", xOffset = \"threads ~ ''\" }]\n",
        &rows(),
    );
    let plot = plot_of(dir.path());
    // The data's 0.171..3.8 GB/s plus 5% of its log span each side.
    let (lo, hi) = (0.171f64.log10(), 3.8f64.log10());
    let m = 0.05 * (hi - lo);
    for p in &plot.panels {
        assert!(
            (p.y.domain.0 - 10f64.powf(lo - m)).abs() < 1e-9,
            "{:?}",
            p.y.domain
        );
        assert!(
            (p.y.domain.1 - 10f64.powf(hi + m)).abs() < 1e-9,
            "{:?}",
            p.y.domain
        );
    }
    assert_eq!(problems(&layout(&plot)), Vec::<String>::new());
}

fn labels(t: &artifact::render::axis::TickSet) -> Vec<&str> {
    t.major.iter().map(|(_, l)| l.as_str()).collect()
}

#[test]
fn narrow_linear_axis_keeps_two_labelled_ticks() {
    // Was: only "2" on x (0.5..3.5) at 0.15 text wide.
    let dir = small(
        ACM,
        "width = \"0.15 text\"\nlayers = [{ mark = \"point\", data = \"d\", x = \"size\", y = \"gbps\" }]\n",
        &rows(),
    );
    let plot = plot_of(dir.path());
    let a = plot_areas(&plot)[0];
    let t = ticks_for(&plot.panels[0].x, a.w(), false);
    assert_eq!(labels(&t), ["1", "3"]);
    assert_eq!(problems(&layout(&plot)), Vec::<String>::new());
    // 0..3.5 in a 20 pt panel: the ends of the largest 1-2-5 step, 0 and 2.
    let mut x = plot.panels[0].x.clone();
    x.domain = (0.0, 3.5);
    assert_eq!(labels(&ticks_for(&x, 20.0, false)), ["0", "2"]);
}

#[test]
fn bottom_legend_with_eight_columns_stays_on_the_canvas() {
    // Was: "text \"blosc\" crosses the canvas edge (bottom by 9.2 pt)".
    let dir = small(
        ACM,
        &format!(
            "width = \"text\"\naspect = 3\nlegend = {{ position = \"bottom\", columns = 8 }}\n{POINTS}"
        ),
        &rows(),
    );
    let plot = plot_of(dir.path());
    let scene = layout(&plot);
    assert_eq!(problems(&scene), Vec::<String>::new());
    let a = plot_areas(&plot)[0];
    let bottom = artifact::render::lint::text_boxes(&scene)
        .into_iter()
        .filter(|(t, _)| *t == "zstd")
        .map(|(_, b)| b)
        .next()
        .unwrap();
    assert!(bottom.y0 > a.y1 && bottom.y1 <= plot.height, "{bottom:?}");
}

#[test]
fn log_axis_over_one_or_two_decades_labels_two_and_five_multiples() {
    // Was: only "1 GB/s" on 171 MB/s..3.8 GB/s.
    let dir = small(
        ACM,
        "width = \"column\"\nx = { scale = \"log\", format = { prefix = \"si\", unit = \"B/s\" } }\nlayers = [{ mark = \"point\", data = \"d\", x = \"bps\", y = \"size\" }]\n",
        &rows(),
    );
    let plot = plot_of(dir.path());
    let a = plot_areas(&plot)[0];
    let t = ticks_for(&plot.panels[0].x, a.w(), false);
    assert_eq!(labels(&t), ["200 MB/s", "500 MB/s", "1 GB/s", "2 GB/s"]);
    // Without a format: plain numbers (was a lone 10⁰ on a bar axis).
    let dir = small(
        ACM,
        "width = \"column\"\ny = { scale = \"log\" }\nlayers = [{ mark = \"bar\", data = \"d\", x = \"system\", y = \"gbps\", xOffset = \"input ~ threads\", legend = false }]\n",
        &rows(),
    );
    let plot = plot_of(dir.path());
    let a = plot_areas(&plot)[0];
    let t = ticks_for(&plot.panels[0].y, a.h(), true);
    assert_eq!(labels(&t), ["0.2", "0.5", "1", "2"]);
    assert_eq!(problems(&layout(&plot)), Vec::<String>::new());
}
