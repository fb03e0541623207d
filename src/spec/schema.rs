//! What each part of `artifact.toml` accepts, declared once.
//!
//! Every table of the spec is of one [`Kind`] (a source, a step, a layer,
//! ...). A kind lists its keys, each with its type, default and a one-line
//! doc; a kind with variants (a layer's `mark`, a step's verb, an
//! aggregate's operation) says which keys each variant reads. From this one
//! declaration:
//! - `spec::keys` checks a spec before serde reads it: an unknown key, or a
//!   key its variant does not read, is an error at its line and column that
//!   lists the accepted keys and suggests the nearest;
//! - `spec::schema_out` prints the JSON Schema (`artifact schema`) and the
//!   key tables of `docs/spec.md` (`artifact schema --markdown`).
//!
//! A key declared here must be read by the code of every variant it applies
//! to: adding a key is one [`key`] line in its kind's list
//! (`spec::schema_kinds`, with `.only(..)` when only some variants read
//! it), beside its field in the serde struct (a test checks that both name
//! the same keys); then `ARTIFACT_BLESS=1 cargo test --test spec_doc`
//! rewrites the reference in `docs/spec.md`.

/// The type of a key's value (for the JSON Schema and the reference).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ty {
    /// A string.
    Str,
    /// An expression over a row (a string).
    Expr,
    /// A minijinja template (a string).
    Template,
    /// A mark's text: a template, or `{ field, format }` (a field printed
    /// in a number's format).
    Text,
    /// `true` or `false`.
    Bool,
    /// A whole number.
    Int,
    /// A number.
    Num,
    /// One of these strings.
    Enum(&'static [&'static str]),
    /// A string or a list of strings.
    Strs,
    /// A list of strings.
    StrList,
    /// A list of values.
    Values,
    /// A number or an expression.
    NumOrExpr,
    /// A byte count or a size (`"256 MiB"`).
    Size,
    /// A length: a number of TeX points or a string with a unit (`"3.33in"`).
    Length,
    /// Two values of this type.
    Pair(&'static Ty),
    /// A number, a string, or a channel table.
    Channel,
    /// `"count"` or an aggregate table.
    Aggregate,
    /// An aggregate, or an `interval` table (`{ low = AGG, high = AGG }`).
    Uncertainty,
    /// A table of this kind.
    Table(&'static str),
    /// A list of tables of this kind.
    List(&'static str),
    /// A table of tables of this kind, by the user's names.
    Names(&'static str),
    /// A table of expressions, by the new fields' names.
    NamedExprs,
    /// A table of colours, by the values they colour.
    NamedColors,
    /// A table of aggregates, by the output fields' names.
    NamedAggregates,
    /// A table of window operations (a string or a `window_op` table), by
    /// the output fields' names.
    NamedWindowOps,
    /// Join keys: a string, a list of strings, or `{ left, right }`.
    JoinKeys,
    /// A list of rows (tables of any values).
    Rows,
    /// A sort key or a list of them (strings or sort key tables).
    Sort,
    /// A list of numbers, or a ticks table.
    Ticks,
    /// `true`, `"major"` or `"both"`.
    Grid,
    /// Any value.
    Any,
}

/// One key of a kind.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    /// The key as written.
    pub name: &'static str,
    /// Its value's type.
    pub ty: Ty,
    /// The default, as TOML text (`None`: absent means not set).
    pub default: Option<&'static str>,
    /// What it does, in one line.
    pub doc: &'static str,
    /// The variants that read it (empty: every variant).
    pub only: &'static [&'static str],
    /// A key it does nothing without.
    pub needs: Option<&'static str>,
    /// A key it cannot be given with.
    pub excludes: Option<&'static str>,
}

/// A key of type `ty` read by every variant (see [`Key`]'s builders).
pub const fn key(name: &'static str, ty: Ty, doc: &'static str) -> Key {
    Key {
        name,
        ty,
        default: None,
        doc,
        only: &[],
        needs: None,
        excludes: None,
    }
}

impl Key {
    /// With a default (TOML text).
    pub const fn default(self, d: &'static str) -> Key {
        Key {
            default: Some(d),
            ..self
        }
    }
    /// Read only by these variants.
    pub const fn only(self, v: &'static [&'static str]) -> Key {
        Key { only: v, ..self }
    }
    /// Does nothing without `k`.
    pub const fn needs(self, k: &'static str) -> Key {
        Key {
            needs: Some(k),
            ..self
        }
    }
    /// Cannot be given with `k`.
    pub const fn excludes(self, k: &'static str) -> Key {
        Key {
            excludes: Some(k),
            ..self
        }
    }
    /// Whether variant `v` reads this key.
    pub fn applies_to(&self, v: &str) -> bool {
        self.only.is_empty() || self.only.contains(&v)
    }
}

