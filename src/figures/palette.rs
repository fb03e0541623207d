//! One colour per value across the paper, at run time: each colour
//! field's values over every figure in spec order (see
//! [`crate::plan::palette`] for which field a layer follows), found as
//! figures ask for them, and the colour each value takes.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use indexmap::IndexMap;

use super::encode::csv_text;
use crate::color::assign::assign;
use crate::color::scheme::{DEFAULT, DEFAULT_SCHEME, HATCHES};
use crate::error::Result;
use crate::expr::{Expr, Globals};
use crate::plan::channels::Chan;
use crate::plan::layers::LayerPlan;
use crate::plan::palette::{Via, colour_field};
use crate::plan::{FigurePlan, Plan};
use crate::tables::Catalog;
use crate::value::Value;

/// At most this many values of one colour field are kept (a field with
/// more is no category: its figures fail on their scheme's size).
const MAX_VALUES: usize = 10_000;

/// The values of every colour field over the figures, in spec order.
pub struct Palette<'a, 's> {
    plan: &'a Plan<'s>,
    cat: &'a Catalog<'a>,
    globals: &'a Arc<Globals>,
    /// `[style] colors`, as the plan checked it.
    pub fixed: Vec<(String, String)>,
    /// Field -> its values so far, the index of the next figure to read,
    /// and per figure read the number of values up to its last one.
    fields: RefCell<BTreeMap<String, Field>>,
}

/// One colour field's values as far as the figures were read.
#[derive(Default)]
struct Field {
    seen: IndexMap<String, ()>,
    next: usize,
    upto: Vec<usize>,
}

impl<'a, 's> Palette<'a, 's> {
    /// The palette of `plan`'s figures, reading rows from `cat`.
    pub fn new(plan: &'a Plan<'s>, cat: &'a Catalog<'a>, globals: &'a Arc<Globals>) -> Self {
        Palette {
            plan,
            cat,
            globals,
            fixed: crate::plan::palette::fixed(plan.spec).unwrap_or_default(),
            fields: RefCell::new(BTreeMap::new()),
        }
    }

    /// The values of colour field `field`, first seen first, over the
    /// figures before `figure` (in declaration order) and up to the last
    /// value `figure` draws: the values it draws have these places. A
    /// layer whose rows cannot be read or keyed adds nothing here: its
    /// figure reports the error when it is built.
    pub fn values(&self, field: &str, figure: &str) -> Vec<String> {
        let upto = self.plan.figures.get_index_of(figure).unwrap_or(0);
        let mut fields = self.fields.borrow_mut();
        let f = fields.entry(field.to_string()).or_default();
        while f.next <= upto && f.next < self.plan.figures.len() {
            let (_, fp) = self.plan.figures.get_index(f.next).expect("in range");
            let last = self.read_figure(fp, field, &mut f.seen);
            f.upto.push(last);
            f.next += 1;
        }
        let n = f.upto.get(upto).copied().unwrap_or(f.seen.len());
        f.seen.keys().take(n).cloned().collect()
    }

    /// Reads figure `fp`'s layers colouring by `field` into `seen`; gives
    /// the number of values up to the last one it draws.
    fn read_figure(
        &self,
        fp: &FigurePlan<'s>,
        field: &str,
        seen: &mut IndexMap<String, ()>,
    ) -> usize {
        let panels = fp.panels.len().max(1);
        let mut last = 0;
        for pi in 0..panels {
            for lp in fp.panel_layers(pi) {
                if colour_field(lp.spec).is_some_and(|(f, _)| f == field) {
                    let _ = self.read_layer(lp, seen, &mut last);
                }
            }
        }
        last
    }

    fn read_layer(
        &self,
        lp: &LayerPlan<'s>,
        seen: &mut IndexMap<String, ()>,
        last: &mut usize,
    ) -> Result<()> {
        let Some(d) = &lp.spec.data else {
            return Ok(());
        };
        let Some((_, via)) = colour_field(lp.spec) else {
            return Ok(());
        };
        let table = self.cat.lookup(d.get_ref(), d.span())?;
        if table.unavailable.is_some() {
            return Ok(());
        }
        let offset;
        let series;
        let (expr, scale_text): (&Expr, bool) = match via {
            Via::Color => match lp.chans.color.as_ref().and_then(|c| c.scale_expr()) {
                Some(e) => (e, true),
                None => return Ok(()),
            },
            Via::Series => {
                series = lp.series.as_ref().map(|s| s.get()).transpose()?;
                match &series {
                    Some(e) => (*e, false),
                    None => return Ok(()),
                }
            }
            Via::Offset => {
                let chan = lp.chans.x_offset.as_ref().or(lp.chans.y_offset.as_ref());
                offset = chan.map(|c| c.get()).transpose()?;
                match offset {
                    Some(Chan::Expr(e)) | Some(Chan::Scale { expr: e, .. }) => (e, false),
                    _ => return Ok(()),
                }
            }
        };
        for row in &table.rows {
            if let Some(w) = &lp.where_
                && !w.test_row(self.globals, row)?
            {
                continue;
            }
            let v = expr.eval_row(self.globals, row)?;
            let key = key_text(&v, scale_text);
            if key.is_empty() {
                continue;
            }
            let at = match seen.get_index_of(&key) {
                Some(i) => i,
                None if seen.len() >= MAX_VALUES => break,
                None => seen.insert_full(key, ()).0,
            };
            *last = (*last).max(at + 1);
        }
        Ok(())
    }
}

