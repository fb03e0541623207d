//! Issue 27, part D: parts of a number in the prose. `\artnum{speedup}`
//! printed only the whole `(2.08 +0.05 / −0.05)×`: now the value, the
//! bounds and the uncertainty alone are emitted too (`\artnum[value]{k}`,
//! `#artnum("k", part: "value")`, numbers.json's `parts`), a symmetric
//! interval prints `±`, `interval = "bounds"` prints `2.08× [2.03, 2.13]`,
//! the space before a unit does not break, `percent-sign = false` drops
//! the `%`, and lint suggests the part the author typed.

mod common;

use std::path::Path;

use common::{artifact, gen_ok, has_tool, numbers, pdflatex, project, stderr};

/// Five speedups: median 2.08, min 2.00, max 2.20.
const RUNS: &str = "{\"s\": 2.03}\n{\"s\": 2.08}\n{\"s\": 2.13}\n{\"s\": 2.0}\n{\"s\": 2.2}\n";

const SPEC: &str = r#"[sources.r]
path = "r.jsonl"

[numbers.speedup]
table = "r"
value = { median = "s" }
uncertainty = { low = { min = "s" }, high = { max = "s" } }
format = { places = 2, unit = "×" }

[numbers.lat]
table = "r"
value = { median = "s" }
uncertainty = { low = { expr = "2.031" }, high = { expr = "2.129" } }
format = { places = 2, unit = "ms" }

[numbers.ci]
table = "r"
value = { median = "s" }
uncertainty = { low = { expr = "2.03" }, high = { expr = "2.13" } }
format = { places = 2, unit = "×", interval = "bounds" }

[numbers.share]
value = { expr = "0.1234" }
uncertainty = { expr = "0.005" }
format = { places = 1, percent = true, percent-sign = false }

[numbers.plain]
value = { expr = "5.9012" }
format = { places = 2, unit = "ms" }
"#;

/// A project with [`SPEC`] and its data, generated.
fn built() -> tempfile::TempDir {
    let dir = project(SPEC);
    std::fs::write(dir.path().join("r.jsonl"), RUNS).unwrap();
    gen_ok(dir.path());
    dir
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap()
}

/// The lines of `text` that define number `key` (LaTeX `\@namedef`).
fn tex_lines<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    let (a, b) = (format!("{{artnum@{key}"), format!("{{artnumpdf@{key}"));
    text.lines()
        .filter(|l| l.starts_with("\\@namedef") && (l.contains(&a) || l.contains(&b)))
        .collect()
}

#[test]
fn artnum_printed_only_the_whole_so_latex_gets_each_part() {
    let dir = built();
    let tex = read(dir.path(), "generated/macros.tex");
    assert_eq!(
        tex_lines(&tex, "speedup"),
        [
            "\\@namedef{artnum@speedup}{(2.08~+0.12~/~\\ensuremath{-}0.08)\\ensuremath{\\times}}",
            "\\@namedef{artnumpdf@speedup}{(2.08 +0.12 / -0.08)x}",
            "\\@namedef{artnum@speedup@value}{2.08\\ensuremath{\\times}}",
            "\\@namedef{artnumpdf@speedup@value}{2.08x}",
            "\\@namedef{artnum@speedup@lo}{2.00\\ensuremath{\\times}}",
            "\\@namedef{artnumpdf@speedup@lo}{2.00x}",
            "\\@namedef{artnum@speedup@hi}{2.20\\ensuremath{\\times}}",
            "\\@namedef{artnumpdf@speedup@hi}{2.20x}",
            "\\@namedef{artnum@speedup@pm}{+0.12~/~\\ensuremath{-}0.08}",
            "\\@namedef{artnumpdf@speedup@pm}{+0.12 / -0.08}",
        ]
    );
    assert_eq!(
        tex_lines(&tex, "lat"),
        [
            "\\@namedef{artnum@lat}{(2.08~\\ensuremath{\\pm}~0.05)~ms}",
            "\\@namedef{artnumpdf@lat}{(2.08 +/- 0.05) ms}",
            "\\@namedef{artnum@lat@value}{2.08~ms}",
            "\\@namedef{artnumpdf@lat@value}{2.08 ms}",
            "\\@namedef{artnum@lat@lo}{2.03~ms}",
            "\\@namedef{artnumpdf@lat@lo}{2.03 ms}",
            "\\@namedef{artnum@lat@hi}{2.13~ms}",
            "\\@namedef{artnumpdf@lat@hi}{2.13 ms}",
            "\\@namedef{artnum@lat@pm}{\\ensuremath{\\pm}~0.05}",
            "\\@namedef{artnumpdf@lat@pm}{+/- 0.05}",
        ]
    );
    // A number without an uncertainty has no parts of its own.
    assert_eq!(
        tex_lines(&tex, "plain"),
        [
            "\\@namedef{artnum@plain}{5.90~ms}",
            "\\@namedef{artnumpdf@plain}{5.90 ms}",
        ]
    );
    assert!(
        tex.contains("\\DeclareRobustCommand{\\artnum}[2][]{"),
        "{tex}"
    );
}

