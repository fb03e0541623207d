//! `artifact.lock`: what the last `artifact gen` read and wrote.
//!
//! Written beside the spec, sorted and stable so it diffs well in git: the
//! tool version, a blake3 hash of the spec, of every input file and of every
//! output, every number's text (and value), and for each number and figure
//! a key: the hash of everything it depends on (its part of the spec, the
//! parts of the tables it reads, the hashes of their input files, the
//! numbers its text quotes). `artifact gen` rebuilds only what has a new
//! key; `artifact check` compares the lock, the files and the data.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::numbers::Number;
use crate::value::Value;

pub use crate::spec::LOCK_FILE;
use crate::spec::LoadedSpec;

/// A number as the lock records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LockedNumber {
    /// Hash of what the number depends on.
    pub key: String,
    /// Printed text.
    pub text: String,
    /// Full-precision value, as JSON.
    pub value: String,
    /// The uncertainty, as JSON (a number, or `{"low":..,"high":..}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uncertainty: Option<String>,
    /// The text's parts when there is an uncertainty (`value`, `lo`, `hi`,
    /// `pm`), for a reused number and for lint.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub parts: BTreeMap<String, String>,
    /// The spec's description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The table it was computed from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    /// Rows it was computed over.
    pub rows: usize,
    /// Sources it depends on.
    pub sources: Vec<String>,
    /// The family (`[numbers.NAME]` with `each`) it is a member of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
}

impl LockedNumber {
    /// Records `n`, whose dependencies hash to `dependencies` (the key is
    /// sealed with its text and value: [`sealed_key`]).
    pub fn from_number(n: &Number, dependencies: String) -> LockedNumber {
        let value = serde_json::to_string(&n.value).unwrap_or_else(|_| "null".into());
        let uncertainty = n
            .uncertainty
            .as_ref()
            .map(|u| crate::numbers::uncertainty::to_json(u).to_string());
        let parts: BTreeMap<String, String> = n
            .parts
            .iter()
            .flat_map(|p| p.named())
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        LockedNumber {
            key: sealed_key(
                &dependencies,
                &n.text,
                &sealed(&value, &uncertainty, &parts),
            ),
            text: n.text.clone(),
            value,
            uncertainty,
            parts,
            description: n.description.clone(),
            table: n.table.clone(),
            rows: n.rows,
            sources: n.sources.iter().cloned().collect(),
            family: n.family.clone(),
        }
    }

    /// The number back, for reuse when its key is unchanged.
    pub fn to_number(&self, key: &str) -> Number {
        let json: serde_json::Value =
            serde_json::from_str(&self.value).unwrap_or(serde_json::Value::Null);
        // serde_json reads an integer beyond `u64` as a double: exact here.
        let value = match self.value.parse::<i128>() {
            Ok(i) if crate::value::wide_int(&crate::value::int_value(i)).is_some() => {
                crate::value::int_value(i)
            }
            _ => Value::from(minijinja::value::Serde(json)),
        };
        Number {
            key: key.to_string(),
            value,
            text: self.text.clone(),
            uncertainty: self
                .uncertainty
                .as_deref()
                .and_then(|u| serde_json::from_str(u).ok())
                .and_then(|u| crate::numbers::uncertainty::from_json(&u)),
            parts: self.parts(),
            description: self.description.clone(),
            table: self.table.clone(),
            rows: self.rows,
            sources: self.sources.iter().cloned().collect(),
            family: self.family.clone(),
        }
    }
}

/// A figure as the lock records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LockedFigure {
    /// Hash of what the figure depends on.
    pub key: String,
    /// Its output files.
    pub outputs: Vec<String>,
}

