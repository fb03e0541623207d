//! Encoding channels, compiled: how a layer maps a row to a position, a
//! colour, a size. The figures evaluate them on rows (and fit their scales
//! to the data); everything here is worked out from the spec alone.
//!
//! A channel is written as
//! - a number: a constant (`x = 0`, `size = 14`);
//! - a string: an expression over the row for position and numeric channels
//!   (`y = "H_byte1 + H_byte0"`), or a constant for style channels
//!   (`color = "#1f77b4"`, `shape = "circle"`, `stroke = "none"`);
//! - `{ expr = "..." }`: an expression for any channel (`stroke = { expr =
//!   "'black' if on_front else 'none'" }`);
//! - `{ field = "class", scale = { domain = [...], range = [...] } }`: a
//!   categorical scale (Vega-Lite's words) from the field's values to colours
//!   or shapes; without a domain, values take the range in first-seen order.
//!   A colour scale may name a `scheme` instead of a range; a continuous
//!   scheme (or `type = "quantitative"`) maps numbers to a gradient (see
//!   [`crate::color::scheme`] for the rule and the names).

use std::ops::Range;

use crate::color::scheme::{self as schemes, Continuous};
use crate::error::Result;
use crate::expr::Expr;
use crate::spec::{LoadedSpec, Raw};
use crate::value::Value;

/// A compiled channel.
#[derive(Debug)]
pub enum Chan<'s> {
    /// The same value for every row.
    Const(Value),
    /// An expression per row.
    Expr(Expr<'s>),
    /// A categorical scale: the expression's value picks from `range`.
    Scale {
        /// The key expression.
        expr: Expr<'s>,
        /// Keys in the order written; keys not listed are appended as seen.
        domain: Vec<String>,
        /// Output values, cycled.
        range: Vec<String>,
        /// Keys also get hatch patterns (the `greys` scheme).
        hatch: bool,
    },
    /// A quantitative colour scale: the expression's number picks a colour
    /// from a gradient.
    Continuous {
        /// The value expression.
        expr: Expr<'s>,
        /// Scheme, fixed domain, centre.
        scale: Continuous,
        /// The colour bar's title (default: the field).
        title: Option<String>,
    },
}

/// Whether a bare string is an expression (position and numeric channels)
/// or a constant (style channels).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Strings are expressions.
    Data,
    /// Strings are constants.
    Style,
}

/// The shapes a `shape` channel names, in the order a shape scale without
/// a `range` cycles them.
pub const SHAPES: [&str; 4] = ["circle", "square", "triangle", "diamond"];

/// Marker shapes for points and line markers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `o`
    Circle,
    /// `s`
    Square,
    /// `^`
    Triangle,
    /// `D`
    Diamond,
}

impl Shape {
    /// Parses a shape name or matplotlib's marker letter.
    pub fn parse(s: &str) -> Option<Shape> {
        Some(match s {
            "circle" | "o" => Shape::Circle,
            "square" | "s" => Shape::Square,
            "triangle" | "triangle-up" | "^" => Shape::Triangle,
            "diamond" | "D" | "d" => Shape::Diamond,
            _ => return None,
        })
    }
}

/// Marks drawn by their stroke (lines, markers): light greys would vanish.
const STROKED: &[&str] = &["line", "point", "rule", "errorbar", "ecdf", "text"];

fn string_list(
    spec: &LoadedSpec,
    raw: &Raw,
    v: Option<&toml::Value>,
    what: &str,
) -> Result<Vec<String>> {
    match v {
        None => Ok(Vec::new()),
        Some(toml::Value::Array(a)) => a
            .iter()
            .map(|x| match x {
                toml::Value::String(s) => Ok(s.clone()),
                toml::Value::Integer(i) => Ok(i.to_string()),
                toml::Value::Float(f) => Ok(f.to_string()),
                toml::Value::Boolean(b) => Ok(b.to_string()),
                _ => Err(spec.error(raw.span(), format!("`{what}` holds strings or numbers"))),
            })
            .collect(),
        Some(_) => Err(spec.error(raw.span(), format!("`{what}` is a list"))),
    }
}

/// The parts of a channel table's `scale` the compile reads.
struct ScaleOpts<'t> {
    scale: Option<&'t toml::Table>,
    scheme: Option<&'t str>,
    ty: Option<&'t str>,
    title: Option<String>,
}

impl<'t> ScaleOpts<'t> {
    fn get(&self, k: &str) -> Option<&'t toml::Value> {
        self.scale.and_then(|sc| sc.get(k))
    }
}

