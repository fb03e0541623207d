//! The streamed path checked against the definition: a table streamed from
//! its source (parallel stage, serial stage, sink, fields trimmed to what
//! is read) must give the rows, values and errors that the same steps give
//! applied to the whole source held in memory ([`super::apply::apply`]).
//! Used by the unit tests below on generated logs and by the `stream` fuzz
//! target on any bytes.

use std::path::Path;

use super::Catalog;

/// The steps a recipe byte picks from (TOML inline tables), over logs whose
/// lines have a key `k`, numbers `x`, a map `m` and a list `l`.
pub const MENU: [&str; 16] = [
    r#"{ filter = "x is number and x > 2" }"#,
    r#"{ derive = { y = "x * 2 if x is number else 0" } }"#,
    r#"{ unique = "k", keep = "first" }"#,
    r#"{ unique = "k" }"#,
    r#"{ lookup = "small", on = "k", fields = ["label"], unmatched = "keep" }"#,
    r#"{ lookup = "small", on = "k", as = "s" }"#,
    r#"{ lookup = "small", on = "k", unmatched = "error" }"#,
    r#"{ limit = 2, per = "k" }"#,
    r#"{ row_number = "r", per = "k" }"#,
    r#"{ explode = "m", key = "mk", value = "mv" }"#,
    r#"{ require = "k is defined" }"#,
    r#"{ group = "k", aggregate = { n = "count", sx = { sum = "x" } } }"#,
    r#"{ sort = ["k", "x"] }"#,
    r#"{ limit = 3 }"#,
    r#"{ filter = "mv is number and mv > 0" }"#,
    r#"{ derive = { x = "x + 1" } }"#,
];

/// The fields compared (every one a step of [`MENU`] reads or makes).
const FIELDS: [&str; 12] = [
    "k", "x", "y", "label", "s", "r", "mk", "mv", "n", "sx", "m", "l",
];

/// The spec of a check: `steps` on the stream (`a`) and on the whole source
/// (`b`), each read by a number so that its fields are read after it.
pub fn spec_text(steps: &[usize]) -> String {
    let list: Vec<&str> = steps.iter().map(|&i| MENU[i % MENU.len()]).collect();
    let list = list.join(", ");
    let reads = FIELDS.join(" ~ ");
    format!(
        r#"[sources.s]
path = "s.jsonl"

[sources.small]
rows = [{{ k = 1, label = "one" }}, {{ k = 2, label = "two" }}, {{ k = "a", label = "A" }}]

[tables.whole]
from = "s"

[tables.a]
from = "s"
steps = [{list}]

[tables.b]
from = "whole"
steps = [{list}]

[numbers.na]
table = "a"
where = "{reads}"
value = "count"

[numbers.nb]
table = "b"
where = "{reads}"
value = "count"
"#
    )
}