/// How a kind's variant is chosen.
#[derive(Debug, Clone, Copy)]
pub enum Variants {
    /// No variants: every key applies.
    None,
    /// By the string value of this key (`mark = "bar"`).
    ByValue(&'static str),
    /// By which one of the variant names is present as a key (a step's verb).
    ByKey,
    /// A number: `expr` when `value` is `{ expr = ... }`, else `table`.
    NumberValue,
}

/// One variant of a kind.
#[derive(Debug, Clone, Copy)]
pub struct Variant {
    /// Its name (`bar`, `filter`, `median`).
    pub name: &'static str,
    /// What it does, in one line.
    pub doc: &'static str,
}

/// One kind of table in the spec.
#[derive(Debug, Clone, Copy)]
pub struct Kind {
    /// Its name (the heading in `docs/spec.md`, the JSON Schema definition).
    pub name: &'static str,
    /// How messages name one (`a step`).
    pub noun: &'static str,
    /// Where it is written (`[sources.NAME]`).
    pub place: &'static str,
    /// What it is.
    pub doc: &'static str,
    /// How its variant is chosen.
    pub variants: Variants,
    /// Its variants (empty for [`Variants::None`]).
    pub variant_list: &'static [Variant],
    /// Its keys, in the order they are documented.
    pub keys: &'static [Key],
    /// A spec snippet using it (checked by the tests).
    pub example: &'static str,
}

impl Kind {
    /// The key named `name`.
    pub fn key(&self, name: &str) -> Option<&'static Key> {
        self.keys.iter().find(|k| k.name == name)
    }

    /// How messages name a variant of this kind (`a `bar` layer`).
    pub fn variant_noun(&self, v: &str) -> String {
        match self.variants {
            Variants::None => self.noun.to_string(),
            Variants::NumberValue if v == "expr" => "a number with `value = { expr = ... }`".into(),
            Variants::NumberValue => "a number computed from a table".into(),
            // Named by what they hold: `a source with `rows``.
            _ if matches!(self.name, "source" | "channel") => format!("{} with `{v}`", self.noun),
            _ => {
                let article = if v.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                };
                let noun = self.noun.split_once(' ').map_or(self.noun, |(_, n)| n);
                format!("{article} `{v}` {noun}")
            }
        }
    }

    /// The keys variant `v` reads (all keys when `v` is `None`).
    pub fn keys_of(&self, v: Option<&str>) -> Vec<&'static str> {
        let mut keys: Vec<&'static Key> = self.keys.iter().collect();
        // A variant's own key first (`pareto, as, minimize`).
        keys.sort_by_key(|k| Some(k.name) != v);
        keys.into_iter()
            .filter(|k| match (v, self.variants) {
                (None, _) => true,
                // In a kind chosen by key, a variant's own key is its alone.
                // (or an option of it: `aggregate` beside `group`).
                (Some(v), Variants::ByKey) if self.is_variant(k.name) => {
                    k.name == v || companion(self, v, k.name)
                }
                (Some(v), _) => k.applies_to(v),
            })
            .map(|k| k.name)
            .collect()
    }

    /// Whether `name` is one of the variants.
    pub fn is_variant(&self, name: &str) -> bool {
        self.variant_list.iter().any(|v| v.name == name)
    }
}

/// Whether key `option`, itself a variant, is an option of variant `verb`
/// (see [`super::schema_kinds::STEP_COMPANIONS`]).
pub fn companion(k: &Kind, verb: &str, option: &str) -> bool {
    k.name == "step" && super::schema_kinds::STEP_COMPANIONS.contains(&(verb, option))
}

/// The kind named `name` (a name used in [`Ty::Table`] and friends).
pub fn kind(name: &str) -> &'static Kind {
    KINDS
        .iter()
        .find(|k| k.name == name)
        .unwrap_or_else(|| panic!("no kind `{name}` is declared"))
}

pub use super::schema_kinds::KINDS;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::*;

    /// The fields serde accepts for `T`, from its unknown-field message.
    fn serde_fields<T: serde::de::DeserializeOwned + std::fmt::Debug>() -> Vec<String> {
        let e = toml::from_str::<T>("zz_probe = 1").unwrap_err();
        let msg = e.message();
        let (_, tail) = msg.split_once("expected ").expect("a list of fields");
        tail.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    }

    /// The declaration and the serde structs name the same keys: a key
    /// added to one and not the other fails here, not in a user's spec.
    #[test]
    fn the_declaration_has_every_field_of_the_structs() {
        let declared = |k: &str| -> Vec<String> {
            let mut v: Vec<String> = kind(k).keys.iter().map(|k| k.name.to_string()).collect();
            v.sort();
            v
        };
        let pairs: Vec<(&str, Vec<String>)> = vec![
            ("spec", serde_fields::<Spec>()),
            ("output", serde_fields::<OutputSpec>()),
            ("templates", serde_fields::<TemplatesSpec>()),
            ("source", serde_fields::<SourceSpec>()),
            ("table", serde_fields::<TableSpec>()),
            ("step", serde_fields::<StepSpec>()),
            ("number", serde_fields::<NumberSpec>()),
            ("format", serde_fields::<FormatSpec>()),
            ("figure", serde_fields::<FigureSpec>()),
            ("panel", serde_fields::<PanelSpec>()),
            ("axis", serde_fields::<AxisSpec>()),
            ("tick_format", serde_fields::<TickFormatSpec>()),
            ("legend", serde_fields::<LegendSpec>()),
            ("layer", serde_fields::<LayerSpec>()),
            ("facet", serde_fields::<FacetSpec>()),
            ("resolve", serde_fields::<ResolveSpec>()),
            ("resolve_scale", serde_fields::<ResolveScaleSpec>()),
            ("results_table", serde_fields::<ResultsTableSpec>()),
            ("results_column", serde_fields::<ResultsColumnSpec>()),
        ];
        for (k, mut fields) in pairs {
            fields.sort();
            assert_eq!(fields, declared(k), "kind `{k}`");
        }
    }
}
