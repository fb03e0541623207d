//! Hostile input, round three (issue 25), point 1 and parts of point 7:
//! no control character from data, a file name or the spec reaches the
//! terminal, and a line break in one cannot fake an `error:` line; the
//! report's Markdown escapes what `NAME.md` escapes; `-q` is quiet while
//! waiting for the folder's lock; lint does not follow an include out of
//! the paper's folder.
//!
//! Every case runs issue 25's sequence through one kind of message and
//! asserts the exact escaped output.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use common::artifact;
use common::small::{stderr, stdout};

/// Retitles the terminal, rings, clears the line, returns the cursor and
/// starts a fake `error:` line.
const SEQ: &str = "\u{1b}]0;PWNED\u{7}\u{1b}[2K\r\nerror: FAKE";
/// `SEQ` as every message prints it.
const SHOWN: &str = "\\u{1b}]0;PWNED\\u{7}\\u{1b}[2K\\u{d}\\u{a}error: FAKE";

/// `SEQ` as a JSON string's content.
fn json_escaped() -> String {
    let quoted = serde_json::to_string(SEQ).unwrap();
    quoted[1..quoted.len() - 1].to_string()
}

/// A folder holding `files` (created with their folders).
fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// Nothing of `SEQ` got through raw: no escape, bell or carriage return,
/// and no line the sequence started.
fn clean(text: &str) {
    assert!(
        !text.contains(['\u{1b}', '\u{7}', '\r']),
        "raw control characters in {text:?}"
    );
    assert!(
        !text.lines().any(|l| l.starts_with("error: FAKE")),
        "a forged line in {text:?}"
    );
}

