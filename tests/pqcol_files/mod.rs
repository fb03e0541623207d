//! The Parquet files `tests/issue28_pqcol.rs` writes: one of every type
//! the record API converts (with the arrow writer), and one of strings
//! with a row that is not UTF-8.
#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{Int64Builder, ListBuilder, MapBuilder, StringBuilder, StructBuilder};
use arrow_array::types::Decimal128Type;
use arrow_array::{
    ArrayRef, BinaryArray, BooleanArray, Date32Array, Float16Array, Float32Array, Float64Array,
    Int8Array, Int16Array, Int32Array, Int64Array, PrimitiveArray, RecordBatch, StringArray,
    StructArray, Time32MillisecondArray, Time64MicrosecondArray, Time64NanosecondArray,
    TimestampMicrosecondArray, TimestampMillisecondArray, TimestampNanosecondArray, UInt8Array,
    UInt16Array, UInt32Array, UInt64Array,
};
use arrow_schema::{DataType, Field, Fields};
use parquet::file::properties::WriterProperties;

/// `v`, or null in every seventh row.
pub fn opt<T>(i: usize, v: T) -> Option<T> {
    (i % 7 != 3).then_some(v)
}

/// 2,500 rows of every type the record API converts, nulls in each, in
/// row groups of 700 rows and pages of 100.
pub fn generated() -> RecordBatch {
    const N: usize = 2500;
    let ints = |f: fn(usize) -> i64| (0..N).map(|i| opt(i, f(i))).collect::<Int64Array>();
    let mut cols: Vec<(&str, ArrayRef)> = vec![
        (
            "i8",
            Arc::new((0..N).map(|i| opt(i, i as i8)).collect::<Int8Array>()),
        ),
        (
            "i16",
            Arc::new((0..N).map(|i| opt(i, -(i as i16))).collect::<Int16Array>()),
        ),
        (
            "i32",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, i as i32 * 1000))
                    .collect::<Int32Array>(),
            ),
        ),
        ("i64", Arc::new(ints(|i| i as i64 * -7_000_000_000))),
        (
            "u8",
            Arc::new((0..N).map(|i| opt(i, i as u8)).collect::<UInt8Array>()),
        ),
        (
            "u16",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, 65535 - i as u16))
                    .collect::<UInt16Array>(),
            ),
        ),
        (
            "u32",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, u32::MAX - i as u32))
                    .collect::<UInt32Array>(),
            ),
        ),
        (
            "u64",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, u64::MAX - i as u64))
                    .collect::<UInt64Array>(),
            ),
        ),
        (
            "f16",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, half::f16::from_f32(i as f32 / 10.0)))
                    .collect::<Float16Array>(),
            ),
        ),
        (
            "f32",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, i as f32 / 10.0))
                    .collect::<Float32Array>(),
            ),
        ),
        (
            "f64",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, i as f64 / 3.0))
                    .collect::<Float64Array>(),
            ),
        ),
        (
            "b",
            Arc::new((0..N).map(|i| opt(i, i % 2 == 0)).collect::<BooleanArray>()),
        ),
        (
            "s",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, format!("m{}", i % 13)))
                    .collect::<StringArray>(),
            ),
        ),
        (
            "bin",
            Arc::new(
                (0..N)
                    .map(|i| {
                        opt(
                            i,
                            if i % 2 == 0 {
                                &b"ok"[..]
                            } else {
                                &b"\x00\xff"[..]
                            },
                        )
                    })
                    .collect::<BinaryArray>(),
            ),
        ),
        (
            "day",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, i as i32 * 11 - 9000))
                    .collect::<Date32Array>(),
            ),
        ),
        (
            "t_ms",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, i as i32 * 30_001))
                    .collect::<Time32MillisecondArray>(),
            ),
        ),
        (
            "t_us",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, i as i64 * 30_000_001))
                    .collect::<Time64MicrosecondArray>(),
            ),
        ),
        (
            "t_ns",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, i as i64 * 30_000_000_001))
                    .collect::<Time64NanosecondArray>(),
            ),
        ),
        (
            "ts_ms",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, 1_709_294_400_250 + i as i64))
                    .collect::<TimestampMillisecondArray>()
                    .with_timezone("UTC"),
            ),
        ),
        (
            "ts_us",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, -(i as i64) * 1_000_003))
                    .collect::<TimestampMicrosecondArray>(),
            ),
        ),
        (
            "ts_ns",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, i as i64 * 1_500_000_001))
                    .collect::<TimestampNanosecondArray>()
                    .with_timezone("+00:00"),
            ),
        ),
        (
            "dec",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, i as i128 * 12_345 - 100_000))
                    .collect::<PrimitiveArray<Decimal128Type>>()
                    .with_precision_and_scale(10, 2)
                    .unwrap(),
            ),
        ),
        (
            "dec_wide",
            Arc::new(
                (0..N)
                    .map(|i| opt(i, 10i128.pow(29) + i as i128))
                    .collect::<PrimitiveArray<Decimal128Type>>()
                    .with_precision_and_scale(30, 0)
                    .unwrap(),
            ),
        ),
    ];
    // A struct, null in some rows and with a null field in others.
    let inner = Fields::from(vec![
        Field::new("ratio", DataType::Float64, true),
        Field::new("n", DataType::Int64, true),
    ]);
    let ratio: ArrayRef = Arc::new(
        (0..N)
            .map(|i| opt(i + 1, i as f64 / 4.0))
            .collect::<Float64Array>(),
    );
    let n: ArrayRef = Arc::new(ints(|i| i as i64));
    let nulls = arrow_buffer::NullBuffer::from((0..N).map(|i| i % 5 != 1).collect::<Vec<bool>>());
    let st = StructArray::new(inner.clone(), vec![ratio, n], Some(nulls));
    cols.push(("st", Arc::new(st)));
    // A list of ints: null, empty, or up to 3 items, one null.
    let mut list = ListBuilder::new(Int64Builder::new());
    for i in 0..N {
        match i % 6 {
            0 => list.append_null(),
            1 => list.append(true),
            k => {
                for j in 0..k.min(3) {
                    list.values().append_option(opt(i + j, (i * 10 + j) as i64));
                }
                list.append(true);
            }
        }
    }
    cols.push(("l", Arc::new(list.finish())));
    // A map of text to a struct (as DuckDB writes `methods`), and a list
    // of lists.
    let mut map = MapBuilder::new(
        None,
        StringBuilder::new(),
        StructBuilder::from_fields(inner, 0),
    );
    for i in 0..N {
        if i % 9 == 4 {
            map.append(false).unwrap();
            continue;
        }
        for j in 0..(i % 4) {
            map.keys().append_value(format!("k{j}"));
            let v = map.values();
            v.field_builder::<arrow_array::builder::Float64Builder>(0)
                .unwrap()
                .append_option(opt(i + j, j as f64 + 0.5));
            v.field_builder::<Int64Builder>(1)
                .unwrap()
                .append_value(i as i64);
            v.append(j != 2);
        }
        map.append(true).unwrap();
    }
    cols.push(("m", Arc::new(map.finish())));
    let mut nested = ListBuilder::new(ListBuilder::new(Int64Builder::new()));
    for i in 0..N {
        for j in 0..(i % 3) {
            nested.values().values().append_value((i + j) as i64);
            nested.values().append(j != 1);
        }
        nested.append(i % 8 != 2);
    }
    cols.push(("ll", Arc::new(nested.finish())));
    RecordBatch::try_from_iter(cols).unwrap()
}

