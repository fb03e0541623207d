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
use crate::numbers::{Earlier, Number};
use crate::plan::deps::document_sources;
use crate::sources;
use crate::spec::LoadedSpec;
use crate::spec::parts::Part;

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
    /// The JSON-document sources ([`document_sources`]), found once: what
    /// every key reading `meta` adds.
    pub documents: Vec<String>,
}

impl Fingerprint {
    /// Hashes the spec's parts and every source's files.
    pub fn compute(spec: &LoadedSpec) -> Result<Fingerprint> {
        let mut fp = Fingerprint {
            spec: hash_bytes(spec.text.as_bytes()),
            documents: document_sources(spec),
            ..Fingerprint::default()
        };
        for (name, part) in spec.parts().iter() {
            fp.parts
                .insert(name.clone(), hash_bytes(part.canonical.as_bytes()));
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
        crate::plan::deps::closure(spec, roots)
            .into_iter()
            .filter(|n| spec.spec.sources.contains_key(n))
            .collect()
    }

    /// The key of number `key` (a family's name for its members), given
    /// the numbers computed before it: its part of the spec, its table's
    /// closure and the numbers quoted there or by it (all of `earlier` for
    /// a computed key), and for an `expr` the documents' `meta`.
    pub fn number_key(&self, spec: &LoadedSpec, key: &str, earlier: Earlier<'_>) -> String {
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
            roots.extend(self.documents.iter().cloned());
        }
        let closure = crate::plan::deps::closure(spec, roots);
        self.hash_closure(&mut h, &closure);
        self.hash_quoted(
            &mut h,
            spec,
            spec.parts().get("number", key),
            &closure,
            earlier,
        );
        h.finalize().to_hex().to_string()
    }

    /// Hashes the numbers (text and value) quoted by part `own` or by the
    /// steps of the tables in `closure`, sorted by key (so the order they
    /// were computed in does not matter); every one of `numbers` when a
    /// key is computed (`n[k]`).
    fn hash_quoted(
        &self,
        h: &mut blake3::Hasher,
        spec: &LoadedSpec,
        own: Option<&Part>,
        closure: &BTreeSet<String>,
        numbers: Earlier<'_>,
    ) {
        let mut all = own.map(|p| p.quoted.clone()).unwrap_or_default();
        for t in closure {
            if let Some(table) = spec.parts().get("table", t) {
                all.keys.extend(table.quoted.keys.iter().cloned());
            }
        }
        // By key: the quoted ones found, not every number read.
        let quoted: BTreeMap<&str, &Number> = match all.all {
            true => numbers.list.iter().map(|n| (n.key.as_str(), n)).collect(),
            false => all
                .keys
                .iter()
                .filter_map(|k| numbers.get(k))
                .map(|n| (n.key.as_str(), n))
                .collect(),
        };
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

    /// The key of figure `name`, given all numbers.
    pub fn figure_key(&self, spec: &LoadedSpec, name: &str, numbers: Earlier<'_>) -> String {
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
        // `[style]` sizes figures with `width` and sets every figure's
        // typeface; a spec without it keeps
        // the keys it had before `[style]` existed.
        let st = &spec.spec.style;
        let styled = st.preset.is_some()
            || st.font.is_some()
            || st.column_width.is_some()
            || st.text_width.is_some()
            || st.font_size.is_some()
            || st.colors.is_some();
        if let Some(style) = self.parts.get("style").filter(|_| styled) {
            h.update(format!("style={style}\n").as_bytes());
        }
        let part = spec.parts().get("figure", name);
        let mut roots = part.map(|p| p.data.clone()).unwrap_or_default();
        if part.is_some_and(|p| p.meta) {
            roots.extend(self.documents.iter().cloned());
        }
        let closure = crate::plan::deps::closure(spec, roots);
        self.hash_closure(&mut h, &closure);
        self.hash_quoted(&mut h, spec, part, &closure, numbers);
        h.finalize().to_hex().to_string()
    }
}

impl Fingerprint {
    /// The key of every figure, given all numbers, by name: its own
    /// ([`Fingerprint::figure_key`]) and, for a figure whose colours follow
    /// a field the paper colours alike (`plan::palette`), the keys of
    /// the figures before it colouring by the same field: their values
    /// decide which colour each of its values takes. One pass over the
    /// figures in declaration order, a running hash per field.
    pub fn figure_keys(&self, spec: &LoadedSpec, numbers: Earlier<'_>) -> BTreeMap<String, String> {
        let mut chains: BTreeMap<String, String> = BTreeMap::new();
        let mut out = BTreeMap::new();
        for (name, fig) in &spec.spec.figures {
            let own = self.figure_key(spec, name, numbers);
            let fields: BTreeSet<String> = crate::plan::palette::layers_of(fig.get_ref())
                .filter_map(|l| crate::plan::palette::colour_field(l).map(|(f, _)| f))
                .collect();
            if fields.is_empty() {
                out.insert(name.clone(), own);
                continue;
            }
            let mut h = blake3::Hasher::new();
            h.update(format!("own={own}\n").as_bytes());
            for f in &fields {
                let chain = chains.entry(f.clone()).or_default();
                let mut c = blake3::Hasher::new();
                c.update(format!("{chain}\n{own}\n").as_bytes());
                *chain = c.finalize().to_hex().to_string();
                h.update(format!("colours {}={chain}\n", f.len()).as_bytes());
                h.update(f.as_bytes());
            }
            out.insert(name.clone(), h.finalize().to_hex().to_string());
        }
        out
    }

