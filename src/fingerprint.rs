//! What each output depends on, hashed: the key that tells `artifact gen`
//! whether a number or figure must be rebuilt, and `artifact check --fast`
//! whether anything changed at all.
//!
//! A part of the spec is hashed in canonical form (re-serialised TOML), so
//! comments, whitespace and edits elsewhere in the file do not change it.
//! A table's key covers the parts of every table and source it reads,
//! recursively, and the hashes of those sources' files. A number's or
//! figure's key adds the numbers (text and value, sorted by key) its text
//! and the steps of those tables quote (`n['KEY']`, `v['KEY']`) and, when
//! it reads `meta`, the JSON documents. A family's members share the key of
//! their declaration.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::Result;
use crate::lock::{hash_bytes, hash_file, tool};
use crate::numbers::Number;
use crate::sources;
use crate::spec::LoadedSpec;

/// Hashes of the spec's parts and of every input file.
#[derive(Debug, Clone, Default)]
pub struct Fingerprint {
    /// blake3 of the whole spec text.
    pub spec: String,
    /// `kind.name` -> hash of that part of the spec.
    pub parts: BTreeMap<String, String>,
    /// Source -> its files (relative path, hash); missing files hash as `missing`.
    pub files: BTreeMap<String, Vec<(String, String)>>,
    /// The `[templates]` files (relative path, hash): inputs of the macro
    /// files, so editing one makes `check --fast` look again.
    pub templates: Vec<(String, String)>,
    /// Each figure's canonical text and the tables it names (`data = ...`),
    /// read from the spec once (a key is asked for each figure).
    figures: BTreeMap<String, (String, BTreeSet<String>)>,
    /// `number.KEY` / `table.NAME` -> its canonical text (for the numbers
    /// it quotes).
    texts: BTreeMap<String, String>,
}

fn canonical(v: &toml::Value) -> String {
    toml::to_string(&toml::Table::from_iter([("x".to_string(), v.clone())])).unwrap_or_default()
}

/// The JSON-document sources (whose `meta` any expression may read): what
/// a number without a table depends on, with the numbers it reads.
pub fn document_sources(spec: &LoadedSpec) -> Vec<String> {
    spec.spec
        .sources
        .keys()
        .filter(|n| crate::tables::is_document(spec, n))
        .cloned()
        .collect()
}

impl Fingerprint {
    /// Hashes the spec's parts and every source's files.
    pub fn compute(spec: &LoadedSpec) -> Result<Fingerprint> {
        let mut fp = Fingerprint {
            spec: hash_bytes(spec.text.as_bytes()),
            ..Fingerprint::default()
        };
        let empty = toml::Table::new();
        let doc = spec.doc().unwrap_or(&empty);
        for (kind, section) in [
            ("source", "sources"),
            ("table", "tables"),
            ("number", "numbers"),
            ("figure", "figures"),
            ("results_table", "results_tables"),
        ] {
            if let Some(toml::Value::Table(items)) = doc.get(section) {
                for (name, v) in items {
                    let text = canonical(v);
                    fp.parts
                        .insert(format!("{kind}.{name}"), hash_bytes(text.as_bytes()));
                    if kind == "number" || kind == "table" {
                        fp.texts.insert(format!("{kind}.{name}"), text.clone());
                    }
                    if kind == "figure" {
                        let mut refs = BTreeSet::new();
                        collect_data_refs(Some(v), &mut refs);
                        fp.figures.insert(name.clone(), (text, refs));
                    }
                }
            }
        }
        for top in ["output", "style", "templates"] {
            let v = doc
                .get(top)
                .cloned()
                .unwrap_or(toml::Value::Table(toml::Table::new()));
            fp.parts
                .insert(top.to_string(), hash_bytes(canonical(&v).as_bytes()));
        }
        // Templates' contents matter to the macro files.
        for t in [
            &spec.spec.templates.tex,
            &spec.spec.templates.typ,
            &spec.spec.templates.json,
        ]
        .into_iter()
        .flatten()
        {
            let path = spec.root.join(t.get_ref());
            let h = crate::output::read_template(&path)
                .map(|t| hash_bytes(t.as_bytes()))
                .unwrap_or_else(|_| "missing".into());
            fp.parts
                .insert(format!("template.{}", t.get_ref()), h.clone());
            fp.templates.push((t.get_ref().clone(), h));
        }
        for (name, src) in &spec.spec.sources {
            fp.files.insert(name.clone(), source_hashes(spec, src)?);
        }
        Ok(fp)
    }

