//! Colour scales over the data: a categorical scheme's size against the
//! values it must tell apart. The schemes themselves are
//! [`crate::color::scheme`]'s.

pub use crate::color::scheme::*;

/// A categorical scale cycles its colours past its size, so that two
/// groups would share a colour and an identical legend swatch: more
/// distinct values than the scale tells apart (its `range`'s colours, its
/// scheme's, or for hatched greys 8 pairs of grey and pattern) is an error
/// at the `color` channel naming the list or scheme, its size and the
/// values. A scale the paper colours ([`super::palette`]) was checked
/// against the paper's values when its colours were assigned.
pub fn check_scheme_size(
    ctx: &super::encode::LayerCtx,
    c: &super::channels::Channel,
    rows: &[crate::value::Row],
) -> crate::error::Result<()> {
    let super::channels::Chan::Scale {
        expr, range, hatch, ..
    } = c.plan
    else {
        return Ok(());
    };
    let Some(raw) = &ctx.layer.color else {
        return Ok(());
    };
    if matches!(ctx.shared, Some((crate::plan::palette::Via::Color, _))) {
        return Ok(());
    }
    let scale = match raw.get_ref() {
        toml::Value::Table(t) => t.get("scale").and_then(|s| s.as_table()),
        _ => None,
    };
    let (scheme, own) = scale.map_or((None, false), |t| {
        (
            t.get("scheme").and_then(|s| s.as_str()),
            t.get("range").is_some(),
        )
    });
    let size = if *hatch {
        range.len().max(HATCHES.len())
    } else {
        range.len()
    };
    let mut keys: Vec<String> = c.domain().clone();
    for row in rows {
        let v = expr.eval_row(ctx.globals, row)?;
        let k = v
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| v.to_string());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    if keys.len() <= size {
        return Ok(());
    }
    if own {
        return Err(ctx.spec.error(
            raw.span(),
            format!(
                "`color`'s `range` has {size} colours for {} values ({}): give one colour per value, or drop `range` for the paper's colours",
                keys.len(),
                crate::error::name_list(keys.iter().map(String::as_str), false)
            ),
        ));
    }
    let name = scheme.or(ctx.scheme).unwrap_or(DEFAULT_SCHEME);
    let (noun, instead) = if *hatch && name == "greys" {
        ("grey and hatch pairs", "use tab20 or fewer groups")
    } else if *hatch {
        ("colour and hatch pairs", "use tab20 or fewer groups")
    } else if size < 20 {
        ("colours", "use tab20 or fewer groups")
    } else {
        ("colours", "use fewer groups")
    };
    Err(ctx.spec.error(
        raw.span(),
        format!(
            "{name} has {size} {noun}; `color` has {} values ({}..{}): {instead}",
            keys.len(),
            keys[0],
            keys[keys.len() - 1]
        ),
    ))
}
