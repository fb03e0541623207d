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
//! Keys are checked by [`key_problem`] (alphabet, typst keywords, names the
//! templates define such as `artnum`) before any number is computed.
//!
//! Text from the data or the spec cannot end a comment or a string: the
//! comment filters turn every Unicode line terminator (LF, CR, CRLF, VT, FF,
//! NEL, U+2028, U+2029) into a space and write other control characters as
//! `\u{1b}`; `typ_string` escapes them all (`\n`, `\u{2028}`); `tex_escape`
//! turns line terminators into spaces and refuses other control characters.
//! A number's own text holds no control character (refused when computed).

use std::collections::{BTreeMap, BTreeSet};
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
    /// custom template that cannot be read defines nothing here: [`emit`]
    /// reports it.
    pub fn of(spec: &LoadedSpec) -> Reserved {
        let read = |custom: &Option<crate::spec::SpannedStr>, builtin: &str| match custom {
            None => builtin.to_string(),
            Some(p) => std::fs::read_to_string(spec.root.join(p.get_ref())).unwrap_or_default(),
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

/// `key` as an error prints it: control characters and whitespace other
/// than a space as `\u{...}`, so the message stays one readable line.
fn shown(key: &str) -> String {
    key.chars()
        .map(|c| {
            if c.is_control() || (c.is_whitespace() && c != ' ') {
                format!("\\u{{{:x}}}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Why `key` cannot name a number, or `None` when it can.
///
/// A key becomes a typst binding (`#let KEY = ...`), a dictionary key, the
/// argument of LaTeX's `\@namedef{artnum@KEY}` and, spelled out, a LaTeX
/// command (`\artFigThreeMedian`). The alphabet allowed is the part of
/// typst's identifiers that is also safe in a LaTeX control sequence name
/// argument: an ASCII letter, then ASCII letters, digits, `-` and `_` (no
/// braces, backslash, `%`, `#`, whitespace or control character). A key
/// must also not be a typst keyword, nor a name the templates define
/// (`artnum`, `artnums` in typst; a command such as `\artnum` in LaTeX).
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

/// Whether `c` ends a line for some reader of the emitted files: LF, CR,
/// VT, FF, NEL (U+0085), LINE SEPARATOR (U+2028), PARAGRAPH SEPARATOR
/// (U+2029), Unicode's mandatory breaks. typst ends a `//` comment at each;
/// TeX engines at LF and CR (and FF starts a new page in some readers).
pub fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// A control character (Unicode category Cc) that is neither a line break
/// nor a tab: ESC, NUL, DEL, the C1 controls.
fn is_other_control(c: char) -> bool {
    c.is_control() && c != '\t' && !is_line_break(c)
}

/// Writes `s` escaped for LaTeX text into `out`. A line break becomes a
/// space (as TeX reads one line end; a blank line would end the macro's
/// paragraph); another control character has no LaTeX spelling and is
/// returned as an error, nothing being dropped silently.
fn escape_tex_into(s: &str, out: &mut String) -> std::result::Result<(), char> {
    let mut chars = s.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => out.push_str("\\textbackslash{}"),
            '%' | '$' | '#' | '&' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '\u{2212}' => out.push_str("\\ensuremath{-}"),
            '\r' if chars.peek() == Some(&'\n') => {}
            c if is_line_break(c) || c == '\t' => out.push(' '),
            c if c.is_control() => return Err(c),
            c => out.push(c),
        }
    }
    Ok(())
}

/// The `tex_escape` filter: an error for a control character (see
/// [`escape_tex_into`]), naming it.
fn tex_escape(s: String) -> std::result::Result<String, minijinja::Error> {
    let mut out = String::with_capacity(s.len());
    escape_tex_into(&s, &mut out).map_err(|c| {
        minijinja::Error::new(
            minijinja::ErrorKind::InvalidOperation,
            format!(
                "tex_escape: control character {} has no LaTeX spelling",
                codepoint(c)
            ),
        )
    })?;
    Ok(out)
}

/// `s` escaped for LaTeX text, as the built-in macros template prints it.
/// A number's text holds no control character (refused when it is
/// computed); one here would be written as U+FFFD.
pub fn tex_escape_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Err(c) = escape_tex_into(rest, &mut out) {
        out.push('\u{FFFD}');
        let at = rest.find(c).map_or(rest.len(), |i| i + c.len_utf8());
        rest = &rest[at..];
    }
    out
}

/// `U+001B` notation of a character, as errors print it.
pub fn codepoint(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

/// The `tex_comment` and `typ_comment` filters: `s` on one comment line.
/// Every line break (CRLF counting as one) becomes a space, so the text
/// cannot end the comment and be read as code; another control character
/// is written as `\u{1b}` (visible, and inert in a comment).
fn comment(s: String) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\r' if chars.peek() == Some(&'\n') => {}
            c if is_line_break(c) => out.push(' '),
            c if is_other_control(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// The `typ_string` filter: `s` as a typst string literal. Besides `\` and
/// `"`, every character typst would not keep literally (or that a reader
/// might take for a line end) is an escape: `\n`, `\r`, `\t`, and
/// `\u{...}` for the other control characters, NEL, U+2028 and U+2029.
fn typ_string(s: String) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || is_line_break(c) => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32))
            }
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
        env.add_filter("tex_comment", comment);
        env.add_filter("typ_comment", comment);
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
    let reserved = Reserved::of(spec);
    let mut entries = Vec::new();
    for n in &sorted {
        // The error points at the number in the spec (numbers computed in
        // memory by a test may have none).
        let at = |msg: String| match spec.spec.numbers.get(&n.key) {
            Some(raw) => spec.error(raw.span(), msg),
            None => Error::msg(msg),
        };
        if let Some(problem) = key_problem(&n.key, &reserved) {
            return Err(at(problem));
        }
        let name = tex_name(&n.key);
        if let Some(other) = names.insert(name.clone(), &n.key) {
            return Err(at(format!(
                "numbers `{other}` and `{}` both become the LaTeX command \\{name}; rename one",
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
        assert_eq!(
            tex_escape("12.5% of a_b".into()).unwrap(),
            "12.5\\% of a\\_b"
        );
    }

    #[test]
    fn tex_escape_makes_line_breaks_spaces_and_refuses_other_controls() {
        assert_eq!(
            tex_escape("a\r\nb\nc\u{2028}d\u{c}e\tf".into()).unwrap(),
            "a b c d e f"
        );
        assert_eq!(
            tex_escape("a\u{1b}b".into()).unwrap_err().to_string(),
            "invalid operation: tex_escape: control character U+001B has no LaTeX spelling"
        );
        assert_eq!(tex_escape_text("a\u{1b}b\u{0}%"), "a\u{fffd}b\u{fffd}\\%");
    }

    #[test]
    fn comments_end_at_no_line_terminator_of_unicode() {
        for end in [
            "\n", "\r", "\r\n", "\u{b}", "\u{c}", "\u{85}", "\u{2028}", "\u{2029}",
        ] {
            assert_eq!(
                comment(format!("x{end}#panic(1)")),
                "x #panic(1)",
                "{:?}",
                end
            );
        }
        assert_eq!(
            comment("a\u{1b}[31mb\tc\u{0}".into()),
            "a\\u{1b}[31mb\tc\\u{0}"
        );
    }

    #[test]
    fn typ_strings_escape_every_control_and_line_terminator() {
        assert_eq!(
            typ_string("a\u{2028}b\u{2029}c\u{85}d\u{b}e\u{c}f\r\ng\u{1b}h\u{7f}\t".into()),
            "\"a\\u{2028}b\\u{2029}c\\u{85}d\\u{b}e\\u{c}f\\r\\ng\\u{1b}h\\u{7f}\\t\""
        );
    }

    #[test]
    fn builtin_templates_reserve_artnum_and_artnums() {
        assert_eq!(
            typst_lets(TYP).into_iter().collect::<Vec<_>>(),
            ["artnum", "artnums"]
        );
        assert_eq!(
            tex_definitions(TEX).into_iter().collect::<Vec<_>>(),
            ["artnum"]
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
            key_problem("let", &r).unwrap(),
            "number key `let` is a typst keyword; rename it"
        );
    }

    #[test]
    fn typ_strings_are_quoted() {
        assert_eq!(typ_string("a\"b\\c".into()), "\"a\\\"b\\\\c\"");
    }
}
