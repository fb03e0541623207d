//! `artifact lint` on a copy of the demo paper (its committed outputs and
//! lock): the demo is clean; planted hand-typed numbers, unknown keys (one
//! in a caption) and unused figures are reported at their place.

mod common;

use std::path::Path;

use common::*;

fn edit(dir: &Path, rel: &str, from: &str, to: &str) {
    let p = dir.join(rel);
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains(from), "{rel} lacks {from}");
    std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_demo_paper_is_lint_clean() {
    let out = artifact(&root().join("paper"), &["lint"]);
    assert_eq!(
        stdout(&out),
        "lint: 0 errors, 0 warnings in 2 files (main.tex, main.typ)\n"
    );
    assert!(out.status.success());
}

#[test]
fn planted_numbers_and_keys_are_errors_at_their_line_and_column() {
    let dir = paper_whole();
    let d = dir.path();
    // A hand-typed count, a rounded median and a percentage in the prose.
    edit(
        d,
        "main.tex",
        "Figure~\\ref{fig:2} compares",
        "Figure~\\ref{fig:2} compares 250 ratios (3.86 bits, 64.2\\% hits)",
    );
    // A misspelt key inside a caption, and an unknown generated command.
    edit(
        d,
        "main.tex",
        "\\caption{Achieved ratio",
        "\\caption{Achieved \\artnum{fig2-bf16-count} \\artFigTwoBfSixteen{} ratio",
    );
    // An input file: a typed number, one exempt by a comment, one in a comment.
    edit(
        d,
        "main.tex",
        "\\end{document}",
        "\\input{extra}\n\\end{document}",
    );
    std::fs::write(
        d.join("extra.tex"),
        "Median 45.4~MB/s. % artifact-lint: ignore\nAlso 0.642 of requests % 101.2\n",
    )
    .unwrap();
    edit(
        d,
        "main.typ",
        "Figure 2 compares",
        "Figure 2 compares #fig2-bf16-count",
    );
    let out = artifact(d, &["lint"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "main.tex:24:79: error[typed-number]: `250` is typed by hand: it is the printed text of number `fig2-bf16-n` (250); write \\artnum{fig2-bf16-n}\n\
         main.tex:24:91: error[typed-number]: `3.86` is typed by hand: it is number `fig3-median` (3.859) rounded to 2 decimal places; write \\artnum{fig3-median}\n\
         main.tex:24:102: error[typed-number]: `64.2` is typed by hand: it is number `sim-none-hit-c16` (0.642) as a percentage, rounded to 1 decimal place; write \\artnum{sim-none-hit-c16}\n\
         main.tex:45:27: error[unknown-key]: no number has the key `fig2-bf16-count` (did you mean `fig2-bf16-n`?)\n\
         main.tex:45:44: error[unknown-key]: \\artFigTwoBfSixteen is not a number's command (generated/macros.tex defines \\art + the key in CamelCase) (did you mean \\artFigTwoBfOneSixN?)\n\
         main.typ:19:32: error[unknown-key]: no number has the key `fig2-bf16-count` (did you mean `fig2-bf16-n`?)\n\
         extra.tex:2:6: error[typed-number]: `0.642` is typed by hand: it is the printed text of number `sim-none-hit-c16` (0.642); write \\artnum{sim-none-hit-c16}\n\
         lint: 7 errors, 0 warnings in 3 files (main.tex, main.typ, extra.tex)\n"
    );
}

#[test]
fn unused_figures_tables_and_numbers_are_warnings_when_the_paper_is_one_file() {
    let dir = paper_whole();
    let d = dir.path();
    edit(
        d,
        "main.typ",
        "#figure(image(\"figures/fig3.pdf\", width: 85%), caption: [Q4_K nibble entropy; median #fig3-median bits.])",
        "",
    );
    edit(
        d,
        "main.typ",
        "#figure(include \"generated/fig5_points.typ\"",
        "#figure([]",
    );
    edit(d, "main.typ", "#sweep-mlx-tps tok/s", "many tok/s");
    let out = artifact(d, &["lint", "main.typ", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let got: Vec<(String, u64, String)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "unused-number".to_string(),
                437,
                "number `sweep-mlx-tps` is used nowhere in the paper".to_string()
            ),
            (
                "unused-figure".to_string(),
                284,
                "figure `fig3` (figures/fig3.svg, figures/fig3.pdf, figures/fig3.csv) is never included in the paper".to_string()
            ),
            (
                "unused-table".to_string(),
                143,
                "results table `fig5_points` (generated/fig5_points.tex, generated/fig5_points.typ, generated/fig5_points.csv, generated/fig5_points.md) is never included in the paper".to_string()
            ),
        ]
    );
    assert_eq!(report["errors"], 0);
    assert_eq!(report["warnings"], 3);
}

