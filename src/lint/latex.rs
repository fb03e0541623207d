//! A LaTeX source as lint reads it: typed numbers, `\artnum{KEY}` and the
//! generated commands, what it inputs and includes, and what it defines.
//!
//! Comments (`%` to the end of the line), `\verb` and verbatim-like
//! environments are skipped; so are the arguments of commands whose
//! arguments are names, not prose (`\label`, `\ref`, `\cite`, `\usepackage`,
//! lengths). Captions, section titles, footnotes and math are prose: a
//! number or macro there is found like any other. In a file with
//! `\begin{document}`, numbers before it (the preamble's options and
//! lengths) are not prose.

use super::scan::{self, Lines, Scan, What, find};

/// Commands whose first `n` arguments (after any `*` and `[..]`) are not
/// prose.
const NOT_PROSE: [(&str, usize); 48] = [
    ("label", 1),
    ("ref", 1),
    ("eqref", 1),
    ("pageref", 1),
    ("autoref", 1),
    ("cref", 1),
    ("Cref", 1),
    ("nameref", 1),
    ("cite", 1),
    ("citep", 1),
    ("citet", 1),
    ("citeauthor", 1),
    ("citeyear", 1),
    ("parencite", 1),
    ("textcite", 1),
    ("footcite", 1),
    ("nocite", 1),
    ("url", 1),
    ("href", 1),
    ("begin", 1),
    ("end", 1),
    ("usepackage", 1),
    ("RequirePackage", 1),
    ("documentclass", 1),
    ("bibliography", 1),
    ("bibliographystyle", 1),
    ("addbibresource", 1),
    ("hspace", 1),
    ("vspace", 1),
    ("setlength", 2),
    ("addtolength", 2),
    ("setcounter", 2),
    ("addtocounter", 2),
    ("color", 1),
    ("textcolor", 1),
    ("definecolor", 3),
    ("rule", 2),
    ("resizebox", 2),
    ("scalebox", 1),
    ("fontsize", 2),
    ("multicolumn", 2),
    ("multirow", 2),
    ("cmidrule", 1),
    ("cline", 1),
    ("graphicspath", 1),
    ("includegraphics", 1),
    ("lstinputlisting", 1),
    ("artnum", 1),
];

/// Commands whose argument is a file to read as part of the paper.
const INCLUDES: [&str; 3] = ["input", "include", "subfile"];

/// Commands whose argument may name a generated file.
const PATHS: [&str; 5] = [
    "includegraphics",
    "lstinputlisting",
    "csvautotabular",
    "pgfplotstabletypeset",
    "csvreader",
];

/// Floats as wide as the text in a two-column document.
const WIDE: [&str; 2] = ["figure*", "table*"];

/// Environments whose body is not prose.
const VERBATIM: [&str; 6] = [
    "verbatim",
    "Verbatim",
    "lstlisting",
    "minted",
    "comment",
    "filecontents",
];

/// Scans LaTeX source `text`.
pub fn scan(text: &str) -> Scan {
    let chars: Vec<char> = text.chars().collect();
    let lines = Lines::new(&chars);
    let mut out = Scan::default();
    let body = document_start(&chars);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '%' => {
                let end = find(&chars, i, "\n");
                out.comment(&lines, &chars, i, end);
                i = end;
            }
            '\\' => i = command(&chars, &lines, i, &mut out),
            c if scan::starts_number(c) => i = scan::number(&chars, &lines, i, &mut out, i >= body),
            c if c.is_alphabetic() => i = scan::word_end(&chars, i),
            _ => i += 1,
        }
    }
    out
}

