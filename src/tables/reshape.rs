//! `fold` (wide to long) and `pivot` (long to wide), Vega-Lite's names.
//!
//! `fold = ["a", "b"]` turns each row into one row per listed field: the
//! other fields copied, the field's name in `key` and its value in `value`
//! (null where the row lacks it); the folded fields themselves are left out
//! (pandas' `melt`). `pivot = "k"` makes one row per `per` group (first-seen
//! order): the group fields, then one field per value of `k` (strings or
//! numbers, first-seen order, at most [`MAX_COLUMNS`]) holding `value`;
//! cells without a row are null. A group meeting a pivot value twice is an
//! error naming both rows, unless `op` says how to combine them. Pivot
//! holds one accumulator row per group ([`Pivoter`]), streaming its input
//! when it follows the row-wise steps; pivot values key columns as the
//! group step keys groups (1 and 1.0 are one column, named as first seen).

use std::sync::Arc;

use indexmap::IndexMap;

use super::aggregate::{field_error, finite_number};
use super::apply::{require_row_fields, row_key};
use crate::error::Result;
use crate::plan::reshape::{Fold, MAX_COLUMNS, Pivot, PivotOp};
use crate::value::{Extra, Key, Origin, Record, Row, Value, describe};

/// Applies a `fold` step.
pub fn fold(f: &Fold, rows: Vec<Row>) -> Result<Vec<Row>> {
    let key: Arc<str> = Arc::from(f.key.as_str());
    let value: Arc<str> = Arc::from(f.value.as_str());
    let mut out = Vec::with_capacity(rows.len().saturating_mul(f.fields.len()));
    for row in rows {
        // The other fields, once per row, shared by its new rows.
        let mut rest = (*row.flat_fields()).clone();
        let values: Vec<Value> = f
            .fields
            .iter()
            .map(|n| rest.0.shift_remove(n.as_str()).unwrap_or(Value::from(())))
            .collect();
        // A field the fold does not consume, named like its output: the
        // fold would overwrite it on every new row.
        for out in [&f.key, &f.value] {
            if rest.0.contains_key(out.as_str()) {
                return Err(super::window::overwrite_error(&row, "fold", out));
            }
        }
        let rest = Arc::new(rest);
        for (name, v) in f.fields.iter().zip(values) {
            let mut extra = Extra::default();
            extra.set(key.clone(), Value::from(name.as_str()));
            extra.set(value.clone(), v);
            out.push(Row {
                extra,
                fields: rest.clone(),
                origin: row.origin.clone(),
            });
        }
    }
    Ok(out)
}

/// One cell of a pivot: what its rows gave so far.
struct Cell {
    /// The combined value (the first or last, the min or max, the sum).
    value: Value,
    /// The sum as floats (mean, and sums that left the integers).
    float: f64,
    /// The exact integer sum while every value is an integer.
    int: Option<i64>,
    /// Rows seen.
    n: u64,
    /// Where the first came from.
    origin: Origin,
}

/// Applies a `pivot` step.
pub fn pivot(p: &Pivot, rows: Vec<Row>) -> Result<Vec<Row>> {
    let mut acc = Pivoter::new(p);
    for row in rows {
        acc.push(row)?;
    }
    acc.finish()
}

/// The name of the field a pivot makes of `name_v` (field `field` of
/// `row`): a string, or a number's text; an error for anything else.
#[inline]
fn column_name(row: &Row, field: &str, name_v: &Value) -> Result<String> {
    match name_v.kind() {
        minijinja::value::ValueKind::String => Ok(name_v.as_str().unwrap_or("").to_string()),
        minijinja::value::ValueKind::Number => Ok(name_v.to_string()),
        _ => Err(field_error(
            row,
            field,
            format!(
                "pivot: a new field's name must be a string or a number, found {}",
                describe(name_v)
            ),
        )),
    }
}

/// The error for a column value that repeats in a group of a pivot
/// without `op` (`origin`: where the repeat came from).
#[cold]
fn repeated(
    p: &Pivot,
    row: &Row,
    name_v: &Value,
    cell: &Cell,
    origin: Origin,
) -> crate::error::Error {
    field_error(
        &Row {
            extra: Default::default(),
            fields: Default::default(),
            origin,
        },
        &p.field,
        format!(
            "pivot: `{}` = {} repeats in group ({}) (first at {}); give `op` (sum, mean, min, max, count, first, last) to combine them",
            p.field,
            crate::value::show(name_v),
            row_key(row, &p.per),
            cell.origin
        ),
    )
}

impl Cell {
    /// Adds value `v` (`x` as a float, `int` as an integer; `counts`: 1
    /// unless it is null or NaN) to the cell by `op`.
    #[inline]
    fn combine(&mut self, op: PivotOp, v: Value, x: f64, int: Option<i64>, counts: u64) {
        self.n += counts;
        match op {
            PivotOp::Sum | PivotOp::Mean => {
                self.float += x;
                self.int = self.int.zip(int).and_then(|(a, b)| a.checked_add(b));
            }
            PivotOp::Min if x < self.float => (self.float, self.value) = (x, v),
            PivotOp::Max if x > self.float => (self.float, self.value) = (x, v),
            PivotOp::Last => self.value = v,
            _ => {}
        }
    }
}

