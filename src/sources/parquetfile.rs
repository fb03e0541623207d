//! Parquet files: one row per Parquet row, read column by column with the
//! `parquet` crate's arrow reader (see [`super::parquetcol`]), and with its
//! record API where the columnar read does not convert a column or fails
//! (the rows, values and errors are the record API's either way).
//!
//! Policies, each deliberate:
//! - a row's `_source.line`, and the line of every error about it, is its
//!   1-based row number in the file (row groups counted in file order);
//! - rows are decoded one row group at a time, in batches of 1,024 values
//!   per column (never the whole file): memory is, per column read, one
//!   page (compressed, then as large as its header says, at most Parquet's
//!   2 GiB) and a batch; a table that reads only some fields (see
//!   the table layer's `projection`) decodes only those top-level columns,
//!   and its other columns' pages are not read at all;
//! - the footer is checked before any page is read: every column chunk
//!   lies inside the file and has a codec read here, no group has two fields of one name, nesting
//!   is at most 127 levels, and every column read has a type the record
//!   reader converts (not INTERVAL, for one); each is an error naming the
//!   column;
//! - a table that names no column of the file still reads the first one
//!   it can convert, so that its row count comes from the data, not from
//!   the footer;
//! - a nested column reads as a JSON field does: a struct is a record
//!   (`a.b`), a list a list, a map a record keyed by the map's keys as text
//!   (a key repeated in one map is an error, as in a JSON object);
//! - cells are converted by [`super::parquetcell`] (timestamps as ISO 8601
//!   text, decimals as numbers);
//! - `max_line` does not apply (the file has no lines) and is an error on
//!   a Parquet source; so is `.zst` around a Parquet file (its pages are
//!   compressed inside: snappy, zstd, gzip and lz4 are read; brotli and
//!   LZO are errors naming the column);
//! - a file the `parquet` crate cannot read (not Parquet, truncated, a
//!   corrupt page) is an error naming the file and, past the footer, the
//!   row; the crate panics on some malformed files, so every call into it
//!   runs under [`std::panic::catch_unwind`] and a panic becomes that
//!   error (its message is not printed: see [`guarded`]).

use std::cell::Cell;
use std::fs::File;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Once};

use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::schema::types::Type;

use super::SourceFile;
use super::dataset::Dataset;
use super::json::Projection;
use super::parquetcell::{CellError, row_record};
use super::parquetcheck::{MAX_DEPTH, SchemaProblem, check_chunks, check_schema, unconverted};
use super::parquetcol::{Columnar, Outcome};
use crate::error::{Error, Result, shown};
use crate::value::{Origin, Record, Row};

thread_local! {
    // Set while this thread is inside the `parquet` crate: a panic there is
    // turned into an error, so its message is not printed.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` (a call into the `parquet` crate), turning a panic into
/// `Err(message)`. The panic hook installed once here stays silent for a
/// panic on a thread inside `guarded` and prints every other one as the
/// previous hook did.
pub(super) fn guarded<T>(
    f: impl FnOnce() -> parquet::errors::Result<T>,
) -> std::result::Result<T, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(false));
    match result {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(parquet_message(&e)),
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("no message");
            // A panic may print a whole value: the start is enough.
            let what: String = what.chars().take(200).collect();
            Err(format!(
                "the parquet reader failed on it ({})",
                shown(&what)
            ))
        }
    }
}

/// The crate's message without its `Parquet error: ` or `External: `
/// prefix, escaped (a
/// corrupt file's bytes must not reach the terminal).
fn parquet_message(e: &parquet::errors::ParquetError) -> String {
    let text = e.to_string();
    let text = ["Parquet error: ", "External: "]
        .iter()
        .find_map(|p| text.strip_prefix(p))
        .unwrap_or(&text);
    shown(text)
}

/// The file as the `parquet` crate reads it, except that reading past its
/// end is an error, not an end: the crate's thrift reader skips a page
/// header's unknown list one element at a time, and on a corrupt header
/// claiming two billion elements it would otherwise spin for minutes on
/// reads of 0 bytes (found by the `parquet` fuzz target).
pub(super) struct Strict(pub(super) File);

