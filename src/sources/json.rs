//! JSON text to cells, as logs written by Python need it.
//!
//! serde_json does the parsing; this module adds what Python's `json` module
//! accepts or hides:
//! - bare `NaN`, `Infinity` and `-Infinity` tokens (Python's default
//!   `allow_nan=True` writes them) are read as floats;
//! - a key repeated inside one object is an error naming the key (Python
//!   silently keeps the last one);
//! - objects keep their key order (as Python's `dict` does);
//! - a projected parse ([`parse_projected`]) builds only some fields but
//!   validates the rest as the whole parse does (UTF-8 of every string,
//!   nesting depth, repeated keys at any depth), with the same error at
//!   the same column: a line's validity never depends on what is read;
//! - repeats are checked in time linear in the number of keys;
//! - an integer beyond `u64` is read exact, up to `i128` (serde_json gives
//!   the double it rounds to); a wider one is an error naming its field
//!   ([`wide`]).

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::value::{Record, Value};

mod projected;
mod wide;
pub use projected::{Projection, parse_projected};

// Strings that stand in for the non-standard tokens after rewriting. A NUL
// character cannot appear unescaped in JSON and no logger writes "\u0000NaN"
// as a real string, so the sentinels cannot collide with data in practice.
const NAN: &str = "\u{0}NaN";
const POS_INF: &str = "\u{0}Infinity";
const NEG_INF: &str = "\u{0}-Infinity";

thread_local! {
    // Field names repeat on every line of a log: share one allocation each.
    static KEYS: RefCell<rustc_hash::FxHashMap<Box<str>, Arc<str>>> = RefCell::new(Default::default());
}

/// The shared `Arc<str>` for a field name (bounded: rare names are not kept).
fn intern(key: &str) -> Arc<str> {
    KEYS.with(|k| {
        let mut k = k.borrow_mut();
        if let Some(a) = k.get(key) {
            return a.clone();
        }
        let a: Arc<str> = Arc::from(key);
        if k.len() < 4096 && key.len() <= 64 {
            k.insert(Box::from(key), a.clone());
        }
        a
    })
}

/// A JSON parse failure: the message and the 1-based column in the line (or
/// line and column in a document).
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    /// serde_json's message without its position suffix, or ours.
    pub message: String,
    /// 1-based line within the parsed text.
    pub line: usize,
    /// 1-based column within that line.
    pub column: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (column {})", self.message, self.column)
    }
}

/// Replaces bare `NaN` / `Infinity` / `-Infinity` tokens outside strings by
/// sentinel strings. Returns `None` when the text has none (the common case,
/// found with one fast substring search).
fn rewrite_nonfinite(text: &[u8]) -> Option<Vec<u8>> {
    if memchr::memmem::find(text, b"NaN").is_none()
        && memchr::memmem::find(text, b"Infinity").is_none()
    {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() + 32);
    let mut in_string = false;
    let mut i = 0;
    let mut changed = false;
    while i < text.len() {
        let b = text[i];
        if in_string {
            out.push(b);
            if b == b'\\' && i + 1 < text.len() {
                out.push(text[i + 1]);
                i += 2;
                continue;
            }
            if b == b'"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        let rest = &text[i..];
        let token = if rest.starts_with(b"NaN") {
            Some((3, "\"\\u0000NaN\""))
        } else if rest.starts_with(b"Infinity") {
            Some((8, "\"\\u0000Infinity\""))
        } else if rest.starts_with(b"-Infinity") {
            Some((9, "\"\\u0000-Infinity\""))
        } else {
            None
        };
        if let Some((len, replacement)) = token {
            out.extend_from_slice(replacement.as_bytes());
            i += len;
            changed = true;
            continue;
        }
        if b == b'"' {
            in_string = true;
        }
        out.push(b);
        i += 1;
    }
    changed.then_some(out)
}

fn to_parse_error(e: serde_json::Error) -> ParseError {
    let full = e.to_string();
    let message = match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    };
    ParseError {
        message,
        line: e.line(),
        column: e.column(),
    }
}

/// The error for a key repeated in one object (`dotted`: its path).
fn duplicate_key<E: de::Error>(dotted: &str) -> E {
    // The key is data: one line, escaped.
    E::custom(format!(
        "duplicate key `{}` in one JSON object (Python would silently keep the last value)",
        crate::error::shown(dotted)
    ))
}

/// Parses one JSON value (a JSONL line or a whole document) into a cell.
///
/// Errors carry serde_json's message and the position; a duplicate key is
/// reported as ``duplicate key `a.b` `` with the path of the key.
pub fn parse(text: &[u8]) -> Result<Value, ParseError> {
    let rewritten = rewrite_nonfinite(text);
    let bytes = rewritten.as_deref().unwrap_or(text);
    exact(bytes, |bytes| {
        let path = RefCell::new(Vec::new());
        let mut de = serde_json::Deserializer::from_slice(bytes);
        CellSeed { path: &path }
            .deserialize(&mut de)
            .and_then(|v| de.end().map(|_| v))
    })
}

/// Runs `parse` on `bytes`, and again replaying its number tokens when a
/// double it read may have been an integer beyond `u64` ([`wide`]).
fn exact(
    bytes: &[u8],
    parse: impl Fn(&[u8]) -> serde_json::Result<Value>,
) -> Result<Value, ParseError> {
    wide::watch();
    let first = parse(bytes);
    if !wide::done() || first.is_err() {
        return first.map_err(to_parse_error);
    }
    wide::replay(bytes);
    let second = parse(bytes);
    wide::done();
    second.map_err(to_parse_error)
}

