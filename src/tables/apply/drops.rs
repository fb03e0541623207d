//! The drop log: rows that filters dropped (and derives that gave
//! nothing), counted per cause and turned into notes.

use indexmap::IndexMap;

/// Rows that filters dropped because a field they read was null, NaN,
/// infinite or 0: (filter text, the `and` term that dropped them or "",
/// field, why) -> how many and where.
pub type DropLog = IndexMap<DropCause, Dropped>;

/// A [`DropLog`] key: (filter text, term or "", field, why).
pub type DropCause = (String, String, String, &'static str);

/// The cause of a [`DropLog`] entry for a derive that gave no value (the
/// entry's text is the expression, its field the derived field).
pub const DERIVED_NOTHING: &str = "derived nothing";

/// How many rows one cause dropped, and where the first few were (memory
/// stays bounded however many rows a filter drops).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Dropped {
    /// Rows dropped.
    pub count: u64,
    /// `file:line` of the first [`Dropped::SHOWN`].
    pub at: Vec<String>,
}

impl Dropped {
    /// Places named in a report.
    pub const SHOWN: usize = 5;

    /// Counts one more row, dropped at `origin`.
    pub fn add(&mut self, origin: impl FnOnce() -> String) {
        self.count += 1;
        if self.at.len() < Self::SHOWN {
            self.at.push(origin());
        }
    }

    /// Adds the drops of a later batch.
    pub fn merge(&mut self, later: Dropped) {
        self.count += later.count;
        let room = Self::SHOWN.saturating_sub(self.at.len());
        self.at.extend(later.at.into_iter().take(room));
    }
}

/// A [`DropLog`] key borrowed: it hashes and compares as the owned key, so
/// a row dropped for a cause already logged allocates nothing.
#[derive(Hash)]
struct DropKey<'k>(&'k str, &'k str, &'k str, &'static str);

impl indexmap::Equivalent<DropCause> for DropKey<'_> {
    fn equivalent(&self, k: &DropCause) -> bool {
        self.0 == k.0 && self.1 == k.1 && self.2 == k.2 && self.3 == k.3
    }
}

/// Counts one row dropped for (expression text, the `and` term that
/// dropped it or "", field, cause) at `origin`.
pub fn note_drop(
    drops: &mut DropLog,
    (text, by, field, why): (&str, &str, &str, &'static str),
    origin: impl FnOnce() -> String,
) {
    // (A tuple hashes as its fields in order, `String` as its `str`: the
    // borrowed key finds the owned one.)
    match drops.get_mut(&DropKey(text, by, field, why)) {
        Some(d) => d.add(origin),
        None => drops
            .entry((text.to_string(), by.to_string(), field.to_string(), why))
            .or_default()
            .add(origin),
    }
}

/// Turns the drop log into notes.
pub fn flush_drops(drops: &mut DropLog, notes: &mut Vec<String>) {
    for ((text, by, p, why), d) in drops.drain(..) {
        let more = if d.count > d.at.len() as u64 {
            ", ..."
        } else {
            ""
        };
        if why == DERIVED_NOTHING {
            notes.push(format!(
                "derive `{p}`: `{text}` gave no value on {} row(s), stored as null: {}{more}",
                d.count,
                d.at.join(", "),
            ));
            continue;
        }
        // The term that dropped the rows, unless it is the field itself
        // (`ceiling and achieved` dropping rows where `ceiling` is null).
        let by = match by.is_empty() || by == p {
            true => String::new(),
            false => format!(" by `{by}`"),
        };
        notes.push(format!(
            "filter `{text}` dropped {} row(s){by} where `{p}` is {why}: {}{more}",
            d.count,
            d.at.join(", "),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cause logged once is found again by its borrowed key: one entry,
    /// counted twice, the first places kept in order.
    #[test]
    fn a_drop_for_a_logged_cause_counts_on_the_same_entry() {
        let mut drops = DropLog::new();
        note_drop(&mut drops, ("x > 0", "", "x", "null"), || "a:1".into());
        note_drop(&mut drops, ("x > 0", "", "x", "0"), || "a:2".into());
        note_drop(&mut drops, ("x > 0", "", "x", "null"), || "a:3".into());
        let got: Vec<(String, u64, Vec<String>)> = drops
            .iter()
            .map(|((t, _, f, w), d)| (format!("{t}|{f}|{w}"), d.count, d.at.clone()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "x > 0|x|null".to_string(),
                    2,
                    vec!["a:1".into(), "a:3".into()]
                ),
                ("x > 0|x|0".to_string(), 1, vec!["a:2".into()]),
            ]
        );
    }
}
