//! Which fields an expression reads through `_`, the whole row.
//!
//! minijinja reports `_['execution time']` as a read of the variable `_`
//! only (it follows attribute chains, not subscripts), so the text is
//! scanned here: each `_` followed by `.name` or `['name']` is a read of
//! field `name` (and of the attributes chained after it, as `name.a.b`);
//! any other use of `_` (`_ | tojson`, `_[k]`) reads the whole row. A
//! name followed by `(` is a method, not a field: `_.get('x y')` reads the
//! whole row, `_['m'].items()` reads `m`.

use crate::expr::fast::{Tok, lex};

/// The row reads of an expression through `_`.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct RowReads {
    /// Field paths read as `_['x y']` or `_.x`, with the attributes chained
    /// after them (`_['m'].ratio` is `m.ratio`): the first part is a field
    /// name (it may hold spaces or dots), the rest attribute names.
    pub paths: Vec<Vec<String>>,
    /// Whether `_` is used other than by a literal field name: then every
    /// field may be read.
    pub whole: bool,
}

/// The reads through `_` of the expression `src`, whose variables (as
/// minijinja reports them) include `_`. A text the scanner cannot read
/// counts as reading the whole row.
pub fn row_reads(src: &str) -> RowReads {
    let Some(toks) = lex(src) else {
        return RowReads {
            paths: Vec::new(),
            whole: true,
        };
    };
    let mut out = RowReads::default();
    let ident = |i: usize| match toks.get(i) {
        Some(Tok::Ident(s)) => Some(s.as_str()),
        _ => None,
    };
    let op = |i: usize, o: &str| matches!(toks.get(i), Some(Tok::Op(x)) if *x == o);
    for i in 0..toks.len() {
        // `x._` is an attribute, not the row.
        if ident(i) != Some("_") || (i > 0 && op(i - 1, ".")) {
            continue;
        }
        let mut path = Vec::new();
        let mut j = i + 1;
        loop {
            if op(j, ".")
                && let Some(name) = ident(j + 1)
            {
                path.push(name.to_string());
                j += 2;
            } else if op(j, "[")
                && op(j + 2, "]")
                && let Some(Tok::Str(name)) = toks.get(j + 1)
            {
                path.push(name.clone());
                j += 3;
            } else {
                break;
            }
        }
        // `_.get(...)`, `_.keys()`: a method of what precedes it, not a
        // field (read as a field `get`, a projection once loaded nothing
        // else and the numbers came out silently wrong).
        if op(j, "(") {
            path.pop();
        }
        if path.is_empty() {
            out.whole = true;
        } else {
            out.paths.push(path);
        }
    }
    out
}

/// The dotted names called as functions or methods, joined by `.`:
/// `range(3)` gives `range`, `s.split(':')` gives `s.split`. minijinja
/// lists these among the variables read (as `range`, `s.split`), though
/// only `s` is a value.
pub fn calls(src: &str) -> Vec<String> {
    let Some(toks) = lex(src) else {
        return Vec::new();
    };
    let ident = |i: usize| match toks.get(i) {
        Some(Tok::Ident(s)) => Some(s.as_str()),
        _ => None,
    };
    let op = |i: usize, o: &str| matches!(toks.get(i), Some(Tok::Op(x)) if *x == o);
    let mut out = Vec::new();
    for i in 0..toks.len() {
        let Some(head) = ident(i) else { continue };
        // An attribute, a filter, a test (`x is not divisibleby(3)`).
        let after_is = |k: usize| {
            ident(k) == Some("is")
                || (ident(k) == Some("not") && k > 0 && ident(k - 1) == Some("is"))
        };
        if i > 0 && (op(i - 1, ".") || op(i - 1, "|") || after_is(i - 1)) {
            continue;
        }
        let mut path = head.to_string();
        let mut j = i + 1;
        while op(j, ".")
            && let Some(name) = ident(j + 1)
        {
            path.push('.');
            path.push_str(name);
            j += 2;
        }
        if op(j, "(") {
            out.push(path);
        }
    }
    out
}

/// `name` as an expression reads it: itself when it is an identifier,
/// else `_['name']`.
pub fn field_ref(name: &str) -> String {
    let mut chars = name.chars();
    let ident = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "_";
    if ident {
        name.to_string()
    } else {
        format!("_[{}]", quoted(name))
    }
}

