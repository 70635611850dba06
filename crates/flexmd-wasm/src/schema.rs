//! JSON Schema validation for the npm package's `SchemaValidator`: named
//! schemas (the five predefined ones and any registered), validation,
//! coercion and defaults, and hints a model can act on.

use flexmd_schema::{
    AlignError, Expected, Outcome as SchemaOutcome, Preset, Registry, Retrier, RetryError,
    RetrySession, Target, TransformOptions, Violation,
};
use serde::Deserialize;
use serde_json::Value;

use crate::api::{BindingError, Outcome, argument_error, from_json, to_value};
use flexmd_core::TextOffsets;

/// The envelope of a valid outcome written around its data: the text
/// before the data and the text after it (written once, from the outcome
/// itself, so its shape is the library's).
fn valid_envelope() -> Option<&'static (String, String)> {
    static PARTS: std::sync::OnceLock<Option<(String, String)>> = std::sync::OnceLock::new();
    PARTS
        .get_or_init(|| {
            // A string no outcome holds otherwise marks where the data goes.
            let mark = "flexmd-data-f1c9a7";
            let outcome = flexmd_schema::Outcome {
                valid: true,
                data: Some(Value::String(mark.to_owned())),
                errors: Vec::new(),
                warnings: Vec::new(),
                errors_total: None,
                errors_limited: false,
                coerced: false,
                changes: Vec::new(),
            };
            let text = crate::api::envelope(Ok::<_, BindingError>(outcome));
            let (head, tail) = text.split_once(&format!("\"{mark}\""))?;
            Some((head.to_owned(), tail.to_owned()))
        })
        .as_ref()
}

fn schema_error(error: &flexmd_schema::SchemaError) -> BindingError {
    BindingError {
        name: "SchemaError",
        code: miette::Diagnostic::code(error).map_or_else(String::new, |c| c.to_string()),
        message: error.to_string(),
        details: None,
    }
}

/// Options of `validateAndTransform`: both off unless asked, as elsabro's.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct TransformArgs {
    coerce: bool,
    apply_defaults: bool,
}

/// Options of `validateText`: as `flexmd schema validate` with no project
/// configuration (coercion and defaults on).
#[derive(Debug, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct TextArgs {
    coerce: bool,
    apply_defaults: bool,
    /// Warnings (repairs made to read the JSON, coercions) count as errors.
    strict: bool,
    /// Add a `hints` list: each error with what to do about it.
    hints: bool,
    /// The text is this provider's answer to the schema `exportSchema`
    /// made: read it back in the schema's shape first (`nullsRemoved`).
    from_provider: Option<String>,
}

impl Default for TextArgs {
    fn default() -> Self {
        let settings = flexmd_schema::ValidationSettings::default();
        Self {
            coerce: settings.coerce_types,
            apply_defaults: settings.apply_defaults,
            strict: false,
            hints: false,
            from_provider: None,
        }
    }
}

/// A set of named JSON Schemas and the calls over them (elsabro's
/// `SchemaValidator`).
pub struct SchemaValidator {
    registry: Registry,
}

impl Default for SchemaValidator {
    fn default() -> Self {
        Self::new()
    }
}

impl SchemaValidator {
    /// The five predefined schemas (`analysis`, `implementation`, `review`,
    /// `verification`, `plan`).
    pub fn new() -> Self {
        Self {
            registry: Registry::new(),
        }
    }

    /// Registers (or replaces) schema `name` (JSON text).
    pub fn register_schema(&mut self, name: &str, schema: &str) -> Outcome {
        let schema: Value = from_json("schema", schema)?;
        self.registry
            .register(name, schema)
            .map_err(|e| schema_error(&e))?;
        Ok(Value::Null)
    }

    /// The schemas' names, predefined first.
    pub fn list_schemas(&self) -> Outcome {
        Ok(self.registry.names().map(Value::from).collect())
    }

    /// Schema `name`, or `null`.
    pub fn get_schema(&self, name: &str) -> Outcome {
        Ok(self.registry.get(name).cloned().unwrap_or(Value::Null))
    }

