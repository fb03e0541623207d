//! Rows and cells.
//!
//! A cell is a [`minijinja::Value`], so spec expressions evaluate on rows
//! without conversion. A row's fields live in a [`Record`]: an insertion
//! ordered map (the order of the log's keys, as Python's `dict` keeps it),
//! exposed to expressions as a mapping. Each row remembers where it came from
//! ([`Origin`]) so that every error and report can name file and line.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use indexmap::IndexMap;

use crate::error::{Error, Result};
use minijinja::value::{Enumerator, Object, ObjectExt, ObjectRepr, ValueKind};

pub use minijinja::Value;

pub mod held;
mod missing;
pub use missing::is_missing;
mod wide;
pub use wide::{cmp_ints, exact_pair, int_value, wide_int, wide_parts};

/// The map behind a [`Record`]: insertion-ordered, hashed with FxHash (the
/// hash never decides an order that is written anywhere).
pub type FieldMap = IndexMap<Arc<str>, Value, rustc_hash::FxBuildHasher>;

/// An ordered map of field name to value; the row type of every table, and
/// the map type of parsed JSON objects.
#[derive(Debug, Clone, Default)]
pub struct Record(pub FieldMap);

impl Record {
    /// An empty record with room for `n` fields.
    pub fn with_capacity(n: usize) -> Self {
        Record(FieldMap::with_capacity_and_hasher(n, Default::default()))
    }

    /// The field `name`, if present. Small records (most rows after
    /// projection, every exploded entry) are scanned: cheaper than hashing.
    pub fn get(&self, name: &str) -> Option<&Value> {
        if self.0.len() <= 8 {
            return self
                .0
                .iter()
                .find(|(k, _)| k.len() == name.len() && &***k == name)
                .map(|(_, v)| v);
        }
        self.0.get(name)
    }

    /// Sets `name` to `value`, keeping the position of an existing field.
    pub fn insert(&mut self, name: impl Into<Arc<str>>, value: Value) {
        self.0.insert(name.into(), value);
    }

    /// Wraps the record as a value (a mapping for expressions).
    pub fn into_value(self) -> Value {
        Value::from_object(self)
    }
}

impl Object for Record {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Map
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        self.get(key.as_str()?).cloned()
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<Value> {
        self.get(key).cloned()
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        self.mapped_enumerator(|this| Box::new(this.0.keys().map(|k| Value::from(&**k))))
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(self.0.len())
    }
}

/// Where a row came from: a file and a 1-based line, or a record index in a
/// JSON document (`record` is then the position in the records array).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The file as named in the spec, relative to the spec's folder.
    pub path: Arc<str>,
    /// 1-based line in the file (0 when the row is not from a line).
    pub line: u64,
    /// For JSON documents: the JSON pointer of the records array and the index.
    pub record: Option<(Arc<str>, u64)>,
    /// Its file's metadata, `_source.meta` in expressions: `None` for a
    /// row of JSONL, CSV or inline rows, which have none.
    pub meta: Option<Arc<FileMeta>>,
    /// Whether the row's JSONL record was built with only the fields its
    /// table reads (a projection): a message listing its fields then reads
    /// the whole record again ([`whole_record`]).
    pub partial: bool,
}

/// The metadata of the file a row came from (`_source.meta`).
#[derive(Debug, PartialEq, Eq)]
pub enum FileMeta {
    /// A JSON document without its records array (what `meta.NAME` is for
    /// a source of that one file): one value per file, shared through the
    /// `Arc` by all its rows, never copied per row.
    Document(Value),
    /// A group's row whose rows came from several files: the group's first
    /// row's file and the first other one. Its metadata would be one file's
    /// among several, so reading it is an error.
    Several(Arc<str>, Arc<str>),
}

impl FileMeta {
    /// Whether two rows have one file's metadata (the same shared value),
    /// or none both.
    pub fn same(a: &Option<Arc<FileMeta>>, b: &Option<Arc<FileMeta>>) -> bool {
        match (a, b) {
            (None, None) => true,
            (Some(x), Some(y)) => Arc::ptr_eq(x, y),
            _ => false,
        }
    }
}

