//! The minijinja environment every spec expression and template is
//! compiled in: its syntax, its limits, and artifact's tests, filters and
//! functions.

use std::sync::OnceLock;

use minijinja::{Environment, UndefinedBehavior};

use crate::value::Value;

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
/// `fuel` steps per evaluation or render, no `namespace()`, and a `format`
/// filter that refuses huge widths and precisions.
pub fn limit(env: &mut Environment<'_>, fuel: u64) {
    env.set_fuel(Some(fuel));
    // minijinja's own allocates a width before charging fuel for it and
    // panics on a precision of 65535.
    env.add_filter("format", super::format::filter);
    // `namespace()` is the one mutable value: with it a loop nests a list
    // 100,000 deep, whose printing or dropping overflows the stack. Titles,
    // labels and macro templates have no use for it.
    env.remove_global("namespace");
}

/// Runs a minijinja evaluation or render, a panic inside it turned into
/// its error: a last safety net, since a guard (see `format.rs`) is the fix
/// for any panic found; the panic hook has printed it already.
pub fn shielded<T>(
    run: impl FnOnce() -> Result<T, minijinja::Error>,
) -> Result<T, minijinja::Error> {
    // Each evaluation has its own state and the environment is not changed
    // by one, so nothing half-updated is seen after the unwind.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(minijinja::Error::new(
            minijinja::ErrorKind::InvalidOperation,
            format!(
                "the template engine failed ({what}); this is a bug of artifact, please report it"
            ),
        ))
    })
}

pub(super) fn environment() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::SemiStrict);
        // minijinja names the undefined expression in its errors only in debug
        // mode, which defaults to the build's: without it a release build says
        // "undefined value" where a debug one names the missing field or number.
        env.set_debug(true);
        env.set_syntax(syntax());
        limit(&mut env, FUEL);
        // Python's str and dict methods (`codec.split(':')[0]`,
        // `name.startswith('BM_')`, `d.get('k', 0)`): researchers write
        // their filters as they would in pandas.
        // `.format()` behind the same guard as the `format` filter.
        env.set_unknown_method_callback(super::format::unknown_method);
        // `x is none` is true for a missing field too, as Python's
        // `r.get("x") is None` is: the seed scripts' idiom for "absent".
        env.add_test("none", |v: Value| crate::value::is_missing(&v));
        // One meaning of missing (`value::is_missing`): a null is no value,
        // as a key the record lacks is, so a JSONL log and its Parquet
        // conversion (a missing key written as null) read alike. minijinja's
        // own `defined` and `default` tell the two apart.
        env.add_test("defined", |v: Value| !crate::value::is_missing(&v));
        env.add_test("undefined", |v: Value| crate::value::is_missing(&v));
        for name in ["default", "d"] {
            env.add_filter(name, default);
        }
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
                let prefix: Option<String> = kwargs.get("prefix")?;
                kwargs.assert_all_used()?;
                use crate::format::prefix::Prefixes;
                let prefix = match prefix.as_deref() {
                    None => None,
                    Some("si") => Some(Prefixes::Si),
                    Some("binary") => Some(Prefixes::Binary),
                    Some(other) => {
                        return Err(minijinja::Error::new(
                            minijinja::ErrorKind::InvalidOperation,
                            format!("fmt: unknown prefix `{other}` (si or binary)"),
                        ));
                    }
                };
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
                if prefix.is_some() && percent == Some(true) {
                    return Err(minijinja::Error::new(
                        minijinja::ErrorKind::InvalidOperation,
                        "fmt: `prefix` does not go with `percent`",
                    ));
                }
                if crate::value::as_number(&v).is_none() {
                    return Err(minijinja::Error::new(
                        minijinja::ErrorKind::InvalidOperation,
                        format!("fmt needs a number, got {}", crate::value::describe(&v)),
                    ));
                }
                let f = crate::format::Format::new(
                    places,
                    figures,
                    sign.as_deref() == Some("always"),
                    percent.unwrap_or(false),
                    unit,
                )
                .with_prefix(prefix);
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
        env.add_function("quantity", quantity);
        env.add_function("max", |a: Value, rest: minijinja::value::Rest<Value>| {
            extreme("max", a, rest.0, std::cmp::Ordering::is_ge)
        });
        env.add_function("min", |a: Value, rest: minijinja::value::Rest<Value>| {
            extreme("min", a, rest.0, std::cmp::Ordering::is_le)
        });
        env.add_function("abs", abs);
        env.add_filter("basename", |s: String| -> String {
            std::path::Path::new(&s)
                .file_name()
                .map(|x| x.to_string_lossy().into_owned())
                .unwrap_or_default()
        });
        env.add_filter("slug", |v: Value| -> Result<String, minijinja::Error> {
            if v.is_undefined() || v.is_none() {
                return Err(minijinja::Error::new(
                    minijinja::ErrorKind::InvalidOperation,
                    "`slug` of a missing or null value: there is no name to make a key of",
                ));
            }
            Ok(match v.as_str() {
                Some(s) => slug(s),
                None => slug(&v.to_string()),
            })
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

/// `x | default(d)` (alias `d`): `d` (default `""`) for a missing or null
/// `x`, else `x`; with `default(d, true)` also for any falsy `x`, as
/// minijinja's (which keeps a null).
fn default(v: Value, other: Option<Value>, lax: Option<bool>) -> Result<Value, minijinja::Error> {
    if crate::value::is_missing(&v) || (lax == Some(true) && !v.is_true()) {
        return Ok(other.unwrap_or_else(|| Value::from("")));
    }
    Ok(v)
}

/// `quantity(text, unit)`: a text such as `6.08ms` read as a number in
/// `unit` (`s`: 0.00608), see [`crate::format::prefix::parse_quantity`];
/// `unit` defaults to none (`quantity('3.5k')` is 3500). A null is null
/// and a number is taken as already in the unit; anything else, or a text
/// that does not read, is an error (the evaluator names the row).
fn quantity(text: Value, unit: Option<String>) -> Result<Value, minijinja::Error> {
    let fail = |why: String| minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, why);
    if text.is_none() {
        return Ok(text);
    }
    if text.kind() == minijinja::value::ValueKind::Number {
        return Ok(text);
    }
    if text.is_undefined() {
        // minijinja's own error, so the evaluator names the missing field.
        return Err(minijinja::Error::from(minijinja::ErrorKind::UndefinedError));
    }
    let Some(s) = text.as_str() else {
        return Err(fail(format!(
            "quantity needs a text such as \"6.08ms\", got {}",
            crate::value::describe(&text)
        )));
    };
    crate::format::prefix::parse_quantity(s, unit.as_deref().unwrap_or(""))
        .map(Value::from)
        .map_err(|why| fail(format!("quantity: {why}")))
}

/// `name` as a key: ASCII letters, digits, `-` and `_` kept (case too);
/// every run of other characters (spaces, brackets, dots, non-ASCII),
/// with any `_` beside it, becomes one `_`; `_` trimmed at both ends.
/// `linux_literal-rg (mmap)` and `linux_literal-rg_(mmap)` give
/// `linux_literal-rg_mmap`. A name of nothing but other characters gives
/// "" (which a number key then refuses).
pub fn slug(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut in_run = false;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '-' {
            out.push(c);
            in_run = false;
        } else if c == '_' {
            // An `_` beside a run joins it: `rg_(mmap)` is `rg_mmap`.
            if !in_run {
                out.push('_');
            }
        } else {
            if !in_run && !out.ends_with('_') {
                out.push('_');
            }
            in_run = true;
        }
    }
    out.trim_matches('_').to_string()
}

