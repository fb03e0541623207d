//! Issue 26, point 2: one colour per value across the paper. A value keeps
//! its colour whatever the layer, panel, order or figure; `series` and
//! offset splits get distinct colours; an explicit list too short for the
//! values, or a paper with more values than the scheme's colours, is an
//! error at the channel; `[style] colors` fixes a value's colour in every
//! figure; the default scheme is Okabe–Ito.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{artifact, csv, gen_ok, stderr};

/// Okabe–Ito in the default order: blue, orange, green, vermillion, sky
/// blue, reddish purple, yellow, black.
const OKABE_ITO: [&str; 8] = [
    "#0072b2", "#e69f00", "#009e73", "#d55e00", "#56b4e9", "#cc79a7", "#f0e442", "#000000",
];

/// A folder with `spec` and the CSV files `files` (name, text) in data/.
fn project(spec: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = common::project(spec);
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join("data").join(name), text).unwrap();
    }
    dir
}

/// The colour of each value of column `key` in figure `name`'s CSV,
/// taken from the rows of layer `layer` (every row of a value must agree).
fn colours(dir: &Path, name: &str, layer: &str, key: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for r in csv(dir, name).into_iter().filter(|r| r["layer"] == layer) {
        let prev = out.insert(r[key].clone(), r["color"].clone());
        assert!(
            prev.is_none_or(|p| p == r["color"]),
            "{name}: `{}` drawn in two colours",
            r[key]
        );
    }
    out
}