impl Origin {
    /// A row from line `line` of `path`.
    pub fn line(path: Arc<str>, line: u64) -> Self {
        Origin {
            path,
            line,
            record: None,
            meta: None,
            partial: false,
        }
    }

    /// Line number as an `Option` for error locations.
    pub fn line_opt(&self) -> Option<u64> {
        (self.line > 0).then_some(self.line)
    }

    /// A short description for messages: `file:17` or `file record /results/3`.
    pub fn describe(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.record {
            Some((ptr, i)) => write!(f, "{} (record {ptr}/{i})", self.path),
            None if self.line > 0 => write!(f, "{}:{}", self.path, self.line),
            None => write!(f, "{}", self.path),
        }
    }
}

/// Fields laid over a row's shared fields without copying them: an
/// exploded entry is its parent's fields plus its key and value, minus the
/// exploded field (an undefined value hides a field). Boxed, and only on
/// rows that have such fields: a row without them is 112 bytes smaller
/// (80 in all), which is 112 MB on a 10⁶-row table.
#[derive(Debug, Clone, Default)]
pub struct Extra(Option<Box<Overlay>>);

/// The overlaid fields of an [`Extra`].
#[derive(Debug, Clone, Default)]
struct Overlay {
    names: [Option<Arc<str>>; 3],
    values: [Value; 3],
}

impl Extra {
    /// `name` set to `value` (undefined hides the field); at most three.
    pub fn set(&mut self, name: Arc<str>, value: Value) {
        let o = self.0.get_or_insert_default();
        let slot = o
            .names
            .iter()
            .position(|n| n.as_deref() == Some(&*name))
            .or_else(|| o.names.iter().position(Option::is_none));
        let i = slot.expect("at most three overlaid fields");
        o.names[i] = Some(name);
        o.values[i] = value;
    }

    fn get(&self, name: &str) -> Option<Option<&Value>> {
        let o = self.0.as_deref()?;
        let i = o.names.iter().position(|n| n.as_deref() == Some(name))?;
        let v = &o.values[i];
        Some((!v.is_undefined()).then_some(v))
    }

    fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(|o| o.names[0].is_none())
    }

    /// The overlaid fields, in the order they were set.
    fn fields(&self) -> impl Iterator<Item = (&Arc<str>, &Value)> {
        self.0
            .iter()
            .flat_map(|o| o.names.iter().zip(&o.values))
            .filter_map(|(n, v)| Some((n.as_ref()?, v)))
    }
}

/// A row of a table: its fields and where it came from.
#[derive(Debug, Clone)]
pub struct Row {
    /// Fields laid over `fields` (see [`Extra`]); read through [`Row::get`].
    pub extra: Extra,
    /// The fields (shared between the entries exploded from one row).
    pub fields: Arc<Record>,
    /// Where the row (or the first row of its group) came from.
    pub origin: Origin,
}

impl Row {
    /// The field `name`, if present.
    pub fn get(&self, name: &str) -> Option<&Value> {
        match self.extra.get(name) {
            Some(v) => v,
            None => self.fields.get(name),
        }
    }

    /// All fields as one record (the overlaid ones applied).
    pub fn flat_fields(&self) -> Arc<Record> {
        if self.extra.is_empty() {
            return self.fields.clone();
        }
        let mut rec = (*self.fields).clone();
        for (n, v) in self.extra.fields() {
            if v.is_undefined() {
                rec.0.shift_remove(&**n);
            } else {
                rec.insert(n.clone(), v.clone());
            }
        }
        Arc::new(rec)
    }

    /// Makes the overlaid fields part of `fields`, so `fields` can be edited.
    pub fn flatten(&mut self) {
        if !self.extra.is_empty() {
            self.fields = self.flat_fields();
            self.extra = Extra::default();
        }
    }

