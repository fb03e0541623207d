//! The files of one Parquet source read as one dataset: their schemas
//! agree, their partition fields (see [`super::hive`]) collide with no
//! column, and the row groups and files the tables' filters rule out are
//! skipped (see [`super::prune`]).

use std::sync::Arc;

use parquet::basic::{ColumnOrder, ConvertedType, LogicalType, Repetition, SortOrder, Type as P};
use parquet::file::metadata::{ParquetMetaData, RowGroupMetaData};
use parquet::file::statistics::Statistics;
use parquet::schema::types::Type;

use super::SourceFile;
use super::json::Projection;
use super::prune::{Known, Prune};
use crate::error::{Error, Result, shown};
use crate::value::Value;

/// What the files read so far of one source tell about the next.
pub(super) struct Dataset {
    /// The first file read and its top-level columns with their types.
    first: Option<(String, Vec<(String, String)>)>,
    /// Whether skipping is on (see [`super::prune::enabled`]).
    on: bool,
    /// Row groups in the files read.
    pub groups: u64,
    /// Of them, skipped.
    pub skipped: u64,
    /// Whether row groups are read column by column (see
    /// [`super::parquetcol`]; `ARTIFACT_PARQUET_RECORD_API=1` reads them
    /// with the record API only, which tests compare it with).
    pub columnar: bool,
    /// Row groups read wholly column by column.
    pub by_columns: u64,
}

impl Dataset {
    /// A dataset of no file yet.
    pub fn new() -> Dataset {
        Dataset {
            first: None,
            on: super::prune::enabled(),
            groups: 0,
            skipped: 0,
            columnar: std::env::var_os("ARTIFACT_PARQUET_RECORD_API").is_none(),
            by_columns: 0,
        }
    }

