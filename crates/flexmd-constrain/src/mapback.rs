//! The way back: a provider's answer read in the original schema's shape,
//! then validated against the original, so every constraint the provider
//! did not enforce is checked.

use flexmd_schema::{Outcome, Registry, SchemaError, TransformOptions};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::provider::Provider;
use crate::refs::{escape, resolve_local};

/// How deep the mapping follows an instance; deeper values are left as
/// they are (serde_json reads at most 128 levels, so only a value built in
/// code gets there).
const MAX_DEPTH: usize = 256;

/// An answer in the original schema's shape.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct MappedBack {
    /// The answer, nulls that stood for omitted properties removed.
    pub value: Value,
    /// Where a null was removed, as JSON Pointers into the answer.
    pub removed: Vec<String>,
}

/// The outcome of [`validate_from`]: the validation of the mapped answer,
/// and what the mapping removed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct ValidatedFrom {
    /// `{valid, data, errors, warnings, changes}` against the original
    /// schema (defaults filled in are among `changes`).
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Where a null that stood for an omitted optional property was
    /// removed, as JSON Pointers into the answer.
    #[serde(rename = "nullsRemoved")]
    pub nulls_removed: Vec<String>,
}

/// Reads a provider's answer in the shape of `original`: a `null` given
/// for an optional property whose schema does not allow `null` (what
/// OpenAI's strict mode sends for "omitted") is removed. Anything else is
/// left for validation to judge.
///
/// ```
/// use flexmd_constrain::from_provider;
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
///     "required": ["name"]
/// });
/// let back = from_provider(&schema, json!({"name": "Ada", "age": null}));
/// assert_eq!(back.value, json!({"name": "Ada"}));
/// assert_eq!(back.removed, ["/age"]);
/// ```
pub fn from_provider(original: &Value, answer: Value) -> MappedBack {
    let mut walk = Walk {
        root: original,
        removed: Vec::new(),
        fill: None,
    };
    let mut value = answer;
    walk.visit(original, &mut value, &mut String::new(), 0);
    MappedBack {
        value,
        removed: walk.removed,
    }
}

/// The inverse of [`from_provider`] for an instance valid under
/// `original`: what `provider` would send for it. For OpenAI every
/// omitted optional property is given as `null`; for OpenAI and Anthropic
/// a property the schema does not declare is left out (the exported objects
/// are closed).
///
/// ```
/// use flexmd_constrain::{Provider, to_provider};
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
///     "required": ["name"]
/// });
/// assert_eq!(
///     to_provider(&schema, Provider::OpenAi, &json!({"name": "Ada"})),
///     json!({"name": "Ada", "age": null})
/// );
/// ```
pub fn to_provider(original: &Value, provider: Provider, instance: &Value) -> Value {
    let mut walk = Walk {
        root: original,
        removed: Vec::new(),
        fill: Some(provider),
    };
    let mut value = instance.clone();
    walk.visit(original, &mut value, &mut String::new(), 0);
    value
}

/// Maps `answer` back with [`from_provider`], then validates it against
/// `original` with `options` (fill defaults, coerce), so the constraints
/// the export reported as unenforced are checked.
///
/// ```
/// use flexmd_constrain::validate_from;
/// use flexmd_schema::{Registry, TransformOptions};
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {
///         "name": {"type": "string", "minLength": 2},
///         "tags": {"type": "array", "items": {"type": "string"}, "default": []}
///     },
///     "required": ["name"]
/// });
/// let options = TransformOptions { coerce: false, apply_defaults: true };
/// let checked = validate_from(&Registry::new(), &schema, &json!({"name": "Ada", "tags": null}), options).unwrap();
/// assert_eq!(checked.outcome.data, Some(json!({"name": "Ada", "tags": []})));
/// assert_eq!(checked.nulls_removed, ["/tags"]);
///
/// let short = validate_from(&Registry::new(), &schema, &json!({"name": "A", "tags": null}), options).unwrap();
/// assert_eq!(short.outcome.errors[0].code, "too_short");
/// ```
pub fn validate_from(
    registry: &Registry,
    original: &Value,
    answer: &Value,
    options: TransformOptions,
) -> Result<ValidatedFrom, SchemaError> {
    let back = from_provider(original, answer.clone());
    let outcome = registry.validate_and_transform_schema(original, &back.value, options)?;
    Ok(ValidatedFrom {
        outcome,
        nulls_removed: back.removed,
    })
}

/// As [`validate_from`] for a model's answer as text: the JSON in `text`
/// is found and repaired (as [`Registry::validate_text`] does), mapped
/// back, then validated; repair warnings and each problem's line and
/// column are in `text`. No JSON in `text` is an invalid outcome with code
/// `no_json`.
///
/// ```
/// use flexmd_constrain::validate_text_from;
/// use flexmd_schema::{Registry, TransformOptions};
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
///     "required": ["name"]
/// });
/// let options = TransformOptions { coerce: true, apply_defaults: true };
/// let text = "Here it is:\n```json\n{\"name\": \"Ada\", \"age\": null,}\n```";
/// let checked = validate_text_from(&Registry::new(), &schema, text, options).unwrap();
/// assert_eq!(checked.outcome.data, Some(json!({"name": "Ada"})));
/// assert_eq!(checked.nulls_removed, ["/age"]);
/// assert_eq!(checked.outcome.warnings[0].line, Some(3)); // the trailing comma
/// ```
pub fn validate_text_from(
    registry: &Registry,
    original: &Value,
    text: &str,
    options: TransformOptions,
) -> Result<ValidatedFrom, SchemaError> {
    let validator = registry.record_validator(original, options)?;
    let mut nulls_removed = Vec::new();
    let outcome = validator.validate_text_mapped(text, |answer| {
        let back = from_provider(original, answer);
        nulls_removed = back.removed;
        back.value
    });
    Ok(ValidatedFrom {
        outcome,
        nulls_removed,
    })
}

struct Walk<'a> {
    root: &'a Value,
    removed: Vec<String>,
    /// Forward (to the provider's shape) for this provider; back when `None`.
    fill: Option<Provider>,
}

