//! Which fields of a table's rows anything after the table may read: its
//! *demand*. A streamed table keeps only those fields in the rows it holds,
//! never the whole record (a log line's `methods` map of a dozen entries is
//! most of its bytes, and no figure of the table reads it).
//!
//! The demand is found from the spec's text, conservatively: every part of
//! the spec that names the table (a table reading it with `from`, `lookup`
//! or `union`, a figure or layer's `data`, a number's or results table's
//! `table`/`from`) contributes every word and every quoted name in its
//! string values, and a table contributes its own demand too (its rows carry the
//! fields on). A field whose name appears in none of them cannot be read.
//! A part that may read a row whole (`_` as a value, `tojson`, `items`,
//! `dictsort`, `debug`) or a name with a backslash escape makes the demand
//! unknown: every field is kept.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};

use crate::spec::LoadedSpec;

/// The fields a table's consumers may read (`None`: any field).
pub type Demand = Option<BTreeSet<String>>;

/// The sections whose parts may read a table's rows.
const SECTIONS: [&str; 4] = ["tables", "figures", "numbers", "results_tables"];

/// Words that let a template or expression see every field of a row.
const WHOLE_ROW: [&str; 5] = ["tojson", "items", "dictsort", "debug", "pprint"];

/// The demand of table or source `name` in `spec` (see the module docs).
pub fn demand(spec: &LoadedSpec, name: &str) -> Demand {
    Readers::of(spec).demand(spec, name)
}

/// One part of the spec that may read a table: its section, its name and
/// its strings ([`strings_of`]).
struct Part {
    section: &'static str,
    name: String,
    strings: Vec<String>,
}

/// Which parts of the spec name which table, found once for a spec: the
/// parts are indexed by the words of their strings, so the readers of a
/// table are found among the parts that have its name's first word, not
/// by reading the whole spec for each table (quadratic in the tables).
pub struct Readers {
    /// The parts of [`SECTIONS`], in that order, each in spec order.
    parts: Vec<Part>,
    /// The parts (ascending) whose strings have a word, by word.
    by_word: HashMap<String, Vec<usize>>,
    /// The strings of every part, as (part, index in its strings), by word.
    strings_by_word: HashMap<String, Vec<(usize, usize)>>,
    /// The `as` of every `lookup` step naming a table, by that table.
    lookups: HashMap<String, Vec<String>>,
    /// How many strings of the whole spec read each `as` name whole
    /// (`nested_whole`), counted once per name.
    whole: std::cell::RefCell<HashMap<String, usize>>,
    /// Whether a part is named `steps` (its section reads it as steps):
    /// the spec's strings then differ from its parts', so `nested_whole`
    /// reads the spec.
    steps_part: bool,
    /// Whether the spec's text parsed as TOML (else anything may read any
    /// table, and any field).
    parsed: bool,
}

/// Adds `at` to `word`'s list in `index`, once.
fn add<T: PartialEq>(index: &mut HashMap<String, Vec<T>>, word: &str, at: T) {
    match index.get_mut(word) {
        Some(list) if list.last() == Some(&at) => {}
        Some(list) => list.push(at),
        None => {
            index.insert(word.to_string(), vec![at]);
        }
    }
}

/// The maximal runs of word characters of `s` ([`is_word`]).
fn tokens(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !is_word(c)).filter(|t| !t.is_empty())
}

