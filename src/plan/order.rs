//! The order numbers are computed in: that of what they read, not of the
//! spec.
//!
//! A number depends on its table (and, through it, on the numbers that
//! table's steps quote, recursively through `from`, lookups and unions) and
//! on the numbers it quotes as `n['KEY']` / `v['KEY']` in its `where`,
//! `value` and templates. A key that no `[numbers.KEY]` declares may be a
//! member of a family (known only once computed): it depends on every
//! family whose `each` template can give it ([`may_give`]). The numbers are
//! visited depth first in declaration order, each after what it reads, so
//! ties keep the spec's order and the outputs do not depend on anything
//! else. A cycle is a spec error naming it: `number `a` -> table `t` ->
//! number `a``. Quoted means any form naming the key in the text
//! ([`quoted_numbers`]: `v['KEY']`, `v.KEY`, `v.get('KEY', 0)`, `'KEY' in
//! v`); a step or number that reads numbers otherwise (`v[k]`, `v | items`)
//! is an error at that use: it could not be ordered.

use std::collections::BTreeMap;

use crate::error::Result;
use crate::spec::LoadedSpec;
use crate::spec::parts::quoted_numbers;

/// A node of the dependency graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Node<'a> {
    Number(&'a str),
    Table(&'a str),
}

impl std::fmt::Display for Node<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Node::Number(k) => write!(f, "number `{k}`"),
            Node::Table(t) => write!(f, "table `{t}`"),
        }
    }
}

/// Whether family template `each` can render to `key`: its literal text
/// outside `{{ ... }}` appears in `key` in order (first at the start, last
/// at the end). A template with statements (`{% %}`) may give anything.
pub fn may_give(each: &str, key: &str) -> bool {
    if each.contains("{%") || each.contains("{#") {
        return true;
    }
    let mut literals = Vec::new();
    let mut rest = each;
    while let Some(open) = rest.find("{{") {
        literals.push(&rest[..open]);
        match rest[open..].find("}}") {
            Some(close) => rest = &rest[open + close + 2..],
            None => return true,
        }
    }
    let last = rest;
    if literals.is_empty() {
        return key == last;
    }
    let Some(mut k) = key.strip_prefix(literals[0]) else {
        return false;
    };
    for lit in &literals[1..] {
        match k.find(lit) {
            Some(at) => k = &k[at + lit.len()..],
            None => return false,
        }
    }
    k.ends_with(last)
}

/// The declarations (numbers and families) a quoted key may be: the number
/// of that key, else the families that may give it. Empty for a key
/// nothing gives.
pub fn declarations_of<'a>(spec: &'a LoadedSpec, key: &str) -> Vec<&'a str> {
    if let Some((k, n)) = spec.spec.numbers.get_key_value(key)
        && n.get_ref().each.is_none()
    {
        return vec![k.as_str()];
    }
    spec.families()
        .iter()
        .filter_map(|i| spec.spec.numbers.get_index(*i))
        .filter(|(_, n)| {
            n.get_ref()
                .each
                .as_ref()
                .is_some_and(|e| may_give(e.get_ref(), key))
        })
        .map(|(k, _)| k.as_str())
        .collect()
}

/// The tables (not sources) `table`'s `from`, lookups and unions name.
fn table_reads<'a>(spec: &'a LoadedSpec, table: &str) -> Vec<&'a str> {
    let Some(t) = spec.spec.tables.get(table) else {
        return Vec::new();
    };
    let t = t.get_ref();
    let mut out = vec![t.from.get_ref().as_str()];
    for step in &t.steps {
        let s = step.get_ref();
        if let Some(l) = &s.lookup {
            out.push(l.get_ref().as_str());
        }
        match s.union.as_ref().map(|u| u.get_ref()) {
            Some(toml::Value::String(u)) => out.push(u.as_str()),
            Some(toml::Value::Array(a)) => out.extend(a.iter().filter_map(|v| v.as_str())),
            _ => {}
        }
    }
    out.retain(|n| spec.spec.tables.contains_key(*n));
    out
}

