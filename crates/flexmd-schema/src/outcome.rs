//! What a validation returns: `Outcome` (elsabro's `{valid, data,
//! errors}`) and the `Change`s a transformation made. A leaf above the
//! violations: it knows no validator and no schema.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::coercion::CoercionRule;
use crate::violation::Violation;

/// The result of validating an instance (elsabro's `{valid, data, errors}`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Outcome {
    /// Whether the instance satisfies the schema.
    pub valid: bool,
    /// The instance when valid (after any transformation), else `None`.
    pub data: Option<Value>,
    /// The violations, in the validator's order (at most [`MAX_ERRORS`](crate::MAX_ERRORS));
    /// empty when valid.
    pub errors: Vec<Violation>,
    /// What was accepted but is worth knowing, in the errors' shape: the
    /// repairs made to read JSON from text and the values coerced
    /// ([`Registry::validate_text`](crate::Registry::validate_text)); [`Outcome::into_strict`] makes them
    /// errors.
    pub warnings: Vec<Violation>,
    /// How many violations there are in all, when more than `errors` lists.
    #[serde(rename = "errorsTotal", skip_serializing_if = "Option::is_none")]
    pub errors_total: Option<usize>,
    /// Only the first violation was looked for: the instance has more than
    /// [`MAX_VALUES_FOR_ALL_ERRORS`](crate::MAX_VALUES_FOR_ALL_ERRORS) values.
    #[serde(rename = "errorsLimited", skip_serializing_if = "std::ops::Not::not")]
    pub errors_limited: bool,
    /// Whether [`Registry::validate_and_transform`](crate::Registry::validate_and_transform) coerced any value
    /// (elsabro's `coerced: true`; absent from the JSON when `false`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub coerced: bool,
    /// What [`Registry::validate_and_transform`](crate::Registry::validate_and_transform) changed (defaults and
    /// coercions), in the order applied; empty for a plain validation.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<Change>,
}

impl Outcome {
    /// A failed outcome with one violation at the root.
    pub(crate) fn failure(message: String, code: &str) -> Self {
        Self {
            valid: false,
            data: None,
            errors: vec![Violation {
                path: String::new(),
                pointer: String::new(),
                schema_path: String::new(),
                message,
                code: code.to_owned(),
                ..Violation::default()
            }],
            warnings: Vec::new(),
            errors_total: None,
            errors_limited: false,
            coerced: false,
            changes: Vec::new(),
        }
    }
}

/// One change made to an instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Change {
    /// A default filled in, or a value coerced.
    pub kind: ChangeKind,
    /// Where, as elsabro prints paths (`files.[0].linesAdded`).
    pub path: String,
    /// Where, as a JSON Pointer.
    pub pointer: String,
    /// The value before (absent for a default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<Value>,
    /// The value after.
    pub to: Value,
    /// For a coercion inside `anyOf` or `oneOf`: the branch it was made for
    /// (`anyOf/0`), the one that needed the fewest coercions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// For a coercion: the rule that made it (`number_from_string`,
    /// `leading_number` for `"12px"` → 12, …); absent for a default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<CoercionRule>,
}

/// The kinds of [`Change`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// A missing property got its schema `default`.
    Default,
    /// A value was converted to the type the schema asks for.
    Coerced,
}