    /// Every input file (data files and templates) with its hash (missing
    /// files left out).
    pub fn inputs(&self) -> BTreeMap<String, String> {
        self.files
            .values()
            .flatten()
            .chain(&self.templates)
            .filter(|(_, h)| h != "missing")
            .cloned()
            .collect()
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

    fn hash_closure(&self, h: &mut blake3::Hasher, names: &BTreeSet<String>) {
        for name in names {
            for kind in ["source", "table"] {
                if let Some(p) = self.parts.get(&format!("{kind}.{name}")) {
                    h.update(format!("{kind}.{name}={p}\n").as_bytes());
                }
            }
            for (rel, hash) in self.files.get(name).into_iter().flatten() {
                h.update(format!("file {rel}={hash}\n").as_bytes());
            }
        }
    }

    /// The sources a table's rows come from (for reports).
    pub fn sources_of(
        spec: &LoadedSpec,
        roots: impl IntoIterator<Item = String>,
    ) -> BTreeSet<String> {
        Self::closure(spec, roots)
            .into_iter()
            .filter(|n| spec.spec.sources.contains_key(n))
            .collect()
    }

    /// The key of number `key` (a family's name for its members), given
    /// the numbers computed before it: its part of the spec, its table's
    /// closure and the numbers quoted there or by it (all of `earlier` for
    /// a computed key), and for an `expr` the documents' `meta`.
    pub fn number_key(&self, spec: &LoadedSpec, key: &str, earlier: &[Number]) -> String {
        let mut h = blake3::Hasher::new();
        h.update(tool().as_bytes());
        h.update(
            format!(
                "number.{key}={}\n",
                self.parts.get(&format!("number.{key}")).map_or("", |s| s)
            )
            .as_bytes(),
        );
        let n = &spec.spec.numbers[key];
        let mut roots: Vec<String> = n
            .get_ref()
            .table
            .iter()
            .map(|t| t.get_ref().clone())
            .collect();
        if n.get_ref().table.is_none() {
            // An expression over the globals: documents' meta and numbers.
            roots.extend(document_sources(spec));
        }
        let closure = Self::closure(spec, roots);
        self.hash_closure(&mut h, &closure);
        let own = self.texts.get(&format!("number.{key}")).map_or("", |s| s);
        self.hash_quoted(&mut h, own, &closure, earlier);
        h.finalize().to_hex().to_string()
    }

    /// Hashes the numbers (text and value) quoted by `text` or by the steps
    /// of the tables in `closure`, sorted by key (so the order they were
    /// computed in does not matter); every one of `numbers` when a key is
    /// computed (`n[k]`).
    fn hash_quoted(
        &self,
        h: &mut blake3::Hasher,
        text: &str,
        closure: &BTreeSet<String>,
        numbers: &[Number],
    ) {
        let mut all = quoted_numbers(text);
        for t in closure {
            if let Some(tt) = self.texts.get(&format!("table.{t}")) {
                let q = quoted_numbers(tt);
                all.keys.extend(q.keys);
            }
        }
        let quoted: BTreeMap<&str, &Number> = numbers
            .iter()
            .filter(|n| all.all || all.keys.contains(&n.key))
            .map(|n| (n.key.as_str(), n))
            .collect();
        for (key, n) in quoted {
            h.update(
                format!(
                    "n {key}={}|{}\n",
                    n.text,
                    serde_json::to_string(&n.value).unwrap_or_default()
                )
                .as_bytes(),
            );
        }
    }

    /// The canonical text of figure `name`'s part of the spec.
    pub fn figure_text(spec: &LoadedSpec, name: &str) -> String {
        let empty = toml::Table::new();
        let doc = spec.doc().unwrap_or(&empty);
        doc.get("figures")
            .and_then(|f| f.get(name))
            .map(canonical)
            .unwrap_or_default()
    }

    /// The key of figure `name`, given all numbers.
    pub fn figure_key(&self, spec: &LoadedSpec, name: &str, numbers: &[Number]) -> String {
        let mut h = blake3::Hasher::new();
        h.update(tool().as_bytes());
        let part = self
            .parts
            .get(&format!("figure.{name}"))
            .cloned()
            .unwrap_or_default();
        h.update(
            format!(
                "figure.{name}={part}\noutput={}\n",
                self.parts.get("output").map_or("", |s| s)
            )
            .as_bytes(),
        );
        // `[style]` sizes figures with `width`; a spec without it keeps
        // the keys it had before `[style]` existed.
        let st = &spec.spec.style;
        let styled = st.preset.is_some()
            || st.column_width.is_some()
            || st.text_width.is_some()
            || st.font_size.is_some();
        if let Some(style) = self.parts.get("style").filter(|_| styled) {
            h.update(format!("style={style}\n").as_bytes());
        }
        let (text, mut roots) = self.figures.get(name).cloned().unwrap_or_default();
        if text.contains("meta") {
            roots.extend(document_sources(spec));
        }
        let closure = Self::closure(spec, roots);
        self.hash_closure(&mut h, &closure);
        self.hash_quoted(&mut h, &text, &closure, numbers);
        h.finalize().to_hex().to_string()
    }
}

impl Fingerprint {
    /// The key of results table `name`, given all numbers: its part of the
    /// spec and `[output]`, the closure of its table (and the documents'
    /// `meta` when its text reads `meta`), the numbers its texts or its
    /// tables' steps quote.
    pub fn results_table_key(&self, spec: &LoadedSpec, name: &str, numbers: &[Number]) -> String {
        let mut h = blake3::Hasher::new();
        h.update(tool().as_bytes());
        h.update(
            format!(
                "results_table.{name}={}\noutput={}\n",
                self.parts
                    .get(&format!("results_table.{name}"))
                    .map_or("", |s| s),
                self.parts.get("output").map_or("", |s| s)
            )
            .as_bytes(),
        );
        let empty = toml::Table::new();
        let doc = spec.doc().unwrap_or(&empty);
        let text = doc
            .get("results_tables")
            .and_then(|f| f.get(name))
            .map(canonical)
            .unwrap_or_default();
        let mut roots: BTreeSet<String> = spec
            .spec
            .results_tables
            .get(name)
            .map(|r| r.get_ref().from.get_ref().clone())
            .into_iter()
            .collect();
        if text.contains("meta") {
            roots.extend(document_sources(spec));
        }
        let closure = Self::closure(spec, roots);
        self.hash_closure(&mut h, &closure);
        self.hash_quoted(&mut h, &text, &closure, numbers);
        h.finalize().to_hex().to_string()
    }
}

/// The sources whose files number `key` depends on: its table's, or, for
/// a number without a table, those of every number it reads
/// ([`crate::numbers::reads`], transitively) and the JSON documents when
/// its part of the spec reads `meta`. What `check` and `gen` name as the
/// input that changed.
pub fn number_sources(spec: &LoadedSpec, key: &str) -> BTreeSet<String> {
    let table_of = |k: &str| {
        spec.spec
            .numbers
            .get(k)
            .and_then(|n| n.get_ref().table.as_ref().map(|t| t.get_ref().clone()))
    };
    if let Some(t) = table_of(key) {
        return Fingerprint::sources_of(spec, [t]);
    }
    let mut roots: Vec<String> = crate::numbers::reads(spec, key)
        .iter()
        .filter_map(|k| table_of(k))
        .collect();
    let reads_meta = |k: &str| number_text(spec, k).contains("meta");
    if reads_meta(key)
        || crate::numbers::reads(spec, key)
            .iter()
            .any(|k| reads_meta(k))
    {
        roots.extend(document_sources(spec));
    }
    Fingerprint::sources_of(spec, roots)
}

/// The canonical text of number `key`'s part of the spec.
fn number_text(spec: &LoadedSpec, key: &str) -> String {
    let empty = toml::Table::new();
    let doc = spec.doc().unwrap_or(&empty);
    doc.get("numbers")
        .and_then(|n| n.get(key))
        .map(canonical)
        .unwrap_or_default()
}

/// The numbers among `keys` whose text or value now (`now`) differs from
/// what `lock` recorded (a number that failed now is not named).
pub fn changed_numbers<'a>(
    lock: &crate::lock::Lock,
    now: &[Number],
    keys: impl IntoIterator<Item = &'a String>,
) -> Vec<String> {
    keys.into_iter()
        .filter(|k| {
            let Some(n) = now.iter().find(|n| &n.key == *k) else {
                return false;
            };
            let value = serde_json::to_string(&n.value).unwrap_or_else(|_| "null".into());
            lock.numbers
                .get(*k)
                .is_none_or(|l| l.text != n.text || l.value != value)
        })
        .cloned()
        .collect()
}