    /// The key of results table `name`, given all numbers: its part of the
    /// spec and `[output]`, the closure of its table (and the documents'
    /// `meta` when its text reads `meta`), the numbers its texts or its
    /// tables' steps quote.
    pub fn results_table_key(&self, spec: &LoadedSpec, name: &str, numbers: Earlier<'_>) -> String {
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
        let part = spec.parts().get("results_table", name);
        let mut roots: BTreeSet<String> = spec
            .spec
            .results_tables
            .get(name)
            .map(|r| r.get_ref().from.get_ref().clone())
            .into_iter()
            .collect();
        if part.is_some_and(|p| p.meta) {
            roots.extend(self.documents.iter().cloned());
        }
        let closure = crate::plan::deps::closure(spec, roots);
        self.hash_closure(&mut h, &closure);
        self.hash_quoted(&mut h, spec, part, &closure, numbers);
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
    let reads_meta = |k: &str| spec.parts().get("number", k).is_some_and(|p| p.meta);
    if reads_meta(key)
        || crate::numbers::reads(spec, key)
            .iter()
            .any(|k| reads_meta(k))
    {
        roots.extend(document_sources(spec));
    }
    Fingerprint::sources_of(spec, roots)
}

/// The numbers among `keys` whose text or value now (`now`) differs from
/// what `lock` recorded (a number that failed now is not named).
pub fn changed_numbers<'a>(
    lock: &crate::lock::Lock,
    now: Earlier<'_>,
    keys: impl IntoIterator<Item = &'a String>,
) -> Vec<String> {
    keys.into_iter()
        .filter(|k| {
            let Some(n) = now.get(k) else {
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

/// The numbers figure `name` quotes, itself or through the steps of the
/// tables it reads (every number when it names one by a computed key), in
/// spec order: those its key hashes.
pub fn figure_quotes(spec: &LoadedSpec, name: &str) -> Vec<String> {
    let part = spec.parts().get("figure", name);
    let roots = part.map(|p| p.data.iter().cloned().collect());
    quotes_through(spec, part, roots.unwrap_or_default())
}

/// The numbers results table `name` quotes, itself or through the steps
/// of the tables its rows come from, in spec order: those its key hashes.
pub fn results_table_quotes(spec: &LoadedSpec, name: &str) -> Vec<String> {
    let part = spec.parts().get("results_table", name);
    let roots = (spec.spec.results_tables.get(name))
        .map(|r| r.get_ref().from.get_ref().clone())
        .into_iter()
        .collect();
    quotes_through(spec, part, roots)
}

/// The numbers `own` quotes or the tables of the closure of `roots` (and
/// of the documents, when `own` reads `meta`) quote, as `hash_quoted`
/// hashes them, in spec order.
fn quotes_through(spec: &LoadedSpec, own: Option<&Part>, mut roots: Vec<String>) -> Vec<String> {
    if own.is_some_and(|p| p.meta) {
        roots.extend(document_sources(spec));
    }
    let mut q = own.map(|p| p.quoted.clone()).unwrap_or_default();
    for t in crate::plan::deps::closure(spec, roots) {
        if let Some(table) = spec.parts().get("table", &t) {
            q.keys.extend(table.quoted.keys.iter().cloned());
        }
    }
    if q.all {
        return spec.spec.numbers.keys().cloned().collect();
    }
    // The quoted keys declared, in spec order (not a scan of every number).
    let mut at: Vec<(usize, &String)> = q
        .keys
        .iter()
        .filter_map(|k| Some((spec.spec.numbers.get_index_of(k)?, k)))
        .collect();
    at.sort_unstable();
    at.into_iter().map(|(_, k)| k.clone()).collect()
}

/// The sources figure `name` reads: the tables it names, and the JSON
/// documents when its part of the spec reads `meta`.
pub fn figure_sources(spec: &LoadedSpec, name: &str) -> BTreeSet<String> {
    let part = spec.parts().get("figure", name);
    let mut roots = part.map(|p| p.data.clone()).unwrap_or_default();
    if part.is_some_and(|p| p.meta) {
        roots.extend(document_sources(spec));
    }
    Fingerprint::sources_of(spec, roots)
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
