//! The fast path checked against minijinja (the differential test).

use super::*;
use crate::expr::{Expr, Globals};
use crate::value::{Origin, Record};

fn rows() -> Vec<Row> {
    let lines = [
        r#"{"_kind": "bench_7B", "x": 1.5, "n_items": 3, "s": "café", "z": null, "nan": NaN, "inf": Infinity, "b": false, "zero": 0, "m": {"ratio": 1.27, "decompress_MBps": 1339.76}, "t": "1.27", "execution time": 4.5, "p50 (ms)": "a", "_": {"x": 7}}"#,
        r#"{"_kind": "Q4_K_benchmark", "x": -2, "n_items": 0, "s": "", "z": 0.0, "nan": 1, "b": true, "zero": 0.0, "m": "not applicable", "t": 5, "execution time": 2, "_": 3}"#,
        r#"{"x": 1e300, "n_items": 9223372036854775807, "m": {"error": "x", "compress_MBps": null}}"#,
    ];
    lines
        .iter()
        .map(|l| {
            let v = json_value(&serde_json::from_str(&non_finite_as_text(l)).unwrap());
            Row {
                extra: Default::default(),
                fields: Arc::new(as_record(&v).unwrap().clone()),
                origin: Origin::line(Arc::from("t.jsonl"), 1),
            }
        })
        .collect()
}

/// `NaN` and `Infinity` (which the JSONL reader accepts and serde_json
/// does not) as strings that [`json_value`] turns back into floats.
fn non_finite_as_text(line: &str) -> String {
    line.replace(": NaN", ": \"\\u0000NaN\"")
        .replace(": Infinity", ": \"\\u0000Infinity\"")
}

/// A JSON value as the JSONL reader gives it (objects as [`Record`]s,
/// integers as integers), without depending on the reader's layer.
fn json_value(v: &serde_json::Value) -> Value {
    use serde_json::Value as J;
    match v {
        J::Null => Value::from(()),
        J::Bool(b) => Value::from(*b),
        J::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Value::from(i),
            (None, Some(u)) => Value::from(u),
            _ => Value::from(n.as_f64().unwrap()),
        },
        J::String(s) if s == "\u{0}NaN" => Value::from(f64::NAN),
        J::String(s) if s == "\u{0}Infinity" => Value::from(f64::INFINITY),
        J::String(s) => Value::from(s.as_str()),
        J::Array(a) => Value::from(a.iter().map(json_value).collect::<Vec<_>>()),
        J::Object(o) => {
            let mut rec = Record::with_capacity(o.len());
            for (k, v) in o {
                rec.insert(k.as_str(), json_value(v));
            }
            rec.into_value()
        }
    }
}

/// Expressions both differential tests run (values here, cells in
/// `tables::fast::eval`): each answers where it can and must agree.
pub(crate) const EXPRS: &[&str] = &[
    "x",
    "x + 1",
    "x * 2",
    "x / 2",
    "x / zero",
    "x - n_items",
    "n_items + 1",
    "n_items * 2",
    "-x",
    "-n_items",
    "x > 0",
    "x >= 1.5",
    "x == 1.5",
    "x != 1.5",
    "n_items == 3.0",
    "s == 'café'",
    "s < 'd'",
    "z == none",
    "t > 0",
    "nan > 0",
    "nan == nan",
    "inf > 0",
    "x > missing",
    "missing",
    "missing or 'a'",
    "z or 'dflt'",
    "b and x",
    "not b",
    "_kind in ['bench_bf16_perfile', 'bench_7B', 'Q4_K_benchmark']",
    "_kind not in ['bench_7B']",
    "x in [1.5, 2]",
    "m is mapping",
    "m.ratio",
    "m.ratio is number",
    "m.ratio > 0",
    "m.decompress_MBps is not none",
    "m.nope",
    "m.nope is defined",
    "missing.deeper",
    "s is string",
    "z is none",
    "missing is none",
    "inf is finite",
    "x is finite",
    "b is boolean",
    "'C=' ~ n_items ~ ' ' ~ s",
    "x ~ ''",
    "z ~ 'a'",
    "b ~ 1",
    "nan ~ ''",
    "'Q4_K' if _kind == 'Q4_K_benchmark' else 'bf16'",
    "x if b",
    "max(40, log1p(n_items) * 18)",
    "min(x, 1)",
    "max(x, n_items, 1)",
    "min(x, n_items, zero, 1)",
    "max(1, 1.0)",
    "max(1.0, 1, 0)",
    "max(z, 1, 2)",
    "min(s, 1, 2)",
    "abs(x)",
    "abs(-n_items)",
    "abs(-x * 2)",
    "abs(s)",
    "abs(z)",
    "abs(nan)",
    "abs(missing)",
    "sqrt(x)",
    "log(zero)",
    "(x + 1) * 2",
    "x * 1e3",
    "n_items - 1 > 0 and not b or z",
    "t ~ s",
    "['a', x]",
    "m['ratio']",
    "1 < 2 < 3",
    "n_items == 2",
    "z == true",
    "b == z",
    "not e",
    "l and 1",
    "s in ['café', 'x']",
    "s not in ['café']",
    "x in ['a']",
    "b in ['a']",
    "z in ['a']",
    "missing in ['a']",
    "m in ['a']",
    "s == 'x'",
    "s != 'café'",
    "x == 'a'",
    "z != 'a'",
    "missing == 'a'",
    "'a' if s == 'café' else 'b'",
    "n_items in [2, 'a']",
    "z in [1]",
    "e == e",
    "l is mapping",
    "m.ratio.deeper",
    "zero == 0",
    "-zero",
    "x > 1",
    "n_items >= 2.5",
    "n_items != 3",
    "s > 0",
    "z < 1",
    "b > 0",
    "e > 0",
    "missing <= 1",
    "m > 0",
    "_['execution time']",
    "_['execution time'] > 3",
    "_.x + 1",
    "_['x'] * 2",
    "_['m'].ratio",
    "_['m']['ratio'] > 1",
    "_['p50 (ms)'] ~ '!'",
    "_['missing'] or 'a'",
    "_['missing'] is defined",
    "_['_']",
    "_['_'].x",
    "_.x == x",
    "_['n'] is defined",
];