/// `max`/`min` of `first` and `rest`: a left fold keeping the value so
/// far while `keep(compare(so_far, next))`, so the first of equal values
/// wins (as Python) and `none` is ordered as by the two-argument form.
fn extreme(
    name: &str,
    first: Value,
    rest: Vec<Value>,
    keep: fn(std::cmp::Ordering) -> bool,
) -> Result<Value, minijinja::Error> {
    if rest.is_empty() {
        return Err(too_few(name));
    }
    Ok(rest.into_iter().fold(first, |acc, v| {
        if keep(crate::value::compare(&acc, &v)) {
            acc
        } else {
            v
        }
    }))
}

/// The error of `max(x)`/`min(x)`: they compare two or more values.
fn too_few(name: &str) -> minijinja::Error {
    minijinja::Error::new(
        minijinja::ErrorKind::MissingArgument,
        format!("{name} needs two or more values, e.g. {name}(a, b, c)"),
    )
}

/// `abs(x)`, as Python's: an integer stays an integer, a float a float;
/// anything else (a string, `none`) is an error naming what it got.
fn abs(v: Value) -> Result<Value, minijinja::Error> {
    if v.is_integer()
        && let Some(i) = v.as_i64()
    {
        return i.checked_abs().map(Value::from).ok_or_else(|| {
            minijinja::Error::new(
                minijinja::ErrorKind::InvalidOperation,
                format!("abs({i}) overflows a 64-bit integer"),
            )
        });
    }
    match crate::value::as_number(&v) {
        Some(x) if v.kind() == minijinja::value::ValueKind::Number => Ok(Value::from(x.abs())),
        _ => Err(minijinja::Error::new(
            minijinja::ErrorKind::InvalidOperation,
            format!("abs needs a number, got {}", crate::value::describe(&v)),
        )),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn slug_keeps_letters_digits_dash_underscore_and_joins_the_rest() {
        use super::slug;
        assert_eq!(slug("linux_literal-rg (mmap)"), "linux_literal-rg_mmap");
        assert_eq!(slug("linux_literal-rg_(mmap)"), "linux_literal-rg_mmap");
        assert_eq!(slug("a__b (c)_ d"), "a__b_c_d");
        assert_eq!(
            slug("ripgrep 14.1.0 (rev e50df40a19)"),
            "ripgrep_14_1_0_rev_e50df40a19"
        );
        assert_eq!(slug("  GNU grep -E  "), "GNU_grep_-E");
        assert_eq!(slug("zstd -3 --long=27"), "zstd_-3_--long_27");
        assert_eq!(slug("Größe/µs"), "Gr_e_s");
        assert_eq!(slug("_a_"), "a");
        assert_eq!(slug("()"), "");
        assert_eq!(slug(""), "");
    }

    #[test]
    fn a_panic_inside_minijinja_is_an_error_not_exit_101() {
        let e = super::shielded(|| -> Result<(), minijinja::Error> { panic!("ndigits > 0") })
            .unwrap_err();
        assert_eq!(
            e.detail(),
            Some(
                "the template engine failed (ndigits > 0); this is a bug of artifact, please report it"
            )
        );
    }
}
