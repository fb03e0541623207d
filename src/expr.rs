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
//!   file's metadata.
//!
//! A row field shadows those names. Undefined behaviour is minijinja's
//! `SemiStrict`, chosen deliberately: a missing field is `undefined` and
//! falsy (so `a or b` fallback chains and `x is defined` work), but printing
//! it, iterating it or reading an attribute of it is an error, so a typo in a
//! template or a deep field path fails loudly instead of printing nothing.
//! `x is none` is true for a missing field as well as a null (Python's
//! `r.get("x") is None`), and `x is finite` tests for a finite number. Stages
//! that need a finite number check for it and name the row.

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use minijinja::value::{Enumerator, Object, ObjectRepr};
use minijinja::{Environment, Expression, UndefinedBehavior};

use crate::error::{Error, Result};
use crate::spec::{LoadedSpec, SpannedStr};
use crate::value::{Origin, Record, Row, Value};

pub mod depth;
mod source;

pub use source::several_documents;
use source::{SourceObj, spec_mistake, unreadable_of};

/// The error for a text nested beyond [`depth::MAX_DEPTH`] (after
/// `invalid expression: ` or `invalid template: `).
fn too_deep() -> String {
    format!(
        "nested deeper than {} levels (each operator of a chain such as `a and b and c` is one level)",
        depth::MAX_DEPTH
    )
}

/// The template syntax every environment here uses: a trailing newline is
/// kept, block tags do not leave blank lines.
pub fn syntax() -> minijinja::syntax::SyntaxConfig {
    minijinja::syntax::SyntaxConfig::builder()
        .keep_trailing_newline(true)
        .trim_blocks(true)
        .lstrip_blocks(true)
        .build()
        .expect("valid syntax config")
}

/// The steps (minijinja's "fuel") one evaluation of an expression or one
/// render of a template may take: a spec expression or title is tiny, so a
/// runaway one (nested huge ranges, say) fails at once instead of running
/// for minutes.
pub const FUEL: u64 = 200_000;

/// The limits every template environment of artifact shares: at most
/// `fuel` steps per evaluation or render, and no `namespace()`.
pub fn limit(env: &mut Environment<'_>, fuel: u64) {
    env.set_fuel(Some(fuel));
    // `namespace()` is the one mutable value: with it a loop nests a list
    // 100,000 deep, whose printing or dropping overflows the stack. Titles,
    // labels and macro templates have no use for it.
    env.remove_global("namespace");
}

