//! Outputs stay in the project (issue 10, item 3): names and folders that
//! would leave the spec's folder, collide, or land on an input are errors at
//! the spec's line and column, and nothing is written.

mod common;

use common::small::*;
use common::{artifact, snapshot};

#[test]
fn a_figure_named_with_dot_dot_is_an_error_at_its_name() {
    let e = spec_error(|s| s.replace("[figures.lat2]", "[figures.\"../x\"]"));
    assert_eq!(
        e,
        "error: artifact.toml:15:10: a figure's name cannot hold `/`: its files go in the [output] figures folder (set that to choose the folder)\n   |\n15 | [figures.\"../x\"]\n   |          ^^^^^^\n"
    );
}

#[test]
fn figure_names_that_are_no_file_names_are_errors() {
    for (name, message) in [
        (
            "\"\"",
            "a figure's name is the name of its files and cannot be empty",
        ),
        ("\".\"", "a figure cannot be named `.`: it names a folder"),
        ("\"..\"", "a figure cannot be named `..`: it names a folder"),
        (
            "\"a\\u001bb\"",
            "a figure's name cannot hold the control character U+001B",
        ),
        (
            "\"a:b\"",
            "a figure's name cannot hold `:`: Windows and macOS refuse it in a file name",
        ),
        (
            "nul",
            "a figure cannot be named `nul`: Windows reserves it for a device, so a clone there could not hold its files",
        ),
        (
            "\"fig \"",
            "a figure's name cannot end with ` `: Windows drops it from file names",
        ),
        (
            &"f".repeat(300),
            "the figure's name is 300 bytes long; its files' names allow at most 230",
        ),
    ] {
        let e = spec_error(|s| s.replace("[figures.lat2]", &format!("[figures.{name}]")));
        assert!(
            e.starts_with(&format!("error: artifact.toml:15:10: {message}\n")),
            "{name}: {e}"
        );
    }
}

#[test]
fn output_folders_outside_the_spec_folder_are_errors() {
    let e = spec_error(|s| format!("[output]\nfigures = \"\"\n{s}"));
    assert!(
        e.starts_with("error: artifact.toml:2:11: [output] figures: the folder name is empty (write \".\" for the spec's own folder)\n"),
        "{e}"
    );
    for folder in ["../out", "/tmp/out", "a/../../b"] {
        let e = spec_error(|s| format!("[output]\nfigures = \"{folder}\"\n{s}"));
        assert!(
            e.starts_with(&format!(
                "error: artifact.toml:2:11: [output] figures: `{folder}` leaves the spec's folder; outputs are written inside it (use a relative folder without `..`)\n"
            )),
            "{e}"
        );
    }
}

#[test]
fn two_figures_writing_one_file_are_an_error() {
    let e = spec_error(|s| s.replace("[figures.lat2]", "[figures.LAT]"));
    assert!(
        e.starts_with("error: artifact.toml:15:10: figure `LAT` writes figures/LAT.svg and figure `lat` writes figures/lat.svg: names that differ only in case or Unicode form are one file on macOS and Windows\n"),
        "{e}"
    );
    // `./figures` and `figures` are one folder: the numbers and figures
    // folders may be one, so long as no two files collide.
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let spec = format!("[output]\nfigures = \"./out/\"\ngenerated = \"out\"\n{SPEC}");
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.path().join("out/lat.svg").exists() && dir.path().join("out/macros.tex").exists());
}

#[test]
fn an_output_over_an_input_file_is_refused() {
    // The figures folder is the data folder, and a figure is named like the
    // data file: its CSV would overwrite data/runs.csv.
    let e = spec_error(|s| {
        format!(
            "[output]\nfigures = \"data\"\n{}",
            s.replace("[figures.lat2]", "[figures.runs]")
        )
    });
    assert!(
        e.starts_with("error: artifact.toml:17:10: figure `runs` would write data/runs.csv, but source `runs` reads it: an output never overwrites an input (rename it or change [output])\n"),
        "{e}"
    );
}

#[test]
fn a_figures_folder_linked_outside_the_spec_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    project(dir.path());
    std::fs::remove_dir_all(dir.path().join("figures")).unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("figures")).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let last = last_line(&out);
    assert!(
        last.starts_with("error: the folder of figures/lat.svg resolves to ")
            && last
                .ends_with(" (a symbolic link?), outside the spec's folder; nothing was changed"),
        "{last}"
    );
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
}