/// The numbers figure `name` quotes (every number when it names one by a
/// computed key), in spec order.
pub fn figure_quotes(spec: &LoadedSpec, name: &str) -> Vec<String> {
    let q = quoted_numbers(&Fingerprint::figure_text(spec, name));
    spec.spec
        .numbers
        .keys()
        .filter(|k| q.all || q.keys.contains(*k))
        .cloned()
        .collect()
}

/// The sources figure `name` reads: the tables it names, and the JSON
/// documents when its part of the spec reads `meta`.
pub fn figure_sources(spec: &LoadedSpec, name: &str) -> BTreeSet<String> {
    let text = Fingerprint::figure_text(spec, name);
    let empty = toml::Table::new();
    let doc = spec.doc().unwrap_or(&empty);
    let mut roots = BTreeSet::new();
    collect_data_refs(doc.get("figures").and_then(|f| f.get(name)), &mut roots);
    if text.contains("meta") {
        roots.extend(document_sources(spec));
    }
    Fingerprint::sources_of(spec, roots)
}

/// Tables named by `data = "..."` anywhere in a figure (layers, ticks).
fn collect_data_refs(v: Option<&toml::Value>, out: &mut BTreeSet<String>) {
    match v {
        Some(toml::Value::Table(t)) => {
            for (k, v) in t {
                if k == "data"
                    && let toml::Value::String(s) = v
                {
                    out.insert(s.clone());
                }
                collect_data_refs(Some(v), out);
            }
        }
        Some(toml::Value::Array(a)) => a.iter().for_each(|v| collect_data_refs(Some(v), out)),
        _ => {}
    }
}