#[test]
fn typst_gets_each_part_through_artnum_part() {
    let dir = built();
    let typ = read(dir.path(), "generated/macros.typ");
    let at = typ.find("#let artparts = (\n").expect("artparts");
    let end = at + typ[at..].find("\n)\n").unwrap();
    assert_eq!(
        &typ[at..end],
        "#let artparts = (\n\
         \x20 \"ci\": (\"value\": \"2.08×\", \"lo\": \"2.03×\", \"hi\": \"2.13×\", \"pm\": \"[2.03,\u{a0}2.13]\"),\n\
         \x20 \"lat\": (\"value\": \"2.08\u{a0}ms\", \"lo\": \"2.03\u{a0}ms\", \"hi\": \"2.13\u{a0}ms\", \"pm\": \"±\u{a0}0.05\"),\n\
         \x20 \"share\": (\"value\": \"12.3\", \"lo\": \"11.8\", \"hi\": \"12.8\", \"pm\": \"±\u{a0}0.5\"),\n\
         \x20 \"speedup\": (\"value\": \"2.08×\", \"lo\": \"2.00×\", \"hi\": \"2.20×\", \"pm\": \"+0.12\u{a0}/\u{a0}−0.08\"),"
    );
    assert!(typ.contains("#let artnum(key, part: none) = {"), "{typ}");
    assert!(
        typ.contains(
            "message: \"artifact: unknown part \" + repr(part) + \" of number \" + repr(key)"
        ),
        "{typ}"
    );
}

#[test]
fn numbers_json_lists_the_parts_of_a_number() {
    let dir = built();
    let n = numbers(dir.path());
    assert_eq!(
        n["speedup"]["parts"],
        serde_json::json!({"value": "2.08×", "lo": "2.00×", "hi": "2.20×", "pm": "+0.12\u{a0}/\u{a0}−0.08"})
    );
    assert_eq!(n["plain"].get("parts"), None, "{n}");
    // The order of the fields as written: value, lo, hi, pm.
    let text = read(dir.path(), "generated/numbers.json");
    assert!(
        text.contains(
            "\"parts\": {\"value\": \"2.08×\", \"lo\": \"2.00×\", \"hi\": \"2.20×\", \"pm\": \"+0.12\u{a0}/\u{a0}−0.08\"},"
        ),
        "{text}"
    );
}

#[test]
fn a_symmetric_interval_printed_plus_and_minus_the_same_side() {
    let n = numbers(built().path());
    // 2.08 +0.049 / −0.049: both sides print 0.05.
    assert_eq!(n["lat"]["text"], "(2.08\u{a0}±\u{a0}0.05)\u{a0}ms");
    // Sides that differ keep `+ / −`.
    assert_eq!(n["speedup"]["text"], "(2.08\u{a0}+0.12\u{a0}/\u{a0}−0.08)×");
}

#[test]
fn interval_bounds_prints_the_value_then_the_bounds_in_brackets() {
    let n = numbers(built().path());
    assert_eq!(n["ci"]["text"], "2.08×\u{a0}[2.03,\u{a0}2.13]");
    assert_eq!(n["ci"]["parts"]["pm"], "[2.03,\u{a0}2.13]");
}

