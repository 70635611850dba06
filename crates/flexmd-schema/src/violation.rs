//! What a failed validation says, in elsabro's error shape.

use jsonschema::ValidationError;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::pointer::dotted_path;

/// One way an instance breaks its schema: elsabro's `{path, message, code}`
/// plus the JSON Pointer of the instance location and the schema keyword's
/// location. Read back from JSON, every field may be left out (a caller's
/// own `{path, message}` is a violation whose other fields are empty).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct Violation {
    /// The instance location as elsabro prints it: keys joined by `.`,
    /// array indexes as `[i]` (`files.[0].purpose`); `""` for the root. A
    /// missing required property's path is the property's own.
    pub path: String,
    /// The instance location as a JSON Pointer (`/files/0/purpose`); for a
    /// missing property, where it should be.
    pub pointer: String,
    /// Where the failing keyword is in the schema, as a JSON Pointer through
    /// any `$ref` followed (`/properties/files/items/required`).
    pub schema_path: String,
    /// What is wrong, in one sentence.
    pub message: String,
    /// A stable code: elsabro's (`invalid_type`, `missing_required`,
    /// `invalid_enum`, `too_short`, `too_long`, `too_small`, `too_big`,
    /// `schema_not_found`) and one per other keyword (see [`code_of`]).
    pub code: String,
    /// 1-based line in the text the value was read from, when it was read
    /// from text ([`Registry::validate_text`](crate::Registry::validate_text));
    /// for a missing property, the line of the object that lacks it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// 1-based column (in characters) on that line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

/// The code for a JSON Schema keyword's failure.
///
/// | keyword | code |
/// |---|---|
/// | `type` | `invalid_type` |
/// | `required` (and `dependentRequired`) | `missing_required` |
/// | `enum` | `invalid_enum` |
/// | `const` | `invalid_const` |
/// | `minLength` / `maxLength` | `too_short` / `too_long` |
/// | `minimum`, `exclusiveMinimum` / `maximum`, `exclusiveMaximum` | `too_small` / `too_big` |
/// | `multipleOf` | `not_multiple_of` |
/// | `minItems` / `maxItems` | `too_few_items` / `too_many_items` |
/// | `uniqueItems` | `duplicate_items` |
/// | `contains` | `missing_contains` |
/// | `minProperties` / `maxProperties` | `too_few_properties` / `too_many_properties` |
/// | `additionalProperties` / `unevaluatedProperties` | `unexpected_property` / `unevaluated_property` |
/// | `additionalItems` / `unevaluatedItems` | `unexpected_item` / `unevaluated_item` |
/// | `propertyNames` | `invalid_property_name` |
/// | `pattern` | `pattern_mismatch` |
/// | `format` | `invalid_format` |
/// | `anyOf` / `oneOf` / `not` | `no_match_any_of` / `no_match_one_of` or `multiple_match_one_of` / `matches_not` |
/// | `false` schema | `false_schema` |
/// | `contentEncoding` / `contentMediaType` | `invalid_encoding` / `invalid_media_type` |
/// | `$ref` that cannot be resolved | `unresolved_ref` |
/// | a custom keyword | `custom` |
///
/// ```
/// use flexmd_schema::code_of;
/// assert_eq!(code_of("minLength"), "too_short");
/// assert_eq!(code_of("required"), "missing_required");
/// ```
pub fn code_of(keyword: &str) -> &'static str {
    match keyword {
        "type" => "invalid_type",
        "required" | "dependentRequired" => "missing_required",
        "enum" => "invalid_enum",
        "const" => "invalid_const",
        "minLength" => "too_short",
        "maxLength" => "too_long",
        "minimum" | "exclusiveMinimum" => "too_small",
        "maximum" | "exclusiveMaximum" => "too_big",
        "multipleOf" => "not_multiple_of",
        "minItems" => "too_few_items",
        "maxItems" => "too_many_items",
        "uniqueItems" => "duplicate_items",
        "contains" => "missing_contains",
        "minProperties" => "too_few_properties",
        "maxProperties" => "too_many_properties",
        "additionalProperties" => "unexpected_property",
        "unevaluatedProperties" => "unevaluated_property",
        "additionalItems" => "unexpected_item",
        "unevaluatedItems" => "unevaluated_item",
        "propertyNames" => "invalid_property_name",
        "pattern" => "pattern_mismatch",
        "format" => "invalid_format",
        "anyOf" => "no_match_any_of",
        "oneOf" => "no_match_one_of",
        "not" => "matches_not",
        "falseSchema" => "false_schema",
        "contentEncoding" => "invalid_encoding",
        "contentMediaType" => "invalid_media_type",
        "$ref" => "unresolved_ref",
        _ => "custom",
    }
}