    /// Checks `file`'s schema (its `root`) against its partition fields and
    /// the first file's. Errors: a partition key that is also a column; a
    /// column whose type differs from the first file's (naming both files).
    pub fn check(&mut self, file: &SourceFile, root: &Type) -> Result<()> {
        let columns: Vec<(String, String)> = root
            .get_fields()
            .iter()
            .map(|f| (f.name().to_string(), signature(f)))
            .collect();
        if let Some(p) = &file.partition
            && let Some((key, _)) = p
                .iter()
                .find(|(k, _)| columns.iter().any(|(c, _)| **k == **c))
        {
            return Err(Error::input(
                file.rel.clone(),
                None,
                Some(shown(key)),
                format!(
                    "its folder `{}=...` makes a field `{}`, and the file has a column `{}` too: a row cannot hold both (rename the column or the folders)",
                    shown(key),
                    shown(key),
                    shown(key)
                ),
            ));
        }
        match &self.first {
            None => self.first = Some((file.rel.clone(), columns)),
            Some((first, theirs)) => {
                for (name, ty) in &columns {
                    if let Some((_, other)) = theirs.iter().find(|(n, _)| n == name)
                        && other != ty
                    {
                        return Err(Error::input(
                            file.rel.clone(),
                            None,
                            Some(shown(name)),
                            format!(
                                "column `{}` is {} here but {} in `{first}`: the files of one source must agree on a column's type (rewrite one, or cast the column)",
                                shown(name),
                                shown(ty),
                                shown(other)
                            ),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// Which of the file's row groups to read: those whose statistics and
    /// partition may pass `prune`'s filters (all, without one or with
    /// skipping off).
    pub fn row_groups(
        &mut self,
        file: &SourceFile,
        meta: &ParquetMetaData,
        projection: Option<&Projection>,
    ) -> Vec<bool> {
        let groups = meta.row_groups();
        self.groups += groups.len() as u64;
        let prune = projection
            .and_then(|p| p.prune.as_deref())
            .filter(|_| self.on);
        let Some(prune) = prune else {
            return vec![true; groups.len()];
        };
        let part = |field: &str| {
            let p = file.partition.as_ref()?;
            p.iter()
                .find(|(k, _)| **k == *field)
                .map(|(_, v)| v.clone())
        };
        // A file whose folders rule it out is not read at all.
        if !prune.may_pass(&|f| part(f).map_or(Known::Nothing, Known::Exactly)) {
            self.skipped += groups.len() as u64;
            return vec![false; groups.len()];
        }
        let keep: Vec<bool> = groups
            .iter()
            .map(|rg| may_pass(prune, meta, rg, &part))
            .collect();
        self.skipped += keep.iter().filter(|k| !**k).count() as u64;
        keep
    }
}

/// Whether rows of row group `rg` may pass `prune`: each field known from
/// the file's partition or the group's statistics.
fn may_pass(
    prune: &Prune,
    meta: &ParquetMetaData,
    rg: &RowGroupMetaData,
    part: &dyn Fn(&str) -> Option<Value>,
) -> bool {
    prune.may_pass(&|field| {
        if let Some(v) = part(field) {
            return Known::Exactly(v);
        }
        rg.columns()
            .iter()
            .enumerate()
            .find(|(_, c)| c.column_descr().path().parts() == [field])
            .map_or(Known::Nothing, |(i, c)| {
                known(c, meta.file_metadata().column_order(i))
            })
    })
}

/// What a column chunk's statistics say of its values, when they can be
/// trusted to bound every value read (see [`super::prune`]).
fn known(c: &parquet::file::metadata::ColumnChunkMetaData, order: ColumnOrder) -> Known {
    let d = c.column_descr();
    let info = d.self_type().get_basic_info();
    if info.repetition() == Repetition::REPEATED {
        return Known::Nothing;
    }
    let Some(stats) = c.statistics() else {
        return Known::Nothing;
    };
    if stats.null_count_opt() != Some(0) {
        return Known::Nothing;
    }
    let signed = matches!(
        d.converted_type(),
        ConvertedType::NONE
            | ConvertedType::INT_8
            | ConvertedType::INT_16
            | ConvertedType::INT_32
            | ConvertedType::INT_64
    ) && matches!(
        d.logical_type_ref(),
        None | Some(LogicalType::Integer(parquet::basic::IntType {
            is_signed: true,
            ..
        }))
    );
    let text = d.converted_type() == ConvertedType::UTF8
        || matches!(d.logical_type_ref(), Some(LogicalType::String));
    match (d.physical_type(), stats) {
        (P::INT32, Statistics::Int32(s)) if signed => match (s.min_opt(), s.max_opt()) {
            (Some(a), Some(b)) => Known::Ints(i64::from(*a), i64::from(*b)),
            _ => Known::Nothing,
        },
        (P::INT64, Statistics::Int64(s)) if signed => match (s.min_opt(), s.max_opt()) {
            (Some(a), Some(b)) => Known::Ints(*a, *b),
            _ => Known::Nothing,
        },
        // Text bounds only in the type's own (unsigned bytewise) order.
        (P::BYTE_ARRAY, Statistics::ByteArray(s))
            if text
                && !stats.is_min_max_deprecated()
                && order == ColumnOrder::TYPE_DEFINED_ORDER(SortOrder::UNSIGNED) =>
        {
            match (s.min_opt(), s.max_opt()) {
                (Some(a), Some(b)) => Known::Texts(a.data().to_vec(), b.data().to_vec()),
                _ => Known::Nothing,
            }
        }
        _ => Known::Nothing,
    }
}

/// A column's type as messages name it and files are compared by:
/// `INT64`, `BYTE_ARRAY (UTF8)`, `group (LIST) { list: REPEATED group {
/// ... } }`. OPTIONAL and REQUIRED read alike (a column with no null may
/// be written either way) and are not told apart; REPEATED is.
fn signature(ty: &Type) -> String {
    let info = ty.get_basic_info();
    let rep = match info.has_repetition() && info.repetition() == Repetition::REPEATED {
        true => "REPEATED ",
        false => "",
    };
    let converted = match info.converted_type() {
        ConvertedType::NONE => String::new(),
        c => format!(" ({c})"),
    };
    if ty.is_group() {
        let fields: Vec<String> = ty
            .get_fields()
            .iter()
            .map(|f| format!("{}: {}", f.name(), signature(f)))
            .collect();
        format!("{rep}group{converted} {{ {} }}", fields.join(", "))
    } else {
        format!("{rep}{}{converted}", ty.get_physical_type())
    }
}

impl Default for Dataset {
    fn default() -> Self {
        Dataset::new()
    }
}

/// The partition fields of `file` a table reads (all without a projection).
pub(super) fn partition_fields(
    file: &SourceFile,
    projection: Option<&Projection>,
) -> Vec<(Arc<str>, Value)> {
    let Some(p) = &file.partition else {
        return Vec::new();
    };
    p.iter()
        .filter(|(k, _)| projection.is_none_or(|pr| pr.fields.contains_key(&**k)))
        .cloned()
        .collect()
}

/// Column `ty` with only the leaves a table reads: a struct read only as
/// `field.attr` keeps those fields ([`Projection::attrs`]); a map (or
/// struct) whose entries are read only as `field.entry.attr` or through an
/// explode as `value.attr` keeps those fields of each struct entry
/// ([`Projection::fields`]). Unchanged (the same `Arc`) otherwise, or when
/// nothing would be left.
pub(super) fn trimmed(ty: &Arc<Type>, p: &Projection) -> Arc<Type> {
    if let Some(attrs) = p.attrs.get(ty.name()) {
        return keep_fields(ty, &|n| attrs.contains(n));
    }
    let Some(Some(keys)) = p.fields.get(ty.name()) else {
        return ty.clone();
    };
    let keep = |n: &str| keys.contains(n);
    if is_map(ty) {
        // MAP { REPEATED key_value { key; value } }
        let [kv] = ty.get_fields() else {
            return ty.clone();
        };
        let [key, value] = kv.get_fields() else {
            return ty.clone();
        };
        let trimmed = keep_fields(value, &keep);
        if Arc::ptr_eq(&trimmed, value) {
            return ty.clone();
        }
        let kv = rebuilt(kv, vec![key.clone(), trimmed]);
        return rebuilt(ty, vec![kv]);
    }
    if !is_struct(ty) {
        return ty.clone();
    }
    let fields: Vec<Arc<Type>> = ty
        .get_fields()
        .iter()
        .map(|f| keep_fields(f, &keep))
        .collect();
    if fields
        .iter()
        .zip(ty.get_fields())
        .all(|(a, b)| Arc::ptr_eq(a, b))
    {
        return ty.clone();
    }
    rebuilt(ty, fields)
}

/// A plain struct (a group that is no LIST or MAP).
fn is_struct(ty: &Type) -> bool {
    let info = ty.get_basic_info();
    ty.is_group()
        && info.converted_type() == ConvertedType::NONE
        && info.logical_type_ref().is_none()
}

fn is_map(ty: &Type) -> bool {
    let info = ty.get_basic_info();
    ty.is_group()
        && (matches!(
            info.converted_type(),
            ConvertedType::MAP | ConvertedType::MAP_KEY_VALUE
        ) || matches!(info.logical_type_ref(), Some(LogicalType::Map)))
}

/// Struct `ty` with only the fields `keep` names; `ty` itself when it is no
/// struct or would keep all or none.
fn keep_fields(ty: &Arc<Type>, keep: &dyn Fn(&str) -> bool) -> Arc<Type> {
    if !is_struct(ty) {
        return ty.clone();
    }
    let kept: Vec<Arc<Type>> = ty
        .get_fields()
        .iter()
        .filter(|f| keep(f.name()))
        .cloned()
        .collect();
    if kept.is_empty() || kept.len() == ty.get_fields().len() {
        return ty.clone();
    }
    rebuilt(ty, kept)
}

/// Group `ty` with other fields (its name, repetition and types kept, so
/// that the file's schema contains it).
fn rebuilt(ty: &Arc<Type>, fields: Vec<Arc<Type>>) -> Arc<Type> {
    let info = ty.get_basic_info();
    let mut b = Type::group_type_builder(ty.name())
        .with_converted_type(info.converted_type())
        .with_logical_type(info.logical_type_ref().cloned())
        .with_fields(fields);
    if info.has_repetition() {
        b = b.with_repetition(info.repetition());
    }
    if info.has_id() {
        b = b.with_id(Some(info.id()));
    }
    b.build().map(Arc::new).unwrap_or_else(|_| ty.clone())
}