#[test]
fn an_output_a_source_would_read_is_refused_before_the_first_run() {
    // The figures go into the data folder, which a source reads by glob:
    // a second run would count the first run's figure CSVs as data.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/runs.csv"), DATA).unwrap();
    let spec = format!(
        "[output]\nfigures = \"data\"\n{}",
        SPEC.replace("path = \"data/runs.csv\"", "path = \"data/*.csv\"")
    );
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).lines().next().unwrap(),
        "error: artifact.toml:12:10: figure `lat` would write data/lat.csv, but source `runs` reads `data/*.csv`, which matches it: an output never overwrites an input (rename it or change [output])"
    );
    assert_eq!(names_in(&dir.path().join("data")), ["runs.csv"]);
}

#[test]
fn an_output_that_is_not_rebuilt_is_still_refused_as_an_input() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let spec = format!(
        "{SPEC}\n[sources.prev]\npath = \"figures/lat.csv\"\n\n[numbers.prevn]\ntable = \"prev\"\nvalue = \"count\"\n"
    );
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let before = snapshot(dir.path());
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: artifact.toml:10:10: figure `lat` would write figures/lat.csv, but source `prev` reads it: an output never overwrites an input"),
        "{}",
        stderr(&out)
    );
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn output_folders_that_are_files_or_names_windows_refuses_are_errors() {
    for (output, message) in [
        (
            "generated = \"artifact.lock\"",
            "2:13: [output] generated: `artifact.lock` is the file artifact.lock (the lock), so it cannot be a folder",
        ),
        (
            "figures = \"out\"\ngenerated = \"out/lat.svg\"",
            "3:13: [output] generated: `out/lat.svg` is the file out/lat.svg (figure `lat`), so it cannot be a folder",
        ),
        (
            "figures = \"a/aux\"",
            "2:11: [output] figures: `aux` is a name Windows reserves for a device, so a clone there could not hold the folder",
        ),
        (
            "figures = \"x\\u202Ey\"",
            "2:11: [output] figures: the folder name holds the invisible or direction-changing character U+202E",
        ),
    ] {
        let e = spec_error(|s| format!("[output]\n{output}\n{s}"));
        assert!(
            e.starts_with(&format!("error: artifact.toml:{message}\n")),
            "{e}"
        );
    }
}

#[test]
fn figure_names_in_two_unicode_forms_are_one_file() {
    let e = spec_error(|s| {
        s.replace("[figures.lat]", "[figures.\"caf\\u00e9\"]")
            .replace("[figures.lat2]", "[figures.\"cafe\\u0301\"]")
    });
    assert!(
        e.starts_with("error: artifact.toml:15:10: figure `cafe\u{301}` writes figures/cafe\u{301}.svg and figure `caf\u{e9}` writes figures/caf\u{e9}.svg: names that differ only in case or Unicode form are one file on macOS and Windows\n"),
        "{e}"
    );
    for name in ["\"COM\\u00b9\"", "\"CONIN$\"", "\"a\\u200bb\""] {
        let e = spec_error(|s| s.replace("[figures.lat2]", &format!("[figures.{name}]")));
        assert!(e.starts_with("error: artifact.toml:15:10: a figure"), "{e}");
    }
}

#[test]
fn a_glob_matching_a_dot_folder_of_outputs_is_refused_before_the_first_run() {
    // glob::glob's `*` matches `.hidden`: a second run would read the first
    // run's figure CSVs.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/runs.csv"), DATA).unwrap();
    let spec = format!(
        "[output]\nfigures = \".hidden\"\n{}",
        SPEC.replace("path = \"data/runs.csv\"", "path = \"*/*.csv\"")
    );
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: artifact.toml:12:10: figure `lat` would write .hidden/lat.csv, but source `runs` reads `*/*.csv`, which matches it"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_output_folder_inside_dot_git_is_an_error() {
    let e = spec_error(|s| format!("[output]\ngenerated = \".git/gen\"\n{s}"));
    assert!(
        e.starts_with("error: artifact.toml:2:13: [output] generated: `.git` is git's own folder: outputs there could never be committed\n"),
        "{e}"
    );
}
