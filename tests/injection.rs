//! Text from the data or the spec cannot escape where it is written: a
//! comment or a string of macros.typ / macros.tex, a label of a figure, a
//! cell of a figure's CSV. Number keys cannot shadow the emitted helpers.

mod common;

use std::path::Path;

use common::*;

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A temporary project holding `files` (path, contents).
fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap()
}

/// Runs `gen` and requires exit 2 and nothing written.
fn gen_fails(dir: &Path) -> String {
    let out = artifact(dir, &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!dir.join("generated").exists(), "{}", stderr(&out));
    stderr(&out)
}

/// Compiles `main.typ` of `dir` with typst when a Python with the `typst`
/// package is at hand (`ARTIFACT_TEST_PYTHON`, else `python3`); `None` when
/// there is none, else typst's error.
fn typst_compile(dir: &Path) -> Option<Result<(), String>> {
    let python = std::env::var("ARTIFACT_TEST_PYTHON").unwrap_or_else(|_| "python3".into());
    let probe = std::process::Command::new(&python)
        .args(["-c", "import typst"])
        .output()
        .ok()?;
    if !probe.status.success() {
        return None;
    }
    let out = std::process::Command::new(&python)
        .current_dir(dir)
        .args([
            "-c",
            "import typst; typst.compile('main.typ', output='main.pdf')",
        ])
        .output()
        .unwrap();
    Some(if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    })
}

/// A typst document printing every number of the spec.
fn typst_main(dir: &Path, keys: &[&str]) {
    let mut doc = String::from("#import \"generated/macros.typ\": *\n");
    for k in keys {
        doc.push_str(&format!("#{k} #artnum(\"{k}\")\n"));
    }
    std::fs::write(dir.join("main.typ"), doc).unwrap();
}

#[test]
fn typst_line_separator_in_a_description_cannot_run_code() {
    // U+2028 ends a typst line: `// note<U+2028>#panic(..)` ran the panic.
    let spec = "[numbers.note]\nvalue = { expr = \"2\" }\ndescription = \"two\\u2028#panic(\\\"injected\\\")\\u2029\\u0085\\u000B\\u000C\\r\\n% and \\u001b[31m\"\n";
    let dir = project(&[("artifact.toml", spec)]);
    gen_ok(dir.path());
    let typ = read(dir.path(), "generated/macros.typ");
    assert!(
        typ.contains(
            "\n// note: two #panic(\"injected\")     % and \\u{1b}[31m\n//   from an expression"
        ),
        "{typ:?}"
    );
    let tex = read(dir.path(), "generated/macros.tex");
    assert!(
        tex.contains(
            "\n% note: two #panic(\"injected\")     % and \\u{1b}[31m\n%   from an expression"
        ),
        "{tex:?}"
    );
    typst_main(dir.path(), &["note"]);
    if let Some(r) = typst_compile(dir.path()) {
        r.unwrap();
    }
}

#[test]
fn typst_line_separator_in_a_data_text_stays_in_the_string() {
    // A number whose value is a string cell of the data.
    let spec = "[sources.runs]\npath = \"runs.csv\"\n\n[numbers.best]\ntable = \"runs\"\nwhere = \"id == 2\"\nvalue = { cell = \"name\" }\n";
    let data = "id,name\n1,plain\n2,\"a\u{2028}#panic(\"\"x\"\")\u{2029}\\ \"\"q\"\"\"\n";
    let dir = project(&[("artifact.toml", spec), ("runs.csv", data)]);
    gen_ok(dir.path());
    let typ = read(dir.path(), "generated/macros.typ");
    assert!(
        typ.contains("\n#let best = \"a\\u{2028}#panic(\\\"x\\\")\\u{2029}\\\\ \\\"q\\\"\"\n"),
        "{typ:?}"
    );
    assert!(
        typ.contains("\n  \"best\": \"a\\u{2028}#panic(\\\"x\\\")\\u{2029}\\\\ \\\"q\\\"\",\n"),
        "{typ:?}"
    );
    let tex = read(dir.path(), "generated/macros.tex");
    // `"` as T1's (OT1's `"` is a closing quote).
    let q = "\\mbox{\\UseTextSymbol{T1}\\textquotedbl}";
    assert!(
        tex.contains(&format!(
            "\n\\@namedef{{artnum@best}}{{a \\#panic({q}x{q}) \\textbackslash{{}} {q}q{q}}}\n"
        )),
        "{tex:?}"
    );
    typst_main(dir.path(), &["best"]);
    if let Some(r) = typst_compile(dir.path()) {
        r.unwrap();
    }
}

