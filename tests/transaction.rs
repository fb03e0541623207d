//! A failed run changes nothing (issue 10, items 1-3 and 8): faults while
//! writing (full disk, read-only folder, a file or folder in the way,
//! `ulimit -f`), concurrent runs, leftovers of a killed run, output paths
//! that would leave the spec's folder or overwrite an input, and what
//! `check` must see. Each fault test asserts the exact message and that
//! every visible file, the lock included, is byte-identical afterwards.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{artifact, snapshot};

const SPEC: &str = r#"[sources.runs]
path = "data/runs.csv"

[numbers.mean-ms]
table = "runs"
value = { mean = "ms" }
format = { places = 2 }
description = "mean latency"

[figures.lat]
size = [4, 3]
title = "mean {{ n['mean-ms'] }} ms"
layers = [ { mark = "point", data = "runs", x = "n", y = "ms" } ]

[figures.lat2]
size = [4, 3]
layers = [ { mark = "line", data = "runs", x = "n", y = "ms" } ]
"#;

const DATA: &str = "n,ms\n1,2.5\n2,3.5\n3,4.25\n";

/// A small project in `dir`, built once.
fn project(dir: &Path) {
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("artifact.toml"), SPEC).unwrap();
    std::fs::write(dir.join("data/runs.csv"), DATA).unwrap();
    let out = artifact(dir, &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The last line of stderr (the error).
fn last_line(o: &Output) -> String {
    stderr(o).lines().last().unwrap_or_default().to_string()
}

/// Changes the data so that every output changes.
fn change_data(dir: &Path) {
    std::fs::write(dir.join("data/runs.csv"), "n,ms\n1,2.5\n2,3.5\n3,9.75\n").unwrap();
}

/// Every file but the data (what a run may write).
fn outputs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    snapshot(dir)
        .into_iter()
        .filter(|(rel, _)| !rel.starts_with("data"))
        .collect()
}

#[test]
fn a_file_where_the_figures_folder_should_be_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    std::fs::remove_dir_all(dir.path().join("figures")).unwrap();
    std::fs::write(dir.path().join("figures"), "in the way").unwrap();
    change_data(dir.path());
    let before = outputs(dir.path());
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        last_line(&out),
        "error: figures is a file, not a folder, so figures/lat.svg cannot be written; nothing was changed"
    );
    assert_eq!(outputs(dir.path()), before);
}

#[test]
fn a_folder_where_a_figure_file_should_be_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    std::fs::remove_file(dir.path().join("figures/lat2.pdf")).unwrap();
    std::fs::create_dir(dir.path().join("figures/lat2.pdf")).unwrap();
    change_data(dir.path());
    let before = outputs(dir.path());
    let out = artifact(dir.path(), &["gen", "--force"]);
    assert_eq!(
        last_line(&out),
        "error: figures/lat2.pdf is a folder, so the file cannot be written; nothing was changed"
    );
    assert_eq!(outputs(dir.path()), before);
}

/// Makes `path` unwritable even for root (the immutable attribute), or by
/// its mode where chattr is not allowed; returns the undo command.
fn read_only(path: &Path) -> Box<dyn Fn()> {
    let p = path.to_path_buf();
    let chattr = Command::new("chattr").arg("+i").arg(&p).output();
    if chattr.is_ok_and(|o| o.status.success()) {
        return Box::new(move || {
            Command::new("chattr").arg("-i").arg(&p).output().unwrap();
        });
    }
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o555)).unwrap();
    Box::new(move || {
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    })
}

#[test]
fn a_read_only_figures_folder_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    change_data(dir.path());
    let before = outputs(dir.path());
    let undo = read_only(&dir.path().join("figures"));
    let out = artifact(dir.path(), &["gen"]);
    undo();
    let last = last_line(&out);
    assert!(
        last == "error: operation not permitted while writing figures/lat.svg; nothing was changed"
            || last
                == "error: permission denied while writing figures/lat.svg; nothing was changed",
        "{}",
        stderr(&out)
    );
    assert_eq!(outputs(dir.path()), before);
}