/// Where the document body starts: the first `\begin{document}` outside a
/// comment (0 when there is none: an input file is all body).
fn document_start(chars: &[char]) -> usize {
    let mut from = 0;
    loop {
        let at = find(chars, from, "\\begin{document}");
        if at == chars.len() {
            return 0;
        }
        let line_start = chars[..at]
            .iter()
            .rposition(|c| *c == '\n')
            .map_or(0, |p| p + 1);
        let mut escaped = false;
        let commented = chars[line_start..at].iter().any(|&c| {
            let hit = c == '%' && !escaped;
            escaped = c == '\\' && !escaped;
            hit
        });
        if !commented {
            return at;
        }
        from = at + 1;
    }
}

/// A command at `chars[i]` (a backslash): records what it names and
/// returns the index after what is skipped.
fn command(chars: &[char], lines: &Lines, i: usize, out: &mut Scan) -> usize {
    let mut j = i + 1;
    while chars
        .get(j)
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == '@')
    {
        j += 1;
    }
    if j == i + 1 {
        // `\%`, `\,`, `\\`: one character.
        return i + 2;
    }
    let name: String = chars[i + 1..j].iter().collect();
    match name.as_str() {
        "verb" => {
            let j = j + usize::from(chars.get(j) == Some(&'*'));
            let Some(&delim) = chars.get(j) else {
                return j;
            };
            let mut k = j + 1;
            while k < chars.len() && chars[k] != delim && chars[k] != '\n' {
                k += 1;
            }
            return k + 1;
        }
        "begin" => {
            let (args, end) = arguments(chars, j, 1);
            if let Some((_, env)) = args.first()
                && VERBATIM.contains(&env.trim_end_matches('*'))
            {
                let close = find(chars, end, &format!("\\end{{{env}}}"));
                return close;
            }
            if let Some((_, env)) = args.first()
                && WIDE.contains(&env.trim())
            {
                out.wide += 1;
            }
            return end;
        }
        "end" => {
            let (args, end) = arguments(chars, j, 1);
            if let Some((_, env)) = args.first()
                && WIDE.contains(&env.trim())
            {
                out.wide = out.wide.saturating_sub(1);
            }
            return end;
        }
        "newcommand"
        | "renewcommand"
        | "providecommand"
        | "DeclareRobustCommand"
        | "def"
        | "let" => {
            let mut k = j + usize::from(chars.get(j) == Some(&'*'));
            while chars.get(k).is_some_and(|c| c.is_whitespace()) {
                k += 1;
            }
            let braced = chars.get(k) == Some(&'{');
            let s = k + usize::from(braced);
            if chars.get(s) == Some(&'\\') {
                let mut e = s + 1;
                while chars
                    .get(e)
                    .is_some_and(|c| c.is_ascii_alphabetic() || *c == '@')
                {
                    e += 1;
                }
                out.push(lines, s, What::Defines(chars[s + 1..e].iter().collect()));
                return if braced { find(chars, e, "}") + 1 } else { e };
            }
            return j;
        }
        _ => {}
    }
    if INCLUDES.contains(&name.as_str()) {
        let (args, end) = arguments(chars, j, 1);
        if let Some((at, arg)) = args.first() {
            out.push(lines, *at, What::Include(arg.trim().to_string()));
            return end;
        }
        // TeX's own form: `\input sec/intro` (the name ends at a space).
        let mut k = j;
        while chars.get(k) == Some(&' ') {
            k += 1;
        }
        let mut e = k;
        while chars
            .get(e)
            .is_some_and(|c| !c.is_whitespace() && !matches!(c, '\\' | '{' | '}' | '%'))
        {
            e += 1;
        }
        if e > k && k > j {
            out.push(lines, k, What::Include(chars[k..e].iter().collect()));
        }
        return e.max(j);
    }
    if name.len() > 3
        && name.starts_with("art")
        && name[3..].starts_with(|c: char| c.is_ascii_uppercase())
    {
        out.push(lines, i, What::Command(name));
        return j;
    }
    if let Some(&(_, n)) = NOT_PROSE.iter().find(|(c, _)| *c == name) {
        // `\cmidrule(lr){2-3}`: a trim specification first.
        let j = match chars.get(j) {
            Some('(') if name == "cmidrule" => group(chars, j, '(', ')'),
            _ => j,
        };
        let (args, end) = arguments(chars, j, n);
        if let Some((at, arg)) = args.first() {
            if name == "artnum" {
                let key = arg.trim().to_string();
                if let Some((p, part)) = option(chars, j) {
                    let part = part.trim().to_string();
                    out.push(
                        lines,
                        p,
                        What::Part {
                            key: key.clone(),
                            part,
                        },
                    );
                }
                out.push(lines, *at, What::Key(key));
            } else if PATHS.contains(&name.as_str()) {
                out.push(lines, *at, What::Path(arg.trim().to_string()));
                if name == "includegraphics"
                    && let Some(width) = option_width(chars, j)
                {
                    let path = arg.trim().to_string();
                    let wide = out.wide > 0;
                    out.push(lines, *at, What::Scaled { path, width, wide });
                }
            }
        }
        return end;
    }
    if PATHS.contains(&name.as_str()) {
        let (args, _) = arguments(chars, j, 1);
        if let Some((at, arg)) = args.first() {
            out.push(lines, *at, What::Path(arg.trim().to_string()));
        }
    }
    j
}

