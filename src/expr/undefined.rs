//! Messages for an undefined value that name what was looked for and where.
//!
//! minijinja reports `thruput * 2` on a row without `thruput` as "undefined
//! value: ... (`thruput` is undefined)". Only when it reports (a missing
//! field in `a or b` or `x is defined` is falsy, not an error), the name it
//! gives is read here and looked up where an expression finds names: the
//! row's fields (`x`, `_['x y']`), the numbers (`n['KEY']`, `v['KEY']`) and
//! the document metadata (`meta.SOURCE.key`). The message then says which
//! of those lacks it, what it has, and the closest name, if one is close.

pub use crate::error::did_you_mean;
use crate::error::shown;
use crate::expr::fast::{Tok, lex};
use crate::value::{Record, Row, Value, as_record};

use super::Globals;
use super::reads::field_ref;

/// `names` as a message lists them: at most [`crate::error::LISTED`],
/// each [`shown`], then how many more ([`crate::error::name_list`]).
fn listing<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    crate::error::name_list(names, false)
}

/// "no field `thruput` in table `runs` (fields: a, b, throughput); did you
/// mean `throughput`?" for a row without the field.
pub fn no_field(name: &str, table: Option<&str>, row: &Row) -> String {
    missing_field(name, table, row, true)
}

/// [`no_field`] for a field named in the spec as a name, not an expression
/// (a group key): the closest is suggested as a name (` code`, not
/// `_[' code']`).
pub fn no_named_field(name: &str, row: &Row) -> String {
    missing_field(name, None, row, false)
}

/// The names of `row`'s fields: for a row read in part (a projection), the
/// whole record's, then those made by steps (`y` of a derive).
///
/// One pass over each record (a name of the row is looked up in the whole
/// record by hash): a row of 200,000 fields costs what reading it did.
pub fn field_names(row: &Row) -> Vec<std::sync::Arc<str>> {
    let fields = row.flat_fields();
    let whole = match row.origin.partial {
        true => crate::value::whole_record(&row.origin),
        false => None,
    };
    let Some(whole) = whole else {
        return fields.0.keys().cloned().collect();
    };
    let mut names: Vec<std::sync::Arc<str>> = whole.0.keys().cloned().collect();
    names.extend(fields.0.keys().filter(|k| whole.get(k).is_none()).cloned());
    names
}

fn missing_field(name: &str, table: Option<&str>, row: &Row, expr: bool) -> String {
    let fields = field_names(row);
    let names = fields.iter().map(|k| &**k);
    let mut msg = format!("no field `{}`", shown(name));
    if let Some(t) = table {
        msg.push_str(&format!(" in table `{}`", shown(t)));
    }
    msg.push_str(&format!(" (fields: {})", listing(names.clone())));
    if let Some(plain) = (!expr).then(|| subscript_name(name)).flatten() {
        // `group = ["_['a.b']"]`: a key here is a name, not an expression.
        msg.push_str(&format!(
            "; keys here are plain field names, not expressions: `{}`",
            shown(&plain)
        ));
    } else if let Some(close) = did_you_mean(name, names) {
        let close = if expr {
            field_ref(close)
        } else {
            close.to_string()
        };
        msg.push_str(&format!("; did you mean `{}`?", shown(&close)));
    }
    msg
}

/// The field name `_['a.b']` reads, for a name written as that expression.
fn subscript_name(text: &str) -> Option<String> {
    match lex(text)?.as_slice() {
        [Tok::Ident(u), Tok::Op("["), Tok::Str(name), Tok::Op("]")] if u == "_" => {
            Some(name.clone())
        }
        _ => None,
    }
}

/// Where an expression looks names up, for [`explain`].
pub struct Scope<'a> {
    /// The row, when the expression runs on one.
    pub row: Option<&'a Row>,
    /// The table the row is of, when known.
    pub table: Option<&'a str>,
    /// The numbers and metadata.
    pub globals: &'a Globals,
    /// The names the text reads from outside (a template may set its own,
    /// `{% for k in m %}`): `None` when all are (an expression).
    pub free: Option<&'a std::collections::HashSet<String>>,
}

/// The undefined expression minijinja's error names (`n['x']`), as a
/// variable and the keys read from it; `None` when there is none or it is
/// not a plain path.
fn undefined_path(e: &minijinja::Error) -> Option<(String, Vec<String>)> {
    let detail = e.detail()?;
    let end = detail.rfind("` is undefined")?;
    let start = detail[..end].rfind('`')? + 1;
    let toks = lex(&detail[start..end])?;
    let mut it = toks.into_iter();
    let Some(Tok::Ident(head)) = it.next() else {
        return None;
    };
    let mut keys = Vec::new();
    while let Some(t) = it.next() {
        match (t, it.next()) {
            (Tok::Op("."), Some(Tok::Ident(k))) => keys.push(k),
            (Tok::Op("["), Some(Tok::Str(k))) if it.next() == Some(Tok::Op("]")) => keys.push(k),
            _ => return None,
        }
    }
    Some((head, keys))
}

