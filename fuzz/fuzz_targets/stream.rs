//! Streamed tables against the definition: the first byte gives the number
//! of steps (1-4), the next bytes pick them from
//! `artifact::tables::differential::MENU` (unique, lookup, limit,
//! row_number, explode, filters, derives, a group, a sort), the rest is the
//! JSONL log. The table streamed from the log (parallel stage, serial
//! stage, sink, rows trimmed to the fields read) must give the same rows,
//! values and origins, or the same error, as the same steps applied to the
//! whole log held in memory.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&n, rest)) = data.split_first() else {
        return;
    };
    let n = 1 + (n % 4) as usize;
    if rest.len() < n {
        return;
    }
    let (picks, log) = rest.split_at(n);
    let steps: Vec<usize> = picks.iter().map(|&b| b as usize).collect();
    let dir = tempfile::tempdir().expect("a temp dir");
    if let Err(e) = artifact::tables::differential::check(dir.path(), log, &steps) {
        panic!("steps {steps:?}: {e}");
    }
});