/// A violation from one of the validator's errors on `instance`.
pub(crate) fn violation(instance: &Value, error: &ValidationError<'_>) -> Violation {
    let kind = error.kind();
    let mut pointer = error.instance_path().as_str().to_owned();
    if let ValidationErrorKind::Required { property } = kind {
        // elsabro points at the missing property (`files.[0].purpose`),
        // not at the object that lacks it.
        let name = property
            .as_str()
            .map_or_else(|| property.to_string(), str::to_owned);
        pointer.push('/');
        pointer.push_str(&crate::pointer::escape(&name));
    }
    let keyword = match kind {
        ValidationErrorKind::OneOfMultipleValid { .. } => "oneOf+",
        _ => kind.keyword(),
    };
    let code = match keyword {
        "oneOf+" => "multiple_match_one_of",
        other => code_of(other),
    };
    Violation {
        path: dotted_path(instance, &pointer),
        pointer,
        schema_path: error.schema_path().as_str().to_owned(),
        message: message(kind, error.instance()),
        code: code.to_owned(),
        ..Violation::default()
    }
}

/// The message for an error: elsabro's wording where it has one.
fn message(kind: &ValidationErrorKind, instance: &Value) -> String {
    match kind {
        ValidationErrorKind::Type { kind } => {
            let expected = match kind {
                TypeKind::Single(t) => t.to_string(),
                TypeKind::Multiple(set) => set
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" or "),
            };
            // JavaScript's `typeof`, as elsabro prints it: every number is
            // a `number`.
            let got = match type_name(instance) {
                "integer" => "number",
                other => other,
            };
            format!("Expected {expected}, got {got}")
        }
        ValidationErrorKind::Required { property } => format!(
            "Missing required field: {}",
            property
                .as_str()
                .map_or_else(|| property.to_string(), str::to_owned)
        ),
        // elsabro's words: `Value must be one of: ${schema.enum.join(', ')}`
        // (strings as they are, other values as JSON).
        ValidationErrorKind::Enum { options } => format!(
            "Value must be one of: {}",
            options
                .as_array()
                .map(|o| o
                    .iter()
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                    .collect::<Vec<_>>()
                    .join(", "))
                .unwrap_or_else(|| options.to_string())
        ),
        ValidationErrorKind::MinLength { limit } => {
            format!("String must be at least {limit} characters")
        }
        ValidationErrorKind::MaxLength { limit } => {
            format!("String must be at most {limit} characters")
        }
        ValidationErrorKind::Minimum { limit } => format!("Number must be >= {limit}"),
        ValidationErrorKind::Maximum { limit } => format!("Number must be <= {limit}"),
        ValidationErrorKind::ExclusiveMinimum { limit } => format!("Number must be > {limit}"),
        ValidationErrorKind::ExclusiveMaximum { limit } => format!("Number must be < {limit}"),
        ValidationErrorKind::MinItems { limit } => {
            format!("Array must have at least {limit} items")
        }
        ValidationErrorKind::MaxItems { limit } => {
            format!("Array must have at most {limit} items")
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            format!("Unexpected properties: {}", unexpected.join(", "))
        }
        ValidationErrorKind::Constant { expected_value } => {
            format!("Value must be {expected_value}")
        }
        _ => {
            // The validator's own wording for the rest, without the instance
            // (which can be large).
            let text = jsonschema_message(kind);
            if text.is_empty() {
                format!("Fails `{}`", kind.keyword())
            } else {
                text
            }
        }
    }
}

fn jsonschema_message(kind: &ValidationErrorKind) -> String {
    match kind {
        ValidationErrorKind::Pattern { pattern } => format!("String must match `{pattern}`"),
        ValidationErrorKind::Format { format } => format!("String must be a valid {format}"),
        ValidationErrorKind::MultipleOf { multiple_of } => {
            format!("Number must be a multiple of {multiple_of}")
        }
        ValidationErrorKind::MinProperties { limit } => {
            format!("Object must have at least {limit} properties")
        }
        ValidationErrorKind::MaxProperties { limit } => {
            format!("Object must have at most {limit} properties")
        }
        ValidationErrorKind::UniqueItems => "Array items must be unique".to_owned(),
        ValidationErrorKind::Contains => {
            "Array must contain an item that matches `contains`".to_owned()
        }
        ValidationErrorKind::AnyOf { .. } => "Value matches none of `anyOf`".to_owned(),
        ValidationErrorKind::OneOfNotValid { .. } => "Value matches none of `oneOf`".to_owned(),
        ValidationErrorKind::OneOfMultipleValid { .. } => {
            "Value matches more than one of `oneOf`".to_owned()
        }
        ValidationErrorKind::Not { .. } => "Value must not match the `not` schema".to_owned(),
        ValidationErrorKind::FalseSchema => "No value is allowed here".to_owned(),
        ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            format!("Unevaluated properties: {}", unexpected.join(", "))
        }
        ValidationErrorKind::UnevaluatedItems { unexpected } => {
            format!("Unevaluated items: {}", unexpected.join(", "))
        }
        ValidationErrorKind::AdditionalItems { limit } => {
            format!("Array must have at most {limit} items")
        }
        ValidationErrorKind::PropertyNames { error } => {
            format!("Property name is invalid: {error}")
        }
        ValidationErrorKind::Referencing(e) => format!("Cannot resolve a reference: {e}"),
        ValidationErrorKind::Custom { message, .. } => message.clone(),
        other => format!("Fails `{}`", other.keyword()),
    }
}

/// JSON's name for a value's type (an integral number is `integer`).
pub(crate) fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}
