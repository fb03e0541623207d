//! Emitting numbers: `macros.tex`, `macros.typ` and `numbers.json`, each
//! through a minijinja template (the built-in ones in `templates/`, or the
//! spec's own under `[templates]`).
//!
//! Template context: `version` and `numbers`, a list (sorted by key) of
//! `{ key, value, text, parts, description, table, rows, sources,
//! provenance, tex_name }`; `parts` is a list of `{ name, text }` (`value`,
//! `lo`, `hi`, `pm`) for a number with an uncertainty, empty otherwise.
//! The built-in templates quote a part as `\artnum[value]{key}` (LaTeX)
//! and `#artnum("key", part: "value")` (typst); `value` of a number
//! without an uncertainty is its whole text, another part an error. Filters: `tex_escape`, `tex_comment`, `typ_string`,
//! `typ_comment`, `json` (serde_json, no HTML escaping).
//!
//! Keys are free-form in the spec (`fig3-median`); LaTeX gets
//! `\artnum{fig3-median}` plus a command whose name spells digits out
//! (`\artFigThreeMedian`, since TeX names are letters only), checked for
//! collisions; typst gets `#fig3-median` (typst identifiers may hold `-`).
//! Keys are checked by [`key_problem`] (alphabet, typst keywords, names of
//! typst's global scope such as `text`, names the templates define such as
//! `artnum`) before any number is computed.
//!
//! A macro template renders with the limits of the spec's templates
//! ([`crate::expr::limit`]): a bounded number of steps, no `namespace()`.
//!
//! Text from the data or the spec cannot end a comment or a string: the
//! comment filters turn every Unicode line terminator (LF, CR, CRLF, VT, FF,
//! NEL, U+2028, U+2029) into a space and write other control characters as
//! `\u{1b}`; `typ_string` escapes them all (`\n`, `\u{2028}`); `tex_escape`
//! turns line terminators into spaces and refuses other control characters.
//! A number's own text holds no control character (refused when computed).

use std::collections::BTreeMap;

use minijinja::Environment;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::numbers::Number;
use crate::spec::LoadedSpec;

use crate::plan::keys::{TEX, TYP};
const JSON: &str = include_str!("../templates/numbers.json.j2");

pub use crate::plan::keys::{Reserved, key_problem, tex_name};

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
///
/// The characters of a number's text map to LaTeX that works in text and
/// math: `−` `\ensuremath{-}`, `±` `\ensuremath{\pm}`, `×`
/// `\ensuremath{\times}`, a power of ten ` × 10⁻¹⁴` (spaced or not)
/// `\ensuremath{\times10^{-14}}`, other superscript digits
/// `\ensuremath{^{...}}`, the thin space U+2009 `\,`, the no-break space
/// U+00A0 `~`. Characters OT1 (the default encoding) has no glyph for
/// are spelt so every encoding prints them: `<` `>` `|` in math, `"` as
/// T1's `\textquotedbl`; ligatures (`--`, ``` `` ```, `''`, `` !` ``,
/// `` ?` ``, `,,`) are broken with `{}`.
fn escape_tex_into(s: &str, out: &mut String) -> std::result::Result<(), char> {
    let mut rest = s;
    while let Some(ch) = rest.chars().next() {
        if let Some((latex, len)) = power_of_ten(rest) {
            out.push_str(&latex);
            rest = &rest[len..];
            continue;
        }
        rest = &rest[ch.len_utf8()..];
        match ch {
            '\\' => out.push_str("\\textbackslash{}"),
            '%' | '$' | '#' | '&' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            // OT1 (LaTeX's default encoding) has no `<` `>` `|` glyphs
            // (it prints `¡` `¿` `—`); math's work in any encoding.
            '<' => out.push_str("\\ensuremath{<}"),
            '>' => out.push_str("\\ensuremath{>}"),
            '|' => out.push_str("\\ensuremath{|}"),
            // OT1's `"` is a closing quote; T1's straight quote works in
            // any encoding, and in math inside `\mbox`.
            '"' => out.push_str("\\mbox{\\UseTextSymbol{T1}\\textquotedbl}"),
            // Ligatures: `--` is an en dash, ``` `` ``` and `''` curly
            // double quotes, `` !` `` and `` ?` `` inverted marks, `,,` a
            // low quote (T1): `{}` keeps the characters apart.
            '-' | '\'' | ',' if rest.starts_with(ch) => {
                out.push(ch);
                out.push_str("{}");
            }
            '`' | '!' | '?' if rest.starts_with('`') => {
                out.push(ch);
                out.push_str("{}");
            }
            '^' => out.push_str("\\textasciicircum{}"),
            '\u{2212}' => out.push_str("\\ensuremath{-}"),
            '\u{b1}' => out.push_str("\\ensuremath{\\pm}"),
            '\u{d7}' => out.push_str("\\ensuremath{\\times}"),
            // A raw µ makes pdflatex fall back to a bitmap (Type 3) font,
            // which submission systems refuse; math's \mu is Type 1.
            '\u{b5}' | '\u{3bc}' => out.push_str("\\ensuremath{\\mu}"),
            '\u{a0}' => out.push('~'),
            '\u{2009}' => out.push_str("\\,"),
            c if superscript_digit(c).is_some() => {
                let run: String = std::iter::once(c)
                    .chain(rest.chars().take_while(|c| superscript_digit(*c).is_some()))
                    .collect();
                rest = &rest[run.len() - c.len_utf8()..];
                out.push_str(&format!("\\ensuremath{{^{{{}}}}}", ascii_superscript(&run)));
            }
            '\r' if rest.starts_with('\n') => {}
            c if is_line_break(c) || c == '\t' => out.push(' '),
            c if c.is_control() => return Err(c),
            c => out.push(c),
        }
    }
    Ok(())
}