/// A value's text as a key: a colour scale's (`scale`: a string as it is,
/// else its display) or a group's (as the CSV writes it).
pub fn key_text(v: &Value, scale: bool) -> String {
    if v.is_none() || v.is_undefined() {
        return String::new();
    }
    if scale {
        v.as_str()
            .map(str::to_string)
            .unwrap_or_else(|| v.to_string())
    } else {
        csv_text(v)
    }
}

/// What layer `lp` of figure `figure` takes from the palette: the field's
/// values up to the figure's last, each with its colour from the layer's
/// scheme (its colour scale's range, else the default scheme) after the
/// values `[style] colors` fixes; `None` when its colours are its own.
/// More values than the scheme's colours is an error at the channel that
/// colours (`color`, `series`, the offset) naming the scheme, its size
/// and the values, except on a layer without `color` and with `legend =
/// false`, whose colours then cycle.
pub fn shared_for(
    palette: &Palette,
    (figure, figure_scheme): (&str, Option<&str>),
    lp: &LayerPlan,
) -> Result<Option<(Via, IndexMap<String, String>)>> {
    let Some((field, via)) = colour_field(lp.spec) else {
        return Ok(None);
    };
    let keys = palette.values(&field, figure);
    let default: Vec<String> = DEFAULT.iter().map(|s| s.to_string()).collect();
    let (range, hatch) = match (via, lp.chans.color.as_ref()) {
        (Via::Color, Some(Chan::Scale { range, hatch, .. })) => (range, *hatch),
        (Via::Color, _) => return Ok(None),
        _ => (&default, false),
    };
    // Colours no `color` asked for and no legend names (an offset's or a
    // series' with `legend = false`) may repeat past the scheme: they
    // label nothing.
    let unlabelled = via != Via::Color && lp.spec.legend == Some(false);
    let pairs = if unlabelled {
        usize::MAX
    } else if hatch {
        range.len().max(HATCHES.len())
    } else {
        range.len()
    };
    match assign(&keys, range, &palette.fixed, pairs) {
        Ok(colours) => Ok(Some((via, keys.into_iter().zip(colours).collect()))),
        Err(short) => Err(shortfall(
            palette,
            lp,
            (&field, via, figure_scheme),
            &keys,
            short,
        )),
    }
}

/// The error of a scheme too small for the paper's values of a field.
fn shortfall(
    palette: &Palette,
    lp: &LayerPlan,
    (field, via, figure_scheme): (&str, Via, Option<&str>),
    keys: &[String],
    short: crate::color::assign::Shortfall,
) -> crate::error::Error {
    let l = lp.spec;
    let (span, chan) = match via {
        Via::Color => (l.color.as_ref().map(|c| c.span()), "color"),
        Via::Series => (l.series.as_ref().map(|s| s.span()), "series"),
        Via::Offset => match &l.x_offset {
            Some(x) => (Some(x.span()), "xOffset"),
            None => (l.y_offset.as_ref().map(|y| y.span()), "yOffset"),
        },
    };
    let scheme = match via {
        Via::Color => l
            .color
            .as_ref()
            .and_then(|c| c.get_ref().get("scale"))
            .and_then(|s| s.get("scheme"))
            .and_then(|s| s.as_str())
            .or(figure_scheme)
            .unwrap_or(DEFAULT_SCHEME),
        _ => DEFAULT_SCHEME,
    };
    let (besides, left) = if palette.fixed.is_empty() {
        ("", "")
    } else {
        (" besides those `[style] colors` fixes", " left")
    };
    let noun = if short.size > 0
        && lp
            .chans
            .color
            .as_ref()
            .is_some_and(|c| matches!(c, Chan::Scale { hatch: true, .. }))
    {
        if scheme == "greys" {
            "grey and hatch pairs"
        } else {
            "colour and hatch pairs"
        }
    } else {
        "colours"
    };
    let unfixed: Vec<&str> = keys
        .iter()
        .filter(|k| !palette.fixed.iter().any(|(f, _)| f == *k))
        .map(String::as_str)
        .collect();
    let msg = format!(
        "`{chan}` colours by `{field}`, which has {} values{besides} across the paper's figures so far ({}); {scheme} has {} {noun}{left}: give the values colours in `[style] colors`, a scheme with more colours (`scheme = \"tab20\"`), or fewer values",
        short.values,
        crate::error::name_list(unfixed, false),
        short.size,
    );
    palette
        .plan
        .spec
        .error(span.unwrap_or(lp.span.clone()), msg)
}
