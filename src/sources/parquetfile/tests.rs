//! Unit tests of the Parquet reader.

use super::*;
use parquet::data_type::{ByteArray, ByteArrayType, Int32Type, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;

/// A small file: a string, an optional INT64, a struct and a list, in
/// two row groups of two rows, snappy-compressed.
fn small_file() -> Vec<u8> {
    let schema = "message m {
      REQUIRED BYTE_ARRAY s (UTF8);
      OPTIONAL INT64 n;
      OPTIONAL group g { REQUIRED INT32 a; }
      OPTIONAL group l (LIST) { REPEATED group list { REQUIRED INT64 element; } }
    }";
    let schema = Arc::new(parquet::schema::parser::parse_message_type(schema).unwrap());
    let props = WriterProperties::builder()
        .set_compression(parquet::basic::Compression::SNAPPY)
        .build();
    let mut out = Vec::new();
    let mut w = SerializedFileWriter::new(&mut out, schema, Arc::new(props)).unwrap();
    for _ in 0..2 {
        let mut rg = w.next_row_group().unwrap();
        let mut leaf = 0;
        while let Some(mut c) = rg.next_column().unwrap() {
            match leaf {
                0 => c.typed::<ByteArrayType>().write_batch(
                    &[ByteArray::from("x"), ByteArray::from("yz")],
                    None,
                    None,
                ),
                1 => c
                    .typed::<Int64Type>()
                    .write_batch(&[5], Some(&[1, 0]), None),
                2 => c
                    .typed::<Int32Type>()
                    .write_batch(&[7, 8], Some(&[1, 1]), None),
                _ => {
                    c.typed::<Int64Type>()
                        .write_batch(&[1, 2], Some(&[2, 2, 0]), Some(&[0, 1, 0]))
                }
            }
            .unwrap();
            c.close().unwrap();
            leaf += 1;
        }
        rg.close().unwrap();
    }
    w.close().unwrap();
    out
}

/// Reads `bytes` as a Parquet file: the rows' fields as text, or the error.
fn read(
    dir: &std::path::Path,
    bytes: &[u8],
    projection: Option<&Projection>,
) -> std::result::Result<Vec<String>, String> {
    read_with(dir, bytes, projection, true)
}

/// [`read`], column by column or with the record API only.
fn read_with(
    dir: &std::path::Path,
    bytes: &[u8],
    projection: Option<&Projection>,
    columnar: bool,
) -> std::result::Result<Vec<String>, String> {
    let abs = dir.join("f.parquet");
    std::fs::write(&abs, bytes).unwrap();
    let rows = read_path_with(&abs, "f.parquet", projection, columnar)
        .map_err(|e| e.to_string())?
        .0;
    Ok(rows
        .into_iter()
        .map(|r| format!("{}: {}", r.origin, (*r.fields).clone().into_value()))
        .collect())
}

#[test]
fn rows_nested_columns_and_projection() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = small_file();
    assert_eq!(
        read(dir.path(), &bytes, None).unwrap(),
        [
            "f.parquet:1: {'s': 'x', 'n': 5, 'g': {'a': 7}, 'l': [1, 2]}",
            "f.parquet:2: {'s': 'yz', 'n': None, 'g': {'a': 8}, 'l': None}",
            "f.parquet:3: {'s': 'x', 'n': 5, 'g': {'a': 7}, 'l': [1, 2]}",
            "f.parquet:4: {'s': 'yz', 'n': None, 'g': {'a': 8}, 'l': None}",
        ]
    );
    let mut p = Projection::default();
    p.fields.insert("g".into(), None);
    p.fields.insert("made_by_a_step".into(), None);
    assert_eq!(
        read(dir.path(), &bytes, Some(&p)).unwrap()[..2],
        [
            "f.parquet:1: {'g': {'a': 7}}",
            "f.parquet:2: {'g': {'a': 8}}"
        ]
    );
    // No column named: the first is read for the count, then dropped.
    let none = Projection::default();
    assert_eq!(
        read(dir.path(), &bytes, Some(&none)).unwrap(),
        [
            "f.parquet:1: {}",
            "f.parquet:2: {}",
            "f.parquet:3: {}",
            "f.parquet:4: {}"
        ]
    );
}

/// INT96 timestamps (Spark's default) come to the millisecond: the
/// record reader converts them so.
#[test]
fn int96_timestamps_are_read_to_the_millisecond() {
    use parquet::data_type::{Int96, Int96Type};
    let schema = "message m { REQUIRED INT96 ts; }";
    let schema = Arc::new(parquet::schema::parser::parse_message_type(schema).unwrap());
    let mut out = Vec::new();
    let props = Arc::new(WriterProperties::builder().build());
    let mut w = SerializedFileWriter::new(&mut out, schema, props).unwrap();
    let mut rg = w.next_row_group().unwrap();
    let mut c = rg.next_column().unwrap().unwrap();
    // 2024-03-01 (Julian day 2460371) 12:00:00.250999999.
    let nanos: u64 = 43_200_250_999_999;
    let mut v = Int96::new();
    v.set_data(nanos as u32, (nanos >> 32) as u32, 2_460_371);
    c.typed::<Int96Type>()
        .write_batch(&[v], None, None)
        .unwrap();
    c.close().unwrap();
    rg.close().unwrap();
    w.close().unwrap();
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        read(dir.path(), &out, None).unwrap(),
        ["f.parquet:1: {'ts': '2024-03-01T12:00:00.250Z'}"]
    );
}

/// Truncations of the file (every fifth length) and every byte of it
/// with its low bit flipped read as rows or as an error: never a
/// panic, an abort or a hang; column by column as with the record API,
/// but for two flips that the record API refuses and the columnar read
/// reads.
#[test]
fn damaged_files_are_errors_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = small_file();
    assert_eq!(bytes.len(), 1744);
    for cut in (0..bytes.len()).step_by(5) {
        assert!(read(dir.path(), &bytes[..cut], None).is_err(), "{cut}");
    }
    let mut errors = Vec::new();
    let mut differ = Vec::new();
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0x01;
        let records = read_with(dir.path(), &b, None, false);
        let columns = read_with(dir.path(), &b, None, true);
        if records != columns {
            // The arrow reader reads a definition level above the
            // column's maximum as the maximum: a changed value.
            assert!(records.is_err() && columns.is_ok(), "{i}");
            differ.push(i);
        }
        errors.extend(records.err());
    }
    assert_eq!(differ, [218, 437]);
    // (Other flips change values, which pages without checksums allow;
    // one more is an error since a row group's count is checked against
    // the footer's total.)
    assert_eq!(errors.len(), 527);
    // A range the crate would assert on, and a panic it raised.
    for want in [
        "f.parquet: column `s` of row group 1 is said to start at byte 4 and take -50 bytes, in a file of 1744 bytes (the footer is corrupt)",
        "f.parquet:1: cannot read the row: the parquet reader failed on it (Cannot extract value, max definition level: 2, current level: 3)",
    ] {
        assert!(errors.iter().any(|e| e == want), "{want}");
    }
}

#[test]
fn a_panic_in_the_reader_is_an_error_and_prints_nothing() {
    let r: std::result::Result<(), String> = guarded(|| panic!("boom {}", "x".repeat(300)));
    assert_eq!(
        r,
        Err(format!(
            "the parquet reader failed on it (boom {})",
            "x".repeat(195)
        ))
    );
    let r: std::result::Result<u8, String> = guarded(|| Ok(7));
    assert_eq!(r, Ok(7));
}