/// Number keys quoted by a text.
pub struct Quoted {
    /// Keys named statically: `n['KEY']` / `v["KEY"]`, `v.KEY`,
    /// `v.get('KEY', ...)`, `'KEY' in v`.
    pub keys: BTreeSet<String>,
    /// Some other use of `n` or `v` (`v[k]`, `v['a' ~ b]`, `v | items`,
    /// `for k in v`, `f(v)`): may read any number.
    pub all: bool,
    /// The byte range in the text of the first such use.
    pub computed: Option<std::ops::Range<usize>>,
}

/// A string literal starting at byte `i` of `b` (`'x'`, `"x"`, or `\"x\"`
/// as TOML escapes it): its text and the byte after it.
fn literal_at(b: &[u8], i: usize) -> Option<(String, usize)> {
    match b.get(i)? {
        q @ (b'\'' | b'"') => {
            let end = i + 1 + b[i + 1..].iter().position(|c| c == q)?;
            let s = std::str::from_utf8(&b[i + 1..end]).ok()?;
            (!s.contains('\\')).then(|| (s.to_string(), end + 1))
        }
        b'\\' if b.get(i + 1) == Some(&b'"') => {
            let rest = &b[i + 2..];
            let end = i + 2 + rest.windows(2).position(|w| w == b"\\\"")?;
            let s = std::str::from_utf8(&b[i + 2..end]).ok()?;
            (!s.contains('\\')).then(|| (s.to_string(), end + 2))
        }
        _ => None,
    }
}

