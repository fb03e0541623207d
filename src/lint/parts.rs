//! The parts of a number with an uncertainty in the prose:
//! `\artnum[value]{k}`, `#artnum("k", part: "lo")`. A number typed by
//! hand that is one part is told to write that part; a part that no
//! number has is reported where it is written.

use std::collections::BTreeMap;

use super::typed::{Match, Typed, equals};
use crate::format::PART_NAMES;

/// How typed number `t` equals a number with text `text`, value `value`
/// and parts `parts` (empty without an uncertainty), and the part to
/// write (`None`: the whole). A bound or the uncertainty as printed is
/// that part; the value (as printed or rounded) is `value`, unless an
/// uncertainty follows it in the prose (`2.08 \pm 0.05`: the whole).
pub fn hit(
    t: &Typed,
    text: &str,
    value: f64,
    parts: &BTreeMap<String, String>,
) -> Option<(Match, Option<&'static str>)> {
    for name in ["lo", "hi", "pm"] {
        if let Some(p) = parts.get(name)
            && equals(t, p, f64::NAN) == Some(Match::Text)
        {
            return Some((Match::Part(name), Some(name)));
        }
    }
    let why = equals(t, text, value)?;
    if parts.is_empty() || t.uncertain {
        return Some((why, None));
    }
    let why = if why == Match::Text {
        Match::Part("value")
    } else {
        why
    };
    Some((why, Some("value")))
}

/// The problem with part `part` of number `key` (`parts`: the number's,
/// `None` when no number has the key, which is reported as such), if any.
pub fn problem(key: &str, part: &str, parts: &BTreeMap<String, String>) -> Option<String> {
    if parts.contains_key(part) || part == "value" {
        return None;
    }
    if PART_NAMES.contains(&part) {
        return Some(format!(
            "number `{key}` has no uncertainty, so no part `{part}`: write it whole, or give it an `uncertainty`"
        ));
    }
    let near = crate::spec::keys::nearest(part, &PART_NAMES)
        .map(|n| format!("; did you mean `{n}`?"))
        .unwrap_or_default();
    Some(format!(
        "unknown part `{}` of number `{key}` (value, lo, hi, pm){near}",
        crate::error::shown(part)
    ))
}

/// What to write for part `part` (`None`: the whole) of number `key`.
pub fn macro_for(latex: bool, key: &str, part: Option<&str>) -> String {
    match (latex, part) {
        (true, None) => format!("\\artnum{{{key}}}"),
        (true, Some(p)) => format!("\\artnum[{p}]{{{key}}}"),
        // A key that typst cannot end at a space reads as `#key;`.
        (false, None) => format!("#{key}"),
        (false, Some(p)) => format!("#artnum(\"{key}\", part: \"{p}\")"),
    }
}
