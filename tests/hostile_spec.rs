//! Hostile specs: cycles of tables, expressions and templates nested or
//! chained 100,000 deep, TOML nested 100,000 deep, numeric settings beyond
//! any figure. Each is a clear error at the spec's line and column (never a
//! stack overflow, never gigabytes), and the outputs of the previous good
//! run are left byte for byte as they were.

mod common;

use std::path::Path;

use common::*;

/// Line and column (1-based) of the last `needle` in `text` (the
/// appended fragment's).
fn line_col(text: &str, needle: &str) -> (usize, usize) {
    let at = text
        .rfind(needle)
        .unwrap_or_else(|| panic!("no `{needle}`"));
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

/// Every file of a built paper but the spec.
fn outputs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut s = snapshot(dir);
    s.retain(|(rel, _)| rel != "artifact.toml");
    s
}

/// Builds the demo paper, appends `fragment` to its spec and runs `args`:
/// requires exit status 2 and unchanged outputs, and returns the spec's new
/// text and the first error line of stderr.
fn hostile(fragment: &str, args: &[&str]) -> (String, String) {
    hostile_with(fragment, &[], args)
}

/// [`hostile`], with `files` (relative path, text) written beside the spec.
fn hostile_with(fragment: &str, files: &[(&str, String)], args: &[&str]) -> (String, String) {
    let dir = paper_copy();
    gen_ok(dir.path());
    for (rel, text) in files {
        std::fs::write(dir.path().join(rel), text).unwrap();
    }
    let before = outputs(dir.path());
    let spec = dir.path().join("artifact.toml");
    let text = format!("{}\n{fragment}", std::fs::read_to_string(&spec).unwrap());
    std::fs::write(&spec, &text).unwrap();
    let out = artifact(dir.path(), args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        &stderr[..stderr.len().min(2000)]
    );
    let mut after = outputs(dir.path());
    // One figure's or number's failure is recorded in the lock (with the
    // new spec's hash); the records of everything else are as they were.
    let lock = |s: &[(String, Vec<u8>)]| -> artifact::lock::Lock {
        let text = &s.iter().find(|(n, _)| n == "artifact.lock").unwrap().1;
        toml::from_str(&String::from_utf8_lossy(text)).unwrap()
    };
    let (old, new) = (lock(&before), lock(&after));
    if !new.failed.is_empty() {
        assert_eq!(
            (&new.numbers, &new.figures, &new.outputs),
            (&old.numbers, &old.figures, &old.outputs)
        );
        let pos = after
            .iter()
            .position(|(n, _)| n == "artifact.lock")
            .unwrap();
        after[pos].1 = before[pos].1.clone();
    }
    let names = |s: &[(String, Vec<u8>)]| s.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&before), names(&after));
    for ((name, a), (_, b)) in before.iter().zip(&after) {
        assert!(a == b, "{name} changed");
    }
    let error = stderr.lines().find(|l| l.starts_with("error: "));
    (text, error.unwrap_or("").to_string())
}

/// A table `hostile` over the demo paper's `pairs` with one step.
fn table_with_step(step: &str) -> String {
    format!("[tables.hostile]\nfrom = \"pairs\"\nsteps = [{{ {step} }}]\n")
}

const TOO_DEEP: &str =
    "nested deeper than 200 levels (each operator of a chain such as `a and b and c` is one level)";

/// Runs gen on a `filter` of `expr` and checks the depth error at it.
fn deep_filter(expr: &str) {
    let (text, err) = hostile(&table_with_step(&format!("filter = \"{expr}\"")), &["gen"]);
    let (line, col) = line_col(&text, "filter = \"");
    assert_eq!(
        err,
        format!(
            "error: artifact.toml:{line}:{}: invalid expression: {TOO_DEEP}",
            col + 9
        )
    );
}

#[test]
fn table_from_itself_is_a_cycle_not_a_stack_overflow() {
    for args in [&["gen"][..], &["check"]] {
        let (text, err) = hostile("[tables.selfish]\nfrom = \"selfish\"\n", args);
        let (line, col) = line_col(&text, "\"selfish\"\n");
        assert_eq!(
            err,
            format!("error: artifact.toml:{line}:{col}: cycle of tables: selfish -> selfish")
        );
    }
}

