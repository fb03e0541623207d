//! check sees everything gen depends on, and a run that partly fails stays
//! consistent (issue 10, item 8, and what reviews broke).

mod common;

use common::small::*;
use common::{artifact, snapshot};

#[test]
fn an_empty_spec_is_an_error_not_an_emptied_macros_file() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    std::fs::write(dir.path().join("artifact.toml"), "# nothing yet\n").unwrap();
    let before = snapshot(dir.path());
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: artifact.toml: the spec declares no [numbers] and no [figures], so there is nothing to generate\n"
    );
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn editing_a_custom_template_makes_the_fast_check_fail() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/runs.csv"), DATA).unwrap();
    std::fs::write(
        dir.path().join("macros.tex.j2"),
        "{% for n in numbers %}\\newcommand{\\{{ n.tex_name }}}{ {{- n.text -}} }\n{% endfor %}",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        format!("[templates]\ntex = \"macros.tex.j2\"\n{SPEC}"),
    )
    .unwrap();
    assert!(artifact(dir.path(), &["gen"]).status.success());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("generated/macros.tex")).unwrap(),
        "\\newcommand{\\artMeanMs}{3.42}\n"
    );
    std::fs::write(
        dir.path().join("macros.tex.j2"),
        "{% for n in numbers %}\\def\\{{ n.tex_name }}{ {{- n.text -}} }\n{% endfor %}",
    )
    .unwrap();
    let check = artifact(dir.path(), &["check", "--fast"]);
    assert_eq!(check.status.code(), Some(1), "{}", stdout(&check));
    let e = stderr(&check);
    assert!(
        e.contains("other outputs that differ:\n  generated/macros.tex (differs)\n")
            && e.contains("inputs since artifact.lock:\n  changed  macros.tex.j2\n"),
        "{e}"
    );
}

#[test]
fn a_value_that_changed_under_the_same_text_is_named() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    // The mean moves from 3.41666... to 3.41833...: "3.42" either way.
    std::fs::write(
        dir.path().join("data/runs.csv"),
        "n,ms\n1,2.5\n2,3.5\n3,4.255\n",
    )
    .unwrap();
    let check = artifact(dir.path(), &["check"]);
    assert_eq!(check.status.code(), Some(1));
    assert!(
        stderr(&check).contains(
            "numbers (committed -> from the data now):\n  mean-ms  3.42 -> 3.42   (same text, value 3.4166666666666665 -> 3.418333333333333; input changed: data/runs.csv)\n"
        ),
        "{}",
        stderr(&check)
    );
}

// Regression tests for what a review broke (issue 10).

#[test]
fn after_gen_of_one_figure_the_fast_check_still_sees_the_other_stale() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    std::fs::write(dir.path().join("data/runs.csv"), format!("{DATA}4,9\n")).unwrap();
    assert!(artifact(dir.path(), &["gen", "lat"]).status.success());
    let check = artifact(dir.path(), &["check", "--fast"]);
    assert_eq!(check.status.code(), Some(1), "{}", stdout(&check));
    assert!(
        stderr(&check)
            .contains("  lat2: figures/lat2.svg, figures/lat2.pdf, figures/lat2.csv differ"),
        "{}",
        stderr(&check)
    );
}

#[test]
fn a_failing_number_keeps_its_text_and_figures_print_what_the_macros_print() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/runs.csv"), DATA).unwrap();
    std::fs::write(dir.path().join("data/other.csv"), "v\n1\n2\n").unwrap();
    let spec = format!(
        "{SPEC}\n[sources.other]\npath = \"data/other.csv\"\n\n[numbers.o]\ntable = \"other\"\nvalue = {{ mean = \"v\" }}\n"
    );
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    assert!(artifact(dir.path(), &["gen"]).status.success());
    std::fs::write(dir.path().join("data/other.csv"), "v\n1\nabc\n").unwrap();
    std::fs::write(dir.path().join("data/runs.csv"), format!("{DATA}4,9\n")).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let svg = std::fs::read_to_string(dir.path().join("figures/lat.svg")).unwrap();
    let tex = std::fs::read_to_string(dir.path().join("generated/macros.tex")).unwrap();
    assert!(svg.contains("mean 4.81 ms"), "the figure is rebuilt");
    assert!(tex.contains("\\@namedef{artnum@mean-ms}{4.81}"), "{tex}");
    assert!(
        tex.contains("\\@namedef{artnum@o}{1.5}"),
        "the failed number keeps its text: {tex}"
    );
}

