//! Parquet values to cells, so that a Parquet file written from JSONL logs
//! (by DuckDB, polars, Spark) reads as the logs did.
//!
//! | Parquet | cell |
//! | --- | --- |
//! | null (any type) | none |
//! | BOOLEAN | bool |
//! | INT32, INT64 (signed or unsigned, any width) | integer |
//! | DOUBLE | float |
//! | FLOAT, FLOAT16 | float: the shortest decimal that rounds back to the value (`0.1f32` is `0.1`, not `0.10000000149011612`) |
//! | DECIMAL(p, s) | float: the decimal text `unscaled e-s`, correctly rounded; with scale 0, an integer, exact (all its digits); wider than 128 bits is an error |
//! | STRING, ENUM, JSON | string (invalid UTF-8 is an error) |
//! | UUID | string `12345678-1234-5678-1234-567812345678` |
//! | other BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY | string: the bytes as text when they are UTF-8 (writers such as Impala and old Spark leave strings unannotated), else `0x` and the bytes in hex (never raw bytes: they would reach the terminal in messages) |
//! | DATE | string `YYYY-MM-DD` |
//! | TIME | string `HH:MM:SS.fff` (3, 6 or 9 digits for millis, micros, nanos) |
//! | TIMESTAMP, INT96 | string `YYYY-MM-DDTHH:MM:SS.fff`, digits as TIME's, with `Z` when the column is adjusted to UTC (INT96 and the legacy converted types are); INT96 (Spark's default) to the millisecond, as the record reader converts it |
//! | struct | record |
//! | list | list |
//! | map | record keyed by the keys' text; a key repeated in one map is an error |
//!
//! Timestamps are text, not numbers, because JSONL logs carry them as ISO
//! text (Python's `isoformat()`) and CSV reads them as text: the same spec
//! then reads a Parquet summary of those logs unchanged; fixed-width ISO
//! text of one column also sorts as the instants do.

use std::sync::Arc;

use parquet::basic::{LogicalType, Repetition, TimeUnit};
use parquet::data_type::Decimal;
use parquet::record::{Field, Row as PqRow};
use parquet::schema::types::{Type, TypePtr};

use crate::value::{Record, Value};

/// A value that cannot be a cell: the path of the field under its column
/// (outermost first) and what is wrong.
#[derive(Debug, PartialEq)]
pub struct CellError {
    /// The column, then the fields and map keys down to the value.
    pub path: Vec<String>,
    /// What is wrong.
    pub message: String,
}

impl CellError {
    fn new(message: String) -> Self {
        CellError {
            path: Vec::new(),
            message,
        }
    }

    pub(super) fn under(mut self, name: &str) -> Self {
        self.path.insert(0, name.to_string());
        self
    }
}

type CellResult = std::result::Result<Value, CellError>;

/// A row as a record. `fields` is the schema's top-level fields, in the
/// row's order; they give the conversion the logical types the record API
/// does not keep (nanosecond timestamps, UTC adjustment). `names` holds
/// their names, shared by every row (not allocated per row).
pub fn row_record(
    row: &PqRow,
    fields: &[TypePtr],
    names: &[Arc<str>],
) -> std::result::Result<Record, CellError> {
    group(row, Some(fields), names)
}

fn group(
    row: &PqRow,
    fields: Option<&[TypePtr]>,
    names: &[Arc<str>],
) -> std::result::Result<Record, CellError> {
    let mut rec = Record::with_capacity(row.len());
    for (i, (name, field)) in row.get_column_iter().enumerate() {
        let ty = fields
            .and_then(|f| f.get(i))
            .filter(|t| t.name() == name.as_str());
        let v = cell(field, ty.map(|t| &**t)).map_err(|e| e.under(name))?;
        match names.get(i).filter(|n| ***n == **name) {
            Some(shared) => rec.insert(shared.clone(), v),
            None => rec.insert(name.as_str(), v),
        }
    }
    Ok(rec)
}

