//! The checks of a Parquet file's footer and schema made before any page
//! is read (see [`super::parquetfile`]): each problem is an error naming
//! the column, never a panic of the `parquet` crate.

use parquet::schema::types::Type;

use crate::error::shown;

/// Checks that every row group's row count (and their sum, the file's)
/// and every column chunk's byte range (from the footer) are possible (the crate asserts, that is
/// panics, on a negative range and reserves memory for a page as long as
/// its chunk), and that every chunk's codec is one built in.
pub(super) fn check_chunks(
    meta: &parquet::file::metadata::ParquetMetaData,
    len: u64,
) -> std::result::Result<(), String> {
    for (g, rg) in meta.row_groups().iter().enumerate() {
        if rg.num_rows() < 0 {
            return Err(format!(
                "row group {} has {} rows (the footer is corrupt)",
                g + 1,
                rg.num_rows()
            ));
        }
        for c in rg.columns() {
            use parquet::basic::Compression as Z;
            let codec = c.compression();
            if !matches!(
                codec,
                Z::UNCOMPRESSED | Z::SNAPPY | Z::GZIP(_) | Z::LZ4 | Z::LZ4_RAW | Z::ZSTD(_)
            ) {
                let name = format!("{codec:?}");
                let name = name.split('(').next().unwrap_or(&name);
                return Err(format!(
                    "column `{}` is compressed with {name}, which is not read here (snappy, gzip, lz4 and zstd are); write the file with one of those, e.g. DuckDB's `(FORMAT parquet, COMPRESSION zstd)`",
                    shown(&c.column_path().string())
                ));
            }
            let start = c.dictionary_page_offset().unwrap_or(c.data_page_offset());
            let size = c.compressed_size();
            let end = start.checked_add(size).filter(|_| start >= 0 && size >= 0);
            if end.is_none_or(|end| end as u64 > len) {
                return Err(format!(
                    "column `{}` of row group {} is said to start at byte {start} and take {size} bytes, in a file of {len} bytes (the footer is corrupt)",
                    shown(&c.column_path().string()),
                    g + 1
                ));
            }
        }
    }
    // A row group whose count was damaged ends early in the record API
    // and not in the columnar read (found by the `parquet` fuzz target):
    // the footer's total tells.
    let groups = meta
        .row_groups()
        .iter()
        .try_fold(0i64, |sum, rg| sum.checked_add(rg.num_rows()));
    let total = meta.file_metadata().num_rows();
    if groups != Some(total) {
        let groups = groups.map_or("more than 2⁶³".to_string(), |n| n.to_string());
        return Err(format!(
            "its row groups hold {groups} rows and its footer counts {total} (the footer is corrupt)"
        ));
    }
    Ok(())
}

/// The first leaf under `ty` (its dotted path and its types) whose
/// converted type the record reader does not convert (it panics on them,
/// e.g. INTERVAL): refused before any row is read, naming the column.
pub(super) fn unconverted(ty: &Type) -> Option<(String, String)> {
    use parquet::basic::{ConvertedType as C, Type as P};
    if ty.is_group() {
        return ty.get_fields().iter().find_map(|f| {
            unconverted(f).map(|(path, what)| (format!("{}.{path}", ty.name()), what))
        });
    }
    let converted = ty.get_basic_info().converted_type();
    let physical = ty.get_physical_type();
    let ok = match physical {
        P::INT32 => matches!(
            converted,
            C::NONE
                | C::INT_8
                | C::INT_16
                | C::INT_32
                | C::UINT_8
                | C::UINT_16
                | C::UINT_32
                | C::DATE
                | C::TIME_MILLIS
                | C::DECIMAL
        ),
        P::INT64 => matches!(
            converted,
            C::NONE
                | C::INT_64
                | C::UINT_64
                | C::TIME_MICROS
                | C::TIMESTAMP_MILLIS
                | C::TIMESTAMP_MICROS
                | C::DECIMAL
        ),
        P::BYTE_ARRAY => matches!(
            converted,
            C::NONE | C::UTF8 | C::ENUM | C::JSON | C::BSON | C::DECIMAL
        ),
        P::FIXED_LEN_BYTE_ARRAY => matches!(converted, C::NONE | C::DECIMAL),
        P::BOOLEAN | P::INT96 | P::FLOAT | P::DOUBLE => true,
    };
    (!ok).then(|| (ty.name().to_string(), format!("{physical} ({converted})")))
}

/// Deeper nesting is refused (as JSON's 127 levels are): the conversion of
/// a row recurses once per level.
pub(super) const MAX_DEPTH: usize = 127;

/// What makes a schema unreadable as rows.
#[derive(Debug)]
pub(super) enum SchemaProblem {
    /// A group (by its path) has two fields of this name.
    Repeated(Vec<String>, String),
    /// A field (by its path) is nested deeper than [`MAX_DEPTH`].
    TooDeep(Vec<String>),
}

/// Checks that no group has two fields of one name (a record would keep
/// only one of them) and that nesting stays within [`MAX_DEPTH`].
pub(super) fn check_schema(
    ty: &Type,
    path: &mut Vec<String>,
) -> std::result::Result<(), SchemaProblem> {
    if !ty.is_group() {
        return Ok(());
    }
    if path.len() >= MAX_DEPTH {
        return Err(SchemaProblem::TooDeep(path.clone()));
    }
    let mut seen = rustc_hash::FxHashSet::default();
    for f in ty.get_fields() {
        if !seen.insert(f.name()) {
            return Err(SchemaProblem::Repeated(path.clone(), f.name().to_string()));
        }
    }
    for f in ty.get_fields() {
        path.push(f.name().to_string());
        check_schema(f, path)?;
        path.pop();
    }
    Ok(())
}
