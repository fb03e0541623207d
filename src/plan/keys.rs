//! Number keys: which names a key may take ([`key_problem`]) and the
//! LaTeX command it becomes ([`tex_name`]).

use std::collections::BTreeSet;

use crate::error::shown;
use crate::spec::LoadedSpec;

/// The built-in template of `macros.tex` (`templates/macros.tex.j2`).
pub const TEX: &str = include_str!("../../templates/macros.tex.j2");
/// The built-in template of `macros.typ` (`templates/macros.typ.j2`).
pub const TYP: &str = include_str!("../../templates/macros.typ.j2");

/// Typst keywords, which cannot name a binding.
const TYPST_KEYWORDS: &[&str] = &[
    "none", "auto", "true", "false", "let", "set", "show", "if", "else", "for", "in", "while",
    "break", "continue", "return", "import", "include", "as", "context", "not", "and", "or",
];

/// The names of typst's global scope (typst 0.15: `dictionary(std).keys()`
/// plus `std` itself), sorted. The documented `#import "macros.typ": *`
/// would let a number key shadow one, and `#set text(..)` then fails with
/// "expected function, found string".
const TYPST_GLOBALS: &[&str] = &[
    "align",
    "alignment",
    "angle",
    "aqua",
    "arguments",
    "array",
    "assert",
    "bibliography",
    "black",
    "block",
    "blue",
    "bool",
    "bottom",
    "box",
    "btt",
    "bytes",
    "calc",
    "cbor",
    "center",
    "circle",
    "cite",
    "cmyk",
    "colbreak",
    "color",
    "columns",
    "content",
    "counter",
    "csv",
    "curve",
    "datetime",
    "decimal",
    "dictionary",
    "direction",
    "divider",
    "document",
    "duration",
    "eastern",
    "ellipse",
    "emoji",
    "emph",
    "end",
    "enum",
    "eval",
    "figure",
    "float",
    "footnote",
    "fraction",
    "fuchsia",
    "function",
    "gradient",
    "gray",
    "green",
    "grid",
    "h",
    "heading",
    "here",
    "hide",
    "highlight",
    "horizon",
    "html",
    "image",
    "int",
    "json",
    "label",
    "layout",
    "left",
    "length",
    "lime",
    "line",
    "linebreak",
    "link",
    "list",
    "locate",
    "location",
    "lorem",
    "lower",
    "ltr",
    "luma",
    "maroon",
    "math",
    "measure",
    "metadata",
    "module",
    "move",
    "navy",
    "numbering",
    "oklab",
    "oklch",
    "olive",
    "orange",
    "outline",
    "overline",
    "pad",
    "page",
    "pagebreak",
    "panic",
    "par",
    "parbreak",
    "path",
    "pdf",
    "place",
    "plugin",
    "polygon",
    "purple",
    "query",
    "quote",
    "range",
    "ratio",
    "raw",
    "read",
    "rect",
    "red",
    "ref",
    "regex",
    "relative",
    "repeat",
    "repr",
    "rgb",
    "right",
    "rotate",
    "rtl",
    "scale",
    "selector",
    "silver",
    "skew",
    "smallcaps",
    "smartquote",
    "square",
    "stack",
    "start",
    "state",
    "std",
    "str",
    "strike",
    "stroke",
    "strong",
    "sub",
    "super",
    "sym",
    "symbol",
    "sys",
    "table",
    "target",
    "teal",
    "terms",
    "text",
    "tiling",
    "title",
    "toml",
    "top",
    "ttb",
    "type",
    "underline",
    "upper",
    "v",
    "version",
    "white",
    "xml",
    "yaml",
    "yellow",
];

