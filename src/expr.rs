//! Spec expressions and templates, evaluated by minijinja.
//!
//! Expressions (`dtype == 'bf16'`, `ceiling_ratio or R_marginal`) see a
//! row's fields as variables, plus:
//! - `_source.path`, `_source.line`: where the row came from;
//! - `_source.meta`: the metadata of the JSON document the row came from
//!   (the document without its records array, shared by all its rows), so
//!   each row of a source of many documents sees its own file's
//!   (`_source.meta.config.loaders`). Rows of JSONL, CSV or inline `rows`
//!   have none, and reading it is an error saying so. After a `group` step
//!   `_source` is the group's first row's (as `_source.path` always was);
//!   `_source.meta` is defined there only when all the group's rows came
//!   from one file, else reading it is an error naming two of the files;
//! - `n['KEY']`: a number's printed text, `v['KEY']`: its full-precision value;
//! - `meta['SOURCE']`: the non-record part of a JSON document source of one
//!   file; for a source of several documents, reading it is an error naming
//!   the files (at the expression's line and column in the spec), never one
//!   file's metadata;
//! - `_`: the whole row, so that any field can be read, whatever its name:
//!   `_['execution time']`, `_[' code']`, `_['p50 (ms)']` (and `_.x` for
//!   an identifier).
//!
//! A row field shadows `n`, `v`, `meta` and `_source` (but where a table
//! step or a number uses `n`/`v` as a map, the plan reads it as the
//! numbers: `plan::order`), but not `_`: `_` is
//! always the row, and a field named `_` is read as `_['_']`. Undefined behaviour is minijinja's
//! `SemiStrict`, chosen deliberately: a missing field is `undefined` and
//! falsy (so `a or b` fallback chains and `x is defined` work), but printing
//! it, iterating it or reading an attribute of it is an error, so a typo in a
//! template or a deep field path fails loudly instead of printing nothing.
//! `x is none` is true for a missing field as well as a null (Python's
//! `r.get("x") is None`), and `x is finite` tests for a finite number. Stages
//! that need a finite number check for it and name the row.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::Arc;

use minijinja::Expression;
use minijinja::value::{Enumerator, Object, ObjectRepr};

use crate::error::{Error, Result};
use crate::spec::{LoadedSpec, SpannedStr};
use crate::value::{Origin, Record, Row, Value};

pub mod depth;
pub mod fast;
mod source;

use source::{SourceObj, spec_mistake, unreadable_of};
pub use source::{broken_meta, several_documents};
mod env;
mod format;
pub mod reads;
mod so_far;
pub mod terms;
pub use so_far::SoFar;
mod template;
pub mod undefined;

pub use template::Template;

use env::environment;
pub use env::{FUEL, limit, shielded, slug, syntax};

/// The error for a text nested beyond [`depth::MAX_DEPTH`] (after
/// `invalid expression: ` or `invalid template: `).
fn too_deep() -> String {
    format!(
        "nested deeper than {} levels (each operator of a chain such as `a and b and c` is one level)",
        depth::MAX_DEPTH
    )
}

/// The numbers and document metadata every expression and template can read.
#[derive(Debug, Clone, Default)]
pub struct Globals {
    /// `n`: key -> printed text, shared with the copies made before (a
    /// copy per number costs nothing).
    pub n: SoFar,
    /// `v`: key -> full-precision value, shared as `n` is.
    pub v: SoFar,
    /// `meta`: source name -> document metadata (shared: read, never
    /// copied, by every expression that names `meta`).
    pub meta: Arc<Record>,
    /// Source name -> the file its metadata is from (for messages).
    pub meta_files: Arc<std::collections::BTreeMap<String, String>>,
}

impl Globals {
    /// The globals as a template context (no row).
    pub fn context(self: &Arc<Self>) -> Value {
        Value::from_object(Ctx {
            fields: None,
            origin: None,
            globals: self.clone(),
            extra: None,
        })
    }

    /// The globals plus extra variables (`data_min`, `data_max`, ...).
    pub fn context_with(self: &Arc<Self>, extra: Record) -> Value {
        Value::from_object(Ctx {
            fields: None,
            origin: None,
            globals: self.clone(),
            extra: Some(Arc::new(extra)),
        })
    }

