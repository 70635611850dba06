//! Provider strict schemas: a JSON Schema rewritten into the subset each
//! provider's structured-output mode takes, with every change reported.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::error::ConstrainError;
use crate::refs::{escape, resolve_local};
use crate::report::{Action, Rule, SchemaChange};

/// The most subschemas one export writes: copying references where they are
/// used can multiply a schema's size, and an export is bounded.
pub const MAX_EXPORTED_NODES: usize = 100_000;

/// A provider's structured-output mode: where the exported schema goes in
/// the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub enum Provider {
    /// OpenAI Structured Outputs: `response_format` with `strict: true`.
    #[serde(rename = "openai")]
    OpenAi,
    /// An OpenAI strict function tool (`tools[].function.strict`), forced
    /// with `tool_choice`.
    #[serde(rename = "openai-tool")]
    OpenAiTool,
    /// Anthropic structured outputs: `output_config.format`.
    #[serde(rename = "anthropic")]
    Anthropic,
    /// An Anthropic strict tool (`tools[].strict`, `input_schema`), forced
    /// with `tool_choice`.
    #[serde(rename = "anthropic-tool")]
    AnthropicTool,
    /// Gemini: `generationConfig.responseJsonSchema`.
    #[serde(rename = "gemini")]
    Gemini,
}

/// The providers whose rules differ (a mode and its tool form share them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    OpenAi,
    Anthropic,
    Gemini,
}

impl Provider {
    /// Every provider mode, in the order the CLI lists them.
    pub const ALL: [Provider; 5] = [
        Provider::OpenAi,
        Provider::OpenAiTool,
        Provider::Anthropic,
        Provider::AnthropicTool,
        Provider::Gemini,
    ];

