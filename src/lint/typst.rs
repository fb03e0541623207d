//! A typst source as lint reads it: typed numbers in markup and math,
//! `#KEY` and `#artnum("KEY")`, what it includes and the paths it names,
//! and the names it binds with `let`.
//!
//! typst switches between markup (prose), math (`$..$`) and code (after
//! `#`, inside `(..)` and `{..}`); content blocks `[..]` inside code are
//! markup again (a figure's caption). Numbers count only in markup and
//! math; code's numbers are arguments (`width: 70%`). Comments, raw text,
//! labels (`<fig:1>`) and references (`@fig:1`) are skipped. The modes
//! are a stack on the heap: no input nests the scanner's own calls.

use super::scan::{self, Lines, Scan, What, find, starts};

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Markup,
    Math,
    Code,
}

/// One open mode: what closes it, and whether a call's trailing
/// arguments (`(..)`, `[..]`) may follow when it closes.
#[derive(Clone, Copy)]
struct Ctx {
    mode: Mode,
    close: Option<char>,
    call: bool,
}

/// Keywords after `#` that start a statement running to the end of the line.
const STATEMENTS: [&str; 11] = [
    "let", "set", "show", "import", "include", "if", "for", "while", "context", "return", "else",
];

fn ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

/// The index after the identifier at `chars[k]`.
fn ident_end(chars: &[char], mut k: usize) -> usize {
    while chars.get(k).is_some_and(|c| ident_char(*c)) {
        k += 1;
    }
    k
}

/// Scans typst source `text`.
pub fn scan(text: &str) -> Scan {
    let chars: Vec<char> = text.chars().collect();
    let lines = Lines::new(&chars);
    let mut st = State {
        lines,
        out: Scan::default(),
        stack: vec![Ctx {
            mode: Mode::Markup,
            close: None,
            call: false,
        }],
        last: String::new(),
    };
    let mut i = 0;
    while i < chars.len() {
        let ctx = *st.stack.last().expect("the markup at the bottom stays");
        let c = chars[i];
        // A statement (`#let x = 1`) ends at its line's end or at `;`.
        if Some(c) == ctx.close || (ctx.close == Some('\n') && c == ';') {
            st.stack.pop();
            i += 1;
            if ctx.call {
                i = trailing(&chars, i, &mut st.stack);
            }
            continue;
        }
        // `https://...` in markup is a link, not a comment.
        if starts(&chars, i, "//") && ctx.mode != Mode::Code && i > 0 && chars[i - 1] == ':' {
            while chars
                .get(i)
                .is_some_and(|c| !c.is_whitespace() && !matches!(c, ']' | ')'))
            {
                i += 1;
            }
            continue;
        }
        if starts(&chars, i, "//") {
            let end = find(&chars, i, "\n");
            st.out.comment(&st.lines, &chars, i, end);
            i = end;
            continue;
        }
        if starts(&chars, i, "/*") {
            let end = (find(&chars, i, "*/") + 2).min(chars.len());
            st.out.comment(&st.lines, &chars, i, end);
            i = end;
            continue;
        }
        match ctx.mode {
            Mode::Markup | Mode::Math => match c {
                '\\' => i += 2,
                '`' => i = raw(&chars, i),
                '$' => {
                    st.stack.push(Ctx {
                        mode: Mode::Math,
                        close: Some('$'),
                        call: false,
                    });
                    i += 1;
                }
                '<' if label(&chars, i + 1, '>').is_some() => {
                    i = label(&chars, i + 1, '>').unwrap_or(i + 1);
                }
                '@' if chars.get(i + 1).is_some_and(|c| ident_start(*c)) => {
                    i = label(&chars, i + 1, ' ').unwrap_or(i + 1);
                }
                '#' => i = st.hash(&chars, i),
                '[' if ctx.mode == Mode::Markup && st.stack.len() > 1 => {
                    // A bracket in prose nested in a content block.
                    st.stack.push(Ctx {
                        mode: Mode::Markup,
                        close: Some(']'),
                        call: false,
                    });
                    i += 1;
                }
                c if scan::starts_number(c) => {
                    i = scan::number(&chars, &st.lines, i, &mut st.out, true)
                }
                c if c.is_alphabetic() => i = scan::word_end(&chars, i),
                _ => i += 1,
            },
            Mode::Code => i = st.code(&chars, i),
        }
    }
    st.out
}

/// The scanner's state: the open modes, what it found, and the last
/// identifier read in code (`include`, `artnum`, `let`).
struct State {
    lines: Lines,
    out: Scan,
    stack: Vec<Ctx>,
    last: String,
}