#[test]
fn two_tables_reading_each_other_are_a_cycle() {
    let (text, err) = hostile(
        "[tables.ping]\nfrom = \"pong\"\n[tables.pong]\nfrom = \"ping\"\n",
        &["gen"],
    );
    let (line, col) = line_col(&text, "\"ping\"\n");
    assert_eq!(
        err,
        format!("error: artifact.toml:{line}:{col}: cycle of tables: ping -> pong -> ping")
    );
}

#[test]
fn cycle_through_lookup_is_a_cycle() {
    let (text, err) = hostile(
        "[tables.left]\nfrom = \"pairs\"\nsteps = [{ lookup = \"right\", on = \"name\" }]\n\
         [tables.right]\nfrom = \"pairs\"\nsteps = [{ union = [\"left\"] }]\n",
        &["gen"],
    );
    let (line, col) = line_col(&text, "[\"left\"]");
    assert_eq!(
        err,
        format!("error: artifact.toml:{line}:{col}: cycle of tables: left -> right -> left")
    );
}

#[test]
fn chain_of_3000_tables_is_an_error_not_a_stack_overflow() {
    let mut fragment = "[tables.h0]\nfrom = \"pairs\"\n".to_string();
    for i in 1..3000 {
        fragment.push_str(&format!("[tables.h{i}]\nfrom = \"h{}\"\n", i - 1));
    }
    fragment.push_str("[numbers.hostile]\ntable = \"h2999\"\nvalue = \"count\"\n");
    let (text, err) = hostile(&fragment, &["gen"]);
    let (line, col) = line_col(&text, "\"h99\"\n");
    assert_eq!(
        err,
        format!(
            "error: artifact.toml:{line}:{col}: table `h100` reads through a chain of 101 tables, more than the 100 allowed"
        )
    );
}

#[test]
fn filter_of_10000_and_terms_is_an_error_not_a_stack_overflow() {
    deep_filter(&vec!["x"; 10_000].join(" and "));
}

#[test]
fn filter_of_1000_plus_terms_read_by_a_number_is_an_error_under_check() {
    // The table is reached through a number, on the paths of `check`
    // and `check --fast` (the other tests here run `gen`).
    let expr = format!("{} > 0", vec!["ms"; 1000].join(" + "));
    let fragment = format!(
        "{}[numbers.hostile-n]\ntable = \"hostile\"\nvalue = \"count\"\n",
        table_with_step(&format!("filter = \"{expr}\""))
    );
    for args in [&["check"][..], &["check", "--fast"]] {
        let (text, err) = hostile(&fragment, args);
        let (line, col) = line_col(&text, "filter = \"");
        assert_eq!(
            err,
            format!(
                "error: artifact.toml:{line}:{}: invalid expression: {TOO_DEEP}",
                col + 9
            ),
            "{args:?}"
        );
    }
}

#[test]
fn chains_of_50k_and_abs_filters_and_not_are_errors_under_check() {
    for expr in [
        vec!["ms"; 50_000].join(" and "),
        format!("ms{}", " | abs".repeat(50_000)),
        format!("{}ms", "not ".repeat(50_000)),
    ] {
        let fragment = format!(
            "{}[numbers.hostile-n]\ntable = \"hostile\"\nvalue = \"count\"\n",
            table_with_step(&format!("filter = \"{expr}\""))
        );
        let (text, err) = hostile(&fragment, &["check"]);
        let (line, col) = line_col(&text, "filter = \"");
        assert_eq!(
            err,
            format!(
                "error: artifact.toml:{line}:{}: invalid expression: {TOO_DEEP}",
                col + 9
            )
        );
    }
}

#[test]
fn chain_of_100k_plus_is_an_error_not_a_stack_overflow() {
    deep_filter(&vec!["x"; 100_000].join(" + "));
}

#[test]
fn chain_of_100k_not_is_an_error_not_a_stack_overflow() {
    deep_filter(&format!("{}x", "not ".repeat(100_000)));
}

#[test]
fn chain_of_100k_tilde_is_an_error_not_a_stack_overflow() {
    deep_filter(&vec!["x"; 100_000].join(" ~ "));
}

#[test]
fn chain_of_100k_attributes_is_an_error_not_a_stack_overflow() {
    deep_filter(&format!("x{}", ".a".repeat(100_000)));
}

#[test]
fn chain_of_100k_minus_signs_is_an_error_not_a_stack_overflow() {
    deep_filter(&format!("{}x", "-".repeat(100_000)));
}