    /// The name the CLI and the bindings use (`openai-tool`).
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAi => "openai",
            Provider::OpenAiTool => "openai-tool",
            Provider::Anthropic => "anthropic",
            Provider::AnthropicTool => "anthropic-tool",
            Provider::Gemini => "gemini",
        }
    }

    fn family(self) -> Family {
        match self {
            Provider::OpenAi | Provider::OpenAiTool => Family::OpenAi,
            Provider::Anthropic | Provider::AnthropicTool => Family::Anthropic,
            Provider::Gemini => Family::Gemini,
        }
    }

    /// Whether the provider fills in every property, so that an optional
    /// one arrives as `null` (OpenAI's strict mode).
    pub fn requires_every_property(self) -> bool {
        self.family() == Family::OpenAi
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of [`Provider::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[error("unknown provider `{0}`: use openai, openai-tool, anthropic, anthropic-tool or gemini")]
#[diagnostic(code(constrain::unknown_provider))]
pub struct UnknownProvider(pub String);

impl FromStr for Provider {
    type Err = UnknownProvider;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Provider::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| UnknownProvider(s.to_owned()))
    }
}

/// A schema exported for a provider: the request fragment, the schema in
/// it, and what changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Export {
    /// The provider mode it was made for.
    pub provider: Provider,
    /// The name the fragment gives the schema or tool (letters, digits,
    /// `_` and `-`, at most 64).
    pub name: String,
    /// The fragment to merge into the request body, e.g. for `openai`
    /// `{"response_format": {"type": "json_schema", "json_schema": {"name",
    /// "strict": true, "schema"}}}`.
    pub request: Value,
    /// The exported schema alone (the one inside `request`).
    pub schema: Value,
    /// Every change from the original, in the order made.
    pub changes: Vec<SchemaChange>,
}

impl Export {
    /// The changes whose constraint only validation after the answer
    /// checks.
    pub fn unenforced(&self) -> impl Iterator<Item = &SchemaChange> {
        self.changes
            .iter()
            .filter(|c| c.action == Action::Unenforced)
    }
}

/// Rewrites `schema` into the subset `provider` takes and wraps it in the
/// request fragment, named `name` (made safe: letters, digits, `_`, `-`).
///
/// Optional properties stay optional where the provider allows it; for
/// OpenAI they become required and nullable. Objects are closed
/// (`additionalProperties: false`) for OpenAI and Anthropic. References are
/// copied where they are used, but for a schema that refers to itself,
/// kept in `$defs` where the provider takes recursion (an error where it
/// does not). Keywords the provider does not enforce are removed and
/// named in the description, so the model still reads them; validation of
/// the answer against the original schema checks them
/// ([`crate::validate_from`]).
///
/// ```
/// use flexmd_constrain::{Provider, export};
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {"name": {"type": "string", "minLength": 2}, "age": {"type": "integer"}},
///     "required": ["name"]
/// });
/// let export = export(&schema, Provider::OpenAi, "person").unwrap();
/// assert_eq!(export.schema, json!({
///     "type": "object",
///     "properties": {
///         "name": {"type": "string", "description": "(minLength: 2)"},
///         "age": {"type": ["integer", "null"]}
///     },
///     "required": ["name", "age"],
///     "additionalProperties": false
/// }));
/// assert_eq!(export.request["response_format"]["json_schema"]["strict"], json!(true));
/// assert_eq!(export.unenforced().count(), 1);
/// ```
pub fn export(schema: &Value, provider: Provider, name: &str) -> Result<Export, ConstrainError> {
    check_schema(schema)?;
    let mut converter = Converter {
        provider,
        family: provider.family(),
        root: schema,
        changes: Vec::new(),
        reported: HashSet::new(),
        stack: vec!["#".to_owned()],
        defs: Map::new(),
        def_names: HashMap::new(),
        nodes: 0,
    };
    let mut exported = converter.convert(schema, "")?;
    check_root(provider, &exported)?;
    if !converter.defs.is_empty()
        && let Value::Object(map) = &mut exported
    {
        map.insert("$defs".to_owned(), Value::Object(converter.defs));
    }
    if provider.family() == Family::OpenAi {
        check_openai_limits(&exported)?;
    }
    let name = safe_name(name);
    let description = schema
        .get("description")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let request = fragment(provider, &name, description, &exported);
    Ok(Export {
        provider,
        name,
        request,
        schema: exported,
        changes: converter.changes,
    })
}

/// The request fragment for `provider`.
fn fragment(provider: Provider, name: &str, description: Option<String>, schema: &Value) -> Value {
    let with_description = |mut object: Map<String, Value>| {
        if let Some(description) = &description {
            object.insert("description".to_owned(), json!(description));
        }
        object
    };
    match provider {
        Provider::OpenAi => {
            let mut inner = with_description(Map::new());
            inner.insert("name".to_owned(), json!(name));
            inner.insert("strict".to_owned(), json!(true));
            inner.insert("schema".to_owned(), schema.clone());
            json!({"response_format": {"type": "json_schema", "json_schema": inner}})
        }
        Provider::OpenAiTool => {
            let mut function = Map::new();
            function.insert("name".to_owned(), json!(name));
            let mut function = with_description(function);
            function.insert("strict".to_owned(), json!(true));
            function.insert("parameters".to_owned(), schema.clone());
            json!({
                "tools": [{"type": "function", "function": function}],
                "tool_choice": {"type": "function", "function": {"name": name}}
            })
        }
        Provider::Anthropic => {
            json!({"output_config": {"format": {"type": "json_schema", "schema": schema}}})
        }
        Provider::AnthropicTool => {
            let mut tool = Map::new();
            tool.insert("name".to_owned(), json!(name));
            let mut tool = with_description(tool);
            tool.insert("strict".to_owned(), json!(true));
            tool.insert("input_schema".to_owned(), schema.clone());
            json!({"tools": [tool], "tool_choice": {"type": "tool", "name": name}})
        }
        Provider::Gemini => json!({
            "generationConfig": {
                "responseMimeType": "application/json",
                "responseJsonSchema": schema
            }
        }),
    }
}

/// The name a request gives `schema` when its caller has none (no name
/// given, no registered name, no file): the schema's `title`, else
/// `response`. [`export`] then fits it to the providers' rule.
///
/// ```
/// use flexmd_constrain::default_name;
/// use serde_json::json;
///
/// assert_eq!(default_name(&json!({"title": "Invoice", "type": "object"})), "Invoice");
/// assert_eq!(default_name(&json!({"type": "string"})), "response");
/// ```
pub fn default_name(schema: &Value) -> &str {
    schema
        .get("title")
        .and_then(Value::as_str)
        .unwrap_or("response")
}

/// `name` with every character but letters, digits, `_` and `-` made `_`,
/// at most 64 characters, `response` when empty (the providers' rule for
/// schema and tool names).
fn safe_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    if safe.is_empty() {
        "response".to_owned()
    } else {
        safe
    }
}

/// Annotations: they constrain nothing, and the providers refuse or ignore
/// them.
const ANNOTATIONS: &[&str] = &[
    "title",
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "$dynamicAnchor",
    "$vocabulary",
    "examples",
    "example",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "discriminator",
    "nullable",
    "propertyOrdering",
];

/// Constraints some provider enforces and another does not.
const CONSTRAINTS: &[&str] = &[
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedItems",
    "unevaluatedProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "not",
    "if",
    "then",
    "else",
];

/// Keywords the conversion handles itself.
const STRUCTURE: &[&str] = &[
    "$ref",
    "$defs",
    "definitions",
    "allOf",
    "anyOf",
    "oneOf",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "enum",
    "const",
    "description",
    "default",
];

impl Family {
    fn keeps(self, keyword: &str, value: &Value) -> bool {
        match (self, keyword) {
            (Family::OpenAi, "pattern") => value.as_str().is_some_and(|p| plain_pattern(p, false)),
            (Family::Anthropic, "pattern") => {
                value.as_str().is_some_and(|p| plain_pattern(p, true))
            }
            (Family::OpenAi, "format") => value.as_str().is_some_and(|f| {
                matches!(
                    f,
                    "date-time"
                        | "time"
                        | "date"
                        | "duration"
                        | "email"
                        | "hostname"
                        | "ipv4"
                        | "ipv6"
                        | "uuid"
                )
            }),
            (Family::Anthropic, "format") => value.as_str().is_some_and(|f| {
                matches!(
                    f,
                    "date-time"
                        | "time"
                        | "date"
                        | "duration"
                        | "email"
                        | "hostname"
                        | "uri"
                        | "ipv4"
                        | "ipv6"
                        | "uuid"
                )
            }),
            (Family::Gemini, "format") => value
                .as_str()
                .is_some_and(|f| matches!(f, "date-time" | "date" | "time")),
            (
                Family::OpenAi,
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf"
                | "minItems" | "maxItems",
            ) => true,
            (Family::Gemini, "minimum" | "maximum" | "minItems" | "maxItems") => true,
            _ => false,
        }
    }
}

/// Whether a regular expression avoids what the providers refuse:
/// lookaround and backreferences (and, for Anthropic, word boundaries).
fn plain_pattern(pattern: &str, no_word_boundary: bool) -> bool {
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('1'..='9' | 'k') => return false,
                Some('b' | 'B') if no_word_boundary => return false,
                _ => {}
            },
            '(' if chars.peek() == Some(&'?') => {
                chars.next();
                match chars.next() {
                    Some('=' | '!') => return false,
                    Some('<') if matches!(chars.peek(), Some('=' | '!')) => return false,
                    _ => {}
                }
            }
            _ => {}
        }
    }
    true
}

