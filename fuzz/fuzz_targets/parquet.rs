//! The Parquet reader: any bytes as a `.parquet` file, read whole and read
//! with a projection (one top-level column), must give rows or an error,
//! never a panic, an abort or a hang; a file read whole is read projected
//! too, and both readings agree on the projected column (the crate's own panics are caught and
//! become errors, see `sources::parquetfile`); read column by column, it
//! gives the record API's rows whenever the record API reads it.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    thread_local! {
        static DIR: tempfile::TempDir = tempfile::tempdir().unwrap();
    }
    let path = DIR.with(|d| d.path().join("fuzz.parquet"));
    std::fs::write(&path, data).unwrap();
    let read = artifact::sources::parquetfile::read_path;
    let whole = read(&path, "fuzz.parquet", None);
    let mut p = artifact::sources::json::Projection::default();
    p.fields.insert("n".into(), None);
    let projected = read(&path, "fuzz.parquet", Some(&p));
    // A projection reads a subset of what the whole read read.
    assert!(
        whole.is_err() || projected.is_ok(),
        "read whole, not projected: {projected:?}"
    );
    // The record API's rows, when it reads the file, are the columnar
    // read's (which may read a page the record API refuses: a definition
    // level above the column's maximum).
    let records =
        artifact::sources::parquetfile::read_path_with(&path, "fuzz.parquet", None, false);
    if let Ok((records, _)) = &records {
        let columns = whole
            .as_ref()
            .expect("the record API read it, the columnar read did not");
        let text = |rows: &[artifact::value::Row]| -> Vec<String> {
            rows.iter()
                .map(|r| format!("{}: {:?}", r.origin, r.fields))
                .collect()
        };
        assert_eq!(text(records), text(columns), "the columnar read differs");
    }
    if let (Ok(w), Ok(pr)) = (&whole, &projected) {
        assert_eq!(w.len(), pr.len(), "row counts differ");
        for (a, b) in w.iter().zip(pr) {
            assert_eq!(
                format!("{:?}", a.fields.get("n")),
                format!("{:?}", b.fields.get("n")),
                "projection changed column n"
            );
        }
    }
});
