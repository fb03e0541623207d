//! Hive-style partitions: the `key=value` folders of a Parquet dataset as
//! Spark, DuckDB (`COPY ... TO 'logs' (FORMAT parquet, PARTITION_BY (...)))`)
//! and polars (`write_parquet(..., partition_by=...)`) write it.
//!
//! A source whose glob matches Parquet files (`path = "logs/**/*.parquet"`)
//! gives every row of a file the fields its folders below the glob's
//! literal folder (`logs`) name: `logs/date=2024-03-01/kind=a/part-0.parquet`
//! gives `date` and `kind`. Policies, each deliberate:
//! - key and value are percent-decoded as Spark escapes them (`a%3Db` is
//!   `a=b`; a `%` not followed by two hex digits stays as it is);
//! - `__HIVE_DEFAULT_PARTITION__` (Spark's and DuckDB's name for a null
//!   key) and an empty value are null;
//! - a key's values are typed over the whole dataset as DuckDB and Spark
//!   infer them: integers when every value that is not null is a 64-bit
//!   integer, otherwise text (a date stays its ISO text, as a Parquet
//!   `DATE` column reads here);
//! - folders without `=` add nothing;
//! - errors, each naming the file: a folder `=x` (no key), a key twice in
//!   one path, a key that is not UTF-8 once decoded, and two files whose
//!   folders name different keys.

use std::sync::Arc;

use crate::error::shown;
use crate::value::Value;

/// A file's partition fields, in folder order: name and value.
pub type Partition = Vec<(Arc<str>, Value)>;

/// The value Spark and DuckDB write for a null key.
pub const DEFAULT_PARTITION: &str = "__HIVE_DEFAULT_PARTITION__";

/// One folder's `key=value`, both percent-decoded; `None` for a folder
/// without `=`, a `None` value for a null. Errors: no key, not UTF-8.
fn folder(name: &str) -> Result<Option<(String, Option<String>)>, String> {
    let Some((key, value)) = name.split_once('=') else {
        return Ok(None);
    };
    let decode = |s: &str| {
        percent_encoding::percent_decode_str(s)
            .decode_utf8()
            .map(|c| c.into_owned())
            .map_err(|_| format!("folder `{}` is not UTF-8 once percent-decoded", shown(name)))
    };
    let key = decode(key)?;
    if key.is_empty() {
        return Err(format!(
            "folder `{}` names no partition key (a partition folder is `key=value`)",
            shown(name)
        ));
    }
    let value = decode(value)?;
    let value = (!value.is_empty() && value != DEFAULT_PARTITION).then_some(value);
    Ok(Some((key, value)))
}

/// The `key=value` folders of `below` (a file's path below the dataset's
/// folder, `/`-separated, the file's own name last and not read).
fn folders(below: &str) -> Result<Vec<(String, Option<String>)>, String> {
    let mut parts = below.split('/').collect::<Vec<_>>();
    parts.pop();
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for p in parts {
        if let Some((k, v)) = folder(p)? {
            if out.iter().any(|(seen, _)| *seen == k) {
                return Err(format!(
                    "partition key `{}` is named twice in its folders",
                    shown(&k)
                ));
            }
            out.push((k, v));
        }
    }
    Ok(out)
}

