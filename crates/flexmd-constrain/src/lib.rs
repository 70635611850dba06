//! flexmd-constrain: shape an LLM's answer while it is written, and check
//! afterwards what the constraint could not enforce.
//!
//! Providers (OpenAI, Anthropic, Gemini) constrain decoding to a JSON
//! Schema, but each takes only a subset of JSON Schema, written its own way.
//! [`export`] rewrites any JSON Schema into that subset and wraps it in the
//! request fragment the provider takes; every change is a [`SchemaChange`]
//! in the [`Export`]'s report: `rewritten` (the provider enforces it another
//! way), `dropped` (an annotation, or a default the way back restores), or
//! `unenforced` (validation after the answer checks it). A schema the
//! provider cannot take at all is a [`ConstrainError`] naming the place and
//! the limit.
//!
//! The way back: [`from_provider`] reads the provider's answer in the
//! original shape (the nulls OpenAI sends for omitted optional properties
//! removed), and [`validate_from`] then validates it against the original
//! schema, defaults filled in, so every unenforced constraint is checked.
//!
//! ```
//! use flexmd_constrain::{Action, Provider, export, validate_from};
//! use flexmd_schema::{Registry, TransformOptions};
//! use serde_json::json;
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {
//!         "title": {"type": "string", "maxLength": 80},
//!         "tags": {"type": "array", "items": {"type": "string"}, "default": []}
//!     },
//!     "required": ["title"]
//! });
//! let export = export(&schema, Provider::OpenAi, "note").unwrap();
//! let unenforced: Vec<_> = export.unenforced().map(|c| c.keyword.as_deref()).collect();
//! assert_eq!(unenforced, [Some("maxLength")]);
//!
//! // The provider answers in the exported shape; map back and validate.
//! let answer = json!({"title": "Groceries", "tags": null});
//! let options = TransformOptions { coerce: false, apply_defaults: true };
//! let checked = validate_from(&Registry::new(), &schema, &answer, options).unwrap();
//! assert!(checked.outcome.valid);
//! assert_eq!(checked.outcome.data, Some(json!({"title": "Groceries", "tags": []})));
//! ```

mod error;
mod grammar;
mod mapback;
mod provider;
mod refs;
mod report;

pub use error::ConstrainError;
pub use grammar::{
    Coverage, Grammar, GrammarFormat, MAX_BOUND, MAX_REGEX_CHARS, MAX_REGEX_NESTING,
    MAX_SPEC_BOUND, REGEX_ANY_DEPTH, SpecGrammarOptions, THINK_LINE_CHARS, UnknownFormat,
    schema_grammar, spec_grammar,
};
pub use mapback::{
    MappedBack, ValidatedFrom, from_provider, to_provider, validate_from, validate_text_from,
};
pub use provider::{Export, MAX_EXPORTED_NODES, Provider, UnknownProvider, default_name, export};
pub use report::{Action, Rule, SchemaChange};

/// The README's example, run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
