//! Nothing the user writes is ignored: every key of the spec is checked
//! against what its kind (and its variant: a layer's mark, a step's verb)
//! reads, as declared in `spec::schema`, before serde reads the spec.
//!
//! An unknown key is an error at its line and column naming the nearest
//! accepted key and listing them all; so is a key the variant does not read
//! (`series` on a `bar` layer), a key that does nothing without another
//! (`marker_size` without `marker`), and one that cannot go with another
//! (`fields` with `as`). The walk uses toml's `DeTable`, which keeps every
//! key's span; a spec that does not parse is left to serde's message.

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::schema::{Kind, Ty, Variants, kind};

/// A key that cannot stay, with the span of the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Byte span of the key in the spec.
    pub span: Range<usize>,
    /// What is wrong, with the accepted keys.
    pub message: String,
}

/// What a key of the spec is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A key the declaration names (`mark`, `filter`, `places`).
    Declared,
    /// A name the user chose (`[sources.NAME]`, a derived field, a group output).
    Name,
    /// A field of an inline row (`rows = [{ method = ... }]`).
    Data,
}

/// Checks every key of spec `text`; the first problem in document order.
/// A text that is not TOML passes (serde reports where it breaks).
pub fn check(text: &str) -> Result<(), Problem> {
    let mut w = Walk::default();
    if let Ok(doc) = DeTable::parse(text) {
        w.table(doc.get_ref(), kind("spec"));
    }
    match w.problems.into_iter().min_by_key(|p| p.span.start) {
        Some(p) => Err(p),
        None => Ok(()),
    }
}

/// Every key of spec `text` with its span and role, in document order
/// (for the tests that misspell each key).
pub fn all_keys(text: &str) -> Vec<(Range<usize>, Role)> {
    let mut w = Walk::default();
    if let Ok(doc) = DeTable::parse(text) {
        w.table(doc.get_ref(), kind("spec"));
    }
    w.keys.sort_by_key(|(s, _)| s.start);
    w.keys
}

/// The span of the key at `path` (`["numbers", "fig4-n", "format"]`) in
/// spec `text`, through tables only.
pub fn span_of(text: &str, path: &[&str]) -> Option<Range<usize>> {
    let doc = DeTable::parse(text).ok()?;
    let mut table = doc.get_ref();
    let (last, parents) = path.split_last()?;
    for p in parents {
        match table.get(*p).map(|v| v.get_ref()) {
            Some(DeValue::Table(t)) => table = t,
            _ => return None,
        }
    }
    table
        .iter()
        .find(|(k, _)| k.get_ref() == last)
        .map(|(k, _)| k.span())
}

/// The accepted key nearest to `word` (a typo's likely intent): at most
/// one edit per three characters, and at least one allowed. A candidate
/// whose length differs by more than that is not compared (its distance
/// is at least the difference), nor a word of over 256 bytes: the
/// distance takes time in the product of the lengths (all within
/// [`crate::error::COMPARE_BUDGET`]).
pub fn nearest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    if word.len() > 256 {
        return None;
    }
    let chars = word.chars().count();
    let limit = (chars / 3).max(1);
    let mut budget = crate::error::Budget::default();
    candidates
        .iter()
        .filter(|c| c.len() <= chars * 4 + limit * 4 && c.chars().count().abs_diff(chars) <= limit)
        .take_while(|c| budget.spend(word.len(), c.len()))
        .map(|c| (strsim::damerau_levenshtein(word, c), *c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// serde's `unknown field `x`, expected one of `a`, `b`` in the words of
/// the key check (for a key the walk could not reach).
pub fn reword(message: &str) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return message.to_string();
    };
    let Some((word, tail)) = rest.split_once('`') else {
        return message.to_string();
    };
    let expected: Vec<&str> = tail.split('`').skip(1).step_by(2).collect();
    let hint = nearest(word, &expected)
        .map(|n| format!("; did you mean `{n}`?"))
        .unwrap_or_default();
    format!(
        "unknown key `{word}`{hint} (expected one of: {})",
        expected.join(", ")
    )
}