/// An object key, borrowed from the input when it has no escapes (serde's
/// own `Cow<str>` always allocates).
struct JsonKey<'de>(std::borrow::Cow<'de, str>);

impl<'de> de::Deserialize<'de> for JsonKey<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = JsonKey<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<JsonKey<'de>, E> {
                Ok(JsonKey(std::borrow::Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<JsonKey<'de>, E> {
                Ok(JsonKey(std::borrow::Cow::Owned(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> Result<JsonKey<'de>, E> {
                Ok(JsonKey(std::borrow::Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

struct CellSeed<'p> {
    path: &'p RefCell<Vec<Arc<str>>>,
}

impl<'de> DeserializeSeed<'de> for CellSeed<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for CellSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        wide::float(v, || self.path.borrow().join(".")).map_err(E::custom)
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(match v {
            NAN => Value::from(f64::NAN),
            POS_INF => Value::from(f64::INFINITY),
            NEG_INF => Value::from(f64::NEG_INFINITY),
            _ => Value::from(v),
        })
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::from(()))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::from(()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(4));
        while let Some(v) = seq.next_element_seed(CellSeed { path: self.path })? {
            items.push(v);
        }
        Ok(Value::from(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut rec = Record::with_capacity(map.size_hint().unwrap_or(8));
        while let Some(JsonKey(key)) = map.next_key::<JsonKey<'de>>()? {
            let key: Arc<str> = intern(&key);
            self.path.borrow_mut().push(key.clone());
            let value = map.next_value_seed(CellSeed { path: self.path })?;
            if rec.0.contains_key(&key) {
                let dotted = self.path.borrow().join(".");
                return Err(duplicate_key(&dotted));
            }
            self.path.borrow_mut().pop();
            rec.0.insert(key, value);
        }
        Ok(rec.into_value())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::as_number;

    #[test]
    fn python_nonfinite_tokens_are_floats() {
        let v =
            parse(br#"{"a": NaN, "b": Infinity, "c": -Infinity, "s": "NaN Infinity"}"#).unwrap();
        assert!(as_number(&v.get_attr("a").unwrap()).unwrap().is_nan());
        assert_eq!(as_number(&v.get_attr("b").unwrap()), Some(f64::INFINITY));
        assert_eq!(
            as_number(&v.get_attr("c").unwrap()),
            Some(f64::NEG_INFINITY)
        );
        assert_eq!(v.get_attr("s").unwrap().as_str(), Some("NaN Infinity"));
    }

    #[test]
    fn duplicate_key_is_an_error_naming_its_path() {
        let e = parse(br#"{"methods": {"zstd": {"ratio": 1.2, "ratio": 9.9}}}"#).unwrap_err();
        assert!(
            e.message
                .starts_with("duplicate key `methods.zstd.ratio` in one JSON object"),
            "{}",
            e.message
        );
    }

    #[test]
    fn projection_builds_only_what_is_read() {
        let mut p = Projection::default();
        p.fields.insert("_kind".into(), None);
        p.fields.insert(
            "methods".into(),
            Some(["ratio".to_string()].into_iter().collect()),
        );
        let v = parse_projected(
            br#"{"_kind": "b", "big": [1, 2, {"x": 3}], "methods": {"a": {"ratio": 1.5, "other": 2}, "b": "n/a"}}"#,
            &p,
        )
        .unwrap();
        assert_eq!(v.get_attr("big").unwrap(), Value::UNDEFINED);
        let m = v.get_attr("methods").unwrap();
        assert_eq!(
            m.get_attr("a").unwrap().get_attr("ratio").unwrap(),
            Value::from(1.5)
        );
        assert_eq!(
            m.get_attr("a").unwrap().get_attr("other").unwrap(),
            Value::UNDEFINED
        );
        assert_eq!(m.get_attr("b").unwrap().as_str(), Some("n/a"));
        let e = parse_projected(br#"{"big": 1, "big": 2}"#, &p).unwrap_err();
        assert!(
            e.message.starts_with("duplicate key `big`"),
            "{}",
            e.message
        );
        let e =
            parse_projected(br#"{"methods": {"a": {"ratio": 1, "ratio": 2}}}"#, &p).unwrap_err();
        assert!(
            e.message.starts_with("duplicate key `methods.a.ratio`"),
            "{}",
            e.message
        );
    }

    #[test]
    fn key_order_is_kept() {
        let v = parse(br#"{"z": 1, "a": 2, "m": 3}"#).unwrap();
        let keys: Vec<String> = v.try_iter().unwrap().map(|k| k.to_string()).collect();
        assert_eq!(keys, ["z", "a", "m"]);
    }

    #[test]
    fn truncated_line_reports_column() {
        let e = parse(br#"{"a": 1, "b": [1, 2"#).unwrap_err();
        assert_eq!(e.message, "EOF while parsing a list");
        assert_eq!(e.column, 19);
    }

    #[test]
    fn escaped_quote_does_not_confuse_the_token_rewrite() {
        let v = parse(br#"{"s": "a\"NaN", "x": NaN}"#).unwrap();
        assert_eq!(v.get_attr("s").unwrap().as_str(), Some("a\"NaN"));
        assert!(as_number(&v.get_attr("x").unwrap()).unwrap().is_nan());
    }
}
