//! Named schemas, compiled once and validated against many times.

use std::collections::HashMap;
use std::sync::Arc;

use indexmap::IndexMap;
use jsonschema::{Retrieve, Uri, Validator};
use serde_json::Value;

use crate::error::SchemaError;
use crate::outcome::Outcome;
use crate::plan::Plan;
use crate::pointer::dotted_path;
use crate::violation::{Violation, violation};

/// The base URI of a registered schema without `$id`: `flexmd://schemas/NAME`,
/// so `{"$ref": "flexmd://schemas/analysis"}` reaches it.
pub const SCHEME: &str = "flexmd://schemas/";

/// elsabro's base URI for its schemas: a registered schema NAME is also
/// `elsabro://schemas/NAME` and `elsabro://schemas/NAME-result` (the seed's
/// `$id` for the analysis schema is `elsabro://schemas/analysis-result`).
pub const ELSABRO_SCHEME: &str = "elsabro://schemas/";

/// Instances nested deeper than this are refused before validation with a
/// schema that can recurse on them (`$ref`, `uniqueItems`), where the
/// validator would follow the instance down; JSON parsing stops at the same
/// depth.
pub const MAX_INSTANCE_DEPTH: usize = 128;

/// The most violations an [`Outcome`] lists (as ajv's `allErrors: false`
/// stops early, but keeping a useful number); the rest are counted in
/// `errors_total`. A 50 MB instance had 2.4 million and took 2.9 GB.
pub const MAX_ERRORS: usize = 100;

/// Instances with more values than this are checked for their first
/// violation only (ajv's `allErrors: false`): the validator gathers every
/// violation before it lists any, so listing them on a huge instance costs
/// memory in proportion to the violations (2.4 million took gigabytes).
pub const MAX_VALUES_FOR_ALL_ERRORS: usize = 100_000;

/// A registered schema; cloned cheaply (the compiled form is shared).
#[derive(Clone)]
struct Entry {
    compiled: Arc<Compiled>,
}

/// A compiled schema, and whether validating with it can recurse as deep as
/// the instance (only then is the instance's depth checked first).
pub(crate) struct Compiled {
    /// The schema it was compiled from.
    pub(crate) schema: Value,
    pub(crate) validator: Validator,
    guard: bool,
    /// The fast verdict, for a schema written in the keywords it covers.
    plan: Option<Plan>,
}

impl Compiled {
    fn new(validator: Validator, schema: &Value) -> Self {
        Self {
            schema: schema.clone(),
            validator,
            guard: can_recurse(schema),
            plan: Plan::compile(schema),
        }
    }

    /// Whether `instance` is valid: the plan's verdict where there is one
    /// (a plan never needs the depth guard: it has no `$ref` and no
    /// `uniqueItems`), else the validator's.
    pub(crate) fn is_valid(&self, instance: &Value) -> bool {
        match &self.plan {
            Some(plan) => plan.is_valid(instance),
            None => {
                !(self.guard && too_deep(instance, MAX_INSTANCE_DEPTH).is_some())
                    && self.validator.is_valid(instance)
            }
        }
    }

    /// How many violations `instance` has, counting at most `limit`; an
    /// instance too deep for a schema that can recurse counts as `limit`.
    pub(crate) fn count_errors(&self, instance: &Value, limit: usize) -> usize {
        if self
            .plan
            .as_ref()
            .is_some_and(|plan| plan.is_valid(instance))
        {
            return 0;
        }
        if self.guard && too_deep(instance, MAX_INSTANCE_DEPTH).is_some() {
            return limit;
        }
        self.validator.iter_errors(instance).take(limit).count()
    }
}

/// Whether a schema can make the validator follow the instance down without
/// bound: through a `$ref` (which may point back up), or `uniqueItems`
/// (which compares whole items). Without these, the validator descends no
/// deeper than the schema itself is nested.
fn can_recurse(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(k, v)| {
            matches!(
                k.as_str(),
                "$ref" | "$dynamicRef" | "$recursiveRef" | "uniqueItems"
            ) || can_recurse(v)
        }),
        Value::Array(items) => items.iter().any(can_recurse),
        _ => false,
    }
}

