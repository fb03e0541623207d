//! `NAME.csv`: the table's values for reuse (pandas, a spreadsheet), not
//! its printed texts: one record per row, the `group` field first when
//! there is one, then each column's full-precision value (a column with
//! an uncertainty adds `HEADER uncertainty`; a `text` column holds its
//! text). Numbers are their shortest round-trip text (`0.1`, `1e-05`),
//! null is empty. No comment line, so any CSV reader takes it as is; a
//! cell a spreadsheet would run as a formula gets a leading `'`, as the
//! figures' CSVs do.

use super::{ResultsTable, Writer};
use crate::error::{Error, Result};
use crate::figures::data_csv::csv_cell;

/// The CSV writer.
pub struct Csv;

impl Writer for Csv {
    fn extension(&self) -> &'static str {
        "csv"
    }

    fn write(&self, t: &ResultsTable) -> Result<Vec<u8>> {
        let err = |e: csv::Error| Error::msg(format!("results table `{}`: csv: {e}", t.name));
        let mut w = csv::WriterBuilder::new()
            .terminator(csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        let mut header: Vec<String> = t.group_field.iter().cloned().collect();
        header.extend(t.columns.iter().flat_map(|c| c.csv_headers.iter().cloned()));
        w.write_record(header.iter().map(|h| csv_cell(h).into_owned()))
            .map_err(err)?;
        for g in &t.groups {
            for row in &g.rows {
                let mut rec: Vec<String> = Vec::new();
                if t.group_field.is_some() {
                    rec.push(g.csv_label.clone());
                }
                rec.extend(row.iter().flat_map(|c| c.csv.iter().cloned()));
                w.write_record(rec.iter().map(|c| csv_cell(c).into_owned()))
                    .map_err(err)?;
            }
        }
        w.into_inner().map_err(|e| Error::msg(format!("csv: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_with_the_group_first() {
        let out = String::from_utf8(Csv.write(&crate::results::tests::sample()).unwrap()).unwrap();
        assert_eq!(
            out,
            "corpus,Method_1 & co,Time (ms),Time (ms) uncertainty\na|b,x%#,-1.5,0.2\nc,y,,\n"
        );
    }
}
