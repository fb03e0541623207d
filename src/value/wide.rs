//! Integers beyond `i64`: a JSON, CSV or Parquet integer up to `i128` is
//! kept exact (minijinja's `Value` holds `u64` and `i128`), so it prints
//! with all its digits, and distinct ones stay distinct keys and sort in
//! order; only arithmetic may take it through a double.

use super::Value;

/// The exact value of an integer cell beyond `i64` (`u64` past
/// `i64::MAX`, `i128`), `None` for any other value (an `i64` too: the
/// callers' fast case) or one beyond `i128`.
pub fn wide_int(v: &Value) -> Option<i128> {
    if !v.is_integer() || v.as_i64().is_some() {
        return None;
    }
    i128::try_from(v.clone()).ok()
}

/// Two integer cells as `i128`s when one of them is beyond `i64` (they
/// may round to equal doubles), else `None` (compared as doubles).
pub fn exact_pair(a: &Value, b: &Value) -> Option<(i128, i128)> {
    if wide_int(a).is_none() && wide_int(b).is_none() {
        return None;
    }
    let int = |v: &Value| v.is_integer().then(|| i128::try_from(v.clone()).ok())?;
    Some((int(a)?, int(b)?))
}

/// How two integer cells compare, exactly (as doubles, integers past 2⁵³
/// can be equal); `None` when either is not an integer.
pub fn cmp_ints(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    if !(a.is_integer() && b.is_integer()) {
        return None;
    }
    match (a.as_i64(), b.as_i64()) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        _ => exact_pair(a, b).map(|(x, y)| x.cmp(&y)),
    }
}

/// An integer as a cell of the kind JSON gives it: `i64` when it fits,
/// else `u64`, else `i128` (exact: printed with all its digits).
pub fn int_value(i: i128) -> Value {
    match (i64::try_from(i), u64::try_from(i)) {
        (Ok(x), _) => Value::from(x),
        (_, Ok(x)) => Value::from(x),
        _ => Value::from(i),
    }
}

/// `i128` as its high and low words (a key part stays 8-byte aligned).
pub fn wide_parts(w: i128) -> (i64, u64) {
    ((w >> 64) as i64, w as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_integers_are_exact_and_canonical() {
        let big: i128 = 123_456_789_012_345_678_901_234_567_890;
        assert_eq!(int_value(big).to_string(), "123456789012345678901234567890");
        assert_eq!(wide_int(&int_value(big)), Some(big));
        assert_eq!(wide_int(&int_value(5)), None);
        assert_eq!(
            int_value(u64::MAX.into()).to_string(),
            "18446744073709551615"
        );
        let (a, b) = (int_value(big), int_value(big + 1));
        assert_eq!(exact_pair(&a, &b), Some((big, big + 1)));
        assert_eq!(exact_pair(&int_value(1), &int_value(2)), None);
        assert_eq!(wide_parts(-1), (-1, u64::MAX));
        let (x, y) = (
            Value::from(9_007_199_254_740_993_i64),
            Value::from(9_007_199_254_740_992_i64),
        );
        assert_eq!(cmp_ints(&x, &y), Some(std::cmp::Ordering::Greater));
        assert_eq!(cmp_ints(&b, &a), Some(std::cmp::Ordering::Greater));
        assert_eq!(cmp_ints(&a, &Value::from(1.5)), None);
    }
}