/// The whole lock.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Lock {
    /// `artifact X.Y.Z` that wrote it.
    pub tool: String,
    /// blake3 of `artifact.toml`.
    pub spec: String,
    /// What failed in the run that wrote the lock (`number.KEY`,
    /// `figure.NAME`): their records (and input hashes) are those of the
    /// last run that built them, and `check --fast` never calls such a lock
    /// current.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<String>,
    /// Input file (relative to the spec) -> blake3.
    #[serde(default)]
    pub inputs: BTreeMap<String, String>,
    /// Input file -> blake3 of what the run that wrote the lock read, for
    /// the files whose hash in [`Lock::inputs`] is kept back for a part
    /// that failed (see [`Lock::failed`]) and differs: the parts that did
    /// not fail were built from this one, so their rebuild reasons compare
    /// against it (see [`Lock::built_from`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inputs_read: BTreeMap<String, String>,
    /// Output file (relative to the spec) -> blake3.
    #[serde(default)]
    pub outputs: BTreeMap<String, String>,
    /// Number key -> record.
    #[serde(default)]
    pub numbers: BTreeMap<String, LockedNumber>,
    /// Figure name -> record.
    #[serde(default)]
    pub figures: BTreeMap<String, LockedFigure>,
    /// Results table name -> record (key and files, as a figure's).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub results_tables: BTreeMap<String, LockedFigure>,
}

/// This tool's identity as written in the lock.
pub fn tool() -> String {
    format!("artifact {}", env!("CARGO_PKG_VERSION"))
}

