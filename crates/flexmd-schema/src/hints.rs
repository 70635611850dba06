//! Correction hints for a model: elsabro's `generateHints`, made precise
//! from the schema.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::violation::Violation;

/// A violation with the hint that tells a model how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Hint {
    /// The violation.
    #[serde(flatten)]
    pub violation: Violation,
    /// What to do, in one sentence a model can act on.
    pub hint: String,
}

/// A hint for each violation, made from the schema the instance was checked
/// against: the allowed values of an enum, the expected type, each missing
/// key with its type, the bounds. `$ref`s inside `schema` are followed when
/// they point into it (`#/...`).
///
/// ```
/// use flexmd_schema::{Registry, hints};
/// use serde_json::json;
///
/// let registry = Registry::new();
/// let answer = json!({"approved": true, "issues": [], "recommendation": "ship it"});
/// let outcome = registry.validate("review", &answer);
/// let hints = hints(&outcome.errors, registry.get("review").unwrap());
/// assert_eq!(
///     hints[0].hint,
///     "Fix summary: Missing required field: summary. Add `summary` (object with critical: integer >= 0, high: integer >= 0, medium: integer >= 0, low: integer >= 0, info: integer >= 0)."
/// );
/// assert_eq!(
///     hints[1].hint,
///     "Fix recommendation: Value must be one of: approve, request_changes, needs_discussion. Use one of \"approve\", \"request_changes\", \"needs_discussion\"."
/// );
/// ```
pub fn hints(errors: &[Violation], schema: &Value) -> Vec<Hint> {
    errors
        .iter()
        .map(|violation| Hint {
            hint: hint(violation, schema),
            violation: violation.clone(),
        })
        .collect()
}

fn hint(v: &Violation, schema: &Value) -> String {
    let place = if v.path.is_empty() {
        "root"
    } else {
        v.path.as_str()
    };
    let mut text = format!("Fix {place}: {}", v.message);
    let keyword_schema = subschema(schema, &v.schema_path);
    let parent = v
        .schema_path
        .rsplit_once('/')
        .and_then(|(parent, _)| subschema(schema, parent));
    let advice = match v.code.as_str() {
        "missing_required" => {
            let key = v
                .message
                .strip_prefix("Missing required field: ")
                .unwrap_or_default();
            let shape = parent
                .and_then(|p| p.get("properties"))
                .and_then(|p| p.get(key))
                .map(|s| format!(" ({})", describe(s, schema, 3)))
                .unwrap_or_default();
            format!("Add `{key}`{shape}.")
        }
        "invalid_type" => {
            let expected = parent.map(|p| describe(p, schema, 3));
            match expected {
                Some(e) => format!("Give {e} here."),
                None => "Check the data type.".to_owned(),
            }
        }
        "invalid_enum" => match keyword_schema.and_then(Value::as_array) {
            Some(options) => format!("Use one of {}.", list(options)),
            None => "Use one of the allowed values.".to_owned(),
        },
        "invalid_const" => match keyword_schema {
            Some(c) => format!("Use exactly {c}."),
            None => "Use the one allowed value.".to_owned(),
        },
        "too_short" | "too_long" | "too_small" | "too_big" | "too_few_items" | "too_many_items" => {
            bounds(parent)
        }
        "unexpected_property" | "unevaluated_property" => {
            let allowed = parent
                .and_then(|p| p.get("properties"))
                .and_then(Value::as_object)
                .map(|p| {
                    p.keys()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                });
            match allowed {
                Some(keys) if !keys.is_empty() => {
                    format!("Remove it; the allowed keys are {keys}.")
                }
                _ => "Remove it.".to_owned(),
            }
        }
        "pattern_mismatch" => "Rewrite the string to match the pattern.".to_owned(),
        "invalid_format" => "Rewrite the string in that format.".to_owned(),
        "schema_not_found" => "Register the schema or use a predefined one.".to_owned(),
        "too_deep" => "Nest the value less deeply.".to_owned(),
        "too_large" => {
            "Answer with a smaller value: summarise, or split it across answers.".to_owned()
        }
        "no_json" => "Answer with one JSON value.".to_owned(),
        _ => "Make the value satisfy the schema.".to_owned(),
    };
    text.push_str(". ");
    text.push_str(&advice);
    text
}

/// The bounds a (sub)schema sets, as one sentence.
fn bounds(schema: Option<&Value>) -> String {
    let Some(s) = schema else {
        return "Respect the bounds.".to_owned();
    };
    let mut parts = Vec::new();
    let pairs = [
        ("minLength", "at least {} characters"),
        ("maxLength", "at most {} characters"),
        ("minimum", ">= {}"),
        ("exclusiveMinimum", "> {}"),
        ("maximum", "<= {}"),
        ("exclusiveMaximum", "< {}"),
        ("minItems", "at least {} items"),
        ("maxItems", "at most {} items"),
    ];
    for (keyword, template) in pairs {
        if let Some(limit) = s.get(keyword) {
            parts.push(template.replace("{}", &limit.to_string()));
        }
    }
    if parts.is_empty() {
        "Respect the bounds.".to_owned()
    } else {
        format!("Keep it {}.", parts.join(" and "))
    }
}

/// `"a", "b", "c"`.
fn list(options: &[Value]) -> String {
    options
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A short description of what a schema accepts: `string`, `integer >= 0`,
/// `one of "low", "high"`, `array of string`, `object with a: string, ...`.
fn describe(schema: &Value, root: &Value, depth: usize) -> String {
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => r
            .strip_prefix('#')
            .and_then(|p| root.pointer(p))
            .unwrap_or(schema),
        None => schema,
    };
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        return format!("one of {}", list(options));
    }
    let ty = match schema.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "a value".to_owned(),
    };
    match ty.as_str() {
        "array" if depth > 0 => match schema.get("items") {
            Some(items) => format!("array of {}", describe(items, root, depth - 1)),
            // An array of anything: its description says what goes in it.
            None => match schema.get("description").and_then(Value::as_str) {
                Some(what) => format!("array, {what}"),
                None => "array".to_owned(),
            },
        },
        "object" if depth > 0 => {
            let fields: Vec<String> = schema
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| {
                    p.iter()
                        .map(|(k, s)| format!("{k}: {}", describe(s, root, depth - 1)))
                        .collect()
                })
                .unwrap_or_default();
            if fields.is_empty() {
                "object".to_owned()
            } else {
                format!("object with {}", fields.join(", "))
            }
        }
        _ => {
            let bounds: Vec<String> = [
                ("minimum", ">="),
                ("maximum", "<="),
                ("exclusiveMinimum", ">"),
                ("exclusiveMaximum", "<"),
            ]
            .iter()
            .filter_map(|(k, op)| schema.get(*k).map(|l| format!("{op} {l}")))
            .collect();
            if bounds.is_empty() {
                ty
            } else {
                format!("{ty} {}", bounds.join(" and "))
            }
        }
    }
}

/// The node at a JSON Pointer in `root`, following `$ref` segments that
/// point into `root`.
fn subschema<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    let mut node = root;
    for raw in pointer.split('/').skip(1) {
        let segment = raw.replace("~1", "/").replace("~0", "~");
        if segment == "$ref" {
            let target = node.get("$ref")?.as_str()?;
            node = root.pointer(target.strip_prefix('#')?)?;
            continue;
        }
        node = match node {
            Value::Object(map) => map.get(&segment)?,
            Value::Array(items) => items.get(segment.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}
