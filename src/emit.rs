//! Emitting numbers: `macros.tex`, `macros.typ` and `numbers.json`, each
//! through a minijinja template (the built-in ones in `templates/`, or the
//! spec's own under `[templates]`).
//!
//! Template context: `version` and `numbers`, a list (sorted by key) of
//! `{ key, value, text, description, table, rows, sources, provenance,
//! tex_name }`. Filters: `tex_escape`, `tex_comment`, `typ_string`,
//! `typ_comment`, `json` (serde_json, no HTML escaping).
//!
//! Keys are free-form in the spec (`fig3-median`); LaTeX gets
//! `\artnum{fig3-median}` plus a command whose name spells digits out
//! (`\artFigThreeMedian`, since TeX names are letters only), checked for
//! collisions; typst gets `#fig3-median` (typst identifiers may hold `-`).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use minijinja::Environment;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::numbers::Number;
use crate::spec::LoadedSpec;

const TEX: &str = include_str!("../templates/macros.tex.j2");
const TYP: &str = include_str!("../templates/macros.typ.j2");
const JSON: &str = include_str!("../templates/numbers.json.j2");

/// Typst keywords, which cannot name a binding.
const TYPST_KEYWORDS: &[&str] = &[
    "none", "auto", "true", "false", "let", "set", "show", "if", "else", "for", "in", "while",
    "break", "continue", "return", "import", "include", "as", "context", "not", "and", "or",
];

/// The LaTeX command name for `key`: `art` + CamelCase, digits spelled out
/// (`fig3-median` -> `artFigThreeMedian`).
pub fn tex_name(key: &str) -> String {
    const DIGITS: [&str; 10] = [
        "Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine",
    ];
    let mut out = String::from("art");
    let mut upper = true;
    for ch in key.chars() {
        if let Some(d) = ch.to_digit(10) {
            out.push_str(DIGITS[d as usize]);
            upper = true;
        } else if ch.is_ascii_alphabetic() {
            if upper {
                out.push(ch.to_ascii_uppercase());
            } else {
                out.push(ch);
            }
            upper = false;
        } else {
            upper = true;
        }
    }
    out
}

fn tex_escape(s: String) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\textbackslash{}"),
            '%' | '$' | '#' | '&' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '\u{2212}' => out.push_str("\\ensuremath{-}"),
            c => out.push(c),
        }
    }
    out
}

/// `s` escaped for LaTeX text, as the built-in macros template prints it.
pub fn tex_escape_text(s: &str) -> String {
    tex_escape(s.to_string())
}

fn one_line(s: String) -> String {
    s.replace(['\n', '\r'], " ")
}

fn typ_string(s: String) -> String {
    let mut out = String::from("\"");
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json(v: minijinja::Value) -> std::result::Result<String, minijinja::Error> {
    serde_json::to_string(&v)
        .map_err(|e| minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, e.to_string()))
}

fn environment() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        env.set_syntax(crate::expr::syntax());
        env.add_filter("tex_escape", tex_escape);
        env.add_filter("tex_comment", one_line);
        env.add_filter("typ_comment", one_line);
        env.add_filter("typ_string", typ_string);
        env.add_filter("json", json);
        env
    })
}

#[derive(Serialize)]
struct Entry<'a> {
    key: &'a str,
    value: serde_json::Value,
    text: &'a str,
    description: Option<&'a str>,
    table: Option<&'a str>,
    rows: usize,
    sources: Vec<&'a str>,
    provenance: String,
    tex_name: String,
}

/// The three emitted files: (file name, bytes).
pub fn emit(spec: &LoadedSpec, numbers: &[Number]) -> Result<Vec<(&'static str, Vec<u8>)>> {
    let mut sorted: Vec<&Number> = numbers.iter().collect();
    sorted.sort_by(|a, b| a.key.cmp(&b.key));
    let mut names: BTreeMap<String, &str> = BTreeMap::new();
    let mut entries = Vec::new();
    for n in &sorted {
        let name = tex_name(&n.key);
        if let Some(other) = names.insert(name.clone(), &n.key) {
            return Err(Error::msg(format!(
                "numbers `{other}` and `{}` both become the LaTeX command \\{name}; rename one",
                n.key
            )));
        }
        if TYPST_KEYWORDS.contains(&n.key.as_str()) {
            return Err(Error::msg(format!(
                "number key `{}` is a typst keyword; rename it",
                n.key
            )));
        }
        let value = serde_json::to_value(&n.value).unwrap_or(serde_json::Value::Null);
        let provenance = match &n.table {
            Some(t) => format!(
                "from {} row(s) of table `{t}` (sources: {})",
                n.rows,
                n.sources.iter().cloned().collect::<Vec<_>>().join(", ")
            ),
            None => "from an expression over the spec's metadata".to_string(),
        };
        entries.push(Entry {
            key: &n.key,
            value,
            text: &n.text,
            description: n.description.as_deref(),
            table: n.table.as_deref(),
            rows: n.rows,
            sources: n.sources.iter().map(String::as_str).collect(),
            provenance,
            tex_name: name,
        });
    }
    let ctx = minijinja::context! { version => env!("CARGO_PKG_VERSION"), numbers => minijinja::Value::from(minijinja::value::Serde(&entries)) };
    let t = &spec.spec.templates;
    let mut out = Vec::new();
    for (file, builtin, custom) in [
        ("macros.tex", TEX, &t.tex),
        ("macros.typ", TYP, &t.typ),
        ("numbers.json", JSON, &t.json),
    ] {
        let source = match custom {
            None => builtin.to_string(),
            Some(p) => {
                let path = spec.root.join(p.get_ref());
                std::fs::read_to_string(&path).map_err(|e| {
                    spec.error(
                        p.span(),
                        format!("cannot read template {}: {e}", path.display()),
                    )
                })?
            }
        };
        // minijinja's code generator recurses over a 100k-deep chain.
        if crate::expr::depth::template_depth(&source) > crate::expr::depth::MAX_DEPTH {
            return Err(Error::msg(format!(
                "template for {file}: nested deeper than {} levels",
                crate::expr::depth::MAX_DEPTH
            )));
        }
        let text = environment()
            .render_str(&source, ctx.clone())
            .map_err(|e| Error::msg(format!("template for {file}: {e:#}")))?;
        out.push((file, text.into_bytes()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tex_names_spell_digits_and_camel_case() {
        assert_eq!(tex_name("fig3-median"), "artFigThreeMedian");
        assert_eq!(
            tex_name("fig5-bf16-split-ratio"),
            "artFigFiveBfOneSixSplitRatio"
        );
        assert_eq!(tex_name("sim_t_read_ms"), "artSimTReadMs");
    }

    #[test]
    fn tex_escape_protects_specials() {
        assert_eq!(tex_escape("12.5% of a_b".into()), "12.5\\% of a\\_b");
    }

    #[test]
    fn typ_strings_are_quoted() {
        assert_eq!(typ_string("a\"b\\c".into()), "\"a\\\"b\\\\c\"");
    }
}
