//! A schema from an example (`flexmd schema create --from-example`).

use serde_json::{Map, Value, json};

/// A JSON Schema (2020-12) that `example` satisfies: every key of an object
/// is required and typed as in the example; an array's items take the shape
/// all its elements share (keys present in every object element are
/// required, the others optional); integers are `integer`, other numbers
/// `number`. `title` names it.
///
/// ```
/// use flexmd_schema::infer_schema;
/// use serde_json::json;
///
/// let schema = infer_schema("point", &json!({"x": 1, "tags": [{"a": "s"}, {"a": "t", "b": true}]}));
/// assert_eq!(schema["properties"]["x"], json!({"type": "integer"}));
/// assert_eq!(schema["properties"]["tags"]["items"]["required"], json!(["a"]));
/// assert_eq!(schema["properties"]["tags"]["items"]["properties"]["b"], json!({"type": "boolean"}));
/// ```
pub fn infer_schema(title: &str, example: &Value) -> Value {
    let mut schema = shape(example, 0);
    if let Some(map) = schema.as_object_mut() {
        let mut out = Map::new();
        out.insert(
            "$schema".to_owned(),
            json!("https://json-schema.org/draft/2020-12/schema"),
        );
        out.insert("title".to_owned(), json!(title));
        out.append(map);
        return Value::Object(out);
    }
    schema
}

/// Past this depth an example's values are described as `{}` (anything).
const MAX_DEPTH: usize = 64;

fn shape(value: &Value, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return json!({});
    }
    match value {
        Value::Null => json!({"type": "null"}),
        Value::Bool(_) => json!({"type": "boolean"}),
        Value::Number(n) if n.is_i64() || n.is_u64() => json!({"type": "integer"}),
        Value::Number(_) => json!({"type": "number"}),
        Value::String(_) => json!({"type": "string"}),
        Value::Array(items) => match merge(items.iter().map(|v| shape(v, depth + 1))) {
            Some(item) => json!({"type": "array", "items": item}),
            None => json!({"type": "array"}),
        },
        Value::Object(map) => {
            let properties: Map<String, Value> = map
                .iter()
                .map(|(k, v)| (k.clone(), shape(v, depth + 1)))
                .collect();
            let required: Vec<Value> = map.keys().map(|k| json!(k)).collect();
            json!({"type": "object", "required": required, "properties": properties})
        }
    }
}

/// One schema for several: equal ones stay; objects merge their properties
/// (required = keys in all); integer and number give number; anything else
/// gives a list of types.
fn merge(schemas: impl Iterator<Item = Value>) -> Option<Value> {
    let mut merged: Option<Value> = None;
    for schema in schemas {
        merged = Some(match merged {
            None => schema,
            Some(acc) if acc == schema => acc,
            Some(acc) => merge_two(acc, schema),
        });
    }
    merged
}

fn merge_two(a: Value, b: Value) -> Value {
    let (ta, tb) = (a.get("type").cloned(), b.get("type").cloned());
    if ta == tb && ta == Some(json!("object")) {
        let mut properties = a
            .get("properties")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let b_props = b
            .get("properties")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        for (k, v) in &b_props {
            let next = match properties.remove(k) {
                Some(existing) => merge_two_or_same(existing, v.clone()),
                None => v.clone(),
            };
            properties.insert(k.clone(), next);
        }
        let required_in = |s: &Value, k: &str| {
            s.get("required")
                .and_then(Value::as_array)
                .is_some_and(|r| r.iter().any(|x| x == k))
        };
        let required: Vec<Value> = properties
            .keys()
            .filter(|k| required_in(&a, k) && required_in(&b, k))
            .map(|k| json!(k))
            .collect();
        return json!({"type": "object", "required": required, "properties": properties});
    }
    if ta == tb && ta == Some(json!("array")) {
        let items = merge(
            [a.get("items").cloned(), b.get("items").cloned()]
                .into_iter()
                .flatten(),
        );
        return match items {
            Some(items) => json!({"type": "array", "items": items}),
            None => json!({"type": "array"}),
        };
    }
    let number = |t: &Option<Value>| {
        matches!(
            t.as_ref().and_then(Value::as_str),
            Some("integer" | "number")
        )
    };
    if number(&ta) && number(&tb) {
        return json!({"type": "number"});
    }
    let mut types: Vec<Value> = Vec::new();
    for t in [ta, tb].into_iter().flatten() {
        match t {
            Value::Array(ts) => types.extend(ts),
            t => types.push(t),
        }
    }
    let mut unique: Vec<Value> = Vec::new();
    for t in types {
        if !unique.contains(&t) {
            unique.push(t);
        }
    }
    json!({"type": unique})
}

fn merge_two_or_same(a: Value, b: Value) -> Value {
    if a == b { a } else { merge_two(a, b) }
}
