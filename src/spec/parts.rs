//! The spec's parts as its keys read them, found once when the spec is
//! loaded (`LoadedSpec::parts`): for every `[sources.NAME]`,
//! `[tables.NAME]`, `[numbers.KEY]`, `[figures.NAME]` and
//! `[results_tables.NAME]`, and for `[output]`, `[style]` and
//! `[templates]`, its canonical text (the TOML re-serialised, so comments,
//! whitespace and edits elsewhere do not change it) and the numbers it
//! quotes (`n['KEY']`, `v.KEY`, ...). Fingerprints hash the canonical texts;
//! the numbers' order and keys follow the quotes. Nothing after this reads
//! the spec's TOML again.

use std::collections::{BTreeMap, BTreeSet};

/// One part of the spec.
#[derive(Debug, Clone, Default)]
pub struct Part {
    /// The part re-serialised as `x = ...` TOML: what its key hashes.
    pub canonical: String,
    /// The numbers its text quotes.
    pub quoted: Quoted,
    /// Whether its text mentions `meta` (may read a JSON document's).
    pub meta: bool,
    /// The tables and sources it names with `data = "..."`, anywhere in
    /// it (a figure's layers and ticks).
    pub data: BTreeSet<String>,
}

/// Every part of the spec, by `kind.name` (`source.s`, `table.t`,
/// `number.k`, `figure.f`, `results_table.r`) and by top-level name
/// (`output`, `style`, `templates`; present even when the spec omits them).
#[derive(Debug, Clone, Default)]
pub struct Parts {
    map: BTreeMap<String, Part>,
}

/// The spec's sections, as (kind, section).
pub const SECTIONS: [(&str, &str); 5] = [
    ("source", "sources"),
    ("table", "tables"),
    ("number", "numbers"),
    ("figure", "figures"),
    ("results_table", "results_tables"),
];

impl Parts {
    /// The parts of `doc`, the spec's text as an untyped TOML table.
    pub fn of(doc: &toml::Table) -> Parts {
        let mut map = BTreeMap::new();
        for (kind, section) in SECTIONS {
            if let Some(toml::Value::Table(items)) = doc.get(section) {
                for (name, v) in items {
                    map.insert(format!("{kind}.{name}"), part(v));
                }
            }
        }
        for top in ["output", "style", "templates"] {
            let empty = toml::Value::Table(toml::Table::new());
            map.insert(top.to_string(), part(doc.get(top).unwrap_or(&empty)));
        }
        Parts { map }
    }

    /// Part `kind.name` (`("number", "fig4-n")`), or a top-level one
    /// with `name` empty (`("output", "")`).
    pub fn get(&self, kind: &str, name: &str) -> Option<&Part> {
        match name {
            "" => self.map.get(kind),
            _ => self.map.get(&format!("{kind}.{name}")),
        }
    }

    /// Every part, by `kind.name` or top-level name, sorted.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Part)> {
        self.map.iter()
    }
}

fn part(v: &toml::Value) -> Part {
    let canonical = toml::to_string(&toml::Table::from_iter([("x".to_string(), v.clone())]))
        .unwrap_or_default();
    let mut data = BTreeSet::new();
    data_refs(v, &mut data);
    Part {
        quoted: quoted_numbers(&canonical),
        meta: canonical.contains("meta"),
        canonical,
        data,
    }
}

/// Tables named by `data = "..."` anywhere in `v`.
fn data_refs(v: &toml::Value, out: &mut BTreeSet<String>) {
    match v {
        toml::Value::Table(t) => {
            for (k, v) in t {
                if k == "data"
                    && let toml::Value::String(s) = v
                {
                    out.insert(s.clone());
                }
                data_refs(v, out);
            }
        }
        toml::Value::Array(a) => a.iter().for_each(|v| data_refs(v, out)),
        _ => {}
    }
}

/// Number keys quoted by a text.
#[derive(Debug, Clone, Default)]
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
