//! A figure's `NAME.csv`: one record per mark drawn, every cell safe to
//! open in a spreadsheet.

use super::layers::CsvRecord;
use crate::error::{Error, Result};

/// Whether `s` is a decimal number as written in a CSV (`-1.5`, `+3`,
/// `2e-05`, `.5`): such a cell is data, not a formula, whatever its sign.
fn is_decimal(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = digits(int) && digits(frac) && !(int.is_empty() && frac.is_empty());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    mantissa_ok && exponent_ok
}

/// A cell of a figure's CSV, safe to open in a spreadsheet (OWASP's "CSV
/// injection"): a text starting with `=`, `+`, `-`, `@`, a tab or a CR,
/// which a spreadsheet would run as a formula, gets a leading `'`; numbers
/// (`-1.5`) and every other text are written as they are.
pub(crate) fn csv_cell(s: &str) -> std::borrow::Cow<'_, str> {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) && !is_decimal(s) {
        format!("'{s}").into()
    } else {
        s.into()
    }
}

/// Writes CSV records with the union of their columns (in first-seen
/// order); each cell through [`csv_cell`].
pub(super) fn write_csv(rows: &[CsvRecord]) -> Result<Vec<u8>> {
    let mut cols: Vec<std::sync::Arc<str>> = Vec::new();
    for r in rows {
        for k in r.keys() {
            if !cols.contains(k) {
                cols.push(k.clone());
            }
        }
    }
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    w.write_record(cols.iter().map(|c| csv_cell(c).into_owned()))
        .map_err(|e| Error::msg(format!("csv: {e}")))?;
    for r in rows {
        let rec: Vec<std::borrow::Cow<'_, str>> = cols
            .iter()
            .map(|c| csv_cell(r.get(c).map_or("", |v| &**v)))
            .collect();
        w.write_record(rec.iter().map(|c| c.as_bytes()))
            .map_err(|e| Error::msg(format!("csv: {e}")))?;
    }
    w.into_inner().map_err(|e| Error::msg(format!("csv: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_that_a_spreadsheet_would_run_get_a_quote() {
        for (cell, written) in [
            ("=HYPERLINK(\"x\")", "'=HYPERLINK(\"x\")"),
            ("+1+1", "'+1+1"),
            ("-x", "'-x"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("-", "'-"),
            ("-1.5", "-1.5"),
            ("+3", "+3"),
            ("-2e-05", "-2e-05"),
            ("-.5", "-.5"),
            ("-1e", "'-1e"),
            ("a=b", "a=b"),
            ("", ""),
        ] {
            assert_eq!(csv_cell(cell), written, "{cell:?}");
        }
    }
}
