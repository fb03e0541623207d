//! A layer's rows: its table's rows shared, or a subset of its own.

use std::sync::Arc;

use crate::tables::Table;
use crate::value::Row;

/// The rows a layer draws. A layer without `where` (and a layer that a
/// facet does not split) draws its table's rows as they are, shared with
/// the catalog and every other layer: a 10⁶-row table is not copied per
/// figure or per panel.
#[derive(Debug, Clone)]
pub enum LayerRows {
    /// All the rows of the table.
    Table(Arc<Table>),
    /// The rows the layer's `where` or a facet's panel keeps.
    Own(Vec<Row>),
}

impl std::ops::Deref for LayerRows {
    type Target = [Row];

    fn deref(&self) -> &[Row] {
        match self {
            LayerRows::Table(t) => &t.rows,
            LayerRows::Own(rows) => rows,
        }
    }
}