impl Readers {
    /// The index of `spec` (empty when its text does not parse as TOML,
    /// which a loaded spec's always does).
    pub fn of(spec: &LoadedSpec) -> Readers {
        let mut r = Readers {
            parts: Vec::new(),
            by_word: HashMap::new(),
            strings_by_word: HashMap::new(),
            lookups: HashMap::new(),
            whole: Default::default(),
            steps_part: false,
            parsed: false,
        };
        let Some(doc) = spec.doc() else {
            return r;
        };
        r.parsed = true;
        for section in SECTIONS {
            let Some(parts) = doc.get(section).and_then(toml::Value::as_table) else {
                continue;
            };
            for (name, value) in parts {
                r.steps_part |= name == "steps";
                let mut strings = Vec::new();
                strings_of(value, &mut strings);
                r.parts.push(Part {
                    section,
                    name: name.clone(),
                    strings: strings.into_iter().map(Cow::into_owned).collect(),
                });
            }
        }
        for (i, part) in r.parts.iter().enumerate() {
            for (j, s) in part.strings.iter().enumerate() {
                for t in tokens(s) {
                    add(&mut r.by_word, t, i);
                    add(&mut r.strings_by_word, t, (i, j));
                }
            }
        }
        if let Some(tables) = doc.get("tables").and_then(toml::Value::as_table) {
            for t in tables.values() {
                let steps = t.get("steps").and_then(toml::Value::as_array);
                for step in steps.into_iter().flatten() {
                    if let (Some(toml::Value::String(l)), Some(toml::Value::String(x))) =
                        (step.get("lookup"), step.get("as"))
                    {
                        r.lookups.entry(l.clone()).or_default().push(x.clone());
                    }
                }
            }
        }
        r
    }

    /// The parts other than table `name` itself whose strings name it
    /// ([`mentions`]), in order.
    fn readers(&self, name: &str) -> impl Iterator<Item = &Part> {
        // A name's first word is a word of every string naming it: the
        // characters around the name are not word characters.
        let candidates: Box<dyn Iterator<Item = usize>> = match tokens(name).next() {
            Some(t) => Box::new(self.by_word.get(t).into_iter().flatten().copied()),
            None => Box::new(0..self.parts.len()),
        };
        candidates.map(|i| &self.parts[i]).filter(move |p| {
            !(p.section == "tables" && p.name == name)
                && p.strings.iter().any(|s| mentions(s, name))
        })
    }

    /// Whether any part of the spec other than table `name` itself reads
    /// it (a table nothing reads is built only when asked for by name).
    pub fn is_read(&self, name: &str) -> bool {
        !self.parsed || self.readers(name).next().is_some()
    }

    /// Whether every part of the spec reading table or source `name`
    /// (other than itself) is in one of `sections` (`["numbers"]`: only
    /// numbers read it). Conservative as the index is: a part whose text
    /// merely mentions the name counts as a reader.
    pub fn read_only_by(&self, name: &str, sections: &[&str]) -> bool {
        self.parsed && self.readers(name).all(|p| sections.contains(&p.section))
    }

    /// The demand of table or source `name` of `spec` (the spec indexed;
    /// see the module docs).
    pub fn demand(&self, spec: &LoadedSpec, name: &str) -> Demand {
        if !self.parsed || self.nested_whole(spec, name) {
            return None;
        }
        let mut tokens = BTreeSet::new();
        let mut seen = BTreeSet::new();
        self.collect(name, &mut tokens, &mut seen)?;
        Some(tokens)
    }

    /// The fields the rows of table `name` keep once its steps before
    /// `from` have run: what its steps from `from` on and everything after
    /// the table may read (`None`: every field).
    pub fn keep(&self, spec: &LoadedSpec, name: &str, from: usize) -> Demand {
        let mut tokens = self.demand(spec, name)?;
        let doc = spec.doc()?;
        let steps = doc
            .get("tables")?
            .get(name)?
            .get("steps")
            .and_then(toml::Value::as_array)?;
        for step in steps.iter().skip(from) {
            let mut strings = Vec::new();
            made_by_steps(step, &mut strings);
            for s in strings {
                words(&s, &mut tokens)?;
            }
        }
        Some(tokens)
    }

    /// Adds the words of every part reading `name` (and of their readers)
    /// to `tokens`; `None` when one may read a row whole.
    fn collect(
        &self,
        name: &str,
        tokens: &mut BTreeSet<String>,
        seen: &mut BTreeSet<String>,
    ) -> Option<()> {
        if !seen.insert(name.to_string()) {
            return Some(());
        }
        for part in self.readers(name) {
            for s in &part.strings {
                words(s, tokens)?;
            }
            if part.section == "tables" {
                self.collect(&part.name, tokens, seen)?;
            }
        }
        Some(())
    }

