//! `artifact check --fast` on the unchanged demo paper: the cost the
//! pre-commit hook adds to every commit.
//!
//! Run: `cargo bench --bench check_fast`. The paper is copied to a temporary
//! folder and built once; the benchmark then times the whole check (locate
//! and parse the spec, hash the spec and every input, compare every output
//! with artifact.lock).

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("paper"),
        dir.path(),
    );
    let spec = artifact::spec::load(&dir.path().join("artifact.toml")).unwrap();
    let build = artifact::run::build(&spec, &[], None).unwrap();
    artifact::run::write(&spec, &build, None).unwrap();
    c.bench_function("check --fast, unchanged demo paper", |b| {
        b.iter(|| {
            let path = artifact::spec::locate(dir.path()).unwrap();
            let spec = artifact::spec::load(&path).unwrap();
            let report = artifact::check::check(&spec, true).unwrap();
            assert!(report.fast && !report.stale());
        })
    });
    c.bench_function("check (full recompute), unchanged demo paper", |b| {
        b.iter(|| {
            let report = artifact::check::check(&spec, false).unwrap();
            assert!(!report.stale());
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).without_plots();
    targets = bench
}
criterion_main!(benches);
