//! A bound on how deeply an expression or a template nests, measured on the
//! text before minijinja or the fast parser sees it.
//!
//! Both parsers build a tree that later passes walk recursively (minijinja's
//! code generator, the fast path's evaluator, dropping the tree), and
//! minijinja bounds only the nesting of brackets: a chain such as `a and b
//! and ... and z` or `not not ... x` is a tree one level deeper per
//! operator, and 100,000 of them overflow the stack. So the text is scanned
//! first, in one pass without recursion, for an upper bound of the depth of
//! any tree a parser could build from it; beyond [`MAX_DEPTH`] it is an
//! error. A spec a person writes nests a few levels; a chain of 200
//! operators is far beyond any real paper.

/// The deepest an expression (or one `{{ }}` / `{% %}` tag of a template)
/// may nest: each operator of a chain (`and`, `or`, `not`, `+`, `~`, `.a`,
/// `| f`, `is t`, unary `-`, ...) and each bracket counts one level.
pub const MAX_DEPTH: usize = 200;

/// The longest line of an expression or template, and the most lines, in
/// characters: minijinja counts lines and columns in 16 bits (past 65,535
/// its lexer overflows; a debug build panics).
pub const MAX_LINE: usize = 60_000;

/// Why `src` is too long for the template engine, if it is: a line longer
/// than [`MAX_LINE`] characters, or more than [`MAX_LINE`] lines.
pub fn too_long(src: &str) -> Option<String> {
    let mut lines = 0usize;
    for (i, line) in src.split('\n').enumerate() {
        lines += 1;
        if line.len() > MAX_LINE && line.chars().count() > MAX_LINE {
            return Some(format!(
                "line {} is longer than {MAX_LINE} characters (the template engine counts columns in 16 bits)",
                i + 1
            ));
        }
    }
    (lines > MAX_LINE).then(|| {
        format!("it has more than {MAX_LINE} lines (the template engine counts lines in 16 bits)")
    })
}

/// Open bracket: the deepest operand seen so far among its items, and the
/// item being read.
#[derive(Default)]
struct Frame {
    best: usize,
    ops: usize,
    child: usize,
}

impl Frame {
    fn item(&self) -> usize {
        self.ops + self.child
    }
}

