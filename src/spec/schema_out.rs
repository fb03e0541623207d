//! The declaration (`spec::schema`) printed for people and editors:
//! a JSON Schema of `artifact.toml` (draft-07, the draft taplo and Even
//! Better TOML validate with, `if`/`then` included) and the key tables of
//! `docs/spec.md`.
//!
//! Which keys a variant reads is in the schema too: each variant is an
//! `if` (`mark` is `"bar"`, the step has `filter`) whose `then` limits the
//! table's `propertyNames` to the keys that variant reads. Keys are printed
//! in sorted order (serde_json's map), so the output is the same bytes on
//! every run.

use serde_json::{Value, json};

use super::schema::{KINDS, Key, Kind, Ty, Variants, kind};

/// The JSON Schema of `artifact.toml`.
pub fn json_schema() -> Value {
    let spec = kind("spec");
    let mut root = kind_schema(spec);
    let definitions: serde_json::Map<String, Value> = KINDS
        .iter()
        .filter(|k| k.name != "spec")
        .map(|k| (k.name.to_string(), kind_schema(k)))
        .collect();
    let obj = root.as_object_mut().expect("object");
    obj.insert(
        "$schema".into(),
        json!("http://json-schema.org/draft-07/schema#"),
    );
    obj.insert("title".into(), json!("artifact.toml"));
    obj.insert(
        "description".into(),
        json!("The spec of `artifact`: data sources, tables, numbers and figures (printed by `artifact schema`)."),
    );
    obj.insert("definitions".into(), Value::Object(definitions));
    root
}

fn reference(kind: &str) -> Value {
    json!({ "$ref": format!("#/definitions/{kind}") })
}

fn ty_schema(ty: Ty) -> Value {
    let string = json!({ "type": "string" });
    let strings = json!({ "type": "array", "items": { "type": "string" } });
    match ty {
        Ty::Str | Ty::Expr | Ty::Template => string,
        Ty::Text => json!({ "anyOf": [string, {
            "type": "object",
            "properties": { "field": string, "format": reference("format") },
            "required": ["field"],
            "additionalProperties": false
        }] }),
        Ty::Bool => json!({ "type": "boolean" }),
        Ty::Int => json!({ "type": "integer" }),
        Ty::Num => json!({ "type": "number" }),
        Ty::Enum(list) => json!({ "enum": list }),
        Ty::Strs => json!({ "anyOf": [string, strings] }),
        Ty::StrList => strings,
        Ty::Values => json!({ "type": "array" }),
        Ty::NumOrExpr => json!({ "type": ["number", "string"] }),
        Ty::Size => json!({ "type": ["integer", "string"] }),
        Ty::Length => json!({ "type": ["number", "string"] }),
        Ty::Pair(t) => {
            json!({ "type": "array", "items": ty_schema(*t), "minItems": 2, "maxItems": 2 })
        }
        Ty::Channel => {
            json!({ "anyOf": [{ "type": ["number", "string", "boolean"] }, reference("channel")] })
        }
        Ty::Aggregate => json!({ "anyOf": [{ "const": "count" }, reference("aggregate")] }),
        Ty::Uncertainty => json!({ "anyOf": [reference("aggregate"), reference("interval")] }),
        Ty::Table(k) => reference(k),
        Ty::List(k) => json!({ "type": "array", "items": reference(k) }),
        Ty::Names(k) => json!({ "type": "object", "additionalProperties": reference(k) }),
        Ty::NamedExprs | Ty::NamedColors => {
            json!({ "type": "object", "additionalProperties": string })
        }
        Ty::NamedAggregates => {
            json!({ "type": "object", "additionalProperties": ty_schema(Ty::Aggregate) })
        }
        Ty::NamedWindowOps => {
            let one = json!({ "anyOf": [{ "enum": ["row_number", "rank", "dense_rank", "percent_rank"] }, reference("window_op")] });
            json!({ "type": "object", "additionalProperties": one })
        }
        Ty::JoinKeys => json!({ "anyOf": [string, strings, {
            "type": "object",
            "properties": { "left": { "anyOf": [string, strings] }, "right": { "anyOf": [string, strings] } },
            "required": ["left", "right"],
            "additionalProperties": false
        }] }),
        Ty::Rows => json!({ "type": "array", "items": { "type": "object" } }),
        Ty::Sort => {
            let one = json!({ "anyOf": [string, reference("sort_key")] });
            json!({ "anyOf": [one, { "type": "array", "items": one }] })
        }
        Ty::Ticks => {
            json!({ "anyOf": [{ "type": "array", "items": { "type": "number" } }, reference("ticks")] })
        }
        Ty::Grid => {
            json!({ "anyOf": [{ "type": "boolean" }, { "enum": ["major", "both", "x", "y"] }] })
        }
        Ty::Any => json!({}),
    }
}

