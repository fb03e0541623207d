//! Compiling a table's row-wise steps and group step for cells: slots for
//! the projected fields and for every field a step makes, each step's
//! expressions as [`FNode`]s. Runs once per table, never per line.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::eval::FNode;
use super::pred::Pred;
use super::{EntryAttr, FAgg, FStep, Plan};
use crate::plan::aggregate::Op;
use crate::plan::steps::Step;
use crate::sources::json::Projection;
use crate::sources::tape::{Fields, Keep};

/// The slots of a plan as its steps compile: their names (growing as steps
/// make fields; entry attributes get slots of their own, see
/// `Explode::attrs`), the ones read, and the explodes whose entries'
/// attributes later steps read.
struct Slots {
    names: RefCell<Vec<String>>,
    touched: RefCell<BTreeSet<usize>>,
    /// The value slot of each explode whose entries' attributes are read
    /// later (and not overwritten by a derive first) -> that explode's
    /// attribute slots.
    owners: RefCell<FxHashMap<usize, usize>>,
    explode_attrs: RefCell<Vec<Vec<EntryAttr>>>,
}

impl Slots {
    /// The slot of field `name`, made if new.
    fn slot_for(&self, name: &str) -> usize {
        let mut names = self.names.borrow_mut();
        match names.iter().position(|n| n == name) {
            Some(i) => i,
            None => {
                names.push(name.to_string());
                names.len() - 1
            }
        }
    }

    /// The slot of field `name`, if it has one (noted as read).
    fn position(&self, name: &str) -> Option<usize> {
        let i = self.names.borrow().iter().position(|n| n == name);
        self.touched.borrow_mut().extend(i);
        i
    }

    /// The slot of attribute `name` (id `id`) of the entries an explode
    /// puts in slot `base`, if an explode does.
    fn attr_slot(&self, base: usize, name: &str, id: Option<u32>) -> Option<usize> {
        let owner = *self.owners.borrow().get(&base)?;
        let mut lists = self.explode_attrs.borrow_mut();
        if let Some((_, _, k)) = lists[owner].iter().find(|(n, _, _)| n == name) {
            return Some(*k);
        }
        // A slot name no field can have (fields never hold a NUL).
        let k = self.slot_for(&format!("\u{0}{base}.{name}"));
        lists[owner].push((name.to_string(), id, k));
        Some(k)
    }
}

impl Plan {
    /// Compiles `steps[..prefix]` (row-wise) and the group step at
    /// `prefix`; `None` when any part is outside the fast subset.
    pub fn compile(steps: &[Step], prefix: usize, projection: &Projection) -> Option<Plan> {
        Plan::compile_tail(steps, prefix, projection, None)
    }

    /// As [`Plan::compile`]; with `keep`, `steps[..prefix]` are followed by
    /// no group step: each row that comes out is built with the fields in
    /// `keep` (as [`super::super::stream::trim`] keeps them).
    pub fn compile_tail(
        steps: &[Step],
        prefix: usize,
        projection: &Projection,
        keep: Option<&BTreeSet<String>>,
    ) -> Option<Plan> {
        static NONE: (Vec<String>, Vec<(String, crate::plan::aggregate::Agg)>) =
            (Vec::new(), Vec::new());
        let (keys, aggs) = match (steps.get(prefix), keep) {
            (_, Some(_)) => (&NONE.0, &NONE.1),
            (Some(Step::Group { keys, aggs }), None) => (keys, aggs),
            _ => return None,
        };
        let (names, fields) = tape_fields(projection);
        let slots = Slots {
            names: RefCell::new(names),
            touched: RefCell::default(),
            owners: RefCell::default(),
            explode_attrs: RefCell::default(),
        };
        let position = |name: &str| slots.position(name);
        let attr_slot = |base: usize, name: &str, id: Option<u32>| slots.attr_slot(base, name, id);
        let compile = |e: &crate::expr::Expr| {
            FNode::compile(e.fast()?, &position, &|a| fields.attr_id(a), &attr_slot)
        };
        let mut fsteps = Vec::new();
        for step in &steps[..prefix] {
            fsteps.push(compile_step(step, &slots, &compile)?);
        }
        mark_dirty(&mut fsteps);
        let key_slots = keys
            .iter()
            .map(|k| position(k))
            .collect::<Option<Vec<_>>>()?;
        let mut faggs = Vec::new();
        for (_, a) in aggs {
            if matches!(a.op, Op::Cell | Op::Expr) {
                return None;
            }
            let c = |e: &Option<crate::expr::Expr>| match e {
                Some(e) => compile(e).map(Some),
                None => Some(None),
            };
            faggs.push(FAgg {
                op: a.op,
                expr: c(&a.expr)?,
                weight: c(&a.weight)?,
                field: c(&a.field)?,
            });
        }
        let explode_attrs = slots.explode_attrs.into_inner();
        let names = slots.names.into_inner();
        let base = fields.fields.len();
        let mut touched = slots.touched.into_inner();
        // Every slot a step writes is the steps' own (an explode hides its
        // field in each entry).
        for s in &fsteps {
            match s {
                FStep::Derive(fs) => touched.extend(fs.iter().map(|(slot, _)| *slot)),
                FStep::Explode {
                    field, key, value, ..
                } => touched.extend([*field, *key, *value]),
                _ => {}
            }
        }
        let emit = keep.map(|keep| {
            let mut out: Vec<(Arc<str>, usize, bool)> = names
                .iter()
                .enumerate()
                .filter(|(_, n)| keep.contains(*n))
                .map(|(i, n)| (Arc::from(n.as_str()), i, i < base && !touched.contains(&i)))
                .collect();
            out.sort_by(|a, b| a.0.cmp(&b.0));
            out
        });
        let copy = touched.iter().copied().filter(|&i| i < base).collect();
        Some(Plan {
            probe: None,
            copy,
            emit,
            fields,
            slots: names.len(),
            explode_attrs,
            steps: fsteps,
            keys: key_slots,
            key_names: keys.clone(),
            aggs: faggs,
        })
    }
}

