//! A failed run changes nothing (issue 10, items 1 and 2): faults while
//! writing (full disk, read-only folder, a file or folder in the way,
//! `ulimit -f`), concurrent runs, leftovers of a killed run. Each fault test
//! asserts the exact message and that every visible file, the lock
//! included, is byte-identical afterwards.

mod common;

use std::path::Path;
use std::process::Command;

use common::artifact;
use common::small::*;

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
fn leftovers_of_a_figure_since_renamed_are_still_found() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    // Left by a run killed while lat2 was called latB.
    std::fs::write(
        dir.path().join("figures/.latB.svg.artifact-Q1w2E3.tmp"),
        "half",
    )
    .unwrap();
    let check = artifact(dir.path(), &["check", "--fast"]);
    assert_eq!(check.status.code(), Some(1));
    assert!(stderr(&check).contains("  figures/.latB.svg.artifact-Q1w2E3.tmp\n"));
    assert!(artifact(dir.path(), &["gen"]).status.success());
    assert!(
        !dir.path()
            .join("figures/.latB.svg.artifact-Q1w2E3.tmp")
            .exists()
    );
}