#[derive(Default)]
struct Walk {
    problems: Vec<Problem>,
    keys: Vec<(Range<usize>, Role)>,
    tables: Vec<Seen>,
}

/// A table of the spec as the check saw it (for the tests that put a key
/// of another variant in each).
#[derive(Debug, Clone)]
pub struct Seen {
    /// Its kind.
    pub kind: &'static Kind,
    /// Its variant, when it has one.
    pub variant: Option<String>,
    /// The span of its first key.
    pub first_key: Range<usize>,
    /// The keys it has.
    pub keys: Vec<String>,
}

/// Every table of spec `text` that has a key, with its kind and variant.
pub fn all_tables(text: &str) -> Vec<Seen> {
    let mut w = Walk::default();
    if let Ok(doc) = DeTable::parse(text) {
        w.table(doc.get_ref(), kind("spec"));
    }
    w.tables
}

type Entry<'i> = (
    &'i Spanned<std::borrow::Cow<'i, str>>,
    &'i Spanned<DeValue<'i>>,
);

/// The variant of `t` (a kind of [`Variants::ByKey`] with two variant keys
/// is a problem, at the second).
fn variant<'t>(t: &'t DeTable<'_>, k: &Kind) -> Result<Option<&'t str>, Problem> {
    Ok(match k.variants {
        Variants::None => None,
        Variants::ByValue(key) => match t.get(key) {
            Some(v) => match v.get_ref() {
                DeValue::String(s) if k.is_variant(s) => Some(s.as_ref()),
                DeValue::String(s) => {
                    let names: Vec<&str> = k.variant_list.iter().map(|v| v.name).collect();
                    let hint = nearest(s, &names)
                        .map(|n| format!("; did you mean `{n}`?"))
                        .unwrap_or_default();
                    return Err(Problem {
                        span: v.span(),
                        message: format!("unknown {key} `{s}`{hint} ({})", names.join(", ")),
                    });
                }
                _ => None,
            },
            None => None,
        },
        Variants::ByKey => {
            let verbs: Vec<&str> = t
                .iter()
                .map(|(key, _)| key.get_ref().as_ref())
                .filter(|key| k.is_variant(key))
                .collect();
            // `aggregate` beside `group` is group's option, not a second verb.
            let present: Vec<_> = t
                .iter()
                .filter(|(key, _)| {
                    let key: &str = key.get_ref();
                    k.is_variant(key) && !verbs.iter().any(|v| super::schema::companion(k, v, key))
                })
                .collect();
            match present.as_slice() {
                [] => None,
                [(one, _)] => Some(one.get_ref().as_ref()),
                [(a, _), (b, _), ..] => {
                    let names: Vec<&str> = k.variant_list.iter().map(|v| v.name).collect();
                    return Err(Problem {
                        span: b.span(),
                        message: format!(
                            "{} has exactly one of {}; found both `{}` and `{}`",
                            k.noun,
                            names.join(", "),
                            a.get_ref(),
                            b.get_ref()
                        ),
                    });
                }
            }
        }
        Variants::NumberValue => match t.get("value").map(|v| v.get_ref()) {
            Some(DeValue::Table(v)) if v.get("expr").is_some() => Some("expr"),
            Some(_) => Some("table"),
            None => None,
        },
    })
}

impl Walk {
    fn problem(&mut self, span: Range<usize>, message: String) {
        self.problems.push(Problem { span, message });
    }

    fn table(&mut self, t: &DeTable<'_>, k: &'static Kind) {
        let var = match variant(t, k) {
            Ok(v) => v,
            Err(p) => {
                self.problems.push(p);
                None
            }
        };
        if let Some((first, _)) = t.iter().next() {
            self.tables.push(Seen {
                kind: k,
                variant: var.map(str::to_string),
                first_key: first.span(),
                keys: t.iter().map(|(n, _)| n.get_ref().to_string()).collect(),
            });
        }
        let accepted = k.keys_of(var);
        let noun = match var {
            Some(v) => k.variant_noun(v),
            None => k.noun.to_string(),
        };
        for entry in t.iter() {
            self.entry(entry, t, k, var, &accepted, &noun);
        }
    }

