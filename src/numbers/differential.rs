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

/// What a recipe picks: the steps (of [`STREAMING`]) as a TOML list, the
/// number's value (of [`NUMBERS`]) and its `where` line, if any.
fn picks(steps: &[usize], number: usize, where_: bool) -> (String, &'static str, &'static str) {
    let list: Vec<&str> = steps
        .iter()
        .map(|&i| MENU[STREAMING[i % STREAMING.len()]])
        .collect();
    let w = match where_ {
        true => "where = \"x is number and x > 1\"\n",
        false => "",
    };
    (list.join(", "), NUMBERS[number % NUMBERS.len()], w)
}

/// The spec of a check: the steps (of [`STREAMING`]) on the stream in
/// table `a`, which only number `fa` reads (a fold), and on the whole
/// source in table `b`, read by number `fb` (held rows).
pub fn spec_text(steps: &[usize], number: usize, where_: bool) -> String {
    let (list, n, w) = picks(steps, number, where_);
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

/// The families a recipe byte picks from (`each`, `per`, `description`),
/// over the rows the steps give: a member per group of `k`, a member per
/// row keyed by a record's field, a key of a float (`x-2.5` is no key),
/// a description reading what `per` leaves out (an error), keys that
/// collide.
pub const FAMILIES: [&str; 7] = [
    r#"each = "k{{ k }}"
per = ["k"]"#,
    r#"each = "r{{ m.p }}"
description = "row {{ m.p }} of {{ k }}""#,
    r#"each = "x-{{ x }}""#,
    r#"each = "g{{ k }}"
per = "k"
description = "group {{ k }}""#,
    r#"each = "h{{ k }}"
per = "k"
description = "{{ k }}: {{ x }}""#,
    r#"each = "p{{ m.p % 3 }}""#,
    r#"each = "kx{{ k }}-{{ x | int }}"
per = ["k", "x"]"#,
];

/// The spec of a family check: the steps (of [`STREAMING`]) in table `t`
/// over source `s`, read by family `fam`.
pub fn family_spec_text(steps: &[usize], family: usize, number: usize, where_: bool) -> String {
    let (list, n, w) = picks(steps, number, where_);
    let fam = FAMILIES[family % FAMILIES.len()];
    format!(
        r#"[sources.s]
path = "s.jsonl"

[sources.small]
rows = [{{ k = 1, label = "one" }}, {{ k = 2, label = "two" }}, {{ k = "a", label = "A" }}]

[tables.t]
from = "s"
steps = [{list}]

[numbers.fam]
table = "t"
{fam}
{w}{n}
"#
    )
}

/// Writes `log` as `s.jsonl` in `dir` and checks that family `fam` folded
/// on the stream and the same family over held rows (its plan without its
/// fold: as it was computed before families folded) give the same members
/// (every field: key, value, text, uncertainty, description, rows,
/// sources), notes and errors. `Ok(true)` when the family's members were
/// computed on the stream; `Err` describes the difference.
pub fn check_family(
    dir: &Path,
    log: &[u8],
    steps: &[usize],
    (family, number): (usize, usize),
    where_: bool,
) -> Result<bool, String> {
    std::fs::write(dir.join("s.jsonl"), log).map_err(|e| e.to_string())?;
    let run = |held: bool| -> Result<(String, bool), String> {
        let text = family_spec_text(steps, family, number, where_);
        let spec =
            crate::spec::parse(&text, &dir.join("artifact.toml")).map_err(|e| e.to_string())?;
        let mut plan = crate::plan::Plan::compile(&spec).map_err(|e| e.to_string())?;
        // Held: computed as before families folded.
        if held && let Some(n) = plan.numbers.get_mut("fam") {
            n.fold = None;
        }
        let cat = Catalog::new(&plan).map_err(|e| e.to_string())?.trimming();
        let (numbers, _) = super::compute(&spec, &cat, &|_, _| None);
        // (Up to a row's fields: in a test process they are read again
        // from the first file of the name registered by any test.)
        let errors: Vec<String> = numbers
            .errors
            .iter()
            .map(|e| {
                let e = e.to_string();
                e.split(" (fields: ").next().unwrap_or_default().to_string()
            })
            .collect();
        let told = format!(
            "{:#?}\nerrors {errors:#?}\nnotes {:?} {:?}\nskipped {:?}",
            numbers.list,
            numbers.notes,
            cat.notes(),
            numbers.skipped
        );
        let folded =
            plan.numbers["fam"].fold.is_some() && !cat.is_built("t") && !numbers.list.is_empty();
        Ok((told, folded))
    };
    let (folded, on_stream) = run(false)?;
    let (held, _) = run(true)?;
    match folded == held {
        true => Ok(on_stream),
        false => Err(format!("folded:\n{folded}\nheld:\n{held}")),
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

    /// A log of `lines` generated records (`k`, `x`, and `m.p` its line
    /// number; one in ten lacks `k`).
    fn log_of(next: &mut dyn FnMut() -> u64, lines: usize) -> String {
        let mut log = String::new();
        for i in 0..lines {
            let x =
                ["0", "1", "2.5", "3", "7", "-4", "1e3", "null", "\"s\""][(next() % 9) as usize];
            let k = ["1", "2", "\"a\"", "3"][(next() % 4) as usize];
            match next() % 10 {
                0 => log.push_str(&format!("{{\"x\": {x}, \"m\": {{\"p\": {i}}}}}\n")),
                _ => log.push_str(&format!(
                    "{{\"k\": {k}, \"x\": {x}, \"m\": {{\"p\": {i}}}}}\n"
                )),
            }
        }
        log
    }

    #[test]
    fn folded_families_give_the_members_and_errors_of_families_over_held_rows() {
        let dir = tempfile::tempdir().unwrap();
        let mut rng = crate::stats::SplitMix64(2028);
        let mut failures = Vec::new();
        let mut by_family = [0; FAMILIES.len()];
        for case in 0..280 {
            let mut next = || rng.next_u64();
            let n = (next() % 3) as usize;
            let steps: Vec<usize> = (0..n).map(|_| next() as usize).collect();
            let family = case % FAMILIES.len();
            let number = next() as usize;
            let where_ = next() % 2 == 0;
            let lines = (next() % 30) as usize;
            let log = log_of(&mut next, lines);
            // (A folder per case: a message listing a row's fields reads
            // its line again, and the file is cached by name.)
            let case_dir = dir.path().join(format!("case{case}"));
            std::fs::create_dir(&case_dir).unwrap();
            match check_family(&case_dir, log.as_bytes(), &steps, (family, number), where_) {
                Ok(on_stream) => by_family[family] += on_stream as usize,
                Err(e) => failures.push(format!(
                    "case {case}, steps {steps:?}, family {family}, number {number}, where {where_}: {e}\n{log}"
                )),
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        // Most give their members on the stream (the others fail or are
        // left to the held rows on both paths).
        let folded: usize = by_family.iter().sum();
        assert!(
            by_family[0] > 0 && by_family[1] > 0 && by_family[3] > 0 && folded > 20,
            "{by_family:?} of 40 each folded"
        );
    }
}