    /// A copy of the row with `name` set to `value`.
    pub fn with(&self, name: &str, value: Value) -> Row {
        let mut rec = (*self.flat_fields()).clone();
        rec.insert(name, value);
        Row {
            extra: Default::default(),
            fields: Arc::new(rec),
            origin: self.origin.clone(),
        }
    }
}

/// The value as an `f64` if it is a number (booleans and strings are not).
pub fn as_number(v: &Value) -> Option<f64> {
    if v.kind() == ValueKind::Number {
        f64::try_from(v.clone()).ok()
    } else {
        None
    }
}

/// Borrow the [`Record`] behind a value, if it is one.
pub fn as_record(v: &Value) -> Option<&Record> {
    v.downcast_object_ref::<Record>()
}

/// A short, quoted description of a value for error messages:
/// `string "1.27"`, `none`, `number 3`, `mapping`.
pub fn describe(v: &Value) -> String {
    match v.kind() {
        ValueKind::String => format!("string {:?}", v.as_str().unwrap_or("")),
        ValueKind::Number => format!("number {v}"),
        ValueKind::Bool => format!("boolean {v}"),
        ValueKind::None => "null".to_string(),
        ValueKind::Undefined => "nothing (the field is missing)".to_string(),
        ValueKind::Map => "a mapping".to_string(),
        ValueKind::Seq => "a list".to_string(),
        k => format!("{k}"),
    }
}

/// A value as a user wrote it in a log: `0.0`, `"1.27"`, `null`, `true`.
pub fn show(v: &Value) -> String {
    match v.kind() {
        ValueKind::String => format!("{:?}", v.as_str().unwrap_or("")),
        ValueKind::None => "null".to_string(),
        ValueKind::Undefined => "missing".to_string(),
        ValueKind::Bool => if v.is_true() { "true" } else { "false" }.to_string(),
        ValueKind::Map => "{...}".to_string(),
        ValueKind::Seq => "[...]".to_string(),
        _ => v.to_string(),
    }
}

fn kind_rank(v: &Value) -> u8 {
    match v.kind() {
        ValueKind::Undefined => 0,
        ValueKind::None => 1,
        ValueKind::Bool => 2,
        ValueKind::Number => 3,
        ValueKind::String => 4,
        _ => 5,
    }
}

/// A total order over cells for sorting and grouping: missing < null <
/// booleans < numbers (numerically; NaN last among numbers) < strings
/// (by code point) < anything else (by its printed form).
pub fn compare(a: &Value, b: &Value) -> Ordering {
    let (ra, rb) = (kind_rank(a), kind_rank(b));
    if ra != rb {
        return ra.cmp(&rb);
    }
    match ra {
        2 => a.is_true().cmp(&b.is_true()),
        3 => {
            // Integers compare exactly, not as the doubles they round to.
            if let Some(o) = cmp_ints(a, b) {
                return o;
            }
            let (x, y) = (
                as_number(a).unwrap_or(f64::NAN),
                as_number(b).unwrap_or(f64::NAN),
            );
            x.partial_cmp(&y)
                .unwrap_or_else(|| x.is_nan().cmp(&y.is_nan()))
        }
        4 => a.as_str().cmp(&b.as_str()),
        5 => a.to_string().cmp(&b.to_string()),
        _ => Ordering::Equal,
    }
}

/// One part of a [`Key`]. Numbers compare by value: `1` and `1.0` are one
/// key, as in Python.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyPart {
    /// null, or a missing field (one meaning of missing: [`is_missing`]).
    None,
    /// A boolean.
    Bool(bool),
    /// An integer, or a float with an integral value.
    Int(i64),
    /// An integer beyond `i64` within `i128`, as its high and low words
    /// ([`wide_parts`]): exact, so distinct big integers are distinct keys.
    Wide(i64, u64),
    /// Any other float, by its bits (NaN canonical).
    Float(u64),
    /// A string.
    Str(Box<str>),
    /// Anything else, by its printed form.
    Other(String),
}

