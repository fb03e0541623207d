//! One record of a figure's `NAME.csv`, sized for layers of 10⁶ marks.
//!
//! A layer's records all start from the same cells (`panel`, `layer`,
//! `mark`, its constant channels): a record shares those (one `Arc`) and
//! owns only the cells its mark adds, with column names interned per
//! thread. A point of a 10⁶-point scatter so holds about 180 bytes, where
//! a map per record held about 730.

use std::cell::RefCell;
use std::sync::Arc;

/// A cell: column name and text.
type Cell = (Arc<str>, Arc<str>);

/// One CSV record: column -> text, in column order (a column inserted
/// again keeps its place and takes the new text, as an `IndexMap` does).
#[derive(Debug, Clone, Default)]
pub struct CsvRecord {
    /// Cells shared with the other records of the layer.
    shared: Arc<[Cell]>,
    /// The record's own cells: new columns, or new texts of shared ones.
    own: Vec<Cell>,
}

/// At most this many column names are interned per thread; past it a
/// name is allocated per record (a spec has far fewer columns).
const MAX_INTERNED: usize = 256;

thread_local! {
    static NAMES: RefCell<Vec<Arc<str>>> = const { RefCell::new(Vec::new()) };
}

/// The column name `name`, shared with every record that uses it.
fn intern(name: &str) -> Arc<str> {
    NAMES.with(|names| {
        let mut names = names.borrow_mut();
        if let Some(n) = names.iter().find(|n| &***n == name) {
            return n.clone();
        }
        let n: Arc<str> = name.into();
        if names.len() < MAX_INTERNED {
            names.push(n.clone());
        }
        n
    })
}

impl CsvRecord {
    /// An empty record.
    pub fn new() -> CsvRecord {
        CsvRecord::default()
    }

    /// A record starting from `base`'s cells (shared, not copied), with
    /// room for `own` cells of its own.
    pub fn on(base: &CsvRecord, own: usize) -> CsvRecord {
        let shared = if base.own.is_empty() {
            base.shared.clone()
        } else {
            base.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
        };
        CsvRecord {
            shared,
            own: Vec::with_capacity(own),
        }
    }

    /// The record with all its cells shared, so records made [`on`] it
    /// hold only their own cells.
    ///
    /// [`on`]: CsvRecord::on
    pub fn freeze(self) -> CsvRecord {
        CsvRecord::on(&self, 0)
    }

    /// Sets column `name` to `text`: in place if the record has it, else
    /// as the last column.
    pub fn insert(&mut self, name: &str, text: Arc<str>) {
        if let Some(cell) = self.own.iter_mut().find(|(k, _)| &**k == name) {
            cell.1 = text;
            return;
        }
        let name = match self.shared.iter().find(|(k, _)| &**k == name) {
            Some((k, _)) => k.clone(),
            None => intern(name),
        };
        self.own.push((name, text));
    }

    /// The text of column `name`, if the record has it.
    pub fn get(&self, name: &str) -> Option<&Arc<str>> {
        self.own
            .iter()
            .chain(self.shared.iter())
            .find(|(k, _)| &**k == name)
            .map(|(_, v)| v)
    }

    /// The number of columns.
    pub fn len(&self) -> usize {
        self.shared.len() + self.own.iter().filter(|(k, _)| !self.shares(k)).count()
    }

    /// Whether the record has no column.
    pub fn is_empty(&self) -> bool {
        self.shared.is_empty() && self.own.is_empty()
    }

    fn shares(&self, name: &str) -> bool {
        self.shared.iter().any(|(k, _)| &**k == name)
    }

    /// The cells in column order: the shared columns (with this record's
    /// text where it set one), then its own new columns.
    pub fn iter(&self) -> impl Iterator<Item = (&Arc<str>, &Arc<str>)> {
        let shared = self.shared.iter().map(|(k, v)| {
            let v = self.own.iter().find(|(o, _)| o == k).map_or(v, |(_, o)| o);
            (k, v)
        });
        let own = self
            .own
            .iter()
            .filter(|(k, _)| !self.shares(k))
            .map(|(k, v)| (k, v));
        shared.chain(own)
    }

    /// The column names in order.
    pub fn keys(&self) -> impl Iterator<Item = &Arc<str>> {
        self.iter().map(|(k, _)| k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(r: &CsvRecord) -> Vec<(String, String)> {
        r.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_record_on_a_base_keeps_the_order_an_indexmap_would() {
        let mut base = CsvRecord::new();
        base.insert("panel", "0".into());
        base.insert("mark", "point".into());
        base.insert("color", "#000".into());
        let base = base.freeze();
        let mut r = CsvRecord::on(&base, 3);
        r.insert("x", "1".into());
        r.insert("color", "#fff".into());
        r.insert("y", "2".into());
        r.insert("x", "3".into());
        assert_eq!(
            cells(&r),
            pairs(&[
                ("panel", "0"),
                ("mark", "point"),
                ("color", "#fff"),
                ("x", "3"),
                ("y", "2")
            ])
        );
        assert_eq!(r.len(), 5);
        assert_eq!(r.get("color").map(|v| &**v), Some("#fff"));
        assert_eq!(r.get("mark").map(|v| &**v), Some("point"));
        assert_eq!(r.get("size"), None);
        // The base is untouched and shared.
        assert_eq!(
            cells(&base),
            pairs(&[("panel", "0"), ("mark", "point"), ("color", "#000")])
        );
        assert!(Arc::ptr_eq(&r.shared, &base.shared));
    }

    #[test]
    fn a_record_on_an_unfrozen_base_copies_its_cells_in_order() {
        let mut base = CsvRecord::new();
        base.insert("a", "1".into());
        let mut mid = CsvRecord::on(&base.freeze(), 1);
        mid.insert("b", "2".into());
        mid.insert("a", "9".into());
        let mut r = CsvRecord::on(&mid, 1);
        r.insert("c", "3".into());
        assert_eq!(cells(&r), pairs(&[("a", "9"), ("b", "2"), ("c", "3")]));
    }

    #[test]
    fn column_names_are_shared_between_records() {
        let mut a = CsvRecord::new();
        a.insert("latency_ms", "1".into());
        let mut b = CsvRecord::new();
        b.insert("latency_ms", "2".into());
        assert!(Arc::ptr_eq(
            a.keys().next().unwrap(),
            b.keys().next().unwrap()
        ));
    }
}
