//! The terms of a top-level conjunction (`a and b and c`), found on the
//! text, so a filter's drop note can name the term that dropped a row.
//!
//! In minijinja's grammar `and` binds looser than `not`, comparisons, tests
//! (`is`), filters (`|`) and arithmetic, and tighter than `or` and the
//! conditional `x if c else y`. So an expression with an `and` outside
//! brackets and strings, and no `or`, `if` or `else` there, is exactly the
//! conjunction of the texts between those `and`s, evaluated left to right,
//! each only when those before it were true.

/// The byte ranges of `text`'s top-level `and` terms, trimmed, left to
/// right; empty when `text` is not a conjunction of two terms or more (or
/// has an `or`, `if` or `else` outside brackets, or an unbalanced bracket
/// or string). One pass, no recursion: bounded on any input.
pub fn conjuncts(text: &str) -> Vec<std::ops::Range<usize>> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\'' | b'"' => {
                i += 1;
                while i < b.len() && b[i] != c {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                if i >= b.len() {
                    return Vec::new();
                }
                i += 1;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return Vec::new(),
            },
            c if is_word(c) => {
                let start = i;
                while i < b.len() && is_word(b[i]) {
                    i += 1;
                }
                // An attribute named like a keyword (`x.and`) is no keyword.
                let attr = text[..start].trim_end().ends_with('.');
                if depth == 0 && !attr {
                    match &text[start..i] {
                        "and" => cuts.push((start, i)),
                        "or" | "if" | "else" => return Vec::new(),
                        _ => {}
                    }
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    if depth != 0 || cuts.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut from = 0;
    for (a, z) in cuts.into_iter().chain([(b.len(), b.len())]) {
        let piece = &text[from..a];
        let lead = piece.len() - piece.trim_start().len();
        let range = from + lead..from + piece.trim_end().len();
        if range.is_empty() {
            return Vec::new();
        }
        out.push(range);
        from = z;
    }
    out
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

#[cfg(test)]
mod tests {
    use super::conjuncts;

    fn terms(t: &str) -> Vec<&str> {
        conjuncts(t).into_iter().map(|r| &t[r]).collect()
    }

    #[test]
    fn a_conjunction_splits_at_its_top_level_ands_only() {
        assert_eq!(
            terms("name.startswith('curated/') and (err is none)"),
            ["name.startswith('curated/')", "(err is none)"]
        );
        assert_eq!(
            terms("not a and b in ['x and y', \"or\"] and f(c and d)"),
            ["not a", "b in ['x and y', \"or\"]", "f(c and d)"]
        );
        assert_eq!(terms("x.and and y"), ["x.and", "y"]);
        assert_eq!(terms("brand and operand"), ["brand", "operand"]);
    }

    #[test]
    fn an_or_or_a_conditional_beside_the_ands_is_not_a_conjunction() {
        for t in [
            "a and b or c",
            "a and b if c else d",
            "a",
            "(a and b)",
            "a and",
            "a and 'b",
            "a and b)",
        ] {
            assert!(conjuncts(t).is_empty(), "{t}");
        }
    }
}