/// The partition of each file of one dataset: `files` are (shown path,
/// path below the dataset's folder). `None` for every file when no folder
/// is `key=value`. Errors: (the file named, the message).
pub fn partitions(files: &[(&str, &str)]) -> Result<Vec<Option<Arc<Partition>>>, (String, String)> {
    let mut parsed = Vec::with_capacity(files.len());
    for (shown_path, below) in files {
        parsed.push(folders(below).map_err(|m| (shown_path.to_string(), m))?);
    }
    let Some(first) = parsed.iter().position(|p| !p.is_empty()) else {
        return Ok(vec![None; files.len()]);
    };
    let keys: Vec<&str> = parsed[first].iter().map(|(k, _)| k.as_str()).collect();
    for (i, p) in parsed.iter().enumerate() {
        if !p.iter().map(|(k, _)| k.as_str()).eq(keys.iter().copied()) {
            let names = |p: &[(String, Option<String>)]| match p.len() {
                0 => "none".to_string(),
                _ => p
                    .iter()
                    .map(|(k, _)| format!("`{}`", shown(k)))
                    .collect::<Vec<_>>()
                    .join(", "),
            };
            return Err((
                files[i].0.to_string(),
                format!(
                    "its partition folders name {} but those of `{}` name {}: the files of one dataset must be partitioned alike",
                    names(p),
                    files[first].0,
                    names(&parsed[first])
                ),
            ));
        }
    }
    // Integers when every value of the key is one, over the whole dataset.
    let integer: Vec<bool> = (0..keys.len())
        .map(|k| {
            parsed
                .iter()
                .filter_map(|p| p[k].1.as_deref())
                .all(|v| v.parse::<i64>().is_ok())
        })
        .collect();
    let names: Vec<Arc<str>> = keys.iter().map(|k| Arc::from(*k)).collect();
    Ok(parsed
        .into_iter()
        .map(|p| {
            let fields = p
                .into_iter()
                .enumerate()
                .map(|(k, (_, v))| {
                    let value = match v {
                        None => Value::from(()),
                        Some(v) if integer[k] => Value::from(v.parse::<i64>().unwrap_or_default()),
                        Some(v) => Value::from(v),
                    };
                    (names[k].clone(), value)
                })
                .collect();
            Some(Arc::new(fields))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(files: &[&str]) -> Result<Vec<String>, (String, String)> {
        let pairs: Vec<(&str, &str)> = files.iter().map(|f| (*f, *f)).collect();
        Ok(partitions(&pairs)?
            .into_iter()
            .map(|p| match p {
                None => "-".to_string(),
                Some(p) => p
                    .iter()
                    .map(|(k, v)| format!("{k}={v:?}"))
                    .collect::<Vec<_>>()
                    .join(" "),
            })
            .collect())
    }

    #[test]
    fn keys_are_typed_over_the_dataset_and_the_default_partition_is_null() {
        assert_eq!(
            of(&[
                "day=2024-03-01/n=7/part-0.parquet",
                "day=__HIVE_DEFAULT_PARTITION__/n=010/part-0.parquet",
                "day=a%2Fb%3Dc%zz/n=/part-0.parquet",
            ])
            .unwrap(),
            vec![
                "day='2024-03-01' n=7",
                "day=None n=10",
                "day='a/b=c%zz' n=None",
            ]
        );
        // One value that is no integer makes the key's values text.
        assert_eq!(
            of(&["n=7/x/a.parquet", "n=7b/x/b.parquet"]).unwrap(),
            vec!["n='7'", "n='7b'"]
        );
        assert_eq!(of(&["a.parquet", "x/b.parquet"]).unwrap(), vec!["-", "-"]);
    }

    #[test]
    fn a_bad_folder_or_keys_that_differ_are_errors_naming_the_file() {
        assert_eq!(
            of(&["=3/a.parquet"]).unwrap_err(),
            (
                "=3/a.parquet".into(),
                "folder `=3` names no partition key (a partition folder is `key=value`)".into()
            )
        );
        assert_eq!(
            of(&["k=1/k=2/a.parquet"]).unwrap_err().1,
            "partition key `k` is named twice in its folders"
        );
        assert_eq!(
            of(&["k=%ff/a.parquet"]).unwrap_err().1,
            "folder `k=%ff` is not UTF-8 once percent-decoded"
        );
        assert_eq!(
            of(&["k=1/b.parquet", "j=1/c.parquet"]).unwrap_err().1,
            "its partition folders name `j` but those of `k=1/b.parquet` name `k`: the files of one dataset must be partitioned alike"
        );
        assert_eq!(
            of(&["a.parquet", "k=1/b.parquet", "j=1/c.parquet"]).unwrap_err(),
            (
                "a.parquet".into(),
                "its partition folders name none but those of `k=1/b.parquet` name `k`: the files of one dataset must be partitioned alike".into()
            )
        );
    }
}