impl State {
    /// After `#` at `chars[i]`: an identifier (and its call), a keyword's
    /// statement, or a code or content block.
    fn hash(&mut self, chars: &[char], i: usize) -> usize {
        let State {
            lines,
            out,
            stack,
            last,
        } = self;
        let j = i + 1;
        match chars.get(j) {
            Some(&c) if ident_start(c) => {
                let mut k = ident_end(chars, j);
                let name: String = chars[j..k].iter().collect();
                if STATEMENTS.contains(&name.as_str()) {
                    *last = name;
                    stack.push(Ctx {
                        mode: Mode::Code,
                        close: Some('\n'),
                        call: false,
                    });
                    return k;
                }
                out.push(lines, j, What::Ident { name, hash: true });
                // Field access (`#sym.times`) and a call's arguments.
                while chars.get(k) == Some(&'.')
                    && chars.get(k + 1).is_some_and(|c| ident_start(*c))
                {
                    k = ident_end(chars, k + 1);
                }
                *last = chars[j..k].iter().collect();
                if chars.get(k) == Some(&';') {
                    return k + 1;
                }
                trailing(chars, k, stack)
            }
            Some('(') | Some('{') | Some('[') => trailing(chars, j, stack),
            _ => j,
        }
    }

    /// One step of code at `chars[i]`.
    fn code(&mut self, chars: &[char], i: usize) -> usize {
        let State {
            lines,
            out,
            stack,
            last,
        } = self;
        let c = chars[i];
        match c {
            '"' => {
                let mut k = i + 1;
                let mut s = String::new();
                while k < chars.len() && chars[k] != '"' {
                    if chars[k] == '\\' {
                        k += 1;
                    }
                    if let Some(&ch) = chars.get(k) {
                        s.push(ch);
                    }
                    k += 1;
                }
                if last == "image"
                    && let Some(width) = call_width(chars, k + 1)
                {
                    let path = s.clone();
                    // A typst float spans the page only when placed so.
                    let wide = false;
                    out.push(lines, i + 1, What::Scaled { path, width, wide });
                }
                // `#artnum("k", part: "value")`: the part, where it is written.
                if last == "artnum"
                    && let Some((at, part)) = call_arg(chars, k + 1, "part")
                {
                    // At the part's text, inside its quotes.
                    let at = at + usize::from(part.starts_with('"'));
                    let part = part.trim_matches('"').to_string();
                    let key = s.clone();
                    out.push(lines, at, What::Part { key, part });
                }
                let what = match last.as_str() {
                    "artnum" => What::Key(s),
                    "include" => What::Include(s),
                    _ => What::Path(s),
                };
                out.push(lines, i + 1, what);
                k + 1
            }
            '(' | '{' | '[' => trailing(chars, i, stack),
            '#' => self.hash(chars, i),
            c if ident_start(c) => {
                let k = ident_end(chars, i);
                let name: String = chars[i..k].iter().collect();
                if last == "let" {
                    out.push(lines, i, What::Defines(name.clone()));
                } else {
                    out.push(
                        lines,
                        i,
                        What::Ident {
                            name: name.clone(),
                            hash: false,
                        },
                    );
                }
                *last = name;
                k
            }
            c if c.is_ascii_digit() => {
                // A literal with its unit (`70%`, `2cm`, `1.5em`).
                let mut k = i;
                while chars
                    .get(k)
                    .is_some_and(|c| c.is_alphanumeric() || *c == '.' || *c == '%')
                {
                    k += 1;
                }
                k
            }
            _ => i + 1,
        }
    }
}

/// The `width:` argument of the call whose arguments continue at
/// `chars[from]` (after its first), as written (`70%`); none when the call
/// closes first.
fn call_width(chars: &[char], from: usize) -> Option<String> {
    call_arg(chars, from, "width").map(|(_, v)| v)
}

/// The named argument `name:` of the call whose arguments continue at
/// `chars[from]` (after its first): where its value starts and the value
/// as written, trimmed; none when the call closes first. Nested groups
/// are skipped; at most a line's worth of characters is read, so a long
/// source stays linear.
fn call_arg(chars: &[char], from: usize, name: &str) -> Option<(usize, String)> {
    let end = chars.len().min(from + 400);
    let first = name.chars().next()?;
    let len = name.chars().count();
    let mut depth = 0usize;
    let mut k = from;
    while k < end {
        match chars[k] {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return None,
            ')' | ']' | '}' => depth -= 1,
            '"' => {
                k += 1;
                while k < end && chars[k] != '"' {
                    k += 1 + usize::from(chars[k] == '\\');
                }
            }
            c if c == first
                && depth == 0
                && k > 0
                && !ident_char(chars[k - 1])
                && starts(chars, k, name)
                && ident_end(chars, k) == k + len =>
            {
                let mut v = k + len;
                while chars.get(v) == Some(&' ') {
                    v += 1;
                }
                if chars.get(v) == Some(&':') {
                    let stop = (v + 1..end)
                        .find(|&e| matches!(chars[e], ',' | ')'))
                        .unwrap_or(end);
                    let value: String = chars[v + 1..stop].iter().collect();
                    let at = (v + 1..stop).find(|&e| chars[e] != ' ').unwrap_or(v + 1);
                    return Some((at, value.trim().to_string()));
                }
            }
            _ => {}
        }
        k += 1;
    }
    None
}