    /// A schema given as JSON text of its name (a string) or of the schema.
    pub(crate) fn schema(&self, schema: &str) -> Result<Value, BindingError> {
        match from_json::<Value>("schema", schema)? {
            Value::String(name) => self.registry.get(&name).cloned().ok_or_else(|| {
                schema_error(&flexmd_schema::SchemaError::NotFound {
                    name: name.clone(),
                    known: self.registry.names().collect::<Vec<_>>().join(", "),
                })
            }),
            Value::Object(map) => Ok(Value::Object(map)),
            Value::Bool(b) => Ok(Value::Bool(b)),
            _ => Err(argument_error(
                "schema: a schema's name or a JSON Schema object",
            )),
        }
    }

    /// `data` (JSON text) validated against schema `name`.
    pub fn validate(&self, name: &str, data: &str) -> Result<flexmd_schema::Outcome, BindingError> {
        let data: Value = from_json("data", data)?;
        Ok(self.registry.validate_owned(name, data))
    }

    /// [`SchemaValidator::validate`]'s envelope as JSON text. Data the
    /// schema accepts as it is read (the fast verdict) is not built as a
    /// value and written again: its own text goes into the outcome's
    /// `data`, which the caller parses once, as it would have.
    pub fn validate_envelope(&self, name: &str, data: &str) -> String {
        if let Ok(true) = self.registry.is_valid_json(name, data)
            && let Some((head, tail)) = valid_envelope()
        {
            let data = data.trim();
            let mut text = String::with_capacity(head.len() + data.len() + tail.len());
            text.push_str(head);
            text.push_str(data);
            text.push_str(tail);
            return text;
        }
        crate::api::envelope(self.validate(name, data))
    }

    /// Whether `text` (JSON) holds data valid against schema `name`: the
    /// verdict alone, judged as the text is read (no value built) where the
    /// schema allows. Text that is not JSON is the error `validate` gives
    /// for it.
    pub fn is_valid_json(&self, name: &str, text: &str) -> Result<bool, BindingError> {
        match self.registry.is_valid_json(name, text) {
            Ok(verdict) => Ok(verdict),
            Err(flexmd_schema::SchemaError::InvalidJson { .. }) => {
                // The package's error for bad JSON (a nesting one named as such).
                from_json::<Value>("jsonText", text)?;
                Err(argument_error("jsonText: not JSON"))
            }
            Err(e) => Err(schema_error(&e)),
        }
    }

    /// `data` validated after coercion and defaults, as asked.
    pub fn validate_and_transform(
        &self,
        name: &str,
        data: &str,
        options: &str,
    ) -> Result<flexmd_schema::Outcome, BindingError> {
        let data: Value = from_json("data", data)?;
        let options: TransformArgs = from_json("validateAndTransform options", options)?;
        let options = TransformOptions {
            coerce: options.coerce,
            apply_defaults: options.apply_defaults,
        };
        Ok(self.registry.validate_and_transform(name, &data, options))
    }

    /// Each error with a hint (`errors` as `validate` lists them, JSON
    /// text; `schema` a name or a schema, JSON text).
    pub fn generate_hints(&self, errors: &str, schema: &str) -> Outcome {
        let errors: Vec<Violation> = from_json("errors", errors)?;
        let schema = self.schema(schema)?;
        to_value(&flexmd_schema::hints(&errors, &schema))
    }

    /// The JSON in `text` found, repaired and validated, with line and
    /// column of each problem (`flexmd schema validate --json`).
    pub fn validate_text(&self, text: &str, schema: &str, options: &str) -> Outcome {
        let schema = self.schema(schema)?;
        let args: TextArgs = from_json("validateText options", options)?;
        let options = TransformOptions {
            coerce: args.coerce,
            apply_defaults: args.apply_defaults,
        };
        let mut nulls_removed = None;
        let mut outcome = match args.from_provider.as_deref() {
            Some(provider) => {
                crate::api::provider(provider)?;
                let checked =
                    flexmd_constrain::validate_text_from(&self.registry, &schema, text, options)
                        .map_err(|e| schema_error(&e))?;
                nulls_removed = Some(checked.nulls_removed);
                checked.outcome
            }
            None => self
                .registry
                .validate_text(text, &schema, options)
                .map_err(|e| schema_error(&e))?,
        };
        if args.strict {
            outcome = outcome.into_strict();
        }
        columns_to_utf16(&mut outcome, text);
        let mut report = to_value(&outcome)?;
        if let (Some(removed), Some(map)) = (nulls_removed, report.as_object_mut()) {
            map.insert("nullsRemoved".to_owned(), to_value(&removed)?);
        }
        if args.hints
            && let Some(map) = report.as_object_mut()
        {
            map.insert(
                "hints".to_owned(),
                to_value(&flexmd_schema::hints(&outcome.errors, &schema))?,
            );
        }
        Ok(report)
    }
}

