//! A layer's `text`: a template over the row (`"{{ speedup | fmt(places=1) }}×"`)
//! or a field printed with a number format
//! (`{ field = "speedup", format = { places = 1, unit = "×" } }`, the
//! numbers' siunitx words).

use std::sync::Arc;

use crate::error::Result;
use crate::expr::{Expr, Globals, Template};
use crate::format::Format;
use crate::spec::FormatSpec;
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
                    Some(V::Table(_)) => format_of(spec, raw)?,
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

/// The `format` of a `text = { field, format }`, read as a number's
/// `format` ([`FormatSpec`]): a label takes every key a number takes
/// (`exponent-mode`, `group-digits`, `number-unit-product`, ...), checked
/// and bounded the same way. `text` is a free-form value in the typed
/// spec, so its table is parsed again from the spec's text with everything
/// before it blanked (line breaks kept): spans, and so errors, point into
/// the spec.
fn format_of(spec: &LoadedSpec, raw: &Raw) -> Result<Format> {
    #[derive(serde::Deserialize)]
    struct Wrap {
        t: TextTable,
    }
    #[derive(serde::Deserialize)]
    struct TextTable {
        format: toml::Spanned<FormatSpec>,
    }
    let start = raw.span().start;
    let (Some(prefix), Some(value)) = (spec.text.get(..start), spec.text.get(raw.span())) else {
        return Err(bad(spec, raw, "`text`'s `format` could not be read"));
    };
    let mut text: Vec<u8> = prefix
        .bytes()
        .map(|b| if b == b'\n' || b == b'\r' { b } else { b' ' })
        .collect();
    // `text = ` precedes the value on its line: room for `t=`.
    let n = text.len();
    if n < 2 || text[n - 2..].contains(&b'\n') {
        return Err(bad(spec, raw, "`text`'s `format` could not be read"));
    }
    text[n - 2..].copy_from_slice(b"t=");
    text.extend_from_slice(value.as_bytes());
    let text = String::from_utf8(text).map_err(|_| bad(spec, raw, "`text` is not UTF-8"))?;
    let w: Wrap = toml::from_str(&text).map_err(|e| {
        let at = e.span().unwrap_or(raw.span());
        spec.error(at, format!("`text`'s `format`: {}", e.message()))
    })?;
    Format::compile(spec, w.t.format.get_ref(), w.t.format.span())
}