/// A TOML default as JSON (`"64 MiB"`, `0.8`, `[]`).
fn default_json(text: &str) -> Value {
    let table: toml::Table = toml::from_str(&format!("d = {text}")).expect("a TOML default");
    serde_json::to_value(&table["d"]).expect("JSON")
}

fn key_schema(key: &Key) -> Value {
    let ty = ty_schema(key.ty);
    // Keywords beside `$ref` are ignored in draft-07: wrap it.
    let mut out = if ty.get("$ref").is_some() {
        json!({ "allOf": [ty] })
    } else {
        ty
    };
    let obj = out.as_object_mut().expect("object");
    obj.insert("description".into(), json!(key.doc));
    if let Some(d) = key.default {
        obj.insert("default".into(), default_json(d));
    }
    out
}

fn kind_schema(k: &Kind) -> Value {
    let properties: serde_json::Map<String, Value> = k
        .keys
        .iter()
        .map(|key| (key.name.to_string(), key_schema(key)))
        .collect();
    let mut rules = Vec::new();
    for v in k.variant_list {
        let condition = match k.variants {
            Variants::None => continue,
            Variants::ByValue(key) => {
                json!({ "properties": { key: { "const": v.name } }, "required": [key] })
            }
            Variants::ByKey => {
                // `aggregate` beside `group` (or `sort` beside `window`) is
                // that verb's option.
                let owners: Vec<Value> = super::schema_kinds::STEP_COMPANIONS
                    .iter()
                    .filter(|(w, o)| *o == v.name && super::schema::companion(k, w, o))
                    .map(|(w, _)| json!({ "required": [w] }))
                    .collect();
                if owners.is_empty() {
                    json!({ "required": [v.name] })
                } else {
                    json!({ "required": [v.name], "not": { "anyOf": owners } })
                }
            }
            Variants::NumberValue if v.name == "expr" => json!({
                "properties": { "value": { "type": "object", "required": ["expr"] } },
                "required": ["value"]
            }),
            Variants::NumberValue => continue,
        };
        rules.push(json!({
            "if": condition,
            "then": { "propertyNames": { "enum": k.keys_of(Some(v.name)) } }
        }));
    }
    let mut dependencies = serde_json::Map::new();
    for key in k.keys {
        let mut rules = Vec::new();
        // An option of a kind chosen by key needs a key that reads it.
        if matches!(k.variants, Variants::ByKey) && !key.only.is_empty() && !k.is_variant(key.name)
        {
            let owners: Vec<Value> = key
                .only
                .iter()
                .map(|o| json!({ "required": [o] }))
                .collect();
            rules.push(json!({ "anyOf": owners }));
        }
        if let Some(n) = key.needs {
            rules.push(json!({ "required": [n] }));
        }
        if let Some(x) = key.excludes {
            rules.push(json!({ "not": { "required": [x] } }));
        }
        let rule = match rules.len() {
            0 => continue,
            1 => rules.pop().expect("one"),
            _ => json!({ "allOf": rules }),
        };
        dependencies.insert(key.name.to_string(), rule);
    }
    let mut out = json!({
        "type": "object",
        "description": k.doc,
        "properties": properties,
        "additionalProperties": false,
    });
    let obj = out.as_object_mut().expect("object");
    if !rules.is_empty() {
        obj.insert("allOf".into(), Value::Array(rules));
    }
    if !dependencies.is_empty() {
        obj.insert("dependencies".into(), Value::Object(dependencies));
    }
    out
}

