//! Numbers folded on a stream against the definition: the first bytes give
//! the number of steps (0-2), the number (`NUMBERS`) and whether it has a
//! `where`, the next bytes pick the steps from the streaming entries of
//! `artifact::tables::differential::MENU`, the rest is the JSONL log. The
//! number straight on the streamed table (a fold, its table never held)
//! must give the value, text, rows and uncertainty, or fail, as the same
//! number over the same steps applied to the whole log held in memory.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let n = (head % 3) as usize;
    let number = (head / 3) as usize;
    let where_ = head & 0x80 != 0;
    if rest.len() < n {
        return;
    }
    let (picks, log) = rest.split_at(n);
    let steps: Vec<usize> = picks.iter().map(|&b| b as usize).collect();
    let dir = tempfile::tempdir().expect("a temp dir");
    if let Err(e) = artifact::numbers::differential::check(dir.path(), log, &steps, number, where_) {
        panic!("steps {steps:?}, number {number}, where {where_}: {e}");
    }
});