/// A reader of [`Strict`]: a read of no bytes at the end of the file is an
/// error.
pub(super) struct StrictRead(std::io::BufReader<File>);

impl std::io::Read for StrictRead {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self.0.read(buf)? {
            0 if !buf.is_empty() => Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the file ends inside a page",
            )),
            n => Ok(n),
        }
    }
}

impl parquet::file::reader::Length for Strict {
    fn len(&self) -> u64 {
        self.0.len()
    }
}

impl parquet::file::reader::ChunkReader for Strict {
    type T = StrictRead;

    fn get_read(&self, start: u64) -> parquet::errors::Result<StrictRead> {
        self.0.get_read(start).map(StrictRead)
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<bytes::Bytes> {
        self.0.get_bytes(start, length)
    }
}

/// Reads a Parquet file of dataset `set`, handing each row to `each`;
/// only the top-level columns `projection` names when given (all of them
/// otherwise), and only the row groups its filters may pass (see
/// [`super::prune`]). Returns the number of rows in the file, read or
/// skipped.
pub(super) fn read_parquet(
    file: &SourceFile,
    projection: Option<&Projection>,
    set: &mut Dataset,
    each: &mut dyn FnMut(Row) -> Result<()>,
) -> Result<u64> {
    open(file, projection, set)?.read_from(set, 0, 0, 0, each)
}

/// A Parquet file opened, its footer and schema checked: ready to read.
struct Opened<'f> {
    reader: SerializedFileReader<Strict>,
    /// The columnar reader's handle on the file (the record API's owns
    /// the first).
    handle: File,
    /// The projected schema (`None`: every column).
    schema: Option<Type>,
    /// Which row groups are read.
    keep: Vec<bool>,
    /// How rows are made.
    rows: Rows<'f>,
    /// The columnar reader, unless the file is read with the record API.
    columnar: Option<Columnar>,
}

/// Opens `file` of dataset `set` to read the columns `projection` names;
/// the file's errors (not Parquet, a corrupt footer, a schema or column
/// type not read) are errors naming it.
fn open<'f>(
    file: &'f SourceFile,
    projection: Option<&Projection>,
    set: &mut Dataset,
) -> Result<Opened<'f>> {
    let whole = |msg: String| Error::input(file.rel.clone(), None, None, msg);
    if file.compression.is_compressed() {
        let c = file.compression;
        let ext = if c == super::Compression::Zstd {
            ".zst"
        } else {
            ".gz"
        };
        return Err(whole(format!(
            "a Parquet file is read as it is, not through {} (its pages are compressed inside); remove the `{ext}`",
            c.name()
        )));
    }
    let f = File::open(&file.abs).map_err(|e| Error::io(&file.abs, e))?;
    // The columnar reader's handle on the file (the record API's owns `f`).
    let handle = f.try_clone().map_err(|e| Error::io(&file.abs, e))?;
    let reader = guarded(|| SerializedFileReader::new(Strict(f)))
        .map_err(|e| whole(format!("not a readable Parquet file: {e}")))?;
    let len = std::fs::metadata(&file.abs)
        .map_err(|e| Error::io(&file.abs, e))?
        .len();
    check_chunks(reader.metadata(), len).map_err(whole)?;
    let root = reader
        .metadata()
        .file_metadata()
        .schema_descr()
        .root_schema_ptr();
    check_schema(&root, &mut Vec::new()).map_err(|p| {
        let column = |path: &[String]| shown(&path.join("."));
        whole(match p {
            SchemaProblem::Repeated(path, name) if path.is_empty() => format!(
                "the schema has two columns named `{}` (a row cannot hold both)",
                shown(&name)
            ),
            SchemaProblem::Repeated(path, name) => format!(
                "column `{}` has two fields named `{}` (a record cannot hold both)",
                column(&path),
                shown(&name)
            ),
            SchemaProblem::TooDeep(path) => format!(
                "column `{}` is nested deeper than {MAX_DEPTH} levels",
                column(&path[..1])
            ),
        })
    })?;
    set.check(file, &root)?;
    let (schema, counting) = projected(&root, projection);
    let read = schema.as_ref().unwrap_or(&root);
    if let Some((column, what)) = read.get_fields().iter().find_map(|f| unconverted(f)) {
        return Err(Error::input(
            file.rel.clone(),
            None,
            Some(shown(&column)),
            format!(
                "a column of type {what} is not read (the parquet crate's record reader does not convert it); leave it out of the file or cast it, e.g. to a string"
            ),
        ));
    }
    let keep = set.row_groups(file, reader.metadata(), projection);
    let fields = read.get_fields().to_vec();
    let rows = Rows {
        file,
        path: Arc::from(file.rel.as_str()),
        names: fields.iter().map(|f| Arc::from(f.name())).collect(),
        fields,
        counting,
        partition: super::dataset::partition_fields(file, projection),
    };
    let columnar = match set.columnar {
        true => Columnar::new(reader.metadata(), read),
        false => None,
    };
    Ok(Opened {
        reader,
        handle,
        schema,
        keep,
        rows,
        columnar,
    })
}

