//! Numbers are safe in the prose: `\artnum` in LaTeX captions, section
//! titles (with hyperref's bookmarks), footnotes and math; typst's `#key`
//! before punctuation. Each case compiles a document (skipped when pdflatex
//! or a Python with `typst` is absent) and reads the PDF's text back.

mod common;

use std::path::Path;
use std::process::Command;

use common::*;

const SPEC: &str = r#"[sources.runs]
path = "runs.csv"

[numbers.neg]
table = "runs"
value = { mean = "x" }
format = { places = 2 }

[numbers.tiny]
value = { expr = "5.7e-14" }
format = { figures = 2 }

[numbers.speed]
value = { expr = "4.0" }
format = { places = 1, unit = "×" }

[numbers.ms]
table = "runs"
value = { mean = "y" }
uncertainty = { std = "y" }
format = { figures = 1, unit = "ms" }
"#;

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("runs.csv"),
        "x,y\n-1.5,1.2\n-0.5,1.3\n-2,1.25\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("artifact.toml"), SPEC).unwrap();
    gen_ok(dir.path());
    dir
}

fn has(tool: &str) -> bool {
    Command::new(tool).arg("-v").output().is_ok()
}

/// pdftotext of `dir/NAME.pdf`, whitespace runs as one space.
fn pdf_text(dir: &Path, name: &str) -> String {
    let out = Command::new("pdftotext")
        .current_dir(dir)
        .args([&format!("{name}.pdf"), "-"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs pdflatex twice on `main.tex` of `dir`; the log when it failed or
/// warned about a PDF string.
fn pdflatex(dir: &Path) -> String {
    common::pdflatex(dir, 2)
}

#[test]
fn artnum_works_in_captions_section_titles_footnotes_and_math() {
    if !has("pdflatex") || !has("pdftotext") {
        return;
    }
    let dir = project();
    std::fs::write(
        dir.path().join("main.tex"),
        r"\documentclass{article}
\usepackage{hyperref}
\input{generated/macros.tex}
\begin{document}
\tableofcontents
\section{Speed \artnum{speed} and \artnum{neg}}
Text \artnum{tiny}, \artnum{ms}.\footnote{Foot \artnum{neg}.}
Math $x = \artnum{neg}$, $y = \artnum{ms}$, $z = \artnum{tiny}$.
\begin{figure}[h]\centering\fbox{x}\caption{Cap \artnum{tiny} and \artnum{neg}}\end{figure}
\end{document}
",
    )
    .unwrap();
    let log = pdflatex(dir.path());
    assert!(!log.contains("Token not allowed in a PDF string"), "{log}");
    let text = pdf_text(dir.path(), "main");
    for want in [
        "Contents 1 Speed 4.0× and −1.33",
        "Text 5.7×10−14 , (1.25 ± 0.05) ms.",
        "Math x = −1.33, y = (1.25 ± 0.05) ms, z = 5.7×10−14 .",
        "Figure 1: Cap 5.7×10−14 and −1.33",
        "Foot −1.33.",
    ] {
        assert!(text.contains(want), "{want:?} in {text:?}");
    }
    // The bookmark has the text, in ASCII for math (hyperref's PDF string).
    let out = std::fs::read_to_string(dir.path().join("main.out")).unwrap();
    let utf16: String = "Speed 4.0x and -1.33"
        .chars()
        .map(|c| {
            format!(
                "\\000{}",
                if c == ' ' {
                    "\\040".into()
                } else {
                    c.to_string()
                }
            )
        })
        .collect();
    assert!(out.contains(&utf16), "{out}");
}

/// Compiles `body` after importing the macros with typst; the PDF's text,
/// or typst's error; `None` without a Python with `typst`.
fn typst(dir: &Path, body: &str) -> Option<Result<String, String>> {
    let python = std::env::var("ARTIFACT_TEST_PYTHON").unwrap_or_else(|_| "python3".into());
    let probe = Command::new(&python)
        .args(["-c", "import typst"])
        .output()
        .ok()?;
    if !probe.status.success() || !has("pdftotext") {
        return None;
    }
    std::fs::write(
        dir.join("t.typ"),
        format!("#import \"generated/macros.typ\": *\n{body}\n"),
    )
    .unwrap();
    let out = Command::new(&python)
        .current_dir(dir)
        .args(["-c", "import typst; typst.compile('t.typ', output='t.pdf')"])
        .output()
        .unwrap();
    Some(if out.status.success() {
        Ok(pdf_text(dir, "t"))
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    })
}

#[test]
fn typst_key_eats_a_semicolon_and_the_documented_forms_keep_it() {
    let dir = project();
    // typst ends the expression at `;` and drops it ...
    let Some(r) = typst(dir.path(), "#neg; then") else {
        return;
    };
    assert_eq!(r.unwrap(), "−1.33 then");
    // ... so `#key\;` prints one, as does `#key;;`.
    for form in ["#neg\\; then", "#neg;; then", "#artnum(\"neg\")\\; then"] {
        assert_eq!(
            typst(dir.path(), form).unwrap().unwrap(),
            "−1.33; then",
            "{form}"
        );
    }
}

#[test]
fn typst_key_then_semicolon_is_safe_before_any_character() {
    let dir = project();
    let Some(r) = typst(
        dir.path(),
        "#neg;.x #neg;(p) #neg;[b] #neg;-d #neg;x #neg. #neg, e",
    ) else {
        return;
    };
    assert_eq!(
        r.unwrap(),
        "−1.33.x −1.33(p) −1.33[b] −1.33-d −1.33x −1.33. −1.33, e"
    );
    // Without the `;`, these read on as typst code.
    for (form, err) in [
        ("#neg.x", "cannot access fields on type string"),
        ("#neg(p)", "expected function, found string"),
        ("#neg-d", "unknown variable: neg-d"),
    ] {
        let e = typst(dir.path(), form).unwrap().unwrap_err();
        assert!(e.contains(err), "{form}: {e}");
    }
}

#[test]
fn typst_numbers_print_in_math_and_with_powers_and_uncertainty() {
    let dir = project();
    let Some(r) = typst(dir.path(), "$x = #neg$ #tiny #ms #speed") else {
        return;
    };
    assert_eq!(r.unwrap(), "𝑥 = −1.33 5.7 × 10⁻¹⁴ (1.25 ± 0.05) ms 4.0×");
}