struct Converter<'a> {
    provider: Provider,
    family: Family,
    root: &'a Value,
    changes: Vec<SchemaChange>,
    /// (pointer, rule, keyword) already reported: a copied reference is
    /// converted at every use, and reported once.
    reported: HashSet<(String, Rule, Option<String>)>,
    /// The references being copied, innermost last (`#` is the root).
    stack: Vec<String>,
    /// Definitions kept for recursion, by exported name.
    defs: Map<String, Value>,
    /// Exported name of each kept reference.
    def_names: HashMap<String, String>,
    nodes: usize,
}

impl Converter<'_> {
    fn report(
        &mut self,
        pointer: &str,
        rule: Rule,
        action: Action,
        keyword: Option<&str>,
        detail: String,
    ) {
        let key = (pointer.to_owned(), rule, keyword.map(str::to_owned));
        if self.reported.insert(key) {
            self.changes.push(SchemaChange {
                pointer: pointer.to_owned(),
                rule,
                action,
                keyword: keyword.map(str::to_owned),
                detail,
            });
        }
    }

    fn unsupported(&self, pointer: &str, reason: impl Into<String>) -> ConstrainError {
        ConstrainError::Unsupported {
            provider: self.provider.name(),
            pointer: pointer.to_owned(),
            reason: reason.into(),
        }
    }

    /// Each schema of a list keyword (`anyOf`, `prefixItems`, …) at
    /// `pointer` converted; anything but an array is not a schema list.
    fn convert_list(&mut self, list: &Value, pointer: &str) -> Result<Vec<Value>, ConstrainError> {
        let Some(items) = list.as_array() else {
            return Err(ConstrainError::NotASchema {
                pointer: pointer.to_owned(),
                found: kind_of(list).to_owned(),
            });
        };
        let mut converted = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            converted.push(self.convert(item, &format!("{pointer}/{i}"))?);
        }
        Ok(converted)
    }

    fn convert(&mut self, node: &Value, pointer: &str) -> Result<Value, ConstrainError> {
        self.nodes += 1;
        if self.nodes > MAX_EXPORTED_NODES {
            return Err(ConstrainError::TooLarge {
                what: "the exported schema",
                max: MAX_EXPORTED_NODES,
                unit: "subschemas (references are copied where they are used)",
            });
        }
        let map = match node {
            Value::Object(map) => map,
            Value::Bool(true) => {
                return Ok(if self.family == Family::OpenAi {
                    self.untyped(pointer, None)
                } else {
                    json!({})
                });
            }
            Value::Bool(false) => {
                return Err(self.unsupported(pointer, "it accepts no value (`false`)"));
            }
            other => {
                return Err(ConstrainError::NotASchema {
                    pointer: pointer.to_owned(),
                    found: kind_of(other).to_owned(),
                });
            }
        };
        if let Some(reference) = map.get("$ref") {
            return self.reference(map, reference, pointer);
        }
        if let Some(all_of) = map.get("allOf") {
            let merged = self.merge_all_of(map, all_of, pointer)?;
            return self.convert(&Value::Object(merged), pointer);
        }
        self.convert_plain(map, pointer)
    }

    /// A `$ref`: copied, or kept for a schema that refers to itself.
    fn reference(
        &mut self,
        map: &Map<String, Value>,
        reference: &Value,
        pointer: &str,
    ) -> Result<Value, ConstrainError> {
        let Some(reference) = reference.as_str() else {
            return Err(ConstrainError::NotASchema {
                pointer: format!("{pointer}/$ref"),
                found: kind_of(reference).to_owned(),
            });
        };
        let unresolved = || ConstrainError::UnresolvedRef {
            pointer: pointer.to_owned(),
            reference: reference.to_owned(),
        };
        let (target, target_pointer) =
            resolve_local(self.root, reference).ok_or_else(unresolved)?;
        let key = format!("#{target_pointer}");
        if self.stack.contains(&key) {
            return self.recursive(&key, target, &target_pointer, pointer);
        }
        // Siblings of `$ref` apply with it; written over the target, as the
        // OpenAI SDK does.
        let merged = match target {
            Value::Object(target_map) if map.len() > 1 => {
                let mut merged = target_map.clone();
                for (k, v) in map {
                    if k != "$ref" {
                        merged.insert(k.clone(), v.clone());
                    }
                }
                Value::Object(merged)
            }
            _ => target.clone(),
        };
        self.report(
            pointer,
            Rule::RefInlined,
            Action::Rewritten,
            Some("$ref"),
            format!("`{reference}` copied here"),
        );
        self.stack.push(key);
        let converted = self.convert(&merged, &target_pointer);
        self.stack.pop();
        converted
    }

    /// A reference to a schema being copied: kept in `$defs` where the
    /// provider takes recursion.
    fn recursive(
        &mut self,
        key: &str,
        target: &Value,
        target_pointer: &str,
        pointer: &str,
    ) -> Result<Value, ConstrainError> {
        if self.family == Family::Anthropic {
            return Err(ConstrainError::Recursive {
                provider: self.provider.name(),
                pointer: pointer.to_owned(),
                reference: key.to_owned(),
            });
        }
        self.report(
            pointer,
            Rule::RefKept,
            Action::Rewritten,
            Some("$ref"),
            format!("`{key}` refers back to a schema it is part of: kept as a reference"),
        );
        if key == "#" {
            return Ok(json!({"$ref": "#"}));
        }
        if let Some(name) = self.def_names.get(key) {
            return Ok(json!({"$ref": format!("#/$defs/{}", escape(name))}));
        }
        let base = target_pointer.rsplit('/').next().unwrap_or("def");
        let mut name = safe_name(&crate::refs::unescape(base));
        while self.defs.contains_key(&name) || self.def_names.values().any(|n| *n == name) {
            name.push('_');
        }
        self.def_names.insert(key.to_owned(), name.clone());
        // Converted on a stack of its own: inside, only this definition is
        // "being copied", so references to it stay references.
        let saved = std::mem::replace(&mut self.stack, vec!["#".to_owned(), key.to_owned()]);
        let converted = self.convert(target, target_pointer);
        self.stack = saved;
        self.defs.insert(name.clone(), converted?);
        Ok(json!({"$ref": format!("#/$defs/{}", escape(&name))}))
    }

    /// `allOf` and the keywords beside it, as one schema.
    fn merge_all_of(
        &mut self,
        map: &Map<String, Value>,
        all_of: &Value,
        pointer: &str,
    ) -> Result<Map<String, Value>, ConstrainError> {
        let merged = crate::refs::merge_all_of(self.root, map, all_of, pointer)
            .map_err(|(at, reason)| self.unsupported(&at, reason))?;
        let count = all_of.as_array().map_or(0, Vec::len);
        self.report(
            pointer,
            Rule::AllOfMerged,
            Action::Rewritten,
            Some("allOf"),
            format!("{count} schemas merged into one"),
        );
        Ok(merged)
    }

    /// A schema that accepts any value, where strict mode needs a type:
    /// any scalar (objects need declared properties, so none can be
    /// produced here).
    fn untyped(&mut self, pointer: &str, description: Option<&str>) -> Value {
        self.report(
            pointer,
            Rule::UntypedAsScalar,
            Action::Rewritten,
            Some("type"),
            "no type: strict mode needs one, so a string, number, boolean or null is produced here (no object or array)".to_owned(),
        );
        let mut schema = json!({"anyOf": [
            {"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}
        ]});
        if let (Some(d), Value::Object(map)) = (description, &mut schema) {
            map.insert("description".to_owned(), json!(d));
        }
        schema
    }

    /// A schema with no `$ref` and no `allOf`.
    fn convert_plain(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
    ) -> Result<Value, ConstrainError> {
        let mut out = Map::new();
        let mut notes: Vec<String> = Vec::new();
        let is_object = type_includes(map, "object") || map.contains_key("properties");

        if let Some(ty) = map.get("type") {
            check_type(ty, pointer)?;
            out.insert("type".to_owned(), ty.clone());
        }
        for keyword in ["anyOf", "oneOf"] {
            let Some(branches) = map.get(keyword) else {
                continue;
            };
            let converted = self.convert_list(branches, &format!("{pointer}/{keyword}"))?;
            if keyword == "oneOf" {
                self.report(
                    pointer,
                    Rule::OneOfAsAnyOf,
                    Action::Unenforced,
                    Some("oneOf"),
                    "written as `anyOf`: that exactly one branch matches is checked after the answer".to_owned(),
                );
            }
            match out.get_mut("anyOf") {
                // `anyOf` beside `oneOf`: both must hold; rare enough to refuse.
                Some(_) => {
                    return Err(self.unsupported(
                        pointer,
                        "both `anyOf` and `oneOf`: put one inside the other with `allOf`… or merge them",
                    ));
                }
                None => {
                    out.insert("anyOf".to_owned(), Value::Array(converted));
                }
            }
        }
        if let Some(values) = map.get("enum") {
            let complex = values
                .as_array()
                .is_some_and(|v| v.iter().any(|x| x.is_object() || x.is_array()));
            if self.family == Family::Anthropic && complex {
                self.report(
                    pointer,
                    Rule::UnenforcedKeyword,
                    Action::Unenforced,
                    Some("enum"),
                    "an `enum` of objects or arrays is not taken: checked after the answer"
                        .to_owned(),
                );
            } else {
                out.insert("enum".to_owned(), values.clone());
            }
        }
        if let Some(value) = map.get("const") {
            if self.family == Family::Anthropic {
                out.insert("const".to_owned(), value.clone());
            } else {
                self.report(
                    pointer,
                    Rule::ConstAsEnum,
                    Action::Rewritten,
                    Some("const"),
                    "written as a one-value `enum`".to_owned(),
                );
                out.insert("enum".to_owned(), json!([value]));
            }
        }
        if self.family == Family::OpenAi
            && !out.contains_key("type")
            && !out.contains_key("anyOf")
            && !out.contains_key("enum")
        {
            let description = map.get("description").and_then(Value::as_str);
            return Ok(self.untyped(pointer, description));
        }
        if let Some(properties) = map.get("properties") {
            self.properties(map, properties, pointer, &mut out)?;
        } else if is_object && self.family != Family::Gemini {
            let open = map
                .get("additionalProperties")
                .is_none_or(|ap| *ap != Value::Bool(false));
            if open {
                return Err(self.unsupported(
                    pointer,
                    "an object with no declared properties: strict mode would allow only `{}`; declare its properties (or use an array of {key, value} objects for a map)",
                ));
            }
            out.insert("properties".to_owned(), json!({}));
            out.insert("required".to_owned(), json!([]));
            out.insert("additionalProperties".to_owned(), json!(false));
        } else if let Some(ap) = map.get("additionalProperties") {
            // Gemini keeps maps.
            let converted = match ap {
                Value::Bool(_) => ap.clone(),
                _ => self.convert(ap, &format!("{pointer}/additionalProperties"))?,
            };
            out.insert("additionalProperties".to_owned(), converted);
        }
        self.items(map, pointer, &mut out)?;

        for (keyword, value) in map {
            let keyword = keyword.as_str();
            if STRUCTURE.contains(&keyword) {
                continue;
            }
            if ANNOTATIONS.contains(&keyword) {
                self.report(
                    pointer,
                    Rule::AnnotationDropped,
                    Action::Dropped,
                    Some(keyword),
                    format!("`{keyword}` is an annotation the provider does not take"),
                );
                continue;
            }
            if CONSTRAINTS.contains(&keyword) {
                if self.family.keeps(keyword, value) {
                    out.insert(keyword.to_owned(), value.clone());
                } else if keyword == "minItems" && self.family == Family::Anthropic {
                    // Anthropic takes only 0 and 1: the most it enforces.
                    let n = value.as_u64().unwrap_or(0);
                    if n <= 1 {
                        out.insert(keyword.to_owned(), value.clone());
                    } else {
                        out.insert(keyword.to_owned(), json!(1));
                        notes.push(format!("minItems: {n}"));
                        self.report(
                            pointer,
                            Rule::MinItemsLoosened,
                            Action::Unenforced,
                            Some(keyword),
                            format!("minItems {n} loosened to 1 (the most the provider takes); {n} is checked after the answer"),
                        );
                    }
                } else {
                    notes.push(format!("{keyword}: {}", short(value)));
                    self.report(
                        pointer,
                        Rule::UnenforcedKeyword,
                        Action::Unenforced,
                        Some(keyword),
                        format!(
                            "`{keyword}` is not enforced by the provider: checked after the answer"
                        ),
                    );
                }
                continue;
            }
            self.report(
                pointer,
                Rule::UnknownKeyword,
                Action::Dropped,
                Some(keyword),
                format!("`{keyword}` is not a JSON Schema keyword flexmd knows"),
            );
        }
        if let Some(default) = map.get("default") {
            if self.family == Family::Anthropic {
                out.insert("default".to_owned(), default.clone());
            } else {
                self.report(
                    pointer,
                    Rule::DefaultDropped,
                    Action::Dropped,
                    Some("default"),
                    format!("`default` {} is filled in on the way back", short(default)),
                );
            }
        }
        let description = map.get("description").and_then(Value::as_str);
        match (description, notes.is_empty()) {
            (Some(d), true) => {
                out.insert("description".to_owned(), json!(d));
            }
            (Some(d), false) => {
                out.insert(
                    "description".to_owned(),
                    json!(format!("{d} ({})", notes.join(", "))),
                );
            }
            (None, false) => {
                out.insert(
                    "description".to_owned(),
                    json!(format!("({})", notes.join(", "))),
                );
            }
            (None, true) => {}
        }
        Ok(Value::Object(out))
    }

    /// `properties`, `required` and `additionalProperties` of an object.
    fn properties(
        &mut self,
        map: &Map<String, Value>,
        properties: &Value,
        pointer: &str,
        out: &mut Map<String, Value>,
    ) -> Result<(), ConstrainError> {
        let Some(properties) = properties.as_object() else {
            return Err(ConstrainError::NotASchema {
                pointer: format!("{pointer}/properties"),
                found: kind_of(properties).to_owned(),
            });
        };
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut converted = Map::new();
        for (name, schema) in properties {
            let at = format!("{pointer}/properties/{}", escape(name));
            let mut property = self.convert(schema, &at)?;
            if self.family == Family::OpenAi && !required.contains(&name.as_str()) {
                if !admits_null_exported(&property) {
                    property = make_nullable(property);
                }
                self.report(
                    &at,
                    Rule::OptionalMadeNullable,
                    Action::Rewritten,
                    Some("required"),
                    format!("optional `{name}` is required and may be null; the way back removes the null"),
                );
            }
            converted.insert(name.clone(), property);
        }
        let names: Vec<Value> = converted.keys().map(|k| json!(k)).collect();
        out.insert("properties".to_owned(), Value::Object(converted));
        if self.family == Family::OpenAi {
            out.insert("required".to_owned(), Value::Array(names.clone()));
        } else if let Some(r) = map.get("required") {
            out.insert("required".to_owned(), r.clone());
        }
        let ap = map.get("additionalProperties");
        match self.family {
            Family::OpenAi | Family::Anthropic => {
                if ap != Some(&Value::Bool(false)) {
                    self.report(
                        pointer,
                        Rule::ClosedObject,
                        Action::Rewritten,
                        Some("additionalProperties"),
                        "closed: only the declared properties are produced".to_owned(),
                    );
                }
                out.insert("additionalProperties".to_owned(), json!(false));
            }
            Family::Gemini => {
                if let Some(ap) = ap {
                    let converted = match ap {
                        Value::Bool(_) => ap.clone(),
                        _ => self.convert(ap, &format!("{pointer}/additionalProperties"))?,
                    };
                    out.insert("additionalProperties".to_owned(), converted);
                }
                if names.len() > 1 {
                    self.report(
                        pointer,
                        Rule::PropertyOrdering,
                        Action::Rewritten,
                        Some("propertyOrdering"),
                        "the properties are produced in the schema's order".to_owned(),
                    );
                    out.insert("propertyOrdering".to_owned(), Value::Array(names));
                }
            }
        }
        Ok(())
    }

    /// `items` and `prefixItems` of an array.
    fn items(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        out: &mut Map<String, Value>,
    ) -> Result<(), ConstrainError> {
        if let Some(items) = map.get("items") {
            let at = format!("{pointer}/items");
            let converted = match items {
                // draft 4–2019 tuples: `items` as an array.
                Value::Array(_) => {
                    return Err(self.unsupported(
                        &at,
                        "`items` as an array (a tuple): write it as `prefixItems`",
                    ));
                }
                _ => self.convert(items, &at)?,
            };
            out.insert("items".to_owned(), converted);
        } else if type_includes(map, "array")
            && !map.contains_key("prefixItems")
            && self.family == Family::OpenAi
        {
            let items = self.untyped(&format!("{pointer}/items"), None);
            out.insert("items".to_owned(), items);
        }
        if let Some(prefix) = map.get("prefixItems") {
            if self.family == Family::Anthropic {
                self.report(
                    pointer,
                    Rule::UnenforcedKeyword,
                    Action::Unenforced,
                    Some("prefixItems"),
                    "`prefixItems` is not taken: checked after the answer".to_owned(),
                );
                return Ok(());
            }
            let converted = self.convert_list(prefix, &format!("{pointer}/prefixItems"))?;
            out.insert("prefixItems".to_owned(), Value::Array(converted));
        }
        Ok(())
    }
}