/// A string literal ending just before byte `end` of `b`: its text.
fn literal_before(b: &[u8], end: usize) -> Option<String> {
    let last = end.checked_sub(1)?;
    let (q, escaped) = match b[last] {
        b'\'' => (b'\'', false),
        b'"' if last > 0 && b[last - 1] == b'\\' => (b'"', true),
        b'"' => (b'"', false),
        _ => return None,
    };
    let close = if escaped { last - 1 } else { last };
    let open = b[..close].iter().rposition(|c| *c == q)?;
    let start = if escaped {
        if open == 0 || b[open - 1] != b'\\' {
            return None;
        }
        open + 1
    } else {
        open + 1
    };
    let s = std::str::from_utf8(&b[start..close]).ok()?;
    (!s.contains(['\\', '\'', '"'])).then(|| s.to_string())
}

/// Filters that read a whole map: `v | items` reads every number.
const WHOLE_FILTERS: [&str; 14] = [
    "items",
    "dictsort",
    "tojson",
    "list",
    "pprint",
    "map",
    "select",
    "reject",
    "selectattr",
    "rejectattr",
    "join",
    "batch",
    "first",
    "last",
];

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Number keys a text (a part of the spec: expressions and templates) reads
/// through `n` / `v`: statically as `n['KEY']`, `v["KEY"]`, `v.KEY`,
/// `v.get('KEY', 0)` and `'KEY' in v`; any other use (a computed key
/// `v[k]` or `v['a' ~ b]`, another method (`v.items()`), a filter over the
/// map (`v | items`, `n | tojson`), `for k in v`, `{{ n }}`) may read every
/// number and sets `all`. A bare `n` or `v` used otherwise (`n = 3` in
/// prose, a TOML key, `log1p(n)` or `n | round` where `n` is a field of the
/// row) is no read of the numbers.
pub fn quoted_numbers(text: &str) -> Quoted {
    let mut q = Quoted {
        keys: BTreeSet::new(),
        all: false,
        computed: None,
    };
    let b = text.as_bytes();
    let ws = |mut i: usize| {
        while b.get(i) == Some(&b' ') {
            i += 1;
        }
        i
    };
    let computed = |q: &mut Quoted, r: std::ops::Range<usize>| {
        q.all = true;
        if q.computed.is_none() {
            q.computed = Some(r);
        }
    };
    for i in 0..b.len() {
        let is_ref = (b[i] == b'n' || b[i] == b'v')
            && (i == 0 || !(is_word(b[i - 1]) || b[i - 1] == b'.'))
            && !b.get(i + 1).copied().is_some_and(is_word);
        if !is_ref {
            continue;
        }
        let j = ws(i + 1);
        match b.get(j) {
            Some(b'[') => {
                let k = ws(j + 1);
                match literal_at(b, k) {
                    Some((key, e)) if b.get(ws(e)) == Some(&b']') => {
                        q.keys.insert(key);
                    }
                    _ => {
                        let end = b[j..]
                            .iter()
                            .position(|c| *c == b']')
                            .map_or(j + 1, |p| j + p + 1);
                        computed(&mut q, i..end);
                    }
                }
            }
            Some(b'.') => {
                let s = j + 1;
                let e = s + b[s..].iter().take_while(|c| is_word(**c)).count();
                if e == s || b[s].is_ascii_digit() {
                    continue;
                }
                let name = &text[s..e];
                let p = ws(e);
                if b.get(p) == Some(&b'(') {
                    match literal_at(b, ws(p + 1)) {
                        Some((key, e2))
                            if name == "get" && matches!(b.get(ws(e2)), Some(b',' | b')')) =>
                        {
                            q.keys.insert(key);
                        }
                        _ => computed(&mut q, i..p + 1),
                    }
                } else {
                    q.keys.insert(name.to_string());
                }
            }
            // `v | items`, `n|tojson`: a filter over the map (`n | round`
            // is a field `n` of the row).
            Some(b'|') => {
                let f = ws(j + 1);
                let e = f + b[f..].iter().take_while(|c| is_word(**c)).count();
                if WHOLE_FILTERS.contains(&&text[f..e]) {
                    computed(&mut q, i..e);
                }
            }
            // `{{ n }}`.
            Some(b'}') if text[..i].trim_end().ends_with("{{") => computed(&mut q, i..i + 1),
            _ => {
                // `'KEY' in v`, `'KEY' not in v`, `for k in v`.
                let mut p = i;
                while p > 0 && b[p - 1] == b' ' {
                    p -= 1;
                }
                if p >= 2 && &b[p - 2..p] == b"in" && (p == 2 || !is_word(b[p - 3])) {
                    let mut s = p - 2;
                    while s > 0 && b[s - 1] == b' ' {
                        s -= 1;
                    }
                    if s >= 3 && &b[s - 3..s] == b"not" && (s == 3 || !is_word(b[s - 4])) {
                        s -= 3;
                        while s > 0 && b[s - 1] == b' ' {
                            s -= 1;
                        }
                    }
                    match literal_before(b, s) {
                        Some(key) => {
                            q.keys.insert(key);
                        }
                        None => computed(&mut q, i..i + 1),
                    }
                }
            }
        }
    }
    q
}

