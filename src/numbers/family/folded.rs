//! A family's members from its fold ([`crate::plan::fold`]): one group
//! step on its table's stream, keyed by its `per` fields or, a member per
//! row, by the fields its templates read ([`crate::plan::fold::family_keys`]).
//! Each group row gives one member as the held rows would: its key and
//! description rendered over a row of the key fields, its value and text
//! from the group's aggregates. Whatever the held rows would tell
//! otherwise (a null or missing key field, two rows giving one key, a key
//! that is no key, an error) is left to them ([`Unsure::Held`]), so every
//! message stays as it was.

use std::sync::Arc;

use indexmap::IndexMap;

use super::{Members, check_key, declared_line, no_rows, too_many_groups, too_many_rows};
use crate::error::Error;
use crate::expr::Globals;
use crate::plan::fold::ROWS;
use crate::plan::numbers::NumberPlan;
use crate::plan::steps::Step;
use crate::spec::LoadedSpec;
use crate::tables::fold::Folded;
use crate::value::{Record, Row, as_number};

use super::super::{Earlier, Number};

/// Why the fold's members were not taken.
pub enum Unsure {
    /// The error the held rows give too (more members than a family may
    /// have): told as it is.
    Exact(Error),
    /// The held rows tell what is wrong; this error only when holding them
    /// would pass the memory cap.
    Held(Error),
}

/// Family `name`'s (compiled: `plan`) members from what its fold gave
/// (`f`), in the order of their groups' first rows.
pub fn members(
    spec: &LoadedSpec,
    globals: &Arc<Globals>,
    name: &str,
    plan: &NumberPlan<'_>,
    f: &Folded,
    earlier: Earlier<'_>,
) -> Result<Members, Unsure> {
    let held =
        |msg: &str| Unsure::Held(Error::msg(format!("{}: {msg}", declared_line(spec, name))));
    let (Some(fam), Some(table_name)) = (&plan.family, plan.table) else {
        return Err(held("not a family over a table"));
    };
    let Some(Step::Group { keys, .. }) = plan.fold.as_ref().and_then(|f| f.steps.last()) else {
        return Err(held("no group step"));
    };
    if let Some(reason) = &f.unavailable {
        return Ok(Members {
            unavailable: Some(reason.clone()),
            ..Members::default()
        });
    }
    if f.rows.is_empty() {
        return Ok(no_rows(name, table_name, plan.decl.get_ref()));
    }
    let count = |g: &Row| g.get(ROWS).and_then(as_number).map_or(0, |n| n as usize);
    let null_key = |g: &Row| {
        keys.iter()
            .any(|k| g.get(k).is_none_or(|v| v.is_none() || v.is_undefined()))
    };
    // More members than a family may have: the held rows' error, when no
    // key before the one past the limit is null (that row's error would
    // come first).
    match &fam.per {
        None => {
            let total: usize = f.rows.iter().map(count).sum();
            if total > super::MAX_MEMBERS {
                return Err(Unsure::Exact(too_many_rows(spec, name, table_name, total)));
            }
        }
        Some(_) if f.rows.len() > super::MAX_MEMBERS => {
            if f.rows[..=super::MAX_MEMBERS].iter().any(null_key) {
                return Err(held("a null key"));
            }
            return Err(Unsure::Exact(too_many_groups(spec, name, table_name)));
        }
        Some(_) => {}
    }
    let mut sources = f.sources.clone();
    sources.extend(super::super::read_sources(
        spec,
        name,
        &[table_name.to_string()],
        earlier,
        false,
    ));
    let reserved = crate::plan::keys::Reserved::of(spec);
    let mut seen: IndexMap<String, String> = IndexMap::new();
    let mut out = Vec::with_capacity(f.rows.len());
    for (i, g) in f.rows.iter().enumerate() {
        let shown = format!(
            "the group of {} row(s) number {} of table `{table_name}`",
            count(g),
            i + 1
        );
        if null_key(g) {
            return Err(held(&format!("{shown} has a null or missing key field")));
        }
        if fam.per.is_none() && count(g) != 1 {
            return Err(held(&format!("{shown} gives one key")));
        }
        // The row the templates read: the key fields, in their order.
        let mut rec = Record::with_capacity(keys.len());
        for k in keys {
            rec.insert(k.as_str(), g.get(k).cloned().unwrap_or_default());
        }
        let row = Row {
            extra: Default::default(),
            fields: Arc::new(rec),
            origin: g.origin.clone(),
        };
        let key = fam.each.render_row(globals, &row).map_err(Unsure::Held)?;
        check_key(spec, name, &key, &shown, &seen, &reserved).map_err(Unsure::Held)?;
        let ((value, text, uncertainty, parts), rows) =
            super::super::from_fold(spec, plan, name, globals, (g, ""))
                .map_err(|e| Unsure::Held(e.context(shown.clone())))?;
        let description = fam
            .description
            .as_ref()
            .map(|d| d.render_row(globals, &row))
            .transpose()
            .map_err(Unsure::Held)?;
        seen.insert(key.clone(), shown);
        out.push(Number {
            key,
            value,
            text,
            uncertainty,
            parts,
            description,
            table: Some(table_name.to_string()),
            rows,
            sources: sources.clone(),
            family: Some(name.to_string()),
        });
    }
    Ok(Members {
        list: out,
        ..Members::default()
    })
}