fn environment() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::SemiStrict);
        env.set_syntax(syntax());
        limit(&mut env, FUEL);
        // Python's str and dict methods (`codec.split(':')[0]`,
        // `name.startswith('BM_')`, `d.get('k', 0)`): researchers write
        // their filters as they would in pandas.
        env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
        // `x is none` is true for a missing field too, as Python's
        // `r.get("x") is None` is: the seed scripts' idiom for "absent".
        env.add_test("none", |v: Value| v.is_none() || v.is_undefined());
        env.add_test("finite", |v: Value| {
            crate::value::as_number(&v).is_some_and(f64::is_finite)
        });
        // `x | fmt(places=1, sign="always")`: number formatting in siunitx's
        // terms, the same code that prints numbers for the macros.
        env.add_filter(
            "fmt",
            |v: Value, kwargs: minijinja::value::Kwargs| -> Result<String, minijinja::Error> {
                let places: Option<u32> = kwargs.get("places")?;
                let figures: Option<u32> = kwargs.get("figures")?;
                let sign: Option<String> = kwargs.get("sign")?;
                let percent: Option<bool> = kwargs.get("percent")?;
                let unit: Option<String> = kwargs.get("unit")?;
                kwargs.assert_all_used()?;
                // The spec's bounds: `places = 4000000000` would allocate gigabytes.
                use crate::spec::bounds::{FIGURES, PLACES};
                for (what, v, range) in [("places", places, PLACES), ("figures", figures, FIGURES)]
                {
                    if let Some(v) = v.filter(|v| !range.contains(v)) {
                        return Err(minijinja::Error::new(
                            minijinja::ErrorKind::InvalidOperation,
                            format!(
                                "fmt: `{what}` must be between {} and {}, got {v}",
                                range.start(),
                                range.end()
                            ),
                        ));
                    }
                }
                if crate::value::as_number(&v).is_none() {
                    return Err(minijinja::Error::new(
                        minijinja::ErrorKind::InvalidOperation,
                        format!("fmt needs a number, got {}", crate::value::describe(&v)),
                    ));
                }
                let f = crate::numbers::format::Format::new(
                    places,
                    figures,
                    sign.as_deref() == Some("always"),
                    percent.unwrap_or(false),
                    unit,
                );
                Ok(f.apply(&v))
            },
        );
        for (name, f) in [
            ("log", f64::ln as fn(f64) -> f64),
            ("log10", f64::log10),
            ("log1p", f64::ln_1p),
            ("sqrt", f64::sqrt),
            ("exp", f64::exp),
        ] {
            env.add_function(name, move |x: f64| f(x));
        }
        env.add_function("max", |a: Value, b: Value| {
            if crate::value::compare(&a, &b).is_ge() {
                a
            } else {
                b
            }
        });
        env.add_function("min", |a: Value, b: Value| {
            if crate::value::compare(&a, &b).is_le() {
                a
            } else {
                b
            }
        });
        env.add_filter("basename", |s: String| -> String {
            std::path::Path::new(&s)
                .file_name()
                .map(|x| x.to_string_lossy().into_owned())
                .unwrap_or_default()
        });
        env.add_filter("dirname", |s: String| -> String {
            std::path::Path::new(&s)
                .parent()
                .map(|x| x.to_string_lossy().into_owned())
                .unwrap_or_default()
        });
        env
    })
}