/// A set of named JSON Schemas: the five predefined ones (`analysis`,
/// `implementation`, `review`, `verification`, `plan`) and any registered.
///
/// Schemas are compiled when registered; `$ref`s resolve offline, to other
/// registered schemas (by `$id` or by `flexmd://schemas/NAME`) and to
/// resources added with [`Registry::add_resource`]. The draft comes from
/// `$schema` (2020-12 when there is none; drafts 7 and older are supported).
/// Cloning is cheap: compiled schemas are shared, not compiled again.
///
/// ```
/// use flexmd_schema::Registry;
/// use serde_json::json;
///
/// let registry = Registry::new();
/// let outcome = registry.validate("review", &json!({"approved": true}));
/// assert!(!outcome.valid);
/// assert_eq!(outcome.errors[0].code, "missing_required");
/// assert_eq!(outcome.errors[0].message, "Missing required field: issues");
///
/// let missing = registry.validate("nope", &json!({}));
/// assert_eq!(missing.errors[0].code, "schema_not_found");
/// ```
#[derive(Clone)]
pub struct Registry {
    entries: IndexMap<String, Entry>,
    /// Every schema `$ref`s may reach, by URI.
    resources: Arc<HashMap<String, Value>>,
    /// Schemas given inline, compiled before (shared by clones; a fresh
    /// one whenever `resources` changes, since `$ref`s resolve there).
    inline: Arc<InlineCache>,
}

/// The last [`INLINE_CACHE_SIZE`] schemas given inline, compiled, by
/// content: a caller passing the same schema on every call (the Python
/// and JavaScript packages, a schema object each time) compiles it once.
#[derive(Default)]
struct InlineCache(std::sync::Mutex<Vec<Arc<Compiled>>>);

/// How many inline schemas a registry keeps compiled.
const INLINE_CACHE_SIZE: usize = 32;
/// A schema with more values than this is compiled each time it is given,
/// not kept (the cache's memory stays bounded).
const INLINE_CACHE_MAX_VALUES: usize = 20_000;

impl InlineCache {
    fn get(&self, schema: &Value) -> Option<Arc<Compiled>> {
        let cache = self.0.lock().ok()?;
        cache
            .iter()
            .find(|known| known.schema == *schema)
            .map(Arc::clone)
    }

    fn keep(&self, compiled: &Arc<Compiled>) {
        if more_values_than(&compiled.schema, INLINE_CACHE_MAX_VALUES) {
            return;
        }
        if let Ok(mut cache) = self.0.lock() {
            if cache.len() >= INLINE_CACHE_SIZE {
                cache.remove(0);
            }
            cache.push(Arc::clone(compiled));
        }
    }
}

impl Default for Registry {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("schemas", &self.entries.keys().collect::<Vec<_>>())
            .field("resources", &self.resources.len())
            .finish()
    }
}

/// The predefined schemas, as shipped in `schemas/`.
const PREDEFINED: [(&str, &str); 5] = [
    ("analysis", include_str!("../schemas/analysis.json")),
    (
        "implementation",
        include_str!("../schemas/implementation.json"),
    ),
    ("review", include_str!("../schemas/review.json")),
    ("verification", include_str!("../schemas/verification.json")),
    ("plan", include_str!("../schemas/plan.json")),
];

impl Registry {
    /// A registry with the five predefined schemas.
    pub fn new() -> Self {
        let mut registry = Self::empty();
        for (name, text) in PREDEFINED {
            // The shipped files are tested to parse and compile; a failure
            // here would leave that schema out, never panic.
            if let Ok(schema) = serde_json::from_str(text) {
                let _ = registry.register(name, schema);
            }
        }
        registry
    }

    /// A registry with no schemas.
    pub fn empty() -> Self {
        Self {
            entries: IndexMap::new(),
            resources: Arc::new(HashMap::new()),
            inline: Arc::default(),
        }
    }

