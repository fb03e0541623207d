//! A Parquet row group read column by column: the `parquet` crate's arrow
//! reader decodes a batch of [`BATCH`] rows of each column read into an
//! array, and each row's record is built from the arrays, with no
//! per-cell tree of allocated fields (the record API's cost: a third of
//! the time in `malloc` and `free`).
//!
//! The rows, values, types and errors are the record API's (see
//! [`super::parquetcell`], which converts the values of both): each column
//! is bound to its array only when the schema node and the array's type
//! are the ones this module converts (every primitive type the record API
//! converts but INT96, BYTE_ARRAY decimals and decimals wider than 128
//! bits; the UNKNOWN type, always null; structs, lists and maps of them;
//! not a repeated field outside a LIST). Anything else, and any error or
//! panic of the arrow reader, hands the rest of the row group (from the
//! first row not yet handed on) back to the record API, which then reads
//! it as before, with its own errors at their rows: the columnar read is
//! only a faster way to the same rows.

use std::fs::File;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_array::cast::AsArray;
use arrow_array::types as at;
use arrow_array::{Array, ArrayRef, BinaryArray, BooleanArray, FixedSizeBinaryArray, StringArray};
use arrow_schema::{DataType, TimeUnit as ArrowUnit};
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader,
    ParquetRecordBatchReaderBuilder,
};
use parquet::basic::{ConvertedType as C, LogicalType, Repetition, TimeUnit, Type as P};
use parquet::file::metadata::ParquetMetaData;
use parquet::schema::types::{Type, TypePtr};
use rustc_hash::FxHashSet;

use super::parquetcell::{
    CellError, binary, date, list_element, map_entry, scaled, shortest, time_of_day, timestamp, utc,
};
use crate::value::{Record, Value};

/// Rows decoded at a time, per column.
pub(super) const BATCH: usize = 1024;

/// Distinct map keys kept to be shared between rows (a map's keys are
/// usually few: method names, metric names); past it, keys are allocated.
const INTERNED: usize = 4096;

/// How a file's projected columns are read column by column.
pub(super) struct Columnar {
    meta: ArrowReaderMetadata,
    mask: ProjectionMask,
    /// Map keys seen, shared by the records of every row.
    keys: FxHashSet<Arc<str>>,
}

/// How a row group's columnar read ended.
pub(super) enum Outcome {
    /// Every row was handed on.
    Done,
    /// The rows from this index (0-based in the group) on are to be read
    /// by the record API.
    Rest(u64),
}

/// What stops a row's conversion.
enum Stop {
    /// The value cannot be a cell (the record API's error too).
    Cell(CellError),
    /// A value this module does not convert as the record API would
    /// (ENUM text that is not UTF-8): the record API reads the row.
    Fallback,
}

impl From<CellError> for Stop {
    fn from(e: CellError) -> Self {
        Stop::Cell(e)
    }
}

type Conv = std::result::Result<Value, Stop>;

impl Columnar {
    /// The columnar reader of a file whose footer is `meta`, reading the
    /// leaves of `read` (the projected schema); `None` when the crate's
    /// arrow schema cannot be built for it (the record API reads it).
    pub(super) fn new(meta: &ParquetMetaData, read: &Type) -> Option<Columnar> {
        // The file's own types, never an arrow schema a writer stored
        // (polars and pyarrow store large or view strings).
        let options = ArrowReaderOptions::new().with_skip_arrow_metadata(true);
        let meta = ArrowReaderMetadata::try_new(Arc::new(meta.clone()), options).ok()?;
        let mut wanted = FxHashSet::default();
        leaf_paths(read, &mut Vec::new(), &mut wanted);
        let descr = meta.parquet_schema();
        let leaves = (0..descr.num_columns())
            .filter(|&i| wanted.contains(descr.column(i).path().parts()))
            .collect::<Vec<_>>();
        let mask = ProjectionMask::leaves(descr, leaves);
        Some(Columnar {
            meta,
            mask,
            keys: FxHashSet::default(),
        })
    }

    /// The reader of row group `g` of `file` in batches of `rows` rows;
    /// `None` when the crate cannot read it so (the record API will).
    fn batches(&self, file: &File, g: usize, rows: usize) -> Option<ParquetRecordBatchReader> {
        let file = file.try_clone().ok()?;
        super::parquetfile::guarded(|| {
            ParquetRecordBatchReaderBuilder::new_with_metadata(
                super::parquetfile::Strict(file),
                self.meta.clone(),
            )
            .with_projection(self.mask.clone())
            .with_row_groups(vec![g])
            .with_batch_size(rows)
            .build()
        })
        .ok()
    }

