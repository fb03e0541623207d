//! Outputs the spec no longer writes (issue 13, item 7): a figure removed
//! or renamed, an `[output]` folder changed. `check` reports each file the
//! last lock lists as orphaned (exit 1); `gen` removes it in its
//! transaction, keeps one edited since (and says so), and never touches a
//! file the lock does not list.

mod common;

use std::path::Path;

use common::small::{SPEC, project, stderr, stdout};
use common::{artifact, gen_ok, paper_copy};

/// The spec without `[figures.NAME]` (up to the next section or the end).
fn without_figure(spec: &str, name: &str) -> String {
    let head = format!("[figures.{name}]");
    let start = spec.find(&head).unwrap();
    let rest = &spec[start + head.len()..];
    let end = rest
        .find("\n[figures.")
        .or_else(|| rest.find("\n[sources."))
        .map_or(spec.len(), |e| start + head.len() + e + 1);
    format!("{}{}", &spec[..start], &spec[end..])
}

fn lock(dir: &Path) -> artifact::lock::Lock {
    artifact::lock::Lock::read(dir).unwrap().unwrap()
}

const LAT2_ORPHANED: &str = "stale: 3 outputs orphaned\n\n\
    orphaned (artifact wrote them; the spec no longer does):\n  \
    figures/lat2.csv (`artifact gen` removes it)\n  \
    figures/lat2.pdf (`artifact gen` removes it)\n  \
    figures/lat2.svg (`artifact gen` removes it)\n\n\
    to bring them up to date: artifact gen\n";

#[test]
fn a_figure_removed_from_the_demo_spec_leaves_orphans_that_gen_removes() {
    let dir = paper_copy();
    let d = dir.path();
    gen_ok(d);
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    std::fs::write(d.join("artifact.toml"), without_figure(&spec, "fig3")).unwrap();
    for args in [&["check"][..], &["check", "--fast"]] {
        let out = artifact(d, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(
            stderr(&out),
            "stale: 3 outputs orphaned\n\n\
             orphaned (artifact wrote them; the spec no longer does):\n  \
             figures/fig3.csv (`artifact gen` removes it)\n  \
             figures/fig3.pdf (`artifact gen` removes it)\n  \
             figures/fig3.svg (`artifact gen` removes it)\n\n\
             to bring them up to date: artifact gen\n",
            "{args:?}"
        );
    }
    let out = gen_ok(d);
    let e = stderr(&out);
    for ext in ["csv", "pdf", "svg"] {
        assert!(
            e.contains(&format!(
                "removed figures/fig3.{ext} (orphaned: the spec no longer writes it)\n"
            )),
            "{e}"
        );
        assert!(!d.join(format!("figures/fig3.{ext}")).exists());
    }
    assert!(d.join("figures/fig4.svg").is_file());
    let l = lock(d);
    assert!(!l.figures.contains_key("fig3"));
    assert!(
        !l.outputs.keys().any(|o| o.contains("fig3.")),
        "{:?}",
        l.outputs
    );
    let out = artifact(d, &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_hand_edited_orphan_is_kept_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    project(d);
    std::fs::write(d.join("artifact.toml"), without_figure(SPEC, "lat2")).unwrap();
    std::fs::write(d.join("figures/lat2.csv"), "n,ms\n1,99\n").unwrap();
    let out = artifact(d, &["check"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        LAT2_ORPHANED.replace(
            "figures/lat2.csv (`artifact gen` removes it)",
            "figures/lat2.csv (edited since: `artifact gen` keeps it; delete it by hand)"
        )
    );
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stderr(&out),
        "current (not rebuilt): lat\n\
         removed figures/lat2.pdf (orphaned: the spec no longer writes it)\n\
         removed figures/lat2.svg (orphaned: the spec no longer writes it)\n\
         kept figures/lat2.csv (orphaned, but edited since artifact wrote it: delete it by hand)\n\
         wrote artifact.lock\n\
         3 file(s) already up to date\n"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("figures/lat2.csv")).unwrap(),
        "n,ms\n1,99\n"
    );
    assert!(!d.join("figures/lat2.svg").exists());
    // The lock no longer lists it: it is the user's file now.
    assert!(!lock(d).outputs.contains_key("figures/lat2.csv"));
    assert_eq!(artifact(d, &["check"]).status.code(), Some(0));
}

#[test]
fn a_file_the_lock_does_not_list_is_never_removed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    project(d);
    std::fs::write(d.join("figures/mine.svg"), "<svg/>").unwrap();
    std::fs::write(d.join("generated/notes.tex"), "% mine\n").unwrap();
    std::fs::write(d.join("artifact.toml"), without_figure(SPEC, "lat2")).unwrap();
    let out = artifact(d, &["check"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), LAT2_ORPHANED);
    gen_ok(d);
    assert_eq!(
        std::fs::read_to_string(d.join("figures/mine.svg")).unwrap(),
        "<svg/>"
    );
    assert!(d.join("generated/notes.tex").is_file());
    assert!(!d.join("figures/lat2.svg").exists());
}