impl<'s> Chan<'s> {
    /// Compiles a channel; `default_range` is the range of a scale without one.
    pub fn compile(
        spec: &LoadedSpec,
        raw: &'s Raw,
        kind: Kind,
        default_range: &[&str],
    ) -> Result<Chan<'s>> {
        let range: Vec<String> = default_range.iter().map(|s| s.to_string()).collect();
        Self::compile_scaled(spec, raw, kind, (&range, false), false)
    }

    /// Compiles a channel whose scale without a range or scheme takes
    /// `default.0` (hatched when `default.1`); `color` allows schemes and
    /// quantitative scales.
    pub fn compile_scaled(
        spec: &LoadedSpec,
        raw: &'s Raw,
        kind: Kind,
        default: (&[String], bool),
        color: bool,
    ) -> Result<Chan<'s>> {
        let span = raw.span();
        Ok(match raw.get_ref() {
            toml::Value::Integer(i) => Chan::Const(Value::from(*i)),
            toml::Value::Float(f) => Chan::Const(Value::from(*f)),
            toml::Value::Boolean(b) => Chan::Const(Value::from(*b)),
            toml::Value::String(s) => match kind {
                Kind::Data => Chan::Expr(Expr::compile_str(spec, s, span)?),
                Kind::Style => Chan::Const(Value::from(s.as_str())),
            },
            toml::Value::Table(t) => return Self::table(spec, raw, t, default, color),
            _ => return Err(spec.error(span, "a channel is a number, a string or a table")),
        })
    }

    /// A channel written as a table: `value`, `expr`, or `field` with a scale.
    fn table(
        spec: &LoadedSpec,
        raw: &'s Raw,
        t: &'s toml::Table,
        default: (&[String], bool),
        color: bool,
    ) -> Result<Chan<'s>> {
        let span = raw.span();
        let accepted = crate::spec::schema::kind("channel").keys_of(None);
        if let Some(bad) = t.keys().find(|k| !accepted.contains(&k.as_str())) {
            return Err(spec.error(
                span,
                format!("unknown channel key `{bad}` ({})", accepted.join(", ")),
            ));
        }
        if let Some(v) = t.get("value") {
            return Ok(Chan::Const(crate::value::toml_to_value(v)));
        }
        if let Some(toml::Value::String(e)) = t.get("expr") {
            return Ok(Chan::Expr(Expr::compile_str(spec, e, span)?));
        }
        let Some(toml::Value::String(field)) = t.get("field") else {
            return Err(spec.error(span, "a channel table needs `expr`, `field` or `value`"));
        };
        let expr = Expr::compile_str(spec, field, span.clone())?;
        let opts = scale_opts(spec, span.clone(), t, color)?;
        let quantitative = match opts.ty {
            Some("quantitative") => true,
            Some(_) => false,
            None => opts
                .scheme
                .is_some_and(|s| schemes::categorical(s).is_none()),
        };
        if quantitative {
            return quantitative_scale(spec, span, expr, opts);
        }
        categorical_scale(spec, raw, expr, opts, default)
    }

    /// Names the table the channel's expression reads, for messages.
    pub fn set_table(&mut self, table: &str) {
        match self {
            Chan::Expr(e) | Chan::Scale { expr: e, .. } | Chan::Continuous { expr: e, .. } => {
                e.set_table(table)
            }
            Chan::Const(_) => {}
        }
    }

    /// The key expression of a scale.
    pub fn scale_expr(&self) -> Option<&Expr<'s>> {
        match self {
            Chan::Scale { expr, .. } => Some(expr),
            _ => None,
        }
    }

    /// The `greys` scheme on a mark drawn by its stroke: middle to dark
    /// greys (the filled marks' light greys, made for black hatches, would
    /// be near white on a line), and no hatches.
    pub fn darker_greys_for_strokes(&mut self, mark: &str) {
        let greys = schemes::categorical("greys").map(|g| g.0);
        if let Chan::Scale { range, hatch, .. } = self
            && greys.as_ref() == Some(range)
            && STROKED.contains(&mark)
        {
            *range = [0.55, 0.7, 0.85, 1.0]
                .iter()
                .map(|t| schemes::hex(colorous::GREYS.eval_continuous(*t)))
                .collect();
            *hatch = false;
        }
    }
}