/// One schema's object and array keywords, `allOf` and `$ref` followed.
#[derive(Default)]
struct View<'a> {
    properties: Vec<(&'a str, &'a Value)>,
    declares_properties: bool,
    required: Vec<&'a str>,
    items: Option<&'a Value>,
    prefix_items: Vec<&'a Value>,
    branches: Vec<&'a Value>,
}

impl<'a> Walk<'a> {
    /// `schema` with its `$ref` chain followed (at most 32 steps).
    fn target(&self, schema: &'a Value) -> Option<&'a Value> {
        let mut schema = schema;
        for _ in 0..32 {
            match schema.get("$ref").and_then(Value::as_str) {
                Some(reference) => schema = resolve_local(self.root, reference)?.0,
                None => return Some(schema),
            }
        }
        None
    }

    fn view(&self, schema: &'a Value, view: &mut View<'a>, depth: usize) {
        let Some(schema) = self.target(schema) else {
            return;
        };
        let Value::Object(map) = schema else { return };
        if let Some(props) = map.get("properties").and_then(Value::as_object) {
            view.declares_properties = true;
            view.properties
                .extend(props.iter().map(|(k, v)| (k.as_str(), v)));
        }
        view.required.extend(
            map.get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str),
        );
        if let Some(items) = map.get("items").filter(|i| i.is_object()) {
            view.items.get_or_insert(items);
        }
        if let Some(prefix) = map.get("prefixItems").and_then(Value::as_array)
            && view.prefix_items.is_empty()
        {
            view.prefix_items.extend(prefix);
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(branches) = map.get(keyword).and_then(Value::as_array) {
                view.branches.extend(branches);
            }
        }
        if depth < 32 {
            for branch in map
                .get("allOf")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                self.view(branch, view, depth + 1);
            }
        }
    }

    fn visit(&mut self, schema: &'a Value, value: &mut Value, at: &mut String, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let mut view = View::default();
        self.view(schema, &mut view, 0);
        if !view.branches.is_empty()
            && let Some(branch) = self.pick(&view.branches, value)
        {
            self.visit(branch, value, at, depth + 1);
        }
        match value {
            Value::Object(object) if view.declares_properties => {
                self.object(&view, object, at, depth);
            }
            Value::Array(array) => {
                for (i, item) in array.iter_mut().enumerate() {
                    let schema = view.prefix_items.get(i).copied().or(view.items);
                    if let Some(schema) = schema {
                        let len = at.len();
                        at.push('/');
                        at.push_str(&i.to_string());
                        self.visit(schema, item, at, depth + 1);
                        at.truncate(len);
                    }
                }
            }
            _ => {}
        }
    }

    fn object(
        &mut self,
        view: &View<'a>,
        object: &mut Map<String, Value>,
        at: &mut String,
        depth: usize,
    ) {
        if let Some(provider) = self.fill {
            if provider != Provider::Gemini {
                object.retain(|k, _| view.properties.iter().any(|(name, _)| name == k));
            }
            if provider.requires_every_property() {
                for (name, _) in &view.properties {
                    if !object.contains_key(*name) {
                        object.insert((*name).to_owned(), Value::Null);
                    }
                }
            }
        }
        for (name, schema) in &view.properties {
            let Some(value) = object.get_mut(*name) else {
                continue;
            };
            let len = at.len();
            at.push('/');
            at.push_str(&escape(name));
            if self.fill.is_none()
                && value.is_null()
                && !view.required.contains(name)
                && !self.admits_null(schema, 0)
            {
                object.remove(*name);
                self.removed.push(at.clone());
            } else if !value.is_null() {
                self.visit(schema, value, at, depth + 1);
            }
            at.truncate(len);
        }
    }

    /// The branch of `anyOf`/`oneOf` the value is read with: the first
    /// whose type (and enum) fit and that declares every key of an object;
    /// else the first whose type fits.
    fn pick(&self, branches: &[&'a Value], value: &Value) -> Option<&'a Value> {
        let fits = |b: &&&'a Value, keys: bool| {
            let Some(schema) = self.target(b) else {
                return false;
            };
            if !type_fits(schema, value) {
                return false;
            }
            if let Some(values) = schema.get("enum").and_then(Value::as_array)
                && !values.contains(value)
            {
                return false;
            }
            if let Some(constant) = schema.get("const")
                && constant != value
            {
                return false;
            }
            if keys && let Value::Object(object) = value {
                let mut view = View::default();
                self.view(schema, &mut view, 0);
                if view.declares_properties {
                    return object
                        .keys()
                        .all(|k| view.properties.iter().any(|(name, _)| name == k))
                        && view.required.iter().all(|r| object.contains_key(*r));
                }
            }
            true
        };
        branches
            .iter()
            .find(|b| fits(b, true))
            .or_else(|| branches.iter().find(|b| fits(b, false)))
            .copied()
    }

    /// Whether the original schema lets `null` through.
    fn admits_null(&self, schema: &'a Value, depth: usize) -> bool {
        let Some(schema) = self.target(schema) else {
            return false;
        };
        let Value::Object(map) = schema else {
            return *schema == Value::Bool(true);
        };
        if depth > 32 {
            return false;
        }
        if map.contains_key("type") && !type_fits(schema, &Value::Null) {
            return false;
        }
        if let Some(values) = map.get("enum").and_then(Value::as_array)
            && !values.contains(&Value::Null)
        {
            return false;
        }
        if map.get("const").is_some_and(|c| !c.is_null()) {
            return false;
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(branches) = map.get(keyword).and_then(Value::as_array)
                && !branches.iter().any(|b| self.admits_null(b, depth + 1))
            {
                return false;
            }
        }
        if let Some(branches) = map.get("allOf").and_then(Value::as_array)
            && !branches.iter().all(|b| self.admits_null(b, depth + 1))
        {
            return false;
        }
        true
    }
}