/// The numbers the steps of `table` quote (`v['total']`, `v.total`, ...), by key; an
/// unknown key is an error at its `v['KEY']` in the spec.
fn table_numbers<'a>(spec: &'a LoadedSpec, table: &str) -> Result<Vec<&'a str>> {
    let Some(t) = spec.spec.tables.get(table) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for step in &t.get_ref().steps {
        let span = step.span();
        let Some(text) = spec.text.get(span.clone()) else {
            continue;
        };
        let q = quoted_numbers(text);
        if let Some(r) = q.computed {
            let at = span.start + r.start..span.start + r.end;
            return Err(computed_key_error(spec, at, &format!("table `{table}`")));
        }
        for key in q.keys {
            let decls = declarations_of(spec, &key);
            if decls.is_empty() {
                let at = text
                    .find(&format!("['{key}']"))
                    .or_else(|| text.find(&format!("[\"{key}\"]")))
                    .or_else(|| text.find(&format!("[\\\"{key}\\\"]")))
                    .map_or(span.clone(), |i| {
                        let start = span.start + i.saturating_sub(1);
                        start..start + key.len() + 5
                    });
                let mut msg = format!("table `{table}` reads no number: no number `{key}`");
                let keys = spec.spec.numbers.keys().map(String::as_str);
                if let Some(close) = crate::expr::undefined::did_you_mean(&key, keys) {
                    msg.push_str(&format!("; did you mean `{close}`?"));
                }
                return Err(spec.error(at, msg));
            }
            out.extend(decls);
        }
    }
    Ok(out)
}

/// The error for a table step or number that reads numbers other than by
/// a key known from the text: what it reads decides the order numbers are
/// computed in, and the key of each in the lock.
fn computed_key_error(
    spec: &LoadedSpec,
    at: std::ops::Range<usize>,
    what: &str,
) -> crate::error::Error {
    let shown = spec.text.get(at.clone()).unwrap_or("v").to_string();
    spec.error(
        at,
        format!(
            "{what} reads numbers by a key not written out (`{shown}`): write each as v['KEY'] (or v.KEY, v.get('KEY', default), 'KEY' in v), so it is computed after them; a row field named `n` or `v` does not shadow them in such a use: read it as _['n'] / _['v']"
        ),
    )
}

/// A number whose part of the spec reads numbers other than by a key known
/// from its text: an error at that use.
fn number_computed_key(spec: &LoadedSpec, key: &str) -> Result<()> {
    if !spec
        .parts()
        .get("number", key)
        .is_some_and(|p| p.quoted.all)
    {
        return Ok(());
    }
    let n = &spec.spec.numbers[key];
    let head = crate::spec::paths::key_span(spec, "numbers", key, n.span());
    // Its text: from its name to the next table header (a `[numbers.KEY]`
    // table's span is its header).
    let start = head.start.min(n.span().start);
    let rest = spec.text.get(start..).unwrap_or("");
    let end = start
        + rest
            .find("\n[")
            .unwrap_or(rest.len())
            .max(n.span().end - start);
    let at = spec
        .text
        .get(start..end)
        .and_then(|t| quoted_numbers(t).computed)
        .map(|r| start + r.start..start + r.end)
        .unwrap_or(head);
    Err(computed_key_error(spec, at, &format!("number `{key}`")))
}

/// What each number declaration reads directly: its table and the
/// declarations of the keys it quotes.
fn number_reads<'a>(spec: &'a LoadedSpec, index: usize, key: &'a str) -> Vec<Node<'a>> {
    let n = spec.spec.numbers[key].get_ref();
    let mut out = Vec::new();
    if let Some(t) = &n.table
        && spec.spec.tables.contains_key(t.get_ref())
    {
        let (name, _) = spec.spec.tables.get_key_value(t.get_ref()).expect("table");
        out.push(Node::Table(name.as_str()));
    }
    let q = spec
        .parts()
        .get("number", key)
        .map(|p| p.quoted.clone())
        .unwrap_or_default();
    let mut read: Vec<&'a str> = if q.all {
        spec.spec
            .numbers
            .keys()
            .take(index)
            .map(String::as_str)
            .collect()
    } else {
        q.keys
            .iter()
            .flat_map(|k| declarations_of(spec, k))
            .collect()
    };
    // A number reading itself (a family reading a member it may give) is
    // a cycle of one, which `order` reports.
    let pos = |k: &str| spec.spec.numbers.get_index_of(k).unwrap_or(usize::MAX);
    read.sort_by_key(|k| pos(k));
    read.dedup();
    out.extend(read.into_iter().map(Node::Number));
    out
}