/// A borrowed [`KeyPart`], for looking keys up without allocating (the
/// fast path builds these from a line's cells, see [`PartsRef`]).
#[derive(Debug, PartialEq)]
pub enum PartRef<'a> {
    /// null, or a missing field.
    None,
    /// A boolean.
    Bool(bool),
    /// An integer, or a float with an integral value ([`integral`]).
    Int(i64),
    /// An integer beyond `i64` within `i128` ([`wide_parts`]).
    Wide(i64, u64),
    /// Any other float, by its bits (NaN canonical).
    Float(u64),
    /// A string.
    Str(&'a str),
    /// Anything else, by its printed form.
    Other(String),
}

impl PartRef<'_> {
    /// The owned part.
    pub fn to_owned(&self) -> KeyPart {
        match self {
            PartRef::None => KeyPart::None,
            PartRef::Bool(b) => KeyPart::Bool(*b),
            PartRef::Int(i) => KeyPart::Int(*i),
            PartRef::Wide(h, l) => KeyPart::Wide(*h, *l),
            PartRef::Float(f) => KeyPart::Float(*f),
            PartRef::Str(s) => KeyPart::Str(Box::from(*s)),
            PartRef::Other(s) => KeyPart::Other(s.clone()),
        }
    }
}

/// A float that is a whole number in `i64`'s range, as that integer: keys
/// compare numbers as Python does, so `1e16` and `10000000000000000` (and
/// 2⁵³ written either way) are one key. Beyond `i64` a whole float stays a
/// float.
pub fn integral(x: f64) -> Option<i64> {
    // (-2⁶³ and 2⁶³ are exact doubles; every whole double between them
    // converts exactly.)
    const LOW: f64 = i64::MIN as f64;
    (x.fract() == 0.0 && (LOW..-LOW).contains(&x)).then_some(x as i64)
}

fn part_of(v: &Value) -> PartRef<'_> {
    match v.kind() {
        // A row without the field keys as a null does: one meaning of
        // missing, whatever the format wrote (`is_missing`).
        ValueKind::Undefined | ValueKind::None => PartRef::None,
        ValueKind::Bool => PartRef::Bool(v.is_true()),
        ValueKind::Number => {
            if v.is_integer() {
                if let Some(i) = v.as_i64() {
                    return PartRef::Int(i);
                }
                // Beyond i64: exact, never the double it rounds to.
                return match wide_int(v) {
                    Some(w) => {
                        let (h, l) = wide_parts(w);
                        PartRef::Wide(h, l)
                    }
                    None => PartRef::Other(v.to_string()),
                };
            }
            let x = as_number(v).unwrap_or(f64::NAN);
            if let Some(i) = integral(x) {
                PartRef::Int(i)
            } else if x.is_nan() {
                PartRef::Float(f64::NAN.to_bits())
            } else {
                PartRef::Float(x.to_bits())
            }
        }
        ValueKind::String => PartRef::Str(v.as_str().unwrap_or("")),
        _ => PartRef::Other(v.to_string()),
    }
}

fn hash_part<H: std::hash::Hasher>(p: &PartRef<'_>, h: &mut H) {
    use std::hash::Hash;
    match p {
        PartRef::None => 1u8.hash(h),
        PartRef::Bool(b) => (2u8, b).hash(h),
        PartRef::Int(i) => (3u8, i).hash(h),
        PartRef::Wide(hi, lo) => (7u8, hi, lo).hash(h),
        PartRef::Float(f) => (4u8, f).hash(h),
        PartRef::Str(s) => (5u8, s).hash(h),
        PartRef::Other(s) => (6u8, s).hash(h),
    }
}

impl KeyPart {
    fn borrow(&self) -> PartRef<'_> {
        match self {
            KeyPart::None => PartRef::None,
            KeyPart::Bool(b) => PartRef::Bool(*b),
            KeyPart::Int(i) => PartRef::Int(*i),
            KeyPart::Wide(h, l) => PartRef::Wide(*h, *l),
            KeyPart::Float(f) => PartRef::Float(*f),
            KeyPart::Str(s) => PartRef::Str(s),
            KeyPart::Other(s) => PartRef::Other(s.clone()),
        }
    }
}

