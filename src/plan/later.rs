//! A part compiled with the plan whose error is reported where it is used.

use crate::error::Result;

/// A part of a figure compiled with the plan whose error, if any, is not
/// the spec's but the figure's, reported where the figure first uses the
/// part while it is built. Such parts (a layer's `xOffset`, `series`, a
/// text's field, ...) were compiled only while building, so a mistake in
/// one failed that figure alone (with `figure \`NAME\`:` before it, the
/// other outputs written) and only when the layer had rows to draw: it
/// still does.
#[derive(Debug)]
pub struct Later<T>(Result<T>);

impl<T> Later<T> {
    /// Keeps `compiled`, the part or its error.
    pub fn new(compiled: Result<T>) -> Self {
        Later(compiled)
    }

    /// A part that compiled.
    pub fn ok(part: T) -> Self {
        Later(Ok(part))
    }

    /// The part, or its error (again at each use).
    pub fn get(&self) -> Result<&T> {
        self.0.as_ref().map_err(crate::error::Error::again)
    }
}