/// The error part of a failed run's standard error.
fn error_of(dir: &Path) -> String {
    let out = artifact(dir, &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let e = stderr(&out);
    e[e.find("error: ").expect("an error")..].to_string()
}

const SYSTEMS: &str =
    "bench,system,speedup\nbfs,Baseline,1\nbfs,Ligra,1.7\nbfs,GraphIt,1.8\nbfs,Ours,2.6\n";

/// `grouped/speedup` and `grouped/speedup_horizontal`: the first colours
/// its bars by their `xOffset` (first-seen order), the second by a
/// `yOffset` whose `domain` lists the systems the other way round, and a
/// third colours points by a `color` field in yet another order.
const TWO_FIGURES: &str = r#"[sources.s]
path = "data/s.csv"

[figures.speedup]
size = [4, 3]
layers = [{ mark = "bar", data = "s", x = "bench", y = "speedup", xOffset = "system" }]

[figures.speedup_horizontal]
size = [4, 3]
layers = [{ mark = "bar", data = "s", y = "bench", x = "speedup", orient = "horizontal", yOffset = { field = "system", scale = { domain = ["Ours", "GraphIt", "Ligra", "Baseline"] } } }]

[figures.points]
size = [4, 3]
layers = [{ mark = "point", data = "s", where = "system != 'Ligra'", x = "speedup", y = "speedup", color = { field = "system" } }]
"#;

#[test]
fn the_same_value_has_the_same_colour_in_two_figures() {
    let dir = project(TWO_FIGURES, &[("s.csv", SYSTEMS)]);
    gen_ok(dir.path());
    let a = colours(dir.path(), "speedup", "0", "xOffset");
    let b = colours(dir.path(), "speedup_horizontal", "0", "yOffset");
    assert_eq!(a["Baseline"], OKABE_ITO[0]);
    assert_eq!(a["Ligra"], OKABE_ITO[1]);
    assert_eq!(a["GraphIt"], OKABE_ITO[2]);
    assert_eq!(a["Ours"], OKABE_ITO[3]);
    assert_eq!(
        a, b,
        "the reversed domain reorders the sub-bands, not the colours"
    );
    // A `color` scale over the same field, with one value filtered out:
    // the others keep their colours (no shift into Ligra's).
    let pts = csv(dir.path(), "points");
    let by_speed: BTreeMap<&str, &str> = pts
        .iter()
        .map(|r| (r["x"].as_str(), r["color"].as_str()))
        .collect();
    assert_eq!(by_speed["1"], OKABE_ITO[0], "Baseline");
    assert_eq!(by_speed["1.8"], OKABE_ITO[2], "GraphIt");
    assert_eq!(by_speed["2.6"], OKABE_ITO[3], "Ours");
    // The legends too: the horizontal figure's swatch for Baseline is the
    // blue the first figure's bars have.
    let svg = std::fs::read_to_string(dir.path().join("figures/speedup_horizontal.svg")).unwrap();
    for c in &OKABE_ITO[..4] {
        let fill = format!("fill=\"{}\"", c.to_uppercase());
        assert_eq!(
            svg.matches(&fill).count(),
            2,
            "{c}: a bar and a legend swatch"
        );
    }
}

#[test]
fn lines_split_by_series_get_distinct_colours_and_legend_entries() {
    let spec = r#"[sources.s]
path = "data/s.csv"

[figures.f]
size = [4, 3]
layers = [{ mark = "line", data = "s", x = "x", y = "y", series = "k" }]
"#;
    let data = "x,y,k\n1,1,a\n2,2,a\n1,2,b\n2,3,b\n1,3,c\n2,4,c\n";
    let dir = project(spec, &[("s.csv", data)]);
    gen_ok(dir.path());
    let got = colours(dir.path(), "f", "0", "series");
    let want: BTreeMap<String, String> = [("a", 0), ("b", 1), ("c", 2)]
        .iter()
        .map(|(k, i)| (k.to_string(), OKABE_ITO[*i].to_string()))
        .collect();
    assert_eq!(got, want);
    // Three polylines and three legend lines, each colour twice.
    let svg = std::fs::read_to_string(dir.path().join("figures/f.svg")).unwrap();
    for c in &OKABE_ITO[..3] {
        let stroke = format!("stroke=\"{}\"", c.to_uppercase());
        assert_eq!(svg.matches(&stroke).count(), 2, "{c}\n{svg}");
    }
}

#[test]
fn an_explicit_range_shorter_than_the_values_is_an_error_naming_the_list_and_values() {
    let spec = r#"[sources.s]
path = "data/s.csv"

[figures.f]
size = [4, 3]
layers = [{ mark = "line", data = "s", x = "x", y = "y", series = "k", color = { field = "k", scale = { range = ["red", "blue"] } } }]
"#;
    let data = "x,y,k\n1,1,a\n1,2,b\n1,3,c\n";
    let dir = project(spec, &[("s.csv", data)]);
    assert_eq!(
        error_of(dir.path()),
        "error: figure `f`: artifact.toml:6:80: `color`'s `range` has 2 colours for 3 values (a, b, c): give one colour per value, or drop `range` for the paper's colours\n  |\n6 | layers = [{ mark = \"line\", data = \"s\", x = \"x\", y = \"y\", series = \"k\", color = { field = \"k\", scale = { range = [\"red\", \"blue\"] } } }]\n  |                                                                                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n1 part(s) failed; their previous outputs are left as they were\n"
    );
}

#[test]
fn eight_series_get_eight_distinct_colours_and_a_ninth_is_an_error() {
    let spec = r#"[sources.s]
path = "data/s.csv"

[figures.f]
size = [4, 3]
layers = [{ mark = "line", data = "s", x = "x", y = "y", series = "k", color = { field = "k" } }]
"#;
    let mut data = String::from("x,y,k\n");
    for i in 0..8 {
        data.push_str(&format!("1,{i},v{i}\n2,{i},v{i}\n"));
    }
    let dir = project(spec, &[("s.csv", &data)]);
    gen_ok(dir.path());
    let got = colours(dir.path(), "f", "0", "series");
    let want: BTreeMap<String, String> = (0..8)
        .map(|i| (format!("v{i}"), OKABE_ITO[i].to_string()))
        .collect();
    assert_eq!(got, want);
    data.push_str("1,8,v8\n");
    std::fs::write(dir.path().join("data/s.csv"), &data).unwrap();
    assert_eq!(
        error_of(dir.path()),
        "error: figure `f`: artifact.toml:6:80: `color` colours by `k`, which has 9 values across the paper's figures so far (v0, v1, v2, v3, v4, v5, v6, v7, v8); okabe-ito has 8 colours: give the values colours in `[style] colors`, a scheme with more colours (`scheme = \"tab20\"`), or fewer values\n  |\n6 | layers = [{ mark = \"line\", data = \"s\", x = \"x\", y = \"y\", series = \"k\", color = { field = \"k\" } }]\n  |                                                                                ^^^^^^^^^^^^^^^\n1 part(s) failed; their previous outputs are left as they were\n"
    );
}

#[test]
fn a_value_past_the_scheme_in_another_figure_does_not_fail_this_one() {
    // Figure `many` has 9 values and fails; `few`, after it, draws two of
    // the first eight and is built.
    let spec = r#"[sources.s]
path = "data/s.csv"

[figures.many]
size = [4, 3]
layers = [{ mark = "point", data = "s", x = "x", y = "x", color = { field = "k" } }]

[figures.few]
size = [4, 3]
layers = [{ mark = "point", data = "s", where = "x < 2", x = "x", y = "x", color = { field = "k" } }]
"#;
    let mut data = String::from("x,k\n");
    for i in 0..9 {
        data.push_str(&format!("{i},v{i}\n"));
    }
    let dir = project(spec, &[("s.csv", &data)]);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("error: figure `many`"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("figure `few`"), "{}", stderr(&out));
    let few = csv(dir.path(), "few");
    let got: Vec<&str> = few.iter().map(|r| r["color"].as_str()).collect();
    assert_eq!(got, [OKABE_ITO[0], OKABE_ITO[1]]);
}

#[test]
fn style_colors_fix_a_values_colour_in_every_figure_and_the_rest_skip_it() {
    let spec = TWO_FIGURES.replace(
        "[sources.s]",
        "[style]\ncolors = { Ours = \"#0072b2\", GraphIt = \"tab:red\" }\n\n[sources.s]",
    );
    let dir = project(&spec, &[("s.csv", SYSTEMS)]);
    gen_ok(dir.path());
    let a = colours(dir.path(), "speedup", "0", "xOffset");
    let b = colours(dir.path(), "speedup_horizontal", "0", "yOffset");
    assert_eq!(a, b);
    assert_eq!(a["Ours"], "#0072b2");
    assert_eq!(a["GraphIt"], "#d62728");
    // Blue is taken: Baseline and Ligra take the next colours.
    assert_eq!(a["Baseline"], OKABE_ITO[1]);
    assert_eq!(a["Ligra"], OKABE_ITO[2]);
}

#[test]
fn style_colors_that_are_wrong_are_errors_at_their_table_before_the_data() {
    let cases = [
        (
            "colors = { Ours = \"qqq\" }",
            "error: artifact.toml:2:10: `colors`: `Ours`: unknown colour `qqq` (use #rrggbb, a CSS name, tab:blue ... tab:cyan or C0 ... C9)",
        ),
        (
            "colors = { Ours = \"red\", Ligra = \"#ff0000\" }",
            "error: artifact.toml:2:10: `colors` gives `Ours` and `Ligra` the same colour #ff0000: one colour per value",
        ),
        (
            "colors = { Ours = \"none\" }",
            "error: artifact.toml:2:10: `colors`: `Ours` is `none`: a value is drawn in a colour, not `none`",
        ),
    ];
    for (line, want) in cases {
        let spec = TWO_FIGURES.replace("[sources.s]", &format!("[style]\n{line}\n\n[sources.s]"));
        // No data: the spec is checked first.
        let dir = project(&spec, &[]);
        let e = error_of(dir.path());
        assert_eq!(e.lines().next().unwrap(), want);
    }
    // A table no figure reads: nothing colours by a field.
    let spec = "[style]\ncolors = { Ours = \"red\" }\n\n[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"rule\", y = 1 }]\n";
    let dir = project(spec, &[]);
    assert_eq!(
        error_of(dir.path()).lines().next().unwrap(),
        "error: artifact.toml:2:10: `[style] colors` colours nothing: no layer colours by a field (`color = { field = ... }`, a `series` or an offset)"
    );
}

#[test]
fn a_new_value_in_an_earlier_figure_rebuilds_the_later_ones_that_share_its_field() {
    // `first` reads its own file; `second` another. A value new to the
    // first figure takes a colour before the second figure's values, so
    // the second is rebuilt (and `check --fast` says the paper is stale).
    let spec = r#"[sources.a]
path = "data/a.csv"

[sources.b]
path = "data/b.csv"

[figures.first]
size = [4, 3]
layers = [{ mark = "point", data = "a", x = "x", y = "x", color = { field = "k" } }]

[figures.second]
size = [4, 3]
layers = [{ mark = "point", data = "b", x = "x", y = "x", color = { field = "k" } }]

[figures.other]
size = [4, 3]
layers = [{ mark = "point", data = "b", x = "x", y = "x", color = { field = "x" } }]
"#;
    let dir = project(
        spec,
        &[("a.csv", "x,k\n1,p\n"), ("b.csv", "x,k\n1,p\n2,q\n")],
    );
    gen_ok(dir.path());
    let color_of = |name: &str| -> Vec<String> {
        csv(dir.path(), name)
            .into_iter()
            .map(|r| r["color"].clone())
            .collect()
    };
    assert_eq!(color_of("second"), [OKABE_ITO[0], OKABE_ITO[1]]);
    let fast = artifact(dir.path(), &["check", "--fast"]);
    assert!(fast.status.success(), "{}", stderr(&fast));
    std::fs::write(dir.path().join("data/a.csv"), "x,k\n1,n\n2,p\n").unwrap();
    let fast = artifact(dir.path(), &["check", "--fast"]);
    assert!(!fast.status.success(), "the paper is stale");
    let out = gen_ok(dir.path());
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &stderr(&out);
    assert!(text.contains("figures/second.svg"), "{text}");
    assert!(!text.contains("figures/other.svg"), "{text}");
    // p keeps the first figure's second colour everywhere; q is third.
    assert_eq!(color_of("first"), [OKABE_ITO[0], OKABE_ITO[1]]);
    assert_eq!(color_of("second"), [OKABE_ITO[1], OKABE_ITO[2]]);
}

#[test]
fn a_mark_without_colour_is_drawn_in_the_default_schemes_first_colour() {
    let spec = "[sources.s]\npath = \"data/s.csv\"\n\n[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"point\", data = \"s\", x = \"x\", y = \"x\" }]\n";
    let dir = project(spec, &[("s.csv", "x\n1\n")]);
    gen_ok(dir.path());
    assert_eq!(csv(dir.path(), "f")[0]["color"], OKABE_ITO[0]);
}

#[test]
fn a_shape_over_the_colour_field_takes_its_values_place_in_the_paper() {
    // The second figure lacks `a`: `b` and `c` keep the shapes (and the
    // colours) of their places, square and triangle, not circle and square.
    let spec = r#"[sources.s]
path = "data/s.csv"

[figures.all]
size = [4, 3]
layers = [{ mark = "point", data = "s", x = "x", y = "x", color = { field = "k" }, shape = { field = "k" } }]

[figures.some]
size = [4, 3]
layers = [{ mark = "point", data = "s", where = "k != 'a'", x = "x", y = "x", color = { field = "k" }, shape = { field = "k" } }]
"#;
    let dir = project(spec, &[("s.csv", "x,k\n1,a\n2,b\n3,c\n")]);
    gen_ok(dir.path());
    let cues = |name: &str| -> Vec<(String, String)> {
        csv(dir.path(), name)
            .into_iter()
            .map(|r| (r["color"].clone(), r["shape"].clone()))
            .collect()
    };
    let all = cues("all");
    assert_eq!(
        all,
        [
            (OKABE_ITO[0].to_string(), "circle".to_string()),
            (OKABE_ITO[1].to_string(), "square".to_string()),
            (OKABE_ITO[2].to_string(), "triangle".to_string()),
        ]
    );
    assert_eq!(cues("some"), all[1..]);
}

#[test]
fn a_shape_on_a_line_picks_each_series_marker() {
    let spec = r#"[sources.s]
path = "data/s.csv"

[figures.f]
size = [4, 3]
layers = [{ mark = "line", data = "s", x = "x", y = "y", series = "k", shape = { field = "k" }, marker = "circle" }]
"#;
    let data = "x,y,k\n1,1,a\n2,2,a\n1,2,b\n2,3,b\n";
    let dir = project(spec, &[("s.csv", data)]);
    gen_ok(dir.path());
    // Series `a`: circles at its 2 points and on its legend line; `b`:
    // squares (drawn as polygons), likewise.
    let svg = std::fs::read_to_string(dir.path().join("figures/f.svg")).unwrap();
    assert_eq!(svg.matches("<circle").count(), 3, "{svg}");
    assert_eq!(svg.matches("<polygon").count(), 3, "{svg}");
    // Without `marker` there is nothing for `shape` to pick.
    let dir = project(
        &spec.replace(", marker = \"circle\"", ""),
        &[("s.csv", data)],
    );
    assert_eq!(
        error_of(dir.path()).lines().next().unwrap(),
        "error: figure `f`: artifact.toml:6:11: `shape` on a `line` picks each series' marker: give `marker` (and `marker_size`) to draw markers"
    );
}

#[test]
fn an_offset_without_colour_or_legend_cycles_the_scheme_past_its_colours() {
    // Nine sub-bands, no `color`, no legend: nothing names the colours,
    // so the ninth repeats the first rather than failing the figure.
    let spec = r#"[sources.s]
path = "data/s.csv"

[figures.f]
size = [4, 3]
layers = [{ mark = "bar", data = "s", x = "'all'", y = "v", xOffset = "k", legend = false }]
"#;
    let mut data = String::from("k,v\n");
    for i in 0..9 {
        data.push_str(&format!("v{i},{i}\n"));
    }
    let dir = project(spec, &[("s.csv", &data)]);
    gen_ok(dir.path());
    let got = colours(dir.path(), "f", "0", "xOffset");
    assert_eq!(got["v0"], OKABE_ITO[0]);
    assert_eq!(got["v7"], OKABE_ITO[7]);
    assert_eq!(got["v8"], OKABE_ITO[0]);
    // With its legend, the same figure is an error at the offset.
    let dir = project(&spec.replace(", legend = false", ""), &[("s.csv", &data)]);
    assert!(
        error_of(dir.path()).starts_with(
            "error: figure `f`: artifact.toml:6:71: `xOffset` colours by `k`, which has 9 values"
        ),
        "{}",
        error_of(dir.path())
    );
}

#[test]
fn fixed_colours_taken_from_the_scheme_leave_fewer_for_the_other_values() {
    // Two of okabe-ito's colours fixed: 6 left for 7 other values.
    let spec = r##"[style]
colors = { v0 = "#0072b2", v1 = "#e69f00" }

[sources.s]
path = "data/s.csv"

[figures.f]
size = [4, 3]
layers = [{ mark = "point", data = "s", x = "x", y = "x", color = { field = "k" } }]
"##;
    let mut data = String::from("x,k\n");
    for i in 0..9 {
        data.push_str(&format!("{i},v{i}\n"));
    }
    let dir = project(spec, &[("s.csv", &data)]);
    assert_eq!(
        error_of(dir.path()).lines().next().unwrap(),
        "error: figure `f`: artifact.toml:9:67: `color` colours by `k`, which has 7 values besides those `[style] colors` fixes across the paper's figures so far (v2, v3, v4, v5, v6, v7, v8); okabe-ito has 6 colours left: give the values colours in `[style] colors`, a scheme with more colours (`scheme = \"tab20\"`), or fewer values"
    );
}

#[test]
fn hatch_gives_each_bar_a_pattern_of_its_colours_place_as_a_second_cue() {
    let spec = r#"[sources.s]
path = "data/s.csv"

[figures.f]
size = [4, 3]
layers = [{ mark = "bar", data = "s", x = "k", y = "v", color = { field = "k", scale = { hatch = true } } }]
"#;
    let dir = project(spec, &[("s.csv", "k,v\na,1\nb,2\nc,3\n")]);
    gen_ok(dir.path());
    let rows = csv(dir.path(), "f");
    let cues: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["color"].as_str(), r["hatch"].as_str()))
        .collect();
    assert_eq!(
        cues,
        [
            (OKABE_ITO[0], "diagonal"),
            (OKABE_ITO[1], "back-diagonal"),
            (OKABE_ITO[2], "crossed-diagonal"),
        ]
    );
    // On a line there is nothing to hatch.
    let dir = project(
        &spec.replace("\"bar\"", "\"line\""),
        &[("s.csv", "k,v\na,1\n")],
    );
    assert_eq!(
        error_of(dir.path()).lines().next().unwrap(),
        "error: artifact.toml:6:66: `hatch` patterns the bars or cells it fills (`bar`, `rect`); a `line` layer has none"
    );
}