    /// Makes `schema` reachable by `$ref` at `uri` (a schema saved beside
    /// your own, say). It is not a named schema.
    pub fn add_resource(&mut self, uri: &str, schema: Value) {
        Arc::make_mut(&mut self.resources).insert(normalize_uri(uri), schema);
        self.inline = Arc::default();
    }

    /// Compiles `schema` and registers it under `name`, replacing any schema
    /// of that name. A schema that is not valid JSON Schema, or whose
    /// `$ref`s cannot be resolved, is an error, and nothing is registered.
    /// The schema is then reachable by `$ref` (and by [`Registry::get`]) at
    /// its `$id`, at `flexmd://schemas/NAME`, and at elsabro's
    /// `elsabro://schemas/NAME` and `elsabro://schemas/NAME-result`.
    ///
    /// ```
    /// use flexmd_schema::Registry;
    /// use serde_json::json;
    ///
    /// let mut registry = Registry::empty();
    /// registry.register("point", json!({"type": "object", "required": ["x", "y"]})).unwrap();
    /// let line = json!({"type": "array", "items": {"$ref": "flexmd://schemas/point"}});
    /// registry.register("line", line).unwrap();
    /// assert!(registry.validate("line", &json!([{"x": 1, "y": 2}])).valid);
    /// assert!(registry.register("bad", json!({"type": 12})).is_err());
    /// assert!(registry.register("dangling", json!({"$ref": "other.json"})).is_err());
    /// ```
    pub fn register(&mut self, name: &str, schema: Value) -> Result<(), SchemaError> {
        let base = format!("{SCHEME}{name}");
        let mut resources = (*self.resources).clone();
        resources.insert(base.clone(), schema.clone());
        // elsabro's ids for the same schema: `$ref`s written for elsabro
        // resolve here too.
        resources.insert(format!("{ELSABRO_SCHEME}{name}"), schema.clone());
        resources.insert(format!("{ELSABRO_SCHEME}{name}-result"), schema.clone());
        if let Some(id) = schema.get("$id").and_then(Value::as_str) {
            resources.insert(normalize_uri(id), schema.clone());
        }
        let resources = Arc::new(resources);
        let validator =
            compile(&schema, Some(&base), &resources).map_err(|message| SchemaError::Invalid {
                name: name.to_owned(),
                message,
            })?;
        let compiled = Arc::new(Compiled::new(validator, &schema));
        self.resources = resources;
        self.inline = Arc::default();
        self.entries.insert(name.to_owned(), Entry { compiled });
        Ok(())
    }

    /// The entry of `name`: a registered name, or a schema URI that names
    /// one — `flexmd://schemas/NAME`, or elsabro's
    /// `elsabro://schemas/NAME-result` (`analysis-result`, …) and
    /// `elsabro://schemas/NAME`.
    fn entry(&self, name: &str) -> Option<&Entry> {
        if let Some(entry) = self.entries.get(name) {
            return Some(entry);
        }
        let rest = name
            .strip_prefix(SCHEME)
            .or_else(|| name.strip_prefix(ELSABRO_SCHEME))?;
        self.entries.get(rest).or_else(|| {
            rest.strip_suffix("-result")
                .and_then(|short| self.entries.get(short))
        })
    }