/// Reads and checks a channel table's `scale`, `type` and `title`.
fn scale_opts<'t>(
    spec: &LoadedSpec,
    span: Range<usize>,
    t: &'t toml::Table,
    color: bool,
) -> Result<ScaleOpts<'t>> {
    let scale = match t.get("scale") {
        None => None,
        Some(toml::Value::Table(sc)) => {
            let accepted = crate::spec::schema::kind("scale").keys_of(None);
            if let Some(bad) = sc.keys().find(|k| !accepted.contains(&k.as_str())) {
                return Err(spec.error(
                    span,
                    format!("unknown scale key `{bad}` ({})", accepted.join(", ")),
                ));
            }
            Some(sc)
        }
        Some(_) => return Err(spec.error(span, "`scale` is a table { domain, range }")),
    };
    let mut opts = ScaleOpts {
        scale,
        scheme: None,
        ty: None,
        title: None,
    };
    opts.scheme = match opts.get("scheme") {
        None => None,
        Some(toml::Value::String(s)) => Some(s.as_str()),
        Some(_) => {
            return Err(spec.error(span, "`scheme` is a name (\"viridis\", \"okabe-ito\", ...)"));
        }
    };
    opts.ty = match t.get("type") {
        None => None,
        Some(toml::Value::String(s))
            if ["quantitative", "nominal", "ordinal"].contains(&s.as_str()) =>
        {
            Some(s.as_str())
        }
        Some(_) => {
            return Err(spec.error(
                span,
                "`type` is \"quantitative\", \"nominal\" or \"ordinal\"",
            ));
        }
    };
    if !color && (opts.scheme.is_some() || opts.ty.is_some() || opts.get("domainMid").is_some()) {
        return Err(spec.error(
            span,
            "a `scheme`, `type` or `domainMid` is for a colour scale (`color`)",
        ));
    }
    match opts.get("hatch") {
        None | Some(toml::Value::Boolean(_)) if color => {}
        None => {}
        Some(toml::Value::Boolean(_)) => {
            return Err(spec.error(span, "`hatch` is for a colour scale (`color`)"));
        }
        Some(_) => return Err(spec.error(span, "`hatch` is true or false")),
    }
    if let Some(s) = opts.scheme
        && schemes::categorical(s).is_none()
        && schemes::gradient(s).is_none()
    {
        let hint = schemes::nearest(s).map_or(String::new(), |n| format!("; did you mean `{n}`?"));
        return Err(spec.error(
            span,
            format!(
                "unknown scheme `{}` (categorical: {}; continuous: {}){hint}",
                crate::error::shown(s),
                schemes::CATEGORICAL.join(", "),
                schemes::CONTINUOUS.join(", ")
            ),
        ));
    }
    if opts.scheme.is_some() && opts.get("range").is_some() {
        return Err(spec.error(span, "a scale takes `scheme` or `range`, not both"));
    }
    opts.title = match t.get("title") {
        None => None,
        Some(toml::Value::String(s)) => Some(s.clone()),
        Some(_) => return Err(spec.error(span, "`title` is a string")),
    };
    Ok(opts)
}

/// A quantitative colour scale: a continuous scheme, a fixed domain or
/// none, a centre.
fn quantitative_scale<'s>(
    spec: &LoadedSpec,
    span: Range<usize>,
    expr: Expr<'s>,
    opts: ScaleOpts,
) -> Result<Chan<'s>> {
    let scheme = opts.scheme.unwrap_or("viridis");
    if opts.get("hatch").is_some() {
        return Err(spec.error(
            span,
            "`hatch` gives each key of a categorical scale a pattern; a quantitative scale has no keys",
        ));
    }
    if opts.get("range").is_some() {
        return Err(spec.error(
            span,
            "a quantitative colour scale takes a `scheme`, not a `range`",
        ));
    }
    let num = |v: &toml::Value| match v {
        toml::Value::Integer(i) => Some(*i as f64),
        toml::Value::Float(f) if f.is_finite() => Some(*f),
        _ => None,
    };
    const DOMAIN: &str =
        "a quantitative scale's `domain` is [low, high], two numbers, low below high";
    let fixed = match opts.get("domain") {
        None => None,
        Some(toml::Value::Array(a)) if a.len() == 2 => match (num(&a[0]), num(&a[1])) {
            (Some(lo), Some(hi)) if lo < hi => Some((lo, hi)),
            _ => return Err(spec.error(span, DOMAIN)),
        },
        Some(_) => return Err(spec.error(span, DOMAIN)),
    };
    let mid = match opts.get("domainMid") {
        None => None,
        Some(v) => Some(num(v).ok_or_else(|| spec.error(span.clone(), "`domainMid` is a number"))?),
    };
    if let (Some(m), Some((lo, hi))) = (mid, fixed)
        && !(lo < m && m < hi)
    {
        return Err(spec.error(
            span,
            format!("`domainMid` {m} is not inside the domain [{lo}, {hi}]"),
        ));
    }
    let scale = Continuous::new(scheme, fixed, mid).ok_or_else(|| {
        spec.error(
            span.clone(),
            format!(
                "`{scheme}` is a categorical scheme; a quantitative scale takes a continuous one ({})",
                schemes::CONTINUOUS.join(", ")
            ),
        )
    })?;
    Ok(Chan::Continuous {
        expr,
        scale,
        title: opts.title,
    })
}

