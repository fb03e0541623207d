//! The `group` step fed one row at a time (by `apply`, the stream and the
//! fast path alike).

use std::sync::Arc;

use indexmap::IndexMap;

use super::{key_of, require_fields};
use crate::error::Result;
use crate::expr::Globals;
use crate::plan::aggregate::Agg;
use crate::plan::steps::Step;
use crate::tables::aggregate::{Acc, Input};
use crate::value::{FileMeta, Key, Origin, Record, Row, Value};

/// Values all groups of a group step may hold in memory before they spill.
const GROUP_VALUE_BUDGET: usize = 1 << 19;

/// A group step fed one row at a time: one accumulator per aggregate per
/// group, groups in first-seen order.
pub struct Grouper<'a, 's> {
    keys: &'a [String],
    aggs: &'a [(String, Agg<'s>)],
    groups: IndexMap<Key, (Row, Vec<Acc<'a, 's>>)>,
    buffered: usize,
    scratch: Vec<Value>,
    /// Whether some row had each key field (by index in `keys`).
    present: Vec<bool>,
    /// The first row without a key field: it keys as a null (one meaning
    /// of missing), unless no row has that field, a typo and an error.
    lacking: Option<Row>,
    /// Each group's first row, counted against the memory cap (a group
    /// per record holds every record).
    held: crate::value::held::Held,
    /// The cap's error, told at the next [`Grouper::spill_if_full`].
    over: Option<crate::error::Error>,
}

impl<'a, 's> Grouper<'a, 's> {
    /// A grouper for a `group` step.
    pub fn new(step: &'a Step<'s>) -> Grouper<'a, 's> {
        let Step::Group { keys, aggs } = step else {
            unreachable!("not a group step")
        };
        Grouper {
            keys,
            aggs,
            groups: IndexMap::new(),
            buffered: 0,
            scratch: Vec::new(),
            present: vec![false; keys.len()],
            lacking: None,
            held: crate::value::held::Held::new("the group step"),
            over: None,
        }
    }

    /// Adds a row to its group.
    pub fn push(&mut self, g: &Arc<Globals>, row: Row) -> Result<()> {
        for (seen, f) in self.present.iter_mut().zip(self.keys) {
            match row.get(f).is_some() {
                true => *seen = true,
                false if self.lacking.is_none() => self.lacking = Some(row.clone()),
                false => {}
            }
        }
        // The key cells go in a reused buffer: no allocation per row.
        let mut vals = std::mem::take(&mut self.scratch);
        vals.clear();
        vals.extend(
            self.keys
                .iter()
                .map(|f| row.get(f).cloned().unwrap_or(Value::UNDEFINED)),
        );
        let entry = self.index_of(&vals, &row);
        self.scratch = vals;
        let (first, accs) = &mut self.groups[entry];
        // The group's row is its first row's, `_source` included; its
        // `_source.meta` is that file's only if every row came from it.
        if !FileMeta::same(&first.origin.meta, &row.origin.meta)
            && !matches!(first.origin.meta.as_deref(), Some(FileMeta::Several(..)))
        {
            first.origin.meta = Some(Arc::new(FileMeta::Several(
                first.origin.path.clone(),
                row.origin.path.clone(),
            )));
        }
        for ((name, _), acc) in self.aggs.iter().zip(accs.iter_mut()) {
            let before = acc.buffered();
            acc.push(g, &row).map_err(|e| {
                e.context(format!(
                    "aggregate `{name}` of group ({})",
                    key_of(first, self.keys)
                ))
            })?;
            self.buffered += acc.buffered() - before;
        }
        self.spill_if_full()
    }

    /// The index of the group with key cells `vals`, made (with `first` as
    /// its first row) if it is new. For the fast path, which sends only
    /// rows that have every key field.
    pub fn group_of(&mut self, vals: &[Value], first: &Row) -> usize {
        self.present.fill(true);
        self.index_of(vals, first)
    }

