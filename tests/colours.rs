//! Colours by every CSS name, matplotlib's `tab:` names and `C0`-`C9`,
//! drawn with their exact values; an unknown one suggests the closest.

mod common;

use common::artifact;
use common::small::stderr;

const SPEC: &str = r#"[sources.p]
path = "data/p.csv"

[figures.f]
size = [4, 3]
layers = [
  { mark = "point", data = "p", x = "x", y = "y", color = "LightBlue" },
  { mark = "line", data = "p", x = "x", y = "y", color = "rebeccapurple" },
  { mark = "point", data = "p", x = "x", y = "y", color = { field = "k", scale = { range = ["tab:olive", "C3", "aliceblue"] } } },
]
"#;

fn project(spec: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(
        dir.path().join("data/p.csv"),
        "x,y,k\n1,2,a\n2,3,b\n3,4,c\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    dir
}

#[test]
fn named_colours_are_drawn_with_their_values() {
    let dir = project(SPEC);
    let out = artifact(dir.path(), &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let svg = std::fs::read_to_string(dir.path().join("figures/f.svg")).unwrap();
    let count = |s: &str| svg.matches(s).count();
    // Three points of lightblue; the line; one point of each scale colour
    // and its legend entry.
    assert_eq!(count("fill=\"#ADD8E6\""), 3);
    assert_eq!(count("stroke=\"#663399\""), 1);
    assert_eq!(count("fill=\"#BCBD22\""), 2, "tab:olive");
    assert_eq!(count("fill=\"#D62728\""), 2, "C3");
    assert_eq!(count("fill=\"#F0F8FF\""), 2, "aliceblue");
    let csv = std::fs::read_to_string(dir.path().join("figures/f.csv")).unwrap();
    assert!(csv.contains("0,0,point,1,2,36,#add8e6,circle,"), "{csv}");
    assert!(csv.contains("0,2,point,2,3,36,#d62728,circle,"), "{csv}");
}

#[test]
fn an_unknown_colour_suggests_the_closest() {
    let dir = project(&SPEC.replace("LightBlue", "lightbleu"));
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert_eq!(
        &e[e.find("error: ").unwrap()..],
        "error: figure `f`: artifact.toml:7:3: unknown colour `lightbleu` (use #rrggbb, a CSS name, tab:blue ... tab:cyan or C0 ... C9); did you mean `lightblue`?\n  |\n7 |   { mark = \"point\", data = \"p\", x = \"x\", y = \"y\", color = \"lightbleu\" },\n  |   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n1 part(s) failed; their previous outputs are left as they were\n"
    );
    // One read from the data names the row.
    let dir = project(&SPEC.replace("color = \"rebeccapurple\"", "color = { expr = \"k\" }"));
    let out = artifact(dir.path(), &["gen"]);
    let e = stderr(&out);
    assert_eq!(
        &e[e.find("error: ").unwrap()..],
        "error: figure `f`: data/p.csv:2: field `color`: unknown colour `a` (use #rrggbb, a CSS name, tab:blue ... tab:cyan or C0 ... C9)\n1 part(s) failed; their previous outputs are left as they were\n"
    );
}

#[test]
fn an_unknown_colour_in_a_scale_range_is_an_error_at_its_place_before_the_data() {
    let dir = project(&SPEC.replace("\"C3\"", "\"C33\""));
    // No data: the spec is checked first.
    std::fs::remove_file(dir.path().join("data/p.csv")).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    let line = "  { mark = \"point\", data = \"p\", x = \"x\", y = \"y\", color = { field = \"k\", scale = { range = [\"tab:olive\", \"C33\", \"aliceblue\"] } } },";
    let col = line.find("\"C33\"").unwrap() + 1;
    assert_eq!(
        e,
        format!(
            "error: artifact.toml:9:{col}: unknown colour `C33` (use #rrggbb, a CSS name, tab:blue ... tab:cyan or C0 ... C9)\n  |\n9 | {line}\n  | {}^^^^^\n",
            " ".repeat(col - 1)
        )
    );
}

#[test]
fn an_unknown_shape_in_a_scale_range_is_an_error_at_its_place() {
    let spec = SPEC.replace(
        "color = { field = \"k\"",
        "shape = { field = \"k\", scale = { range = [\"circle\", \"star\"] } }, color = { field = \"k\"",
    );
    let dir = project(&spec);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.starts_with("error: artifact.toml:9:")
            && e.contains(": unknown shape `star` (circle, square, triangle, diamond)\n"),
        "{e}"
    );
    let col: usize = e["error: artifact.toml:9:".len()..]
        .split(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(&spec.lines().nth(8).unwrap()[col - 1..col + 5], "\"star\"");
}

#[test]
fn a_field_name_written_as_a_colour_says_how_to_colour_by_it() {
    let dir = project(&SPEC.replace("LightBlue", "family"));
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    let first = e[e.find("error: ").unwrap()..]
        .lines()
        .next()
        .unwrap()
        .to_string();
    assert_eq!(
        first,
        "error: figure `f`: artifact.toml:7:3: unknown colour `family` (use #rrggbb, a CSS name, tab:blue ... tab:cyan or C0 ... C9); a colour from the data is written `{ field = \"family\" }`"
    );
}
