//! The set of key hashes a streamed `unique` remembers (see
//! [`super::serial`]): 96 bits of each key's SipHash with the key's
//! ordinal (the order keys were first seen in), 16 bytes a key.
//!
//! Why not a general hash map: with millions of keys the set is far larger
//! than the caches, so nearly every probe misses them. hashbrown keeps its
//! control bytes apart from its slots (two misses a probe) and cannot fetch
//! a key's place ahead of time. This is a bucketed cuckoo table: a key
//! lives in one of two buckets of four slots, each bucket one cache line,
//! both known from the hash alone, so a probe reads at most two lines and
//! the file-order stage, which knows the hashes of a batch's keys before it
//! reaches them (the workers compute them), fetches both lines a few keys
//! ahead ([`Seen::prefetch`]). Two choices of four slots hold a table 90%
//! full with rare moves (Fan et al., "Cuckoo Filter", CoNEXT 2014; Erlingsson
//! et al., "A cool and practical alternative to traditional hash tables",
//! 2006), where linear probing at that load reads tens of slots for a new
//! key.

/// A slot: the hash's three words and the key's ordinal ([`EMPTY`]: free).
type Slot = [u32; 4];

/// The ordinal of a free slot (no key has it: ordinals stop below it).
const EMPTY: u32 = u32::MAX;

/// Four slots, one cache line.
#[derive(Debug, Clone, Copy)]
#[repr(align(64))]
struct Bucket([Slot; 4]);

const FREE: Bucket = Bucket([[0, 0, 0, EMPTY]; 4]);

/// Buckets of a fresh set (grown by doubling).
const FIRST: usize = 1 << 8;

/// Moves tried before the table grows instead.
const MAX_MOVES: usize = 500;

/// Hashes of keys seen, each with its ordinal. At most 90% full: 16 bytes
/// a slot, so 18 to 36 bytes a key (its slot and the slack of a table
/// sized in powers of two).
#[derive(Debug, Default)]
pub struct Seen {
    buckets: Vec<Bucket>,
    len: u32,
    /// Moves made: which slot the next takes is drawn from it (the same
    /// moves, and so the same table, on every run).
    turn: usize,
}

impl Seen {
    /// Keys remembered.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether no key is remembered.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The two buckets of `h` (from its own bits: SipHash output is
    /// uniform already; rarely one bucket twice). Each is the hash's bits
    /// under the mask, so doubling the table sends a key in bucket `i` to
    /// `i` or `i` + the old size ([`Seen::grow`]).
    #[inline(always)]
    fn homes(&self, h: &[u32; 3]) -> (usize, usize) {
        homes(h, self.buckets.len() - 1)
    }

    /// Asks the processor for `h`'s two buckets now, so that
    /// [`Seen::insert`] finds them in the cache (a hint: nothing changes
    /// if it is not taken).
    #[inline(always)]
    pub fn prefetch(&self, h: &[u32; 3]) {
        if self.buckets.is_empty() {
            return;
        }
        let (a, b) = self.homes(h);
        for _line in [&self.buckets[a] as *const Bucket, &self.buckets[b]] {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a prefetch reads nothing the program sees and never
            // faults; the address is that of a bucket in the vector.
            unsafe {
                use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
                _mm_prefetch::<_MM_HINT_T0>(_line.cast());
            }
        }
    }

    /// The ordinal of the key hashed `h` and whether it is new: a new key
    /// takes the next ordinal. `None` once 2³² − 2 keys are remembered
    /// (64 GiB of slots: memory runs out first on any machine we know), or
    /// when keys crowd two buckets that no size of table tells apart (nine
    /// hashes sharing 80 bits: not met by chance; the set is then spoilt).
    pub fn insert(&mut self, h: [u32; 3]) -> Option<(u32, bool)> {
        if !self.buckets.is_empty() {
            let (a, b) = self.homes(&h);
            for i in [a, b] {
                for s in &self.buckets[i].0 {
                    if s[3] != EMPTY && s[..3] == h {
                        return Some((s[3], false));
                    }
                }
            }
        }
        if self.len == EMPTY - 1 {
            return None;
        }
        // (Grown at 90% full: 4 × 0.9 = 3.6 keys a bucket.)
        if (self.len as usize + 1) * 10 > self.buckets.len() * 4 * 9 {
            self.grow();
        }
        let ordinal = self.len;
        self.len += 1;
        self.place([h[0], h[1], h[2], ordinal])?;
        Some((ordinal, true))
    }

