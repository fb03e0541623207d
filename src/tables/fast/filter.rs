//! A filter on the fast path, with what its drop notes need: the paths it
//! reads and, for a conjunction, each `and` term's predicate and paths, so
//! a dropped line is noted against the term that dropped it, as the
//! generic path notes it (`tables::apply`).

use super::eval::{FNode, Fallback, attr};
use super::pred::Pred;
use crate::sources::tape::{Cell, Tape};

/// The paths an expression reads (text, slot, attributes below it), for
/// drop notes.
type Reads = Vec<(String, usize, Vec<String>)>;

/// A compiled filter step.
#[derive(Debug)]
pub(super) struct Filter {
    /// The whole filter.
    pub e: Pred,
    text: String,
    reads: Reads,
    /// Its top-level `and` terms, left to right (empty when it is not a
    /// conjunction): predicate, text, reads.
    terms: Vec<(Pred, String, Reads)>,
}

impl Filter {
    /// Compiles filter `e` with its `terms` (`position` gives a field's
    /// slot); `None` when it or a term is outside the fast subset.
    pub fn compile(
        (e, terms): (&crate::expr::Expr, &[crate::expr::Expr]),
        position: &dyn Fn(&str) -> Option<usize>,
        compile: &dyn Fn(&crate::expr::Expr) -> Option<FNode>,
    ) -> Option<Filter> {
        let reads = |e: &crate::expr::Expr| -> Reads {
            let mut out = Vec::new();
            for p in e.paths() {
                let mut parts = p.split('.');
                let head = parts.next().unwrap_or("");
                if let Some(i) = position(head) {
                    out.push((p.clone(), i, parts.map(String::from).collect()));
                }
            }
            out
        };
        Some(Filter {
            e: Pred::of(compile(e)?),
            text: e.text.to_string(),
            reads: reads(e),
            terms: terms
                .iter()
                .map(|t| Some((Pred::of(compile(t)?), t.text.to_string(), reads(t))))
                .collect::<Option<_>>()?,
        })
    }

    /// The cause to note for a line the filter dropped: (filter, term or
    /// "", path, why) when a path the dropping term reads is null or 0
    /// (cells are never NaN or infinite). A term the fast path cannot
    /// decide sends the line to the generic path.
    pub fn dropped<'p>(
        &'p self,
        tape: &Tape<'_>,
        slots: &[Cell<'_>],
    ) -> Result<Option<(&'p str, &'p str, &'p str, &'static str)>, Fallback> {
        let (reads, by) = match self.terms.is_empty() {
            true => (&self.reads, ""),
            false => {
                let mut by = None;
                for (t, text, reads) in &self.terms {
                    if !t.test(tape, slots)? {
                        by = Some((reads, text.as_str()));
                        break;
                    }
                }
                // (The whole is false, so a term is: else, the whole's reads.)
                by.unwrap_or((&self.reads, ""))
            }
        };
        for (p, slot, attrs) in reads {
            let mut c = slots[*slot];
            for a in attrs {
                c = attr(tape, c, a, None).unwrap_or(Cell::Undef);
            }
            let why = match c {
                Cell::Null => "null",
                Cell::Int(0) => "0",
                Cell::Float(0.0) => "0",
                _ => continue,
            };
            return Ok(Some((&self.text, by, p, why)));
        }
        Ok(None)
    }
}