#[test]
fn escape_in_a_number_text_from_data_is_refused_with_file_line_field() {
    let spec = "[sources.runs]\npath = \"runs.csv\"\n\n[numbers.best]\ntable = \"runs\"\nwhere = \"id == 2\"\nvalue = { cell = \"name\" }\n";
    let data = "id,name\n1,plain\n2,a\u{1b}[31mb\n";
    let dir = project(&[("artifact.toml", spec), ("runs.csv", data)]);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.ends_with("error: number `best`: runs.csv:3: field `name`: control character U+001B in the number's text: it cannot be printed in LaTeX or typst\n1 part(s) failed; their previous outputs are left as they were\n"),
        "{err}"
    );
    // The number had no earlier text: it is left out, so the paper fails
    // on it rather than print anything.
    assert!(!read(dir.path(), "generated/macros.typ").contains("best"));
}

#[test]
fn number_key_artnum_cannot_shadow_the_typst_helper() {
    let spec =
        "[numbers.fine]\nvalue = { expr = \"1\" }\n\n[numbers.artnum]\nvalue = { expr = \"2\" }\n";
    let dir = project(&[("artifact.toml", spec)]);
    let err = gen_fails(dir.path());
    assert_eq!(
        err,
        "error: artifact.toml:4:10: number key `artnum` would shadow `artnum`, which macros.typ defines; rename it\n  |\n4 | [numbers.artnum]\n  |          ^^^^^^\n"
    );
}

#[test]
fn number_key_cannot_shadow_a_name_of_the_users_templates() {
    let spec = "[templates]\ntyp = \"my.typ.j2\"\ntex = \"my.tex.j2\"\n\n[numbers.total]\nvalue = { expr = \"1\" }\n\n[numbers.foo]\nvalue = { expr = \"2\" }\n";
    let typ = "#let total(x) = x\n{% for n in numbers %}#let {{ n.key }} = {{ n.text | typ_string }}\n{% endfor %}";
    let tex = "\\newcommand{\\artFoo}{}\n";
    let dir = project(&[
        ("artifact.toml", spec),
        ("my.typ.j2", typ),
        ("my.tex.j2", tex),
    ]);
    let err = gen_fails(dir.path());
    // Both keys are refused by the one compile of the plan.
    assert_eq!(
        err,
        "error: artifact.toml:5:10: number key `total` would shadow `total`, which macros.typ defines; rename it\n  |\n5 | [numbers.total]\n  |          ^^^^^\n\
         error: artifact.toml:8:10: number key `foo` becomes the LaTeX command \\artFoo, which macros.tex defines; rename it\n  |\n8 | [numbers.foo]\n  |          ^^^\n"
    );
    // With `total` renamed, `foo` is the one key refused.
    std::fs::write(
        dir.path().join("artifact.toml"),
        spec.replace("total", "sum"),
    )
    .unwrap();
    let err = gen_fails(dir.path());
    assert_eq!(
        err,
        "error: artifact.toml:8:10: number key `foo` becomes the LaTeX command \\artFoo, which macros.tex defines; rename it\n  |\n8 | [numbers.foo]\n  |          ^^^\n"
    );
}

#[test]
fn number_key_with_a_brace_is_refused_at_its_line() {
    // `}` would close `\@namedef{artnum@KEY}` early; `#let a}b` is no typst.
    let spec =
        "[numbers.ok]\nvalue = { expr = \"1\" }\n\n[numbers.\"a}b\"]\nvalue = { expr = \"2\" }\n";
    let dir = project(&[("artifact.toml", spec)]);
    let err = gen_fails(dir.path());
    assert_eq!(
        err,
        "error: artifact.toml:4:10: number key `a}b` holds `}`: use ASCII letters, digits, `-` and `_`, starting with a letter (it becomes a LaTeX and typst name)\n  |\n4 | [numbers.\"a}b\"]\n  |          ^^^^^\n"
    );
}

#[test]
fn number_key_with_a_newline_is_refused_on_one_line() {
    let spec = "[numbers]\n\"a\\nb\" = { value = { expr = \"2\" } }\n";
    let dir = project(&[("artifact.toml", spec)]);
    let err = gen_fails(dir.path());
    assert_eq!(
        err,
        "error: artifact.toml:2:1: number key `a\\u{a}b` holds `\\u{a}`: use ASCII letters, digits, `-` and `_`, starting with a letter (it becomes a LaTeX and typst name)\n  |\n2 | \"a\\nb\" = { value = { expr = \"2\" } }\n  | ^^^^^^\n"
    );
}

#[test]
fn demo_paper_keys_pass_the_key_rules() {
    let dir = paper_copy();
    gen_ok(dir.path());
    let typ = read(dir.path(), "generated/macros.typ");
    assert!(typ.contains("\n#let fig5-bf16-split-ratio = "), "{typ}");
}