    /// A row as a context: its fields, `_source`, and the globals.
    pub fn row_context(self: &Arc<Self>, row: &Row) -> Value {
        Value::from_object(Ctx {
            fields: Some(row.flat_fields()),
            origin: Some(row.origin.clone()),
            globals: self.clone(),
            extra: None,
        })
    }
}

#[derive(Debug)]
struct Ctx {
    fields: Option<Arc<Record>>,
    origin: Option<Origin>,
    globals: Arc<Globals>,
    extra: Option<Arc<Record>>,
}

impl Object for Ctx {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Map
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        self.get_value_by_str(key.as_str()?)
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<Value> {
        if key == "_" {
            return self.fields.clone().map(Value::from_dyn_object);
        }
        if let Some(v) = self.fields.as_ref().and_then(|f| f.get(key)) {
            return Some(v.clone());
        }
        if let Some(v) = self.extra.as_ref().and_then(|f| f.get(key)) {
            return Some(v.clone());
        }
        match key {
            "_source" => self
                .origin
                .as_ref()
                .map(|o| Value::from_object(SourceObj(o.clone()))),
            "n" => Some(Value::from_object(self.globals.n.clone())),
            "v" => Some(Value::from_object(self.globals.v.clone())),
            "meta" => Some(Value::from_dyn_object(self.globals.meta.clone())),
            _ => None,
        }
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        match &self.fields {
            Some(f) => {
                let keys: Vec<Value> = f.0.keys().map(|k| Value::from(&**k)).collect();
                Enumerator::Values(keys)
            }
            None => Enumerator::Empty,
        }
    }
}

/// What went wrong, in words: an undefined field, number or metadata key
/// named with where it was looked for ([`undefined::explain`]), else
/// minijinja's message.
fn why(
    e: &minijinja::Error,
    globals: &Globals,
    row: Option<&Row>,
    table: Option<&str>,
    free: Option<&HashSet<String>>,
) -> String {
    let scope = undefined::Scope {
        row,
        table,
        globals,
        free,
    };
    undefined::explain(e, &scope).unwrap_or_else(|| message(e))
}

/// [`why`] for an evaluation on a context made by [`Globals`].
fn why_in(e: &minijinja::Error, ctx: &Value, free: Option<&HashSet<String>>) -> String {
    match ctx.downcast_object_ref::<Ctx>() {
        Some(c) => why(e, &c.globals, None, None, free),
        None => message(e),
    }
}

/// For a syntax error where words separated by spaces look like one field
/// name (`execution time > 3`): how to read such a field.
fn spaced_hint(text: &str, e: &minijinja::Error) -> String {
    e.range()
        .and_then(|r| reads::spaced_name(text, r.start))
        .map(|name| reads::hint(&name))
        .unwrap_or_default()
}

/// For an error on `row` of an expression whose text holds the name of one
/// of the row's fields that is not an identifier (`p50 (ms) > 3` parses as
/// a call): how to read that field, unless `msg` already shows it.
fn field_hint(text: &str, row: &Row, msg: &str) -> String {
    // (The record's names: a projection kept only the names read.)
    undefined::field_names(row)
        .iter()
        .find(|k| {
            // (`_` is not a name with a symbol: `_['_']` is only its
            // spelling.) The text is looked at first: its spelling is
            // made only for the few names it holds.
            let k: &str = k;
            if k.trim() == "" || k == "_" || k.len() > text.len() || !text.contains(k) {
                return false;
            }
            let r = reads::field_ref(k);
            r != k && !text.contains(&r) && !msg.contains(&r)
        })
        .map(|k| reads::hint(k))
        .unwrap_or_default()
}

/// minijinja's message without its `(in <expression>:1)` suffix.
pub fn message(e: &minijinja::Error) -> String {
    if let Some(u) = unreadable_of(e) {
        return u.message.clone();
    }
    let mut s = e.kind().to_string();
    if let Some(detail) = e.detail() {
        s.push_str(": ");
        s.push_str(detail);
    }
    s
}

