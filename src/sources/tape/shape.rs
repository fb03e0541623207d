//! The keys of the last map of one kind that the tape read, as written:
//! the maps of a log mostly have the same keys in the same order, so the
//! next map's keys are recognised by one comparison each.

use super::bytes::same;

/// A map's keys in order, each as written from its opening quote to its
/// colon (`"ratio":`, or `"ratio" :`), with what it maps to (a slot, an
/// entry id, or `u32::MAX`: not kept). Rebuilt in place from a map that
/// does not match it, so a log whose maps differ costs no allocation.
#[derive(Debug, Default)]
pub(super) struct Shape {
    bytes: Vec<u8>,
    /// (start, end) in `bytes`, the key's length, its value.
    keys: Vec<(u32, u32, u32, u32)>,
    /// What the values were made for (a `Fields` or a kept-keys list, by
    /// address): a shape is only used for the same.
    owner: usize,
}

impl Shape {
    /// Makes sure the shape is for `owner`, forgetting it otherwise.
    #[inline(always)]
    pub(super) fn own(&mut self, owner: usize) {
        if self.owner != owner {
            self.truncate(0);
            self.owner = owner;
        }
    }

    /// Key `k`, if `b[i..]` starts with it as written: the length written
    /// (through the colon), the key's length, its value.
    #[inline(always)]
    pub(super) fn at(&self, k: usize, b: &[u8], i: usize) -> Option<(usize, usize, u32)> {
        let &(start, end, len, value) = self.keys.get(k)?;
        let word = &self.bytes[start as usize..end as usize];
        same(b, i, word).then_some((word.len(), len as usize, value))
    }

    /// Keeps the first `k` keys.
    pub(super) fn truncate(&mut self, k: usize) {
        self.keys.truncate(k);
        let end = self.keys.last().map_or(0, |key| key.1 as usize);
        self.bytes.truncate(end);
    }

    /// Appends a key written as `word` (quote to colon), `len` bytes long.
    pub(super) fn push(&mut self, word: &[u8], len: usize, value: u32) {
        let start = self.bytes.len() as u32;
        self.bytes.extend_from_slice(word);
        self.keys
            .push((start, self.bytes.len() as u32, len as u32, value));
    }
}