    /// Puts `slot` (a key not in the table) in one of its buckets, moving
    /// keys to their other bucket to make room, growing the table when
    /// that takes too long; `None` (a key lost) when the table is already
    /// an eighth full or less, where more room would not help.
    fn place(&mut self, mut slot: Slot) -> Option<()> {
        loop {
            for _ in 0..MAX_MOVES {
                let (a, b) = self.homes(&[slot[0], slot[1], slot[2]]);
                for i in [a, b] {
                    if let Some(free) = self.buckets[i].0.iter_mut().find(|s| s[3] == EMPTY) {
                        *free = slot;
                        return Some(());
                    }
                }
                // Both full: take a slot of one of them for this key, and
                // place the key that held it next, in its other bucket.
                self.turn = self.turn.wrapping_add(1);
                let r = (self.turn as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 61;
                let i = if r & 4 == 0 { a } else { b };
                slot = std::mem::replace(&mut self.buckets[i].0[r as usize & 3], slot);
            }
            // Moves tried too long (a rare cycle of buckets): more room,
            // unless room is not what is missing.
            if (self.len as usize) * 8 <= self.buckets.len() * 4 {
                return None;
            }
            self.grow();
        }
    }

    /// Doubles the buckets (or makes the first). A key in old bucket `i`
    /// goes to `i` or `i` + the old size (the same home under the wider
    /// mask), and no other old bucket sends keys there: one pass in order
    /// over both tables, every key fitting, none moved.
    fn grow(&mut self) {
        let size = (self.buckets.len() * 2).max(FIRST);
        let old = std::mem::replace(&mut self.buckets, vec![FREE; size]);
        let (was, mask) = (old.len().wrapping_sub(1), size - 1);
        for (i, b) in old.iter().enumerate() {
            // Slots taken so far in bucket `i` and in `i` + the old size.
            let mut fill = [0usize; 2];
            for s in b.0.iter().filter(|s| s[3] != EMPTY) {
                let h = [s[0], s[1], s[2]];
                let (new_one, new_other) = homes(&h, mask);
                let to = if homes(&h, was).0 == i {
                    new_one
                } else {
                    new_other
                };
                let k = usize::from(to != i);
                self.buckets[to].0[fill[k]] = *s;
                fill[k] += 1;
            }
        }
    }
}

/// The two buckets of `h` in a table of `mask` + 1 buckets.
#[inline(always)]
fn homes(h: &[u32; 3], mask: usize) -> (usize, usize) {
    (
        h[0] as usize & mask,
        (h[1] as usize ^ (h[2] as usize).rotate_left(16)) & mask,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic stream of hashes (splitmix64).
    fn hashes(n: usize, seed: u64) -> Vec<[u32; 3]> {
        let mut rng = crate::stats::SplitMix64(seed);
        let mut next = || rng.next_u64();
        (0..n)
            .map(|_| {
                let (a, b) = (next(), next());
                [a as u32, (a >> 32) as u32, b as u32]
            })
            .collect()
    }

    #[test]
    fn ordinals_follow_first_sight_across_growth() {
        let keys = hashes(200_000, 7);
        let mut seen = Seen::default();
        let mut model = std::collections::HashMap::new();
        // Each key twice, the repeats interleaved with later new keys.
        for (i, k) in keys.iter().enumerate() {
            let n = model.len() as u32;
            let want = *model.entry(*k).or_insert(n);
            assert_eq!(seen.insert(*k), Some((want, want == n)), "key {i}");
            if i >= 3 {
                let back = keys[i - 3];
                seen.prefetch(&back);
                assert_eq!(seen.insert(back), Some((model[&back], false)));
            }
        }
        assert_eq!(seen.len(), 200_000);
        // Every key once, in its slot, and the table at most 90% full.
        let slots: Vec<Slot> = seen.buckets.iter().flat_map(|b| b.0).collect();
        assert_eq!(slots.iter().filter(|s| s[3] != EMPTY).count(), 200_000);
        assert!(slots.len() * 9 >= 200_000 * 10);
    }

    #[test]
    fn keys_sharing_both_buckets_are_told_apart() {
        // The same two buckets at every size (the third word apart only in
        // bits the second bucket never reads below 2^44 buckets): eight
        // fill them, and are found again.
        let mut seen = Seen::default();
        for w in 0..8u32 {
            assert_eq!(seen.insert([5, 9, w << 28]), Some((w, true)));
        }
        for w in 0..8u32 {
            assert_eq!(seen.insert([5, 9, w << 28]), Some((w, false)));
        }
        assert_eq!(seen.len(), 8);
        // A ninth has no room that a bigger table would give: refused, not
        // grown without end.
        assert_eq!(seen.insert([5, 9, 8 << 28]), None);
        assert_eq!(seen.buckets.len(), FIRST);
        // And keys that share one bucket only.
        let mut one = Seen::default();
        for w in 0..100u32 {
            assert_eq!(one.insert([3, w, w]), Some((w, true)));
        }
        assert_eq!(one.insert([3, 42, 42]), Some((42, false)));
        assert_eq!(one.insert([3, 42, 43]), Some((100, true)));
    }
}