    /// Whether a lookup nests `name`'s rows under a field (`as = "c"`)
    /// that some part reads other than through its fields (`c.x`,
    /// `c['x']`): `c | length`, `c.keys()`, `{{ c }}`, `explode = "c"` see
    /// every field of the nested row. The lookups' own `as` values are
    /// not such reads: of the strings reading `c` whole, those (and the
    /// word `as` of their keys) are taken off the count.
    fn nested_whole(&self, spec: &LoadedSpec, name: &str) -> bool {
        let Some(names) = self.lookups.get(name) else {
            return false;
        };
        if self.steps_part {
            return spec.doc().is_some_and(|doc| nested_whole(doc, name));
        }
        names.iter().any(|x| {
            let own: usize = names
                .iter()
                .map(|y| usize::from(reads_whole("as", x)) + usize::from(reads_whole(y, x)))
                .sum();
            self.whole_count(x) > own
        })
    }

    /// How many strings of the spec's parts read `x` whole ([`reads_whole`]).
    fn whole_count(&self, x: &str) -> usize {
        if let Some(n) = self.whole.borrow().get(x) {
            return *n;
        }
        let reads = |&(i, j): &(usize, usize)| reads_whole(&self.parts[i].strings[j], x);
        // As for a table's name: a string reading `x` has its first word.
        let n = match tokens(x).next() {
            Some(t) => self
                .strings_by_word
                .get(t)
                .map_or(0, |at| at.iter().filter(|at| reads(at)).count()),
            None => (0..self.parts.len())
                .flat_map(|i| (0..self.parts[i].strings.len()).map(move |j| (i, j)))
                .filter(|at| reads(at))
                .count(),
        };
        self.whole.borrow_mut().insert(x.to_string(), n);
        n
    }
}

/// [`Readers::nested_whole`] reading the spec itself (for a spec with a
/// part named `steps`, which its section reads as steps).
fn nested_whole(doc: &toml::Table, name: &str) -> bool {
    let mut names = Vec::new();
    // The spec without the `as` values themselves (each a bare use).
    let mut rest = doc.clone();
    if let Some(toml::Value::Table(tables)) = rest.get_mut("tables") {
        for (_, t) in tables.iter_mut() {
            let Some(toml::Value::Array(steps)) = t.get_mut("steps") else {
                continue;
            };
            for step in steps {
                let toml::Value::Table(step) = step else {
                    continue;
                };
                if step.get("lookup").and_then(toml::Value::as_str) == Some(name)
                    && let Some(toml::Value::String(x)) = step.remove("as")
                {
                    names.push(x);
                }
            }
        }
    }
    if names.is_empty() {
        return false;
    }
    let mut strings = Vec::new();
    for section in SECTIONS {
        if let Some(v) = rest.get(section) {
            strings_of(v, &mut strings);
        }
    }
    names
        .iter()
        .any(|x| strings.iter().any(|s| reads_whole(s, x)))
}

/// Whether `s` uses the name `x` other than through a field: `x.f` (not a
/// method call, `x.f(...)`) and `x['f']` are fields; `y.x` is not `x`.
fn reads_whole(s: &str, x: &str) -> bool {
    s.match_indices(x).any(|(i, _)| {
        if s[..i]
            .chars()
            .next_back()
            .is_some_and(|c| is_word(c) || c == '.')
        {
            return false;
        }
        let after = &s[i + x.len()..];
        if after.chars().next().is_some_and(is_word) {
            return false;
        }
        let after = after.trim_start();
        if let Some(r) = after.strip_prefix('.') {
            let r = r.trim_start();
            let end = r.find(|c: char| !is_word(c)).unwrap_or(r.len());
            return end == 0 || r[end..].trim_start().starts_with('(');
        }
        if let Some(r) = after.strip_prefix('[') {
            let r = r.trim_start();
            return !(r.starts_with('\'') || r.starts_with('"'));
        }
        true
    })
}