    /// The schema registered under `name` (or a URI naming it: see
    /// [`Registry::register`]).
    ///
    /// ```
    /// let registry = flexmd_schema::Registry::new();
    /// let analysis = registry.get("analysis").unwrap();
    /// assert_eq!(registry.get("elsabro://schemas/analysis-result"), Some(analysis));
    /// assert_eq!(registry.get("flexmd://schemas/analysis"), Some(analysis));
    /// ```
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.entry(name).map(|e| &e.compiled.schema)
    }

    /// The registered names, in registration order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }

    /// Each registered schema's name, title and description, in
    /// registration order: what `flexmd schema list` prints.
    ///
    /// ```
    /// let registry = flexmd_schema::Registry::new();
    /// let list = registry.summaries();
    /// assert_eq!(list.len(), registry.names().count());
    /// assert_eq!(list[0]["name"], list[0]["name"].as_str().unwrap());
    /// assert!(list.iter().all(|s| s.get("title").is_some() && s.get("description").is_some()));
    /// ```
    pub fn summaries(&self) -> Vec<Value> {
        self.entries
            .iter()
            .map(|(name, entry)| {
                let field = |k: &str| entry.compiled.schema.get(k).cloned().unwrap_or(Value::Null);
                serde_json::json!({
                    "name": name,
                    "title": field("title"),
                    "description": field("description"),
                })
            })
            .collect()
    }

    /// Validates `instance` against the schema registered as `name`; an
    /// unknown name is a failed outcome with code `schema_not_found`, as in
    /// elsabro.
    pub fn validate(&self, name: &str, instance: &Value) -> Outcome {
        match self.entry(name) {
            Some(entry) => run(&entry.compiled, instance),
            None => Outcome::failure(format!("Schema not found: {name}"), "schema_not_found"),
        }
    }

    /// [`Registry::validate`] taking the instance: a valid one moves into
    /// [`Outcome::data`] instead of being copied there (for a value just
    /// parsed, the copy was about half the time of validating it).
    ///
    /// ```
    /// use flexmd_schema::Registry;
    /// use serde_json::json;
    /// let mut registry = Registry::new();
    /// registry.register("thing", json!({"type": "object", "required": ["id"]})).unwrap();
    /// let value: serde_json::Value = serde_json::from_str(r#"{"id": 7}"#).unwrap();
    /// let outcome = registry.validate_owned("thing", value);
    /// assert_eq!(outcome.data, Some(json!({"id": 7})));
    /// assert!(!registry.validate_owned("thing", json!({})).valid);
    /// ```
    pub fn validate_owned(&self, name: &str, instance: Value) -> Outcome {
        match self.entry(name) {
            Some(entry) => run_cow(&entry.compiled, std::borrow::Cow::Owned(instance)),
            None => Outcome::failure(format!("Schema not found: {name}"), "schema_not_found"),
        }
    }

    /// Whether `instance` is valid against the schema registered as `name`
    /// (an unknown name: never), without building an outcome: no error
    /// objects, no copy of the instance. The yes/no of
    /// [`Registry::validate`], for filtering many values fast.
    ///
    /// ```
    /// use flexmd_schema::Registry;
    /// use serde_json::json;
    /// let mut registry = Registry::new();
    /// let schema = json!({"type": "object", "required": ["id"]});
    /// registry.register("thing", schema).unwrap();
    /// assert!(registry.is_valid("thing", &json!({"id": 1})));
    /// assert!(!registry.is_valid("thing", &json!({})));
    /// assert!(!registry.is_valid("nope", &json!({"id": 1})));
    /// ```
    #[must_use]
    pub fn is_valid(&self, name: &str, instance: &Value) -> bool {
        self.entry(name)
            .is_some_and(|entry| entry.compiled.is_valid(instance))
    }

    /// Whether the JSON `text` holds a value valid against the schema
    /// registered as `name`: the yes/no of [`Registry::is_valid`] from text
    /// as `serde_json` reads it (strict JSON; use
    /// [`Registry::validate_text`] for a model's answer, whose JSON is
    /// found and repaired first).
    ///
    /// For a schema written only in the common keywords (`type`, `enum`,
    /// `const`, bounds, lengths, `items`, `properties`, `required`,
    /// `additionalProperties`; every predefined schema is), the text is
    /// judged as it is read, without building a value.
    ///
    /// # Errors
    ///
    /// [`SchemaError::NotFound`] for an unknown name;
    /// [`SchemaError::InvalidJson`] for text that is not JSON.
    ///
    /// ```
    /// use flexmd_schema::{Registry, SchemaError};
    /// let registry = Registry::new();
    /// let review = r#"{"approved": true, "issues": [], "recommendation": "approve",
    ///     "summary": {"critical": 0, "high": 0, "medium": 1, "low": 0, "info": 0}}"#;
    /// assert!(registry.is_valid_json("review", review)?);
    /// assert!(!registry.is_valid_json("review", r#"{"approved": "yes"}"#)?);
    /// assert!(matches!(
    ///     registry.is_valid_json("review", "{approved: true}"),
    ///     Err(SchemaError::InvalidJson { line: 1, column: 2, .. })
    /// ));
    /// # Ok::<(), SchemaError>(())
    /// ```
    pub fn is_valid_json(&self, name: &str, text: &str) -> Result<bool, SchemaError> {
        let entry = self.entry(name).ok_or_else(|| SchemaError::NotFound {
            name: name.to_owned(),
            known: self.names().collect::<Vec<_>>().join(", "),
        })?;
        let compiled = &entry.compiled;
        if let Some(verdict) = compiled.plan.as_ref().and_then(|p| p.is_valid_text(text)) {
            return Ok(verdict);
        }
        let value: Value = serde_json::from_str(text).map_err(|e| {
            // The place is in its own fields, not twice in the message.
            let message = e.to_string();
            let place = format!(" at line {} column {}", e.line(), e.column());
            SchemaError::InvalidJson {
                message: message.strip_suffix(&place).unwrap_or(&message).to_owned(),
                line: e.line(),
                column: e.column(),
            }
        })?;
        Ok(compiled.is_valid(&value))
    }

    /// Validates `instance` against a schema given inline, compiled with the
    /// registry's schemas and resources reachable by `$ref`.
    ///
    /// ```
    /// use flexmd_schema::Registry;
    /// use serde_json::json;
    ///
    /// let registry = Registry::new();
    /// let schema = json!({"type": "array", "items": {"$ref": "flexmd://schemas/plan"}});
    /// let outcome = registry.validate_schema(&schema, &json!([{"phases": []}])).unwrap();
    /// assert!(outcome.valid);
    /// ```
    pub fn validate_schema(
        &self,
        schema: &Value,
        instance: &Value,
    ) -> Result<Outcome, SchemaError> {
        let compiled = self.compile(schema)?;
        Ok(run(&compiled, instance))
    }

    /// Compiles an inline schema with the registry's resources (once: the
    /// last few are kept). A registered schema itself (as [`Registry::get`]
    /// lends it) is the one compiled when it was registered.
    pub(crate) fn compile(&self, schema: &Value) -> Result<Arc<Compiled>, SchemaError> {
        if let Some(entry) = self
            .entries
            .values()
            .find(|e| std::ptr::eq(&e.compiled.schema, schema))
        {
            return Ok(Arc::clone(&entry.compiled));
        }
        if let Some(compiled) = self.inline.get(schema) {
            return Ok(compiled);
        }
        let validator =
            compile(schema, None, &self.resources).map_err(|message| SchemaError::Invalid {
                name: "(inline)".to_owned(),
                message,
            })?;
        let compiled = Arc::new(Compiled::new(validator, schema));
        self.inline.keep(&compiled);
        Ok(compiled)
    }

    /// The compiled schema of `name`.
    pub(crate) fn compiled(&self, name: &str) -> Option<&Compiled> {
        self.entry(name).map(|e| e.compiled.as_ref())
    }

    /// Every schema `$ref`s may reach, by URI.
    pub(crate) fn resources(&self) -> &HashMap<String, Value> {
        &self.resources
    }

    /// The resources, shared (a [`crate::RecordValidator`] keeps them).
    pub(crate) fn resources_shared(&self) -> Arc<HashMap<String, Value>> {
        Arc::clone(&self.resources)
    }
}

