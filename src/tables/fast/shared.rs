//! Several tables' fast paths over one read of each line: the tape reads
//! the fields any of them needs once, then each table's steps run on its
//! own copy of the cells it touches. A table unsure of a line sends it to
//! the generic path alone; the others keep their fast results.

use std::sync::Arc;

use super::{Line, Out, Plan, State};
use crate::error::Result;
use crate::sources::json::Projection;
use crate::sources::tape::{Cell, Tape};
use crate::tables::stream::Consumer;

/// The fast plans of the tables fed by one stream (`None` where a table's
/// steps are outside the fast subset: every line takes the generic path).
#[derive(Debug)]
pub struct Shared {
    plans: Vec<Option<Plan>>,
    /// The plan whose fields the line is read for (all plans share them:
    /// they are compiled from one projection).
    first: usize,
}

/// The generic path for some tables of a stream: (line number, line, the
/// tables, every table's batch output).
pub type Generic<'f> = dyn Fn(u64, &[u8], &[usize], &mut [Out]) -> Result<()> + 'f;

impl Shared {
    /// Plans for `consumers`, reading the fields of `projection`, each
    /// checking its serial stage's probe (one per consumer) before building
    /// a row; `None` when no table has a plan.
    pub fn compile(
        consumers: &[Consumer],
        projection: &Projection,
        probes: Vec<Option<crate::tables::serial::Probe>>,
    ) -> Option<Shared> {
        let plans: Vec<Option<Plan>> = consumers
            .iter()
            .zip(probes)
            .map(|(c, probe)| match (c.sink && c.par == c.ser, &c.keep) {
                (true, _) => Plan::compile_tail(c.steps, c.par, projection, None),
                (false, Some(keep)) => {
                    let mut plan = Plan::compile_tail(c.steps, c.par, projection, Some(keep))?;
                    if let Some(p) = probe {
                        plan.set_probe(p);
                    }
                    Some(plan)
                }
                (false, None) => None,
            })
            .collect();
        let first = plans.iter().position(Option::is_some)?;
        Some(Shared { plans, first })
    }

    /// The aggregate inputs per fast item of table `c`.
    pub fn aggs(&self, c: usize) -> usize {
        self.plans[c].as_ref().map_or(0, Plan::aggs)
    }

    /// Runs a batch of lines (`bytes`, first line `first_line`, of file
    /// `path`) into `outs` (one per table); lines a table's plan is unsure
    /// of go to `generic` for it. Returns the number of records.
    pub fn run_batch(
        &self,
        path: &Arc<str>,
        bytes: &[u8],
        first_line: u64,
        outs: &mut [Out],
        generic: &Generic<'_>,
    ) -> Result<u64> {
        let fields = &self.plans[self.first].as_ref().expect("a plan").fields;
        let mut tape = Tape::default();
        let mut base = vec![Cell::Undef; fields.fields.len()];
        let mut slots: Vec<Vec<Cell>> = self
            .plans
            .iter()
            .map(|p| vec![Cell::Undef; p.as_ref().map_or(0, |p| p.slots)])
            .collect();
        let mut states: Vec<State> = self
            .plans
            .iter()
            .map(|p| p.as_ref().map_or_else(State::default, Plan::state))
            .collect();
        let room = bytes.len() / 128;
        for (plan, out) in self.plans.iter().zip(outs.iter_mut()) {
            if let Some(p) = plan {
                out.items.reserve(room / 2);
                out.inputs.reserve(room * p.aggs.len());
            }
        }
        let mut slow = Vec::with_capacity(self.plans.len());
        let mut records = 0;
        let (mut at, mut line_no) = (0, first_line);
        while at < bytes.len() {
            let rest = &bytes[at..];
            let n = line_no;
            line_no += 1;
            // A line whose object starts at once (past line 1, which may
            // start with a BOM) is cut where the tape's read of it ends,
            // without a search for its newline first (3% of the CPU time
            // of the whole-paper bench); any other line as `lines` cuts it.
            let fast = match rest[0] == b'{' && n > 1 {
                true => tape.read_line(rest, fields, &mut base).ok_or(true),
                false => Err(false),
            };
            let end = fast.unwrap_or_else(|_| memchr::memchr(b'\n', rest).unwrap_or(rest.len()));
            at += end + 1;
            let Some(line) = crate::sources::batches::line_text(&rest[..end], n) else {
                continue;
            };
            records += 1;
            slow.clear();
            let read = match fast {
                Ok(_) => true,
                // (The tape found no end of the line it read: it refuses it.)
                Err(true) => false,
                Err(false) => tape.read(line, fields, &mut base).is_some(),
            };
            let line_no = n;
            for (c, plan) in self.plans.iter().enumerate() {
                let out = &mut outs[c];
                let (Some(plan), true) = (plan, read) else {
                    slow.push(c);
                    continue;
                };
                if out.failed.is_some() {
                    continue;
                }
                let mark = out.mark();
                let st = &mut states[c];
                st.drops.clear();
                let at = Line {
                    tape: &tape,
                    path,
                    line_no,
                };
                let run = plan.run_line(&base, &mut slots[c], &at, st, out);
                if out.settle(run, mark, &mut st.drops, path, line_no) {
                    slow.push(c);
                }
            }
            if !slow.is_empty() {
                generic(line_no, line, &slow, outs)?;
            }
        }
        Ok(records)
    }
}