/// A project with `runs.csv` (row 3 holds ESC in `name`) and a figure made
/// of `layer` (TOML inline table) plus `extra` figure keys.
fn figure_project(layer: &str, extra: &str) -> tempfile::TempDir {
    let spec = format!(
        "[sources.runs]\npath = \"runs.csv\"\n\n[figures.f]\nsize = [4, 3]\n{extra}layers = [{layer}]\n"
    );
    let data = "id,name,v\n1,plain,1.5\n2,a\u{1b}[31mb,2.5\n";
    project(&[("artifact.toml", &spec), ("runs.csv", data)])
}

#[test]
fn escape_in_a_data_label_is_refused_with_file_line_field() {
    // It used to fail only when the SVG was read back for the PDF:
    // "cannot read the SVG: non-XML character '\u{1b}' found at 35:4".
    let want = "wrote generated/macros.tex\nwrote generated/macros.typ\nwrote generated/numbers.json\nwrote artifact.lock\nerror: figure `f`: runs.csv:3: field `name`: control character U+001B in a label\n1 part(s) failed; their previous outputs are left as they were\n";
    for (layer, extra) in [
        // a category on an axis (a tick label)
        (
            "{ mark = \"bar\", data = \"runs\", x = \"name\", y = \"v\" }",
            "",
        ),
        // the text of a text mark
        (
            "{ mark = \"text\", data = \"runs\", x = \"id\", y = \"v\", text = \"<{{ name }}>\" }",
            "",
        ),
        // a line series (a legend entry)
        (
            "{ mark = \"line\", data = \"runs\", x = \"id\", y = \"v\", series = \"name\" }",
            "",
        ),
        // a colour scale's key (a legend entry)
        (
            "{ mark = \"point\", data = \"runs\", x = \"id\", y = \"v\", color = { field = \"name\" } }",
            "",
        ),
        // tick labels read from a table
        (
            "{ mark = \"point\", data = \"runs\", x = \"id\", y = \"v\" }",
            "x = { ticks = { data = \"runs\", value = \"id\", label = \"name\" } }\n",
        ),
    ] {
        let dir = figure_project(layer, extra);
        let out = artifact(dir.path(), &["gen"]);
        assert_eq!(out.status.code(), Some(2), "{layer}: {}", stderr(&out));
        assert_eq!(stderr(&out), want, "{layer}");
        assert!(!dir.path().join("figures").exists(), "{layer}");
    }
}

#[test]
fn escape_in_a_title_from_the_spec_is_refused_at_the_template() {
    let dir = figure_project(
        "{ mark = \"point\", data = \"runs\", x = \"id\", y = \"v\" }",
        "title = \"runs \\u001b[31m\"\n",
    );
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "wrote generated/macros.tex\nwrote generated/macros.typ\nwrote generated/numbers.json\nwrote artifact.lock\nerror: figure `f`: artifact.toml:6:9: control character U+001B in a label (the text this template gives)\n  |\n6 | title = \"runs \\u001b[31m\"\n  |         ^^^^^^^^^^^^^^^^^\n1 part(s) failed; their previous outputs are left as they were\n"
    );
}

#[test]
fn a_line_break_in_a_data_label_still_breaks_the_line() {
    let spec = "[sources.runs]\npath = \"runs.csv\"\n\n[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"bar\", data = \"runs\", x = \"name\", y = \"v\" }]\n";
    let data = "name,v\n\"two\nlines\",1.5\n";
    let dir = project(&[("artifact.toml", spec), ("runs.csv", data)]);
    gen_ok(dir.path());
    let svg = read(dir.path(), "figures/f.svg");
    assert!(
        svg.contains(">\ntwo\n</text>") && svg.contains(">\nlines\n</text>"),
        "{svg}"
    );
}

#[test]
fn csv_formula_cells_in_a_figure_csv_get_a_quote_numbers_stay() {
    let spec = "[sources.runs]\npath = \"runs.csv\"\n\n[figures.f]\nsize = [4, 3]\nlayers = [{ mark = \"bar\", data = \"runs\", x = \"name\", y = \"v\", detail = [\"note\"] }]\n";
    let data = "name,v,note\n=1+1,-1.5,-\n+cmd,2,@SUM(A1)\n-x,-3e-2,a=b\n";
    let dir = project(&[("artifact.toml", spec), ("runs.csv", data)]);
    gen_ok(dir.path());
    assert_eq!(
        read(dir.path(), "figures/f.csv"),
        "panel,layer,mark,x,y,y2,color,note\n\
         0,0,bar,'=1+1,-1.5,0,#0072b2,'-\n\
         0,0,bar,'+cmd,2,0,#0072b2,'@SUM(A1)\n\
         0,0,bar,'-x,-0.03,0,#0072b2,a=b\n"
    );
}

