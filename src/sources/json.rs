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
//! - repeats are checked in time linear in the number of keys.

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::value::{Record, Value};

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

/// Which parts of a JSONL record a table reads: only these top-level fields
/// are built (the rest is skipped without allocating); a field may further
/// keep only some keys of each entry of its map (a map of maps, such as
/// `methods`, exploded and read as `m.ratio`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Projection {
    /// Field -> `None` (keep whole) or the keys kept in each entry.
    pub fields: rustc_hash::FxHashMap<String, Option<rustc_hash::FxHashSet<String>>>,
}

/// Parses one JSONL line, building only the projected fields. A key
/// repeated at the top level is still an error.
pub fn parse_projected(text: &[u8], projection: &Projection) -> Result<Value, ParseError> {
    let rewritten = rewrite_nonfinite(text);
    let bytes = rewritten.as_deref().unwrap_or(text);
    let path = RefCell::new(Vec::new());
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let result = TopSeed {
        path: &path,
        projection,
    }
    .deserialize(&mut de)
    .and_then(|v| de.end().map(|_| v));
    result.map_err(to_parse_error)
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

/// The visits every projecting seed answers as the full parser does:
/// scalars as cells, lists whole.
macro_rules! plain_visits {
    () => {
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Value, A::Error> {
            CellSeed { path: self.path }.visit_seq(seq)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
            CellSeed { path: self.path }.visit_str(v)
        }
        fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
            Ok(Value::from(v))
        }
        fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
            Ok(Value::from(v))
        }
        fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
            Ok(Value::from(v))
        }
        fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
            Ok(Value::from(v))
        }
        fn visit_unit<E>(self) -> Result<Value, E> {
            Ok(Value::from(()))
        }
    };
}

struct TopSeed<'p> {
    path: &'p RefCell<Vec<Arc<str>>>,
    projection: &'p Projection,
}

impl<'de> DeserializeSeed<'de> for TopSeed<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TopSeed<'_> {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut rec = Record::with_capacity(self.projection.fields.len());
        let mut seen = KeySet::default();
        while let Some(JsonKey(key)) = map.next_key::<JsonKey<'de>>()? {
            match self.projection.fields.get(&*key) {
                None => {
                    map.next_value_seed(SkipSeed {
                        path: self.path,
                        at: &Link {
                            key: &key,
                            up: None,
                        },
                    })?;
                }
                Some(keep) => {
                    let k: Arc<str> = intern(&key);
                    self.path.borrow_mut().push(k.clone());
                    let value = match keep {
                        None => map.next_value_seed(CellSeed { path: self.path })?,
                        Some(keys) => map.next_value_seed(EntriesSeed {
                            path: self.path,
                            keys,
                        })?,
                    };
                    self.path.borrow_mut().pop();
                    rec.0.insert(k, value);
                }
            }
            // Checked after the value, where the full parser notices it too.
            if !seen.insert(key.clone()) {
                return Err(duplicate_key(&key));
            }
        }
        Ok(rec.into_value())
    }
    // A line that is not an object is parsed whole, for the caller's error.
    plain_visits!();
}

/// The error for a key repeated in one object (`dotted`: its path).
fn duplicate_key<E: de::Error>(dotted: &str) -> E {
    E::custom(format!(
        "duplicate key `{dotted}` in one JSON object (Python would silently keep the last value)"
    ))
}

/// A map whose entries that are maps keep only `keys`; other entries whole.
struct EntriesSeed<'p> {
    path: &'p RefCell<Vec<Arc<str>>>,
    keys: &'p rustc_hash::FxHashSet<String>,
}

impl<'de> DeserializeSeed<'de> for EntriesSeed<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for EntriesSeed<'_> {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut rec = Record::with_capacity(8);
        while let Some(JsonKey(key)) = map.next_key::<JsonKey<'de>>()? {
            let key: Arc<str> = intern(&key);
            self.path.borrow_mut().push(key.clone());
            let value = map.next_value_seed(KeepSeed {
                path: self.path,
                keys: self.keys,
            })?;
            if rec.0.contains_key(&key) {
                let dotted = self.path.borrow().join(".");
                return Err(duplicate_key(&dotted));
            }
            self.path.borrow_mut().pop();
            rec.0.insert(key, value);
        }
        Ok(rec.into_value())
    }
    plain_visits!();
}

