//! rebar's summary tables rebuilt from its published records
//! (`tests/fixtures/rebar`, Unlicense), each expression one line: timings
//! read with `quantity`, the best median per benchmark by `joinaggregate`,
//! the geometric mean of ratios by `gmean`, one number per engine by a
//! family keyed with `slug`. The expected values are what Python computes
//! on the same CSV files (the script is below), to the last bit.

mod common;

use common::*;
use serde_json::Value;

/// rebar's "search time" and "compile time" summaries: `compile` selects
/// the benchmarks whose model is `compile`.
const SPEC: &str = r#"
[sources.runs]
path = "data/*.csv.zst"

[tables.timed]
from = "runs"
steps = [
  { filter = "name.startswith('curated/') and err is none" },
  { derive = { t = "quantity(median, 's')", compile = "model == 'compile'" } },
  { joinaggregate = { best = { min = "t" } }, per = ["name", "model"] },
  { derive = { ratio = "t / best" } },
]

[numbers.search]
table = "timed"
where = "not compile"
per = "engine"
each = "search-{{ engine | slug }}"
value = { gmean = "ratio" }

[numbers.search-count]
table = "timed"
where = "not compile"
per = "engine"
each = "search-count-{{ engine | slug }}"
value = "count"

[numbers.compile]
table = "timed"
where = "compile"
per = "engine"
each = "compile-{{ engine | slug }}"
value = { gmean = "ratio" }
"#;

// import csv, glob, re, math, collections
// E = {'ns': 'e-9', 'us': 'e-6', 'ms': 'e-3', 's': ''}
// q = lambda t: float(re.match(r'([0-9.]+)(ns|us|ms|s)$', t)[1] + E[...])
// rows with name.startswith('curated/') and err == '', split by
// model == 'compile'; best[(name, model)] = min of q(median);
// per engine: math.exp(sum(map(math.log, ratios)) / len(ratios)), len(ratios)
const SEARCH: [(&str, f64, u64); 18] = [
    ("hyperscan", 2.4026025102875566, 28),
    ("rust_regex", 3.1425680977661195, 38),
    ("dotnet_compiled", 4.348502684251823, 34),
    ("pcre2_jit", 6.025165214505343, 34),
    ("rust_regexold", 8.545511604242433, 35),
    ("dotnet_nobacktrack", 8.754339177154279, 29),
    ("re2", 10.454136487819465, 31),
    ("javascript_v8", 13.799476688862132, 32),
    ("d_ldc_std-regex", 22.24156199550961, 31),
    ("regress", 32.44149501145061, 32),
    ("java_hotspot", 42.07563392068069, 34),
    ("python_regex", 42.448589970398466, 34),
    ("perl", 42.91257758232868, 33),
    ("python_re", 43.22533975365682, 33),
    ("icu", 50.504672027458916, 34),
    ("go_regexp", 76.37868852772209, 31),
    ("pcre2", 117.74407880197082, 33),
    ("rust_regex_lite", 162.10910352624518, 28),
];

const COMPILE: [(&str, f64); 14] = [
    ("pcre2", 1.3736387880361758),
    ("rust_regex_lite", 2.7716166599020102),
    ("regress", 3.078615406639214),
    ("icu", 3.6218918771232516),
    ("pcre2_jit", 5.731093707458344),
    ("go_regexp", 5.792007818950884),
    ("rust_regex", 11.894537283199172),
    ("re2", 12.583747010277882),
    ("rust_regexold", 15.740352783283969),
    ("dotnet_compiled", 20.50942511935491),
    ("python_re", 37.70944148127521),
    ("python_regex", 104.77252112974644),
    ("dotnet_nobacktrack", 146.0121694183912),
    ("hyperscan", 564.3757026546048),
];

fn value(n: &Value, key: &str) -> f64 {
    n[key]["value"]
        .as_f64()
        .unwrap_or_else(|| panic!("no number `{key}`"))
}

#[test]
fn rebars_search_and_compile_summaries_are_pythons_to_the_last_bit() {
    let dir = project_with_fixture(SPEC, "rebar");
    let n = numbers_on_both_paths(dir.path());
    for (engine, gmean, count) in SEARCH {
        assert_eq!(value(&n, &format!("search-{engine}")), gmean, "{engine}");
        assert_eq!(
            n[format!("search-count-{engine}")]["value"],
            count,
            "{engine}"
        );
    }
    for (engine, gmean) in COMPILE {
        assert_eq!(value(&n, &format!("compile-{engine}")), gmean, "{engine}");
    }
    // 18 engines searched, 14 compiled: nothing more.
    let keys = n.as_object().unwrap().keys();
    assert_eq!(keys.count(), 18 * 2 + 14);
}

#[test]
fn the_two_empty_files_are_noted_not_refused() {
    let dir = project_with_fixture(SPEC, "rebar");
    let out = gen_ok(dir.path());
    let err = stderr(&out);
    for file in ["rust-regex-meta.csv.zst", "rust-regex-sparse.csv.zst"] {
        assert!(err.contains(&format!("data/{file}: no records\n")), "{err}");
    }
}

#[test]
fn a_field_name_as_a_numbers_value_is_refused_with_the_cell_it_meant() {
    let spec = format!(
        "{SPEC}\n[tables.summary]\nfrom = \"timed\"\nsteps = [{{ group = [\"engine\"], aggregate = {{ speed = {{ gmean = \"ratio\" }} }} }}]\n\n\
         [numbers.best]\ntable = \"summary\"\nwhere = \"engine == 'hyperscan'\"\nvalue = \"speed\"\n"
    );
    let dir = project_with_fixture(&spec, "rebar");
    let out = artifact(dir.path(), &["gen"]);
    assert!(!out.status.success());
    let line = spec.lines().position(|l| l == "value = \"speed\"").unwrap() + 1;
    assert!(
        stderr(&out).contains(&format!(
            "error: artifact.toml:{line}:9: an aggregate is \"count\" or a table such as \
             {{ median = \"field\" }}; a field of the one row is {{ cell = \"speed\" }}"
        )),
        "{}",
        stderr(&out)
    );
}