/// Whether the schema's `type` is or lists `name`.
fn type_includes(map: &Map<String, Value>, name: &str) -> bool {
    match map.get("type") {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(ts)) => ts.iter().any(|t| t.as_str() == Some(name)),
        _ => false,
    }
}

/// Whether an exported schema (no `allOf`, no `oneOf`) lets `null` through.
fn admits_null_exported(schema: &Value) -> bool {
    let Value::Object(map) = schema else {
        return *schema == Value::Bool(true);
    };
    if type_includes(map, "null") {
        return true;
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array) {
        return values.contains(&Value::Null);
    }
    if let Some(branches) = map.get("anyOf").and_then(Value::as_array) {
        return branches.iter().any(admits_null_exported);
    }
    false
}

/// The schema, or `null` too.
fn make_nullable(schema: Value) -> Value {
    let Value::Object(mut map) = schema else {
        return schema;
    };
    if map.contains_key("$ref") || (map.contains_key("anyOf") && !map.contains_key("type")) {
        if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
            branches.push(json!({"type": "null"}));
            return Value::Object(map);
        }
        return json!({"anyOf": [Value::Object(map), {"type": "null"}]});
    }
    match map.get_mut("type") {
        Some(Value::String(t)) => {
            let t = std::mem::take(t);
            map.insert("type".to_owned(), json!([t, "null"]));
        }
        Some(Value::Array(ts)) => ts.push(json!("null")),
        _ => {}
    }
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        values.push(Value::Null);
    }
    Value::Object(map)
}