/// A hashable key for grouping and joining: a tuple of cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key(Vec<KeyPart>);

impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        for p in &self.0 {
            hash_part(&p.borrow(), h);
        }
    }
}

/// A key not yet owned: the cells of a row, looked up without allocating.
pub struct KeyRef<'a>(pub &'a [Value]);

impl std::hash::Hash for KeyRef<'_> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        for v in self.0 {
            hash_part(&part_of(v), h);
        }
    }
}

impl indexmap::Equivalent<Key> for KeyRef<'_> {
    fn equivalent(&self, key: &Key) -> bool {
        self.0.len() == key.0.len()
            && self
                .0
                .iter()
                .zip(&key.0)
                .all(|(v, p)| part_of(v) == p.borrow())
    }
}

/// A key as borrowed parts: hashes and compares as the [`Key`] of the
/// same values (and as [`KeyRef`]), so the fast path looks a line's key up
/// in an index of keys without making values of its cells.
pub struct PartsRef<'p, 'a>(pub &'p [PartRef<'a>]);

impl std::hash::Hash for PartsRef<'_, '_> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        for p in self.0 {
            hash_part(p, h);
        }
    }
}

impl indexmap::Equivalent<Key> for PartsRef<'_, '_> {
    fn equivalent(&self, key: &Key) -> bool {
        self.0.len() == key.0.len() && self.0.iter().zip(&key.0).all(|(a, b)| *a == b.borrow())
    }
}

impl PartsRef<'_, '_> {
    /// The owned key.
    pub fn to_key(&self) -> Key {
        Key(self.0.iter().map(PartRef::to_owned).collect())
    }
}

impl Key {
    /// The key of a tuple of cells.
    pub fn of(values: &[Value]) -> Key {
        Key(values
            .iter()
            .map(|v| match part_of(v) {
                PartRef::None => KeyPart::None,
                PartRef::Bool(b) => KeyPart::Bool(b),
                PartRef::Int(i) => KeyPart::Int(i),
                PartRef::Wide(h, l) => KeyPart::Wide(h, l),
                PartRef::Float(f) => KeyPart::Float(f),
                PartRef::Str(s) => KeyPart::Str(Box::from(s)),
                PartRef::Other(s) => KeyPart::Other(s),
            })
            .collect())
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|p| match p {
                KeyPart::None => "null".to_string(),
                KeyPart::Bool(b) => b.to_string(),
                KeyPart::Int(i) => i.to_string(),
                KeyPart::Wide(h, l) => ((i128::from(*h) << 64) | i128::from(*l)).to_string(),
                KeyPart::Float(b) => f64::from_bits(*b).to_string(),
                KeyPart::Str(s) => s.to_string(),
                KeyPart::Other(s) => s.clone(),
            })
            .collect();
        // A key is printed in messages only: data, so one line, escaped.
        write!(f, "{}", crate::error::shown(&parts.join(", ")))
    }
}

/// An error about `field` in `row`, naming its file and line.
pub fn field_error(row: &Row, field: &str, message: String) -> Error {
    Error::input(
        row.origin.path.to_string(),
        row.origin.line_opt(),
        Some(field.to_string()),
        match &row.origin.record {
            Some((ptr, i)) => format!("{message} (record {ptr}/{i})"),
            None => message,
        },
    )
}

/// The value as a finite `f64`, or an error naming the row and field.
pub fn finite_number(row: &Row, field: &str, v: &Value) -> Result<f64> {
    match as_number(v) {
        Some(x) if x.is_finite() => Ok(x),
        Some(x) => Err(field_error(
            row,
            field,
            format!(
                "{x} is not a finite number (say in the spec how to treat it, e.g. filter `{field} is finite`)"
            ),
        )),
        // A null is a missing value (`is_missing`): say how to leave it out.
        None if v.is_none() => Err(field_error(
            row,
            field,
            format!(
                "expected a number, found null (a null is a missing value: leave such rows out first, e.g. filter `{field} is defined`)"
            ),
        )),
        None => Err(field_error(
            row,
            field,
            format!("expected a number, found {}", describe(v)),
        )),
    }
}