/// [`order`], found once per spec, with each declaration's place in it
/// (`None` when it is an error).
pub fn placed(spec: &LoadedSpec) -> Option<&crate::spec::NumbersOrder> {
    spec.numbers_order(|| order(spec).ok())
}

/// The number declarations (keys and family names) in the order they are
/// computed: each after the tables and numbers it reads, ties in spec
/// order. A cycle is an error at the first declaration on it, naming the
/// path; so is a step quoting a number nothing declares.
pub fn order(spec: &LoadedSpec) -> Result<Vec<String>> {
    let mut edges: BTreeMap<Node<'_>, Vec<Node<'_>>> = BTreeMap::new();
    for (i, key) in spec.spec.numbers.keys().enumerate() {
        number_computed_key(spec, key)?;
        edges.insert(Node::Number(key), number_reads(spec, i, key));
    }
    for name in spec.spec.tables.keys() {
        let mut deps: Vec<Node<'_>> = table_reads(spec, name)
            .into_iter()
            .map(Node::Table)
            .collect();
        deps.extend(table_numbers(spec, name)?.into_iter().map(Node::Number));
        edges.insert(Node::Table(name), deps);
    }
    // 0 unseen, 1 on the path, 2 done.
    let mut state: BTreeMap<Node<'_>, u8> = BTreeMap::new();
    let mut out = Vec::with_capacity(spec.spec.numbers.len());
    for key in spec.spec.numbers.keys() {
        let root = Node::Number(key);
        if state.get(&root).copied().unwrap_or(0) != 0 {
            continue;
        }
        // Iterative depth-first walk (a long chain must not overflow the stack).
        let mut path: Vec<(Node<'_>, usize)> = vec![(root, 0)];
        state.insert(root, 1);
        while let Some((node, next)) = path.last_mut() {
            let node = *node;
            let deps = edges.get(&node).map(Vec::as_slice).unwrap_or(&[]);
            let Some(&dep) = deps.get(*next) else {
                state.insert(node, 2);
                if let Node::Number(k) = node {
                    out.push(k.to_string());
                }
                path.pop();
                continue;
            };
            *next += 1;
            match state.get(&dep).copied().unwrap_or(0) {
                0 => {
                    state.insert(dep, 1);
                    path.push((dep, 0));
                }
                1 => {
                    let from = path.iter().position(|(n, _)| *n == dep).expect("on path");
                    let mut names: Vec<String> =
                        path[from..].iter().map(|(n, _)| n.to_string()).collect();
                    names.push(dep.to_string());
                    let span = match dep {
                        Node::Number(k) => crate::spec::paths::key_span(
                            spec,
                            "numbers",
                            k,
                            spec.spec.numbers[k].span(),
                        ),
                        Node::Table(t) => crate::spec::paths::key_span(
                            spec,
                            "tables",
                            t,
                            spec.spec.tables[t].span(),
                        ),
                    };
                    return Err(spec.error(
                        span,
                        format!("numbers read each other in a cycle: {}", names.join(" -> ")),
                    ));
                }
                _ => {}
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::may_give;

    #[test]
    fn family_templates_match_the_keys_they_can_give() {
        assert!(may_give("{{ b }}-{{ c }}-mean", "nbody-fast-mean"));
        assert!(may_give("{{ b }}-mean", "-mean"));
        assert!(!may_give("{{ b }}-mean", "nbody-median"));
        assert!(!may_give("run-{{ b }}", "nbody-run"));
        assert!(may_give("run-{{ b }}", "run-x"));
        assert!(may_give("fixed", "fixed"));
        assert!(!may_give("fixed", "other"));
        assert!(may_give("{% if a %}x{% endif %}", "anything"));
    }
}