#[test]
fn agrees_with_minijinja_wherever_it_answers() {
    let spec = crate::spec::parse("", std::path::Path::new("artifact.toml")).unwrap();
    let g = Arc::new(Globals::default());
    let mut answered = 0;
    for src in EXPRS {
        let Some(node) = compile(src) else { continue };
        let e = Expr::compile_str(&spec, src, 0..0).unwrap();
        for row in rows() {
            if let Ok(fast) = node.eval(&row) {
                answered += 1;
                let slow = e.eval_slow(&g, &row).unwrap_or_else(|err| {
                    panic!("{src}: fast gave {fast:?}, minijinja failed: {err}")
                });
                assert_eq!(
                    format!("{fast:?}"),
                    format!("{slow:?}"),
                    "{src} on {:?}",
                    row.fields
                );
                assert_eq!(fast.kind(), slow.kind(), "{src}");
            }
        }
    }
    assert!(
        answered > 100,
        "the fast path answers most cases ({answered})"
    );
}

#[test]
fn ordering_a_string_or_null_against_a_number_is_refused() {
    let r = &rows()[0];
    let Err(Stop::Mismatch { field, why }) = compile("t > 0").unwrap().eval(r) else {
        panic!()
    };
    assert_eq!(field.as_deref(), Some("t"));
    assert!(
        why.starts_with("the string \"1.27\" cannot be ordered against the number 0"),
        "{why}"
    );
    assert!(matches!(
        compile("z >= 1").unwrap().eval(r),
        Err(Stop::Mismatch { .. })
    ));
    // Equality is not refused: strings compare, mixed kinds go to minijinja.
    assert_eq!(compile("t == 'x'").unwrap().eval(r), Ok(Value::from(false)));
    assert_eq!(compile("t == 1.27").unwrap().eval(r), Err(Stop::Fallback));
}

#[test]
fn any_field_is_read_through_the_row() {
    let r = &rows()[0];
    let eval = |src: &str| compile(src).unwrap().eval(r);
    assert_eq!(eval("_['execution time'] * 2"), Ok(Value::from(9.0)));
    assert_eq!(eval("_[\"p50 (ms)\"]"), Ok(Value::from("a")));
    // `_` is the row, even in a row with a field named `_`.
    assert_eq!(eval("_.x"), Ok(Value::from(1.5)));
    assert_eq!(eval("_['_'].x"), Ok(Value::from(7)));
    assert_eq!(eval("_['missing']"), Err(Stop::Fallback));
}

#[test]
fn outside_the_subset_is_not_compiled() {
    for src in [
        "x | abs",
        "n['fig3-median']",
        "_source.path",
        "_",
        "_ | length",
        "_[s]",
        "x // 2",
        "'a\\'b'",
        "f(x)",
        "1 < 2 < 3",
    ] {
        assert!(compile(src).is_none(), "{src}");
    }
    let _ = Record::default();
}

#[test]
fn the_type_test_hint_spells_a_name_with_a_symbol_as_read() {
    let r = &rows()[0];
    let Err(Stop::Mismatch { field, why }) = compile("_['p50 (ms)'] > 1").unwrap().eval(r) else {
        panic!()
    };
    assert_eq!(field.as_deref(), Some("p50 (ms)"));
    assert_eq!(
        why,
        "the string \"a\" cannot be ordered against the number 1 (Python raises TypeError here; test the type first, e.g. `_['p50 (ms)'] is number`)"
    );
}

#[test]
fn integers_beyond_i64_are_left_to_minijinja_which_keeps_them_exact() {
    // As doubles, w and w1 are one number: the fast path declines, and
    // minijinja compares and adds them exactly (in i128).
    let big: i128 = 123_456_789_012_345_678_901_234_567_890;
    let mut rec = Record::default();
    rec.insert("w", Value::from(big));
    rec.insert("w1", Value::from(big + 1));
    rec.insert("u", Value::from(u64::MAX));
    rec.insert("u1", Value::from(u64::MAX - 1));
    let row = Row {
        extra: Default::default(),
        fields: Arc::new(rec),
        origin: Origin::line(Arc::from("t.jsonl"), 1),
    };
    let spec = crate::spec::parse("", std::path::Path::new("artifact.toml")).unwrap();
    let g = Arc::new(Globals::default());
    for (src, want) in [
        ("w == w1", "False"),
        ("w < w1", "True"),
        ("u != u1", "True"),
        ("w + 1", "123456789012345678901234567891"),
        ("w1 - w", "1"),
        ("-w", "-123456789012345678901234567890"),
        ("w in [w1]", "False"),
        ("w ~ ''", "123456789012345678901234567890"),
        ("u ~ ''", "18446744073709551615"),
        ("max(w, w1)", "123456789012345678901234567891"),
    ] {
        let node = compile(src).unwrap();
        assert_eq!(node.eval(&row), Err(Stop::Fallback), "{src}");
        let e = Expr::compile_str(&spec, src, 0..0).unwrap();
        assert_eq!(e.eval_slow(&g, &row).unwrap().to_string(), want, "{src}");
    }
}
