//! A layer's `text`, compiled: a template over the row
//! (`"{{ speedup | fmt(places=1) }}×"`) or a field printed with a number
//! format (`{ field = "speedup", format = { places = 1, unit = "×" } }`,
//! the numbers' siunitx words).

use super::Later;
use crate::error::Result;
use crate::expr::{Expr, Template};
use crate::format::Format;
use crate::spec::{FormatSpec, LoadedSpec, Raw};

/// A compiled `text`.
// One per layer: not worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Text<'s> {
    /// A template.
    Template(Template<'s>),
    /// An expression and its format.
    Field(Expr<'s>, Format),
}

fn bad(spec: &LoadedSpec, raw: &Raw, msg: &str) -> crate::error::Error {
    spec.error(raw.span(), msg.to_string())
}

/// Compiles `text` (a string, or a table of `field` and `format`) over
/// rows of `table`; errors point at it. A field's expression is compiled
/// too, but its error is the figure's when it is built (as it was when
/// only the build compiled it): hence [`Later`].
pub fn compile<'s>(
    spec: &LoadedSpec,
    raw: &'s Raw,
    table: Option<&str>,
) -> Result<Later<Text<'s>>> {
    use toml::Value as V;
    match raw.get_ref() {
        V::String(s) => {
            let t = Template::compile_at(spec, s, raw.span())?;
            Ok(Later::ok(Text::Template(match table {
                Some(d) => t.in_table(d),
                None => t,
            })))
        }
        V::Table(t) => {
            let keys = ["field", "format"];
            if let Some(k) = t.keys().find(|k| !keys.contains(&k.as_str())) {
                return Err(bad(
                    spec,
                    raw,
                    &format!("unknown key `{k}` in `text` (it takes {})", keys.join(", ")),
                ));
            }
            let Some(V::String(field)) = t.get("field") else {
                return Err(bad(
                    spec,
                    raw,
                    "`text` as a table needs `field` (an expression)",
                ));
            };
            let f = match t.get("format") {
                None => Format::default(),
                Some(V::Table(_)) => format_of(spec, raw)?,
                Some(_) => {
                    return Err(bad(spec, raw, "`format` is a table such as { places = 1 }"));
                }
            };
            Ok(Later::new(Expr::compile_str(spec, field, raw.span()).map(
                |e| {
                    let e = match table {
                        Some(d) => e.in_table(d),
                        None => e,
                    };
                    Text::Field(e, f)
                },
            )))
        }
        _ => Err(bad(
            spec,
            raw,
            "`text` is a template (a string) or { field, format }",
        )),
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