/// A source's files as `(path shown, blake3 hex)`, sorted by path; a file
/// that is missing has the hash `missing`. What the lock records and
/// `explain` compares with it.
pub fn source_hashes(
    spec: &LoadedSpec,
    src: &toml::Spanned<crate::spec::SourceSpec>,
) -> Result<Vec<(String, String)>> {
    let (files, missing) = sources::resolve(spec, src)?;
    let mut list: Vec<(String, String)> = files
        .iter()
        .map(|f| Ok((f.rel.clone(), hash_file(&f.abs)?)))
        .collect::<Result<_>>()?;
    list.extend(missing.into_iter().map(|m| (m, "missing".to_string())));
    list.sort();
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_numbers_are_found() {
        let q = quoted_numbers("title = \"n = {{ n['fig4-n'] }}\"\nx = \"v[\\\"fig4-median\\\"]\"");
        assert_eq!(
            q.keys.into_iter().collect::<Vec<_>>(),
            ["fig4-median", "fig4-n"]
        );
        assert!(!q.all);
        assert!(quoted_numbers("{{ n[k] }}").all);
        assert!(quoted_numbers("min(a, b)").keys.is_empty());
    }

    #[test]
    fn numbers_read_other_than_as_a_literal_key_are_found() {
        let keys = |t: &str| {
            let q = quoted_numbers(t);
            (q.keys.into_iter().collect::<Vec<_>>().join(","), q.all)
        };
        assert_eq!(keys("x >= v.get('thr', 0)"), ("thr".into(), false));
        assert_eq!(keys("x >= v.thr and n.a.b"), ("a,thr".into(), false));
        assert_eq!(
            keys("'thr' in v and \\\"b\\\" not in n"),
            ("b,thr".into(), false)
        );
        assert_eq!(
            keys("{{ n.thr }} of {{ n [ 'x' ] }}"),
            ("thr,x".into(), false)
        );
        assert_eq!(keys("x >= v['t' ~ 'hr']"), ("".into(), true));
        assert_eq!(keys("v.items()"), ("".into(), true));
        assert_eq!(keys("v | items"), ("".into(), true));
        assert_eq!(keys("{% for k in n %}"), ("".into(), true));
        assert_eq!(keys("{{ n }}"), ("".into(), true));
        assert_eq!(
            keys("n = 3 runs of v2, x.n, _.v, 'v', v = 1"),
            ("".into(), false)
        );
        assert_eq!(
            keys("max(40, log1p(n) * 18) + (n | round)"),
            ("".into(), false)
        );
        let q = quoted_numbers("x > v[k]");
        assert_eq!(q.computed, Some(4..8));
    }
}