/// The root the provider requires.
fn check_root(provider: Provider, schema: &Value) -> Result<(), ConstrainError> {
    let is_object = schema
        .as_object()
        .is_some_and(|m| type_includes(m, "object") && !m.contains_key("anyOf"));
    if provider.family() != Family::Gemini && !is_object {
        return Err(ConstrainError::Unsupported {
            provider: provider.name(),
            pointer: String::new(),
            reason: "the root must be an object schema (`\"type\": \"object\"`), not a union or another type: wrap the value in an object property".to_owned(),
        });
    }
    Ok(())
}

/// OpenAI's documented limits for strict schemas.
fn check_openai_limits(schema: &Value) -> Result<(), ConstrainError> {
    let mut tally = Tally::default();
    tally.walk(schema, 0);
    if let Some(defs) = schema.get("$defs").and_then(Value::as_object) {
        for (name, def) in defs {
            tally.strings += name.chars().count();
            tally.walk(def, 0);
        }
    }
    let limit = |limit, found, max| ConstrainError::Limit {
        provider: "openai",
        limit,
        found,
        max,
    };
    if tally.properties > 5000 {
        return Err(limit("object properties in all", tally.properties, 5000));
    }
    if tally.depth > 10 {
        return Err(limit("levels of object nesting", tally.depth, 10));
    }
    if tally.enum_values > 1000 {
        return Err(limit("enum values in all", tally.enum_values, 1000));
    }
    if tally.strings > 120_000 {
        return Err(limit(
            "characters in property names, definition names, enum and const values together",
            tally.strings,
            120_000,
        ));
    }
    if tally.large_enum_chars > 15_000 {
        return Err(limit(
            "characters in the string values of an enum of more than 250 values",
            tally.large_enum_chars,
            15_000,
        ));
    }
    Ok(())
}