/// One group of a pivot: its group fields' values, where its first row
/// came from, and its cells by column index.
struct Group {
    per: Vec<Value>,
    origin: Origin,
    cells: IndexMap<usize, Cell>,
}

/// A pivot fed one row at a time: one accumulator row per group (the group
/// fields and a cell per column), never the rows themselves.
pub struct Pivoter<'a> {
    p: &'a Pivot,
    /// Each column's name by its key (the group step's rule: 1 and 1.0
    /// are one value), first-seen order.
    columns: IndexMap<Key, String>,
    groups: IndexMap<Key, Group>,
}

impl<'a> Pivoter<'a> {
    /// A pivot with no rows yet.
    pub fn new(p: &'a Pivot) -> Pivoter<'a> {
        Pivoter {
            p,
            columns: IndexMap::new(),
            groups: IndexMap::new(),
        }
    }

    /// Adds a row to its group's cell.
    pub fn push(&mut self, row: Row) -> Result<()> {
        let p = self.p;
        require_row_fields(&row, &p.per, "pivot")?;
        require_row_fields(&row, std::slice::from_ref(&p.field), "pivot")?;
        let name_v = row.get(&p.field).cloned().expect("checked");
        let name = column_name(&row, &p.field, &name_v)?;
        let col_key = Key::of(std::slice::from_ref(&name_v));
        let col = match self.columns.get_index_of(&col_key) {
            Some(i) => i,
            None => self.new_column(&row, col_key, &name_v, name)?,
        };
        let v = row.get(&p.value).cloned().unwrap_or(Value::UNDEFINED);
        if v.is_undefined() && p.op != Some(PivotOp::Count) {
            require_row_fields(&row, std::slice::from_ref(&p.value), "pivot")?;
        }
        let x = match p.op {
            Some(PivotOp::Sum | PivotOp::Mean | PivotOp::Min | PivotOp::Max) => {
                finite_number(&row, &p.value, &v)?
            }
            _ => 0.0,
        };
        let key = row_key(&row, &p.per);
        let origin = row.origin.clone();
        let group = self.groups.entry(key).or_insert_with(|| Group {
            per: p
                .per
                .iter()
                .map(|k| row.get(k).cloned().unwrap_or(Value::from(())))
                .collect(),
            origin: row.origin.clone(),
            cells: IndexMap::new(),
        });
        let int = (v.is_integer()).then(|| v.as_i64()).flatten();
        // `count` counts values, not rows: null and NaN are skipped (pandas).
        let counts = !(v.is_none()
            || v.is_undefined()
            || crate::value::as_number(&v).is_some_and(f64::is_nan)) as u64;
        match group.cells.get_mut(&col) {
            None => {
                group.cells.insert(
                    col,
                    Cell {
                        value: v,
                        float: x,
                        int,
                        n: counts,
                        origin,
                    },
                );
            }
            Some(cell) => {
                let Some(op) = p.op else {
                    return Err(repeated(p, &row, &name_v, cell, origin));
                };
                cell.combine(op, v, x, int, counts);
            }
        }
        Ok(())
    }

    /// The index of a column first seen in `row`, named `name` (from
    /// `name_v`). Errors: the name is a group field's or another column's,
    /// or there are too many columns.
    fn new_column(
        &mut self,
        row: &Row,
        col_key: Key,
        name_v: &Value,
        name: String,
    ) -> Result<usize> {
        let p = self.p;
        if p.per.contains(&name) {
            return Err(field_error(
                row,
                &p.field,
                format!("pivot: the value `{name}` would overwrite the group field `{name}`"),
            ));
        }
        if self.columns.values().any(|n| *n == name) {
            return Err(field_error(
                row,
                &p.field,
                format!(
                    "pivot: `{}` = {} and another value of another type both name the field `{name}`",
                    p.field,
                    crate::value::show(name_v)
                ),
            ));
        }
        if self.columns.len() == MAX_COLUMNS {
            return Err(field_error(
                row,
                &p.field,
                format!(
                    "pivot: `{}` has more than {MAX_COLUMNS} distinct values (a pivot makes one field per value)",
                    p.field
                ),
            ));
        }
        Ok(self.columns.insert_full(col_key, name).0)
    }

    /// One row per group: the group fields, then one field per column.
    pub fn finish(self) -> Result<Vec<Row>> {
        let p = self.p;
        let names: Vec<&String> = self.columns.values().collect();
        Ok(self
            .groups
            .into_values()
            .map(|mut group| {
                let mut rec = Record::with_capacity(p.per.len() + names.len());
                for (k, v) in p.per.iter().zip(group.per) {
                    rec.insert(k.as_str(), v);
                }
                for (i, name) in names.iter().enumerate() {
                    let v = match group.cells.swap_remove(&i) {
                        None => Value::from(()),
                        Some(c) => match p.op {
                            Some(PivotOp::Count) => Value::from(c.n as i64),
                            Some(PivotOp::Sum) => match c.int {
                                Some(s) => Value::from(s),
                                None => Value::from(c.float),
                            },
                            Some(PivotOp::Mean) => Value::from(c.float / c.n as f64),
                            _ => c.value,
                        },
                    };
                    rec.insert(name.as_str(), v);
                }
                Row {
                    extra: Default::default(),
                    fields: Arc::new(rec),
                    origin: Origin {
                        partial: false,
                        ..group.origin
                    },
                }
            })
            .collect())
    }
}
