//! A layer's `text`: a template over the row (`"{{ speedup | fmt(places=1) }}×"`)
//! or a field printed with a number format
//! (`{ field = "speedup", format = { places = 1, unit = "×" } }`, the
//! numbers' siunitx words).

use std::sync::Arc;

use crate::error::Result;
use crate::expr::{Expr, Globals, Template};
use crate::numbers::format::Format;
use crate::spec::{LoadedSpec, Raw, SpannedStr};
use crate::value::Row;

/// The spec's `text`, owned, before compiling.
#[derive(Debug)]
pub enum TextSpec {
    /// A template.
    Template(SpannedStr),
    /// An expression and how its value is printed.
    Field(SpannedStr, Format),
}

/// A compiled `text`.
pub enum Text<'s> {
    /// A template.
    Template(Template<'s>),
    /// An expression and its format.
    Field(Expr<'s>, &'s Format),
}

fn bad(spec: &LoadedSpec, raw: &Raw, msg: &str) -> crate::error::Error {
    spec.error(raw.span(), msg.to_string())
}

impl TextSpec {
    /// Reads `text` (a string, or a table of `field` and `format`); errors
    /// point at it.
    pub fn parse(spec: &LoadedSpec, raw: &Raw) -> Result<TextSpec> {
        use toml::Value as V;
        match raw.get_ref() {
            V::String(s) => Ok(TextSpec::Template(SpannedStr::new(raw.span(), s.clone()))),
            V::Table(t) => {
                let known = |t: &toml::Table, keys: &[&str], what: &str| -> Result<()> {
                    match t.keys().find(|k| !keys.contains(&k.as_str())) {
                        None => Ok(()),
                        Some(k) => Err(bad(
                            spec,
                            raw,
                            &format!("unknown key `{k}` in {what} (it takes {})", keys.join(", ")),
                        )),
                    }
                };
                known(t, &["field", "format"], "`text`")?;
                if let Some(V::Table(f)) = t.get("format") {
                    known(
                        f,
                        &["places", "figures", "sign", "percent", "unit"],
                        "`text`'s `format`",
                    )?;
                }
                let field = match t.get("field") {
                    Some(V::String(f)) => SpannedStr::new(raw.span(), f.clone()),
                    _ => {
                        return Err(bad(
                            spec,
                            raw,
                            "`text` as a table needs `field` (an expression)",
                        ));
                    }
                };
                let f = match t.get("format") {
                    None => Format::default(),
                    Some(V::Table(f)) => format_of(spec, raw, f)?,
                    Some(_) => {
                        return Err(bad(spec, raw, "`format` is a table such as { places = 1 }"));
                    }
                };
                Ok(TextSpec::Field(field, f))
            }
            _ => Err(bad(
                spec,
                raw,
                "`text` is a template (a string) or { field, format }",
            )),
        }
    }

    /// The text's template source, when it is one (for validation).
    pub fn template(&self) -> Option<&SpannedStr> {
        match self {
            TextSpec::Template(s) => Some(s),
            TextSpec::Field(..) => None,
        }
    }

    /// Compiles it over rows of `table`.
    pub fn compile<'s>(&'s self, spec: &LoadedSpec, table: Option<&str>) -> Result<Text<'s>> {
        Ok(match self {
            TextSpec::Template(s) => {
                let t = Template::compile(spec, s)?;
                Text::Template(match table {
                    Some(d) => t.in_table(d),
                    None => t,
                })
            }
            TextSpec::Field(s, f) => {
                let e = Expr::compile(spec, s)?;
                Text::Field(
                    match table {
                        Some(d) => e.in_table(d),
                        None => e,
                    },
                    f,
                )
            }
        })
    }
}

impl Text<'_> {
    /// The text for `row`.
    pub fn render_row(&self, globals: &Arc<Globals>, row: &Row) -> Result<String> {
        match self {
            Text::Template(t) => t.render_row(globals, row),
            Text::Field(e, f) => Ok(f.apply(&e.eval_row(globals, row)?)),
        }
    }
}

/// A number format from a `text`'s `format` table, with the numbers' words
/// and bounds (`group-digits` is for tables of numbers, not labels).
fn format_of(spec: &LoadedSpec, raw: &Raw, t: &toml::Table) -> Result<Format> {
    use crate::spec::bounds::{FIGURES, PLACES};
    let int = |k: &str, range: std::ops::RangeInclusive<u32>| -> Result<Option<u32>> {
        match t.get(k) {
            None => Ok(None),
            Some(toml::Value::Integer(i))
                if u32::try_from(*i).is_ok_and(|v| range.contains(&v)) =>
            {
                Ok(Some(*i as u32))
            }
            Some(_) => Err(bad(
                spec,
                raw,
                &format!(
                    "`format.{k}` must be a whole number from {} to {}",
                    range.start(),
                    range.end()
                ),
            )),
        }
    };
    let places = int("places", PLACES)?;
    let figures = int("figures", FIGURES)?;
    if places.is_some() && figures.is_some() {
        return Err(bad(
            spec,
            raw,
            "a format has `places` or `figures`, not both",
        ));
    }
    let plus = match t.get("sign").map(|v| v.as_str()) {
        None | Some(Some("negative")) => false,
        Some(Some("always")) => true,
        _ => return Err(bad(spec, raw, "`format.sign` is `always` or `negative`")),
    };
    let percent = match t.get("percent") {
        None => false,
        Some(toml::Value::Boolean(b)) => *b,
        Some(_) => return Err(bad(spec, raw, "`format.percent` is true or false")),
    };
    let unit = match t.get("unit") {
        None => None,
        Some(toml::Value::String(u)) => Some(u.clone()),
        Some(_) => return Err(bad(spec, raw, "`format.unit` is a string")),
    };
    Ok(Format::new(places, figures, plus, percent, unit))
}