#[test]
fn number_keys_text_page_std_cannot_shadow_typsts_standard_library() {
    // With `#import "generated/macros.typ": *`, a binding `text` made
    // `#set text(...)` fail: "expected function, found string".
    let spec = "[numbers.fine]\nvalue = { expr = \"1\" }\n\n[numbers.text]\nvalue = { expr = \"2\" }\n\n[numbers.page]\nvalue = { expr = \"3\" }\n\n[numbers.std]\nvalue = { expr = \"4\" }\n";
    let shadow = |key: &str, line: usize| {
        format!(
            "error: artifact.toml:{line}:10: number key `{key}` would shadow typst's `{key}` when the paper imports macros.typ with `*`; rename it\n{pad} |\n{line} | [numbers.{key}]\n{pad} |          {}\n",
            "^".repeat(key.len()),
            pad = " ".repeat(line.to_string().len())
        )
    };
    // The plan's compile refuses all three at once, then each alone.
    let dir = project(&[("artifact.toml", spec)]);
    assert_eq!(
        gen_fails(dir.path()),
        [shadow("text", 4), shadow("page", 7), shadow("std", 10)].concat()
    );
    for (key, line) in [("text", 4), ("page", 7), ("std", 10)] {
        let others = ["text", "page", "std"]
            .into_iter()
            .filter(|k| *k != key)
            .fold(spec.to_string(), |s, k| {
                s.replace(&format!("[numbers.{k}]"), &format!("[numbers.my-{k}]"))
            });
        let dir = project(&[("artifact.toml", &others)]);
        assert_eq!(gen_fails(dir.path()), shadow(key, line));
    }
}

#[test]
fn demo_paper_importing_macros_with_star_can_set_page_and_text() {
    // The documented import, then the set rules every paper starts with.
    let dir = paper_copy();
    gen_ok(dir.path());
    std::fs::write(
        dir.path().join("main.typ"),
        "#import \"generated/macros.typ\": *\n#set page(width: 12cm, height: auto)\n#set text(size: 9pt)\n#set par(justify: true)\nThe median is #fig3-median; #artnum(\"fig4-n\") pairs.\n",
    )
    .unwrap();
    if let Some(r) = typst_compile(dir.path()) {
        r.unwrap();
    }
}

#[test]
fn a_cr_or_crlf_in_a_data_label_breaks_the_line_like_lf() {
    let spec = "[sources.runs]\npath = \"runs.csv\"\n\n[figures.f]\nsize = [4, 3]\ntitle = \"first\\r\\nsecond\\rthird\"\nlayers = [{ mark = \"bar\", data = \"runs\", x = \"name\", y = \"v\" }]\n";
    let data = "name,v\n\"two\r\nlines\",1.5\n\"three\rrows\",2\n";
    let dir = project(&[("artifact.toml", spec), ("runs.csv", data)]);
    gen_ok(dir.path());
    let svg = read(dir.path(), "figures/f.svg");
    for line in ["two", "lines", "three", "rows", "first", "second", "third"] {
        assert!(
            svg.contains(&format!(">\n{line}\n</text>")),
            "{line}: {svg}"
        );
    }
    assert!(!svg.contains('\r'), "{svg}");
}

#[test]
fn control_characters_in_an_input_file_name_are_escaped_in_messages() {
    // A glob-matched file name printed as it is faked a line of the report
    // and hid what followed (ESC [8m).
    let name = "x\n\nall figures and numbers are current\u{1b}[8m.csv";
    let shown = "data/x\\u{a}\\u{a}all figures and numbers are current\\u{1b}[8m.csv";
    let spec = "[sources.runs]\npath = \"data/*.csv\"\n\n[tables.t]\nfrom = \"runs\"\n\n[numbers.rows]\ntable = \"t\"\nvalue = \"count\"\n";
    let dir = project(&[("artifact.toml", spec)]);
    std::fs::create_dir(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data").join(name), "v\n1\n").unwrap();
    gen_ok(dir.path());
    let lock = read(dir.path(), "artifact.lock");
    assert!(lock.contains(shown) && !lock.contains('\u{1b}'), "{lock}");
    std::fs::write(dir.path().join("data").join(name), "v\n1\n2\n").unwrap();
    let out = artifact(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "stale: 1 number\n\n\
             numbers (committed -> from the data now):\n  \
             rows  1 -> 2   (input changed: {shown})\n\n\
             inputs since artifact.lock:\n  changed  {shown}\n\n\
             to bring them up to date: artifact gen\n"
        )
    );
    // An error in the file names it the same way; the file is still read.
    std::fs::write(dir.path().join("data").join(name), "v\n1\nx,y\n").unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "wrote artifact.lock\n\
             error: number `rows`: source `runs`: {shown}:3: the row has 2 cells but the header has 1 column\n\
             1 part(s) failed; their previous outputs are left as they were\n"
        )
    );
}