/// One value; `ty` is its schema node when known.
fn cell(field: &Field, ty: Option<&Type>) -> CellResult {
    let logical = ty.and_then(|t| t.get_basic_info().logical_type_ref());
    Ok(match field {
        Field::Null => Value::from(()),
        Field::Bool(b) => Value::from(*b),
        Field::Byte(v) => Value::from(*v),
        Field::Short(v) => Value::from(*v),
        Field::Int(v) => Value::from(*v),
        Field::Long(v) => match logical {
            Some(LogicalType::Timestamp(t)) => {
                Value::from(timestamp(*v, &t.unit, t.is_adjusted_to_u_t_c))
            }
            Some(LogicalType::Time(t)) => Value::from(time_of_day(*v, &t.unit)),
            _ => Value::from(*v),
        },
        Field::UByte(v) => Value::from(*v),
        Field::UShort(v) => Value::from(*v),
        Field::UInt(v) => Value::from(*v),
        Field::ULong(v) => Value::from(*v),
        Field::Float16(v) => Value::from(shortest(f32::from(*v))),
        Field::Float(v) => Value::from(shortest(*v)),
        Field::Double(v) => Value::from(*v),
        Field::Decimal(d) => decimal(d)?,
        Field::Str(s) => Value::from(s.as_str()),
        Field::Bytes(b) => Value::from(binary(b.data(), logical)),
        Field::Date(days) => Value::from(date(i64::from(*days))),
        Field::TimeMillis(v) => Value::from(time_of_day(i64::from(*v), &TimeUnit::MILLIS)),
        Field::TimeMicros(v) => Value::from(time_of_day(*v, &TimeUnit::MICROS)),
        Field::TimestampMillis(v) => Value::from(timestamp(*v, &TimeUnit::MILLIS, utc(logical))),
        Field::TimestampMicros(v) => Value::from(timestamp(*v, &TimeUnit::MICROS, utc(logical))),
        Field::Group(row) => group(row, ty.map(|t| t.get_fields()), &[])?.into_value(),
        Field::ListInternal(list) => {
            let element = ty.and_then(list_element);
            let mut items = Vec::with_capacity(list.len());
            for (i, item) in list.elements().iter().enumerate() {
                items.push(cell(item, element).map_err(|e| e.under(&i.to_string()))?);
            }
            Value::from(items)
        }
        Field::MapInternal(map) => {
            let (key_ty, value_ty) = ty.and_then(map_entry).unzip();
            let mut rec = Record::with_capacity(map.len());
            for (k, v) in map.entries() {
                let key = match k {
                    Field::Str(s) => s.clone(),
                    other => cell(other, key_ty)?.to_string(),
                };
                if rec.get(&key).is_some() {
                    return Err(CellError::new(format!(
                        "the map has the key `{}` twice (a record cannot hold both)",
                        crate::error::shown(&key)
                    )));
                }
                let value = cell(v, value_ty).map_err(|e| e.under(&key))?;
                rec.insert(key.as_str(), value);
            }
            rec.into_value()
        }
    })
}

/// Whether a timestamp column is adjusted to UTC: as its logical type says;
/// the legacy converted types (and INT96) are by definition.
pub(super) fn utc(logical: Option<&LogicalType>) -> bool {
    match logical {
        Some(LogicalType::Timestamp(t)) => t.is_adjusted_to_u_t_c,
        _ => true,
    }
}

/// The node of a list's elements: the single field of its repeated group,
/// or the repeated node itself (the Parquet spec's backward-compatibility
/// rules for two-level lists). `None` when the shape is unknown (then no
/// logical type is applied below it).
pub(super) fn list_element(ty: &Type) -> Option<&Type> {
    if !ty.is_group() {
        return None;
    }
    let [repeated] = ty.get_fields() else {
        return None;
    };
    if repeated.get_basic_info().repetition() != Repetition::REPEATED {
        return None;
    }
    match repeated.get_fields() {
        [only]
            if repeated.is_group()
                && repeated.name() != "array"
                && repeated.name() != format!("{}_tuple", ty.name()) =>
        {
            Some(only)
        }
        _ => Some(repeated),
    }
}

/// The key and value nodes of a map.
pub(super) fn map_entry(ty: &Type) -> Option<(&Type, &Type)> {
    if !ty.is_group() {
        return None;
    }
    let [entries] = ty.get_fields() else {
        return None;
    };
    match entries.is_group().then(|| entries.get_fields()) {
        Some([k, v]) => Some((k, v)),
        _ => None,
    }
}

/// A binary value as text: a UUID in its canonical form, UTF-8 as it is,
/// anything else as `0x` and hex.
pub(super) fn binary(bytes: &[u8], logical: Option<&LogicalType>) -> String {
    use std::fmt::Write;
    let hex = |bytes: &[u8], out: &mut String| {
        for b in bytes {
            let _ = write!(out, "{b:02x}");
        }
    };
    let mut out = String::with_capacity(2 + 2 * bytes.len());
    if matches!(logical, Some(LogicalType::Uuid)) && bytes.len() == 16 {
        for (i, part) in [
            &bytes[..4],
            &bytes[4..6],
            &bytes[6..8],
            &bytes[8..10],
            &bytes[10..],
        ]
        .into_iter()
        .enumerate()
        {
            if i > 0 {
                out.push('-');
            }
            hex(part, &mut out);
        }
        return out;
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return text.to_string();
    }
    out.push_str("0x");
    hex(bytes, &mut out);
    out
}

/// The shortest decimal that rounds back to `v`, as a double.
pub(super) fn shortest(v: f32) -> f64 {
    if !v.is_finite() {
        return f64::from(v);
    }
    v.to_string().parse().unwrap_or(f64::from(v))
}