/// Every string value of a TOML value. Not its keys, outside steps: a key
/// of the spec is a word of the spec or a name a step makes, never a field
/// read. Of prose (a title, a description, a column header) only the
/// template parts (`{{ ... }}`, `{% ... %}`): its other words are the
/// paper's, not fields.
fn strings_of<'a>(v: &'a toml::Value, out: &mut Vec<Cow<'a, str>>) {
    match v {
        toml::Value::String(s) => out.push(s.as_str().into()),
        toml::Value::Array(a) => a.iter().for_each(|v| strings_of(v, out)),
        toml::Value::Table(t) => {
            for (k, v) in t {
                match (k.as_str(), v) {
                    ("steps", v) => made_by_steps(v, out),
                    (k, toml::Value::String(s))
                        if PROSE.contains(&k) && !s.contains(['\'', '"']) =>
                    {
                        out.extend(templates(s).into_iter().map(Into::into))
                    }
                    _ => strings_of(v, out),
                }
            }
        }
        _ => {}
    }
}

/// The strings of a table's steps, and the names they make: the keys of
/// their maps (`derive = { x = ... }`, `window = { r = ... }`) and the
/// names `fold` and `bin` make when not given (`key`, `value`, `bin_F`,
/// `..._end`): a field of the rows by such a name makes the step an error,
/// so it is kept for the step to see. No prose inside steps (`derive = {
/// title = "name" }` is an expression).
fn made_by_steps<'a>(v: &'a toml::Value, out: &mut Vec<Cow<'a, str>>) {
    match v {
        toml::Value::String(s) => out.push(s.as_str().into()),
        toml::Value::Array(a) => a.iter().for_each(|v| made_by_steps(v, out)),
        toml::Value::Table(t) => {
            for (k, v) in t {
                out.push(k.as_str().into());
                made_by_steps(v, out);
            }
            if t.contains_key("fold") {
                out.extend(["key".into(), "value".into()]);
            }
            if let Some(f) = t.get("bin").and_then(toml::Value::as_str) {
                let made = t
                    .get("as")
                    .and_then(toml::Value::as_str)
                    .map_or_else(|| format!("bin_{f}"), String::from);
                out.push(format!("{made}_end").into());
                out.push(made.into());
            }
        }
        _ => {}
    }
}

/// Keys whose strings are prose, templates at most (a legend or tick
/// `label` is not: a tick's label is a field).
const PROSE: [&str; 3] = ["title", "description", "header"];