/// Options of `findJsonAs`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct FitArgs {
    /// `strict`, `standard` (the default) or `salvage`.
    preset: Option<String>,
}

impl SchemaValidator {
    /// The value in `text` that fits `schema` (a name or a schema, JSON
    /// text) best, coerced to it: the report `flexmd json --schema S
    /// --repairs` prints, its offsets in UTF-16 units.
    pub fn find_json_as(&self, text: &str, schema: &str, options: &str) -> Outcome {
        let schema = self.schema(schema)?;
        let args: FitArgs = from_json("findJsonAs options", options)?;
        let preset = match args.preset.as_deref() {
            None | Some("standard") => Preset::Standard,
            Some("strict") => Preset::Strict,
            Some("salvage") => Preset::Salvage,
            Some(other) => {
                return Err(argument_error(format!(
                    "preset must be \"strict\", \"standard\" or \"salvage\", not {other:?}"
                )));
            }
        };
        match self
            .registry
            .find_json_as(text, Target::Schema(&schema), preset)
        {
            Ok(mut aligned) => {
                aligned.reindex(&TextOffsets::utf16(text));
                to_value(&aligned)
            }
            Err(AlignError::NoCandidate) => Ok(Value::Null),
            Err(AlignError::Schema(message)) => Err(BindingError {
                name: "SchemaError",
                code: "schema::invalid".to_owned(),
                message,
                details: None,
            }),
            Err(e @ AlignError::AmbiguousEnum { .. }) => Err(BindingError {
                name: "ValidationError",
                code: miette::Diagnostic::code(&e).map_or_else(String::new, |c| c.to_string()),
                message: e.to_string(),
                details: None,
            }),
        }
    }
}

/// The predefined schemas, for the sessions of `ask` (a schema given by
/// name is one of these; a schema object may `$ref` them).
fn predefined() -> &'static Registry {
    static REGISTRY: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
    REGISTRY.get_or_init(Registry::new)
}

/// Options of `ask`, as the package passes them on (counts already checked
/// to be whole numbers ≥ 0 in JavaScript).
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct AskArgs {
    /// A predefined schema's name, or a JSON Schema.
    schema: Option<Value>,
    /// An Output Format Spec: its Markdown block, or its JSON.
    spec: Option<Value>,
    max_retries: Option<usize>,
    coerce: Option<bool>,
    apply_defaults: Option<bool>,
    strict: bool,
    patch: bool,
    max_tokens_total: Option<usize>,
}

/// A conversation with the caller's model, one answer at a time: what the
/// package's `ask` drives (the library's prompts, judgements and hints).
pub struct AskSession {
    session: Option<RetrySession<'static>>,
}

/// The error for a session used after it ended.
fn ended() -> BindingError {
    argument_error("the session has ended")
}

/// A retry loop's end as the error JavaScript throws: no valid answer is a
/// `ValidationError` whose `details` hold the best attempt's `errors`,
/// every attempt and the `best` index.
fn retry_error(error: RetryError) -> BindingError {
    let message = error.to_string();
    let errors = error
        .best_attempt()
        .map(|a| a.errors.clone())
        .unwrap_or_default();
    match error {
        RetryError::Exhausted { attempts, best, .. } => BindingError {
            name: "ValidationError",
            code: "schema::no_valid_answer".to_owned(),
            message,
            details: Some(Box::new(serde_json::json!({
                "errors": errors,
                "attempts": attempts,
                "best": best,
            }))),
        },
        RetryError::Schema(e) => schema_error(&e),
        _ => argument_error(message),
    }
}

