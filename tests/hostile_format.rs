//! Hostile format strings: Python's `'{:.70000}'.format(x)` and the
//! `format` filter with widths or precisions from the spec or the data that
//! would panic inside Rust's float formatting or allocate gigabytes before
//! any fuel is charged. Each is a clear error (exit 2), never a panic.

mod common;

use std::path::Path;

use common::artifact;

const DATA: &str = "{\"fmt\":\"{:.70000}\",\"name\":\"a\",\"v\":1.5}\n";

/// A project over one JSONL row with `table` (steps and all) and a count
/// of it; returns the exit status and stderr of `artifact gen`.
fn gen_with(dir: &Path, steps: &str, extra: &str) -> (Option<i32>, String) {
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("data/r.jsonl"), DATA).unwrap();
    let spec = format!(
        "[sources.r]\npath = \"data/r.jsonl\"\n\n[tables.t]\nfrom = \"r\"\nsteps = [ {steps} ]\n\n\
         [numbers.n]\ntable = \"t\"\nvalue = {{ count = true }}\n{extra}"
    );
    std::fs::write(dir.join("artifact.toml"), spec).unwrap();
    let out = artifact(dir, &["gen"]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out.status.code(), stderr)
}

/// The error of a filter `expr` (with its `"` escaped for TOML).
fn filter_error(expr: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let toml = expr.replace('\\', "\\\\").replace('"', "\\\"");
    let (code, stderr) = gen_with(dir.path(), &format!("{{ filter = \"{toml} != ''\" }}"), "");
    assert_eq!(code, Some(2), "{stderr}");
    stderr
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or("")
        .to_string()
}

fn refused(expr: &str, field: &str, what: &str) {
    assert_eq!(
        filter_error(expr),
        format!(
            "error: number `n`: table `t`, step 1 (filter, artifact.toml line 6): data/r.jsonl:1: \
             cannot evaluate `{expr} != ''`: invalid operation: format: {what} ({field})"
        )
    );
}

const ABOVE: &str = "a width or precision above 1000";

#[test]
fn str_format_precision_65536_is_an_error_not_a_panic() {
    refused("'{:.65536}'.format(1.5)", "{:.65536}", ABOVE);
    refused("'{:.65535e}'.format(1.5)", "{:.65535e}", ABOVE);
}

#[test]
fn format_filter_precision_65536_is_an_error_not_a_panic() {
    refused("'%.65536e' | format(1.5)", "%.65536e", ABOVE);
}

#[test]
fn str_format_width_of_billions_is_an_error_not_gigabytes() {
    refused("'{:>4000000000}'.format(1)", "{:>4000000000}", ABOVE);
    refused("'{:>100000000000}'.format(1)", "{:>100000000000}", ABOVE);
    refused(
        "'{:>18446744073709551615}'.format(1)",
        "{:>18446744073709551615}",
        ABOVE,
    );
}

#[test]
fn format_key_not_ascii_is_an_error_not_a_panic() {
    refused("'{a[é]}'.format(a=1)", "{a[é]", "a key that is not ASCII");
    refused("'%(é)s' | format(1)", "%(é)", "a key that is not ASCII");
}

#[test]
fn str_format_precision_70000_from_the_data_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stderr) = gen_with(dir.path(), "{ derive = { label = \"fmt.format(v)\" } }", "");
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(
        stderr
            .lines()
            .find(|l| l.starts_with("error: "))
            .unwrap_or(""),
        "error: number `n`: table `t`, step 1 (derive, artifact.toml line 6): data/r.jsonl:1: \
         cannot evaluate `fmt.format(v)`: invalid operation: format: a width or precision \
         above 1000 ({:.70000}) (where fmt = \"{:.70000}\")"
    );
}

#[test]
fn str_format_of_a_million_wide_fields_runs_out_of_fuel_not_memory() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stderr) = gen_with(
        dir.path(),
        "{ filter = \"('{0:>1000}' * 1000000).format(1) != ''\" }",
        "",
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("engine ran out of fuel"), "{stderr}");
}

#[test]
fn title_with_str_format_precision_70000_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stderr) = gen_with(
        dir.path(),
        "",
        "\n[figures.f]\nsize = [4, 3]\ntitle = \"{{ '{:.70000}'.format(1.5) }}\"\n\
         layers = [ { mark = \"rule\", y = 1 } ]\n",
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("format: a width or precision above 1000 ({:.70000})"),
        "{stderr}"
    );
}

#[test]
fn macro_template_with_format_filter_precision_65536_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.j2"), "{{ '%.65536e' | format(1.5) }}\n").unwrap();
    let (code, stderr) = gen_with(dir.path(), "", "\n[templates]\ntyp = \"t.j2\"\n");
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(
        stderr
            .lines()
            .find(|l| l.starts_with("error: "))
            .unwrap_or(""),
        "error: numbers: t.j2:1: cannot render the template for macros.typ: invalid operation: \
         format: a width or precision above 1000 (%.65536e)"
    );
}