/// A call's arguments at `chars[k]`: `(..)` opens code, `[..]` markup;
/// anything else ends the call.
fn trailing(chars: &[char], k: usize, stack: &mut Vec<Ctx>) -> usize {
    let (mode, close) = match chars.get(k) {
        Some('(') => (Mode::Code, ')'),
        Some('{') => (Mode::Code, '}'),
        Some('[') => (Mode::Markup, ']'),
        _ => return k,
    };
    stack.push(Ctx {
        mode,
        close: Some(close),
        call: true,
    });
    k + 1
}

/// Raw text from the backticks at `chars[i]` to the same run closing it.
fn raw(chars: &[char], i: usize) -> usize {
    let mut n = 0;
    while chars.get(i + n) == Some(&'`') {
        n += 1;
    }
    let fence: String = "`".repeat(n);
    (find(chars, i + n, &fence) + n).min(chars.len())
}

/// A label or reference name from `chars[k]`: the index after it (after
/// `close` when that is `>`), or `None` when it is not one.
fn label(chars: &[char], k: usize, close: char) -> Option<usize> {
    // Labels are short: a long run is prose (and is not read again for
    // every `<` before it).
    let mut m = k;
    while m - k < 256
        && chars
            .get(m)
            .is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ':' | '.'))
    {
        m += 1;
    }
    if m == k {
        return None;
    }
    match close {
        '>' => (chars.get(m) == Some(&'>')).then_some(m + 1),
        // A reference ends at its last name character (a final `.` ends
        // the sentence).
        _ => Some(if chars[m - 1] == '.' { m - 1 } else { m }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<What> {
        scan(text).found.into_iter().map(|f| f.what).collect()
    }

    fn numbers(text: &str) -> Vec<String> {
        found(text)
            .into_iter()
            .filter_map(|w| match w {
                What::Number(t) => Some(t.text),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn markup_math_and_captions_are_prose_code_is_not() {
        let text = "#set text(size: 10pt)\nWe ran 250 jobs // and 300 here\n\
            #figure(image(\"figures/fig1.pdf\", width: 70%), caption: [median 3.86 bits])\n\
            $x = 0.25$ see @fig:12 <tab:10> `raw 99`\n";
        assert_eq!(numbers(text), ["250", "3.86", "0.25"]);
    }

    #[test]
    fn keys_paths_includes_and_bindings() {
        let text = "#import \"generated/macros.typ\": *\n#let speedup = [2.5]\n\
            #fig3-median\\; and #artnum(\"fig5-pareto\") #include \"intro.typ\"\n";
        let got = found(text);
        assert!(got.contains(&What::Path("generated/macros.typ".into())));
        assert!(got.contains(&What::Defines("speedup".into())));
        assert!(got.contains(&What::Ident {
            name: "fig3-median".into(),
            hash: true
        }));
        assert!(got.contains(&What::Key("fig5-pareto".into())));
        assert!(got.contains(&What::Include("intro.typ".into())));
        assert_eq!(numbers(text), ["2.5"]);
    }

    #[test]
    fn an_image_width_is_read_with_its_path() {
        let found = found(
            "#figure(image(\"figures/fig2.pdf\", width: 70%), caption: [x])\n#image(\"a.png\", height: 2cm)\n",
        );
        let scaled: Vec<&What> = found
            .iter()
            .filter(|w| matches!(w, What::Scaled { .. }))
            .collect();
        assert_eq!(
            scaled,
            [&What::Scaled {
                path: "figures/fig2.pdf".into(),
                width: "70%".into(),
                wide: false
            }]
        );
    }

    #[test]
    fn links_are_not_comments_and_a_semicolon_ends_a_statement() {
        let text = "See https://example.org/x 3.86 bits.\n#let x = 1; The median is 3.859\n";
        assert_eq!(numbers(text), ["3.86", "3.859"]);
    }

    #[test]
    fn long_runs_after_many_angle_brackets_stay_linear() {
        let text = "<".repeat(200_000) + &"a".repeat(200_000);
        assert!(scan(&text).found.is_empty());
    }

    #[test]
    fn deep_nesting_and_unclosed_blocks_do_not_overflow() {
        let text = "#f(".repeat(100_000) + "[1234";
        let s = scan(&text);
        assert!(s.found.len() >= 100_000);
    }
}
