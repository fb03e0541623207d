//! A number read other than as `v['KEY']` — `v.get('KEY', 0)`, `v.KEY`,
//! `'KEY' in v`, `n.KEY` in a template — is a dependency like `v['KEY']`;
//! a key not written out (`v['t' ~ 'hr']`) is an error for a step or a
//! number, and makes a figure or results table read every number.

mod common;

use std::path::Path;

use common::{artifact, gen_ok, numbers, project, stderr};

fn spec(filter: &str, thr: &str) -> String {
    format!(
        "[sources.d]\npath = \"d.csv\"\n\n[numbers.s]\ntable = \"t\"\nvalue = \"count\"\n\n[numbers.thr]\nvalue = {{ expr = \"{thr}\" }}\n\n[tables.t]\nfrom = \"d\"\nsteps = [{{ filter = \"{filter}\" }}]\n"
    )
}

fn setup(filter: &str) -> tempfile::TempDir {
    let dir = project(&spec(filter, "2"));
    std::fs::write(dir.path().join("d.csv"), "k,x\na,1\nb,2\n").unwrap();
    dir
}

fn out(o: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(o))
}

/// gen computes `s` after `thr`; a new `thr` recomputes `s`, after which
/// check (and check --fast) are clean.
fn converges(dir: &Path, filter: &str) {
    gen_ok(dir);
    assert_eq!(numbers(dir)["s"]["value"], 1, "{filter}");
    std::fs::write(dir.join("artifact.toml"), spec(filter, "1")).unwrap();
    let o = artifact(dir, &["check", "--fast"]);
    assert_eq!(o.status.code(), Some(1), "{filter}: {}", out(&o));
    let o = artifact(dir, &["check"]);
    assert_eq!(o.status.code(), Some(1), "{filter}: {}", out(&o));
    assert!(
        out(&o).contains("1 -> 2   (quoted number changed: thr)"),
        "{filter}: {}",
        out(&o)
    );
    gen_ok(dir);
    assert_eq!(numbers(dir)["s"]["value"], 2, "{filter}");
    let o = artifact(dir, &["check"]);
    assert_eq!(o.status.code(), Some(0), "{filter}: {}", out(&o));
    let o = artifact(dir, &["check", "--fast"]);
    assert_eq!(o.status.code(), Some(0), "{filter}: {}", out(&o));
}

#[test]
fn v_get_with_a_default_is_a_dependency() {
    let f = "x >= v.get('thr', 0)";
    converges(setup(f).path(), f);
}

#[test]
fn v_attribute_is_a_dependency() {
    let f = "x >= v.thr";
    converges(setup(f).path(), f);
}

#[test]
fn key_in_v_is_a_dependency() {
    let f = "'thr' in v and x >= v['thr']";
    converges(setup(f).path(), f);
    // Only `in`: still read before the step.
    let f = "'thr' in v and x >= 2";
    let dir = setup(f);
    gen_ok(dir.path());
    let order: Vec<String> = numbers(dir.path())
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert!(order.contains(&"thr".to_string()));
}

#[test]
fn a_computed_key_in_a_step_is_an_error_at_it() {
    let dir = setup("x >= v['t' ~ 'hr']");
    let o = artifact(dir.path(), &["gen"]);
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    let e = stderr(&o);
    assert!(
        e.contains("artifact.toml:13:27: table `t` reads numbers by a key not written out (`v['t' ~ 'hr']`): write each as v['KEY']"),
        "{e}"
    );
    let dir = setup("(v | list | length) > 1");
    let e = stderr(&artifact(dir.path(), &["gen"]));
    assert!(
        e.contains("table `t` reads numbers by a key not written out (`v | list`)"),
        "{e}"
    );
}

#[test]
fn a_computed_key_in_a_number_is_an_error_at_it() {
    let dir = project(
        "[numbers.a]\nvalue = { expr = \"n['b' ~ '']\" }\n\n[numbers.b]\nvalue = { expr = \"1\" }\n",
    );
    let e = stderr(&artifact(dir.path(), &["gen"]));
    assert!(
        e.contains(
            "artifact.toml:2:19: number `a` reads numbers by a key not written out (`n['b' ~ '']`)"
        ),
        "{e}"
    );
}

#[test]
fn n_attribute_in_a_results_table_text_is_a_dependency() {
    let spec = |thr: &str| {
        format!(
            "[sources.d]\npath = \"d.csv\"\n\n[results_tables.r]\nfrom = \"d\"\ncolumns = [{{ field = \"k\" }}, {{ header = \"thr\", text = \"{{{{ n.thr }}}}\" }}]\n\n[numbers.thr]\nvalue = {{ expr = \"{thr}\" }}\n"
        )
    };
    let dir = project(&spec("2"));
    std::fs::write(dir.path().join("d.csv"), "k,x\na,1\nb,2\n").unwrap();
    let o = artifact(dir.path(), &["gen"]);
    assert!(o.status.success(), "{}", out(&o));
    std::fs::write(dir.path().join("artifact.toml"), spec("7")).unwrap();
    gen_ok(dir.path());
    let files: Vec<_> = walk(dir.path());
    let table = files
        .iter()
        .find(|p| p.to_string_lossy().ends_with("r.md"))
        .unwrap_or_else(|| panic!("{files:?}"));
    let text = std::fs::read_to_string(table).unwrap();
    assert!(text.contains("| 7"), "{text}");
    assert!(!text.contains("| 2 "), "{text}");
    assert_eq!(artifact(dir.path(), &["check"]).status.code(), Some(0));
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn n_attribute_in_a_figure_title_is_a_dependency() {
    let spec = |thr: &str| {
        format!(
            "[sources.d]\npath = \"d.csv\"\n\n[figures.f]\nsize = [3, 2]\ntitle = \"thr {{{{ n.thr }}}} or {{{{ n.get('thr') }}}}\"\nlayers = [{{ mark = \"point\", data = \"d\", x = \"x\", y = \"x\" }}]\n\n[numbers.thr]\nvalue = {{ expr = \"{thr}\" }}\n"
        )
    };
    let dir = project(&spec("2"));
    std::fs::write(dir.path().join("d.csv"), "k,x\na,1\nb,2\n").unwrap();
    gen_ok(dir.path());
    std::fs::write(dir.path().join("artifact.toml"), spec("7")).unwrap();
    let o = artifact(dir.path(), &["check", "--fast"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    let o = gen_ok(dir.path());
    assert!(
        stderr(&o).contains("rebuilt f (quoted number changed: thr)"),
        "{}",
        stderr(&o)
    );
    let svg = std::fs::read_to_string(dir.path().join("figures/f.svg")).unwrap();
    assert!(svg.contains("thr 7 or 7"), "{svg}");
    assert_eq!(artifact(dir.path(), &["check"]).status.code(), Some(0));
}