#[test]
fn a_file_size_limit_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    change_data(dir.path());
    let before = outputs(dir.path());
    // 8 blocks of 512 bytes: the macro files fit, the first figure does not.
    let bin = assert_cmd::cargo::cargo_bin("artifact");
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 8; exec \"$0\" gen")
        .arg(bin)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        last_line(&out),
        "error: file too large (the file size limit, `ulimit -f`) while writing figures/lat.pdf; nothing was changed"
    );
    assert_eq!(outputs(dir.path()), before);
}

/// A full disk: the project on a 1 MiB tmpfs, filled but for a few
/// kilobytes. Needs the right to mount (root, as in CI); elsewhere it says
/// so and checks nothing.
#[test]
fn a_full_disk_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mnt = dir.path().join("disk");
    std::fs::create_dir(&mnt).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"])
        .arg(&mnt)
        .output()
        .is_ok_and(|o| o.status.success());
    if !mounted {
        eprintln!("a_full_disk_changes_nothing: cannot mount a tmpfs here (not root); not run");
        return;
    }
    let result = std::panic::catch_unwind(|| {
        project(&mnt);
        change_data(&mnt);
        // Fill the disk, leaving about 6 KiB: less than the figures need.
        let filler = mnt.join("filler");
        let free = |p: &Path| {
            let o = Command::new("df")
                .args(["-B1", "--output=avail"])
                .arg(p)
                .output()
                .unwrap();
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .nth(1)
                .unwrap()
                .trim()
                .parse::<u64>()
                .unwrap()
        };
        let room = free(&mnt).saturating_sub(6 * 1024);
        std::fs::write(&filler, vec![0u8; room as usize]).unwrap();
        let before = outputs(&mnt);
        let out = artifact(&mnt, &["gen"]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let last = last_line(&out);
        assert!(
            last.starts_with("error: no space left on device while writing ")
                && last.ends_with("; nothing was changed"),
            "{}",
            stderr(&out)
        );
        assert_eq!(outputs(&mnt), before);
    });
    Command::new("umount").arg(&mnt).output().unwrap();
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

#[test]
fn concurrent_gens_of_two_figures_keep_both_lock_records() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    for round in 0..3 {
        // Both figures change; each run rebuilds only the one it names.
        let spec = SPEC
            .replace("size = [4, 3]", &format!("size = [4, {}]", 3 + round))
            .to_string();
        std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
        let bin = assert_cmd::cargo::cargo_bin("artifact");
        let a = Command::new(&bin)
            .args(["gen", "lat"])
            .current_dir(dir.path())
            .spawn()
            .unwrap();
        let b = Command::new(&bin)
            .args(["gen", "lat2"])
            .current_dir(dir.path())
            .spawn()
            .unwrap();
        assert!(a.wait_with_output().unwrap().status.success());
        assert!(b.wait_with_output().unwrap().status.success());
        // The lock records both runs' outputs: the fast check answers from
        // hashes alone (a lost record sends it to the full comparison).
        let check = artifact(dir.path(), &["check", "--fast"]);
        assert_eq!(
            stdout(&check),
            "all figures and numbers are current (hashes match artifact.lock)\n",
            "round {round}: {}",
            stderr(&check)
        );
    }
}