impl Opened<'_> {
    /// Reads the row groups from `from` on, handing each row to `each`;
    /// `resume` rows of group `from` were handed on already (the record
    /// API reads it from there), and `row_no` rows come before it.
    /// Returns the number of rows in the file up to its end.
    fn read_from(
        &mut self,
        set: &mut Dataset,
        from: usize,
        resume: u64,
        mut row_no: u64,
        each: &mut dyn FnMut(Row) -> Result<()>,
    ) -> Result<u64> {
        let file = self.rows.file;
        let rows = &self.rows;
        for g in from..self.reader.metadata().num_row_groups() {
            let rg = self.reader.metadata().row_group(g);
            if !self.keep[g] {
                // Skipped rows keep their numbers: the next group's rows
                // are numbered as if they were read.
                row_no += rg.num_rows() as u64;
                continue;
            }
            // Column by column when it can; the record API reads the rest
            // of the group from the first row the columnar read did not
            // hand on.
            let mut skip = if g == from { resume } else { 0 };
            if let Some(c) = self.columnar.as_mut().filter(|_| skip == 0) {
                let emit = &mut |r| rows.emit(r, &mut row_no, each);
                match c.read_group(&self.handle, g, &rows.fields, &rows.names, emit)? {
                    Outcome::Done => {
                        set.by_columns += 1;
                        continue;
                    }
                    Outcome::Rest(n) => {
                        skip = n;
                        row_no -= n;
                    }
                }
            }
            // The group's first pages are read here: an error in them is
            // its first row's.
            let at_row = |e: String| {
                Error::input(
                    file.rel.clone(),
                    Some(row_no + 1),
                    None,
                    format!("cannot read the row: {e}"),
                )
            };
            let group = guarded(|| self.reader.get_row_group(g)).map_err(at_row)?;
            let schema = self.schema.clone();
            let iter = guarded(|| group.get_row_iter(schema)).map_err(at_row)?;
            rows.read(iter, skip, &mut row_no, each)?;
        }
        Ok(row_no)
    }
}

/// How a file's rows become [`Row`]s.
struct Rows<'f> {
    file: &'f SourceFile,
    /// The file's name, as rows' origins name it.
    path: Arc<str>,
    /// The top-level columns read and their names.
    fields: Vec<parquet::schema::types::TypePtr>,
    names: Vec<Arc<str>>,
    /// Only the row count is read (the columns read are cleared).
    counting: bool,
    /// The partition fields added to every row.
    partition: Vec<(Arc<str>, crate::value::Value)>,
}

