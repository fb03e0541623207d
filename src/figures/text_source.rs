//! A layer's `text` drawn: the plan's compiled text ([`Text`]) rendered
//! for one row.

use std::sync::Arc;

use crate::error::Result;
use crate::expr::Globals;
pub use crate::plan::text::Text;
use crate::value::Row;

impl Text<'_> {
    /// The text for `row`.
    pub fn render_row(&self, globals: &Arc<Globals>, row: &Row) -> Result<String> {
        match self {
            Text::Template(t) => t.render_row(globals, row),
            Text::Field(e, f) => Ok(f.apply(&e.eval_row(globals, row)?)),
        }
    }
}