/// Why the value minijinja's error `e` calls undefined is missing, in
/// words, or `None` when it is not a field, a number or a metadata key.
pub fn explain(e: &minijinja::Error, scope: &Scope) -> Option<String> {
    let (head, keys) = undefined_path(e)?;
    explain_path(head, keys, scope)
}

/// Why the value at variable `head` then `keys` is missing from a row, in
/// the words of [`explain`]: for an error that names no undefined value
/// (`tried to use * operator on unsupported types undefined and number`)
/// though the expression read a field the row lacks.
pub fn explain_read(path: &str, scope: &Scope) -> Option<String> {
    let row = scope.row?;
    // A field read as `_['a.b']` is listed as `a.b`: the row's own name
    // first, else a path of attributes.
    if row.get(path).is_some() {
        return None;
    }
    let mut parts = path.split('.').map(String::from);
    let head = parts.next()?;
    explain_path(head, parts.collect(), scope)
}

fn explain_path(head: String, keys: Vec<String>, scope: &Scope) -> Option<String> {
    if scope.free.is_some_and(|f| !f.contains(&head)) {
        return None;
    }
    let has_field = |name: &str| scope.row.is_some_and(|r| r.get(name).is_some());
    match head.as_str() {
        "_" if scope.row.is_some() => field(scope, keys.first()?, &keys[1..]),
        "n" | "v" if !has_field(&head) => {
            let key = keys.first()?;
            let numbers = if head == "n" {
                &scope.globals.n
            } else {
                &scope.globals.v
            };
            if numbers.get(key).is_some() {
                return None;
            }
            let k = shown(key);
            let mut msg = format!("no number `{k}` (`{head}['{k}']`)");
            let keys = numbers.keys();
            if let Some(close) = did_you_mean(key, keys.iter().map(|k| &**k)) {
                msg.push_str(&format!("; did you mean `{}`?", shown(close)));
            }
            Some(msg)
        }
        "meta" if !has_field(&head) => {
            let source = keys.first()?;
            let meta = &scope.globals.meta;
            let Some(doc) = meta.get(source) else {
                let names = meta.0.keys().map(|k| &**k);
                let mut msg = format!(
                    "no document metadata `meta.{}` (sources with metadata: {})",
                    shown(source),
                    listing(names.clone())
                );
                if let Some(close) = did_you_mean(source, names) {
                    msg.push_str(&format!("; did you mean `{}`?", shown(close)));
                }
                return Some(msg);
            };
            let file = scope
                .globals
                .meta_files
                .get(source)
                .map(|f| f.as_str())
                .unwrap_or("its document");
            missing_meta_key(doc, &format!("meta.{source}"), &keys[1..], file)
        }
        "_source" if !has_field(&head) && keys.first().is_some_and(|k| k == "meta") => {
            let row = scope.row?;
            let Some(crate::value::FileMeta::Document(doc)) = row.origin.meta.as_deref() else {
                return None;
            };
            missing_meta_key(doc, "_source.meta", &keys[1..], &row.origin.path)
        }
        "_source" | "loop" | "n" | "v" | "meta" if !has_field(&head) => None,
        _ if scope.row.is_some() => field(scope, &head, &keys),
        // A title, a label or a number's `expr`: no row, so no fields.
        _ => {
            let mut msg = format!(
                "`{}` is not defined here: without a row, an expression reads numbers as n['KEY'] or v['KEY'] and document metadata as meta.SOURCE",
                shown(&head)
            );
            let keys = scope.globals.n.keys();
            if let Some(close) = did_you_mean(&head, keys.iter().map(|k| &**k)) {
                msg.push_str(&format!("; did you mean `n['{}']`?", shown(close)));
            }
            Some(msg)
        }
    }
}