/// Writes `rows` rows of `s` (UTF8; not UTF-8 in row `bad`, 1-based, when
/// given) and `n` (the row number) in row groups of `group` rows.
pub fn write_strings(path: &Path, rows: usize, group: usize, bad: Option<usize>) {
    use parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
    use parquet::file::writer::SerializedFileWriter;
    let schema = "message m { REQUIRED BYTE_ARRAY s (UTF8); REQUIRED INT64 n; }";
    let schema = Arc::new(parquet::schema::parser::parse_message_type(schema).unwrap());
    let props = Arc::new(WriterProperties::builder().build());
    let file = std::fs::File::create(path).unwrap();
    let mut w = SerializedFileWriter::new(file, schema, props).unwrap();
    for start in (0..rows).step_by(group) {
        let end = (start + group).min(rows);
        let mut rg = w.next_row_group().unwrap();
        let mut s = rg.next_column().unwrap().unwrap();
        let values: Vec<ByteArray> = (start..end)
            .map(|i| match Some(i + 1) == bad {
                true => ByteArray::from(vec![0xffu8]),
                false => ByteArray::from(format!("r{}", i % 3).as_str()),
            })
            .collect();
        s.typed::<ByteArrayType>()
            .write_batch(&values, None, None)
            .unwrap();
        s.close().unwrap();
        let mut n = rg.next_column().unwrap().unwrap();
        let ns: Vec<i64> = (start as i64 + 1..=end as i64).collect();
        n.typed::<Int64Type>().write_batch(&ns, None, None).unwrap();
        n.close().unwrap();
        rg.close().unwrap();
    }
    w.close().unwrap();
}
