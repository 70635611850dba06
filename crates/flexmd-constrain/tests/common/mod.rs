//! Shared by the integration tests: the schemas they run on and a
//! generator of instances valid under a schema.

#![allow(dead_code, reason = "each test binary uses part of it")]

use std::path::Path;

use flexmd_schema::Registry;
use proptest::prelude::*;
use proptest::strategy::Union;
use serde_json::{Map, Value, json};

/// Instances of `schema` (a subset of JSON Schema: what the fixtures and
/// the predefined schemas use). An optional property that allows `null` is
/// always present: OpenAI cannot tell "omitted" from `null` there, so the
/// way back keeps the `null` (documented).
pub(crate) fn instances(root: &Value, schema: &Value, depth: usize) -> BoxedStrategy<Value> {
    let schema = resolve(root, schema);
    let Some(map) = schema.as_object() else {
        return Just(json!("any")).boxed();
    };
    if let Some(branches) = map
        .get("anyOf")
        .or_else(|| map.get("oneOf"))
        .and_then(Value::as_array)
    {
        let choices: Vec<BoxedStrategy<Value>> = branches
            .iter()
            .map(|b| instances(root, b, depth + 1))
            .collect();
        return Union::new(choices).boxed();
    }
    if let Some(branches) = map.get("allOf").and_then(Value::as_array) {
        let mut merged = map.clone();
        merged.remove("allOf");
        for branch in branches {
            for (k, v) in resolve(root, branch).as_object().into_iter().flatten() {
                match (k.as_str(), merged.get_mut(k)) {
                    ("properties", Some(Value::Object(mine))) => {
                        mine.extend(v.as_object().cloned().unwrap_or_default());
                    }
                    ("required", Some(Value::Array(mine))) => {
                        mine.extend(v.as_array().cloned().unwrap_or_default());
                    }
                    _ => {
                        merged.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        return instances(root, &Value::Object(merged), depth);
    }
    if let Some(c) = map.get("const") {
        return Just(c.clone()).boxed();
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array) {
        return proptest::sample::select(values.clone()).boxed();
    }
    let types: Vec<&str> = match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec!["string"],
    };
    let choices: Vec<BoxedStrategy<Value>> =
        types.iter().map(|t| typed(root, map, t, depth)).collect();
    Union::new(choices).boxed()
}

fn typed(root: &Value, map: &Map<String, Value>, ty: &str, depth: usize) -> BoxedStrategy<Value> {
    let num = |k: &str| map.get(k).and_then(Value::as_f64);
    match ty {
        "null" => Just(Value::Null).boxed(),
        "boolean" => any::<bool>().prop_map(Value::from).boxed(),
        "integer" | "number" => {
            let low = num("minimum")
                .or(num("exclusiveMinimum").map(|m| m.floor() + 1.0))
                .unwrap_or(-50.0) as i64;
            let high = num("maximum").unwrap_or(low as f64 + 100.0) as i64;
            let halves = ty == "number";
            (low..=high, any::<bool>())
                .prop_map(move |(n, half)| {
                    if halves && half && (n as f64 + 0.5) <= high as f64 {
                        json!(n as f64 + 0.5)
                    } else {
                        json!(n)
                    }
                })
                .boxed()
        }
        "string" => {
            let min = map.get("minLength").and_then(Value::as_u64).unwrap_or(0);
            let max = map
                .get("maxLength")
                .and_then(Value::as_u64)
                .unwrap_or(min + 12)
                .min(min + 30);
            let regex = match (
                map.get("format").and_then(Value::as_str),
                map.get("pattern").and_then(Value::as_str),
            ) {
                (Some("email"), _) => "[a-z]{1,6}@example\\.org".to_owned(),
                (Some("date"), _) => "20[0-9]{2}-0[1-9]-[12][0-9]".to_owned(),
                (Some("uuid"), _) => {
                    "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}".to_owned()
                }
                (_, Some(p)) => p.trim_start_matches('^').trim_end_matches('$').to_owned(),
                _ => format!("[a-z ]{{{min},{max}}}"),
            };
            proptest::string::string_regex(&regex)
                .map(|s| s.prop_map(Value::from).boxed())
                .unwrap_or_else(|_| Just(json!("x")).boxed())
        }
        "array" => {
            let items = map
                .get("items")
                .cloned()
                .unwrap_or(json!({"type": "string"}));
            let min = map.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            let max = if depth > 3 { min } else { min + 2 };
            let unique = map.get("uniqueItems") == Some(&json!(true));
            if max == 0 {
                return Just(json!([])).boxed();
            }
            proptest::collection::vec(instances(root, &items, depth + 1), min..=max)
                .prop_filter("unique items", move |v| {
                    !unique
                        || v.iter()
                            .enumerate()
                            .all(|(i, x)| !v.iter().take(i).any(|y| y == x))
                })
                .prop_map(Value::Array)
                .boxed()
        }
        "object" => {
            let required: Vec<String> = map
                .get("required")
                .and_then(Value::as_array)
                .map(|r| {
                    r.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default();
            let mut fields: Vec<BoxedStrategy<Option<(String, Value)>>> = Vec::new();
            for (name, sub) in map
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                let name = name.clone();
                let always = required.contains(&name) || admits_null(root, sub);
                if !always && depth > 3 {
                    fields.push(Just(None).boxed());
                    continue;
                }
                let value = instances(root, sub, depth + 1);
                if always {
                    fields.push(value.prop_map(move |v| Some((name.clone(), v))).boxed());
                } else {
                    fields.push(
                        proptest::option::of(value)
                            .prop_map(move |v| v.map(|v| (name.clone(), v)))
                            .boxed(),
                    );
                }
            }
            fields
                .prop_map(|fields| Value::Object(fields.into_iter().flatten().collect()))
                .boxed()
        }
        _ => Just(json!("x")).boxed(),
    }
}

fn resolve(root: &Value, schema: &Value) -> Value {
    let mut schema = schema.clone();
    while let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let pointer = reference.trim_start_matches('#').replace("%24", "$");
        let mut target = root.pointer(&pointer).cloned().unwrap_or(json!({}));
        if let (Value::Object(t), Value::Object(s)) = (&mut target, &schema) {
            for (k, v) in s {
                if k != "$ref" {
                    t.insert(k.clone(), v.clone());
                }
            }
        }
        schema = target;
    }
    schema
}

fn admits_null(root: &Value, schema: &Value) -> bool {
    let schema = resolve(root, schema);
    let types = |s: &Value| match s.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.contains(&json!("null")),
        _ => false,
    };
    types(&schema)
        || schema
            .get("anyOf")
            .and_then(Value::as_array)
            .is_some_and(|b| b.iter().any(|b| admits_null(root, b)))
}

pub(crate) fn schemas() -> Vec<(String, Value)> {
    let registry = Registry::new();
    let mut all: Vec<(String, Value)> = [
        "analysis",
        "implementation",
        "review",
        "verification",
        "plan",
    ]
    .iter()
    .filter_map(|n| registry.get(n).map(|s| ((*n).to_owned(), s.clone())))
    .collect();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/export");
    for name in ["invoice", "tree", "shapes"] {
        let text =
            std::fs::read_to_string(dir.join(format!("{name}.schema.json"))).unwrap_or_default();
        all.push((
            name.to_owned(),
            serde_json::from_str(&text).unwrap_or_default(),
        ));
    }
    all
}

/// A schema whose definitions refer to the next level twice, 40 levels
/// deep: 2^40 copies if every reference were copied where it is used.
pub(crate) fn doubling_references() -> Value {
    let mut defs = Map::new();
    for i in 0..40 {
        defs.insert(
            format!("l{i}"),
            json!({"type": "object", "properties": {
                "a": {"$ref": format!("#/$defs/l{}", i + 1)},
                "b": {"$ref": format!("#/$defs/l{}", i + 1)}
            }, "required": ["a", "b"]}),
        );
    }
    defs.insert("l40".to_owned(), json!({"type": "string"}));
    json!({"$defs": defs, "type": "object", "properties": {"x": {"$ref": "#/$defs/l0"}}})
}