fn ty_doc(ty: Ty) -> String {
    let link = |k: &str| format!("[{k}](#{k})");
    match ty {
        Ty::Str => "string".into(),
        Ty::Expr => "expression".into(),
        Ty::Template => "template".into(),
        Ty::Text => format!("template or `{{ field, format }}` ({})", link("format")),
        Ty::Bool => "boolean".into(),
        Ty::Int => "integer".into(),
        Ty::Num => "number".into(),
        Ty::Enum(list) => list
            .iter()
            .map(|v| format!("`\"{v}\"`"))
            .collect::<Vec<_>>()
            .join(", "),
        Ty::Strs => "string or list of strings".into(),
        Ty::StrList => "list of strings".into(),
        Ty::Values => "list of values".into(),
        Ty::NumOrExpr => "number or expression".into(),
        Ty::Size => "integer (bytes) or size string".into(),
        Ty::Length => "length (points, or a string with a unit)".into(),
        Ty::Pair(t) => format!("[{0}, {0}]", ty_doc(*t)),
        Ty::Channel => format!("number, string or {}", link("channel")),
        Ty::Aggregate => format!("`\"count\"` or {}", link("aggregate")),
        Ty::Uncertainty => format!("{} or {}", link("aggregate"), link("interval")),
        Ty::Table(k) => link(k),
        Ty::List(k) => format!("list of {}", link(k)),
        Ty::Names(k) => format!("{} by name", link(k)),
        Ty::NamedExprs => "expressions by new field".into(),
        Ty::NamedColors => "colours by value".into(),
        Ty::NamedAggregates => format!("{} by output field", link("aggregate")),
        Ty::NamedWindowOps => format!(
            "`\"rank\"` and the like, or {}, by output field",
            link("window_op")
        ),
        Ty::JoinKeys => "string, list of strings, or `{ left, right }`".into(),
        Ty::Rows => "list of tables".into(),
        Ty::Sort => format!("expression, {} or a list of them", link("sort_key")),
        Ty::Ticks => format!("list of numbers or {}", link("ticks")),
        Ty::Grid => "`true`, `false`, `\"major\"`, `\"both\"`, `\"x\"`, `\"y\"`".into(),
        Ty::Any => "any value".into(),
    }
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// Where a key applies, for the reference's `for` column.
fn applies(k: &Kind, key: &Key) -> String {
    let mut parts = Vec::new();
    let variants: Vec<&str> = k
        .variant_list
        .iter()
        .map(|v| v.name)
        .filter(|v| k.keys_of(Some(v)).contains(&key.name))
        .collect();
    if !k.variant_list.is_empty() && variants.len() < k.variant_list.len() {
        parts.push(
            variants
                .iter()
                .map(|v| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", "),
        );
    }
    if let Some(n) = key.needs {
        parts.push(format!("needs `{n}`"));
    }
    if let Some(x) = key.excludes {
        parts.push(format!("not with `{x}`"));
    }
    parts.join("; ")
}

/// The reference section of one kind: heading, doc, variants, key table
/// and example.
pub fn kind_markdown(k: &Kind) -> String {
    let mut out = format!("### {}\n\n{} Written as {}.\n\n", k.name, k.doc, k.place);
    if !k.variant_list.is_empty() {
        let by = match k.variants {
            Variants::ByValue(key) => format!("by the value of `{key}`"),
            Variants::ByKey => "by which one of these keys it has".to_string(),
            _ => "by its `value`".to_string(),
        };
        out.push_str(&format!("Variants, {by}:\n\n"));
        for v in k.variant_list {
            out.push_str(&format!("- `{}`: {}\n", v.name, v.doc));
        }
        out.push('\n');
    }
    out.push_str("| key | type | default | for | what it does |\n|---|---|---|---|---|\n");
    for key in k.keys {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            key.name,
            cell(&ty_doc(key.ty)),
            key.default.map(|d| format!("`{d}`")).unwrap_or_default(),
            applies(k, key),
            cell(key.doc)
        ));
    }
    out.push_str(&format!("\n```toml\n{}```\n", k.example));
    out
}

/// The key reference of every kind, as `docs/spec.md` holds it.
pub fn markdown() -> String {
    KINDS
        .iter()
        .map(kind_markdown)
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_passes_the_key_check() {
        for k in KINDS {
            assert_eq!(super::super::keys::check(k.example), Ok(()), "{}", k.name);
        }
    }

    #[test]
    fn every_default_is_toml() {
        for k in KINDS {
            for key in k.keys {
                if let Some(d) = key.default {
                    default_json(d);
                }
            }
        }
    }

    #[test]
    fn a_variant_limits_the_property_names() {
        let s = json_schema();
        let layer = &s["definitions"]["layer"];
        let bar = layer["allOf"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["if"]["properties"]["mark"]["const"] == "bar")
            .unwrap();
        let names = bar["then"]["propertyNames"]["enum"].as_array().unwrap();
        assert!(names.contains(&json!("band")));
        assert!(!names.contains(&json!("series")));
        assert_eq!(
            layer["dependencies"]["marker_size"],
            json!({ "required": ["marker"] })
        );
        let step = &s["definitions"]["step"];
        assert_eq!(
            step["dependencies"]["per"],
            json!({ "anyOf": [{ "required": ["limit"] }, { "required": ["row_number"] }, { "required": ["pareto"] }, { "required": ["window"] }, { "required": ["joinaggregate"] }, { "required": ["pivot"] }] })
        );
    }
}