#[test]
fn chain_of_100k_filters_is_an_error_not_a_stack_overflow() {
    deep_filter(&format!("x{}", " | abs".repeat(100_000)));
}

#[test]
fn title_of_100k_tildes_is_an_error_not_a_stack_overflow() {
    let title = format!("{{{{ {} }}}}", vec!["'a'"; 100_000].join(" ~ "));
    let fragment = format!(
        "[figures.hostile]\nsize = [4, 3]\ntitle = \"{title}\"\n\
         layers = [{{ mark = \"rule\", y = 1 }}]\n"
    );
    let (text, err) = hostile(&fragment, &["gen"]);
    let (line, col) = line_col(&text, "title = \"{{ 'a'");
    assert_eq!(
        err,
        format!(
            "error: artifact.toml:{line}:{}: invalid template: {TOO_DEEP}",
            col + 8
        )
    );
}

#[test]
fn title_of_100k_elifs_is_an_error_not_a_stack_overflow() {
    let title = format!(
        "{{% if x %}}{}{{% endif %}}",
        "{% elif x %}".repeat(100_000)
    );
    let fragment = format!(
        "[figures.hostile]\nsize = [4, 3]\ntitle = \"{title}\"\n\
         layers = [{{ mark = \"rule\", y = 1 }}]\n"
    );
    let (text, err) = hostile(&fragment, &["gen"]);
    let (line, col) = line_col(&text, "\"{% if x %}{% elif");
    assert_eq!(
        err,
        format!("error: artifact.toml:{line}:{col}: invalid template: {TOO_DEEP}")
    );
}

#[test]
fn title_building_a_list_100k_deep_is_an_error_not_a_stack_overflow() {
    let fragment = "[figures.hostile]\nsize = [4, 3]\n\
        title = \"{% set ns = namespace(v=[]) %}{% for i in range(100000) %}{% set ns.v = [ns.v] %}{% endfor %}{{ ns.v }}\"\n\
        layers = [{ mark = \"rule\", y = 1 }]\n";
    let (text, err) = hostile(fragment, &["gen"]);
    let (line, col) = line_col(&text, "\"{% set ns");
    assert_eq!(
        err,
        format!(
            "error: figure `hostile`: artifact.toml:{line}:{col}: cannot render: unknown function: namespace is unknown"
        )
    );
}

#[test]
fn user_template_of_100k_tildes_is_an_error_not_a_stack_overflow() {
    let deep = format!("{{{{ {} }}}}", vec!["1"; 100_000].join(" ~ "));
    let (_, err) = hostile_with(
        "[templates]\ntex = \"deep.tex.j2\"\n",
        &[("deep.tex.j2", deep)],
        &["gen"],
    );
    assert_eq!(
        err,
        "error: numbers: deep.tex.j2: cannot compile the template for macros.tex: nested deeper than 200 levels"
    );
}