/// `(LaTeX, bytes read)` when `s` starts with a power of ten as a number's
/// text writes it: `×10⁻¹⁴`, optionally with a space of any kind on both
/// sides of `×`.
fn power_of_ten(s: &str) -> Option<(String, usize)> {
    let space = |s: &str| -> usize {
        s.chars()
            .next()
            .filter(|c| matches!(c, ' ' | '\u{a0}' | '\u{2009}'))
            .map_or(0, char::len_utf8)
    };
    let mut i = space(s);
    if !s[i..].starts_with('\u{d7}') {
        return None;
    }
    i += '\u{d7}'.len_utf8();
    i += space(&s[i..]);
    if !s[i..].starts_with("10") {
        return None;
    }
    i += 2;
    let run: String = s[i..]
        .chars()
        .take_while(|c| superscript_digit(*c).is_some())
        .collect();
    if run.is_empty() {
        return None;
    }
    Some((
        format!("\\ensuremath{{\\times10^{{{}}}}}", ascii_superscript(&run)),
        i + run.len(),
    ))
}

/// The ASCII of a superscript digit or minus.
fn superscript_digit(c: char) -> Option<char> {
    match c {
        '\u{207b}' => Some('-'),
        '\u{2070}' => Some('0'),
        '\u{b9}' => Some('1'),
        '\u{b2}' => Some('2'),
        '\u{b3}' => Some('3'),
        '\u{2074}'..='\u{2079}' => char::from_digit(c as u32 - 0x2070, 10),
        _ => None,
    }
}

fn ascii_superscript(run: &str) -> String {
    run.chars().filter_map(superscript_digit).collect()
}

/// `s` as hyperref's PDF strings (bookmarks) can hold it: LaTeX's
/// specials escaped, and ASCII for what a number's text spells in math
/// (`−` `-`, `×` `x`, `±` `+/-`, superscripts `^-14`, spaces ` `).
fn pdf_text(s: String) -> String {
    let mut out = String::new();
    let mut sup = false;
    for c in s.chars() {
        if let Some(d) = superscript_digit(c) {
            if !sup {
                out.push('^');
            }
            sup = true;
            out.push(d);
            continue;
        }
        sup = false;
        match c {
            '\u{2212}' => out.push('-'),
            '\u{d7}' => out.push('x'),
            '\u{b1}' => out.push_str("+/-"),
            '\u{a0}' | '\u{2009}' => out.push(' '),
            '<' | '>' | '|' | '"' => out.push(c),
            c if c.is_control() => out.push(' '),
            c => {
                let _ = escape_tex_into(&c.to_string(), &mut out);
            }
        }
    }
    out
}