#[derive(Default)]
struct Tally {
    properties: usize,
    depth: usize,
    enum_values: usize,
    strings: usize,
    large_enum_chars: usize,
}

impl Tally {
    fn walk(&mut self, schema: &Value, depth: usize) {
        let Value::Object(map) = schema else { return };
        let mut depth = depth;
        if let Some(props) = map.get("properties").and_then(Value::as_object) {
            depth += 1;
            self.depth = self.depth.max(depth);
            self.properties += props.len();
            for (name, sub) in props {
                self.strings += name.chars().count();
                self.walk(sub, depth);
            }
        }
        if let Some(values) = map.get("enum").and_then(Value::as_array) {
            self.enum_values += values.len();
            let chars: usize = values
                .iter()
                .filter_map(Value::as_str)
                .map(|s| s.chars().count())
                .sum();
            self.strings += chars;
            if values.len() > 250 {
                self.large_enum_chars = self.large_enum_chars.max(chars);
            }
        }
        if let Some(items) = map.get("items") {
            self.walk(items, depth);
        }
        for keyword in ["anyOf", "prefixItems"] {
            for branch in map
                .get(keyword)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                self.walk(branch, depth);
            }
        }
    }
}

/// A value in a few characters, for a description or a report.
fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 60 {
        return text;
    }
    let mut cut: String = text.chars().take(57).collect();
    cut.push_str("...");
    cut
}