/// Writes `log` as `s.jsonl` in `dir` and checks that table `a` (streamed)
/// and table `b` (the same steps on the whole source) agree: the same
/// rows, field by field (for [`FIELDS`]), with the same origins, or both
/// an error. `Err` describes the first difference.
pub fn check(dir: &Path, log: &[u8], steps: &[usize]) -> Result<(), String> {
    std::fs::write(dir.join("s.jsonl"), log).map_err(|e| e.to_string())?;
    let text = spec_text(steps);
    let spec = crate::spec::parse(&text, &dir.join("artifact.toml")).map_err(|e| e.to_string())?;
    let plan = crate::plan::Plan::compile(&spec).map_err(|e| e.to_string())?;
    let cat = Catalog::new(&plan).map_err(|e| e.to_string())?.trimming();
    let a = cat.table("a");
    let b = cat.table("b");
    match (a, b) {
        (Ok(a), Ok(b)) => {
            if a.rows.len() != b.rows.len() {
                return Err(format!(
                    "{} rows streamed, {} whole",
                    a.rows.len(),
                    b.rows.len()
                ));
            }
            for (i, (ra, rb)) in a.rows.iter().zip(&b.rows).enumerate() {
                if ra.origin.to_string() != rb.origin.to_string() {
                    return Err(format!(
                        "row {i}: from {} streamed, {} whole",
                        ra.origin, rb.origin
                    ));
                }
                for f in FIELDS {
                    let (va, vb) = (ra.get(f), rb.get(f));
                    let show = |v: Option<&crate::value::Value>| v.map(crate::value::show);
                    if show(va) != show(vb) {
                        return Err(format!(
                            "row {i} ({}): `{f}` is {:?} streamed, {:?} whole",
                            ra.origin,
                            show(va),
                            show(vb)
                        ));
                    }
                }
            }
            Ok(())
        }
        // Both fail. Which error comes first may differ when a log holds
        // several: the stream meets them in file order (a row goes through
        // every step before the next row), the whole table in step order.
        (Err(_), Err(_)) => Ok(()),
        (Ok(a), Err(e)) => Err(format!(
            "streamed gave {} rows, whole failed: {e}",
            a.rows.len()
        )),
        (Err(e), Ok(b)) => Err(format!(
            "whole gave {} rows, streamed failed: {e}",
            b.rows.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SplitMix64, and picks from it.
    struct Rng(crate::stats::SplitMix64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0.next_u64()
        }
        fn pick<'a>(&mut self, of: &[&'a str]) -> &'a str {
            of[(self.next() % of.len() as u64) as usize]
        }
    }

    fn log(rng: &mut Rng, lines: usize) -> String {
        let mut out = String::new();
        for _ in 0..lines {
            let k = rng.pick(&["1", "2", "\"a\"", "null", "1.0", "3"]);
            let x = rng.pick(&["0", "1", "2.5", "3", "7", "null", "\"s\""]);
            let m = rng.pick(&["{\"p\": 1, \"q\": -2}", "{}", "{\"p\": 5}", "[1, 2]", "3"]);
            match rng.next() % 12 {
                0 => out.push_str(&format!("{{\"x\": {x}, \"m\": {m}}}\n")),
                _ => out.push_str(&format!(
                    "{{\"k\": {k}, \"x\": {x}, \"m\": {m}, \"l\": [1]}}\n"
                )),
            }
        }
        out
    }

    #[test]
    fn streamed_tables_agree_with_the_whole_source() {
        let dir = tempfile::tempdir().unwrap();
        let mut rng = Rng(crate::stats::SplitMix64(14));
        let mut failures = Vec::new();
        for case in 0..400 {
            let n = 1 + (rng.next() % 4) as usize;
            let steps: Vec<usize> = (0..n)
                .map(|_| (rng.next() % MENU.len() as u64) as usize)
                .collect();
            let lines = 1 + (rng.next() % 40) as usize;
            let text = log(&mut rng, lines);
            if let Err(e) = check(dir.path(), text.as_bytes(), &steps) {
                failures.push(format!("case {case}, steps {steps:?}: {e}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// A sort then a limit on a stream keeps `limit` rows a group (TopK)
    /// and gives the rows and order the whole table gives: the first rows
    /// of each group in sorted order, ties in arrival order.
    #[test]
    fn sort_then_limit_on_a_stream_keeps_the_first_rows_of_each_group() {
        let dir = tempfile::tempdir().unwrap();
        let mut rng = Rng(crate::stats::SplitMix64(1414));
        for steps in [
            &[12, 7][..],
            &[12, 13],
            &[0, 12, 7],
            &[2, 12, 13],
            &[1, 12, 7, 8],
        ] {
            for case in 0..40 {
                let lines = 1 + (rng.next() % 40) as usize;
                let text = log(&mut rng, lines);
                if let Err(e) = check(dir.path(), text.as_bytes(), steps) {
                    panic!("case {case}, steps {steps:?}: {e}");
                }
            }
        }
    }
}