#[test]
fn leftover_temporary_files_are_reported_by_check_and_removed_by_gen() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    // One of an older version (pid), one of this one.
    std::fs::write(dir.path().join("figures/.lat.csv.22407.tmp"), "half").unwrap();
    std::fs::write(
        dir.path().join("generated/.macros.tex.artifact-Ab3xZ9.tmp"),
        "half",
    )
    .unwrap();
    let check = artifact(dir.path(), &["check", "--fast"]);
    assert_eq!(check.status.code(), Some(1));
    assert_eq!(
        stderr(&check),
        "stale: 2 temporary files left by a killed run\n\n\
         temporary files left by a killed run (`artifact gen` removes them; do not commit them):\n  \
         figures/.lat.csv.22407.tmp\n  generated/.macros.tex.artifact-Ab3xZ9.tmp\n\n\
         to bring them up to date: artifact gen\n"
    );
    let regen = artifact(dir.path(), &["gen"]);
    assert!(regen.status.success());
    assert!(stderr(&regen).contains(
        "removed figures/.lat.csv.22407.tmp (a temporary file left by a run that was killed)\n"
    ));
    assert!(!dir.path().join("figures/.lat.csv.22407.tmp").exists());
    assert!(
        !dir.path()
            .join("generated/.macros.tex.artifact-Ab3xZ9.tmp")
            .exists()
    );
    assert_eq!(
        artifact(dir.path(), &["check", "--fast"]).status.code(),
        Some(0)
    );
}

/// Runs gen on the small project with `edit` applied to its spec; returns
/// the error, after checking that nothing changed.
fn spec_error(edit: impl Fn(&str) -> String) -> String {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    std::fs::write(dir.path().join("artifact.toml"), edit(SPEC)).unwrap();
    let before = snapshot(dir.path());
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(snapshot(dir.path()), before, "nothing changed");
    let parent = dir.path().parent().unwrap();
    assert!(!parent.join("x.svg").exists() && !parent.join("data").exists());
    // The error, without the notes of what was (re)built in memory before it.
    let e = stderr(&out);
    e[e.find("error: ").unwrap()..].to_string()
}

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

fn names_in(dir: &Path) -> Vec<String> {
    let mut n: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    n.sort();
    n
}

#[test]
fn the_leftover_sweep_touches_no_file_of_the_user_and_nothing_outside() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    project(dir.path());
    // A user's own dot-files that look like temporary files.
    std::fs::write(dir.path().join("figures/.notes.tmp"), "mine").unwrap();
    std::fs::write(dir.path().join(".restore_points.tmp"), "mine").unwrap();
    std::fs::write(
        dir.path().join("figures/.thesis.tex.artifact-abc123.tmp"),
        "mine",
    )
    .unwrap();
    // The figures folder moved outside behind a link, with a file there
    // named like a leftover of one of this spec's outputs.
    let figs = outside.path().join("figs");
    std::fs::create_dir(&figs).unwrap();
    std::fs::write(figs.join(".lat.svg.artifact-Ab3xZ9.tmp"), "precious").unwrap();
    let real = dir.path().join("figures");
    for e in std::fs::read_dir(&real).unwrap() {
        let e = e.unwrap();
        std::fs::rename(e.path(), figs.join(e.file_name())).unwrap();
    }
    std::fs::remove_dir(&real).unwrap();
    std::os::unix::fs::symlink(&figs, &real).unwrap();
    change_data(dir.path());
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(figs.join(".lat.svg.artifact-Ab3xZ9.tmp").exists());
    assert!(
        figs.join(".notes.tmp").exists() && figs.join(".thesis.tex.artifact-abc123.tmp").exists()
    );
    assert!(dir.path().join(".restore_points.tmp").exists());
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
fn a_closed_output_pipe_is_no_panic() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let bin = assert_cmd::cargo::cargo_bin("artifact");
    for args in ["gen --force", "check"] {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("\"$0\" {args} 2>&1 | true; echo $?"))
            .arg(&bin)
            .current_dir(dir.path())
            .output()
            .unwrap();
        // PIPESTATUS is bash's: run again to read the tool's own status.
        let status = Command::new("bash")
            .arg("-c")
            .arg(format!(
                "\"$0\" {args} 2>&1 | true; echo ${{PIPESTATUS[0]}}"
            ))
            .arg(&bin)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&status.stdout),
            "0\n",
            "{args}: {}",
            stderr(&out)
        );
    }
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