    /// Reads row group `g` of `file`, handing each row's record (or why it
    /// cannot be one) to `each`; `fields` and `names` are the projected
    /// top-level columns. An error of `each` ends the read.
    pub(super) fn read_group(
        &mut self,
        file: &File,
        g: usize,
        fields: &[TypePtr],
        names: &[Arc<str>],
        each: &mut dyn FnMut(std::result::Result<Record, CellError>) -> crate::error::Result<()>,
    ) -> crate::error::Result<Outcome> {
        let Some(mut batches) = self.batches(file, g, BATCH) else {
            return Ok(Outcome::Rest(0));
        };
        let mut done = 0u64;
        loop {
            let Some(batch) = next_batch(&mut batches) else {
                return Ok(Outcome::Rest(done));
            };
            let Some(batch) = batch else {
                return Ok(Outcome::Done);
            };
            match records(&batch, fields, names, &mut self.keys, each)? {
                Handed::All(n) => done += n,
                Handed::Until(n) => return Ok(Outcome::Rest(done + n)),
            }
        }
    }
}

/// The next batch of `batches`: `Some(None)` at the end, `None` when the
/// crate fails (an error or a panic).
fn next_batch(batches: &mut ParquetRecordBatchReader) -> Option<Option<RecordBatch>> {
    super::parquetfile::guarded(|| {
        batches
            .next()
            .transpose()
            .map_err(|e| parquet::errors::ParquetError::General(e.to_string()))
    })
    .ok()
}

/// Hands each row of `batch` (its columns those of `fields`, named
/// `names`) to `each` as a record, or as why it cannot be one; map keys
/// are shared through `keys`. Stops before a column or a value not
/// converted here (the record API reads from there).
fn records(
    batch: &RecordBatch,
    fields: &[TypePtr],
    names: &[Arc<str>],
    keys: &mut FxHashSet<Arc<str>>,
    each: &mut dyn FnMut(std::result::Result<Record, CellError>) -> crate::error::Result<()>,
) -> crate::error::Result<Handed> {
    let columns = batch.columns();
    if columns.len() != fields.len() {
        return Ok(Handed::Until(0));
    }
    let bound: Option<Vec<Col<'_>>> = fields
        .iter()
        .zip(columns)
        .map(|(ty, a)| bind(ty, a, false))
        .collect();
    let Some(bound) = bound else {
        return Ok(Handed::Until(0));
    };
    for i in 0..batch.num_rows() {
        let mut rec = Record::with_capacity(bound.len());
        let mut stop = None;
        for ((col, name), ty) in bound.iter().zip(names).zip(fields) {
            match col.value(i, keys) {
                Ok(v) => rec.insert(name.clone(), v),
                Err(Stop::Cell(e)) => {
                    stop = Some(e.under(ty.name()));
                    break;
                }
                // The rows before it are handed on; the record API reads
                // from this one.
                Err(Stop::Fallback) => return Ok(Handed::Until(i as u64)),
            }
        }
        each(stop.map_or(Ok(rec), Err))?;
    }
    Ok(Handed::All(batch.num_rows() as u64))
}

/// How many rows of a batch [`records`] handed on.
enum Handed {
    /// All of them, this many.
    All(u64),
    /// This many: the next is for the record API to read.
    Until(u64),
}

/// The paths of the leaves under `ty`'s fields (`ty` is the root).
fn leaf_paths(ty: &Type, path: &mut Vec<String>, out: &mut FxHashSet<Vec<String>>) {
    for f in ty.get_fields() {
        path.push(f.name().to_string());
        if f.is_group() {
            leaf_paths(f, path, out);
        } else {
            out.insert(path.clone());
        }
        path.pop();
    }
}

/// A column's array bound to how its values become cells.
struct Col<'a> {
    /// Which values are null (none when the array has no null).
    nulls: Option<&'a arrow_buffer::NullBuffer>,
    kind: Kind<'a>,
}