impl AskSession {
    /// Starts a session for `prompt` (options: JSON text of `AskArgs`).
    pub fn new(prompt: &str, options: &str) -> Result<Self, BindingError> {
        let args: AskArgs = from_json("ask options", options)?;
        let expected = match (args.schema, args.spec) {
            (Some(Value::String(name)), None) => {
                Expected::Schema(predefined().get(&name).cloned().ok_or_else(|| {
                    schema_error(&flexmd_schema::SchemaError::NotFound {
                        name: name.clone(),
                        known: predefined().names().collect::<Vec<_>>().join(", "),
                    })
                })?)
            }
            (Some(schema @ (Value::Object(_) | Value::Bool(_))), None) => Expected::Schema(schema),
            (None, Some(spec)) => {
                let text = match spec {
                    Value::String(text) => text,
                    other => other.to_string(),
                };
                let spec = flexmd_ofs::read_spec(&text)
                    .map_err(|e| argument_error(format!("spec: {e}")))?
                    .value;
                Expected::Spec(spec)
            }
            _ => {
                return Err(argument_error(
                    "give one of schema (a JSON Schema or a predefined schema's name) or spec",
                ));
            }
        };
        let mut retrier = Retrier::new(predefined(), expected);
        if let Some(n) = args.max_retries {
            retrier.max_retries = n;
        }
        let defaults = TransformOptions {
            coerce: true,
            apply_defaults: true,
        };
        retrier.options = TransformOptions {
            coerce: args.coerce.unwrap_or(defaults.coerce),
            apply_defaults: args.apply_defaults.unwrap_or(defaults.apply_defaults),
        };
        retrier.strict = args.strict;
        retrier.patch = args.patch;
        retrier.max_tokens_total = args.max_tokens_total;
        let session = retrier.into_session(prompt).map_err(retry_error)?;
        Ok(Self {
            session: Some(session),
        })
    }

    /// The prompt to send now.
    pub fn prompt(&self) -> Outcome {
        let session = self.session.as_ref().ok_or_else(ended)?;
        Ok(Value::String(session.prompt().to_owned()))
    }

    /// Judges the model's reply: `{valid: true, data}` when the schema
    /// accepts it, `{valid: false}` when the next prompt is ready.
    pub fn answer(&mut self, answer: &str) -> Outcome {
        let session = self.session.as_mut().ok_or_else(ended)?;
        match session.answer(answer) {
            Ok(Some(data)) => Ok(serde_json::json!({"valid": true, "data": data})),
            Ok(None) => Ok(serde_json::json!({"valid": false})),
            Err(e) => {
                self.session = None;
                Err(retry_error(e))
            }
        }
    }

    /// Rejects the last data with the caller's own errors (JSON text of a
    /// list of `{path, message, pointer?, code?}`).
    pub fn reject(&mut self, errors: &str) -> Outcome {
        let errors: Vec<Violation> = from_json("errors", errors)?;
        let session = self.session.as_mut().ok_or_else(ended)?;
        match session.reject(errors) {
            Ok(()) => Ok(Value::Null),
            Err(e) => {
                self.session = None;
                Err(retry_error(e))
            }
        }
    }

    /// Accepts the last data: `{data, changes, attempts}`.
    pub fn accept(&mut self) -> Outcome {
        let session = self.session.take().ok_or_else(ended)?;
        match session.accept() {
            Some(accepted) => to_value(&accepted),
            None => Err(argument_error(
                "no valid answer to accept: call answer() first",
            )),
        }
    }
}

