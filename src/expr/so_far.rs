//! The numbers computed so far (`n` and `v`), shared by every context made
//! while they are computed.
//!
//! Each number is computed with the numbers before it in view, so the
//! globals are copied once per number: with a whole map per copy, 10⁴
//! numbers took 10⁸ copied entries. A [`SoFar`] is a view of the first
//! `len` entries of a map its copies share: copying it is O(1), and adding
//! a key at the end, as computing numbers does, is O(1) too.

use std::sync::{Arc, RwLock, RwLockReadGuard};

use minijinja::value::{Enumerator, Object, ObjectRepr};

use crate::value::{FieldMap, Value};

/// An insertion-ordered map of key to value whose copies share their
/// entries: a copy sees the entries there were when it was made, whatever
/// is added later through another copy.
#[derive(Debug, Clone, Default)]
pub struct SoFar {
    /// The entries of this copy and of the copies made from it or before
    /// it, which may have added more.
    shared: Arc<RwLock<FieldMap>>,
    /// How many of `shared`'s first entries this copy sees.
    len: usize,
}

impl SoFar {
    fn entries(&self) -> RwLockReadGuard<'_, FieldMap> {
        // A panic while holding the lock leaves the entries as they were
        // (each write is one insert), so a poisoned lock is read as is.
        self.shared.read().unwrap_or_else(|e| e.into_inner())
    }

    /// The value of `key`, if this copy has it.
    pub fn get(&self, key: &str) -> Option<Value> {
        let entries = self.entries();
        let (i, _, v) = entries.get_full(key)?;
        (i < self.len).then(|| v.clone())
    }

    /// The keys this copy has, in the order they were added.
    pub fn keys(&self) -> Vec<Arc<str>> {
        self.entries().keys().take(self.len).cloned().collect()
    }

    /// How many entries this copy has.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether this copy has no entry.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Sets `key` to `value` in this copy only, keeping the position of a
    /// key it has. O(1) when the key is new and no other copy added
    /// entries since this one's last; else this copy's entries are copied
    /// first, so the other copies see nothing of it.
    pub fn insert(&mut self, key: impl Into<Arc<str>>, value: Value) {
        let key = key.into();
        // Alone on the map (no copy can be made meanwhile: this is the
        // only handle), entries past `len`, added by copies since dropped,
        // are nobody's.
        let sole = Arc::strong_count(&self.shared) == 1;
        {
            let mut entries = self.shared.write().unwrap_or_else(|e| e.into_inner());
            if sole {
                entries.truncate(self.len);
            }
            if sole || entries.len() == self.len && !entries.contains_key(&*key) {
                entries.insert(key, value);
                self.len = entries.len();
                return;
            }
        }
        let mut mine: FieldMap = self
            .entries()
            .iter()
            .take(self.len)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        mine.insert(key, value);
        self.len = mine.len();
        self.shared = Arc::new(RwLock::new(mine));
    }
}

impl Object for SoFar {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Map
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        self.get(key.as_str()?)
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<Value> {
        self.get(key)
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Values(self.keys().into_iter().map(|k| Value::from(&*k)).collect())
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_sees_the_entries_it_had_when_made() {
        let mut a = SoFar::default();
        a.insert("x", Value::from(1));
        let before = a.clone();
        a.insert("y", Value::from(2));
        assert_eq!(before.get("y"), None);
        assert_eq!(before.keys().len(), 1);
        assert_eq!(a.get("y"), Some(Value::from(2)));
        // The older copy adds its own `z`: `a` does not see it, and the
        // copy does not see `a`'s `y`.
        let mut b = before.clone();
        b.insert("z", Value::from(3));
        assert_eq!(a.get("z"), None);
        assert_eq!(b.get("y"), None);
        assert_eq!(&*b.keys()[1], "z");
        // Replacing a value others see leaves theirs as it was.
        let seen = a.clone();
        a.insert("x", Value::from(10));
        assert_eq!(seen.get("x"), Some(Value::from(1)));
        assert_eq!(a.get("x"), Some(Value::from(10)));
        assert_eq!(&*a.keys()[0], "x");
    }

    /// Adding at the end shares the entries: no copy of the map per key.
    #[test]
    fn appending_shares_the_entries() {
        let mut a = SoFar::default();
        let mut copies = Vec::new();
        for i in 0..100 {
            copies.push(a.clone());
            a.insert(format!("k{i}"), Value::from(i));
        }
        assert!(copies.iter().all(|c| Arc::ptr_eq(&c.shared, &a.shared)));
        assert_eq!(copies[40].len(), 40);
        assert_eq!(copies[40].get("k39"), Some(Value::from(39)));
        assert_eq!(copies[40].get("k40"), None);
    }
}