#[test]
fn lookup_no_match_note_escapes_a_control_sequence_in_the_key() {
    let k = json_escaped();
    let a = format!("{{\"k\": \"{k}\", \"x\": 1}}\n{{\"k\": \"b\", \"x\": 2}}\n");
    let spec = "[sources.a]\npath = \"a.jsonl\"\n[sources.b]\npath = \"b.jsonl\"\n\
                [tables.j]\nfrom = \"a\"\nsteps = [{ lookup = \"b\", on = \"k\" }]\n\
                [numbers.n]\ntable = \"j\"\nvalue = \"count\"\n";
    let dir = project(&[
        ("artifact.toml", spec),
        ("a.jsonl", &a),
        ("b.jsonl", "{\"k\": \"b\", \"y\": 1}\n"),
    ]);
    let out = artifact(dir.path(), &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    clean(&err);
    assert_eq!(
        err.lines().next().unwrap(),
        format!(
            "note: table `j`: 1 row(s) had no match in `b` on k and were dropped: ({SHOWN}) at a.jsonl:1"
        )
    );
}

#[test]
fn unique_repeated_key_error_escapes_a_control_sequence_in_the_key() {
    let k = json_escaped();
    let u = format!("{{\"k\": \"{k}\", \"x\": 1}}\n{{\"k\": \"{k}\", \"x\": 2}}\n");
    let spec = "[sources.u]\npath = \"u.jsonl\"\n[tables.j]\nfrom = \"u\"\n\
                steps = [{ unique = \"k\" }]\n[numbers.n]\ntable = \"j\"\nvalue = \"count\"\n";
    let dir = project(&[("artifact.toml", spec), ("u.jsonl", &u)]);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    clean(&err);
    assert!(err.ends_with(&format!(
        "error: number `n`: table `j`, step 1 (unique, artifact.toml line 5): u.jsonl:2: field `k`: key ({SHOWN}) repeats the row at u.jsonl:1 (set `keep = \"first\"` or `\"last\"` to choose one)\n\
         1 part(s) failed; their previous outputs are left as they were\n"
    )), "{err}");
}

#[test]
fn json_duplicate_key_error_escapes_a_control_sequence_in_the_key() {
    let k = json_escaped();
    for (file, text, at) in [
        (
            "d.json",
            format!("{{\"rows\": [{{\"{k}\": 1, \"{k}\": 2}}]}}"),
            "d.json:1: invalid JSON at column 112: duplicate key `rows.",
        ),
        (
            "d.jsonl",
            format!("{{\"{k}\": 1, \"{k}\": 2}}\n"),
            "d.jsonl:1: invalid JSON at column 102: duplicate key `",
        ),
    ] {
        let spec = format!(
            "[sources.d]\npath = \"{file}\"\n[numbers.n]\ntable = \"d\"\nvalue = \"count\"\n"
        );
        let dir = project(&[("artifact.toml", &spec), (file, &text)]);
        let out = artifact(dir.path(), &["gen"]);
        assert_eq!(out.status.code(), Some(2));
        let err = stderr(&out);
        clean(&err);
        let line = err.lines().find(|l| l.starts_with("error:")).unwrap();
        assert!(
            line.starts_with(&format!(
                "error: number `n`: source `d`: {at}{SHOWN}` in one JSON object (Python would silently keep the last value)"
            )),
            "{line}"
        );
    }
}

#[test]
fn table_named_with_a_control_sequence_is_escaped_in_its_error_prefix() {
    let name = json_escaped();
    let spec = format!(
        "[sources.a]\npath = \"a.csv\"\n[tables.\"{name}\"]\nfrom = \"a\"\n\
         steps = [{{ derive = {{ z = \"x + k\" }} }}]\n\
         [numbers.n]\ntable = \"{name}\"\nvalue = {{ sum = \"z\" }}\n"
    );
    let dir = project(&[("artifact.toml", &spec), ("a.csv", "k,x\nb,1\n")]);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    clean(&err);
    assert!(err.ends_with(&format!(
        "error: number `n`: table `{SHOWN}`, step 1 (derive, artifact.toml line 5): a.csv:2: cannot evaluate `x + k`: invalid operation: tried to use + operator on unsupported types number and string (where k = \"b\", x = 1)\n\
         1 part(s) failed; their previous outputs are left as they were\n"
    )), "{err}");
}

#[test]
fn spec_line_with_a_raw_control_character_is_escaped_in_its_error() {
    let spec = "[sources.a]\npath = \"a.csv\" # \u{1b}]0;PWNED\u{7}\n";
    let dir = project(&[("artifact.toml", spec), ("a.csv", "k\n1\n")]);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    clean(&err);
    assert!(
        err.contains("\n2 | path = \"a.csv\" # \\u{1b}]0;PWNED\\u{7}\n"),
        "{err}"
    );
}

/// A built project whose paper `main.tex` is `tex`.
fn lint_project(tex: &str) -> tempfile::TempDir {
    let spec = "[numbers.n]\nvalue = { expr = \"2\" }\n";
    let dir = project(&[("artifact.toml", spec), ("main.tex", tex)]);
    let out = artifact(dir.path(), &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    dir
}

#[test]
fn lint_escapes_a_control_sequence_in_file_names() {
    let dir = lint_project(&format!("\\artnum{{n}} \\input{{{SEQ}}}\n"));
    let named = format!("{SEQ}.tex");
    let lint = |args: &[&str]| {
        let out = artifact(dir.path(), args);
        assert!(out.status.success(), "{}", stderr(&out));
        clean(&stdout(&out));
        stdout(&out)
    };
    // The main file's include missing, then there, then named.
    assert_eq!(
        lint(&["lint"]),
        format!(
            "main.tex:1:19: warning[missing-file]: {SHOWN}.tex is included but does not exist\n\
             lint: 0 errors, 1 warning in 1 file (main.tex)\n"
        )
    );
    std::fs::write(dir.path().join(&named), "\\artnum{n} and 2 runs\n").unwrap();
    assert_eq!(
        lint(&["lint"]),
        format!("lint: 0 errors, 0 warnings in 2 files (main.tex, {SHOWN}.tex)\n")
    );
    assert_eq!(
        lint(&["lint", &named]),
        format!("lint: 0 errors, 0 warnings in 1 file ({SHOWN}.tex)\n")
    );
}

#[test]
fn lint_does_not_follow_an_absolute_or_outside_include() {
    let dir = lint_project(
        "\\artnum{n}\n\\input{/etc/passwd}\n\\include{../../outside}\n\\input{sec/../inside}\n",
    );
    std::fs::write(dir.path().join("inside.tex"), "inside\n").unwrap();
    std::fs::create_dir(dir.path().join("sec")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("/etc/hostname", dir.path().join("link.tex")).unwrap();
    std::fs::write(
        dir.path().join("main.typ"),
        "#include \"../up.typ\"\n#include \"/rooted.typ\"\n#include \"link.tex\"\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("rooted.typ"), "rooted\n").unwrap();
    let out = artifact(dir.path(), &["lint"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "main.tex:2:8: warning[outside-file]: `/etc/passwd` is an absolute path, outside the paper's folder: lint does not read it\n\
         main.tex:3:10: warning[outside-file]: `../../outside` leaves the paper's folder: lint does not read it\n\
         main.typ:1:11: warning[outside-file]: `../up.typ` leaves the paper's folder: lint does not read it\n\
         main.typ:3:11: warning[outside-file]: `link.tex` is a link out of the paper's folder: lint does not read it\n\
         lint: 0 errors, 4 warnings in 4 files (main.tex, main.typ, inside.tex, rooted.typ)\n"
    );
}

#[test]
fn watch_escapes_a_control_sequence_in_the_changed_line() {
    let spec =
        "[sources.d]\npath = \"data/*.csv\"\n[numbers.n]\ntable = \"d\"\nvalue = \"count\"\n";
    let dir = project(&[("artifact.toml", spec), ("data/a.csv", "x\n1\n")]);
    let mut child = Command::new(assert_cmd::cargo::cargo_bin!("artifact"))
        .current_dir(dir.path())
        .args(["watch"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut next = || lines.next().expect("watch ended").unwrap();
    while !next().starts_with("watching ") {}
    std::fs::write(dir.path().join(format!("data/{SEQ}.csv")), "x\n2\n").unwrap();
    let changed = next();
    let _ = child.kill();
    let _ = child.wait();
    clean(&changed);
    assert_eq!(changed, format!("changed: data/{SHOWN}.csv"));
}

#[test]
fn show_text_escapes_a_control_sequence_in_a_value_and_csv_keeps_it() {
    let spec = "[sources.a]\npath = \"a.jsonl\"\n";
    let a = format!("{{\"k\": \"{}\"}}\n", json_escaped());
    let dir = project(&[("artifact.toml", spec), ("a.jsonl", &a)]);
    let out = artifact(dir.path(), &["show", "a"]);
    assert!(out.status.success(), "{}", stderr(&out));
    clean(&stdout(&out));
    // (A cell prints at most 30 characters.)
    assert!(
        stdout(&out).ends_with("\nk\n\\u{1b}]0;PWNED\\u{7}\\u{1b}[2K\\u{…\n"),
        "{}",
        stdout(&out)
    );
    // CSV is data: its bytes are the cell's.
    let out = artifact(dir.path(), &["show", "a", "--format", "csv"]);
    assert_eq!(stdout(&out), format!("k\n\"{SEQ}\"\n"));
}

#[test]
fn report_markdown_escapes_data_text_as_name_md_does() {
    let text = "*bold* <script>x</script> _u_ [l](h) a|b";
    let spec = "[sources.runs]\npath = \"runs.csv\"\n[numbers.best]\ntable = \"runs\"\nvalue = { cell = \"name\" }\n";
    let dir = project(&[
        ("artifact.toml", spec),
        ("runs.csv", &format!("name\n{text}\n")),
    ]);
    let out = artifact(dir.path(), &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = artifact(dir.path(), &["check", "--report", "-"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let cell = "\\*bold\\* \\<script\\>x\\</script\\> \\_u\\_ \\[l\\](h) a\\|b";
    assert_eq!(artifact::results::markdown::escape(text), cell);
    let md = stdout(&out);
    assert!(
        md.contains(&format!("| best | {cell} | {cell} | - | identical |\n")),
        "{md}"
    );
}

#[test]
fn quiet_waiting_for_the_folder_lock_prints_nothing() {
    let spec = "[numbers.n]\nvalue = { expr = \"2\" }\n";
    let dir = project(&[("artifact.toml", spec)]);
    let held = std::fs::File::open(dir.path()).unwrap();
    held.lock().unwrap();
    let quiet = Command::new(assert_cmd::cargo::cargo_bin!("artifact"))
        .current_dir(dir.path())
        .args(["gen", "-q"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut loud = Command::new(assert_cmd::cargo::cargo_bin!("artifact"))
        .current_dir(dir.path())
        .args(["check"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // The loud one says it waits; the quiet one is then waiting as well
    // when the kernel lists it blocked on the lock (Linux).
    let mut said = String::new();
    BufReader::new(loud.stderr.as_mut().unwrap())
        .read_line(&mut said)
        .unwrap();
    assert!(
        said.starts_with("waiting for another `artifact gen` in ")
            && said.ends_with(" to finish\n"),
        "{said}"
    );
    if cfg!(target_os = "linux") {
        let blocked = format!("-> FLOCK  ADVISORY  WRITE {} ", quiet.id());
        let mut polls = 0;
        while !std::fs::read_to_string("/proc/locks")
            .unwrap()
            .contains(&blocked)
        {
            polls += 1;
            assert!(polls < 30_000, "gen -q never waited for the lock");
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
    held.unlock().unwrap();
    let quiet = quiet.wait_with_output().unwrap();
    assert!(quiet.status.success());
    assert_eq!(stderr(&quiet), "");
    let _ = loud.wait();
}

/// Every write to the terminal goes through `console` (which escapes what
/// it prints) or is machine output through `console::print_data`; the only
/// other writer is the progress bar, whose label `progress` escapes.
#[test]
fn every_write_to_the_terminal_goes_through_console() {
    let src = common::root().join("src");
    let mut files = Vec::new();
    fn walk(d: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    walk(&src, &mut files);
    let mut writers = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        // Test code may print as it likes.
        let code = text.split("#[cfg(test)]").next().unwrap();
        for pat in [
            "stdout()",
            "stderr()",
            "println!",
            "eprintln!",
            "print!(",
            "eprint!(",
            "dbg!(",
        ] {
            for (i, _) in code.match_indices(pat) {
                let _ = i;
                let rel = f.strip_prefix(&src).unwrap().display().to_string();
                writers.push(format!("{rel}: {pat}"));
            }
        }
    }
    writers.retain(|w| !w.starts_with("console.rs:"));
    assert_eq!(
        writers,
        ["progress.rs: stderr()", "progress.rs: stderr()"],
        "a write to the terminal that does not go through console"
    );
}