/// Skips a `*`, optional `[..]` arguments and then `n` braced arguments
/// from `j`; returns the braced arguments (with where each starts) and the
/// index after the last. A missing argument ends the list early.
fn arguments(chars: &[char], mut j: usize, n: usize) -> (Vec<(usize, String)>, usize) {
    let mut args = Vec::new();
    if chars.get(j) == Some(&'*') {
        j += 1;
    }
    loop {
        let mut k = j;
        while chars.get(k).is_some_and(|c| *c == ' ' || *c == '\t') {
            k += 1;
        }
        match chars.get(k) {
            Some('[') => j = group(chars, k, '[', ']'),
            Some('{') if args.len() < n => {
                let end = group(chars, k, '{', '}');
                let inner: String = chars[k + 1..end.saturating_sub(1).max(k + 1)]
                    .iter()
                    .collect();
                args.push((k + 1, inner));
                j = end;
            }
            _ => return (args, j),
        }
    }
}

/// The `[..]` option at `chars[j]` (after spaces): where its text starts
/// and the text; none without one.
fn option(chars: &[char], j: usize) -> Option<(usize, String)> {
    let k = (j..chars.len()).find(|&k| chars[k] != ' ' && chars[k] != '\t')?;
    if chars[k] != '[' {
        return None;
    }
    let end = group(chars, k, '[', ']');
    let inner: String = chars[k + 1..end.saturating_sub(1).max(k + 1)]
        .iter()
        .collect();
    Some((k + 1, inner))
}

/// The `width=` of the `[..]` options at `chars[j]` (after a `*`), as
/// written (`0.7\linewidth`); none without options or without a width.
fn option_width(chars: &[char], j: usize) -> Option<String> {
    let j = j + usize::from(chars.get(j) == Some(&'*'));
    let (_, inner) = option(chars, j)?;
    inner.split(',').find_map(|kv| {
        let (key, value) = kv.split_once('=')?;
        (key.trim() == "width").then(|| value.trim().to_string())
    })
}

/// The index after the group opened at `chars[k]`, nesting and escapes
/// counted (the end of the text when it is never closed).
fn group(chars: &[char], k: usize, open: char, close: char) -> usize {
    let mut depth = 0usize;
    let mut m = k;
    while m < chars.len() {
        match chars[m] {
            '\\' => m += 1,
            c if c == open => depth += 1,
            c if c == close => {
                depth -= 1;
                if depth == 0 {
                    return m + 1;
                }
            }
            _ => {}
        }
        m += 1;
    }
    chars.len()
}

#[cfg(test)]
mod tests {
    use super::super::typed;
    use super::*;