/// Runs a compiled validator, after the instance depth guard.
pub(crate) fn run(compiled: &Compiled, instance: &Value) -> Outcome {
    run_cow(compiled, std::borrow::Cow::Borrowed(instance))
}

/// [`run`], moving an owned instance into the outcome's `data` instead of
/// copying it (a copy was half the time of validating a small value).
pub(crate) fn run_cow(compiled: &Compiled, instance: std::borrow::Cow<'_, Value>) -> Outcome {
    let mut outcome = verdict(compiled, &instance);
    if outcome.valid {
        outcome.data = Some(instance.into_owned());
    }
    outcome
}

/// The verdict and the violations of [`run`], without `data`.
pub(crate) fn verdict(compiled: &Compiled, instance: &Value) -> Outcome {
    let validator = &compiled.validator;
    if compiled.guard
        && let Some(pointer) = too_deep(instance, MAX_INSTANCE_DEPTH)
    {
        return Outcome {
            valid: false,
            data: None,
            errors: vec![Violation {
                path: dotted_path(instance, &pointer),
                pointer,
                schema_path: String::new(),
                message: format!("The value nests deeper than {MAX_INSTANCE_DEPTH} levels"),
                code: "too_deep".to_owned(),
                ..Violation::default()
            }],
            warnings: Vec::new(),
            errors_total: None,
            errors_limited: false,
            coerced: false,
            changes: Vec::new(),
        };
    }
    if compiled.plan.as_ref().map_or_else(
        || validator.is_valid(instance),
        |plan| plan.is_valid(instance),
    ) {
        return Outcome {
            valid: true,
            data: None,
            errors: Vec::new(),
            warnings: Vec::new(),
            errors_total: None,
            errors_limited: false,
            coerced: false,
            changes: Vec::new(),
        };
    }
    if more_values_than(instance, MAX_VALUES_FOR_ALL_ERRORS) {
        let errors: Vec<Violation> = validator
            .validate(instance)
            .err()
            .map(|e| violation(instance, &e))
            .into_iter()
            .collect();
        return Outcome {
            valid: errors.is_empty(),
            data: None,
            errors_total: None,
            errors_limited: !errors.is_empty(),
            errors,
            warnings: Vec::new(),
            coerced: false,
            changes: Vec::new(),
        };
    }
    let mut errors: Vec<Violation> = Vec::new();
    let mut total = 0usize;
    for e in validator.iter_errors(instance) {
        total += 1;
        if errors.len() < MAX_ERRORS {
            errors.push(violation(instance, &e));
        }
    }
    Outcome {
        valid: errors.is_empty(),
        data: None,
        errors_total: (total > MAX_ERRORS).then_some(total),
        errors_limited: false,
        errors,
        warnings: Vec::new(),
        coerced: false,
        changes: Vec::new(),
    }
}