/// Names the macro templates define themselves (typst bindings such as
/// `artnum` and `artnums`, LaTeX commands such as `\artnum`): a number key
/// must not shadow them.
#[derive(Debug, Default)]
pub struct Reserved {
    /// Names bound by `let NAME` in the typst template.
    pub typ: BTreeSet<String>,
    /// Commands defined by `\newcommand`, `\providecommand`, `\def`, ... in
    /// the LaTeX template (without the backslash).
    pub tex: BTreeSet<String>,
}

impl Reserved {
    /// The names the spec's templates (or the built-in ones) define. A
    /// custom template that cannot be read defines nothing here:
    /// `emit` reports it.
    pub fn of(spec: &LoadedSpec) -> Reserved {
        let read = |custom: &Option<crate::spec::SpannedStr>, builtin: &str| match custom {
            None => builtin.to_string(),
            Some(p) => {
                crate::files::read_template(&spec.root.join(p.get_ref())).unwrap_or_default()
            }
        };
        let t = &spec.spec.templates;
        Reserved {
            typ: typst_lets(&read(&t.typ, TYP)),
            tex: tex_definitions(&read(&t.tex, TEX)),
        }
    }
}

fn is_typst_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_typst_ident_continue(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// Every `NAME` written literally after the word `let` (a name spelled by a
/// template expression, `let {{ n.key }}`, is not one).
fn typst_lets(template: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in template.match_indices("let") {
        let before = template[..i].chars().next_back();
        if before.is_some_and(is_typst_ident_continue) {
            continue;
        }
        let rest = &template[i + 3..];
        let name_at = rest.trim_start_matches([' ', '\t']);
        if name_at.len() == rest.len() || !name_at.starts_with(is_typst_ident_start) {
            continue;
        }
        let end = name_at
            .find(|c: char| !is_typst_ident_continue(c))
            .unwrap_or(name_at.len());
        out.insert(name_at[..end].to_string());
    }
    out
}

/// Every command defined in a LaTeX template by `\newcommand`,
/// `\renewcommand`, `\providecommand`, `\DeclareRobustCommand`, `\def`,
/// `\gdef`, `\edef`, `\xdef` or `\let` (`\newcommand*{\name}`, `\def\name`).
fn tex_definitions(template: &str) -> BTreeSet<String> {
    const DEFINERS: &[&str] = &[
        "newcommand",
        "renewcommand",
        "providecommand",
        "DeclareRobustCommand",
        "def",
        "gdef",
        "edef",
        "xdef",
        "let",
    ];
    let mut out = BTreeSet::new();
    for (i, _) in template.match_indices('\\') {
        let rest = &template[i + 1..];
        let word_end = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        if !DEFINERS.contains(&&rest[..word_end]) {
            continue;
        }
        let after = rest[word_end..]
            .trim_start_matches('*')
            .trim_start()
            .trim_start_matches('{')
            .trim_start();
        if let Some(name) = after.strip_prefix('\\') {
            let end = name
                .find(|c: char| !(c.is_ascii_alphabetic() || c == '@'))
                .unwrap_or(name.len());
            if end > 0 {
                out.insert(name[..end].to_string());
            }
        }
    }
    out
}

/// Why `key` cannot name a number, or `None` when it can.
///
/// A key becomes a typst binding (`#let KEY = ...`), a dictionary key, the
/// argument of LaTeX's `\@namedef{artnum@KEY}` and, spelled out, a LaTeX
/// command (`\artFigThreeMedian`). The alphabet allowed is the part of
/// typst's identifiers that is also safe in a LaTeX control sequence name
/// argument: an ASCII letter, then ASCII letters, digits, `-` and `_` (no
/// braces, backslash, `%`, `#`, whitespace or control character). A key
/// must also not be a typst keyword, nor a name of typst's global scope
/// (`text`, `page`, `std`), nor a name the templates define (`artnum`,
/// `artnums` in typst; a command such as `\artnum` in LaTeX).
pub fn key_problem(key: &str, reserved: &Reserved) -> Option<String> {
    const ALPHABET: &str = "use ASCII letters, digits, `-` and `_`, starting with a letter (it becomes a LaTeX and typst name)";
    let Some(first) = key.chars().next() else {
        return Some(format!("a number key cannot be empty: {ALPHABET}"));
    };
    if !first.is_ascii_alphabetic() {
        return Some(format!(
            "number key `{}` starts with `{}`: {ALPHABET}",
            shown(key),
            shown(&first.to_string())
        ));
    }
    if let Some(bad) = key
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
    {
        return Some(format!(
            "number key `{}` holds `{}`: {ALPHABET}",
            shown(key),
            shown(&bad.to_string())
        ));
    }
    if TYPST_KEYWORDS.contains(&key) {
        return Some(format!("number key `{key}` is a typst keyword; rename it"));
    }
    if TYPST_GLOBALS.binary_search(&key).is_ok() {
        return Some(format!(
            "number key `{key}` would shadow typst's `{key}` when the paper imports macros.typ with `*`; rename it"
        ));
    }
    if reserved.typ.contains(key) {
        return Some(format!(
            "number key `{key}` would shadow `{key}`, which macros.typ defines; rename it"
        ));
    }
    let name = tex_name(key);
    if reserved.tex.contains(&name) {
        return Some(format!(
            "number key `{key}` becomes the LaTeX command \\{name}, which macros.tex defines; rename it"
        ));
    }
    None
}

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
    fn builtin_templates_reserve_artnum_artnums_and_artparts() {
        assert_eq!(
            typst_lets(TYP).into_iter().collect::<Vec<_>>(),
            ["artnum", "artnums", "artparts"]
        );
        // The helpers hold `@`, which no number's command (letters only) does.
        assert_eq!(
            tex_definitions(TEX).into_iter().collect::<Vec<_>>(),
            [
                "artnum",
                "artnum@@named",
                "artnum@@opt",
                "artnum@@part",
                "artnum@@pdf",
                "artnum@@tmp",
                "artnum@@value"
            ]
        );
        assert_eq!(
            tex_definitions("\\newcommand*{\\artFoo}{1}\\def\\artBar{2}")
                .into_iter()
                .collect::<Vec<_>>(),
            ["artBar", "artFoo"]
        );
    }

    #[test]
    fn key_alphabet_and_shadowing() {
        let r = Reserved {
            typ: typst_lets(TYP),
            tex: ["artFoo".to_string()].into(),
        };
        assert_eq!(key_problem("fig3-median", &r), None);
        assert_eq!(key_problem("sim_t_read_ms", &r), None);
        assert_eq!(
            key_problem("artnum", &r).unwrap(),
            "number key `artnum` would shadow `artnum`, which macros.typ defines; rename it"
        );
        assert_eq!(
            key_problem("foo", &r).unwrap(),
            "number key `foo` becomes the LaTeX command \\artFoo, which macros.tex defines; rename it"
        );
        assert_eq!(
            key_problem("a}b", &r).unwrap(),
            "number key `a}b` holds `}`: use ASCII letters, digits, `-` and `_`, starting with a letter (it becomes a LaTeX and typst name)"
        );
        assert_eq!(
            key_problem("a\nb", &r).unwrap(),
            "number key `a\\u{a}b` holds `\\u{a}`: use ASCII letters, digits, `-` and `_`, starting with a letter (it becomes a LaTeX and typst name)"
        );
        assert_eq!(
            key_problem("3x", &r).unwrap(),
            "number key `3x` starts with `3`: use ASCII letters, digits, `-` and `_`, starting with a letter (it becomes a LaTeX and typst name)"
        );
        assert_eq!(
            key_problem("text", &r).unwrap(),
            "number key `text` would shadow typst's `text` when the paper imports macros.typ with `*`; rename it"
        );
        assert!(TYPST_GLOBALS.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            key_problem("let", &r).unwrap(),
            "number key `let` is a typst keyword; rename it"
        );
    }
}
