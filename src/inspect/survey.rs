//! What `show` and `init` say of a field across rows: its types, how many
//! distinct values it has and its first non-null value, gathered one row
//! at a time so that a source can be surveyed as it streams past.
//!
//! Memory is bounded whatever the rows: a distinct value is kept as a
//! 64-bit hash of its type and JSON text (8 bytes, not the value), and at
//! most [`MAX_DISTINCT`] of them per field; past that the count is a lower
//! bound ([`Field::capped`]), printed `100000+`.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};

use indexmap::IndexMap;

use super::{cell_text, to_json, type_name};
use crate::value::Row;

/// At most this many distinct values are counted per field.
pub const MAX_DISTINCT: usize = 100_000;

/// What is known of one field across the rows surveyed.
#[derive(Debug, Default)]
pub struct Field {
    pub name: String,
    pub types: Vec<&'static str>,
    /// Hashes of its distinct values (type and JSON text).
    pub distinct: HashSet<u64>,
    /// Whether more distinct values were seen than are counted.
    pub capped: bool,
    pub example: Option<String>,
}

const TYPE_ORDER: [&str; 10] = [
    "int", "float", "string", "bool", "list", "record", "bytes", "value", "null", "missing",
];

impl Field {
    /// Its types in a fixed order, `|`-separated (`float|null`).
    pub fn type_text(&self) -> String {
        let mut t: Vec<&str> = TYPE_ORDER
            .iter()
            .copied()
            .filter(|t| self.types.contains(t))
            .collect();
        if t.is_empty() {
            t.push("missing");
        }
        t.join("|")
    }

    /// The distinct count as printed: `12`, or `100000+` when capped.
    pub fn distinct_text(&self) -> String {
        match self.capped {
            true => format!("{}+", self.distinct.len()),
            false => self.distinct.len().to_string(),
        }
    }
}

/// Every field of the rows added so far, in the order first seen.
#[derive(Debug)]
pub struct Survey {
    fields: IndexMap<String, Field>,
    rows: usize,
    /// Distinct values counted per field ([`MAX_DISTINCT`]).
    cap: usize,
}

impl Default for Survey {
    fn default() -> Survey {
        Survey {
            fields: IndexMap::new(),
            rows: 0,
            cap: MAX_DISTINCT,
        }
    }
}

impl Survey {
    /// Adds one row: its fields' types, distinct values and examples; a
    /// field it lacks is `missing` in it.
    pub fn add(&mut self, row: &Row) {
        let rec = row.flat_fields();
        for (k, v) in rec.0.iter() {
            let first_row = self.rows == 0;
            let f = self.fields.entry(k.to_string()).or_insert_with(|| Field {
                name: k.to_string(),
                // Absent from every row before this one.
                types: if first_row {
                    Vec::new()
                } else {
                    vec!["missing"]
                },
                ..Field::default()
            });
            let t = type_name(v);
            if !f.types.contains(&t) {
                f.types.push(t);
            }
            if !f.capped {
                // DefaultHasher::new() has fixed keys: the same counts on every run.
                let mut h = std::collections::hash_map::DefaultHasher::new();
                (t, to_json(v).to_string()).hash(&mut h);
                let h = h.finish();
                if f.distinct.len() < self.cap {
                    f.distinct.insert(h);
                } else if !f.distinct.contains(&h) {
                    f.capped = true;
                }
            }
            if f.example.is_none() && !v.is_none() && !v.is_undefined() {
                f.example = Some(cell_text(v));
            }
        }
        for f in self.fields.values_mut() {
            if rec.get(&f.name).is_none() && !f.types.contains(&"missing") {
                f.types.push("missing");
            }
        }
        self.rows += 1;
    }

    /// The fields, in the order first seen.
    pub fn fields(self) -> Vec<Field> {
        self.fields.into_values().collect()
    }
}

/// Every field of `rows` (see [`Survey`]).
pub fn survey(rows: &[Row]) -> Vec<Field> {
    let mut s = Survey::default();
    rows.iter().for_each(|r| s.add(r));
    s.fields()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::tests::row;

    #[test]
    fn distinct_values_past_the_cap_make_a_lower_bound() {
        let mut s = Survey {
            cap: 3,
            ..Survey::default()
        };
        for i in [1, 2, 2, 3, 3, 4, 5] {
            s.add(&row(&format!("{{\"x\": {i}}}")));
        }
        s.add(&row("{\"y\": \"a\"}"));
        let f = s.fields();
        assert_eq!((f[0].distinct.len(), f[0].capped), (3, true));
        assert_eq!(f[0].distinct_text(), "3+");
        assert_eq!(f[0].type_text(), "int|missing");
        assert_eq!(
            (f[1].distinct_text(), f[1].type_text()),
            ("1".into(), "string|missing".into())
        );
    }

    #[test]
    fn a_value_seen_again_at_the_cap_is_no_new_one() {
        let mut s = Survey {
            cap: 2,
            ..Survey::default()
        };
        for i in [1, 2, 1, 2] {
            s.add(&row(&format!("{{\"x\": {i}}}")));
        }
        assert_eq!(s.fields()[0].distinct_text(), "2");
    }
}