#[test]
fn toml_array_nested_100k_deep_is_an_error_not_a_stack_overflow() {
    let fragment = format!(
        "[tables.hostile]\nfrom = \"pairs\"\nx = {}{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let (text, err) = hostile(&fragment, &["gen"]);
    let (line, _) = line_col(&text, "x = [[");
    // The toml crate bounds its own recursion.
    assert_eq!(
        err,
        format!("error: artifact.toml:{line}:85: cannot recurse further; max recursion depth met")
    );
}

/// A figure `hostile` with `settings` and one `layer` of demo data.
fn figure(settings: &str, layer: &str) -> String {
    format!("[figures.hostile]\nsize = [4, 3]\n{settings}\nlayers = [{{ {layer} }}]\n")
}

const HIST: &str = "mark = \"hist\", data = \"fig4_corr\", x = \"corr_pearson\"";

/// Runs gen with `fragment` and checks `message` at the value of the
/// setting `at` (`bins = `) in the fragment.
fn out_of_range(fragment: &str, at: &str, message: &str) {
    let (text, err) = hostile(fragment, &["gen"]);
    let (line, col) = line_col(&text, at);
    let col = col + at.find("= ").map_or(0, |i| i + 2);
    assert_eq!(err, format!("error: artifact.toml:{line}:{col}: {message}"));
}

#[test]
fn bins_of_ten_million_is_an_error_not_gigabytes() {
    out_of_range(
        &figure("", &format!("{HIST}, bins = 10000000")),
        "bins = ",
        "`bins` must be between 1 and 10000, got 10000000",
    );
}

#[test]
fn font_sizes_beyond_200_points_are_errors() {
    for (settings, at, what, got) in [
        ("font_size = 1e9", "font_size = ", "font_size", "1000000000"),
        ("title_size = 0", "title_size = ", "title_size", "0"),
        (
            "x = { tick_font_size = 500 }",
            "tick_font_size = ",
            "tick_font_size",
            "500",
        ),
        (
            "legend = { font_size = -3 }",
            "font_size = ",
            "font_size",
            "-3",
        ),
    ] {
        out_of_range(
            &figure(settings, HIST),
            at,
            &format!("`{what}` must be between 1 and 200 points, got {got}"),
        );
    }
}

#[test]
fn legend_columns_beyond_100_are_an_error() {
    out_of_range(
        &figure("legend = { columns = 100000 }", HIST),
        "columns = ",
        "`columns` must be between 1 and 100, got 100000",
    );
}

#[test]
fn layer_sizes_beyond_their_bounds_are_errors() {
    // Each on a layer whose mark reads it (a `hist` has no markers).
    const LINE: &str = "mark = \"line\", data = \"fig4_corr\", x = \"corr_pearson\", y = \"corr_pearson\", marker = \"circle\"";
    const POINT: &str =
        "mark = \"point\", data = \"fig4_corr\", x = \"corr_pearson\", y = \"corr_pearson\"";
    for (layer, extra, at, message) in [
        (
            LINE,
            "marker_size = 1e6",
            "marker_size = ",
            "`marker_size` must be between 0 and 100 points, got 1000000",
        ),
        (
            POINT,
            "size = 1e12",
            "size = 1e12",
            "`size` must be between 0 and 10000 pt², got 1000000000000",
        ),
        (
            HIST,
            "stroke_width = -1",
            "stroke_width = ",
            "`stroke_width` must be between 0 and 100 points, got -1",
        ),
        (
            HIST,
            "opacity = 2",
            "opacity = ",
            "`opacity` must be between 0 and 1, got 2",
        ),
        (
            HIST,
            "z = nan",
            "z = ",
            "`z` must be between -1000000 and 1000000, got NaN",
        ),
    ] {
        out_of_range(&figure("", &format!("{layer}, {extra}")), at, message);
    }
}

#[test]
fn figure_size_beyond_100_inches_is_an_error() {
    let fragment = "[figures.hostile]\nsize = [4, 1e9]\nlayers = [{ mark = \"rule\", y = 1 }]\n";
    let (text, err) = hostile(fragment, &["gen"]);
    let (line, col) = line_col(&text, "1e9]");
    assert_eq!(
        err,
        format!(
            "error: artifact.toml:{line}:{col}: the figure's height must be from 0.5 to 100 inches, got 1000000000"
        )
    );
}

#[test]
fn layout_of_a_million_panels_is_an_error() {
    out_of_range(
        &figure("layout = [1000, 1000]", HIST),
        "layout = ",
        "`layout` must have at least 1 row and 1 column and at most 1000 panels, got 1000 x 1000",
    );
}

#[test]
fn figure_of_1001_panels_is_an_error() {
    let mut fragment = "[figures.hostile]\nsize = [4, 3]\n".to_string();
    for i in 0..1001 {
        fragment.push_str(&format!("[[figures.hostile.panels]]\ntitle = \"p{i}\"\n"));
    }
    let (text, err) = hostile(&fragment, &["gen"]);
    let (line, col) = line_col(&text, "[[figures.hostile.panels]]\ntitle = \"p1000\"");
    assert_eq!(
        err,
        format!(
            "error: artifact.toml:{line}:{col}: a figure has at most 1000 panels; this is panel 1001"
        )
    );
}

#[test]
fn format_places_beyond_20_are_an_error() {
    let fragment = "[numbers.hostile]\ntable = \"pairs\"\nvalue = \"count\"\nformat = { places = 4000000000 }\n";
    let (text, err) = hostile(fragment, &["gen"]);
    let (line, col) = line_col(&text, "4000000000 }");
    assert_eq!(
        err,
        format!(
            "error: artifact.toml:{line}:{col}: `places` must be between 0 and 20, got 4000000000"
        )
    );
}

#[test]
fn bootstrap_of_a_trillion_resamples_is_an_error() {
    let fragment = "[numbers.hostile]\ntable = \"pairs\"\n\
        value = { ci95 = \"corr_pearson\", bound = \"low\", method = \"bootstrap\", seed = 1, resamples = 1e12 }\n";
    let (text, err) = hostile(fragment, &["gen"]);
    let (line, col) = line_col(&text, "{ ci95");
    assert_eq!(
        err,
        format!(
            "error: artifact.toml:{line}:{col}: `resamples` must be a whole number between 1 and 1000000, got 1000000000000"
        )
    );
}

#[test]
fn macro_template_of_nested_huge_ranges_runs_out_of_fuel_not_for_minutes() {
    let loops = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}";
    let (_, err) = hostile_with(
        "[templates]\ntyp = \"t.j2\"\n",
        &[("t.j2", format!("// numbers\n{loops}\n"))],
        &["gen"],
    );
    assert_eq!(
        err,
        "error: numbers: t.j2:2: cannot render the template for macros.typ: engine ran out of fuel \
         (a macro template may take 200000 steps, plus 1000 per number: is a loop too long?)"
    );
}