/// Whether the value's JSON type is one the schema's `type` lists (any,
/// when it has none).
fn type_fits(schema: &Value, value: &Value) -> bool {
    let name = |t: &str| match (t, value) {
        ("null", Value::Null) | ("boolean", Value::Bool(_)) | ("string", Value::String(_)) => true,
        ("number", Value::Number(_)) | ("array", Value::Array(_)) => true,
        ("object", Value::Object(_)) => true,
        ("integer", Value::Number(n)) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    };
    match schema.get("type") {
        Some(Value::String(t)) => name(t),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).any(name),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    #[test]
    fn a_null_the_schema_allows_is_kept() {
        let schema = json!({
            "type": "object",
            "properties": {"note": {"type": ["string", "null"]}, "n": {"type": "integer"}}
        });
        let back = from_provider(&schema, json!({"note": null, "n": null}));
        assert_eq!(
            back.value,
            json!({"note": null}),
            "should keep the null `note` allows"
        );
        assert_eq!(back.removed, ["/n"]);
    }

    #[test]
    fn required_nulls_are_left_for_validation() {
        let schema =
            json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
        assert_eq!(
            from_provider(&schema, json!({"n": null})).value,
            json!({"n": null})
        );
    }

    #[test]
    fn nested_objects_arrays_references_and_unions_are_followed() {
        let schema = json!({
            "$defs": {"item": {"type": "object", "properties": {"id": {"type": "integer"}, "tag": {"type": "string"}}, "required": ["id"]}},
            "type": "object",
            "properties": {
                "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
                "either": {"anyOf": [
                    {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                    {"type": "object", "properties": {"b": {"type": "string"}, "c": {"type": "string"}}, "required": ["b"]}
                ]}
            },
            "required": ["items", "either"]
        });
        let back = from_provider(
            &schema,
            json!({"items": [{"id": 1, "tag": null}, {"id": 2, "tag": "x"}], "either": {"b": "y", "c": null}}),
        );
        assert_eq!(
            back.value,
            json!({"items": [{"id": 1}, {"id": 2, "tag": "x"}], "either": {"b": "y"}})
        );
        assert_eq!(back.removed, ["/items/0/tag", "/either/c"]);
    }

    #[test]
    fn forward_fills_nulls_and_closes_objects() {
        let schema = json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "object", "properties": {"c": {"type": "integer"}}}},
            "required": ["a"]
        });
        let instance = json!({"a": "x", "extra": 1, "b": {}});
        assert_eq!(
            to_provider(&schema, Provider::OpenAi, &instance),
            json!({"a": "x", "b": {"c": null}})
        );
        assert_eq!(
            to_provider(&schema, Provider::Anthropic, &instance),
            json!({"a": "x", "b": {}})
        );
        assert_eq!(to_provider(&schema, Provider::Gemini, &instance), instance);
    }
}