/// A compiled expression with the spec text and span it came from.
pub struct Expr<'s> {
    compiled: Expression<'s, 's>,
    fast: Option<crate::expr::fast::Node>,
    /// The fields read through `_`, when the expression uses `_`.
    row_reads: Option<reads::RowReads>,
    /// The names called as functions or methods (`range`, `s.split`), which
    /// minijinja lists among the variables.
    calls: Vec<String>,
    /// The table whose rows it reads, for messages.
    table: Option<Arc<str>>,
    /// The expression as written.
    pub text: &'s str,
    /// Its span in the spec.
    pub span: Range<usize>,
    /// [`Expr::paths`], worked out once: a filter dropping millions of
    /// rows asks for them per row (walking minijinja's tree each time cost
    /// more than the filter).
    paths: std::sync::OnceLock<Vec<String>>,
}

impl std::fmt::Debug for Expr<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Expr({:?})", self.text)
    }
}

impl<'s> Expr<'s> {
    /// Compiles `src`; a syntax error points at it in the spec.
    pub fn compile(spec: &LoadedSpec, src: &'s SpannedStr) -> Result<Expr<'s>> {
        Self::compile_str(spec, src.get_ref(), src.span())
    }

    /// Compiles `text` found at `span` of the spec.
    pub fn compile_str(spec: &LoadedSpec, text: &'s str, span: Range<usize>) -> Result<Expr<'s>> {
        if depth::expression_depth(text) > depth::MAX_DEPTH {
            return Err(spec.error(span, format!("invalid expression: {}", too_deep())));
        }
        if let Some(why) = depth::too_long(text) {
            return Err(spec.error(span, format!("invalid expression: {why}")));
        }
        match environment().compile_expression(text) {
            Ok(compiled) => Ok(Expr {
                row_reads: compiled
                    .undeclared_variables(false)
                    .contains("_")
                    .then(|| reads::row_reads(text)),
                calls: if text.contains('(') {
                    reads::calls(text)
                } else {
                    Vec::new()
                },
                compiled,
                table: None,
                fast: crate::expr::fast::compile(text),
                text,
                span,
                paths: std::sync::OnceLock::new(),
            }),
            Err(e) => Err(spec.error(
                span,
                format!(
                    "invalid expression: {}{}",
                    message(&e),
                    spaced_hint(text, &e)
                ),
            )),
        }
    }

    /// Names the table whose rows the expression reads, for messages
    /// (`no field `x` in table `runs``).
    pub fn set_table(&mut self, table: &str) {
        self.table = Some(Arc::from(table));
    }

    /// The expression with [`Expr::set_table`] applied.
    pub fn in_table(mut self, table: &str) -> Self {
        self.set_table(table);
        self
    }

    /// The value `v` of the expression on `row` as a finite number; when the
    /// expression is a field the row lacks, the error names the table's
    /// fields and the closest one.
    pub fn number(&self, row: &Row, v: &Value) -> Result<f64> {
        if let Some(e) = v.is_undefined().then(|| self.missing_field(row)).flatten() {
            return Err(e);
        }
        crate::value::finite_number(row, self.text, v)
    }

    /// When the expression is a field (`x`, `_['x y']`) that `row` lacks:
    /// the error naming the table's fields and the closest one.
    pub fn missing_field(&self, row: &Row) -> Option<Error> {
        match &self.fast {
            Some(crate::expr::fast::Node::Var(name)) if row.get(name).is_none() => {
                Some(Error::input(
                    row.origin.path.to_string(),
                    row.origin.line_opt(),
                    None,
                    undefined::no_field(name, self.table.as_deref(), row),
                ))
            }
            _ => None,
        }
    }

    /// The expression in the fast subset ([`crate::expr::fast`]), if it is in it.
    pub fn fast(&self) -> Option<&crate::expr::fast::Node> {
        self.fast.as_ref()
    }

    /// The top-level names the expression reads (for projection and checks):
    /// a field read as `_['x y']` is `x y`; `_` itself is not listed (see
    /// [`Expr::reads_whole_row`]).
    pub fn variables(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .compiled
            .undeclared_variables(false)
            .into_iter()
            .filter(|n| n != "_")
            .collect();
        if let Some(r) = &self.row_reads {
            v.extend(r.paths.iter().map(|p| p[0].clone()));
        }
        v.sort();
        v.dedup();
        v
    }

    /// Whether the expression may read any field of the row: it uses `_`
    /// other than as `_['name']` or `_.name` (`_ | tojson`).
    pub fn reads_whole_row(&self) -> bool {
        self.row_reads.as_ref().is_some_and(|r| r.whole)
    }

    /// The variable paths the expression reads (`m.ratio`, `H_byte1`),
    /// without the globals (`n`, `v`, `meta`, `_source`); `_['m'].ratio` is
    /// `m.ratio`. A function is not a path, and a method call is a read of
    /// what it is called on (`s.split(':')` reads `s`).
    pub fn paths(&self) -> &[String] {
        self.paths.get_or_init(|| self.find_paths())
    }

    fn find_paths(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .compiled
            .undeclared_variables(true)
            .into_iter()
            .filter(|p| {
                let head = p.split('.').next().unwrap_or("");
                !["n", "v", "meta", "_source", "loop", "_"].contains(&head)
            })
            .filter_map(|p| match self.calls.contains(&p) {
                true => p.rsplit_once('.').map(|(of, _)| of.to_string()),
                false => Some(p),
            })
            .collect();
        if let Some(r) = &self.row_reads {
            v.extend(r.paths.iter().map(|p| p.join(".")));
        }
        v.sort();
        v.dedup();
        v
    }

    /// Whether the expression reads variable `var` only through attributes
    /// or type tests (`m.ratio`, `m is mapping`); false when unsure.
    pub fn uses_only_attrs_of(&self, var: &str) -> bool {
        match &self.fast {
            Some(node) => node.uses_only_attrs_of(var),
            None => !self.reads_whole_row() && !self.variables().iter().any(|v| v == var),
        }
    }

    /// The attributes of variable `var` the expression reads (`m.ratio`,
    /// `m['a b']`, `_['m'].ratio`): exact when [`Expr::uses_only_attrs_of`].
    pub fn attrs_of(&self, var: &str) -> Vec<String> {
        let mut out = Vec::new();
        match &self.fast {
            Some(node) => node.attrs_of(var, &mut out),
            None => out.extend(self.paths().iter().filter_map(|p| {
                let rest = p.strip_prefix(var)?.strip_prefix('.')?;
                Some(rest.split('.').next().unwrap_or("").to_string())
            })),
        }
        out
    }

    /// Whether the expression reads variable `var` only through type tests
    /// (`methods is mapping`); false when unsure.
    pub fn uses_only_tests_of(&self, var: &str) -> bool {
        match &self.fast {
            Some(node) => node.uses_only_tests_of(var),
            None => !self.reads_whole_row() && !self.variables().iter().any(|v| v == var),
        }
    }

    /// Evaluates on a row; an error names the row's file and line. Plain
    /// cases take the fast path ([`crate::expr::fast`]); minijinja decides
    /// everything else.
    pub fn eval_row(&self, globals: &Arc<Globals>, row: &Row) -> Result<Value> {
        match self.fast.as_ref().map(|f| f.eval(row)) {
            Some(Ok(v)) => Ok(v),
            Some(Err(crate::expr::fast::Stop::Mismatch { field, why })) => Err(Error::input(
                row.origin.path.to_string(),
                row.origin.line_opt(),
                field,
                format!("in `{}`: {why}", self.text),
            )),
            _ => self.eval_slow(globals, row),
        }
    }

    /// Evaluates on a row with minijinja only.
    pub fn eval_slow(&self, globals: &Arc<Globals>, row: &Row) -> Result<Value> {
        shielded(|| self.compiled.eval(globals.row_context(row))).map_err(|e| {
            spec_mistake(&e, &self.span).unwrap_or_else(|| self.row_error(globals, row, &e))
        })
    }

    /// Evaluates on a prepared context (globals only, or with extras).
    /// An undefined value is an error naming what is missing (`meta.sim.x`
    /// would otherwise print as nothing).
    pub fn eval(&self, ctx: Value) -> Result<Value> {
        let fail = |why: String| Error::msg(format!("cannot evaluate `{}`: {why}", self.text));
        let v = shielded(|| self.compiled.eval(ctx.clone())).map_err(|e| {
            spec_mistake(&e, &self.span).unwrap_or_else(|| fail(why_in(&e, &ctx, None)))
        })?;
        if !v.is_undefined() {
            return Ok(v);
        }
        // Printing an undefined value is an error that names it.
        let printed = format!("{{{{ ({}) }}}}", self.text);
        match shielded(|| environment().render_str(&printed, ctx.clone())) {
            Err(e) if e.kind() != minijinja::ErrorKind::SyntaxError => {
                Err(spec_mistake(&e, &self.span).unwrap_or_else(|| fail(why_in(&e, &ctx, None))))
            }
            _ => Err(fail("the value is undefined".to_string())),
        }
    }

    /// The rows for which the expression is true (a `where` clause).
    pub fn keep(&self, globals: &Arc<Globals>, rows: Vec<Row>) -> Result<Vec<Row>> {
        let mut kept = Vec::with_capacity(rows.len());
        for r in rows {
            if self.test_row(globals, &r)? {
                kept.push(r);
            }
        }
        Ok(kept)
    }

    /// Whether the expression is true for the row.
    pub fn test_row(&self, globals: &Arc<Globals>, row: &Row) -> Result<bool> {
        Ok(self.eval_row(globals, row)?.is_true())
    }

    fn row_error(&self, globals: &Globals, row: &Row, e: &minijinja::Error) -> Error {
        let scope = undefined::Scope {
            row: Some(row),
            table: self.table.as_deref(),
            globals,
            free: None,
        };
        // minijinja names the undefined value (`x` is undefined) only at
        // times; an operation on an undefined value is explained by the
        // first field read that the row lacks.
        let on_undefined = || {
            message(e)
                .contains("undefined")
                .then(|| {
                    self.paths()
                        .iter()
                        .find_map(|p| undefined::explain_read(p, &scope))
                })
                .flatten()
        };
        if let Some(what) = undefined::explain(e, &scope).or_else(on_undefined) {
            let hint = field_hint(self.text, row, &what);
            return Error::input(
                row.origin.path.to_string(),
                row.origin.line_opt(),
                None,
                format!("cannot evaluate `{}`: {what}{hint}", self.text),
            );
        }
        // Name the values the expression read: `tokens = 0` explains
        // "unable to calculate 7.2 / 0" at once.
        let mut seen = Vec::new();
        for p in self.paths() {
            if seen.len() == 4 {
                break;
            }
            let (p, v) = read_path(row, p);
            let shown = match v {
                Some(v) if v.kind() == minijinja::value::ValueKind::Map => continue,
                Some(v) if v.kind() == minijinja::value::ValueKind::Seq => continue,
                Some(v) => crate::value::show(&v),
                None => "missing".to_string(),
            };
            let entry = format!("{p} = {shown}");
            if !seen.contains(&entry) {
                seen.push(entry);
            }
        }
        let values = if seen.is_empty() {
            String::new()
        } else {
            format!(" (where {})", seen.join(", "))
        };
        Error::input(
            row.origin.path.to_string(),
            row.origin.line_opt(),
            None,
            format!(
                "cannot evaluate `{}`: {}{values}{}",
                self.text,
                message(e),
                field_hint(self.text, row, "")
            ),
        )
    }
}

/// The value a dotted path reads, with the part of the path read: a path
/// through a value that is no record is a method call on it (`fmt.format`
/// reads `fmt`), not a missing field.
fn read_path<'p>(row: &Row, path: &'p str) -> (&'p str, Option<Value>) {
    let mut parts = path.split('.');
    let Some(mut cur) = parts.next().and_then(|p| row.get(p)).cloned() else {
        return (path, None);
    };
    let mut end = path.find('.').unwrap_or(path.len());
    for p in parts {
        let Some(rec) = crate::value::as_record(&cur) else {
            if cur.kind() == minijinja::value::ValueKind::Map {
                return (path, None);
            }
            return (&path[..end], Some(cur));
        };
        let Some(next) = rec.get(p).cloned() else {
            return (path, None);
        };
        cur = next;
        end += 1 + p.len();
    }
    (path, Some(cur))
}

/// The value at a dotted path of a row (`m.ratio`), if present.
pub fn lookup_path(row: &Row, path: &str) -> Option<Value> {
    let mut parts = path.split('.');
    let mut cur = row.get(parts.next()?)?.clone();
    for p in parts {
        cur = crate::value::as_record(&cur)?.get(p)?.clone();
    }
    Some(cur)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::path::Path;

    /// An empty spec (for compiling expressions in tests).
    pub(crate) fn spec() -> LoadedSpec {
        crate::spec::parse("", Path::new("artifact.toml")).unwrap()
    }

    /// A row of `f.jsonl`, line 7, from a JSON object.
    pub(crate) fn row(json: &str) -> Row {
        let v = crate::sources::json::parse(json.as_bytes()).unwrap();
        let rec = crate::value::as_record(&v).unwrap().clone();
        Row {
            extra: Default::default(),
            fields: Arc::new(rec),
            origin: Origin::line("f.jsonl".into(), 7),
        }
    }

    /// `expr` evaluated on the row `json`.
    pub(crate) fn eval(expr: &str, json: &str) -> Result<Value> {
        let s = spec();
        let e = Expr::compile_str(&s, expr, 0..0)?;
        e.eval_row(&Arc::new(Globals::default()), &row(json))
    }

    #[test]
    fn or_returns_the_operand_for_fallback_chains() {
        let v = eval("ceiling_ratio or R_marginal", r#"{"R_marginal": 1.5}"#).unwrap();
        assert_eq!(v, Value::from(1.5));
    }

    #[test]
    fn deep_access_through_a_missing_field_is_an_error_naming_the_row() {
        let e = eval("remote.wait", r#"{"a": 1}"#).unwrap_err().to_string();
        assert_eq!(
            e,
            "f.jsonl:7: cannot evaluate `remote.wait`: no field `remote` (fields: a)"
        );
    }

    #[test]
    fn source_of_a_row_is_visible() {
        let v = eval("_source.path | dirname | basename", r#"{"a": 1}"#).unwrap();
        assert_eq!(v.as_str(), Some(""));
        let v = eval("_source.line", r#"{"a": 1}"#).unwrap();
        assert_eq!(v, Value::from(7));
    }

    #[test]
    fn a_method_call_is_a_read_of_what_it_is_called_on() {
        let s = spec();
        let paths = |t: &str| Expr::compile_str(&s, t, 0..0).unwrap().paths().to_vec();
        assert_eq!(paths("codec.split(':')[0] == 'x'"), vec!["codec"]);
        assert_eq!(paths("a.b.get('x') > 1"), vec!["a.b"]);
        assert_eq!(paths("range(3) | list | length > x"), vec!["x"]);
        let vars = |t: &str| Expr::compile_str(&s, t, 0..0).unwrap().variables();
        assert_eq!(vars("codec.split(':')[0] == 'x'"), vec!["codec"]);
        assert_eq!(vars("_['m'].items() | list"), vec!["m"]);
    }

    #[test]
    fn the_values_named_in_an_error_are_no_functions_or_methods() {
        let e = eval("(range(3) | list | length) / x > 1", r#"{"x": 0}"#);
        assert_eq!(
            e.unwrap_err().to_string(),
            "f.jsonl:7: cannot evaluate `(range(3) | list | length) / x > 1`: invalid operation: unable to calculate 3 / 0 (where x = 0)"
        );
        let e = eval("s.splitlines() / 2 > 1", r#"{"s": "ab"}"#);
        assert_eq!(
            e.unwrap_err().to_string(),
            "f.jsonl:7: cannot evaluate `s.splitlines() / 2 > 1`: invalid operation: tried to use / operator on unsupported types sequence and number (where s = \"ab\")"
        );
    }

    #[test]
    fn an_operation_on_an_undefined_field_names_the_field() {
        // minijinja does not always name the undefined operand.
        let s = spec();
        let e = Expr::compile_str(&s, "m.ratio * throughput", 0..0)
            .unwrap()
            .in_table("runs");
        let err = minijinja::Error::new(
            minijinja::ErrorKind::InvalidOperation,
            "tried to use * operator on unsupported types number and undefined",
        );
        let r = row(r#"{"thruput": 1, "m": {"ratio": 2}}"#);
        assert_eq!(
            e.row_error(&Globals::default(), &r, &err).to_string(),
            "f.jsonl:7: cannot evaluate `m.ratio * throughput`: no field `throughput` in table `runs` (fields: thruput, m); did you mean `thruput`?"
        );
    }

    #[test]
    fn syntax_error_is_a_spec_error() {
        let s = spec();
        let e = Expr::compile_str(&s, "a ==", 0..4).unwrap_err();
        assert!(matches!(e, Error::Spec { .. }));
    }
}
