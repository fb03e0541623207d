//! Skipping what a table's filters rule out: a Parquet row group whose
//! statistics, or a partition folder whose `key=value`, cannot pass the
//! simple comparisons a table's first `filter`s start with.
//!
//! Only an accelerator: the filters still run on every row read, so a
//! skip may only drop rows the filters would drop, and drop them without
//! a word, as they would: a skip needs, for every column a comparison
//! reads, statistics with a minimum and a maximum and no null, of a
//! 64-bit or narrower signed integer whose range holds no 0 (a filter
//! notes the rows it drops for a null, a NaN, an infinity or a 0) or of
//! UTF-8 text compared with text. Anything else (floats, which may hold
//! NaN, a missing statistic, a comparison of text with a number) reads the
//! row group. `ARTIFACT_NO_SKIP=1` turns skipping off (tests compare both).

use crate::expr::fast::Cmp;
use crate::value::Value;

/// A constant a filter compares a field with.
#[derive(Debug, Clone, PartialEq)]
pub enum Lit {
    /// A number (integers exact below 2^53).
    Num(f64),
    /// A text.
    Str(String),
}

/// One comparison of a field with constants.
#[derive(Debug, Clone, PartialEq)]
pub enum Test {
    /// `field op constant`.
    Cmp(Cmp, Lit),
    /// `field in [constants]`.
    In(Vec<Lit>),
}

/// `field` passes `test`: a term of a filter's `and` chain.
#[derive(Debug, Clone, PartialEq)]
pub struct Term {
    /// The row's top-level field.
    pub field: String,
    /// What it must pass.
    pub test: Test,
}

/// What every table reading a source requires of a row before anything
/// else: a row is read when, for some table, every term of its chain may
/// hold.
#[derive(Debug, Clone, PartialEq)]
pub struct Prune {
    /// One `and` chain per table reading the source (none is empty).
    pub any: Vec<Vec<Term>>,
}

/// What is known of a field over a row group or a file.
#[derive(Debug, Clone)]
pub enum Known {
    /// Nothing usable: the row group is read.
    Nothing,
    /// Integers in `[min, max]`, no null, no 0.
    Ints(i64, i64),
    /// Texts in `[min, max]` (bytewise), no null.
    Texts(Vec<u8>, Vec<u8>),
    /// One value for every row (a partition folder's).
    Exactly(Value),
}

/// Whether skipping is on (`ARTIFACT_NO_SKIP` unset).
pub fn enabled() -> bool {
    std::env::var_os("ARTIFACT_NO_SKIP").is_none()
}

impl Prune {
    /// Whether a row may pass, knowing `known(field)` of every field a term
    /// reads: false only when, for every chain, every field is known
    /// cleanly and one term cannot hold.
    pub fn may_pass(&self, known: &dyn Fn(&str) -> Known) -> bool {
        self.any.iter().any(|chain| {
            let facts: Vec<Known> = chain.iter().map(|t| known(&t.field)).collect();
            if facts.iter().any(|k| !clean(k)) {
                return true;
            }
            chain.iter().zip(&facts).all(|(t, k)| may_hold(&t.test, k))
        })
    }
}

/// Whether rows of this knowledge dropped by a filter are dropped without a
/// note (no null, no 0, no NaN, no infinity).
fn clean(k: &Known) -> bool {
    match k {
        Known::Nothing => false,
        Known::Ints(min, max) => !(*min <= 0 && 0 <= *max),
        Known::Texts(..) => true,
        Known::Exactly(v) => match crate::value::as_number(v) {
            Some(x) => x.is_finite() && x != 0.0,
            None => v.as_str().is_some(),
        },
    }
}

/// Whether `test` may hold on some value of `k` (true when unsure).
fn may_hold(test: &Test, k: &Known) -> bool {
    match test {
        Test::In(lits) => lits
            .iter()
            .any(|l| may_hold(&Test::Cmp(Cmp::Eq, l.clone()), k)),
        Test::Cmp(op, lit) => match (k, lit) {
            (Known::Ints(min, max), Lit::Num(c)) => {
                const EXACT: f64 = 9_007_199_254_740_992.0;
                let (lo, hi) = (*min as f64, *max as f64);
                if lo.abs() >= EXACT || hi.abs() >= EXACT || c.abs() >= EXACT || c.is_nan() {
                    return true;
                }
                range_may_hold(*op, &lo, &hi, c)
            }
            (Known::Texts(min, max), Lit::Str(c)) => {
                range_may_hold(*op, min.as_slice(), max.as_slice(), c.as_bytes())
            }
            (Known::Exactly(v), lit) => exact_may_hold(*op, v, lit),
            _ => true,
        },
    }
}

/// Whether `x op c` may hold for some `x` in `[lo, hi]`.
fn range_may_hold<T: PartialOrd + ?Sized>(op: Cmp, lo: &T, hi: &T, c: &T) -> bool {
    match op {
        Cmp::Eq => lo <= c && c <= hi,
        Cmp::Ne => !(lo == c && hi == c),
        Cmp::Lt => lo < c,
        Cmp::Le => lo <= c,
        Cmp::Gt => hi > c,
        Cmp::Ge => hi >= c,
    }
}

/// Whether `v op lit` holds (true when they are not both numbers or both
/// texts).
fn exact_may_hold(op: Cmp, v: &Value, lit: &Lit) -> bool {
    match (crate::value::as_number(v), v.as_str(), lit) {
        (Some(x), _, Lit::Num(c)) => range_may_hold(op, &x, &x, c),
        (None, Some(s), Lit::Str(c)) => range_may_hold(op, s, s, c.as_str()),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(terms: Vec<(&str, Test)>) -> Prune {
        Prune {
            any: vec![
                terms
                    .into_iter()
                    .map(|(f, test)| Term {
                        field: f.into(),
                        test,
                    })
                    .collect(),
            ],
        }
    }

    #[test]
    fn a_range_that_cannot_pass_is_skipped_and_an_unclean_one_is_read() {
        let p = chain(vec![("x", Test::Cmp(Cmp::Gt, Lit::Num(10.0)))]);
        assert!(!p.may_pass(&|_| Known::Ints(1, 10)));
        assert!(p.may_pass(&|_| Known::Ints(1, 11)));
        // A 0 in the range: the filter would note it.
        assert!(p.may_pass(&|_| Known::Ints(0, 5)));
        assert!(p.may_pass(&|_| Known::Nothing));
        // Text against a number: read (the comparison may fail).
        assert!(p.may_pass(&|_| Known::Texts(b"a".to_vec(), b"b".to_vec())));
        let k = chain(vec![(
            "k",
            Test::In(vec![Lit::Str("b".into()), Lit::Str("q".into())]),
        )]);
        assert!(!k.may_pass(&|_| Known::Texts(b"c".to_vec(), b"p".to_vec())));
        assert!(k.may_pass(&|_| Known::Texts(b"c".to_vec(), b"q".to_vec())));
        assert!(!k.may_pass(&|_| Known::Exactly(Value::from("a"))));
        assert!(k.may_pass(&|_| Known::Exactly(Value::from(()))));
        assert!(k.may_pass(&|_| Known::Exactly(Value::from(7))));
    }
}
