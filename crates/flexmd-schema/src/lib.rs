//! flexmd-schema: check agent output against JSON Schemas, coerce it, fill
//! defaults, and ask the model again with precise hints (elsabro's
//! output schemas, on the `jsonschema` crate).
//!
//! - [`Registry`]: named schemas (the five predefined: `analysis`,
//!   `implementation`, `review`, `verification`, `plan`), compiled once;
//!   [`Registry::validate`] gives elsabro's [`Outcome`] `{valid, data,
//!   errors}` with each [`Violation`]'s `{path, message, code}`.
//! - [`Registry::validate_and_transform`]: defaults and coercion, each
//!   [`Change`] reported.
//! - [`hints`]: how to fix each violation, from the schema.
//! - [`Registry::find_json_as`] / [`find_json_as`]: the value in an answer
//!   that fits a schema best, coerced to it, each [`Coercion`] logged.
//! - [`Retrier`]: ask a [`Model`] (any program, via [`CommandModel`]),
//!   validate, retry with hints.
//! - [`SchemasConfig`]: elsabro's `.planning/schemas-config.json`.
//! - [`infer_schema`]: a schema from an example.
//!
//! ```
//! use flexmd_schema::{Registry, hints};
//! use serde_json::json;
//!
//! let registry = Registry::new();
//! let answer = json!({"summary": "Too short", "files": [], "recommendations": []});
//! let outcome = registry.validate("analysis", &answer);
//! assert_eq!(outcome.errors[0].code, "too_short");
//! assert_eq!(outcome.errors[0].path, "summary");
//! let fix = &hints(&outcome.errors, registry.get("analysis").unwrap())[0];
//! assert_eq!(fix.hint, "Fix summary: String must be at least 10 characters. Keep it at least 10 characters and at most 500 characters.");
//! ```

mod align;
mod attempt;
mod coercion;
mod config;
mod error;
mod hints;
mod infer;
mod numbers;
mod outcome;
mod plan;
mod pointer;
mod registry;
mod retry;
mod text;
mod transform;
mod violation;

pub use align::{
    AlignError, Aligned, CandidateKind, Coercion, Dropped, Preset, Target, find_json_as,
};
pub use attempt::{Attempt, StopReason};
pub use coercion::CoercionRule;
pub use config::{
    CONFIG_ENV, CustomSchemas, DEFAULT_CONFIG_PATH, FlowStep, FlowStepConfig, ProjectConfig,
    SchemasConfig, SchemasSettings, ValidationSettings, check_schema_name,
};
pub use error::{ModelError, RetryError, SchemaError};
pub use hints::{Hint, hints};
pub use infer::infer_schema;
pub use outcome::{Change, ChangeKind, Outcome};
pub use registry::{
    ELSABRO_SCHEME, MAX_ERRORS, MAX_INSTANCE_DEPTH, MAX_VALUES_FOR_ALL_ERRORS, Registry, SCHEME,
};
pub use retry::{Accepted, CommandModel, Expected, Model, Retrier, RetrySession, estimate_tokens};
pub use text::{RecordOutcome, RecordValidator};
pub use transform::TransformOptions;
pub use violation::{Violation, code_of};

/// The README's example, run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