/// The message for field `name` (then `keys`) missing from the row.
fn field(scope: &Scope, name: &str, keys: &[String]) -> Option<String> {
    let row = scope.row?;
    let Some(v) = row.get(name) else {
        return Some(no_field(name, scope.table, row));
    };
    let (at, key, rec) = first_missing(v, keys)?;
    let mut path = field_ref(name);
    for k in &keys[..at] {
        path.push('.');
        path.push_str(k);
    }
    let names = rec.0.keys().map(|k| &**k);
    let mut msg = format!(
        "`{}` has no key `{}` (keys: {})",
        shown(&path),
        shown(key),
        listing(names.clone())
    );
    if let Some(close) = did_you_mean(key, names) {
        msg.push_str(&format!("; did you mean `{}`?", shown(close)));
    }
    Some(msg)
}

/// The message for the first of `keys` missing from document metadata
/// `doc` read as `base` (`meta.sim`, `_source.meta`) of `file`: what is
/// missing, where, what is there and the nearest name.
fn missing_meta_key(doc: &Value, base: &str, keys: &[String], file: &str) -> Option<String> {
    let (at, key, rec) = first_missing(doc, keys)?;
    let mut path = base.to_string();
    for k in &keys[..at] {
        path.push('.');
        path.push_str(k);
    }
    let mut msg = format!(
        "`{}` is missing from {} (`{}` has: {})",
        shown(key),
        shown(file),
        shown(&path),
        listing(rec.0.keys().map(|k| &**k))
    );
    if let Some(close) = did_you_mean(key, rec.0.keys().map(|k| &**k)) {
        msg.push_str(&format!("; did you mean `{}`?", shown(close)));
    }
    Some(msg)
}

