//! Mode `init`: `artifact init` on a 1 GiB JSONL log, zstd-compressed and
//! plain.
//!
//! Writes (once, under `target/bench-data/init/`) SIZE_MIB of JSONL
//! (default 1024: about 7.5 million rows of a run index, a system, a
//! thread count, seconds, bytes and a note), plain and compressed with
//! zstd. Then, alternately, `RUNS` times each: `artifact init FILE` in an
//! empty folder (the spec it writes removed before the next run), and the
//! reference, reading the whole file (`zstd -dc`, `cat`). `init` reads a
//! sample of the first rows and checks its starter on that sample, so it
//! takes a fraction of the whole read. Prints the minimum and median wall
//! time and the peak RSS of each.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::Command;

use crate::{Rng, Runs, artifact_exe, measure, zstd_dc};

fn generate(plain: &Path, zst: &Path, mib: u64) {
    let target = mib << 20;
    let tmp = plain.with_extension("jsonl.tmp");
    let ztmp = zst.with_extension("zst.tmp");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&tmp).expect("create the log"));
    let f = std::fs::File::create(&ztmp).expect("create the compressed log");
    let mut enc = zstd::stream::write::Encoder::new(f, 3).expect("zstd encoder");
    let mut rng = Rng(artifact::stats::SplitMix64(20261205));
    let systems = ["baseline", "ours", "theirs", "fast"];
    let (mut written, mut i) = (0u64, 0u64);
    let mut buf = String::with_capacity(1 << 20);
    while written < target {
        buf.clear();
        while buf.len() < (1 << 20) && written + (buf.len() as u64) < target {
            let _ = writeln!(
                buf,
                "{{\"run\": {i}, \"system\": \"{}\", \"threads\": {}, \"seconds\": {:.6}, \"bytes\": {}, \"note\": \"iteration {i} of the measurement loop\"}}",
                systems[(i % 4) as usize],
                1u64 << (i % 6),
                rng.around(5.0, 0.8),
                1 + rng.next_u64() % 1_000_000_000
            );
            i += 1;
        }
        out.write_all(buf.as_bytes()).expect("write the log");
        enc.write_all(buf.as_bytes())
            .expect("write the compressed log");
        written += buf.len() as u64;
    }
    out.flush().expect("flush the log");
    drop(out);
    enc.finish().expect("finish the compressed log");
    std::fs::rename(&tmp, plain).expect("rename the log");
    std::fs::rename(&ztmp, zst).expect("rename the compressed log");
    eprintln!(
        "generated {} and {} ({i} rows)",
        plain.display(),
        zst.display()
    );
}

/// `artifact init FILE` in `work`, emptied of what the last run wrote.
fn init(exe: &Path, work: &Path, data: &Path) -> Command {
    for f in ["artifact.toml", "main.typ", "main.tex"] {
        let _ = std::fs::remove_file(work.join(f));
    }
    let mut cmd = Command::new(exe);
    cmd.current_dir(work).arg("init").arg(data);
    cmd
}

/// Runs the init mode on SIZE_MIB of JSONL.
pub fn run(root: &Path, mib: u64, runs: usize) {
    let dir = root.join("target/bench-data/init");
    std::fs::create_dir_all(&dir).expect("create target/bench-data/init");
    let plain = dir.join(format!("log-{mib}MiB.jsonl"));
    let zst = dir.join(format!("log-{mib}MiB.jsonl.zst"));
    if !plain.exists() || !zst.exists() {
        generate(&plain, &zst, mib);
    }
    let exe = artifact_exe(root);
    let mb = (mib << 20) as f64 / 1e6;
    println!("== init: {mib} MiB of JSONL, {runs} runs each");
    for (data, name) in [(&zst, "zst"), (&plain, "plain")] {
        let work = dir.join(format!("work-{name}"));
        std::fs::create_dir_all(&work).expect("create the init folder");
        let (mut reference, mut inits) = (Runs::default(), Runs::default());
        for _ in 0..runs {
            let mut whole = match name {
                "zst" => zstd_dc(data),
                _ => {
                    let mut c = Command::new("cat");
                    c.arg(data);
                    c
                }
            };
            reference.push(measure(&mut whole, None));
            inits.push(measure(
                &mut init(&exe, &work, data),
                Some(&dir.join(format!("init-{name}.stderr"))),
            ));
        }
        let whole = if name == "zst" {
            "zstd -dc > /dev/null"
        } else {
            "cat > /dev/null"
        };
        reference.print(whole, mb, None);
        inits.print(&format!("artifact init ({name})"), mb, Some(&reference));
    }
}