#[test]
fn macro_template_building_a_list_100k_deep_is_an_error_not_a_stack_overflow() {
    let t = "{% set ns = namespace(v=[]) %}{% for i in range(100000) %}{% set ns.v = [ns.v] %}{% endfor %}{{ ns.v }}";
    let (_, err) = hostile_with(
        "[templates]\ntyp = \"t.j2\"\n",
        &[("t.j2", t.to_string())],
        &["gen"],
    );
    assert_eq!(
        err,
        "error: numbers: t.j2:1: cannot render the template for macros.typ: unknown function: namespace is unknown"
    );
}

#[test]
fn filter_on_a_line_of_70000_characters_is_an_error_not_an_overflow() {
    // minijinja counts columns in 16 bits: found by the `expr` fuzz target
    // (a debug build panicked with "attempt to add with overflow").
    let expr = format!("x > 0{}", " ".repeat(70_000));
    let (text, err) = hostile(&table_with_step(&format!("filter = \"{expr}\"")), &["gen"]);
    let (line, col) = line_col(&text, "filter = \"");
    assert_eq!(
        err,
        format!(
            "error: artifact.toml:{line}:{}: invalid expression: line 1 is longer than 60000 characters (the template engine counts columns in 16 bits)",
            col + 9
        )
    );
}

#[test]
fn table_of_201_steps_is_an_error_not_a_stack_overflow() {
    // Streamed steps nest one call each: 5,000 overflowed the stack.
    let steps = vec!["{ filter = \"x is defined\" }"; 201].join(", ");
    let fragment = format!("[tables.hostile]\nfrom = \"results\"\nsteps = [{steps}]\n");
    let (text, err) = hostile(&fragment, &["gen"]);
    let (line, _) = line_col(&text, "steps = [");
    let col = text
        .lines()
        .nth(line - 1)
        .unwrap()
        .match_indices("{ filter")
        .nth(200)
        .unwrap()
        .0
        + 1;
    assert_eq!(
        err,
        format!(
            "error: artifact.toml:{line}:{col}: table `hostile` has 201 steps, more than the 200 allowed"
        )
    );
}

#[test]
fn panels_whose_bins_multiply_to_millions_are_an_error_not_13_gigabytes() {
    // Each setting within its bound: 1,000 panels of 10,000 bins each.
    let mut fragment = "[figures.hostile]\nsize = [100, 100]\nlayout = [40, 25]\n".to_string();
    for _ in 0..3 {
        fragment.push_str(&format!(
            "[[figures.hostile.panels]]\nlayers = [{{ {HIST}, bins = 9000 }}]\n"
        ));
    }
    let (text, err) = hostile(&fragment, &["gen"]);
    let at = text.match_indices("bins = 9000").nth(2).unwrap().0;
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').unwrap() + 7;
    assert_eq!(
        err,
        format!(
            "error: artifact.toml:{line}:{col}: the figure's histograms draw 27000 bins so far, more than the 20000 a figure may draw (all panels together)"
        )
    );
}

#[test]
fn an_axis_listing_1001_ticks_is_an_error() {
    let ticks: Vec<String> = (0..1001).map(|i| i.to_string()).collect();
    let fragment = figure(
        &format!("x = {{ ticks = [{}] }}", ticks.join(", ")),
        "mark = \"rule\", y = 1",
    );
    out_of_range(
        &fragment,
        "ticks = ",
        "an axis lists at most 1000 ticks, got 1001",
    );
}