/// Whether `value` holds more than `limit` values (itself included);
/// stops counting past the limit.
pub(crate) fn more_values_than(value: &Value, limit: usize) -> bool {
    let mut seen = 0usize;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        seen += 1;
        if seen > limit {
            return true;
        }
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    false
}

/// The JSON Pointer of a node deeper than `limit`.
pub(crate) fn too_deep(value: &Value, limit: usize) -> Option<String> {
    if !deeper_than(value, limit) {
        return None;
    }
    // Only on failure: follow a child that is too deep down past the limit.
    let mut pointer = String::new();
    let mut node = value;
    let mut left = limit;
    for _ in 0..=limit {
        let below = left.checked_sub(1);
        let too_deep_child = |v: &&Value| below.is_none_or(|b| deeper_than(v, b));
        let (segment, next) = match node {
            Value::Array(items) => {
                let (i, v) = items.iter().enumerate().find(|(_, v)| too_deep_child(v))?;
                (i.to_string(), v)
            }
            Value::Object(map) => {
                let (k, v) = map.iter().find(|(_, v)| too_deep_child(v))?;
                (k.replace('~', "~0").replace('/', "~1"), v)
            }
            _ => return None,
        };
        pointer.push('/');
        pointer.push_str(&segment);
        node = next;
        left = below.unwrap_or(0);
    }
    Some(pointer)
}