/// The values of an array, typed, and how each becomes a cell (as
/// [`super::parquetcell`]'s `cell` converts the record API's field).
enum Kind<'a> {
    /// Null in every row.
    Null,
    Bool(&'a BooleanArray),
    I8(&'a [i8]),
    I16(&'a [i16]),
    I32(&'a [i32]),
    I64(&'a [i64]),
    U8(&'a [u8]),
    U16(&'a [u16]),
    U32(&'a [u32]),
    U64(&'a [u64]),
    F16(&'a [half::f16]),
    F32(&'a [f32]),
    F64(&'a [f64]),
    /// Unscaled values and the scale.
    Decimal(&'a [i128], i32),
    Str(&'a StringArray),
    /// ENUM text (arrow reads it as bytes): not UTF-8 falls back.
    Enum(&'a BinaryArray),
    /// Bytes, as text (a UUID when the flag is set).
    Bytes(&'a BinaryArray, bool),
    Fixed(&'a FixedSizeBinaryArray, bool),
    /// Days since the epoch.
    Date(&'a [i32]),
    TimeMillis(&'a [i32]),
    Time(&'a [i64], TimeUnit),
    /// Counts of the unit since the epoch, and whether UTC.
    Timestamp(&'a [i64], TimeUnit, bool),
    Struct(Vec<(Arc<str>, Col<'a>)>),
    List(&'a [i32], Box<Col<'a>>),
    /// Offsets, keys and values.
    Map(&'a [i32], Box<Col<'a>>, Box<Col<'a>>),
}

/// `a`'s values as `T` when its type is `T`'s (any unit of a temporal
/// type: arrow keeps the file's integers).
fn prim<T: arrow_array::ArrowPrimitiveType>(a: &dyn Array) -> Option<&[T::Native]> {
    a.as_primitive_opt::<T>().map(|p| &**p.values())
}

/// The 32-bit integers of `a` (INT32 columns as arrow types them).
fn i32s(a: &dyn Array) -> Option<&[i32]> {
    match a.data_type() {
        DataType::Int32 => prim::<at::Int32Type>(a),
        DataType::Date32 => prim::<at::Date32Type>(a),
        DataType::Time32(ArrowUnit::Millisecond) => prim::<at::Time32MillisecondType>(a),
        _ => None,
    }
}

/// The 64-bit integers of `a` (INT64 columns as arrow types them).
fn i64s(a: &dyn Array) -> Option<&[i64]> {
    match a.data_type() {
        DataType::Int64 => prim::<at::Int64Type>(a),
        DataType::Timestamp(ArrowUnit::Millisecond, _) => prim::<at::TimestampMillisecondType>(a),
        DataType::Timestamp(ArrowUnit::Microsecond, _) => prim::<at::TimestampMicrosecondType>(a),
        DataType::Timestamp(ArrowUnit::Nanosecond, _) => prim::<at::TimestampNanosecondType>(a),
        DataType::Time64(ArrowUnit::Microsecond) => prim::<at::Time64MicrosecondType>(a),
        DataType::Time64(ArrowUnit::Nanosecond) => prim::<at::Time64NanosecondType>(a),
        _ => None,
    }
}

/// Binds `ty` (a node of the projected schema) to its array `a`; `None`
/// when the two do not match or the node is not converted here. An
/// `element` node is a list's element (its repetition is the list's).
fn bind<'a>(ty: &Type, a: &'a ArrayRef, element: bool) -> Option<Col<'a>> {
    let info = ty.get_basic_info();
    if !element && info.has_repetition() && info.repetition() == Repetition::REPEATED {
        // A repeated field outside a LIST: the record API reads it
        // without its logical type; left to it.
        return None;
    }
    let kind = if ty.is_group() {
        bind_group(ty, a)?
    } else {
        bind_leaf(ty, a.as_ref())?
    };
    Some(Col {
        nulls: a.nulls(),
        kind,
    })
}

fn bind_group<'a>(ty: &Type, a: &'a ArrayRef) -> Option<Kind<'a>> {
    let converted = ty.get_basic_info().converted_type();
    match converted {
        C::LIST => {
            let list = a.as_list_opt::<i32>()?;
            let item = bind(list_element(ty)?, list.values(), true)?;
            Some(Kind::List(list.value_offsets(), Box::new(item)))
        }
        C::MAP | C::MAP_KEY_VALUE => {
            let (k, v) = map_entry(ty)?;
            let map = a.as_map_opt()?;
            let keys = bind(k, map.keys(), false)?;
            let values = bind(v, map.values(), false)?;
            Some(Kind::Map(
                map.value_offsets(),
                Box::new(keys),
                Box::new(values),
            ))
        }
        _ => {
            let s = a.as_struct_opt()?;
            let fields = ty.get_fields();
            if s.num_columns() != fields.len() {
                return None;
            }
            let mut out = Vec::with_capacity(fields.len());
            for ((f, name), col) in fields.iter().zip(s.column_names()).zip(s.columns()) {
                if f.name() != name {
                    return None;
                }
                out.push((Arc::from(f.name()), bind(f, col, false)?));
            }
            Some(Kind::Struct(out))
        }
    }
}

/// A leaf as the record API converts it: by its converted type, then (for
/// INT64) its logical type.
fn bind_leaf<'a>(ty: &Type, a: &'a dyn Array) -> Option<Kind<'a>> {
    let info = ty.get_basic_info();
    let logical = info.logical_type_ref();
    let converted = info.converted_type();
    let decimal = |a: &'a dyn Array| {
        let d = a.as_primitive_opt::<at::Decimal128Type>()?;
        Some(Kind::Decimal(d.values(), ty.get_scale()))
    };
    if a.data_type() == &DataType::Null {
        // The UNKNOWN logical type: null in every row, whatever the
        // physical type (DuckDB writes a JSON key that is always null so).
        return matches!(logical, Some(LogicalType::Unknown)).then_some(Kind::Null);
    }
    Some(match ty.get_physical_type() {
        P::BOOLEAN => Kind::Bool(a.as_boolean_opt()?),
        P::INT32 => match converted {
            C::INT_8 => Kind::I8(prim::<at::Int8Type>(a)?),
            C::INT_16 => Kind::I16(prim::<at::Int16Type>(a)?),
            C::INT_32 | C::NONE => Kind::I32(prim::<at::Int32Type>(a)?),
            C::UINT_8 => Kind::U8(prim::<at::UInt8Type>(a)?),
            C::UINT_16 => Kind::U16(prim::<at::UInt16Type>(a)?),
            C::UINT_32 => Kind::U32(prim::<at::UInt32Type>(a)?),
            C::DATE => Kind::Date(i32s(a)?),
            C::TIME_MILLIS => Kind::TimeMillis(i32s(a)?),
            C::DECIMAL => decimal(a)?,
            _ => return None,
        },
        P::INT64 => match (converted, logical) {
            (C::INT_64 | C::NONE, Some(LogicalType::Timestamp(t))) => {
                Kind::Timestamp(i64s(a)?, t.unit, t.is_adjusted_to_u_t_c)
            }
            (C::INT_64 | C::NONE, Some(LogicalType::Time(t))) => Kind::Time(i64s(a)?, t.unit),
            (C::INT_64 | C::NONE, _) => Kind::I64(i64s(a)?),
            (C::UINT_64, _) => Kind::U64(prim::<at::UInt64Type>(a)?),
            (C::TIME_MICROS, _) => Kind::Time(i64s(a)?, TimeUnit::MICROS),
            (C::TIMESTAMP_MILLIS, _) => Kind::Timestamp(i64s(a)?, TimeUnit::MILLIS, utc(logical)),
            (C::TIMESTAMP_MICROS, _) => Kind::Timestamp(i64s(a)?, TimeUnit::MICROS, utc(logical)),
            (C::DECIMAL, _) => decimal(a)?,
            _ => return None,
        },
        P::FLOAT => Kind::F32(prim::<at::Float32Type>(a)?),
        P::DOUBLE => Kind::F64(prim::<at::Float64Type>(a)?),
        P::BYTE_ARRAY => match converted {
            C::UTF8 | C::JSON => Kind::Str(a.as_string_opt::<i32>()?),
            C::ENUM => Kind::Enum(a.as_binary_opt::<i32>()?),
            C::BSON | C::NONE => Kind::Bytes(
                a.as_binary_opt::<i32>()?,
                matches!(logical, Some(LogicalType::Uuid)),
            ),
            _ => return None,
        },
        P::FIXED_LEN_BYTE_ARRAY => match converted {
            C::DECIMAL if fixed_len(ty) <= 16 => decimal(a)?,
            C::NONE if matches!(logical, Some(LogicalType::Float16)) => {
                Kind::F16(prim::<at::Float16Type>(a)?)
            }
            C::NONE => Kind::Fixed(
                a.as_fixed_size_binary_opt()?,
                matches!(logical, Some(LogicalType::Uuid)),
            ),
            _ => return None,
        },
        P::INT96 => return None,
    })
}

impl Col<'_> {
    /// The cell of row `i`; map keys are shared through `keys`.
    fn value(&self, i: usize, keys: &mut FxHashSet<Arc<str>>) -> Conv {
        if self.nulls.is_some_and(|n| n.is_null(i)) {
            return Ok(Value::from(()));
        }
        Ok(match &self.kind {
            Kind::Null => Value::from(()),
            Kind::Bool(a) => Value::from(a.value(i)),
            Kind::I8(v) => Value::from(v[i]),
            Kind::I16(v) => Value::from(v[i]),
            Kind::I32(v) => Value::from(v[i]),
            Kind::I64(v) => Value::from(v[i]),
            Kind::U8(v) => Value::from(v[i]),
            Kind::U16(v) => Value::from(v[i]),
            Kind::U32(v) => Value::from(v[i]),
            Kind::U64(v) => Value::from(v[i]),
            Kind::F16(v) => Value::from(shortest(v[i].to_f32())),
            Kind::F32(v) => Value::from(shortest(v[i])),
            Kind::F64(v) => Value::from(v[i]),
            Kind::Decimal(v, scale) => scaled(v[i], *scale),
            Kind::Str(a) => Value::from(a.value(i)),
            Kind::Enum(a) => match std::str::from_utf8(a.value(i)) {
                Ok(s) => Value::from(s),
                Err(_) => return Err(Stop::Fallback),
            },
            Kind::Bytes(a, uuid) => Value::from(binary(a.value(i), uuid_type(*uuid))),
            Kind::Fixed(a, uuid) => Value::from(binary(a.value(i), uuid_type(*uuid))),
            Kind::Date(v) => Value::from(date(i64::from(v[i]))),
            Kind::TimeMillis(v) => Value::from(time_of_day(i64::from(v[i]), &TimeUnit::MILLIS)),
            Kind::Time(v, u) => Value::from(time_of_day(v[i], u)),
            Kind::Timestamp(v, u, z) => Value::from(timestamp(v[i], u, *z)),
            Kind::Struct(fields) => {
                let mut rec = Record::with_capacity(fields.len());
                for (name, col) in fields {
                    let v = col.value(i, keys).map_err(|e| under(e, name))?;
                    rec.insert(name.clone(), v);
                }
                rec.into_value()
            }
            Kind::List(offsets, item) => {
                let (start, end) = span(offsets, i);
                let mut items = Vec::with_capacity(end - start);
                for (n, j) in (start..end).enumerate() {
                    items.push(item.value(j, keys).map_err(|e| under(e, &n.to_string()))?);
                }
                Value::from(items)
            }
            Kind::Map(offsets, k, v) => self.map(offsets, k, v, i, keys)?,
        })
    }

    /// Row `i` of a map: a record keyed by the keys' text.
    fn map(
        &self,
        offsets: &[i32],
        k: &Col<'_>,
        v: &Col<'_>,
        i: usize,
        keys: &mut FxHashSet<Arc<str>>,
    ) -> Conv {
        let (start, end) = span(offsets, i);
        let mut rec = Record::with_capacity(end - start);
        for j in start..end {
            let key = match (&k.kind, k.nulls.is_some_and(|n| n.is_null(j))) {
                (Kind::Str(a), false) => shared(a.value(j), keys),
                _ => shared(&k.value(j, keys)?.to_string(), keys),
            };
            if rec.get(&key).is_some() {
                return Err(Stop::Cell(CellError {
                    path: Vec::new(),
                    message: format!(
                        "the map has the key `{}` twice (a record cannot hold both)",
                        crate::error::shown(&key)
                    ),
                }));
            }
            let value = v.value(j, keys).map_err(|e| under(e, &key))?;
            rec.insert(key, value);
        }
        Ok(rec.into_value())
    }
}

/// `keys`' copy of `key` (added while there are fewer than [`INTERNED`]).
fn shared(key: &str, keys: &mut FxHashSet<Arc<str>>) -> Arc<str> {
    if let Some(k) = keys.get(key) {
        return k.clone();
    }
    let k: Arc<str> = Arc::from(key);
    if keys.len() < INTERNED {
        keys.insert(k.clone());
    }
    k
}

/// The range of child rows of row `i` (empty when the offsets are short,
/// which the arrow reader never writes).
fn span(offsets: &[i32], i: usize) -> (usize, usize) {
    match (offsets.get(i), offsets.get(i + 1)) {
        (Some(&a), Some(&b)) if 0 <= a && a <= b => (a as usize, b as usize),
        _ => (0, 0),
    }
}

/// The byte width of a FIXED_LEN_BYTE_ARRAY leaf.
fn fixed_len(ty: &Type) -> i32 {
    match ty {
        Type::PrimitiveType { type_length, .. } => *type_length,
        Type::GroupType { .. } => 0,
    }
}

fn uuid_type(uuid: bool) -> Option<&'static LogicalType> {
    uuid.then_some(&LogicalType::Uuid)
}

/// `e` one level down, under the field, key or index `name`.
fn under(e: Stop, name: &str) -> Stop {
    match e {
        Stop::Cell(c) => Stop::Cell(c.under(name)),
        other => other,
    }
}