/// The hint for a text that reads a field whose name holds a space or a
/// symbol as if it were a name: ` — a field name with a space or symbol is
/// read as _['execution time']`.
pub fn hint(name: &str) -> String {
    format!(
        " — a field name with a space or symbol is read as {}",
        // (A name from the data may hold an escape sequence.)
        crate::error::shown(&field_ref(name))
    )
}

/// Words that join expressions, so never part of a field name.
const KEYWORDS: [&str; 10] = [
    "and", "or", "not", "in", "is", "if", "else", "true", "false", "none",
];

/// For a syntax error at byte `at` of `text`: the words around it that only
/// spaces separate (`execution time` in `execution time > 3`), when there
/// are two or more, as the field name they probably are.
pub fn spaced_name(text: &str, at: usize) -> Option<String> {
    // The words outside string literals, with their byte ranges.
    let b = text.as_bytes();
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\'' || c == b'"' {
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            words.push((start, i));
        } else {
            i += 1;
        }
    }
    let word = |k: usize| &text[words[k].0..words[k].1];
    let joinable =
        |k: usize| !KEYWORDS.contains(&word(k)) && !word(k).as_bytes()[0].is_ascii_digit();
    let spaced = |k: usize| text[words[k].1..words[k + 1].0].bytes().all(|c| c == b' ');
    let mut k = words.iter().position(|&(_, end)| end > at)?;
    if !joinable(k) {
        return None;
    }
    let mut first = k;
    while first > 0 && spaced(first - 1) && joinable(first - 1) {
        first -= 1;
    }
    while k + 1 < words.len() && spaced(k) && joinable(k + 1) {
        k += 1;
    }
    (k > first).then(|| text[words[first].0..words[k].1].to_string())
}

/// `s` as a single-quoted minijinja string literal.
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(src: &str) -> (Vec<String>, bool) {
        let r = row_reads(src);
        (r.paths.iter().map(|p| p.join("|")).collect(), r.whole)
    }

    #[test]
    fn literal_names_are_field_reads() {
        assert_eq!(
            paths("_['execution time'] > 3 and _.x == 1"),
            (vec!["execution time".into(), "x".into()], false)
        );
        assert_eq!(
            paths("_['m'].ratio['a b'] + _[\"p50 (ms)\"]"),
            (vec!["m|ratio|a b".into(), "p50 (ms)".into()], false)
        );
        assert_eq!(paths("m._ + 1"), (vec![], false));
    }

    #[test]
    fn any_other_use_reads_the_whole_row() {
        assert_eq!(paths("_ | tojson"), (vec![], true));
        assert_eq!(paths("_[k] and _.x"), (vec!["x".into()], true));
        assert_eq!(paths("_['it\\'s']"), (vec![], true));
    }

    #[test]
    fn a_method_of_the_row_reads_the_whole_row() {
        assert_eq!(paths("_.get('execution time', 0) > 2"), (vec![], true));
        assert_eq!(paths("_.keys() | list | length"), (vec![], true));
        assert_eq!(paths("_['m'].items()"), (vec!["m".into()], false));
        assert_eq!(paths("_.a.b.get('x')"), (vec!["a|b".into()], false));
    }

    #[test]
    fn called_names_are_functions_or_methods() {
        assert_eq!(calls("codec.split(':')[0]"), vec!["codec.split"]);
        assert_eq!(calls("range(3) | list"), vec!["range"]);
        assert_eq!(calls("a.b.get('x') + x | round(2)"), vec!["a.b.get"]);
        assert_eq!(calls("x is divisibleby(3)"), Vec::<String>::new());
        assert_eq!(calls("x is not divisibleby(3)"), Vec::<String>::new());
    }

    #[test]
    fn words_around_a_syntax_error_are_a_spaced_name() {
        assert_eq!(
            spaced_name("execution time > 3", 10).as_deref(),
            Some("execution time")
        );
        assert_eq!(
            spaced_name("a and total execution time > 3", 12).as_deref(),
            Some("total execution time")
        );
        assert_eq!(spaced_name("a ==", 4), None);
        assert_eq!(spaced_name("x == 'a b' c", 11), None);
    }

    #[test]
    fn references_quote_what_is_not_an_identifier() {
        assert_eq!(field_ref("throughput"), "throughput");
        assert_eq!(field_ref("execution time"), "_['execution time']");
        assert_eq!(field_ref(" code"), "_[' code']");
        assert_eq!(field_ref("it's"), "_['it\\'s']");
        assert_eq!(field_ref("_"), "_['_']");
    }
}
