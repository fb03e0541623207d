//! How `gen`, `check --fast`, `show` and `explain` scale with the size of
//! the spec: N tables, N numbers, N figures and a family of N members.
//!
//! Run: `cargo bench --bench spec_size` (N = 10,000 and 100,000), or name
//! the sizes: `cargo bench --bench spec_size -- 1000 4000`. Options:
//! `--figures F` caps the figures at F (each figure renders, so their cost
//! is per figure; the default is N), `--formats svg,pdf` sets the figures'
//! files (default `svg`), `--write DIR` only writes the spec of the first
//! size to DIR (to profile one command, e.g. under callgrind), and
//! `--write DIR --shift 1` only its data, changed; `--timeout S` stops a
//! run after S seconds (shown as `>S`, default 600). `ARTIFACT_BIN=PATH`
//! times another build of the binary (an older one, to compare).
//!
//! For each N it writes the spec into a temporary folder and times the
//! release binary, one run each: `gen` (everything to build), `gen` again
//! (everything current), `gen` after the data changed (every number and
//! figure rebuilt and reported as changed), `check --fast`, `show` of a
//! table, `explain` of a number and of a family member. Each cell is
//! `wall/cpu`: the wall time and the processor time (user and system) in
//! seconds, the second less at the mercy of a shared disk's flushes; a run
//! past the timeout shows `>S` (the runs after a `gen` that ran past it
//! are not made). The last column is the largest resident set of the
//! runs so far, in MiB.
//!
//! The spec: one shared CSV source of 10 rows; N tables, a third from an
//! inline source of their own, a third from the shared source with a
//! filter, a third from the previous table with a lookup into the shared
//! source; N numbers over them (a count, a sum whose `where` reads the
//! previous number or, every tenth, a family member, every fifth an
//! `expr` over two numbers); N figures of one point layer, every other
//! one's title quoting its number; a family `member` of one number per row
//! of an N-row CSV.

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

/// The processor time (user and system) of the children waited for so
/// far, in seconds.
fn children_cpu() -> f64 {
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills the struct it is given.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(u.ru_utime) + secs(u.ru_stime)
}

/// Runs the binary in `dir` with `args`: its wall and processor time in
/// seconds, or `None` when it ran past `timeout` seconds (it is then
/// stopped).
fn time(dir: &Path, args: &[&str], timeout: f64) -> Option<(f64, f64)> {
    let bin = std::env::var("ARTIFACT_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_artifact").to_string());
    let start = Instant::now();
    let cpu = children_cpu();
    let mut child = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Its stderr read meanwhile, so a long report cannot fill the pipe.
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut text).ok();
        text
    });
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let secs = start.elapsed().as_secs_f64();
            let err = reader.join().unwrap();
            assert!(
                status.success(),
                "artifact {} failed:\n{err}",
                args.join(" ")
            );
            return Some((secs, children_cpu() - cpu));
        }
        if start.elapsed().as_secs_f64() > timeout {
            child.kill().ok();
            child.wait().ok();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
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
    let mut timeout = 600.0;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bench" => {}
            "--figures" => figures = args.next().and_then(|f| f.parse::<usize>().ok()),
            "--formats" => formats = args.next().expect("--formats svg,pdf"),
            "--write" => write = args.next(),
            "--shift" => shift = args.next().and_then(|s| s.parse::<usize>().ok()),
            "--timeout" => timeout = args.next().and_then(|s| s.parse().ok()).expect("seconds"),
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
        "{:>8} {:>8} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>9}",
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
        let mut times = Vec::new();
        let first = time(dir.path(), &["gen"], timeout);
        times.push(first);
        // These need the first `gen` done (skipped when it ran too long).
        let after_gen = |args: &[&str]| first.and_then(|_| time(dir.path(), args, timeout));
        times.push(after_gen(&["gen"]));
        write_data(dir.path(), n, 1);
        times.push(after_gen(&["gen"]));
        times.push(after_gen(&["check", "--fast"]));
        for args in [["show", &t], ["explain", &num], ["explain", &m]] {
            times.push(time(dir.path(), &args, timeout));
        }
        let cells: Vec<String> = times
            .iter()
            .map(|t| match t {
                Some((wall, cpu)) => format!("{:>11}", format!("{wall:.2}/{cpu:.2}")),
                None => format!("{:>11}", format!(">{timeout}")),
            })
            .collect();
        println!("{n:>8} {f:>8} {} {:>9.0}", cells.join(" "), max_rss_mib());
    }
}
