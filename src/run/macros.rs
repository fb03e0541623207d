//! The numbers' part of a build: each number's dependency key, the text
//! each macro prints (a failing number keeps its last text), and the macro
//! files. Apart from `build_with` so the figures' part reads on its own.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::expr::Globals;
use crate::fingerprint::Fingerprint;
use crate::numbers::{self, Number, Numbers};
use crate::output::OutputFile;
use crate::run::{Build, rel};
use crate::spec::LoadedSpec;

/// Records the numbers in `b` (keys, notes, macro files, errors) and gives
/// the globals the figures quote: with a failing number's kept text, as its
/// macro prints it.
pub(super) fn record(
    spec: &LoadedSpec,
    nums: Numbers,
    globals: Arc<Globals>,
    fp: &Fingerprint,
    b: &mut Build,
) -> Arc<Globals> {
    for (key, reason) in &nums.skipped {
        b.notes.push(format!("skip: number `{key}`: {reason}"));
    }
    number_keys(spec, &nums, fp, b);
    b.notes.extend(nums.notes.iter().cloned());
    b.numbers = nums.list.clone();
    b.numbers_by_key = crate::numbers::ByKey::of(&b.numbers);
    let emitted = emitted(spec, &nums);
    let globals = quoting_kept(&nums, globals, &emitted);
    match crate::emit::emit(spec, &emitted) {
        Ok(files) => {
            b.number_outputs = files
                .into_iter()
                .map(|(f, bytes)| OutputFile {
                    rel: rel(spec.spec.output.generated.get_ref(), f),
                    bytes,
                })
                .collect();
        }
        Err(e) => {
            b.whole_failed = true;
            b.errors.push(e.context("numbers"));
        }
    }
    b.errors.extend(nums.errors);
    globals
}

/// A family's members share its key, computed once (given the numbers
/// before its first member).
fn number_keys(spec: &LoadedSpec, nums: &Numbers, fp: &Fingerprint, b: &mut Build) {
    let mut decl_keys: BTreeMap<&str, String> = BTreeMap::new();
    let by_key = crate::numbers::ByKey::of(&nums.list);
    let all = crate::numbers::Earlier {
        list: &nums.list,
        by_key: &by_key,
    };
    for (i, n) in nums.list.iter().enumerate() {
        let decl = n.family.as_deref().unwrap_or(&n.key);
        let key = decl_keys
            .entry(decl)
            .or_insert_with(|| fp.number_key(spec, decl, all.prefix(i)));
        b.number_keys.insert(n.key.clone(), key.clone());
    }
}

/// The numbers the macro files print. A number that fails keeps the text
/// it had (the last lock's), the others are written: each figure and its
/// macros print the same text, and a failing number stops nothing else
/// (one without a previous text is left out, so the paper fails on it
/// rather than print a stale one).
fn emitted(spec: &LoadedSpec, nums: &Numbers) -> Vec<Number> {
    if nums.errors.is_empty() {
        return nums.list.clone();
    }
    let last = crate::lock::Lock::read(&spec.root).ok().flatten();
    let reserved = crate::plan::keys::Reserved::of(spec);
    let mut kept: Vec<Number> = spec
        .spec
        .numbers
        .keys()
        .filter(|k| !numbers::family::is_family(spec, k))
        .filter_map(|k| match nums.list.iter().find(|n| &n.key == k) {
            Some(n) => Some(n.clone()),
            None if nums.skipped.iter().any(|(s, _)| s == k) => None,
            None if crate::plan::keys::key_problem(k, &reserved).is_some() => None,
            None => last.as_ref()?.numbers.get(k).map(|n| n.to_number(k)),
        })
        .collect();
    kept.extend(crate::lock::kept(spec, nums, last.as_ref()));
    kept
}

/// Figures quote a failing number's kept text too: as its macro does.
fn quoting_kept(nums: &Numbers, globals: Arc<Globals>, emitted: &[Number]) -> Arc<Globals> {
    if nums.errors.is_empty() {
        return globals;
    }
    let mut g = (*globals).clone();
    for n in emitted
        .iter()
        .filter(|n| !nums.list.iter().any(|m| m.key == n.key))
    {
        g.n.insert(n.key.as_str(), crate::value::Value::from(n.text.as_str()));
        g.v.insert(n.key.as_str(), n.value.clone());
    }
    Arc::new(g)
}