#[test]
fn lint_without_a_lock_says_to_run_gen() {
    let dir = paper_copy();
    std::fs::write(dir.path().join("main.tex"), "hello").unwrap();
    let out = artifact(dir.path(), &["lint"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no artifact.lock in ")
            && stderr(&out).contains(": run `artifact gen` first"),
        "{}",
        stderr(&out)
    );
}

/// Writes `main.tex` (and no main.typ) in a copy of the demo paper and
/// lints it: the findings' kinds and the typed numbers they name.
fn lint_tex(body: &str) -> (Option<i32>, String) {
    let dir = paper_whole();
    let d = dir.path();
    std::fs::remove_file(d.join("main.typ")).unwrap();
    std::fs::write(d.join("main.tex"), body).unwrap();
    let out = artifact(d, &["lint"]);
    let text: String = stdout(&out)
        .lines()
        .filter(|l| l.contains("error["))
        .map(|l| format!("{l}\n"))
        .collect();
    (out.status.code(), text)
}

#[test]
fn dates_ranges_years_references_and_exponents_are_not_typed_numbers() {
    // Every number here equals a computed one (250, 138, 24, 26, 28, 30...).
    let (code, errors) = lint_tex(
        "\\begin{document}\nOn 2024-03-28 (Sept.~30, 2023), pages 24--30, Eq.~(26), \\S 26,\n\
         $e^{28}$, $2^{24}$, Figure~138, Table 250.\n\\end{document}\n",
    );
    assert_eq!(errors, "");
    assert_eq!(code, Some(0));
}

#[test]
fn lint_reads_tex_inputs_without_braces_and_not_a_commented_begin_document() {
    let dir = paper_whole();
    let d = dir.path();
    std::fs::remove_file(d.join("main.typ")).unwrap();
    std::fs::write(
        d.join("main.tex"),
        "\\input generated/macros.tex\n\\begin{document}\n\\input sec\n\\end{document}\n",
    )
    .unwrap();
    std::fs::write(d.join("sec.tex"), "% \\begin{document}\nWe ran 250 jobs.\n").unwrap();
    let out = artifact(d, &["lint"]);
    assert!(
        stdout(&out).starts_with("sec.tex:2:8: error[typed-number]: `250` is typed by hand"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn typst_links_semicolons_and_rooted_includes() {
    let dir = paper_whole();
    let d = dir.path();
    std::fs::remove_file(d.join("main.tex")).unwrap();
    std::fs::create_dir(d.join("sections")).unwrap();
    std::fs::write(
        d.join("main.typ"),
        "#import \"generated/macros.typ\": *\n#include \"/sections/a.typ\"\n",
    )
    .unwrap();
    std::fs::write(
        d.join("sections/a.typ"),
        "See https://example.org/x 3.86 bits.\n#let x = 1; The median is 3.859\n",
    )
    .unwrap();
    let out = artifact(d, &["lint"]);
    let text = stdout(&out);
    assert!(
        text.contains("sections/a.typ:1:27: error[typed-number]: `3.86`"),
        "{text}"
    );
    assert!(
        text.contains("sections/a.typ:2:27: error[typed-number]: `3.859`"),
        "{text}"
    );
    assert!(!text.contains("missing-file"), "{text}");
}

#[test]
fn generated_files_are_never_linted_and_huge_sources_are_an_error() {
    let dir = paper_whole();
    let d = dir.path();
    let out = artifact(d, &["lint", "generated/macros.tex"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(!stdout(&out).contains("error["), "{}", stdout(&out));
    let big = std::fs::File::create(d.join("big.tex")).unwrap();
    big.set_len(17 << 20).unwrap();
    let out = artifact(d, &["lint", "big.tex"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: big.tex: 17825792 bytes; lint reads sources of at most 16777216 bytes (16 MiB)\n"
    );
}

#[test]
fn a_figure_found_through_graphicspath_is_included() {
    let dir = paper_whole();
    let d = dir.path();
    edit(
        d,
        "main.tex",
        "\\includegraphics[width=\\linewidth]{figures/fig1.pdf}",
        "\\includegraphics[width=\\linewidth]{fig1}",
    );
    edit(
        d,
        "main.tex",
        "\\usepackage{graphicx}",
        "\\usepackage{graphicx}\\graphicspath{{figures/}}",
    );
    let out = artifact(d, &["lint", "main.tex"]);
    assert_eq!(
        stdout(&out),
        "lint: 0 errors, 0 warnings in 1 file (main.tex)\n"
    );
}

#[test]
fn a_typed_number_the_data_has_since_changed_is_stale() {
    let dir = paper_whole();
    let d = dir.path();
    edit(
        d,
        "main.tex",
        "spends \\artnum{attr-none-ms}~ms",
        "spends 30.69~ms",
    );
    edit(
        d,
        "main.typ",
        "spends #attr-none-ms ms",
        "spends #attr-none-ms-x ms",
    );
    git(d, &["init", "-q"]);
    commit(d, "v1");
    remeasure(d);
    gen_ok(d);
    let out = artifact(d, &["lint", "-q"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "main.tex:77:8: error[stale-number]: `30.69` is typed by hand and stale: it is the printed text of number `attr-none-ms` (30.69) at HEAD; it is now 30.89; write \\artnum{attr-none-ms}\n\
         main.typ:45:54: error[unknown-key]: typst reads `#attr-none-ms-x` as one name, which no number has; write `#attr-none-ms;-x`\n"
    );
}
