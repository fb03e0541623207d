//! A results table recomputed against the committed one, cell by cell:
//! its `NAME.csv` (full-precision values, see `results::csv`) as committed
//! and as recomputed. A cell is reproduced when its text is the same, or,
//! with a tolerance, when both are numbers within it. A row or column
//! only one side has counts each of its cells as not reproduced.

use serde::Serialize;

use super::Tolerance;

/// At most this many differing cells are listed (all are counted).
const LISTED: usize = 10;

/// One cell that is not reproduced.
#[derive(Debug, Serialize)]
pub struct CellDiff {
    /// The 1-based data row (the header is row 0).
    pub row: usize,
    /// The column's header (as committed, else as recomputed).
    pub column: String,
    /// The committed and recomputed texts (`None`: no such cell).
    pub committed: Option<String>,
    pub recomputed: Option<String>,
}

/// How a results table's cells compare.
#[derive(Debug, Default, Serialize)]
pub struct Cells {
    /// The cells compared (the larger side's shape, header included).
    pub total: usize,
    /// The cells reproduced.
    pub reproduced: usize,
    /// The first differing cells, in row then column order.
    pub differing: Vec<CellDiff>,
}

fn records(bytes: &[u8]) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes)
        .records()
        .map_while(|r| r.ok())
        .map(|r| r.iter().map(str::to_string).collect())
        .collect()
}

/// Compares the committed CSV with the recomputed one.
pub fn compare(committed: &[u8], now: &[u8], tolerance: Option<Tolerance>) -> Cells {
    let (old, new) = (records(committed), records(now));
    let header = |c: usize| -> String {
        old.first()
            .and_then(|h| h.get(c))
            .or_else(|| new.first().and_then(|h| h.get(c)))
            .cloned()
            .unwrap_or_default()
    };
    let same = |a: &str, b: &str| {
        a == b
            || match (tolerance, a.parse::<f64>(), b.parse::<f64>()) {
                (Some(t), Ok(x), Ok(y)) => x.is_finite() && y.is_finite() && t.allows(x, y),
                _ => false,
            }
    };
    let mut cells = Cells::default();
    for r in 0..old.len().max(new.len()) {
        let (o, n) = (old.get(r), new.get(r));
        let width = o.map_or(0, Vec::len).max(n.map_or(0, Vec::len));
        for c in 0..width {
            let (a, b) = (o.and_then(|o| o.get(c)), n.and_then(|n| n.get(c)));
            cells.total += 1;
            match (a, b) {
                (Some(a), Some(b)) if same(a, b) => cells.reproduced += 1,
                _ if cells.differing.len() < LISTED => cells.differing.push(CellDiff {
                    row: r,
                    column: header(c),
                    committed: a.cloned(),
                    recomputed: b.cloned(),
                }),
                _ => {}
            }
        }
    }
    cells
}

impl Cells {
    /// Whether every cell is reproduced.
    pub fn all(&self) -> bool {
        self.reproduced == self.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMITTED: &[u8] = b"system,Time (ms)\nbaseline,24.6\nours,12.1\n";

    #[test]
    fn a_cell_that_doubled_is_not_reproduced_within_two_percent() {
        let now = b"system,Time (ms)\nbaseline,49\nours,12.2\n";
        let c = compare(COMMITTED, now, Some(Tolerance::Relative(0.02)));
        assert_eq!((c.total, c.reproduced), (6, 5));
        assert_eq!(c.differing.len(), 1);
        let d = &c.differing[0];
        assert_eq!((d.row, d.column.as_str()), (1, "Time (ms)"));
        assert_eq!(
            (d.committed.as_deref(), d.recomputed.as_deref()),
            (Some("24.6"), Some("49"))
        );
        // Without a tolerance 12.1 -> 12.2 differs too.
        assert_eq!(compare(COMMITTED, now, None).reproduced, 4);
    }

    #[test]
    fn a_row_only_one_side_has_counts_every_cell() {
        let now = b"system,Time (ms)\nbaseline,24.6\n";
        let c = compare(COMMITTED, now, Some(Tolerance::Relative(0.02)));
        assert_eq!((c.total, c.reproduced), (6, 4));
        assert_eq!(c.differing[1].recomputed, None);
    }
}