#[test]
fn percent_appended_the_sign_even_under_a_column_headed_percent() {
    let n = numbers(built().path());
    assert_eq!(n["share"]["text"], "12.3\u{a0}±\u{a0}0.5");
    // Without `percent`, `percent-sign` does nothing: an error at the key.
    let dir = project(
        "[numbers.x]\nvalue = { expr = \"0.5\" }\nformat = { places = 1, percent-sign = false }\n",
    );
    let out = artifact(dir.path(), &["gen"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains(
            "artifact.toml:3:24: `percent-sign` does nothing without `percent` in a format"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn interval_without_an_uncertainty_is_an_error_at_the_key() {
    let dir = project(
        "[numbers.x]\nvalue = { expr = \"0.5\" }\nformat = { places = 1, interval = \"bounds\" }\n",
    );
    let out = artifact(dir.path(), &["gen"]);
    assert!(
        stderr(&out).contains(
            "error: number `x`: artifact.toml:3:24: `interval` does nothing without an `uncertainty`"
        ),
        "{}",
        stderr(&out)
    );
    let dir = project(
        "[numbers.x]\nvalue = { expr = \"0.5\" }\nuncertainty = { expr = \"0.1\" }\nformat = { interval = \"bound\" }\n",
    );
    let out = artifact(dir.path(), &["gen"]);
    assert!(
        stderr(&out)
            .contains("artifact.toml:4:23: unknown interval style `bound` (plus-minus or bounds)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_space_between_a_number_and_its_unit_broke_across_lines() {
    let dir = built();
    assert_eq!(numbers(dir.path())["plain"]["text"], "5.90\u{a0}ms");
    assert!(read(dir.path(), "generated/macros.tex").contains("{5.90~ms}"));
    // `number-unit-product` still decides when given.
    let spec = SPEC.replace(
        "format = { places = 2, unit = \"ms\" }\n\"#",
        "format = { places = 2, unit = \"ms\", number-unit-product = \" \" }\n\"#",
    );
    let spec = spec.replace(
        "value = { expr = \"5.9012\" }\nformat = { places = 2, unit = \"ms\" }",
        "value = { expr = \"5.9012\" }\nformat = { places = 2, unit = \"ms\", number-unit-product = \"\\\\,\" }",
    );
    let dir = project(&spec);
    std::fs::write(dir.path().join("r.jsonl"), RUNS).unwrap();
    gen_ok(dir.path());
    assert_eq!(numbers(dir.path())["plain"]["text"], "5.90\u{2009}ms");
}

#[test]
fn a_number_reused_from_the_lock_keeps_its_parts() {
    let dir = built();
    let before = read(dir.path(), "generated/macros.tex");
    // A lock written before parts existed: its numbers are computed again.
    let lock = read(dir.path(), "artifact.lock");
    let v: toml::Value = toml::from_str(&lock).unwrap();
    assert!(
        v["numbers"]["speedup"]["parts"]["lo"].as_str() == Some("2.00×"),
        "{lock}"
    );
    let mut stripped: toml::Table = toml::from_str(&lock).unwrap();
    for (_, n) in stripped["numbers"].as_table_mut().unwrap().iter_mut() {
        n.as_table_mut().unwrap().remove("parts");
    }
    std::fs::write(
        dir.path().join("artifact.lock"),
        toml::to_string(&stripped).unwrap(),
    )
    .unwrap();
    std::fs::remove_file(dir.path().join("generated/macros.tex")).unwrap();
    gen_ok(dir.path());
    assert_eq!(read(dir.path(), "generated/macros.tex"), before);
    // Unchanged: reused as is.
    gen_ok(dir.path());
    assert_eq!(read(dir.path(), "generated/macros.tex"), before);
}

/// Lint's findings (stdout and stderr) on `tex` as main.tex and `typ` as
/// main.typ of the built project.
fn lint(tex: &str, typ: &str) -> String {
    let dir = built();
    std::fs::write(dir.path().join("main.tex"), tex).unwrap();
    std::fs::write(dir.path().join("main.typ"), typ).unwrap();
    let out = artifact(dir.path(), &["lint"]);
    format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out))
}

#[test]
fn lint_told_a_typed_value_to_paste_the_whole_interval() {
    let out = lint(
        "\\documentclass{article}\n\\input{generated/macros.tex}\n\\begin{document}\n\
         Between 2.00 and 2.20, a speedup of 2.08$\\times$.\n\
         In all 2.08 $\\pm$ 0.05~ms.\n\\end{document}\n",
        "#import \"generated/macros.typ\": *\nAt most 2.20× here.\n",
    );
    for line in [
        "main.tex:4:9: error[typed-number]: `2.00` is typed by hand: it is the lower bound of number `speedup` ((2.08\u{a0}+0.12\u{a0}/\u{a0}−0.08)×); write \\artnum[lo]{speedup}",
        "main.tex:4:18: error[typed-number]: `2.20` is typed by hand: it is the upper bound of number `speedup` ((2.08\u{a0}+0.12\u{a0}/\u{a0}−0.08)×); write \\artnum[hi]{speedup}",
        "main.tex:4:37: error[typed-number]: `2.08` is typed by hand: it is the value of number `ci` (2.08×\u{a0}[2.03,\u{a0}2.13]); write \\artnum[value]{ci} (it also matches lat, speedup)",
        // Followed by its uncertainty: the whole.
        "main.tex:5:8: error[typed-number]: `2.08` is typed by hand: it is the printed text of number `ci` (2.08×\u{a0}[2.03,\u{a0}2.13]); write \\artnum{ci} (it also matches lat, speedup)",
        "main.typ:2:9: error[typed-number]: `2.20` is typed by hand: it is the upper bound of number `speedup` ((2.08\u{a0}+0.12\u{a0}/\u{a0}−0.08)×); write #artnum(\"speedup\", part: \"hi\")",
    ] {
        assert!(out.contains(line), "missing\n{line}\nin\n{out}");
    }
}

#[test]
fn lint_reports_an_unknown_part_at_its_place() {
    let out = lint(
        "\\documentclass{article}\n\\input{generated/macros.tex}\n\\begin{document}\n\
         \\artnum[vlaue]{speedup} \\artnum[lo]{plain} \\artnum[value]{plain} \\artnum[pm]{lat}\n\
         \\artnum{ci} \\artnum{share}\n\\end{document}\n",
        "#import \"generated/macros.typ\": *\n#artnum(\"lat\", part: \"hi\") #artnum(\"speedup\", part: \"pn\")\n",
    );
    let errors: Vec<&str> = out.lines().filter(|l| l.contains("unknown-part")).collect();
    assert_eq!(
        errors,
        [
            "main.tex:4:9: error[unknown-part]: unknown part `vlaue` of number `speedup` (value, lo, hi, pm); did you mean `value`?",
            "main.tex:4:33: error[unknown-part]: number `plain` has no uncertainty, so no part `lo`: write it whole, or give it an `uncertainty`",
            "main.typ:2:54: error[unknown-part]: unknown part `pn` of number `speedup` (value, lo, hi, pm); did you mean `pm`?",
        ],
        "{out}"
    );
}

/// pdflatex prints each part, the bookmarks get their plain spelling, and
/// an unknown part stops the run with the package's error.
#[test]
fn latex_prints_each_part_and_refuses_an_unknown_one() {
    if !has_tool("pdflatex") {
        eprintln!("skipped: pdflatex is not installed");
        return;
    }
    let dir = built();
    std::fs::write(
        dir.path().join("main.tex"),
        "\\documentclass{article}\n\\usepackage{hyperref}\n\\input{generated/macros.tex}\n\\begin{document}\n\
         \\section{At \\artnum[value]{speedup}}\n\
         [\\artnum[value]{speedup};\\artnum[lo]{speedup};\\artnum[hi]{speedup};\\artnum[value]{plain};$\\artnum[pm]{lat}$]\n\
         \\end{document}\n",
    )
    .unwrap();
    pdflatex(dir.path(), 2);
    let out = read(dir.path(), "main.out");
    assert!(
        out.contains("\\000A\\000t\\000\\040\\0002\\000.\\0000\\0008\\000x}"),
        "{out}"
    );
    if has_tool("pdftotext") {
        let text = std::process::Command::new("pdftotext")
            .current_dir(dir.path())
            .args(["main.pdf", "-"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&text.stdout);
        assert!(
            text.contains("[2.08×;2.00×;2.20×;5.90 ms;± 0.05]"),
            "{text}"
        );
    }
    std::fs::write(
        dir.path().join("main.tex"),
        "\\documentclass{article}\n\\input{generated/macros.tex}\n\\begin{document}\n\\artnum[vlaue]{speedup}\n\\end{document}\n",
    )
    .unwrap();
    let out = std::process::Command::new("pdflatex")
        .current_dir(dir.path())
        .args(["-interaction=nonstopmode", "-halt-on-error", "main.tex"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("! Package artifact Error: Unknown part `vlaue' of number `speedup'."),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// An axis titled "(%)" printed `30%` on every tick: `percent-sign = false`
/// in its format leaves the sign out there too.
#[test]
fn an_axis_titled_percent_printed_the_sign_on_every_tick() {
    let spec = |sign: &str| {
        format!(
            "[sources.s]\nrows = [{{ x = 1, y = 0.25 }}, {{ x = 2, y = 0.5 }}]\n\n[figures.f]\nsize = [3, 2]\n\
             y = {{ title = \"share (%)\", format = {{ places = 0, percent = true{sign} }} }}\n\
             layers = [ {{ mark = \"point\", data = \"s\", x = \"x\", y = \"y\" }} ]\n"
        )
    };
    let labels = |sign: &str| -> Vec<String> {
        let dir = project(&spec(sign));
        gen_ok(dir.path());
        let svg = read(dir.path(), "figures/f.svg");
        svg.split("<text")
            .skip(1)
            .filter_map(|t| {
                let body = &t[t.find('>')? + 1..t.find("</text>")?];
                Some(body.trim().to_string())
            })
            .collect()
    };
    assert_eq!(labels(""), ["1", "2", "30%", "40%", "50%", "share (%)"]);
    assert_eq!(
        labels(", percent-sign = false"),
        ["1", "2", "30", "40", "50", "share (%)"]
    );
}

/// A results table's column headed "(%)" printed `12.3%` in every cell;
/// `interval = "bounds"` prints its uncertainty as the bounds.
#[test]
fn a_results_column_headed_percent_printed_the_sign_in_every_cell() {
    let dir = project(
        "[sources.s]\nrows = [{ m = \"a\", share = 0.1234, sd = 0.005, t = 5.9012 }]\n\n\
         [results_tables.r]\nfrom = \"s\"\ncolumns = [\n\
         \x20 { field = \"m\", header = \"Method\" },\n\
         \x20 { field = \"share\", uncertainty = \"sd\", header = \"Share (%)\", format = { places = 1, percent = true, percent-sign = false } },\n\
         \x20 { field = \"share\", uncertainty = \"sd\", header = \"CI\", format = { places = 1, percent = true, interval = \"bounds\" } },\n\
         \x20 { field = \"t\", header = \"Time\", format = { places = 2, unit = \"ms\" } },\n]\n",
    );
    gen_ok(dir.path());
    let md = read(dir.path(), "generated/r.md");
    assert!(
        md.contains(
            "| a | 12.3\u{a0}±\u{a0}0.5 | 12.3%\u{a0}\\[11.8,\u{a0}12.8\\] | 5.90\u{a0}ms |\n"
        ),
        "{md}"
    );
    let tex = read(dir.path(), "generated/r.tex");
    assert!(
        tex.contains("a & 12.3~\\ensuremath{\\pm}~0.5 & 12.3\\%~[11.8,~12.8] & 5.90~ms \\\\\n"),
        "{tex}"
    );
}

/// `artparts` is the dictionary `#artnum(.., part: ..)` reads: a number
/// of that key would shadow it.
#[test]
fn a_number_key_artparts_would_shadow_the_parts() {
    let dir = project("[numbers.artparts]\nvalue = { expr = \"1\" }\n");
    let out = artifact(dir.path(), &["gen"]);
    assert!(
        stderr(&out).starts_with(
            "error: artifact.toml:1:10: number key `artparts` would shadow `artparts`, which macros.typ defines; rename it"
        ),
        "{}",
        stderr(&out)
    );
}