/// Reads the whole record of a row read in part ([`Origin::partial`])
/// again from its file, for a message that lists the row's fields. The
/// source readers install it (`sources::read_in_part`) when they first read
/// a file in part; expressions' messages call it through [`whole_record`],
/// so the value layer needs no reader.
static WHOLE_RECORD: std::sync::OnceLock<fn(&Origin) -> Option<Record>> =
    std::sync::OnceLock::new();

/// Installs the reader [`whole_record`] calls (once; later calls are no-ops).
pub fn install_whole_record(reader: fn(&Origin) -> Option<Record>) {
    let _ = WHOLE_RECORD.set(reader);
}

/// The whole record of a row read in part, read again from its file by
/// the installed reader; `None` when none is installed or it cannot be read.
pub fn whole_record(origin: &Origin) -> Option<Record> {
    WHOLE_RECORD.get().and_then(|read| read(origin))
}

/// Converts a TOML value (inline rows) to a cell.
pub fn toml_to_value(v: &toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::from(s.as_str()),
        toml::Value::Integer(i) => Value::from(*i),
        toml::Value::Float(f) => Value::from(*f),
        toml::Value::Boolean(b) => Value::from(*b),
        toml::Value::Datetime(d) => Value::from(d.to_string()),
        toml::Value::Array(a) => Value::from(a.iter().map(toml_to_value).collect::<Vec<_>>()),
        toml::Value::Table(t) => {
            let mut r = Record::with_capacity(t.len());
            for (k, v) in t {
                r.insert(k.as_str(), toml_to_value(v));
            }
            r.into_value()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_is_80_bytes_whatever_its_overlay() {
        // A held 10⁶-row table pays this per row; the overlay of an
        // exploded entry is boxed (it was 192 bytes inline).
        assert_eq!(std::mem::size_of::<Row>(), 80);
        let mut e = Extra::default();
        assert!(e.is_empty());
        e.set("k".into(), Value::from(1));
        e.set("v".into(), Value::UNDEFINED);
        e.set("k".into(), Value::from(2));
        assert!(!e.is_empty());
        assert_eq!(e.get("k"), Some(Some(&Value::from(2))));
        assert_eq!(e.get("v"), Some(None));
        assert_eq!(e.get("x"), None);
        let names: Vec<&str> = e.fields().map(|(n, _)| &**n).collect();
        assert_eq!(names, ["k", "v"]);
    }

    #[test]
    fn numbers_sort_numerically_and_before_strings() {
        let mut v = [
            Value::from("b"),
            Value::from(10),
            Value::from(2.5),
            Value::from(()),
        ];
        v.sort_by(compare);
        assert_eq!(
            v.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
            ["None", "2.5", "10", "b"]
        );
    }

    #[test]
    fn int_and_float_of_same_value_are_one_key() {
        assert_eq!(Key::of(&[Value::from(16)]), Key::of(&[Value::from(16.0)]));
        assert_ne!(Key::of(&[Value::from(16)]), Key::of(&[Value::from("16")]));
        // A borrowed key finds the owned one (same hash, equivalent).
        let mut m: indexmap::IndexMap<Key, u8> = indexmap::IndexMap::new();
        m.insert(Key::of(&[Value::from("bf16"), Value::from(16.0)]), 1);
        let vals = [Value::from("bf16"), Value::from(16)];
        assert_eq!(m.get(&KeyRef(&vals)), Some(&1));
        assert_eq!(Key::of(&vals).to_string(), "bf16, 16");
    }

    #[test]
    fn record_is_a_mapping_for_expressions() {
        let mut r = Record::default();
        r.insert("a", Value::from(1));
        let v = r.into_value();
        assert_eq!(v.kind(), ValueKind::Map);
        assert_eq!(v.get_attr("a").unwrap(), Value::from(1));
    }
}