impl Rows<'_> {
    /// Reads one row group's rows, numbering them after `row_no`; the
    /// first `skip` rows are read (an error in them is still theirs) but
    /// not handed on (the columnar read did).
    fn read(
        &self,
        mut rows: parquet::record::reader::RowIter<'_>,
        mut skip: u64,
        row_no: &mut u64,
        each: &mut dyn FnMut(Row) -> Result<()>,
    ) -> Result<()> {
        let file = self.file;
        loop {
            let at_row = |msg: String| Error::input(file.rel.clone(), Some(*row_no + 1), None, msg);
            let next = match guarded(|| Ok(rows.next())) {
                Ok(None) => return Ok(()),
                Ok(Some(Ok(r))) => r,
                Ok(Some(Err(e))) => {
                    return Err(at_row(format!(
                        "cannot read the row: {}",
                        parquet_message(&e)
                    )));
                }
                Err(e) => return Err(at_row(format!("cannot read the row: {e}"))),
            };
            let rec = row_record(&next, &self.fields, &self.names);
            if skip > 0 {
                skip -= 1;
                *row_no += 1;
                continue;
            }
            self.emit(rec, row_no, each)?;
        }
    }

    /// Hands on the next row (numbered after `row_no`), or its error.
    fn emit(
        &self,
        rec: std::result::Result<Record, CellError>,
        row_no: &mut u64,
        each: &mut dyn FnMut(Row) -> Result<()>,
    ) -> Result<()> {
        *row_no += 1;
        let rec = rec.map_err(|e| self.cell_error(e, *row_no))?;
        each(self.row(rec, *row_no))
    }

    /// The error of row `row_no`'s cell.
    fn cell_error(&self, e: CellError, row_no: u64) -> Error {
        Error::input(
            self.file.rel.clone(),
            Some(row_no),
            Some(shown(&e.path.join("."))),
            e.message,
        )
    }

    /// Row `row_no` of record `rec`, with the partition fields.
    fn row(&self, mut rec: Record, row_no: u64) -> Row {
        if self.counting {
            rec.0.clear();
        }
        for (k, v) in &self.partition {
            rec.insert(k.clone(), v.clone());
        }
        Row {
            extra: Default::default(),
            fields: Arc::new(rec),
            origin: Origin::line(self.path.clone(), row_no),
        }
    }
}

/// Reads the Parquet file at `path` (named `rel` in messages) into rows,
/// as a source reads it (for the fuzz target): only the top-level columns
/// `projection` names when given. Errors as [`read_parquet`]'s.
pub fn read_path(
    path: &std::path::Path,
    rel: &str,
    projection: Option<&Projection>,
) -> Result<Vec<Row>> {
    read_path_with(path, rel, projection, true).map(|(rows, _)| rows)
}

/// [`read_path`], column by column when `columnar` (as sources read), else
/// with the record API only (to compare the two); with the rows, the
/// number of row groups read wholly column by column.
pub fn read_path_with(
    path: &std::path::Path,
    rel: &str,
    projection: Option<&Projection>,
    columnar: bool,
) -> Result<(Vec<Row>, u64)> {
    let file = SourceFile {
        rel: rel.to_string(),
        abs: path.to_path_buf(),
        format: super::Format::Parquet,
        compression: super::Compression::None,
        max_line: super::limit::DEFAULT_MAX_LINE,
        dialect: None,
        partition: None,
    };
    let mut rows = Vec::new();
    let mut set = Dataset::new();
    set.columnar = columnar;
    read_parquet(&file, projection, &mut set, &mut |r| {
        rows.push(r);
        Ok(())
    })?;
    Ok((rows, set.by_columns))
}

/// The schema to read: `None` for every column, else the root with only
/// the top-level fields `projection` names (in file order), and whether
/// that is only a column read to count the rows (none was named).
fn projected(root: &Arc<Type>, projection: Option<&Projection>) -> (Option<Type>, bool) {
    let all = root.get_fields();
    let Some(p) = projection.filter(|_| !all.is_empty()) else {
        return (None, false);
    };
    // Struct columns trimmed to the leaves read (see `dataset::trimmed`).
    let mut keep: Vec<_> = all
        .iter()
        .filter(|f| p.fields.contains_key(f.name()))
        .map(|f| super::dataset::trimmed(f, p))
        .collect();
    if keep.len() == all.len() && keep.iter().zip(all).all(|(k, a)| Arc::ptr_eq(k, a)) {
        return (None, false);
    }
    let counting = keep.is_empty();
    if counting {
        // One the record reader converts (an INTERVAL column would fail).
        let first = all.iter().find(|f| unconverted(f).is_none());
        keep.push(first.unwrap_or(&all[0]).clone());
    }
    // Built from the root's own fields, so it is part of the file's schema
    // (which the reader checks).
    let schema = Type::group_type_builder(root.name())
        .with_fields(keep)
        .build();
    match schema {
        Ok(s) => (Some(s), counting),
        Err(_) => (None, false),
    }
}

#[cfg(test)]
mod tests;