    /// [`Grouper::group_of`] without marking the key fields as seen.
    fn index_of(&mut self, vals: &[Value], first: &Row) -> usize {
        match self.groups.get_index_of(&crate::value::KeyRef(vals)) {
            Some(i) => i,
            None => {
                if self.over.is_none()
                    && let Err(e) = self.held.add(first)
                {
                    self.over = Some(e);
                }
                let accs = self.aggs.iter().map(|(_, a)| a.start()).collect();
                self.groups.insert(Key::of(vals), (first.clone(), accs));
                self.groups.len() - 1
            }
        }
    }

    /// Adds what one row gives each aggregate (`inputs`, in order) to group
    /// `index`. The memory budget is not checked: call [`Grouper::spill_if_full`]
    /// after a batch.
    #[inline]
    pub fn add(&mut self, index: usize, inputs: &[Input]) {
        let (_, accs) = &mut self.groups[index];
        for (acc, input) in accs.iter_mut().zip(inputs) {
            self.buffered += acc.add(input) as usize;
        }
    }

    /// Spills every group's values to temporary files when they hold more
    /// than the budget.
    pub fn spill_if_full(&mut self) -> Result<()> {
        if let Some(e) = self.over.take() {
            return Err(e);
        }
        if self.buffered > GROUP_VALUE_BUDGET {
            for (_, accs) in self.groups.values_mut() {
                for acc in accs {
                    acc.spill()?;
                }
            }
            self.buffered = 0;
        }
        Ok(())
    }

    /// Fails when a key field is on no row (a typo): the error the first
    /// row without it gives, naming its fields and the closest name.
    fn no_typo(&self) -> Result<()> {
        let Some(row) = &self.lacking else {
            return Ok(());
        };
        let typos: Vec<String> = (self.keys.iter().zip(&self.present))
            .filter(|(_, seen)| !**seen)
            .map(|(k, _)| k.clone())
            .collect();
        require_fields(row, &typos, "group")
    }

    /// One row per group: the key fields and the aggregates.
    pub fn finish(self) -> Result<Vec<Row>> {
        use rayon::prelude::*;
        self.no_typo()?;
        let (keys, aggs) = (self.keys, self.aggs);
        // Groups finish in parallel (a median over spilled values reads its
        // own file); the rows and the first error keep the groups' order.
        let mut groups: Vec<(Row, Vec<Acc>)> = self.groups.into_iter().map(|(_, g)| g).collect();
        // Aggregates over the whole table give one row, even of no rows
        // (count 0, sum 0; a mean of nothing is an error, as for a number).
        if keys.is_empty() && groups.is_empty() {
            let row = Row {
                extra: Default::default(),
                fields: Default::default(),
                origin: Origin {
                    path: Arc::from("(no rows)"),
                    line: 0,
                    record: None,
                    meta: None,
                    partial: false,
                },
            };
            groups.push((row, aggs.iter().map(|(_, a)| a.start()).collect()));
        }
        let rows: Vec<Result<Row>> = groups
            .into_par_iter()
            .map(|(first, accs)| {
                let mut rec = Record::with_capacity(keys.len() + aggs.len());
                for k in keys {
                    rec.insert(k.as_str(), first.get(k).cloned().unwrap_or(Value::from(())));
                }
                for ((name, _), acc) in aggs.iter().zip(accs) {
                    let v = acc.finish().map_err(|e| {
                        e.context(format!(
                            "aggregate `{name}` of group ({})",
                            key_of(&first, keys)
                        ))
                    })?;
                    rec.insert(name.as_str(), v);
                }
                Ok(Row {
                    extra: Default::default(),
                    fields: Arc::new(rec),
                    // The group's row has all its fields.
                    origin: Origin {
                        partial: false,
                        ..first.origin.clone()
                    },
                })
            })
            .collect();
        rows.into_iter().collect()
    }
}
