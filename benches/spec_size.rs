//! How `gen`, `check --fast`, `show` and `explain` scale with the size of
//! the spec: N tables, N numbers, N figures and a family of N members.
//!
//! Run: `cargo bench --bench spec_size` (N = 10,000 and 100,000), or name
//! the sizes: `cargo bench --bench spec_size -- 1000 4000`. Options:
//! `--figures F` caps the figures at F (each figure renders, so their cost
//! is per figure; the default is N), `--formats svg,pdf` sets the figures'
//! files (default `svg`), `--write DIR` only writes the spec of the first
//! size to DIR (to profile one command, e.g. under callgrind), and
//! `--write DIR --shift 1` only its data, changed.
//!
//! For each N it writes the spec into a temporary folder and times the
//! release binary, one run each: `gen` (everything to build), `gen` again
//! (everything current), `gen` after the data changed (every number and
//! figure rebuilt and reported as changed), `check --fast`, `show` of a
//! table, `explain` of a number and of a family member. The table printed
//! is wall time in seconds; the last column is the largest resident set
//! of those runs.
//!
//! The spec: one shared CSV source of 10 rows; N tables, a third from an
//! inline source of their own, a third from the shared source with a
//! filter, a third from the previous table with a lookup into the shared
//! source; N numbers over them (a count, a sum whose `where` reads the
//! previous number or, every tenth, a family member, every fifth an
//! `expr` over two numbers); N figures of
//! one point layer, every other one's title quoting its number; a family
//! `member` of one number per row of an N-row CSV.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// The spec and its data files for `n` tables, numbers, members and
/// `figures` figures, written into `dir`.
fn write_spec(dir: &Path, n: usize, figures: usize, formats: &str) {
    write_data(dir, n, 0);

    let formats: Vec<String> = formats.split(',').map(|f| format!("\"{f}\"")).collect();
    let mut s = String::with_capacity(n * 600);
    writeln!(s, "[output]\nformats = [{}]\n", formats.join(", ")).unwrap();
    s.push_str("[sources.shared]\npath = \"data/shared.csv\"\n\n");
    s.push_str("[sources.members]\npath = \"data/members.csv\"\n\n");
    for i in 0..n {
        match i % 3 {
            0 => {
                writeln!(
                    s,
                    "[sources.s{i}]\nrows = [{{ k = {}, x = 1.5 }}, {{ k = {}, x = 2.5 }}]\n",
                    i % 10,
                    (i + 1) % 10
                )
                .unwrap();
                writeln!(
                    s,
                    "[tables.t{i}]\nfrom = \"s{i}\"\nsteps = [{{ derive = {{ y = \"x * 2\" }} }}]\n"
                )
                .unwrap();
            }
            1 => writeln!(
                s,
                "[tables.t{i}]\nfrom = \"shared\"\nsteps = [{{ filter = \"k >= {}\" }}]\n",
                i % 7
            )
            .unwrap(),
            _ => writeln!(
                s,
                "[tables.t{i}]\nfrom = \"t{}\"\nsteps = [{{ lookup = \"shared\", on = \"k\", as = \"o\" }}, {{ derive = {{ z = \"o.y + x\" }} }}]\n",
                i - 1
            )
            .unwrap(),
        }
    }
    for i in 0..n {
        if i % 5 == 4 {
            writeln!(
                s,
                "[numbers.n{i}]\nvalue = {{ expr = \"v['n{}'] + v.n{}\" }}\ndescription = \"the sum of two numbers\"\n",
                i - 1,
                i - 2
            )
            .unwrap();
        } else if i % 2 == 1 {
            let read = match i % 10 {
                3 => format!("m{i}"),
                _ => format!("n{}", i - 1),
            };
            writeln!(
                s,
                "[numbers.n{i}]\ntable = \"t{i}\"\nwhere = \"x <= v['{read}'] + 10\"\nvalue = {{ sum = \"x\" }}\nformat = {{ places = 1 }}\n"
            )
            .unwrap();
        } else {
            writeln!(s, "[numbers.n{i}]\ntable = \"t{i}\"\nvalue = \"count\"\n").unwrap();
        }
    }
    s.push_str(
        "[numbers.member]\ntable = \"members\"\neach = \"m{{ k }}\"\nvalue = { cell = \"x\" }\ndescription = \"member {{ k }}\"\n\n",
    );
    for i in 0..figures {
        let title = match i % 2 {
            0 => format!("title = \"n = {{{{ n['n{i}'] }}}}\"\n"),
            _ => String::new(),
        };
        writeln!(
            s,
            "[figures.f{i}]\nsize = [2, 1.5]\n{title}layers = [{{ mark = \"point\", data = \"t{i}\", x = \"k\", y = \"x\" }}]\n"
        )
        .unwrap();
    }
    std::fs::write(dir.join("artifact.toml"), s).unwrap();
}

