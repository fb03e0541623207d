//! The projected parse: a JSONL line with only the fields a table reads
//! built, and everything else validated exactly as the whole parse
//! ([`super::parse`]) validates it, with the same errors.

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use super::{CellSeed, JsonKey, ParseError, duplicate_key, intern, rewrite_nonfinite};
use crate::value::{Record, Value};

/// Which parts of a JSONL record a table reads: only these top-level fields
/// are built (the rest is skipped without allocating); a field may further
/// keep only some keys of each entry of its map (a map of maps, such as
/// `methods`, exploded and read as `m.ratio`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Projection {
    /// Field -> `None` (keep whole) or the keys kept in each entry.
    pub fields: rustc_hash::FxHashMap<String, Option<rustc_hash::FxHashSet<String>>>,
    /// What the tables' first filters require of every row, for a Parquet
    /// source to skip row groups and partition folders that cannot pass
    /// (see [`crate::sources::prune`]); JSONL reads every line.
    pub prune: Option<std::sync::Arc<crate::sources::prune::Prune>>,
    /// Fields read only as `field.attr` (and type tests), with the
    /// attributes read: a Parquet struct column decodes only those leaves.
    /// (JSONL builds such a field whole.)
    pub attrs: rustc_hash::FxHashMap<String, rustc_hash::FxHashSet<String>>,
}

/// Parses one JSONL line, building only the projected fields. A key
/// repeated at the top level is still an error.
pub fn parse_projected(text: &[u8], projection: &Projection) -> Result<Value, ParseError> {
    let rewritten = rewrite_nonfinite(text);
    let bytes = rewritten.as_deref().unwrap_or(text);
    super::exact(bytes, |bytes| {
        let path = RefCell::new(Vec::new());
        let mut de = serde_json::Deserializer::from_slice(bytes);
        TopSeed {
            path: &path,
            projection,
        }
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|_| v))
    })
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
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
            CellSeed { path: self.path }.visit_f64(v)
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
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        // Read as a kept value is: an integer wider than 128 bits is an
        // error here too.
        let field = || {
            let mut keys = vec![];
            let mut link = Some(self.at);
            while let Some(l) = link {
                keys.push(l.key);
                link = l.up;
            }
            let kept = self.path.borrow();
            let mut dotted: Vec<&str> = kept.iter().map(|k| &**k).collect();
            dotted.extend(keys.iter().rev());
            dotted.join(".")
        };
        super::wide::skipped(v, field).map_err(E::custom)
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