/// `{}` when `s` starts with `[` or `*`: after `\\`, `\midrule` or
/// `\toprule` (a results table's row, a macro's text after a line break
/// in prose) LaTeX would read them as the command's optional argument
/// (`[20pt]` a 20pt gap, `*` no page break) and drop them; `{}` ends it.
fn row_guard(s: &str) -> &'static str {
    if s.starts_with(['[', '*']) { "{}" } else { "" }
}

/// The `tex_escape` filter: an error for a control character (see
/// [`escape_tex_into`]), naming it.
fn tex_escape(s: String) -> std::result::Result<String, minijinja::Error> {
    let mut out = String::with_capacity(s.len());
    out.push_str(row_guard(&s));
    escape_tex_into(&s, &mut out).map_err(|c| {
        minijinja::Error::new(
            minijinja::ErrorKind::InvalidOperation,
            format!(
                "tex_escape: control character {} has no LaTeX spelling",
                crate::error::codepoint(c)
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
    out.push_str(row_guard(s));
    let mut rest = s;
    while let Err(c) = escape_tex_into(rest, &mut out) {
        out.push('\u{FFFD}');
        let at = rest.find(c).map_or(rest.len(), |i| i + c.len_utf8());
        rest = &rest[at..];
    }
    out
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
pub(crate) fn typ_string(s: String) -> String {
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

/// The steps a macro template may take per number, beyond
/// [`crate::expr::FUEL`]: the built-in templates take a few dozen, a custom
/// one may loop over the numbers more than once.
const FUEL_PER_NUMBER: u64 = 1_000;

/// The environment the macro templates render in, with the limits of the
/// spec's own templates ([`crate::expr::limit`]): `fuel` steps at most, no
/// `namespace()`.
fn environment(fuel: u64) -> Environment<'static> {
    let mut env = Environment::new();
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
    // minijinja names the undefined expression in its errors only in debug
    // mode, which defaults to the build's: without it a release build says
    // "undefined value" where a debug one names the missing field or number.
    env.set_debug(true);
    env.set_syntax(crate::expr::syntax());
    crate::expr::limit(&mut env, fuel);
    // Templates are named after their files for errors; minijinja would
    // pick an auto-escape from the name (`numbers.json.j2`: JSON). The
    // filters escape what each output needs.
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
    env.add_filter("tex_escape", tex_escape);
    env.add_filter("pdf_text", pdf_text);
    env.add_filter("tex_comment", comment);
    env.add_filter("typ_comment", comment);
    env.add_filter("typ_string", typ_string);
    env.add_filter("json", json);
    env
}

#[derive(Serialize)]
struct Entry<'a> {
    key: &'a str,
    value: minijinja::Value,
    uncertainty: Option<serde_json::Value>,
    text: &'a str,
    /// The text's parts (`value`, `lo`, `hi`, `pm`, in that order) for a
    /// number with an uncertainty; empty for another.
    parts: Vec<Part<'a>>,
    description: Option<&'a str>,
    table: Option<&'a str>,
    rows: usize,
    sources: Vec<&'a str>,
    provenance: String,
    tex_name: String,
}

/// One part of a number's text, for the templates.
#[derive(Serialize)]
struct Part<'a> {
    name: &'static str,
    text: &'a str,
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
        // An integer beyond `u64` as is: a JSON value of serde_json holds
        // none (it would be null); `| json` prints all its digits.
        let value = match crate::value::wide_int(&n.value) {
            Some(_) => n.value.clone(),
            None => minijinja::Value::from(minijinja::value::Serde(
                serde_json::to_value(&n.value).unwrap_or(serde_json::Value::Null),
            )),
        };
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
            uncertainty: n
                .uncertainty
                .as_ref()
                .map(crate::numbers::uncertainty::to_json),
            text: &n.text,
            parts: n
                .parts
                .iter()
                .flat_map(|p| p.named())
                .map(|(name, text)| Part { name, text })
                .collect(),
            description: n.description.as_deref(),
            table: n.table.as_deref(),
            rows: n.rows,
            sources: n.sources.iter().map(String::as_str).collect(),
            provenance,
            tex_name: name,
        });
    }
    let ctx = minijinja::context! { version => env!("CARGO_PKG_VERSION"), numbers => minijinja::Value::from(minijinja::value::Serde(&entries)) };
    let fuel = crate::expr::FUEL + FUEL_PER_NUMBER.saturating_mul(entries.len() as u64);
    let env = environment(fuel);
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
                crate::files::read_template(&path).map_err(|e| {
                    spec.error(
                        p.span(),
                        format!(
                            "cannot read template {}: {}",
                            crate::error::shown(p.get_ref()),
                            crate::files::cause(&e)
                        ),
                    )
                })?
            }
        };
        // A custom template's errors name its file (as the spec writes it)
        // and line; the built-in ones name the output.
        let name = custom
            .as_ref()
            .map_or_else(|| format!("{file}.j2"), |p| p.get_ref().to_string());
        // minijinja's code generator recurses over a 100k-deep chain.
        if crate::expr::depth::template_depth(&source) > crate::expr::depth::MAX_DEPTH {
            return Err(Error::input(
                crate::error::shown(&name),
                None,
                None,
                format!(
                    "cannot compile the template for {file}: nested deeper than {} levels",
                    crate::expr::depth::MAX_DEPTH
                ),
            ));
        }
        if let Some(why) = crate::expr::depth::too_long(&source) {
            return Err(Error::input(
                crate::error::shown(&name),
                None,
                None,
                format!("cannot compile the template for {file}: {why}"),
            ));
        }
        let text = crate::expr::shielded(|| env.render_named_str(&name, &source, ctx.clone()))
            .map_err(|e| {
                let mut why = crate::expr::message(&e);
                if e.kind() == minijinja::ErrorKind::OutOfFuel {
                    why.push_str(&format!(
                        " (a macro template may take {} steps, plus {FUEL_PER_NUMBER} per number: \
                     is a loop too long?)",
                        crate::expr::FUEL
                    ));
                }
                Error::input(
                    crate::error::shown(&name),
                    e.line().map(|l| l as u64),
                    None,
                    format!("cannot render the template for {file}: {why}"),
                )
            })?;
        out.push((file, text.into_bytes()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_text_starting_with_a_bracket_or_star_is_not_an_optional_argument() {
        assert_eq!(tex_escape_text("[20pt]first"), "{}[20pt]first");
        assert_eq!(tex_escape_text("*star"), "{}*star");
        assert_eq!(tex_escape("[3cm]gap".into()).unwrap(), "{}[3cm]gap");
        assert_eq!(tex_escape_text("a[1]*"), "a[1]*");
    }

    #[test]
    fn latex_ligatures_and_ot1_glyphs_are_escaped() {
        assert_eq!(
            tex_escape_text("<b> |x| --threads ``q'' a\"b !`?`,,"),
            "\\ensuremath{<}b\\ensuremath{>} \\ensuremath{|}x\\ensuremath{|} -{}-threads `{}`q'{}' a\\mbox{\\UseTextSymbol{T1}\\textquotedbl}b !{}`?{}`,{},"
        );
        assert_eq!(tex_escape_text("---"), "-{}-{}-");
        assert_eq!(tex_escape_text("a-b 'c'"), "a-b 'c'");
        assert_eq!(pdf_text("<a|b> \"c\"".into()), "<a|b> \"c\"");
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
    fn typ_strings_are_quoted() {
        assert_eq!(typ_string("a\"b\\c".into()), "\"a\\\"b\\\\c\"");
    }
}