/// The numbers and document metadata every expression and template can read.
#[derive(Debug, Clone, Default)]
pub struct Globals {
    /// `n`: key -> printed text.
    pub n: Record,
    /// `v`: key -> full-precision value.
    pub v: Record,
    /// `meta`: source name -> document metadata.
    pub meta: Record,
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
            "meta" => Some(Value::from_object(self.globals.meta.clone())),
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
    fast: Option<crate::fastexpr::Node>,
    /// The expression as written.
    pub text: &'s str,
    /// Its span in the spec.
    pub span: Range<usize>,
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
                compiled,
                fast: crate::fastexpr::compile(text),
                text,
                span,
            }),
            Err(e) => Err(spec.error(span, format!("invalid expression: {}", message(&e)))),
        }
    }

    /// The expression in the fast subset ([`crate::fastexpr`]), if it is in it.
    pub fn fast(&self) -> Option<&crate::fastexpr::Node> {
        self.fast.as_ref()
    }

    /// The top-level names the expression reads (for projection and checks).
    pub fn variables(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .compiled
            .undeclared_variables(false)
            .into_iter()
            .collect();
        v.sort();
        v
    }

    /// The variable paths the expression reads (`m.ratio`, `H_byte1`),
    /// without the globals (`n`, `v`, `meta`, `_source`).
    pub fn paths(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .compiled
            .undeclared_variables(true)
            .into_iter()
            .filter(|p| {
                let head = p.split('.').next().unwrap_or("");
                !["n", "v", "meta", "_source", "loop"].contains(&head)
            })
            .collect();
        v.sort();
        v
    }

    /// Whether the expression reads variable `var` only through attributes
    /// or type tests (`m.ratio`, `m is mapping`); false when unsure.
    pub fn uses_only_attrs_of(&self, var: &str) -> bool {
        match &self.fast {
            Some(node) => node.uses_only_attrs_of(var),
            None => !self.variables().iter().any(|v| v == var),
        }
    }

    /// Whether the expression reads variable `var` only through type tests
    /// (`methods is mapping`); false when unsure.
    pub fn uses_only_tests_of(&self, var: &str) -> bool {
        match &self.fast {
            Some(node) => node.uses_only_tests_of(var),
            None => !self.variables().iter().any(|v| v == var),
        }
    }

    /// Evaluates on a row; an error names the row's file and line. Plain
    /// cases take the fast path ([`crate::fastexpr`]); minijinja decides
    /// everything else.
    pub fn eval_row(&self, globals: &Arc<Globals>, row: &Row) -> Result<Value> {
        match self.fast.as_ref().map(|f| f.eval(row)) {
            Some(Ok(v)) => Ok(v),
            Some(Err(crate::fastexpr::Stop::Mismatch { field, why })) => Err(Error::input(
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
        self.compiled
            .eval(globals.row_context(row))
            .map_err(|e| spec_mistake(&e, &self.span).unwrap_or_else(|| self.row_error(row, &e)))
    }

    /// Evaluates on a prepared context (globals only, or with extras).
    pub fn eval(&self, ctx: Value) -> Result<Value> {
        self.compiled.eval(ctx).map_err(|e| {
            spec_mistake(&e, &self.span).unwrap_or_else(|| {
                Error::msg(format!("cannot evaluate `{}`: {}", self.text, message(&e)))
            })
        })
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

    fn row_error(&self, row: &Row, e: &minijinja::Error) -> Error {
        // Name the values the expression read: `tokens = 0` explains
        // "unable to calculate 7.2 / 0" at once.
        let mut seen = Vec::new();
        for p in self.paths() {
            if seen.len() == 4 {
                break;
            }
            let shown = match lookup_path(row, &p) {
                Some(v) if v.kind() == minijinja::value::ValueKind::Map => continue,
                Some(v) if v.kind() == minijinja::value::ValueKind::Seq => continue,
                Some(v) => crate::value::show(&v),
                None => "missing".to_string(),
            };
            seen.push(format!("{p} = {shown}"));
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
            format!("cannot evaluate `{}`: {}{values}", self.text, message(e)),
        )
    }
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

/// A compiled template (titles, labels, text marks).
pub struct Template<'s> {
    compiled: minijinja::Template<'s, 's>,
    /// The template as written.
    pub text: &'s str,
    /// Its span in the spec.
    pub span: Range<usize>,
}

impl<'s> Template<'s> {
    /// Compiles `src`; a syntax error points at it in the spec.
    pub fn compile(spec: &LoadedSpec, src: &'s SpannedStr) -> Result<Template<'s>> {
        if depth::template_depth(src.get_ref()) > depth::MAX_DEPTH {
            return Err(spec.error(src.span(), format!("invalid template: {}", too_deep())));
        }
        if let Some(why) = depth::too_long(src.get_ref()) {
            return Err(spec.error(src.span(), format!("invalid template: {why}")));
        }
        match environment().template_from_str(src.get_ref()) {
            Ok(compiled) => Ok(Template {
                compiled,
                text: src.get_ref(),
                span: src.span(),
            }),
            Err(e) => Err(spec.error(src.span(), format!("invalid template: {}", message(&e)))),
        }
    }

    /// Renders with a context; errors point at the template in the spec.
    pub fn render(&self, spec: &LoadedSpec, ctx: Value) -> Result<String> {
        self.compiled.render(ctx).map_err(|e| {
            spec_mistake(&e, &self.span).unwrap_or_else(|| {
                spec.error(self.span.clone(), format!("cannot render: {}", message(&e)))
            })
        })
    }

    /// Renders for one row; an error names the row's file and line.
    pub fn render_row(&self, globals: &Arc<Globals>, row: &Row) -> Result<String> {
        self.compiled.render(globals.row_context(row)).map_err(|e| {
            if let Some(mistake) = spec_mistake(&e, &self.span) {
                return mistake;
            }
            Error::input(
                row.origin.path.to_string(),
                row.origin.line_opt(),
                None,
                format!("cannot render `{}`: {}", self.text, message(&e)),
            )
        })
    }
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
        assert!(
            e.starts_with("f.jsonl:7: cannot evaluate `remote.wait`: undefined value"),
            "{e}"
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
    fn syntax_error_is_a_spec_error() {
        let s = spec();
        let e = Expr::compile_str(&s, "a ==", 0..4).unwrap_err();
        assert!(matches!(e, Error::Spec { .. }));
    }
}