/// The key a number's record carries: the hash of what it depends on
/// (`dependencies`, from `Fingerprint::number_key`) sealed with its text and
/// value as recorded, so a record edited by hand or mangled by a merge no
/// longer matches and is recomputed, never published.
pub fn sealed_key(dependencies: &str, text: &str, value: &str) -> String {
    let mut h = blake3::Hasher::new();
    for part in [dependencies, text, value] {
        h.update(&(part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.finalize().to_hex().to_string()
}

impl LockedNumber {
    /// Whether this record is what gen wrote for a number whose
    /// dependencies hash to `dependencies`.
    pub fn matches(&self, dependencies: &str) -> bool {
        self.key
            == sealed_key(
                dependencies,
                &self.text,
                &sealed(&self.value, &self.uncertainty, &self.parts),
            )
    }

    /// The recorded parts, whole when every one is there.
    fn parts(&self) -> Option<crate::format::Parts> {
        let part = |k: &str| self.parts.get(k).cloned();
        Some(crate::format::Parts {
            whole: self.text.clone(),
            value: part("value")?,
            lo: part("lo")?,
            hi: part("hi")?,
            pm: part("pm")?,
        })
    }
}

/// The value, the uncertainty and the text's parts as one sealed string
/// (the value alone when there is no uncertainty, as before uncertainties
/// existed; a lock written before parts existed does not match, so its
/// numbers are computed again with their parts).
fn sealed(value: &str, uncertainty: &Option<String>, parts: &BTreeMap<String, String>) -> String {
    let mut s = match uncertainty {
        Some(u) => format!("{value} ± {u}"),
        None => value.to_string(),
    };
    for (k, v) in parts {
        s.push_str(&format!("\n{k}\u{1f}{v}"));
    }
    s
}

/// blake3 of bytes, as hex.
pub fn hash_bytes(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

/// blake3 of a file, read in 1 MiB chunks hashed on all cores (not
/// memory-mapped: a mapped gigabyte file would count in the peak RSS).
pub fn hash_file(path: &Path) -> Result<String> {
    use std::io::Read;
    // Read in chunks (a memory map would count the whole file in the
    // process's resident memory), each hashed on every core.
    let mut f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut h = blake3::Hasher::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).map_err(|e| Error::io(path, e))?;
        if n == 0 {
            break;
        }
        h.update_rayon(&buf[..n]);
    }
    Ok(h.finalize().to_hex().to_string())
}

impl Lock {
    /// Reads the lock beside the spec; `None` when there is none.
    pub fn read(root: &Path) -> Result<Option<Lock>> {
        let path = root.join(LOCK_FILE);
        // Not read_to_string: a FIFO or /dev/zero there would hang.
        let text = match crate::output::read_regular(&path) {
            Ok(Some(bytes)) => String::from_utf8(bytes).map_err(|_| {
                Error::msg(format!(
                    "{LOCK_FILE}: not UTF-8 (delete it and run `artifact gen`)"
                ))
            })?,
            Ok(None) => return Ok(None),
            Err(e) => {
                return Err(Error::msg(format!(
                    "{LOCK_FILE}: {} (delete it and run `artifact gen`)",
                    crate::output::cause(&e)
                )));
            }
        };
        toml::from_str(&text).map(Some).map_err(|e| {
            Error::msg(format!(
                "{LOCK_FILE}: {} (delete it and run `artifact gen`)",
                e.message()
            ))
        })
    }

    /// The hash of input `rel` that part `part` (`figure.NAME`,
    /// `number.KEY`, as [`Lock::failed`] names it) was last built from:
    /// the kept one for a part that failed, else what the run read.
    pub fn built_from(&self, part: &str, rel: &str) -> Option<&String> {
        match self.failed.iter().any(|f| f == part) {
            true => self.inputs.get(rel),
            false => self.inputs_read.get(rel).or_else(|| self.inputs.get(rel)),
        }
    }

    /// The lock as text.
    pub fn to_text(&self) -> String {
        let body = toml::to_string(self).unwrap_or_default();
        format!("# Written by `artifact gen`; read by `artifact check`. Do not edit.\n{body}")
    }
}

/// The members a lock records, by family, each family's in key order:
/// what [`reuse`] reads of a family (not the whole lock for each).
#[derive(Debug, Default)]
pub struct Families<'l>(std::collections::HashMap<&'l str, Vec<(&'l str, &'l LockedNumber)>>);

impl<'l> Families<'l> {
    /// The members `lock` records.
    pub fn of(lock: &'l Lock) -> Families<'l> {
        let mut by = std::collections::HashMap::<_, Vec<_>>::new();
        for (k, n) in &lock.numbers {
            if let Some(f) = n.family.as_deref() {
                by.entry(f).or_default().push((k.as_str(), n));
            }
        }
        Families(by)
    }
}

/// Declaration `name`'s numbers as `lock` recorded them when they were
/// computed from what hashes to `key` now (a family's members, in key
/// order, from `families`, the lock's), or `None` to compute them again (a
/// family without members is computed again: its table decides whether it
/// has any).
pub fn reuse(
    spec: &LoadedSpec,
    lock: &Lock,
    families: &Families<'_>,
    name: &str,
    key: &str,
) -> Option<Vec<Number>> {
    if !crate::numbers::family::is_family(spec, name) {
        let locked = lock.numbers.get(name)?;
        return locked.matches(key).then(|| vec![locked.to_number(name)]);
    }
    let members: Vec<Number> = families
        .0
        .get(name)
        .into_iter()
        .flatten()
        .map(|(k, n)| n.matches(key).then(|| n.to_number(k)))
        .collect::<Option<_>>()?;
    (!members.is_empty()).then_some(members)
}

/// The members written when some number failed: each family's computed
/// members, or for a family that failed the members `last` recorded (so
/// the paper keeps printing their previous text, as for any number).
pub fn kept(spec: &LoadedSpec, nums: &crate::numbers::Numbers, last: Option<&Lock>) -> Vec<Number> {
    let mut out = Vec::new();
    for name in spec
        .spec
        .numbers
        .keys()
        .filter(|k| crate::numbers::family::is_family(spec, k))
    {
        let computed: Vec<&Number> = nums
            .list
            .iter()
            .filter(|n| n.family.as_deref() == Some(name.as_str()))
            .collect();
        if !computed.is_empty() || nums.skipped.iter().any(|(s, _)| s == name) {
            out.extend(computed.into_iter().cloned());
            continue;
        }
        if let Some(l) = last {
            out.extend(
                l.numbers
                    .iter()
                    .filter(|(_, n)| n.family.as_deref() == Some(name.as_str()))
                    .map(|(k, n)| n.to_number(k)),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_round_trips_and_is_sorted() {
        let mut l = Lock {
            tool: tool(),
            spec: "s".into(),
            ..Lock::default()
        };
        l.inputs.insert("b.jsonl".into(), "2".into());
        l.inputs.insert("a.jsonl".into(), "1".into());
        l.numbers.insert(
            "fig3-median".into(),
            LockedNumber {
                key: "k".into(),
                text: "3.859".into(),
                value: "3.8594150000000003".into(),
                uncertainty: None,
                parts: BTreeMap::new(),
                description: None,
                table: Some("t".into()),
                rows: 138,
                sources: vec!["q".into()],
                family: None,
            },
        );
        let text = l.to_text();
        assert!(text.find("a.jsonl").unwrap() < text.find("b.jsonl").unwrap());
        let back: Lock = toml::from_str(&text).unwrap();
        assert_eq!(back, l);
        let n = back.numbers["fig3-median"].to_number("fig3-median");
        assert_eq!(crate::value::as_number(&n.value), Some(3.8594150000000003));
    }
}
