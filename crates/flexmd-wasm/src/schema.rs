//! JSON Schema validation for the npm package's `SchemaValidator`: named
//! schemas (the five predefined ones and any registered), validation,
//! coercion and defaults, and hints a model can act on.

use flexmd_schema::{
    AlignError, Outcome as SchemaOutcome, Preset, Registry, Target, TransformOptions, Violation,
};
use serde::Deserialize;
use serde_json::Value;

use crate::api::{BindingError, Outcome, argument_error, from_json, to_value};
use flexmd_core::TextOffsets;

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
}

impl Default for TextArgs {
    fn default() -> Self {
        let settings = flexmd_schema::ValidationSettings::default();
        Self {
            coerce: settings.coerce_types,
            apply_defaults: settings.apply_defaults,
            strict: false,
            hints: false,
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
    fn schema(&self, schema: &str) -> Result<Value, BindingError> {
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
    pub fn validate(&self, name: &str, data: &str) -> Outcome {
        let data: Value = from_json("data", data)?;
        to_value(&self.registry.validate_owned(name, data))
    }

    /// `data` validated after coercion and defaults, as asked.
    pub fn validate_and_transform(&self, name: &str, data: &str, options: &str) -> Outcome {
        let data: Value = from_json("data", data)?;
        let options: TransformArgs = from_json("validateAndTransform options", options)?;
        let options = TransformOptions {
            coerce: options.coerce,
            apply_defaults: options.apply_defaults,
        };
        to_value(&self.registry.validate_and_transform(name, &data, options))
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
        let mut outcome = self
            .registry
            .validate_text(text, &schema, options)
            .map_err(|e| schema_error(&e))?;
        if args.strict {
            outcome = outcome.into_strict();
        }
        columns_to_utf16(&mut outcome, text);
        let mut report = to_value(&outcome)?;
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
    fn a_schema_that_does_not_compile_is_a_schema_error() {
        let mut validator = SchemaValidator::new();
        let Err(error) = validator.register_schema("bad", r#"{"type": 12}"#) else {
            panic!("an invalid schema must not register");
        };
        assert_eq!(error.name, "SchemaError");
        assert_eq!(error.code, "schema::invalid");
    }
}