/// The first of `keys` missing along the path from `v`: its position, the
/// key, and the mapping that lacks it.
fn first_missing<'v>(v: &'v Value, keys: &'v [String]) -> Option<(usize, &'v str, &'v Record)> {
    let mut rec = as_record(v)?;
    for (i, k) in keys.iter().enumerate() {
        match rec.get(k) {
            Some(next) => rec = as_record(next)?,
            None => return Some((i, k, rec)),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::expr::tests::{eval, row, spec};
    use crate::expr::{Expr, Template};

    fn err(expr: &str, json: &str) -> String {
        eval(expr, json).unwrap_err().to_string()
    }

    #[test]
    fn closest_names() {
        let names = ["a", "b", "throughput", "execution time"];
        assert_eq!(did_you_mean("thruput", names), Some("throughput"));
        assert_eq!(did_you_mean("Throughput", names), Some("throughput"));
        assert_eq!(did_you_mean("execution tme", names), Some("execution time"));
        assert_eq!(did_you_mean("zzz", names), None);
        let long = "x".repeat(300);
        assert_eq!(did_you_mean(&long, [long.as_str()]), None);
        assert_eq!(
            listing(["a", long.as_str()]),
            format!("a, {}...", "x".repeat(80))
        );
        assert_eq!(
            did_you_mean("front-prr", ["front-pr", "fig4-ci"]),
            Some("front-pr")
        );
    }

    #[test]
    fn a_missing_field_names_the_fields_and_the_closest() {
        let json = r#"{"a": 1, "b": 2, "throughput": 3, "execution time": 4}"#;
        assert_eq!(
            err("thruput > 1", json),
            "f.jsonl:7: cannot evaluate `thruput > 1`: no field `thruput` (fields: a, b, throughput, execution time); did you mean `throughput`?"
        );
        assert_eq!(
            err("_['execution tme'] * 2", json),
            "f.jsonl:7: cannot evaluate `_['execution tme'] * 2`: no field `execution tme` (fields: a, b, throughput, execution time); did you mean `_['execution time']`?"
        );
        // With the table named.
        let s = spec();
        let e = Expr::compile_str(&s, "thruput + 1", 0..0)
            .unwrap()
            .in_table("runs");
        let msg = e
            .eval_row(&Arc::new(Globals::default()), &row(json))
            .unwrap_err()
            .to_string();
        assert_eq!(
            msg,
            "f.jsonl:7: cannot evaluate `thruput + 1`: no field `thruput` in table `runs` (fields: a, b, throughput, execution time); did you mean `throughput`?"
        );
    }

    #[test]
    fn a_name_a_template_sets_is_not_a_field() {
        let s = crate::spec::parse(
            "[figures.f]\nsize = [4, 3]\nlayers = []\ntitle = \"{% for k in m %}{{ k.x.y }}{% endfor %}\"\n",
            std::path::Path::new("artifact.toml"),
        )
        .unwrap();
        let t = s.spec.figures["f"].get_ref().title.as_ref().unwrap();
        let tpl = Template::compile(&s, t).unwrap();
        let e = tpl
            .render_row(&Arc::new(Globals::default()), &row(r#"{"m": [{"a": 1}]}"#))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "f.jsonl:7: cannot render `{% for k in m %}{{ k.x.y }}{% endfor %}`: undefined value: `k.x` is undefined"
        );
    }

    #[test]
    fn a_field_name_with_an_escape_or_a_newline_is_shown_escaped() {
        let json = r#"{"thrput\u001b[31m": 1, "a\nerror: fake": 2}"#;
        assert_eq!(
            err("thrput > 1", json),
            "f.jsonl:7: cannot evaluate `thrput > 1`: no field `thrput` (fields: thrput\\u{1b}[31m, a\\u{a}error: fake); did you mean `_['thrput\\u{1b}[31m']`?"
        );
        assert_eq!(
            err("m.ratoi.x", r#"{"m": {"rati\u001bo": 1}}"#),
            "f.jsonl:7: cannot evaluate `m.ratoi.x`: `m` has no key `ratoi` (keys: rati\\u{1b}o); did you mean `rati\\u{1b}o`?"
        );
    }

    #[test]
    fn a_missing_key_of_a_field_names_the_keys() {
        assert_eq!(
            err("m.ratoi.x", r#"{"m": {"ratio": 1, "mbps": 2}}"#),
            "f.jsonl:7: cannot evaluate `m.ratoi.x`: `m` has no key `ratoi` (keys: ratio, mbps); did you mean `ratio`?"
        );
    }

    #[test]
    fn only_what_minijinja_reports_is_an_error() {
        // A missing field is falsy in `or` chains and `is defined`.
        let v = eval("thruput or b", r#"{"b": 2}"#).unwrap();
        assert_eq!(v, Value::from(2));
        let v = eval("_['x y'] is defined", r#"{"b": 2}"#).unwrap();
        assert_eq!(v, Value::from(false));
    }

    fn globals() -> Arc<Globals> {
        let mut g = Globals::default();
        g.n.insert("front-pr", Value::from("0.93"));
        g.v.insert("front-pr", Value::from(0.93));
        let mut doc = Record::default();
        doc.insert("loader", Value::from(4));
        doc.insert("t_read_ms", Value::from(1.5));
        Arc::make_mut(&mut g.meta).insert("sim_main", doc.into_value());
        Arc::make_mut(&mut g.meta_files).insert("sim_main".into(), "data/x/sim.json".into());
        Arc::new(g)
    }

    fn render(text: &str) -> String {
        let s = crate::spec::parse(
            &format!("[figures.f]\nsize = [4, 3]\nlayers = []\ntitle = {text:?}\n"),
            std::path::Path::new("artifact.toml"),
        )
        .unwrap();
        let t = &s.spec.figures["f"].get_ref().title.as_ref().unwrap();
        let tpl = Template::compile(&s, t).unwrap();
        let e = tpl.render(&s, globals().context()).unwrap_err();
        match e {
            crate::error::Error::Spec { message, .. } => message,
            e => e.to_string(),
        }
    }

    #[test]
    fn a_missing_number_or_metadata_key_is_named() {
        assert_eq!(
            render("{{ n['front-prr'] }}"),
            "cannot render: no number `front-prr` (`n['front-prr']`); did you mean `front-pr`?"
        );
        assert_eq!(
            render("{{ front_pr }}"),
            "cannot render: `front_pr` is not defined here: without a row, an expression reads numbers as n['KEY'] or v['KEY'] and document metadata as meta.SOURCE; did you mean `n['front-pr']`?"
        );
        assert_eq!(
            render("{{ v['nope'] }}"),
            "cannot render: no number `nope` (`v['nope']`)"
        );
        assert_eq!(
            render("{{ meta.sim_main.loaders }}"),
            "cannot render: `loaders` is missing from data/x/sim.json (`meta.sim_main` has: loader, t_read_ms); did you mean `loader`?"
        );
        assert_eq!(
            render("{{ meta['sim'].loader }}"),
            "cannot render: no document metadata `meta.sim` (sources with metadata: sim_main); did you mean `sim_main`?"
        );
    }

    #[test]
    fn an_expression_over_the_globals_may_not_be_undefined() {
        let s = spec();
        let e = Expr::compile_str(&s, "meta.sim_main.loaders", 0..0).unwrap();
        assert_eq!(
            e.eval(globals().context()).unwrap_err().to_string(),
            "cannot evaluate `meta.sim_main.loaders`: `loaders` is missing from data/x/sim.json (`meta.sim_main` has: loader, t_read_ms); did you mean `loader`?"
        );
        let e = Expr::compile_str(&s, "v['front-pr'] * 2", 0..0).unwrap();
        assert_eq!(e.eval(globals().context()).unwrap(), Value::from(1.86));
    }
}
