//! A source held for what reads it whole (a figure's layer, a results
//! table, a table of steps that do not stream), with only the fields those
//! read: JSONL, CSV and Parquet alike (a Parquet file decodes only those
//! columns). A message listing a trimmed row's fields reads its record
//! whole again (`sources::whole_record`), so it lists what the file holds.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::{Catalog, Table, stream};
use crate::error::Result;
use crate::sources;

impl Catalog<'_> {
    /// Whether source `from` is JSONL, CSV and Parquet files only: their
    /// rows may be trimmed, since a message listing a row's fields reads
    /// its record whole again (`sources::whole_record`: a JSONL line, a
    /// CSV record, a Parquet row).
    pub(super) fn trimmable(&self, from: &str) -> bool {
        use sources::Format::{Csv, Jsonl, Parquet};
        self.formats(from, &[Jsonl, Csv, Parquet])
    }

    /// Whether source `from` is JSONL files only.
    pub(super) fn jsonl(&self, from: &str) -> bool {
        self.formats(from, &[sources::Format::Jsonl])
    }

    /// Whether every file of source `from` is of one of `formats`.
    fn formats(&self, from: &str, formats: &[sources::Format]) -> bool {
        sources::resolve(self.spec, &self.spec.spec.sources[from])
            .is_ok_and(|(files, _)| files.iter().all(|f| formats.contains(&f.format)))
    }

    /// Source `name` held for what reads it whole (a figure's layer, a
    /// results table, a table of steps that do not stream), streamed with
    /// its rows keeping only the fields those read ([`crate::plan::demand`]), in one pass
    /// with the tables streaming it. `None` when it is loaded whole instead:
    /// no trimming (`show`), a JSON document, or a reader that may read a
    /// row whole.
    pub(super) fn load_trimmed(&self, name: &str) -> Option<Result<()>> {
        if !self.trim || !self.streams(name) || !self.trimmable(name) {
            return None;
        }
        let keep = self.readers().demand(self.spec, name)?;
        let consumer = stream::Consumer {
            name: name.to_string(),
            steps: &[],
            par: 0,
            ser: 0,
            sink: false,
            top: false,
            keep: Some(keep),
            context: Box::new(|_, e| e),
        };
        let built = self
            .stream_all(name, vec![consumer])
            .and_then(|(mut fed, unavailable)| {
                let (rows, notes) = fed.remove(0)?;
                self.notes.borrow_mut().extend(notes);
                self.built.borrow_mut().insert(
                    name.to_string(),
                    Ok(Arc::new(Table {
                        rows,
                        unavailable,
                        sources: BTreeSet::from([name.to_string()]),
                    })),
                );
                Ok(())
            });
        Some(built)
    }
}
