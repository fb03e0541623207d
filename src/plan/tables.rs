//! The tables of the spec, compiled: each table's input and its steps,
//! checked for names that do not exist, cycles and chains too long to
//! build.

use indexmap::IndexMap;

use super::steps::{self, Step};
use crate::error::{Error, Result};
use crate::spec::{LoadedSpec, TableSpec, no_table};

/// A table as the plan runs it.
#[derive(Debug)]
pub struct TablePlan<'s> {
    /// The source or table it reads (`from`).
    pub from: &'s str,
    /// Its steps, compiled, in order.
    pub steps: Vec<Step<'s>>,
}

fn known(spec: &LoadedSpec, name: &str) -> bool {
    spec.spec.tables.contains_key(name) || spec.spec.sources.contains_key(name)
}

type Edges<'a> = Vec<(&'a str, Vec<(String, Span)>)>;
type Span = std::ops::Range<usize>;

/// The longest chain of tables a table may read through (`from`, `lookup`,
/// `union`): tables are built recursively, and a chain of 3,000 overflowed
/// the stack. A paper chains a handful.
pub const MAX_TABLE_CHAIN: usize = 100;

/// The most steps one table may have: the streamed steps nest one call per
/// step (a worker thread's stack held 1,000 in a debug build, not 5,000).
/// A paper's tables have a dozen.
pub const MAX_STEPS: usize = 200;

/// The first cycle of `edges`, searched from each table in declaration
/// order, as an error at the reference that closes it
/// (`cycle of tables: a -> b -> a`); then the first table at the end of a
/// chain longer than [`MAX_TABLE_CHAIN`]. Iterative: a chain of thousands
/// of tables cannot overflow the stack here. (A graph crate's topological
/// sort names one table of a cycle, not the cycle and the reference
/// closing it.)
fn references(spec: &LoadedSpec, edges: &Edges) -> Result<()> {
    let index: std::collections::HashMap<&str, usize> = edges
        .iter()
        .enumerate()
        .map(|(i, (n, _))| (*n, i))
        .collect();
    // 0: not seen, 1: on the current path, 2: done (no cycle through it).
    let mut state = vec![0u8; edges.len()];
    // For each done table, the length of the longest chain it ends.
    let mut chain = vec![0usize; edges.len()];
    for start in 0..edges.len() {
        if state[start] != 0 {
            continue;
        }
        // The path: (table, index of its next edge to follow).
        let mut path = vec![(start, 0usize)];
        state[start] = 1;
        while let Some(&mut (node, ref mut next)) = path.last_mut() {
            let Some((dep, span)) = edges[node].1.get(*next) else {
                // Every table it reads is done: its chain is known.
                let deepest = edges[node]
                    .1
                    .iter()
                    .filter_map(|(dep, span)| index.get(dep.as_str()).map(|&d| (chain[d], span)))
                    .max_by_key(|(len, _)| *len);
                chain[node] = 1 + deepest.map_or(0, |(len, _)| len);
                if let Some((_, span)) = deepest.filter(|_| chain[node] > MAX_TABLE_CHAIN) {
                    return Err(spec.error(
                        span.clone(),
                        format!(
                            "table `{}` reads through a chain of {} tables, more than the {MAX_TABLE_CHAIN} allowed",
                            edges[node].0, chain[node]
                        ),
                    ));
                }
                state[node] = 2;
                path.pop();
                continue;
            };
            *next += 1;
            let Some(&d) = index.get(dep.as_str()) else {
                continue;
            };
            match state[d] {
                0 => {
                    state[d] = 1;
                    path.push((d, 0));
                }
                1 => {
                    let from = path.iter().position(|&(n, _)| n == d).expect("on path");
                    let mut names: Vec<&str> =
                        path[from..].iter().map(|&(n, _)| edges[n].0).collect();
                    names.push(edges[d].0);
                    return Err(spec.error(
                        span.clone(),
                        format!("cycle of tables: {}", names.join(" -> ")),
                    ));
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Compiles every table of the spec: every name a table reads exists,
/// every step compiles (its expressions named after the table), no cycle
/// and no chain of more than [`MAX_TABLE_CHAIN`] tables. Each table's
/// first problem goes to `errors` (at its line and column, in declaration
/// order) and the others are still compiled; a table that failed is left
/// out of the result.
pub fn compile<'s>(
    spec: &'s LoadedSpec,
    errors: &mut Vec<Error>,
) -> IndexMap<String, TablePlan<'s>> {
    for (name, src) in &spec.spec.sources {
        if spec.spec.tables.contains_key(name) {
            errors.push(spec.error(src.span(), format!("`{name}` is both a source and a table")));
        }
    }
    let mut plans = IndexMap::with_capacity(spec.spec.tables.len());
    let mut edges: Edges = Vec::with_capacity(spec.spec.tables.len());
    for (name, t) in &spec.spec.tables {
        match table(spec, name, t.get_ref()) {
            Ok((plan, reads)) => {
                edges.push((name.as_str(), reads));
                plans.insert(name.clone(), plan);
            }
            Err(e) => errors.push(e),
        }
    }
    if let Err(e) = references(spec, &edges) {
        errors.push(e);
    }
    plans
}

/// Table `name` compiled, with the tables (not sources) it reads and
/// where it names them.
fn table<'s>(
    spec: &LoadedSpec,
    name: &str,
    t: &'s TableSpec,
) -> Result<(TablePlan<'s>, Vec<(String, Span)>)> {
    if !known(spec, t.from.get_ref()) {
        return Err(spec.error(t.from.span(), no_table(spec, t.from.get_ref())));
    }
    if let Some(extra) = t.steps.get(MAX_STEPS) {
        return Err(spec.error(
            extra.span(),
            format!(
                "table `{name}` has {} steps, more than the {MAX_STEPS} allowed",
                t.steps.len()
            ),
        ));
    }
    let mut reads = vec![(t.from.get_ref().clone(), t.from.span())];
    let mut compiled = Vec::with_capacity(t.steps.len());
    for raw in &t.steps {
        let s = raw.get_ref();
        let span = match (&s.lookup, &s.union) {
            (Some(l), _) => l.span(),
            (None, Some(u)) => u.span(),
            _ => raw.span(),
        };
        let mut step = steps::compile(spec, raw)?;
        step.set_table(name);
        for dep in step.dependencies() {
            if !known(spec, dep) {
                return Err(spec.error(raw.span(), no_table(spec, dep)));
            }
            reads.push((dep.to_string(), span.clone()));
        }
        compiled.push(step);
    }
    reads.retain(|(dep, _)| !spec.spec.sources.contains_key(dep));
    let plan = TablePlan {
        from: t.from.get_ref(),
        steps: compiled,
    };
    Ok((plan, reads))
}