    fn entry(
        &mut self,
        (name, value): Entry<'_>,
        t: &DeTable<'_>,
        k: &'static Kind,
        var: Option<&str>,
        accepted: &[&'static str],
        noun: &str,
    ) {
        let word: &str = name.get_ref();
        let span = name.span();
        let Some(key) = k.key(word) else {
            let mut hint = nearest(word, accepted)
                .map(|n| format!("; did you mean `{n}`?"))
                .unwrap_or_default();
            // A step verb written on the table itself (`union = [...]`).
            if k.name == "table"
                && hint.is_empty()
                && super::schema::kind("step").key(word).is_some()
            {
                hint = format!("; `{word}` is a step: `steps = [{{ {word} = ... }}]`");
            }
            let takes = if var.is_some() {
                "takes"
            } else {
                "takes one of"
            };
            self.problem(
                span,
                format!(
                    "unknown key `{word}` in {noun}{hint} ({noun} {takes}: {})",
                    accepted.join(", ")
                ),
            );
            return;
        };
        self.keys.push((span.clone(), Role::Declared));
        if var.is_some() && !accepted.contains(&word) {
            let users: Vec<&str> = k
                .variant_list
                .iter()
                .map(|v| v.name)
                .filter(|v| k.keys_of(Some(v)).contains(&word))
                .collect();
            let only = match k.variants {
                Variants::NumberValue => String::new(),
                _ => format!(
                    " (only to {})",
                    users
                        .iter()
                        .map(|u| format!("`{u}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            self.problem(
                span,
                format!(
                    "`{word}` does not apply to {noun}{only}; {noun} takes: {}",
                    accepted.join(", ")
                ),
            );
            return;
        }
        // An option of a kind chosen by key, in a table without the key
        // that chooses it: `{ minimize = "x" }` has no `pareto`.
        if var.is_none()
            && matches!(k.variants, Variants::ByKey)
            && !key.only.is_empty()
            && !k.is_variant(word)
        {
            let owners: Vec<String> = key.only.iter().map(|o| format!("`{o}`")).collect();
            self.problem(
                span,
                format!(
                    "`{word}` does nothing without {} in {noun}",
                    owners.join(" or ")
                ),
            );
            return;
        }
        // `group-separator` with `group-digits = false` is as unread as without it.
        if let Some(needed) = key.needs
            && t.get(needed)
                .is_none_or(|v| matches!(v.get_ref(), DeValue::Boolean(false)))
        {
            self.problem(
                span,
                format!("`{word}` does nothing without `{needed}` in {noun}"),
            );
            return;
        }
        if let Some(other) = key.excludes
            && t.get(other).is_some()
        {
            self.problem(
                span,
                format!("`{word}` cannot be given with `{other}` in {noun}"),
            );
            return;
        }
        // With `places` and no `exponent-mode` a number always prints fixed
        // (only figures or the shortest text switch to a power of ten).
        if word == "print-unity-mantissa"
            && t.get("places").is_some()
            && t.get("exponent-mode").is_none()
        {
            self.problem(
                span,
                format!(
                    "`{word}` does nothing with `places` and no `exponent-mode` in {noun} (it always prints fixed); give `exponent-mode = \"scientific\"` or `\"engineering\"`, or leave it out"
                ),
            );
            return;
        }
        self.value(value.get_ref(), key.ty);
    }

    fn names(&mut self, v: &DeValue<'_>, each: &mut dyn FnMut(&mut Self, &DeValue<'_>)) {
        if let DeValue::Table(t) = v {
            for (name, value) in t.iter() {
                self.keys.push((name.span(), Role::Name));
                each(self, value.get_ref());
            }
        }
    }

    fn value(&mut self, v: &DeValue<'_>, ty: Ty) {
        let sub = |name: &str| kind(name);
        match (ty, v) {
            (Ty::Table(k), DeValue::Table(t)) => self.table(t, sub(k)),
            (Ty::List(k), DeValue::Array(items)) => {
                for item in items.iter() {
                    if let DeValue::Table(t) = item.get_ref() {
                        self.table(t, sub(k));
                    }
                }
            }
            (Ty::Names(k), _) => self.names(v, &mut |w, item| {
                if let DeValue::Table(t) = item {
                    w.table(t, sub(k));
                }
            }),
            (Ty::NamedExprs | Ty::NamedColors, _) => self.names(v, &mut |_, _| {}),
            (Ty::NamedAggregates, _) => self.names(v, &mut |w, item| w.value(item, Ty::Aggregate)),
            (Ty::Aggregate, DeValue::Table(t)) => self.table(t, sub("aggregate")),
            (Ty::NamedWindowOps, _) => self.names(v, &mut |w, item| {
                if let DeValue::Table(t) = item {
                    w.table(t, sub("window_op"));
                }
            }),
            (Ty::Uncertainty, DeValue::Table(t))
                if t.get("low").is_some() || t.get("high").is_some() =>
            {
                self.table(t, sub("interval"))
            }
            (Ty::Uncertainty, DeValue::Table(t)) => self.table(t, sub("aggregate")),
            (Ty::Channel, DeValue::Table(t)) => self.table(t, sub("channel")),
            (Ty::Ticks, DeValue::Table(t)) => self.table(t, sub("ticks")),
            (Ty::Sort, DeValue::Table(t)) => self.table(t, sub("sort_key")),
            (Ty::Sort, DeValue::Array(items)) => {
                // One level only: a list of lists is serde's error, and
                // nested 100,000 deep it must not overflow the stack here.
                for item in items.iter() {
                    if let DeValue::Table(t) = item.get_ref() {
                        self.table(t, sub("sort_key"));
                    }
                }
            }
            (Ty::Rows, DeValue::Array(items)) => {
                for item in items.iter() {
                    if let DeValue::Table(t) = item.get_ref() {
                        for (name, _) in t.iter() {
                            self.keys.push((name.span(), Role::Data));
                        }
                    }
                }
            }
            // Anything else is a leaf; its type is serde's to check.
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(text: &str) -> String {
        match check(text) {
            Ok(()) => "ok".into(),
            Err(p) => {
                let before = &text[..p.span.start];
                let line = before.matches('\n').count() + 1;
                let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                format!("{line}:{col}: {}", p.message)
            }
        }
    }

    #[test]
    fn unknown_step_key_suggests_the_nearest() {
        assert_eq!(
            first("[tables.t]\nfrom = \"s\"\nsteps = [{ fliter = \"x\" }]\n"),
            "3:12: unknown key `fliter` in a step; did you mean `filter`? (a step takes one of: filter, require, derive, explode, key, value, lookup, on, as, fields, unmatched, union, only_new, group, aggregate, sort, limit, per, pareto, minimize, unique, keep, row_number, window, joinaggregate, fold, pivot, op, bin, bins, step, extent)"
        );
    }

    #[test]
    fn option_of_another_verb_is_an_error() {
        assert_eq!(
            first("[tables.t]\nfrom = \"s\"\nsteps = [{ pareto = [\"a\"], keep = \"b\" }]\n"),
            "3:28: `keep` does not apply to a `pareto` step (only to `unique`); a `pareto` step takes: pareto, as, per, minimize"
        );
        assert_eq!(
            first("[tables.t]\nfrom = \"s\"\nsteps = [{ filter = \"a\", key = \"b\" }]\n"),
            "3:26: `key` does not apply to a `filter` step (only to `explode`, `fold`); a `filter` step takes: filter"
        );
    }

    #[test]
    fn key_of_another_mark_is_an_error() {
        let text = "[figures.f]\nsize = [1, 1]\nlayers = [{ mark = \"bar\", x = \"a\", y = \"b\", series = \"c\" }]\n";
        assert_eq!(
            first(text),
            "3:45: `series` does not apply to a `bar` layer (only to `hist`, `line`, `ecdf`, `area`, `errorband`); a `bar` layer takes: mark, data, where, x, y, x2, y2, color, stroke, opacity, stroke_width, dash, text, text_position, label, legend, orient, band, font_size, detail, rasterize, z, xOffset, yOffset, stack, padding"
        );
    }

    #[test]
    fn needs_and_excludes() {
        assert_eq!(
            first("[figures.f]\nsize = [1, 1]\nlayers = [{ mark = \"line\", marker_size = 3 }]\n"),
            "3:28: `marker_size` does nothing without `marker` in a `line` layer"
        );
        assert_eq!(
            first(
                "[tables.t]\nfrom = \"s\"\nsteps = [{ lookup = \"u\", on = \"k\", as = \"m\", fields = [\"a\"] }]\n"
            ),
            "3:46: `fields` cannot be given with `as` in a `lookup` step"
        );
    }

    #[test]
    fn an_option_without_its_verb_is_an_error_at_the_option() {
        assert_eq!(
            first("[tables.t]\nfrom = \"s\"\nsteps = [{ minimize = \"a\" }]\n"),
            "3:12: `minimize` does nothing without `pareto` in a step"
        );
        assert_eq!(
            first("[tables.t]\nfrom = \"s\"\nsteps = [{ per = \"a\" }]\n"),
            "3:12: `per` does nothing without `limit` or `row_number` or `pareto` or `window` or `joinaggregate` or `pivot` in a step"
        );
    }

    #[test]
    fn a_key_needing_a_switch_that_is_off_is_an_error() {
        assert_eq!(
            first(
                "[numbers.a]\ntable = \"t\"\nvalue = \"count\"\nformat = { group-digits = false, group-separator = \" \" }\n"
            ),
            "4:34: `group-separator` does nothing without `group-digits` in a format"
        );
    }

    #[test]
    fn two_verbs_are_an_error_at_the_second() {
        assert_eq!(
            first(
                "[tables.t]\nfrom = \"s\"\nsteps = [{ filter = \"a\", derive = { b = \"1\" } }]\n"
            ),
            "3:26: a step has exactly one of filter, require, derive, explode, lookup, union, group, sort, limit, pareto, unique, row_number, aggregate, window, joinaggregate, fold, pivot, bin; found both `filter` and `derive`"
        );
    }

    #[test]
    fn names_and_rows_are_not_checked() {
        let text = "[sources.anything]\nrows = [{ whatever = 1 }]\n[tables.t]\nfrom = \"anything\"\nsteps = [{ derive = { zz = \"1\" } }, { group = \"zz\", aggregate = { q9 = { median = \"zz\" } } }]\n";
        assert_eq!(first(text), "ok");
        let roles: Vec<Role> = all_keys(text).into_iter().map(|(_, r)| r).collect();
        assert_eq!(roles.iter().filter(|r| **r == Role::Data).count(), 1);
        assert_eq!(roles.iter().filter(|r| **r == Role::Name).count(), 4);
    }

    #[test]
    fn unknown_mark_suggests_the_nearest() {
        assert_eq!(
            first("[figures.f]\nsize = [1, 1]\nlayers = [{ mark = \"lien\" }]\n"),
            "3:20: unknown mark `lien`; did you mean `line`? (bar, hist, point, line, rule, rect, text, errorbar, boxplot, ecdf, area, errorband, violin, arc)"
        );
    }

    #[test]
    fn aggregate_options_belong_to_their_operation() {
        assert_eq!(
            first("[numbers.a]\ntable = \"t\"\nvalue = { median = \"x\", q = 0.5 }\n"),
            "3:25: `q` does not apply to a `median` aggregate (only to `quantile`); a `median` aggregate takes: median"
        );
    }

    #[test]
    fn an_expr_number_reads_no_table() {
        assert_eq!(
            first("[numbers.a]\ntable = \"t\"\nvalue = { expr = \"1\" }\n"),
            "2:1: `table` does not apply to a number with `value = { expr = ... }`; a number with `value = { expr = ... }` takes: value, uncertainty, format, description"
        );
    }

    #[test]
    fn serde_message_is_reworded() {
        assert_eq!(
            reword("unknown field `formt`, expected one of `path`, `format`"),
            "unknown key `formt`; did you mean `format`? (expected one of: path, format)"
        );
    }
}