/// A categorical scale: a categorical scheme, the user's `range`, or the
/// default range.
fn categorical_scale<'s>(
    spec: &LoadedSpec,
    raw: &Raw,
    expr: Expr<'s>,
    opts: ScaleOpts,
    default: (&[String], bool),
) -> Result<Chan<'s>> {
    let span = raw.span();
    if let Some(s) = opts.scheme
        && schemes::categorical(s).is_none()
    {
        return Err(spec.error(
            span,
            format!(
                "`{s}` is a continuous scheme; a {} scale takes a categorical one ({})",
                opts.ty.unwrap_or("nominal"),
                schemes::CATEGORICAL.join(", ")
            ),
        ));
    }
    if opts.get("domainMid").is_some() {
        return Err(spec.error(span, "`domainMid` centres a quantitative colour scale; this one is categorical (give `type = \"quantitative\"` or a continuous `scheme`)"));
    }
    if opts.title.is_some() {
        return Err(spec.error(span, "`title` names a quantitative colour scale's colour bar; a categorical scale's keys are its legend"));
    }
    let domain = string_list(spec, raw, opts.get("domain"), "domain")?;
    let range = string_list(spec, raw, opts.get("range"), "range")?;
    let (range, hatch) = match opts.scheme {
        Some(s) => schemes::categorical(s).expect("checked above"),
        None if range.is_empty() => (default.0.to_vec(), default.1),
        None => (range, false),
    };
    let hatch = match opts.get("hatch") {
        Some(toml::Value::Boolean(b)) => *b,
        _ => hatch,
    };
    Ok(Chan::Scale {
        expr,
        domain,
        range,
        hatch,
    })
}

/// Whether a `color` channel as written takes the figure's `scheme`: a
/// scale over a field without its own `range` or `scheme`, not quantitative.
pub fn takes_figure_scheme(raw: &toml::Value) -> bool {
    let Some(t) = raw.as_table() else {
        return false;
    };
    let own = t
        .get("scale")
        .and_then(|s| s.as_table())
        .is_some_and(|s| s.contains_key("range") || s.contains_key("scheme"));
    t.contains_key("field")
        && !own
        && t.get("type").and_then(|v| v.as_str()) != Some("quantitative")
}

/// A scale's range is the spec's own: an unknown colour or shape in it is
/// the spec's mistake, not the row's that happens to pick it. Checks the
/// `scale.range` of `raw` (a `color` or `stroke` channel, or a `shape`
/// channel when `shape`).
pub fn check_range(spec: &LoadedSpec, raw: &Raw, shape: bool) -> Result<()> {
    let Some(toml::Value::Array(range)) = raw.get_ref().get("scale").and_then(|sc| sc.get("range"))
    else {
        return Ok(());
    };
    for (i, entry) in range.iter().enumerate() {
        let text = match entry {
            toml::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let problem = if shape {
            Shape::parse(&text)
                .is_none()
                .then(|| format!("unknown shape `{text}` (circle, square, triangle, diamond)"))
        } else {
            crate::color::parse(&text).err()
        };
        if let Some(problem) = problem {
            let at = range_entry_span(spec, raw.span(), i).unwrap_or(raw.span());
            return Err(spec.error(at, problem));
        }
    }
    Ok(())
}

/// The span of entry `i` of the `scale.range` of the channel table at
/// `chan` in the spec's text (the parsed spec keeps no spans inside it).
fn range_entry_span(spec: &LoadedSpec, chan: Range<usize>, i: usize) -> Option<Range<usize>> {
    use toml::de::{DeTable, DeValue};
    const PREFIX: &str = "x = ";
    let doc = format!("{PREFIX}{}", spec.text.get(chan.clone())?);
    let doc = DeTable::parse(&doc).ok()?;
    let DeValue::Table(t) = doc.get_ref().get("x")?.get_ref() else {
        return None;
    };
    let DeValue::Table(scale) = t.get("scale")?.get_ref() else {
        return None;
    };
    let DeValue::Array(range) = scale.get("range")?.get_ref() else {
        return None;
    };
    let at = range.get(i)?.span();
    let start = at.start.checked_sub(PREFIX.len())? + chan.start;
    Some(start..start + at.len())
}
