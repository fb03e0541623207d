//! Number families folded on a stream against the definition: the first
//! byte gives the number of steps (0-2) and whether the family has a
//! `where`, the second the family (`FAMILIES`) and the third the number
//! (`NUMBERS`), the next bytes pick the steps from the streaming entries
//! of `artifact::tables::differential::MENU`, the rest is the JSONL log.
//! The family folded on its table's stream (one group step keyed by its
//! `per` fields or, a member per row, by the fields its templates read)
//! must give the members, notes and errors of the same family over the
//! table's rows held in memory.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [head, family, number, rest @ ..] = data else {
        return;
    };
    let n = (head % 3) as usize;
    let where_ = head & 0x80 != 0;
    if rest.len() < n {
        return;
    }
    let (picks, log) = rest.split_at(n);
    let steps: Vec<usize> = picks.iter().map(|&b| b as usize).collect();
    let dir = tempfile::tempdir().expect("a temp dir");
    let pick = (*family as usize, *number as usize);
    if let Err(e) = artifact::numbers::differential::check_family(dir.path(), log, &steps, pick, where_) {
        panic!("steps {steps:?}, family {family}, number {number}, where {where_}: {e}");
    }
});
