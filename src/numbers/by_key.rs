//! Where each number of a list is, by key.
//!
//! A number's sources, and the keys of numbers, figures and results
//! tables, read the numbers they quote out of the numbers computed before
//! them; reading the whole list for each was quadratic in the numbers
//! (10⁴ numbers: 10⁸ comparisons). [`ByKey`] finds each in O(1).

use std::collections::HashMap;

use super::Number;

/// The position of each number of a list by its key (keys are unique in
/// a list of computed numbers: a family's member whose key another number
/// has is an error). Built once for a list and grown with it
/// ([`ByKey::grow`]); it answers for the list or any prefix of it.
#[derive(Debug, Clone, Default)]
pub struct ByKey {
    at: HashMap<String, usize>,
    len: usize,
}

impl ByKey {
    /// The index of `list`.
    pub fn of(list: &[Number]) -> ByKey {
        let mut by_key = ByKey::default();
        by_key.grow(list);
        by_key
    }

    /// Adds the numbers of `list` past those indexed so far: `list` is the
    /// list indexed before, grown at its end.
    pub fn grow(&mut self, list: &[Number]) {
        for (i, n) in list.iter().enumerate().skip(self.len) {
            self.at.insert(n.key.clone(), i);
        }
        self.len = self.len.max(list.len());
    }

    /// `list` (the indexed list or a prefix of it) with this index.
    pub fn over<'a>(&'a self, list: &'a [Number]) -> Earlier<'a> {
        Earlier { list, by_key: self }
    }

    /// The number with key `key` in `list` (the indexed list or a prefix
    /// of it), if it has one. Numbers of `list` past those indexed (it
    /// grew since) are read one by one.
    pub fn get<'n>(&self, list: &'n [Number], key: &str) -> Option<&'n Number> {
        if let Some(n) = list
            .get(self.len..)
            .and_then(|new| new.iter().rev().find(|n| n.key == key))
        {
            return Some(n);
        }
        let i = *self.at.get(key)?;
        list.get(i).filter(|n| n.key == key)
    }
}

/// The numbers computed before one, with their index: what a number's
/// sources and key read the numbers it quotes from.
#[derive(Debug, Clone, Copy)]
pub struct Earlier<'a> {
    /// The numbers, in the order computed.
    pub list: &'a [Number],
    /// Their index (of `list` or of a list `list` is a prefix of).
    pub by_key: &'a ByKey,
}

impl<'a> Earlier<'a> {
    /// The number with key `key`, if computed before.
    pub fn get(&self, key: &str) -> Option<&'a Number> {
        self.by_key.get(self.list, key)
    }

    /// The first `len` numbers (at most all), with the same index.
    pub fn prefix(&self, len: usize) -> Earlier<'a> {
        Earlier {
            list: &self.list[..len.min(self.list.len())],
            by_key: self.by_key,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(key: &str) -> Number {
        Number {
            key: key.into(),
            value: crate::value::Value::from(1),
            text: "1".into(),
            uncertainty: None,
            parts: None,
            description: None,
            table: None,
            rows: 0,
            sources: Default::default(),
            family: None,
        }
    }

    #[test]
    fn a_prefix_and_a_grown_list_are_answered() {
        let mut list: Vec<Number> = ["a", "b", "c"].map(number).into();
        let mut by_key = ByKey::of(&list);
        let all = by_key.over(&list);
        assert_eq!(all.get("c").map(|n| n.key.as_str()), Some("c"));
        // A prefix does not see the numbers after it.
        assert!(all.prefix(2).get("c").is_none());
        assert!(all.prefix(2).get("b").is_some());
        // Numbers added since the index was built are found too, and once
        // it grows, through the index.
        list.push(number("d"));
        assert!(by_key.over(&list).get("d").is_some());
        by_key.grow(&list);
        assert_eq!(by_key.at.len(), 4);
        assert!(by_key.over(&list).get("d").is_some());
        assert!(by_key.over(&list).get("e").is_none());
    }
}
