//! One colour per value across the paper: the colours of a field's values
//! (in the paper's first-seen order), given a scheme's colours and the
//! values `[style] colors` fixes.

/// A scheme with fewer colours than the values it must tell apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shortfall {
    /// The values needing a colour of the scheme (those not fixed).
    pub values: usize,
    /// The distinct colours (or colour and hatch pairs) the scheme has
    /// left once the fixed colours are taken out.
    pub size: usize,
}

/// The colour of each of `keys` (the paper's values of one field, first
/// seen first): a value `fixed` names takes its colour; the others take
/// `range`'s colours in order, skipping the colours `fixed` gives (so no
/// two values share one). `pairs` is the number of distinct styles the
/// scheme has when it also hatches (`greys`: its colours cycle under 8
/// hatches), else `range.len()`. More values than that is a
/// [`Shortfall`]; an empty `range` is one too.
pub fn assign(
    keys: &[String],
    range: &[String],
    fixed: &[(String, String)],
    pairs: usize,
) -> Result<Vec<String>, Shortfall> {
    let norm = |c: &str| match super::parse(c) {
        Ok(Some(c)) => c.hex(),
        _ => c.trim().to_ascii_lowercase(),
    };
    let taken: Vec<String> = fixed.iter().map(|(_, c)| norm(c)).collect();
    let free: Vec<&String> = range.iter().filter(|c| !taken.contains(&norm(c))).collect();
    let size = if pairs > range.len() {
        pairs
    } else {
        free.len()
    };
    let unfixed = keys
        .iter()
        .filter(|k| !fixed.iter().any(|(f, _)| f == *k))
        .count();
    if unfixed > 0 && free.is_empty() {
        return Err(Shortfall {
            values: unfixed,
            size: 0,
        });
    }
    if unfixed > size {
        return Err(Shortfall {
            values: unfixed,
            size,
        });
    }
    let mut j = 0;
    Ok(keys
        .iter()
        .map(|k| match fixed.iter().find(|(f, _)| f == k) {
            Some((_, c)) => c.clone(),
            None => {
                j += 1;
                free[(j - 1) % free.len()].clone()
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn fixed_values_keep_their_colour_and_the_rest_skip_it() {
        let keys = s(&["a", "b", "c"]);
        let range = s(&["#111111", "#222222", "#333333"]);
        let fixed = vec![("b".to_string(), "#111111".to_string())];
        assert_eq!(
            assign(&keys, &range, &fixed, 3).unwrap(),
            s(&["#222222", "#111111", "#333333"])
        );
    }

    #[test]
    fn more_values_than_colours_is_a_shortfall() {
        let keys = s(&["a", "b", "c"]);
        let range = s(&["#111111", "#222222"]);
        assert_eq!(
            assign(&keys, &range, &[], 2).unwrap_err(),
            Shortfall { values: 3, size: 2 }
        );
        // A fixed colour taken out of the scheme leaves one for two values.
        let fixed = vec![("c".to_string(), "#222222".to_string())];
        assert_eq!(
            assign(&keys, &range, &fixed, 2).unwrap_err(),
            Shortfall { values: 2, size: 1 }
        );
    }

    #[test]
    fn a_scheme_the_fixed_colours_take_whole_has_none_left_even_cycling() {
        let keys = s(&["a", "b"]);
        let range = s(&["#111111"]);
        let fixed = vec![("a".to_string(), "#111111".to_string())];
        assert_eq!(
            assign(&keys, &range, &fixed, usize::MAX).unwrap_err(),
            Shortfall { values: 1, size: 0 }
        );
    }

    #[test]
    fn hatched_schemes_cycle_their_colours_under_the_hatches() {
        let keys = s(&["a", "b", "c"]);
        let range = s(&["#111111", "#222222"]);
        assert_eq!(
            assign(&keys, &range, &[], 8).unwrap(),
            s(&["#111111", "#222222", "#111111"])
        );
    }
}