/// A decimal's value: its unscaled integer (big-endian two's complement)
/// times ten to minus its scale, correctly rounded to a double; with scale
/// 0, that integer exact (a `DECIMAL(38, 0)` id keeps its digits).
fn decimal(d: &Decimal) -> CellResult {
    let bytes = d.data();
    if bytes.len() > 16 {
        return Err(CellError::new(format!(
            "a decimal of {} bytes is wider than the 128 bits read",
            bytes.len()
        )));
    }
    let negative = bytes.first().is_some_and(|b| b & 0x80 != 0);
    let mut be = [if negative { 0xff } else { 0 }; 16];
    be[16 - bytes.len()..].copy_from_slice(bytes);
    Ok(scaled(i128::from_be_bytes(be), d.scale()))
}

/// `unscaled` times ten to minus `scale`: with scale 0 the integer exact,
/// else the double nearest the decimal text.
pub(super) fn scaled(unscaled: i128, scale: i32) -> Value {
    if scale == 0 {
        return crate::value::int_value(unscaled);
    }
    let scale = -i64::from(scale);
    let x: f64 = format!("{unscaled}e{scale}").parse().unwrap_or(f64::NAN);
    Value::from(x)
}

/// Days since 1970-01-01 as `YYYY-MM-DD` (proleptic Gregorian; Howard
/// Hinnant's `civil_from_days`).
pub(super) fn date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// Units per second and digits of the fraction.
fn unit(u: &TimeUnit) -> (i64, usize) {
    match u {
        TimeUnit::MILLIS => (1_000, 3),
        TimeUnit::MICROS => (1_000_000, 6),
        TimeUnit::NANOS => (1_000_000_000, 9),
    }
}

/// `HH:MM:SS.fff` for a count of `u` since midnight.
pub(super) fn time_of_day(v: i64, u: &TimeUnit) -> String {
    let (per, digits) = unit(u);
    let (secs, frac) = (v.div_euclid(per), v.rem_euclid(per));
    format!(
        "{:02}:{:02}:{:02}.{frac:0digits$}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// `YYYY-MM-DDTHH:MM:SS.fff` (and `Z` when `utc`) for a count of `u` since
/// the epoch.
pub(super) fn timestamp(v: i64, u: &TimeUnit, utc: bool) -> String {
    let (per, digits) = unit(u);
    let (secs, frac) = (v.div_euclid(per), v.rem_euclid(per));
    let (days, sod) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    format!(
        "{}T{:02}:{:02}:{:02}.{frac:0digits$}{}",
        date(days),
        sod / 3600,
        sod / 60 % 60,
        sod % 60,
        if utc { "Z" } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_timestamps_are_iso_text() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(19_783), "2024-03-01");
        assert_eq!(date(-1), "1969-12-31");
        assert_eq!(date(11_016), "2000-02-29");
        assert_eq!(
            timestamp(1_709_294_400_250, &TimeUnit::MILLIS, true),
            "2024-03-01T12:00:00.250Z"
        );
        assert_eq!(
            timestamp(-1, &TimeUnit::MICROS, false),
            "1969-12-31T23:59:59.999999"
        );
        assert_eq!(
            timestamp(1_500_000_001, &TimeUnit::NANOS, true),
            "1970-01-01T00:00:01.500000001Z"
        );
        assert_eq!(time_of_day(45_296_789, &TimeUnit::MILLIS), "12:34:56.789");
    }

    #[test]
    fn decimals_floats_and_bytes_are_the_values_written() {
        let d = Decimal::from_i64(-12_345, 10, 2);
        assert_eq!(decimal(&d), Ok(Value::from(-123.45)));
        let wide = Decimal::from_bytes(vec![0x01, 0x00].into(), 5, 0);
        assert_eq!(decimal(&wide).unwrap().to_string(), "256");
        // DECIMAL(38, 0): exact, not the double it rounds to.
        let id: i128 = 123_456_789_012_345_678_901_234_567_890;
        let big = Decimal::from_bytes(id.to_be_bytes().to_vec().into(), 38, 0);
        assert_eq!(
            decimal(&big).unwrap().to_string(),
            "123456789012345678901234567890"
        );
        let too_wide = Decimal::from_bytes(vec![0u8; 17].into(), 40, 0);
        assert_eq!(
            decimal(&too_wide).unwrap_err().message,
            "a decimal of 17 bytes is wider than the 128 bits read"
        );
        assert_eq!(shortest(0.1f32), 0.1);
        let uuid: Vec<u8> = (0x10..0x20).collect();
        assert_eq!(
            binary(&uuid, Some(&LogicalType::Uuid)),
            "10111213-1415-1617-1819-1a1b1c1d1e1f"
        );
        assert_eq!(binary(b"caf\xc3\xa9", None), "café");
        assert_eq!(binary(b"\x00\xff\x1b", None), "0x00ff1b");
        assert!(shortest(f32::NAN).is_nan());
    }
}