/// The first slots' names and what the tape keeps of each: the projected
/// fields, sorted (the order is not the line's), with the attributes read
/// of each entry.
fn tape_fields(projection: &Projection) -> (Vec<String>, Fields) {
    let mut names: Vec<String> = projection.fields.keys().cloned().collect();
    names.sort();
    let mut attrs: Vec<String> = projection
        .fields
        .values()
        .flatten()
        .flatten()
        .cloned()
        .collect();
    attrs.sort();
    attrs.dedup();
    let id = |a: &str| attrs.iter().position(|x| x == a).map(|i| i as u32);
    let fields = Fields::new(
        names
            .iter()
            .map(|n| {
                let keep = match &projection.fields[n] {
                    None => Keep::Whole,
                    Some(keys) => {
                        let mut keys: Vec<(String, u32)> = keys
                            .iter()
                            .map(|k| (k.clone(), id(k).expect("an attr")))
                            .collect();
                        keys.sort();
                        Keep::Entries(keys)
                    }
                };
                (n.clone(), keep)
            })
            .collect(),
        attrs.clone(),
    );
    (names, fields)
}

/// One row-wise step for cells; `None` outside the fast subset.
fn compile_step(
    step: &Step,
    slots: &Slots,
    compile: &dyn Fn(&crate::expr::Expr) -> Option<FNode>,
) -> Option<FStep> {
    Some(match step {
        Step::Filter(e, terms) => FStep::Filter(super::filter::Filter::compile(
            (e, terms),
            &|name| slots.position(name),
            compile,
        )?),
        Step::Require(e) => FStep::Require(Pred::of(compile(e)?)),
        Step::Derive(fields) => {
            let mut out = Vec::new();
            for (name, e) in fields {
                let node = compile(e)?;
                let slot = slots.slot_for(name);
                // Its entries' attribute slots no longer describe it.
                slots.owners.borrow_mut().remove(&slot);
                out.push((slot, node));
            }
            FStep::Derive(out)
        }
        Step::Explode { field, key, value } => {
            let value = slots.slot_for(value);
            let index = slots.explode_attrs.borrow().len();
            slots.explode_attrs.borrow_mut().push(Vec::new());
            slots.owners.borrow_mut().insert(value, index);
            FStep::Explode {
                field: slots.slot_for(field),
                key: slots.slot_for(key),
                value,
                attrs: index,
                dirty: Vec::new(),
            }
        }
        _ => return None,
    })
}

/// Each explode's `dirty`: the slots the derives after it write.
fn mark_dirty(fsteps: &mut [FStep]) {
    for i in 0..fsteps.len() {
        let written: Vec<usize> = fsteps[i + 1..]
            .iter()
            .flat_map(|s| match s {
                FStep::Derive(fields) => fields.iter().map(|(slot, _)| *slot).collect(),
                _ => Vec::new(),
            })
            .collect();
        if let FStep::Explode { dirty, .. } = &mut fsteps[i] {
            *dirty = written;
        }
    }
}