#[test]
fn a_renamed_figure_orphans_its_old_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    project(d);
    let svg = std::fs::read(d.join("figures/lat2.svg")).unwrap();
    std::fs::write(
        d.join("artifact.toml"),
        SPEC.replace("[figures.lat2]", "[figures.line]"),
    )
    .unwrap();
    let out = artifact(d, &["check"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "stale: 1 figure, 3 outputs orphaned\n\n\
         figures:\n  line: figures/line.svg, figures/line.pdf, figures/line.csv differ (missing)\n\n\
         orphaned (artifact wrote them; the spec no longer does):\n  \
         figures/lat2.csv (`artifact gen` removes it)\n  \
         figures/lat2.pdf (`artifact gen` removes it)\n  \
         figures/lat2.svg (`artifact gen` removes it)\n\n\
         to bring them up to date: artifact gen\n"
    );
    gen_ok(d);
    assert!(!d.join("figures/lat2.svg").exists());
    assert_eq!(std::fs::read(d.join("figures/line.svg")).unwrap(), svg);
    assert_eq!(artifact(d, &["check"]).status.code(), Some(0));
}

#[test]
fn a_changed_figures_folder_orphans_the_old_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    project(d);
    std::fs::write(
        d.join("artifact.toml"),
        format!("[output]\nfigures = \"figs\"\n\n{SPEC}"),
    )
    .unwrap();
    let out = gen_ok(d);
    let e = stderr(&out);
    for f in ["lat", "lat2"] {
        for ext in ["csv", "pdf", "svg"] {
            assert!(
                e.contains(&format!(
                    "removed figures/{f}.{ext} (orphaned: the spec no longer writes it)\n"
                )),
                "{e}"
            );
            assert!(d.join(format!("figs/{f}.{ext}")).is_file());
        }
    }
    assert!(!d.join("figures/lat.svg").exists());
    assert_eq!(artifact(d, &["check"]).status.code(), Some(0));
}

/// An orphan the spec now reads as an input is data, not an output.
#[test]
fn an_orphan_a_source_now_reads_is_not_removed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    project(d);
    let spec = without_figure(SPEC, "lat2")
        + "\n[sources.old]\npath = \"figures/lat2.csv\"\n\n[numbers.old-rows]\ntable = \"old\"\nvalue = \"count\"\n";
    std::fs::write(d.join("artifact.toml"), spec).unwrap();
    let out = artifact(d, &["check"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stderr(&out);
    assert!(
        text.contains("orphaned (artifact wrote them; the spec no longer does):\n  figures/lat2.pdf (`artifact gen` removes it)\n  figures/lat2.svg (`artifact gen` removes it)\n\n"),
        "{text}{}",
        stdout(&out)
    );
    gen_ok(d);
    assert!(d.join("figures/lat2.csv").is_file());
    assert!(!d.join("figures/lat2.svg").exists());
}

/// A lock is a file anyone can edit: one listing a file outside the spec's
/// folder (through a link) or in `.git`, with its true hash, removes nothing.
#[cfg(unix)]
#[test]
fn an_orphan_listed_outside_the_spec_folder_is_never_removed() {
    let top = tempfile::tempdir().unwrap();
    let d = top.path().join("p");
    project(&d);
    std::fs::write(top.path().join("secret.txt"), "keep me\n").unwrap();
    std::os::unix::fs::symlink(top.path(), d.join("link")).unwrap();
    std::fs::create_dir_all(d.join(".git")).unwrap();
    std::fs::write(d.join(".git/config"), "keep me\n").unwrap();
    let hash = artifact::lock::hash_bytes(b"keep me\n");
    let lock = std::fs::read_to_string(d.join("artifact.lock")).unwrap();
    let lock = lock.replace(
        "[outputs]\n",
        &format!(
            "[outputs]\n\".git/config\" = \"{hash}\"\n\"../secret.txt\" = \"{hash}\"\n\"link/secret.txt\" = \"{hash}\"\n"
        ),
    );
    std::fs::write(d.join("artifact.lock"), lock).unwrap();
    assert_eq!(artifact(&d, &["check"]).status.code(), Some(0));
    gen_ok(&d);
    assert!(top.path().join("secret.txt").is_file());
    assert!(d.join(".git/config").is_file());
}