#[test]
fn a_figure_the_data_no_longer_draws_loses_its_old_files() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    // lat2 reads only rows with n > 10: none.
    let spec = SPEC.replace(
        "{ mark = \"line\", data = \"runs\",",
        "{ mark = \"line\", data = \"runs\", where = \"n > 10\",",
    );
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("removed figures/lat2.svg (its figure has nothing to draw)\n"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.path().join("figures/lat2.pdf").exists());
    let check = artifact(dir.path(), &["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
}

#[test]
fn a_lock_naming_a_path_outside_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let lock = std::fs::read_to_string(dir.path().join("artifact.lock")).unwrap();
    let lock = lock.replace(
        "[outputs]\n",
        "[outputs]\n\"/dev/zero\" = \"00\"\n\"../x\" = \"00\"\n",
    );
    std::fs::write(dir.path().join("artifact.lock"), lock).unwrap();
    // /dev/zero would never end; it reads as missing instead.
    let check = artifact(dir.path(), &["check", "--fast"]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
}

#[test]
fn a_number_text_edited_in_the_lock_is_recomputed_not_published() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let lock = std::fs::read_to_string(dir.path().join("artifact.lock")).unwrap();
    std::fs::write(
        dir.path().join("artifact.lock"),
        lock.replace("text = \"3.42\"", "text = \"9.99\""),
    )
    .unwrap();
    let check = artifact(dir.path(), &["check", "--fast"]);
    assert_eq!(check.status.code(), Some(1), "{}", stdout(&check));
    assert!(artifact(dir.path(), &["gen"]).status.success());
    let tex = std::fs::read_to_string(dir.path().join("generated/macros.tex")).unwrap();
    assert!(tex.contains("\\@namedef{artnum@mean-ms}{3.42}"), "{tex}");
    let svg = std::fs::read_to_string(dir.path().join("figures/lat.svg")).unwrap();
    assert!(svg.contains("mean 3.42 ms"));
    assert_eq!(
        artifact(dir.path(), &["check", "--fast"]).status.code(),
        Some(0)
    );
}

#[test]
fn an_output_dropped_from_the_lock_does_not_hide_an_edit() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let lock = std::fs::read_to_string(dir.path().join("artifact.lock")).unwrap();
    let lock: String = lock
        .lines()
        .filter(|l| !l.starts_with("\"figures/lat2.svg\""))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.path().join("artifact.lock"), lock).unwrap();
    let svg = dir.path().join("figures/lat2.svg");
    let mut bytes = std::fs::read(&svg).unwrap();
    bytes.extend_from_slice(b"<!-- edited -->\n");
    std::fs::write(&svg, bytes).unwrap();
    let check = artifact(dir.path(), &["check", "--fast"]);
    assert_eq!(check.status.code(), Some(1), "{}", stdout(&check));
}

#[test]
fn a_figure_quoting_a_failing_number_prints_its_kept_text_as_the_macro_does() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/runs.csv"), DATA).unwrap();
    std::fs::write(dir.path().join("data/b.csv"), "ms\n6\n2\n").unwrap();
    let spec = format!(
        "{SPEC}\n[sources.b]\npath = \"data/b.csv\"\n\n[numbers.bmax]\ntable = \"b\"\nvalue = {{ max = \"ms\" }}\n\n\
         [figures.both]\nsize = [4, 3]\ntitle = \"{{{{ n['mean-ms'] }}}} and {{{{ n['bmax'] }}}}\"\n\
         layers = [ {{ mark = \"point\", data = \"runs\", x = \"n\", y = \"ms\" }} ]\n"
    );
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let first = artifact(dir.path(), &["gen"]);
    assert!(first.status.success(), "{}", stderr(&first));
    std::fs::write(
        dir.path().join("data/runs.csv"),
        "n,ms\n1,2.5\n2,3.5\n3,4.75\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("data/b.csv"), "ms\n6\noops\n").unwrap();
    assert_eq!(artifact(dir.path(), &["gen"]).status.code(), Some(2));
    let svg = std::fs::read_to_string(dir.path().join("figures/both.svg")).unwrap();
    let tex = std::fs::read_to_string(dir.path().join("generated/macros.tex")).unwrap();
    assert!(tex.contains("\\@namedef{artnum@mean-ms}{3.58}"), "{tex}");
    assert!(tex.contains("\\@namedef{artnum@bmax}{6}"), "{tex}");
    assert!(
        svg.contains(">3.58 and 6<") || svg.contains("3.58 and 6"),
        "the figure prints what the macros print"
    );
}

#[test]
fn a_lock_that_is_a_fifo_is_an_error_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    std::fs::remove_file(dir.path().join("artifact.lock")).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(dir.path().join("artifact.lock"))
        .status()
        .unwrap();
    assert!(status.success());
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: artifact.lock: it is not a regular file (a FIFO, device or socket) (delete it and run `artifact gen`)\n"
    );
}
