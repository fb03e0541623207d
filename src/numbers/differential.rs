//! Numbers folded on a stream checked against the definition: a number
//! straight on a table of streaming steps over a source is computed as a
//! fold ([`crate::plan::fold`]) and must give the value, text, row count
//! and uncertainty (or fail) as the same aggregate over the same steps
//! applied to the whole source held in memory. Used by the unit test below
//! on generated logs and by the `fold` fuzz target on any bytes.

use std::path::Path;

use crate::tables::Catalog;
use crate::tables::differential::MENU;

/// The menu entries that stream (a fold's table may have only those).
pub const STREAMING: [usize; 12] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 14];

/// The numbers a recipe byte picks from: `value` (and `uncertainty`) of a
/// number over the rows the steps give, which have `k`, `x`, `y`, `mv`.
pub const NUMBERS: [&str; 10] = [
    r#"value = "count""#,
    r#"value = { sum = "x" }"#,
    r#"value = { median = "x" }"#,
    r#"value = { quantile = "x", q = 0.9 }"#,
    r#"value = { mean = "x" }
uncertainty = { low = { ci95 = "x", bound = "low" }, high = { ci95 = "x", bound = "high" } }"#,
    r#"value = { min = "x" }"#,
    r#"value = { first = "k" }"#,
    r#"value = { last = "x" }"#,
    r#"value = { mean = "x" }
uncertainty = { std = "x" }"#,
    r#"value = { cell = "k" }"#,
];

/// The spec of a check: the steps (of [`STREAMING`]) on the stream in
/// table `a`, which only number `fa` reads (a fold), and on the whole
/// source in table `b`, read by number `fb` (held rows).
pub fn spec_text(steps: &[usize], number: usize, where_: bool) -> String {
    let list: Vec<&str> = steps
        .iter()
        .map(|&i| MENU[STREAMING[i % STREAMING.len()]])
        .collect();
    let list = list.join(", ");
    let n = NUMBERS[number % NUMBERS.len()];
    let w = match where_ {
        true => "where = \"x is number and x > 1\"\n",
        false => "",
    };
    format!(
        r#"[sources.s]
path = "s.jsonl"

[sources.small]
rows = [{{ k = 1, label = "one" }}, {{ k = 2, label = "two" }}, {{ k = "a", label = "A" }}]

[tables.whole]
from = "s"
steps = [{{ derive = {{ z = "1" }} }}]

[tables.a]
from = "s"
steps = [{list}]

[tables.b]
from = "whole"
steps = [{list}]

[numbers.fa]
table = "a"
{w}{n}

[numbers.fb]
table = "b"
{w}{n}
"#
    )
}

/// Writes `log` as `s.jsonl` in `dir` and checks that number `fa`
/// (folded) and number `fb` (over held rows) agree: the same value, text,
/// rows and uncertainty, or both an error. `Ok(true)` when `fa` was
/// computed on the stream; `Err` describes the difference.
pub fn check(
    dir: &Path,
    log: &[u8],
    steps: &[usize],
    number: usize,
    where_: bool,
) -> Result<bool, String> {
    std::fs::write(dir.join("s.jsonl"), log).map_err(|e| e.to_string())?;
    let text = spec_text(steps, number, where_);
    let spec = crate::spec::parse(&text, &dir.join("artifact.toml")).map_err(|e| e.to_string())?;
    let plan = crate::plan::Plan::compile(&spec).map_err(|e| e.to_string())?;
    if plan.numbers["fa"].fold.is_none() {
        return Err("number `fa` is not a fold".into());
    }
    let cat = Catalog::new(&plan).map_err(|e| e.to_string())?.trimming();
    let (numbers, _) = super::compute(&spec, &cat, &|_, _| None);
    let get = |k: &str| numbers.list.iter().find(|n| n.key == k);
    // (A fold that fails is told as on held rows: its table is built then.)
    if get("fa").is_some() && cat.is_built("a") {
        return Err("table `a` was held".into());
    }
    match (get("fa"), get("fb")) {
        (Some(a), Some(b)) => {
            let show = |n: &super::Number| {
                format!(
                    "{} {:?} rows {} {:?}",
                    crate::value::show(&n.value),
                    n.text,
                    n.rows,
                    n.uncertainty
                )
            };
            match show(a) == show(b) {
                true => Ok(!cat.is_built("a")),
                false => Err(format!("folded {}, held {}", show(a), show(b))),
            }
        }
        (None, None) => Ok(false),
        (a, b) => Err(format!(
            "folded {:?}, held {:?}; errors: {:?}",
            a.map(|n| &n.text),
            b.map(|n| &n.text),
            numbers
                .errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folded_numbers_agree_with_numbers_over_held_rows() {
        let dir = tempfile::tempdir().unwrap();
        let mut rng = crate::stats::SplitMix64(28);
        let mut failures = Vec::new();
        let mut folded = 0;
        for case in 0..300 {
            let mut next = || rng.next_u64();
            let n = (next() % 3) as usize;
            let steps: Vec<usize> = (0..n).map(|_| next() as usize).collect();
            let number = next() as usize;
            let where_ = next() % 2 == 0;
            let lines = (next() % 30) as usize;
            let mut log = String::new();
            for i in 0..lines {
                let x = ["0", "1", "2.5", "3", "7", "-4", "1e3", "null", "\"s\""]
                    [(next() % 9) as usize];
                let k = ["1", "2", "\"a\"", "3"][(next() % 4) as usize];
                match next() % 10 {
                    0 => log.push_str(&format!("{{\"x\": {x}}}\n")),
                    _ => log.push_str(&format!(
                        "{{\"k\": {k}, \"x\": {x}, \"m\": {{\"p\": {i}}}}}\n"
                    )),
                }
            }
            match check(dir.path(), log.as_bytes(), &steps, number, where_) {
                Ok(on_stream) => folded += on_stream as usize,
                Err(e) => failures.push(format!(
                    "case {case}, steps {steps:?}, number {number}, where {where_}: {e}\n{log}"
                )),
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        // Most succeed on the stream (the others fail on both paths).
        assert!(folded > 90, "{folded} of 300 folded");
    }
}