/// Scans expression text from byte `i`; in a template tag (`closer` is `}`
/// for `{{`, `%` for `{%`), stops after the closing `}}` or `%}` met outside
/// brackets and strings. Returns the depth bound and where the scan stopped.
fn scan(b: &[u8], mut i: usize, closer: Option<u8>) -> (usize, usize) {
    let mut stack = vec![Frame::default()];
    // Whether the last token ends an operand: a bracket after one is a
    // call or a subscript (`f(x)`, `x[0]`), a node of its own.
    let mut after_operand = false;
    while i < b.len() {
        let c = b[i];
        if Some(c) == closer && stack.len() == 1 && b.get(i + 1) == Some(&b'}') {
            i += 2;
            break;
        }
        match c {
            b'\'' | b'"' => {
                // A string literal: skip it, escapes included.
                i += 1;
                while i < b.len() && b[i] != c {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                after_operand = true;
                continue;
            }
            b'(' | b'[' | b'{' => {
                if after_operand {
                    stack.last_mut().expect("root frame").ops += 1;
                }
                stack.push(Frame::default());
            }
            b')' | b']' | b'}' if stack.len() > 1 => {
                let f = stack.pop().expect("len > 1");
                let d = f.best.max(f.item()) + 1;
                let top = stack.last_mut().expect("root frame");
                top.child = top.child.max(d);
                after_operand = true;
                i += 1;
                continue;
            }
            b',' | b':' => {
                let top = stack.last_mut().expect("root frame");
                top.best = top.best.max(top.item());
                top.ops = 0;
                top.child = 0;
            }
            b'0'..=b'9' => {
                // A number, one `.` and an exponent sign included
                // (`1.5e-3`); a second `.` is an attribute access
                // (`1.1.1` is `(1.1).1`), counted as an operator.
                let mut dot = false;
                while i < b.len()
                    && (b[i].is_ascii_alphanumeric()
                        || b[i] == b'_'
                        || (b[i] == b'.' && !dot)
                        || ((b[i] == b'-' || b[i] == b'+') && matches!(b[i - 1], b'e' | b'E')))
                {
                    dot |= b[i] == b'.';
                    i += 1;
                }
                after_operand = true;
                continue;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let keyword = matches!(
                    &b[start..i],
                    b"and" | b"or" | b"not" | b"in" | b"is" | b"if" | b"else"
                );
                if keyword {
                    stack.last_mut().expect("root frame").ops += 1;
                }
                after_operand = !keyword;
                continue;
            }
            // Each operator character may be a node of its own (`--x`);
            // counting `==` twice only makes the bound looser.
            b'+' | b'-' | b'*' | b'/' | b'%' | b'~' | b'<' | b'>' | b'!' | b'=' | b'.' | b'|' => {
                stack.last_mut().expect("root frame").ops += 1;
            }
            c if c.is_ascii_whitespace() => {
                i += 1;
                continue;
            }
            _ => {}
        }
        after_operand = false;
        i += 1;
    }
    // Unclosed brackets are a syntax error for the parser; fold them in.
    let mut depth = 0;
    while let Some(f) = stack.pop() {
        depth = f.best.max(f.item()).max(depth) + 1;
        if let Some(top) = stack.last_mut() {
            top.child = top.child.max(depth);
            depth = 0;
        }
    }
    (depth, i.min(b.len()))
}

/// An upper bound on the depth of the syntax tree of expression `src`
/// (a bare name is 1).
pub fn expression_depth(src: &str) -> usize {
    scan(src.as_bytes(), 0, None).0
}

/// An upper bound on the depth of template `src`: of its deepest `{{ }}`
/// or `{% %}` tag plus the blocks around it (0 without tags). Each `elif`
/// counts as a block of its own: minijinja parses it as an `if` nested in
/// the `else` of the one before, recursively, and without a bound.
pub fn template_depth(src: &str) -> usize {
    let b = src.as_bytes();
    let mut deepest = 0;
    // Open blocks, each with the levels it adds (an `if` and its `elif`s).
    let mut blocks: Vec<usize> = Vec::new();
    let mut around = 0;
    let mut i = 0;
    while let Some(at) = memchr::memchr(b'{', &b[i..]) {
        i += at + 1;
        match b.get(i) {
            Some(&c @ (b'{' | b'%')) => {
                let closer = if c == b'{' { b'}' } else { b'%' };
                let (d, end) = scan(b, i + 1, Some(closer));
                if c == b'%' {
                    match tag_word(&b[i + 1..end]) {
                        b"elif" => {
                            if let Some(top) = blocks.last_mut() {
                                *top += 1;
                                around += 1;
                            }
                        }
                        // `{% set x = 1 %}` is a statement, `{% set x %}` a block.
                        b"set" if b[i + 1..end].contains(&b'=') => {}
                        b"if" | b"for" | b"macro" | b"call" | b"filter" | b"with" | b"block"
                        | b"autoescape" | b"set" | b"raw" => {
                            blocks.push(1);
                            around += 1;
                        }
                        w if w.starts_with(b"end") => around -= blocks.pop().unwrap_or(0),
                        _ => {}
                    }
                }
                deepest = deepest.max(around + d);
                i = end;
            }
            Some(b'#') => {
                i = match memchr::memmem::find(&b[i..], b"#}") {
                    Some(end) => i + end + 2,
                    None => b.len(),
                };
            }
            _ => {}
        }
    }
    deepest
}

/// The first word of a `{% %}` tag's text (`if`, `endfor`).
fn tag_word(tag: &[u8]) -> &[u8] {
    let start = tag
        .iter()
        .position(|c| c.is_ascii_alphabetic())
        .unwrap_or(tag.len());
    let rest = &tag[start..];
    let len = rest
        .iter()
        .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
        .unwrap_or(rest.len());
    &rest[..len]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_of_plain_expressions() {
        assert_eq!(expression_depth("x"), 1);
        assert_eq!(expression_depth("a + b"), 2);
        assert_eq!(expression_depth("a and b and c"), 3);
        assert_eq!(expression_depth("not not x"), 3);
        assert_eq!(expression_depth("m.ratio"), 2);
        assert_eq!(expression_depth("(a + b) * c"), 4);
        assert_eq!(expression_depth("max(a + b, c)"), 4);
        assert_eq!(expression_depth("x in [1, 2, 3, 4, 5, 6, 7, 8]"), 3);
        assert_eq!(expression_depth("1.5e-3 * x"), 2);
    }

    #[test]
    fn strings_do_not_count() {
        assert_eq!(expression_depth("k == 'a + b (c'"), 3);
        assert_eq!(expression_depth(r#"k == "it\"s + (""#), 3);
    }

    #[test]
    fn unclosed_brackets_still_count() {
        assert_eq!(expression_depth("((((x"), 5);
    }

    #[test]
    fn long_flat_lists_are_shallow() {
        let items: Vec<String> = (0..10_000).map(|i| format!("'m{i}'")).collect();
        let src = format!("method in [{}]", items.join(", "));
        assert_eq!(expression_depth(&src), 3);
    }

    #[test]
    fn chains_count_one_level_per_operator() {
        assert_eq!(expression_depth(&vec!["x"; 1000].join(" and ")), 1000);
        assert_eq!(expression_depth(&format!("{}x", "-".repeat(500))), 501);
        assert_eq!(expression_depth(&format!("x{}", ".a".repeat(300))), 301);
        assert_eq!(expression_depth(&format!("x{}", "[0]".repeat(300))), 302);
        assert_eq!(expression_depth(&format!("f{}", "()".repeat(300))), 302);
    }

    #[test]
    fn templates_count_their_tags() {
        assert_eq!(template_depth("n = 5, it's {# a + b + c #} fine"), 0);
        let t = "{{ n['a'] }} and {{ n['b'] }} {% if x or y or z %}{{ a ~ b }}{% endif %}";
        assert_eq!(template_depth(t), 5);
        assert_eq!(template_depth("{{ {'a': 1}['a'] }} {{ '}}' + x }}"), 3);
        let chain = format!("title {{{{ {} }}}}", vec!["x"; 300].join(" ~ "));
        assert_eq!(template_depth(&chain), 300);
        // `%}` does not close a `{{` tag, nor `}}` a `{%` one.
        assert_eq!(template_depth("{{ x %} + x + x }}"), 4);
    }

    #[test]
    fn blocks_and_elifs_add_to_the_depth() {
        let t = "{% for a in b %}{% if a %}{{ a + 1 }}{% endif %}{% endfor %}{{ c }}";
        assert_eq!(template_depth(t), 4);
        let elifs = format!(
            "{{% if x %}}{}{{% endif %}}{{{{ y }}}}",
            "{% elif x %}".repeat(300)
        );
        assert_eq!(template_depth(&elifs), 302);
        assert_eq!(
            template_depth("{% set x = 1 %}{% set y %}a{% endset %}{{ x }}"),
            2
        );
    }

    use std::sync::Arc;

    use crate::error::Error;
    use crate::expr::tests::{eval, row, spec};
    use crate::expr::{Expr, Globals, Template};
    use crate::spec::SpannedStr;

    #[test]
    fn deepest_allowed_chains_compile_and_evaluate() {
        // The unit-test thread has a 2 MiB stack: what passes here passes
        // on any thread the tool uses (minijinja overflowed it at 1,600
        // levels, the fast path at 200, in a debug build).
        for m in [crate::expr::fast::MAX_DEPTH, MAX_DEPTH] {
            let cases = [
                (vec!["x"; m].join(" and "), "1".to_string()),
                (vec!["x"; m].join(" + "), m.to_string()),
                (vec!["x"; m].join(" ~ "), "1".repeat(m)),
                (
                    format!("{}x", "not ".repeat(m - 1)),
                    if m % 2 == 1 { "True" } else { "False" }.into(),
                ),
                (
                    format!("{}x", "-".repeat(m - 1)),
                    if m % 2 == 1 { "1" } else { "-1" }.into(),
                ),
                (format!("x{}", "|abs".repeat(m - 1)), "1".to_string()),
                // minijinja stops brackets itself at 75 levels.
                (
                    format!("{}x{}", "(".repeat(m / 4), ")".repeat(m / 4)),
                    "1".into(),
                ),
            ];
            for (src, want) in cases {
                assert!(expression_depth(&src) <= m, "{src}");
                let got = eval(&src, r#"{"x": 1}"#).expect(&src);
                assert_eq!(got.to_string(), want, "{src}");
            }
            let attrs = format!("x{}", ".a".repeat(m - 1));
            let e = eval(&attrs, r#"{"x": 1}"#).unwrap_err().to_string();
            assert!(e.starts_with("f.jsonl:7: cannot evaluate `x.a.a"), "{e}");
        }
    }

    #[test]
    fn fast_path_declines_beyond_its_depth() {
        let m = crate::expr::fast::MAX_DEPTH;
        assert!(crate::expr::fast::compile(&vec!["x"; m].join(" and ")).is_some());
        assert!(crate::expr::fast::compile(&vec!["x"; m + 1].join(" and ")).is_none());
    }

    #[test]
    fn a_chain_of_numbers_and_dots_is_a_chain_of_attributes() {
        // `1.1.1.1` is `((1.1).1).1`: found by the `expr` fuzz target (a
        // 27,759-term chain overflowed the stack).
        let chain = "1.".repeat(27_759) + "o";
        assert!(expression_depth(&chain) > MAX_DEPTH);
        assert_eq!(expression_depth("1.5e-3 + 2"), expression_depth("x + 2"));
    }

    #[test]
    fn expression_nested_too_deep_is_a_spec_error() {
        let s = spec();
        let src = vec!["x"; MAX_DEPTH + 1].join(" and ");
        let e = Expr::compile_str(&s, &src, 0..0).unwrap_err();
        let Error::Spec { message, .. } = e else {
            panic!("{e}")
        };
        assert_eq!(
            message,
            "invalid expression: nested deeper than 200 levels (each operator of a chain such as `a and b and c` is one level)"
        );
    }

    fn render(text: &str) -> String {
        let s = spec();
        let src = SpannedStr::new(0..0, text.to_string());
        let t = match Template::compile(&s, &src) {
            Ok(t) => t,
            Err(Error::Spec { message, .. }) => return message,
            Err(e) => panic!("{e}"),
        };
        match t.render_row(&Arc::new(Globals::default()), &row(r#"{"x": 1}"#)) {
            Ok(s) => s,
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn templates_nested_or_recursing_deeply_are_errors_not_crashes() {
        let blocks = format!("{}x{}", "{% if x %}".repeat(300), "{% endif %}".repeat(300));
        assert_eq!(
            render(&blocks),
            "invalid template: nested deeper than 200 levels (each operator of a chain such as `a and b and c` is one level)"
        );
        let elifs = format!(
            "{{% if x %}}{}{{% endif %}}",
            "{% elif x %}".repeat(100_000)
        );
        assert_eq!(render(&elifs), render(&blocks));
        // The deepest allowed: an `if` with 198 `elif`s around `{{ x }}`.
        let elifs = format!(
            "{{% if x %}}{{{{ x }}}}{}{{% endif %}}",
            "{% elif x %}".repeat(198)
        );
        assert_eq!(template_depth(&elifs), 200);
        assert_eq!(render(&elifs), "1");
        let chain = format!("{{{{ {} }}}}", vec!["x"; 300].join(" ~ "));
        assert_eq!(
            render(&chain),
            "invalid template: nested deeper than 200 levels (each operator of a chain such as `a and b and c` is one level)"
        );
        let nested = "{% set ns = namespace(v=[]) %}{% for i in range(100000) %}\
            {% set ns.v = [ns.v] %}{% endfor %}{{ ns.v }}";
        assert_eq!(
            render(nested),
            format!("f.jsonl:7: cannot render `{nested}`: unknown function: namespace is unknown")
        );
        let recursion = "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}";
        assert_eq!(
            render(recursion),
            format!(
                "f.jsonl:7: cannot render `{recursion}`: invalid operation: recursion limit exceeded"
            )
        );
    }
}