/// The `{{ ... }}` and `{% ... %}` parts of `s` (an unclosed one to the end).
fn templates(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(open) = rest.find(['{']) {
        let after = &rest[open + 1..];
        let close = match after.chars().next() {
            Some('{') => "}}",
            Some('%') => "%}",
            _ => {
                rest = after;
                continue;
            }
        };
        let inner = &after[1..];
        match inner.find(close) {
            Some(end) => {
                out.push(&inner[..end]);
                rest = &inner[end + 2..];
            }
            None => {
                out.push(inner);
                break;
            }
        }
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `s` names table `name`: as a whole word (a table's name may hold
/// `-` or `.`, so the test is on the characters around it).
fn mentions(s: &str, name: &str) -> bool {
    s.match_indices(name).any(|(i, _)| {
        let before = s[..i].chars().next_back();
        let after = s[i + name.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

/// Adds the words of `s`, `s` itself and every quoted text inside it to
/// `tokens`; `None` when `s` may read a row whole or quotes with escapes.
fn words(s: &str, tokens: &mut BTreeSet<String>) -> Option<()> {
    tokens.insert(s.to_string());
    let mut word = String::new();
    for c in s.chars().chain([' ']) {
        if is_word(c) {
            word.push(c);
            continue;
        }
        if word == "_" && c != '.' && c != '[' || WHOLE_ROW.contains(&word.as_str()) {
            return None;
        }
        if !word.is_empty() {
            tokens.insert(std::mem::take(&mut word));
        }
    }
    // `_.get(...)`, `_.keys()`, `_.items()`: a method of the row may read
    // any field (`_.name` is a field).
    for (i, _) in s.match_indices("_.") {
        if s[..i].chars().next_back().is_some_and(is_word) {
            continue;
        }
        let rest = &s[i + 2..];
        let name_end = rest.find(|c: char| !is_word(c)).unwrap_or(rest.len());
        if rest[name_end..].trim_start().starts_with('(') {
            return None;
        }
    }
    // `_[...]` reads a field by name: only a quoted name is known here
    // (`_['a b']`); `_['ra' ~ 'tio']` or `_[f]` may read any field.
    for (i, _) in s.match_indices("_[") {
        if s[..i].chars().next_back().is_some_and(is_word) {
            continue;
        }
        let inner = s[i + 2..].trim_start();
        let q = inner.chars().next()?;
        if q != '\'' && q != '"' {
            return None;
        }
        let close = inner[1..].find(q)?;
        if !inner[1 + close + 1..].trim_start().starts_with(']') {
            return None;
        }
    }
    for q in ['\'', '"'] {
        let mut parts = s.split(q);
        parts.next();
        while let Some(inside) = parts.next() {
            if inside.contains('\\') {
                return None;
            }
            tokens.insert(inside.to_string());
            parts.next();
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    fn of(text: &str, table: &str) -> Option<Vec<String>> {
        let spec = crate::spec::parse(text, Path::new("artifact.toml")).unwrap();
        super::demand(&spec, table).map(|d| d.into_iter().collect())
    }

    const BASE: &str = "[sources.s]\npath = \"s.jsonl\"\n[tables.t]\nfrom = \"s\"\nsteps = [{ filter = \"a > 1\" }]\n";

    #[test]
    fn a_number_and_a_table_reading_the_table_give_their_words() {
        let text = format!(
            "{BASE}[tables.u]\nfrom = \"t\"\nsteps = [{{ derive = {{ z = \"_['x y'] + w\" }} }}]\n[numbers.k]\ntable = \"u\"\nvalue = {{ cell = \"q\" }}\n"
        );
        let d = of(&text, "t").unwrap();
        for w in ["x y", "w", "q"] {
            assert!(d.contains(&w.to_string()), "{w} in {d:?}");
        }
        // Keys outside steps are the spec's words, never fields read (inside
        // steps they are names made, kept for the overwrite checks).
        for w in ["cell", "table", "value"] {
            assert!(!d.contains(&w.to_string()), "{w} in {d:?}");
        }
        // `a` is read by t's own steps, not by anything after t.
        assert!(!d.contains(&"a".to_string()), "{d:?}");
    }

    /// Regression (break-it review): a lookup's `as` field holds the looked
    /// up table's row; read whole (`c | length`, `explode = "c"`) it must
    /// keep every field, read through fields it keeps those.
    #[test]
    fn a_row_nested_by_a_lookup_and_read_whole_keeps_every_field() {
        let reader = |use_: &str| {
            format!(
                "{BASE}[sources.k]\nrows = [{{ a = 1 }}]\n[tables.u]\nfrom = \"k\"\nsteps = [{{ lookup = \"t\", on = \"a\", as = \"c\" }}, {use_}]\n"
            )
        };
        for whole in [
            r#"{ derive = { n = "c | length" } }"#,
            r#"{ explode = "c" }"#,
            r#"{ derive = { n = "c.keys() | list" } }"#,
            r#"{ derive = { n = "c[f]" } }"#,
        ] {
            assert_eq!(of(&reader(whole), "t"), None, "{whole}");
        }
        let d = of(
            &reader(r#"{ derive = { n = "c.x + c['y z'] + m.c" } }"#),
            "t",
        )
        .unwrap();
        for w in ["x", "y z", "a"] {
            assert!(d.contains(&w.to_string()), "{w} in {d:?}");
        }
    }

    #[test]
    fn a_row_read_whole_keeps_every_field() {
        let text = format!(
            "{BASE}[numbers.j]\ntable = \"t\"\neach = \"{{{{ _ | tojson }}}}\"\nvalue = \"count\"\n"
        );
        assert_eq!(of(&text, "t"), None);
        let escaped = format!(
            "{BASE}[numbers.k]\ntable = \"t\"\nwhere = \"_['it\\\\'s']\"\nvalue = \"count\"\n"
        );
        assert_eq!(of(&escaped, "t"), None);
    }

    #[test]
    fn prose_gives_only_its_template_parts() {
        let text = format!(
            "{BASE}[numbers.k]\ntable = \"t\"\neach = \"k-{{{{ g }}}}\"\nvalue = \"count\"\ndescription = \"rows of {{{{ group }}}} per run\"\n"
        );
        let d = of(&text, "t").unwrap();
        for w in ["g", "group", "count"] {
            assert!(d.contains(&w.to_string()), "{w} in {d:?}");
        }
        for w in ["rows", "run", "per"] {
            assert!(!d.contains(&w.to_string()), "{w} in {d:?}");
        }
    }

    #[test]
    fn a_part_naming_another_table_with_the_name_inside_is_not_a_reader() {
        let text = format!("{BASE}[numbers.k]\ntable = \"t2\"\nvalue = {{ cell = \"q\" }}\n");
        assert_eq!(of(&text, "t"), Some(vec![]));
    }

    // Regression tests from a break-it review: each kept a field too few.

    #[test]
    fn a_tick_label_is_a_field_not_prose() {
        let text = format!(
            "{BASE}[figures.f]\nlayers = [{{ data = \"t\", mark = \"point\", x = \"mid\", y = \"y\" }}]\nx = {{ ticks = {{ data = \"t\", value = \"mid\", label = \"category\" }} }}\n"
        );
        assert!(of(&text, "t").unwrap().contains(&"category".to_string()));
    }

    #[test]
    fn a_derive_named_title_reads_its_expression() {
        let text = format!(
            "{BASE}[tables.u]\nfrom = \"t\"\nsteps = [{{ derive = {{ title = \"name\", description = \"id * 10\" }} }}]\n[numbers.k]\ntable = \"u\"\nvalue = \"count\"\n"
        );
        let d = of(&text, "t").unwrap();
        assert!(
            d.contains(&"name".to_string()) && d.contains(&"id".to_string()),
            "{d:?}"
        );
    }

    #[test]
    fn a_method_of_the_row_reads_every_field() {
        for reads in [
            "_.get(metric ~ '_ms', 0)",
            "_.keys() | length",
            "_.values()",
        ] {
            let text =
                format!("{BASE}[numbers.k]\ntable = \"t\"\nvalue = {{ sum = \"{reads}\" }}\n");
            assert_eq!(of(&text, "t"), None, "{reads}");
        }
    }

    #[test]
    fn a_field_a_later_step_would_make_is_kept_for_its_overwrite_error() {
        let text = format!(
            "{BASE}[tables.u]\nfrom = \"t\"\nsteps = [{{ window = {{ r = {{ lag = \"x\" }} }} }}, {{ fold = [\"a\"] }}, {{ bin = \"x\" }}]\n[numbers.k]\ntable = \"u\"\nvalue = \"count\"\n"
        );
        let d = of(&text, "t").unwrap();
        for w in ["r", "key", "value", "bin_x", "bin_x_end"] {
            assert!(d.contains(&w.to_string()), "{w} in {d:?}");
        }
    }

    #[test]
    fn a_quote_in_a_prose_template_reads_all_its_words() {
        let text = format!(
            "{BASE}[numbers.k]\ntable = \"t\"\neach = \"k-{{{{ g }}}}\"\nvalue = \"count\"\ndescription = \"by {{{{ '}}}}' ~ who }}}}\"\n"
        );
        assert!(of(&text, "t").unwrap().contains(&"who".to_string()));
    }
}
