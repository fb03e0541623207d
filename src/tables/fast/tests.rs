//! The fast path against the generic one on small batches.

use super::*;
use crate::plan::steps::Step;

const SPEC: &str = r#"
[sources.results]
path = "results.jsonl"

[tables.points]
from = "results"
steps = [
  { filter = "_kind in ['bench_bf16_perfile', 'bench_7B'] and methods is mapping" },
  { derive = { corpus = "'Q4_K' if _kind == 'Q4_K_benchmark' else 'bf16'" } },
  { explode = "methods", key = "method", value = "m" },
  { filter = "m is mapping and m.ratio is not none and m.ratio > 0" },
  { group = ["corpus", "method"], aggregate = { n = "count", r = { weighted_mean = "m.ratio", weight = "input_bytes" }, s = { sum = "input_bytes" } } },
]
"#;

const LINES: &str = concat!(
    r#"{"_kind": "bench_7B", "input_bytes": 4, "shape": [1, 2], "methods": {"zstd": {"ratio": 1.25, "x": "y"}, "xz": {"ratio": 0, "x": 1}}}"#,
    "\n\n",
    r#"{"_kind": "bench_bf16_perfile", "input_bytes": 2, "methods": {"zstd": {"ratio": 2}, "err": {"error": "no"}, "s": "n/a"}}"#,
    "\r\n",
    r#"{"_kind": "other", "input_bytes": 2, "methods": {}}"#,
    "\n",
);

fn batch(lines: &str) -> (u64, Out) {
    let spec = crate::spec::parse(SPEC, std::path::Path::new("artifact.toml")).unwrap();
    let table = spec.spec.tables["points"].get_ref();
    let steps: Vec<Step> = table
        .steps
        .iter()
        .map(|s| crate::plan::steps::compile(&spec, s).unwrap())
        .collect();
    let projection = super::super::projection::projection(&steps).unwrap();
    let plan = Plan::compile(&steps, 4, &projection).expect("a plan");
    let path: Arc<str> = Arc::from("results.jsonl");
    plan.run_batch(&path, lines.as_bytes(), 1, Out::default(), &|n, _| {
        panic!("line {n} left the fast path")
    })
    .unwrap()
}

#[test]
fn plain_lines_stay_on_the_fast_path() {
    let (records, out) = batch(LINES);
    assert_eq!(records, 3, "the blank line is not a record");
    // zstd from line 1, zstd from line 3 (one key), nothing else.
    assert!(
        matches!(out.items[..], [Item::Fast(0), Item::Fast(0)]),
        "{:?}",
        out.items
    );
    assert_eq!(out.keys.len(), 1);
    assert_eq!(format!("{:?}", out.keys[0].0), "['bf16', 'zstd']");
    assert_eq!(out.keys[0].1.origin.to_string(), "results.jsonl:1");
    let inputs: Vec<String> = out.inputs.iter().map(|i| format!("{i:?}")).collect();
    assert_eq!(
        inputs,
        [
            "Nothing",
            "Weighted(1.25, 4.0)",
            "Int(4)",
            "Nothing",
            "Weighted(2.0, 2.0)",
            "Int(2)"
        ]
    );
    // The xz entry (ratio 0) is reported as the generic path reports it.
    let drops: Vec<String> = out
        .drops
        .iter()
        .map(|((_, by, p, why), d)| format!("{by}: {p} {why} {} {:?}", d.count, d.at))
        .collect();
    // Named by the `and` term that dropped it, as the generic path names it.
    assert_eq!(drops, [r#"m.ratio > 0: m.ratio 0 1 ["results.jsonl:1"]"#]);
}

#[test]
#[should_panic(expected = "line 1 left the fast path")]
fn a_string_where_a_number_is_compared_leaves_it() {
    batch(r#"{"_kind": "bench_7B", "input_bytes": 4, "methods": {"zstd": {"ratio": "1.25"}}}"#);
}