/// Checks `schema` against its draft's meta-schema: a keyword with a value
/// of the wrong shape (`"required": [{…}]`, `"type": "obect"`) is not a
/// schema, refused at its place rather than passed on to a provider or a
/// grammar.
pub(crate) fn check_schema(schema: &Value) -> Result<(), ConstrainError> {
    // A `$schema` of no known draft (a custom meta-schema) cannot be fetched
    // here: the schema is read as draft 2020-12, as the rest of the crate
    // reads it.
    let custom = schema
        .get("$schema")
        .and_then(Value::as_str)
        .is_some_and(|uri| !uri.contains("json-schema.org/"));
    let stripped;
    let checked = if custom {
        let mut copy = schema.clone();
        if let Some(map) = copy.as_object_mut() {
            map.remove("$schema");
        }
        stripped = copy;
        &stripped
    } else {
        schema
    };
    let Err(error) = jsonschema::meta::validate(checked) else {
        return check_patterns(checked);
    };
    let pointer = error.instance_path().as_str();
    // A bad `type` gets the names it may hold, not the meta-schema's `anyOf`.
    if let (Some(parent), Some(ty)) = (pointer.strip_suffix("/type"), schema.pointer(pointer)) {
        check_type(ty, parent)?;
    }
    Err(ConstrainError::NotASchema {
        pointer: pointer.to_owned(),
        found: error.to_string(),
    })
}