    fn found(text: &str) -> Vec<(usize, usize, What)> {
        scan(text)
            .found
            .into_iter()
            .map(|f| (f.line, f.column, f.what))
            .collect()
    }

    fn numbers(text: &str) -> Vec<String> {
        scan(text)
            .found
            .into_iter()
            .filter_map(|f| match f.what {
                What::Number(t) => Some(t.text),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn prose_captions_footnotes_and_math_are_read_comments_and_names_are_not() {
        let text = "\\documentclass[10pt]{article}\n\\usepackage[margin=2cm]{geometry}\n\\begin{document}\n\
            We ran 250 jobs % and 300 in a comment\n\
            \\caption{Median 3.86 bits}\\label{fig:12}\n\
            \\footnote{about 1{,}234 rows} $x = 0.25$ see Figure~\\ref{fig:3} and Table 10\n\
            \\includegraphics[width=0.7\\linewidth]{figures/fig1.pdf}\n";
        assert_eq!(numbers(text), ["250", "3.86", "1{,}234", "0.25"]);
    }

    #[test]
    fn keys_commands_includes_and_definitions() {
        let text = "\\artnum{fig3-median} and \\artFigThreeMedian{} \\input{sections/intro}\n\
            \\newcommand{\\speedup}{2.5} \\includegraphics{figures/fig2}";
        assert_eq!(
            found(text),
            [
                (1, 9, What::Key("fig3-median".into())),
                (1, 26, What::Command("artFigThreeMedian".into())),
                (1, 54, What::Include("sections/intro".into())),
                (2, 13, What::Defines("speedup".into())),
                (
                    2,
                    23,
                    What::Number(
                        typed::parse(&"2.5".chars().collect::<Vec<_>>(), 0)
                            .0
                            .unwrap()
                    )
                ),
                (2, 45, What::Path("figures/fig2".into())),
            ]
        );
    }

    #[test]
    fn a_commented_begin_document_is_no_body_and_input_without_braces_is_read() {
        let text = "% \\begin{document} in a comment\nWe ran 250 jobs\n\\input sec/intro\n";
        let got = found(text);
        assert!(
            matches!(&got[0].2, What::Number(t) if t.text == "250"),
            "{got:?}"
        );
        assert_eq!(got[1].2, What::Include("sec/intro".into()));
    }

    #[test]
    fn verbatim_and_the_ignore_comment() {
        let s = scan(
            "\\begin{verbatim}\n123\n\\end{verbatim}\n\\verb|456| 789 % artifact-lint: ignore\n",
        );
        assert_eq!(s.found.len(), 1);
        assert!(s.ignored.contains(&4));
    }

    #[test]
    fn an_includegraphics_width_is_read_with_its_path() {
        let found = found(
            "\\includegraphics[width=0.7\\linewidth, trim=1 2 3 4]{figures/fig2.pdf}\n\\includegraphics*[scale=2]{a}\n\\begin{figure*}\\includegraphics[width=\\linewidth]{b}\\end{figure*}\\includegraphics[width=3in]{c}\n",
        );
        let scaled: Vec<&What> = found
            .iter()
            .map(|f| &f.2)
            .filter(|w| matches!(w, What::Scaled { .. }))
            .collect();
        assert_eq!(
            scaled,
            [
                &What::Scaled {
                    path: "figures/fig2.pdf".into(),
                    width: "0.7\\linewidth".into(),
                    wide: false
                },
                &What::Scaled {
                    path: "b".into(),
                    width: "\\linewidth".into(),
                    wide: true
                },
                &What::Scaled {
                    path: "c".into(),
                    width: "3in".into(),
                    wide: false
                }
            ]
        );
    }

    #[test]
    fn unclosed_groups_end_at_the_end_of_the_text() {
        assert_eq!(numbers("\\label{fig 12"), Vec::<String>::new());
        assert_eq!(numbers("\\begin{verbatim} 12"), Vec::<String>::new());
    }
}