/// One entry of a projected map: a map keeps only `keys`, anything else whole.
struct KeepSeed<'p> {
    path: &'p RefCell<Vec<Arc<str>>>,
    keys: &'p rustc_hash::FxHashSet<String>,
}

impl<'de> DeserializeSeed<'de> for KeepSeed<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for KeepSeed<'_> {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut rec = Record::with_capacity(self.keys.len());
        let mut seen = KeySet::default();
        while let Some(JsonKey(key)) = map.next_key::<JsonKey<'de>>()? {
            if self.keys.contains(&*key) {
                let k = intern(&key);
                self.path.borrow_mut().push(k.clone());
                let value = map.next_value_seed(CellSeed { path: self.path })?;
                self.path.borrow_mut().pop();
                rec.0.insert(k, value);
            } else {
                map.next_value_seed(SkipSeed {
                    path: self.path,
                    at: &Link {
                        key: &key,
                        up: None,
                    },
                })?;
            }
            if !seen.insert(key.clone()) {
                let dotted = format!("{}.{key}", self.path.borrow().join("."));
                return Err(duplicate_key(&dotted));
            }
        }
        Ok(rec.into_value())
    }
    plain_visits!();
}

/// The keys of one object so far, for the repeat check: a list while
/// short, a hash set past that, so an object of a million keys is read in
/// linear time.
#[derive(Default)]
struct KeySet<'de> {
    list: Vec<std::borrow::Cow<'de, str>>,
    set: rustc_hash::FxHashSet<std::borrow::Cow<'de, str>>,
}

impl<'de> KeySet<'de> {
    /// Past this many keys, the set.
    const SHORT: usize = 16;

    /// Adds `key`; `false` when the object already has it.
    fn insert(&mut self, key: std::borrow::Cow<'de, str>) -> bool {
        if self.set.is_empty() {
            if self.list.contains(&key) {
                return false;
            }
            if self.list.len() < Self::SHORT {
                self.list.push(key);
                return true;
            }
            self.set.extend(self.list.drain(..));
        }
        self.set.insert(key)
    }
}

/// The keys from a skipped top-level field (or entry attribute) down to a
/// value, for the repeat error's path; kept on the stack, not allocated.
struct Link<'k> {
    key: &'k str,
    up: Option<&'k Link<'k>>,
}

/// A value the projection does not keep, validated as the full parser
/// reads it and built into nothing: every string's UTF-8 and escapes, the
/// nesting depth, keys repeated at any depth. (serde's `IgnoredAny` checks
/// none of these, so a line's validity depended on what a table read.)
struct SkipSeed<'p, 'k> {
    /// The kept keys above the skipped value (a map of maps' entry).
    path: &'p RefCell<Vec<Arc<str>>>,
    /// The skipped keys from the kept path down to this value.
    at: &'k Link<'k>,
}

impl<'de> DeserializeSeed<'de> for SkipSeed<'_, '_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for SkipSeed<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq
            .next_element_seed(SkipSeed {
                path: self.path,
                at: self.at,
            })?
            .is_some()
        {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = KeySet::default();
        while let Some(JsonKey(key)) = map.next_key::<JsonKey<'de>>()? {
            map.next_value_seed(SkipSeed {
                path: self.path,
                at: &Link {
                    key: &key,
                    up: Some(self.at),
                },
            })?;
            if !seen.insert(key.clone()) {
                // The path: the kept keys, then the skipped ones.
                let mut skipped = vec![&*key];
                let mut link = Some(self.at);
                while let Some(l) = link {
                    skipped.push(l.key);
                    link = l.up;
                }
                let mut dotted: Vec<&str> = Vec::new();
                let kept = self.path.borrow();
                dotted.extend(kept.iter().map(|k| &**k));
                dotted.extend(skipped.iter().rev());
                return Err(duplicate_key(&dotted.join(".")));
            }
        }
        Ok(())
    }
}

/// Parses one JSON value (a JSONL line or a whole document) into a cell.
///
/// Errors carry serde_json's message and the position; a duplicate key is
/// reported as ``duplicate key `a.b` `` with the path of the key.
pub fn parse(text: &[u8]) -> Result<Value, ParseError> {
    let rewritten = rewrite_nonfinite(text);
    let bytes = rewritten.as_deref().unwrap_or(text);
    let path = RefCell::new(Vec::new());
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let result = CellSeed { path: &path }
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|_| v));
    result.map_err(to_parse_error)
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

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
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