/// Checks that every `pattern` and `patternProperties` name is a regular
/// expression the validator compiles (the meta-schema leaves that to the
/// validator): a schema that flexmd cannot check an answer against must
/// not reach a provider or a grammar.
fn check_patterns(schema: &Value) -> Result<(), ConstrainError> {
    let compiles = |pattern: &str, pointer: &str| {
        jsonschema::validator_for(&serde_json::json!({ "pattern": pattern }))
            .map(|_| ())
            .map_err(|_| ConstrainError::NotASchema {
                pointer: pointer.to_owned(),
                found: format!("`{pattern}` is not a regular expression flexmd can check"),
            })
    };
    let mut stack = vec![(String::new(), schema)];
    while let Some((pointer, node)) = stack.pop() {
        let Value::Object(map) = node else {
            continue;
        };
        for (key, value) in map {
            let at = format!("{pointer}/{}", crate::refs::escape(key));
            match (key.as_str(), value) {
                ("pattern", Value::String(pattern)) => compiles(pattern, &at)?,
                // Data, not schemas.
                ("enum" | "const" | "default" | "examples", _) => {}
                // Names, each with a schema.
                (
                    "properties" | "patternProperties" | "$defs" | "definitions"
                    | "dependentSchemas",
                    Value::Object(named),
                ) => {
                    for (name, sub) in named {
                        let at = format!("{at}/{}", crate::refs::escape(name));
                        if key == "patternProperties" {
                            compiles(name, &at)?;
                        }
                        stack.push((at, sub));
                    }
                }
                (_, Value::Object(_)) => stack.push((at, value)),
                (_, Value::Array(items)) => stack.extend(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| (format!("{at}/{i}"), item)),
                ),
                _ => {}
            }
        }
    }
    Ok(())
}

/// The names `type` may hold.
const TYPE_NAMES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

/// Checks a schema's `type` (at `pointer`): one type name, or an array of
/// them. Anything else is not a schema, and would be passed on broken.
pub(crate) fn check_type(ty: &Value, pointer: &str) -> Result<(), ConstrainError> {
    let name_ok = |v: &Value| v.as_str().is_some_and(|t| TYPE_NAMES.contains(&t));
    let ok = match ty {
        Value::String(_) => name_ok(ty),
        Value::Array(names) => !names.is_empty() && names.iter().all(name_ok),
        _ => false,
    };
    if ok {
        return Ok(());
    }
    Err(ConstrainError::NotASchema {
        pointer: format!("{pointer}/type"),
        found: format!(
            "{} where a type name ({}) or an array of them is expected",
            match ty {
                Value::String(t) => format!("`{t}`"),
                other => kind_of(other).to_owned(),
            },
            TYPE_NAMES.join(", ")
        ),
    })
}

/// `a string`, `an array`, … for an error.
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn patterns_with_lookaround_or_backreferences_are_not_plain() {
        assert!(plain_pattern(r"^[a-z]+\d{2}$", false));
        assert!(!plain_pattern(r"^(?=a)b", false), "lookahead");
        assert!(!plain_pattern(r"(?<!x)y", false), "lookbehind");
        assert!(
            plain_pattern(r"(?<name>x)", false),
            "a named group is plain"
        );
        assert!(!plain_pattern(r"(a)\1", false), "backreference");
        assert!(plain_pattern(r"\bword\b", false));
        assert!(!plain_pattern(r"\bword\b", true), "Anthropic refuses \\b");
    }

    #[test]
    fn names_are_made_safe() {
        assert_eq!(safe_name("my schema.v2"), "my_schema_v2");
        assert_eq!(safe_name(""), "response");
        assert_eq!(safe_name(&"x".repeat(80)).len(), 64);
    }

    #[test]
    fn nullable_keeps_the_enum_consistent() {
        assert_eq!(
            make_nullable(json!({"type": "string", "enum": ["a", "b"]})),
            json!({"type": ["string", "null"], "enum": ["a", "b", null]})
        );
        assert_eq!(
            make_nullable(json!({"$ref": "#/$defs/node"})),
            json!({"anyOf": [{"$ref": "#/$defs/node"}, {"type": "null"}]})
        );
        assert_eq!(
            make_nullable(json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})),
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]})
        );
    }

    #[test]
    fn provider_names_round_trip() {
        for p in Provider::ALL {
            assert_eq!(p.name().parse::<Provider>(), Ok(p));
            assert_eq!(serde_json::to_value(p).ok(), Some(json!(p.name())));
        }
        assert_eq!(
            "claude".parse::<Provider>(),
            Err(UnknownProvider("claude".to_owned()))
        );
    }
}
