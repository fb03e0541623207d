//! What each part of the spec reads, found from the spec alone: the
//! sources and tables a table reads (through `from`, lookups and unions),
//! the numbers a text quotes (`n['KEY']`, `v.KEY`, ...), the JSON
//! documents whose `meta` an expression may read. (The numbers a text
//! quotes are found by `spec::parts`, when the spec is loaded.) The numbers' order
//! (`super::order`), the fingerprints and the streaming plan are built on
//! these.

use std::collections::BTreeSet;

use crate::spec::LoadedSpec;

/// The JSON-document sources (whose `meta` any expression may read): what
/// a number without a table depends on, with the numbers it reads.
pub fn document_sources(spec: &LoadedSpec) -> Vec<String> {
    spec.spec
        .sources
        .keys()
        .filter(|n| is_document(spec, n))
        .cloned()
        .collect()
}

/// Whether a source reads JSON documents (`records`, `format = "json"`, or
/// a path or one of a list of paths ending in `.json`): its `meta` is
/// loaded up front, because any template may read it.
pub fn is_document(spec: &LoadedSpec, name: &str) -> bool {
    let Some(src) = spec.spec.sources.get(name) else {
        return false;
    };
    let s = src.get_ref();
    let document = |p: &toml::Value| {
        p.as_str().is_some_and(|p| {
            p.ends_with(".json") || p.ends_with(".json.zst") || p.ends_with(".json.gz")
        })
    };
    s.records.is_some()
        || s.format.as_ref().is_some_and(|f| f.get_ref() == "json")
        || s.path.as_ref().is_some_and(|p| match p.get_ref() {
            toml::Value::Array(list) => list.iter().any(document),
            one => document(one),
        })
}

/// The sources and tables `roots` read, recursively (roots included).
pub fn closure(spec: &LoadedSpec, roots: impl IntoIterator<Item = String>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<String> = roots.into_iter().collect();
    while let Some(name) = stack.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let Some(t) = spec.spec.tables.get(&name) else {
            continue;
        };
        let t = t.get_ref();
        stack.push(t.from.get_ref().clone());
        for step in &t.steps {
            let s = step.get_ref();
            if let Some(l) = &s.lookup {
                stack.push(l.get_ref().clone());
            }
            match s.union.as_ref().map(|u| u.get_ref()) {
                Some(toml::Value::String(u)) => stack.push(u.clone()),
                Some(toml::Value::Array(a)) => {
                    stack.extend(a.iter().filter_map(|v| v.as_str().map(String::from)))
                }
                _ => {}
            }
        }
    }
    seen
}