/// The data files for `n` members, their values shifted by `shift` (a
/// new run of the experiments: every number and figure changes).
fn write_data(dir: &Path, n: usize, shift: usize) {
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let mut shared = String::from("k,x,y\n");
    for k in 0..10 {
        writeln!(shared, "{k},{}.5,{}", k + 1 + shift, 10 - k).unwrap();
    }
    std::fs::write(data.join("shared.csv"), shared).unwrap();
    let mut members = String::from("k,x\n");
    for k in 0..n {
        writeln!(members, "{k},{}", k % 97 + shift).unwrap();
    }
    std::fs::write(data.join("members.csv"), members).unwrap();
}

/// Runs the binary in `dir` with `args`: its wall time in seconds.
fn time(dir: &Path, args: &[&str]) -> f64 {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_artifact"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let secs = start.elapsed().as_secs_f64();
    if !out.status.success() {
        panic!(
            "artifact {} failed:\n{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    secs
}

/// The largest resident set of the children run so far, in MiB.
fn max_rss_mib() -> f64 {
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills the struct it is given.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    u.ru_maxrss as f64 / 1024.0
}

fn main() {
    let mut sizes = Vec::new();
    let mut figures = None;
    let mut formats = "svg".to_string();
    let mut write = None;
    let mut shift = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bench" => {}
            "--figures" => figures = args.next().and_then(|f| f.parse::<usize>().ok()),
            "--formats" => formats = args.next().expect("--formats svg,pdf"),
            "--write" => write = args.next(),
            "--shift" => shift = args.next().and_then(|s| s.parse::<usize>().ok()),
            n => sizes.push(n.replace('_', "").parse::<usize>().expect("a size")),
        }
    }
    if sizes.is_empty() {
        sizes = vec![10_000, 100_000];
    }
    if let Some(dir) = write {
        let n = sizes[0];
        if let Some(shift) = shift {
            write_data(Path::new(&dir), n, shift);
            return;
        }
        write_spec(Path::new(&dir), n, figures.unwrap_or(n).min(n), &formats);
        return;
    }
    println!(
        "{:>8} {:>8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "N",
        "figures",
        "gen",
        "gen again",
        "gen data",
        "check -f",
        "show",
        "explain",
        "member",
        "max MiB"
    );
    for n in sizes {
        let f = figures.unwrap_or(n).min(n);
        let dir = tempfile::tempdir().unwrap();
        write_spec(dir.path(), n, f, &formats);
        let mid = n / 2 + 1;
        let (t, num, m) = (format!("t{mid}"), format!("n{mid}"), format!("m{mid}"));
        let mut times = vec![time(dir.path(), &["gen"]), time(dir.path(), &["gen"])];
        write_data(dir.path(), n, 1);
        times.extend([
            time(dir.path(), &["gen"]),
            time(dir.path(), &["check", "--fast"]),
            time(dir.path(), &["show", &t]),
            time(dir.path(), &["explain", &num]),
            time(dir.path(), &["explain", &m]),
        ]);
        let cells: Vec<String> = times.iter().map(|t| format!("{t:>9.2}")).collect();
        println!("{n:>8} {f:>8} {} {:>9.0}", cells.join(" "), max_rss_mib());
    }
}