fn columns_to_utf16(outcome: &mut SchemaOutcome, text: &str) {
    let offsets = TextOffsets::utf16(text);
    for violation in outcome.errors.iter_mut().chain(outcome.warnings.iter_mut()) {
        if let (Some(line), Some(column)) = (violation.line, violation.column) {
            violation.column = Some(offsets.column_of_char(line, column));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The envelope with a valid instance's own text in it reads as the
    /// one written from the outcome; an invalid one is that one.
    #[test]
    fn a_valid_instance_keeps_its_text_in_the_envelope() {
        let validator = SchemaValidator::new();
        let valid = r#"{"approved": true, "issues": [], "recommendation": "approve",
            "summary": {"critical": 0, "high": 0, "medium": 1.0, "low": 0, "info": 0}, "é": "\u00e9"}"#;
        let invalid = r#"{"approved": "yes"}"#;
        for (data, spliced) in [(valid, true), (invalid, false)] {
            let fast = validator.validate_envelope("review", data);
            let written = crate::api::envelope(validator.validate("review", data));
            assert_eq!(fast.contains("1.0"), spliced, "{fast}");
            let fast: Value = serde_json::from_str(&fast).unwrap_or_default();
            let written: Value = serde_json::from_str(&written).unwrap_or_default();
            assert_eq!(fast, written);
            assert_eq!(fast["ok"]["valid"], Value::Bool(spliced));
        }
        let unknown: Value =
            serde_json::from_str(&validator.validate_envelope("nope", "{}")).unwrap_or_default();
        assert_eq!(unknown["ok"]["errors"][0]["code"], "schema_not_found");
    }

    #[test]
    fn the_predefined_schemas_validate_and_hint() {
        let validator = SchemaValidator::new();
        let names = validator.list_schemas().unwrap_or_default();
        assert_eq!(
            names,
            serde_json::json!([
                "analysis",
                "implementation",
                "review",
                "verification",
                "plan"
            ])
        );
        let outcome = validator
            .validate("review", r#"{"approved": "yes"}"#)
            .ok()
            .and_then(|o| serde_json::to_value(o).ok())
            .unwrap_or_default();
        assert_eq!(outcome["valid"], false);
        assert_eq!(outcome["errors"][0]["code"], "missing_required");
        let hints = validator
            .generate_hints(&outcome["errors"].to_string(), r#""review""#)
            .unwrap_or_default();
        assert!(
            hints[0]["hint"]
                .as_str()
                .is_some_and(|h| h.starts_with("Fix issues: ")),
            "{hints}"
        );
    }

    #[test]
    fn columns_of_text_count_utf16_units() {
        let validator = SchemaValidator::new();
        let text = "😀😀 {\"approved\": 1}";
        let schema = r#"{"type": "object", "properties": {"approved": {"type": "boolean"}}}"#;
        let outcome = validator
            .validate_text(text, schema, r#"{"coerce": false}"#)
            .unwrap_or_default();
        let error = &outcome["errors"][0];
        assert_eq!(error["code"], "invalid_type");
        // Characters: 2 emoji, a space, `{"approved": ` = 16 → column 17;
        // UTF-16 units: 2 more.
        assert_eq!(error["column"], 19);
    }

    #[test]
    fn an_ask_session_re_asks_and_ends_with_a_validation_error() {
        let options = r#"{"schema": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}, "maxRetries": 1}"#;
        let mut session = AskSession::new("Pick n.", options).unwrap_or_else(|e| panic!("{e}"));
        let first = session.prompt().unwrap_or_default();
        assert!(first.as_str().is_some_and(|p| p.starts_with("Pick n.\n\n")));
        assert_eq!(
            session.answer("").ok(),
            Some(serde_json::json!({"valid": false}))
        );
        assert_eq!(
            session.answer(r#"{"n": "3"}"#).ok(),
            Some(serde_json::json!({"valid": true, "data": {"n": 3}}))
        );
        let Err(error) = session.reject(r#"[{"path": "n", "message": "n must be even"}]"#) else {
            panic!("no retry is left");
        };
        assert_eq!(
            (error.name, error.code.as_str()),
            ("ValidationError", "schema::no_valid_answer")
        );
        let details = error.details.map(|d| *d).unwrap_or_default();
        assert_eq!(details["attempts"].as_array().map(Vec::len), Some(2));
        assert_eq!(details["errors"][0]["message"], "n must be even");
        assert_eq!(
            session.prompt().map_err(|e| e.message).err().as_deref(),
            Some("the session has ended")
        );
    }

    #[test]
    fn an_ask_session_takes_a_spec_or_a_name() {
        let Ok(mut session) = AskSession::new("Plan.", r#"{"schema": "plan"}"#) else {
            panic!("plan is predefined");
        };
        assert_eq!(
            session.answer(r#"{"phases": []}"#).ok(),
            Some(serde_json::json!({"valid": true, "data": {"phases": []}}))
        );
        assert_eq!(
            session.accept().unwrap_or_default()["attempts"]
                .as_array()
                .map(Vec::len),
            Some(1)
        );
        let spec = serde_json::json!({"spec": "## Output format\n- Summary — prose\n"}).to_string();
        assert!(AskSession::new("Sum up.", &spec).is_ok());
        let Err(unknown) = AskSession::new("x", r#"{"schema": "nope"}"#) else {
            panic!("nope is not a schema");
        };
        assert_eq!(unknown.name, "SchemaError");
        let Err(neither) = AskSession::new("x", "{}") else {
            panic!("a schema or a spec is needed");
        };
        assert_eq!(neither.name, "ArgumentError");
    }

    #[test]
    fn a_schema_that_does_not_compile_is_a_schema_error() {
        let mut validator = SchemaValidator::new();
        let Err(error) = validator.register_schema("bad", r#"{"type": 12}"#) else {
            panic!("an invalid schema must not register");
        };
        assert_eq!(error.name, "SchemaError");
        assert_eq!(error.code, "schema::invalid");
    }
}