/// Whether `value` nests more than `limit` levels (a scalar nests 0). The
/// recursion stops at `limit + 1` levels, so it is bounded whatever the input.
fn deeper_than(value: &Value, limit: usize) -> bool {
    match value {
        Value::Array(items) => limit == 0 || items.iter().any(|v| deeper_than(v, limit - 1)),
        Value::Object(map) => limit == 0 || map.values().any(|v| deeper_than(v, limit - 1)),
        _ => false,
    }
}

fn compile(
    schema: &Value,
    base: Option<&str>,
    resources: &Arc<HashMap<String, Value>>,
) -> Result<Validator, String> {
    let mut options = jsonschema::options().with_retriever(MapRetriever(Arc::clone(resources)));
    if let Some(base) = base
        && schema.get("$id").is_none()
    {
        options = options.with_base_uri(base);
    }
    options.build(schema).map_err(|e| e.to_string())
}

/// `$ref` resolution from the registry's map only: no network, no files.
struct MapRetriever(Arc<HashMap<String, Value>>);

impl Retrieve for MapRetriever {
    fn retrieve(
        &self,
        uri: &Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let key = normalize_uri(uri.as_str());
        self.0.get(&key).cloned().ok_or_else(|| {
            format!("no schema is registered at {key} (flexmd never fetches schemas)").into()
        })
    }
}

/// A URI without its fragment.
fn normalize_uri(uri: &str) -> String {
    uri.split('#').next().unwrap_or(uri).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_inline_schema_is_compiled_once_until_refs_may_resolve_elsewhere() {
        let mut registry = Registry::empty();
        registry.register("n", json!({"type": "integer"})).unwrap();
        let schema = json!({"type": "array", "items": {"$ref": "flexmd://schemas/n"}});
        let first = registry.compile(&schema).unwrap();
        assert!(Arc::ptr_eq(&first, &registry.compile(&schema).unwrap()));
        assert!(
            !registry
                .validate_schema(&schema, &json!(["x"]))
                .unwrap()
                .valid
        );
        // `n` now names another schema: the inline one is compiled again.
        registry.register("n", json!({"type": "string"})).unwrap();
        let second = registry.compile(&schema).unwrap();
        assert!(!Arc::ptr_eq(&first, &second));
        assert!(
            registry
                .validate_schema(&schema, &json!(["x"]))
                .unwrap()
                .valid
        );
        // Bounded: the oldest goes first.
        for i in 0..INLINE_CACHE_SIZE {
            registry.compile(&json!({"maxLength": i})).unwrap();
        }
        assert!(!Arc::ptr_eq(&second, &registry.compile(&schema).unwrap()));
        assert_eq!(registry.inline.0.lock().unwrap().len(), INLINE_CACHE_SIZE);
    }

    #[test]
    fn the_five_predefined_schemas_compile() {
        let registry = Registry::new();
        assert_eq!(
            registry.names().collect::<Vec<_>>(),
            [
                "analysis",
                "implementation",
                "review",
                "verification",
                "plan"
            ]
        );
    }

    #[test]
    fn only_schemas_that_can_recurse_get_the_depth_guard() {
        assert!(!can_recurse(
            &json!({"type": "object", "properties": {"a": {"items": {}}}})
        ));
        assert!(can_recurse(&json!({"properties": {"a": {"$ref": "#"}}})));
        assert!(can_recurse(&json!({"allOf": [{"uniqueItems": true}]})));
    }

    #[test]
    fn depth_guard_finds_the_deep_node() {
        let mut v = json!(1);
        for _ in 0..5 {
            v = Value::Array(vec![v]);
        }
        assert_eq!(too_deep(&v, 4), Some("/0/0/0/0/0".to_owned()));
        assert_eq!(too_deep(&v, 5), None);
        let v = json!({"a": 1, "b": {"c": [[2]]}});
        assert_eq!(too_deep(&v, 2), Some("/b/c/0".to_owned()));
    }
}
