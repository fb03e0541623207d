//! `artifact gen` as a user runs it: outputs, determinism, failures that
//! leave the previous outputs untouched, errors that point at the input.

mod common;

use common::*;

#[test]
fn two_runs_give_identical_bytes() {
    let a = paper_copy();
    let b = paper_copy();
    gen_ok(a.path());
    gen_ok(b.path());
    let (sa, sb) = (snapshot(a.path()), snapshot(b.path()));
    assert_eq!(sa.len(), sb.len());
    for ((pa, ba), (pb, bb)) in sa.iter().zip(&sb) {
        assert_eq!(pa, pb);
        assert!(ba == bb, "{pa} differs between runs");
    }
    // A rerun in place changes nothing.
    let out = gen_ok(a.path());
    assert!(String::from_utf8_lossy(&out.stderr).contains("already up to date"));
    assert_eq!(snapshot(a.path()), sa);
}

#[test]
fn committed_demo_outputs_are_current() {
    // What `artifact gen -C paper` would write equals what is committed.
    let dir = paper_copy();
    gen_ok(dir.path());
    for sub in ["figures", "generated"] {
        for (rel, bytes) in snapshot(&dir.path().join(sub)) {
            let committed = std::fs::read(root().join("paper").join(sub).join(&rel))
                .unwrap_or_else(|_| panic!("paper/{sub}/{rel} is not committed"));
            assert!(
                committed == bytes,
                "paper/{sub}/{rel} is stale: run `artifact gen -C paper`"
            );
        }
    }
}

#[test]
fn every_figure_has_svg_pdf_and_csv() {
    let dir = paper_copy();
    gen_ok(dir.path());
    for fig in ["fig1", "fig2", "fig3", "fig4", "fig5"] {
        for ext in ["svg", "pdf", "csv"] {
            let p = dir.path().join(format!("figures/{fig}.{ext}"));
            assert!(p.is_file(), "{} missing", p.display());
        }
        let pdf = std::fs::read(dir.path().join(format!("figures/{fig}.pdf"))).unwrap();
        assert!(pdf.starts_with(b"%PDF-"));
        let text = String::from_utf8_lossy(&pdf);
        // The demo's `[style] font = "latin-modern"`, subset (`ABCDEF+`).
        assert!(
            text.contains("+LMRoman10-Regular"),
            "{fig}.pdf embeds the bundled font"
        );
    }
}

#[test]
fn malformed_jsonl_line_names_file_and_line_and_keeps_outputs() {
    let dir = paper_copy();
    gen_ok(dir.path());
    let before = snapshot(dir.path());
    let rel = "data/compression/provenance/iter3_precommit/03_atlas/results.jsonl";
    std::fs::copy(
        root().join("tests/fixtures/dirty/c01_malformed_line/provenance/iter3_precommit/03_atlas/results.jsonl"),
        dir.path().join(rel),
    )
    .unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("error: source `atlas_bf16`: {rel}:17: invalid JSON at column 255: EOF while parsing a string (line starts `{{\"tensor_name\": \"minilm-l6-bf16trunc/encoder.layer.1.interme...`)\n  (this fails number `fig1-bars`, number family `fig1-category-bars`, number `fig2-bf16-n`, figure `fig1`, figure `fig2`)\n")),
        "{err}"
    );
    assert!(
        !err.contains("figure `fig3`"),
        "figures that do not read the broken file are built: {err}"
    );
    // Only the replaced input differs; every output is as it was. The lock
    // names what failed and keeps their records and the input's old hash.
    let lock_before = artifact::lock::Lock::read(dir.path()).ok().flatten();
    let after = snapshot(dir.path());
    let changed: Vec<&String> = before
        .iter()
        .zip(&after)
        .filter(|(a, b)| a != b)
        .map(|(a, _)| &a.0)
        .collect();
    assert_eq!(changed, vec!["artifact.lock", rel]);
    let lock = lock_before.unwrap();
    assert_eq!(
        lock.failed,
        [
            "family.fig1-category-bars",
            "figure.fig1",
            "figure.fig2",
            "number.fig1-bars",
            "number.fig2-bf16-n"
        ]
    );
    let old = &before.iter().find(|(f, _)| f == "artifact.lock").unwrap().1;
    let old: artifact::lock::Lock = toml::from_str(&String::from_utf8_lossy(old)).unwrap();
    assert_eq!(lock.inputs, old.inputs);
    assert_eq!(lock.outputs, old.outputs);
    assert_eq!(lock.figures, old.figures);
    for k in ["fig1-bars", "fig2-bf16-n"] {
        assert_eq!(lock.numbers[k], old.numbers[k]);
    }
}

#[test]
fn spec_error_points_at_line_and_column() {
    let dir = paper_copy();
    let spec = std::fs::read_to_string(dir.path().join("artifact.toml")).unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        spec.replace("from = \"pairs\"", "from = \"pears\""),
    )
    .unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let line = spec
        .lines()
        .position(|l| l.contains("from = \"pairs\""))
        .unwrap()
        + 1;
    assert!(
        err.contains(&format!(
            "artifact.toml:{line}:8: no source or table named `pears`; did you mean `pairs`?"
        )),
        "{err}"
    );
    assert!(
        err.contains("from = \"pears\"\n") && err.contains("^^^^^^^"),
        "{err}"
    );
}

#[test]
fn spec_is_found_from_a_subfolder_and_with_dash_c() {
    let dir = paper_copy();
    let sub = dir.path().join("data/compression");
    let out = artifact(&sub, &["gen", "fig3"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.path().join("figures/fig3.pdf").is_file());
    assert!(
        !dir.path().join("figures/fig1.pdf").exists(),
        "only the named figure is built"
    );
    let elsewhere = tempfile::tempdir().unwrap();
    let out = artifact(
        elsewhere.path(),
        &["-C", dir.path().to_str().unwrap(), "gen"],
    );
    assert!(out.status.success());
    assert!(dir.path().join("figures/fig1.pdf").is_file());
}

#[test]
fn no_spec_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no artifact.toml in"));
}

#[test]
fn a_figure_quoting_a_failed_number_says_which() {
    let dir = paper_copy();
    let spec = std::fs::read_to_string(dir.path().join("artifact.toml")).unwrap();
    let spec = spec.replace(
        "value = { median = \"H_nibble\" }",
        "value = { median = \"H_nible\" }",
    );
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error: number `fig3-median`: over 138 row(s) of table `fig3_nibble`: data/compression/provenance/iter5/precheck_q/atlas_train.jsonl:"), "{err}");
    assert!(err.contains("error: figure `fig3`: it quotes number `fig3-median`, which could not be computed (see its error)\n"), "{err}");
}
