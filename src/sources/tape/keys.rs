//! The repeat check of an object's keys (a key repeated in one object is
//! an error of the full parser, kept or skipped): a 64-bit filter, and a
//! hash set for objects of many keys, so the check stays linear.

use super::bytes::key_bit;

/// Reading one object's keys: how many came in the shape's order, and the
/// repeat filter once they stop doing so.
#[derive(Debug)]
pub(super) struct Keys<'a> {
    pub(super) matched: usize,
    pub(super) on_shape: bool,
    /// The repeat check, once the keys stop following the shape.
    pub(super) rep: Repeats<'a>,
}

impl Default for Keys<'_> {
    fn default() -> Self {
        Keys {
            matched: 0,
            on_shape: true,
            rep: Repeats::default(),
        }
    }
}

/// Past this many keys in one object, repeats are confirmed with a hash
/// set: the 64-bit filter is then full, and each key would be compared
/// with every key before it (a line of a million keys took minutes).
const MANY: usize = 32;

/// The repeat check of one object's keys: most keys are told apart by a
/// 64-bit filter on length and end bytes, without comparing; a filter hit
/// is confirmed by comparing with the keys so far, or, past [`MANY`] keys,
/// by a hash set that takes each key once (filled lazily, so an object of
/// ordinary size never builds one).
#[derive(Debug, Default)]
pub(super) struct Repeats<'a> {
    bits: u64,
    set: Option<Box<rustc_hash::FxHashSet<&'a str>>>,
    /// How many of the object's keys the set holds.
    synced: usize,
}

impl<'a> Repeats<'a> {
    /// Whether `key` repeats one of `seen` (the object's keys so far, all
    /// distinct, each named by `name`); the caller then adds it to `seen`.
    #[inline(always)]
    pub(super) fn hit<T>(
        &mut self,
        key: &'a str,
        seen: &[T],
        name: impl Fn(&T) -> &'a str,
    ) -> bool {
        let bit = key_bit(key);
        let maybe = self.bits & bit != 0;
        self.bits |= bit;
        maybe && self.confirm(key, seen, name)
    }

    /// Adds `seen`'s keys to the filter (the keys read before the check
    /// started: a shape's, known distinct).
    pub(super) fn add(&mut self, seen: &[&'a str]) {
        self.bits = seen.iter().fold(self.bits, |bits, k| bits | key_bit(k));
    }

    fn confirm<T>(&mut self, key: &'a str, seen: &[T], name: impl Fn(&T) -> &'a str) -> bool {
        if seen.len() < MANY {
            return seen.iter().any(|t| name(t) == key);
        }
        let set = self.set.get_or_insert_with(Default::default);
        set.extend(seen[self.synced..].iter().map(name));
        self.synced = seen.len();
        set.contains(key)
    }
}
