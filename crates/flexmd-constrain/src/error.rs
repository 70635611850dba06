//! The crate's error type.

use miette::Diagnostic;
use thiserror::Error;

/// A schema that cannot be turned into what was asked for.
///
/// Every variant names the place in the original schema (a JSON Pointer,
/// `""` for the root) and, for a provider, which one refused.
#[derive(Debug, Clone, PartialEq, Eq, Error, Diagnostic)]
pub enum ConstrainError {
    /// A construct the provider cannot express at all, even loosened.
    #[error("{provider} cannot take the schema at `{pointer}`: {reason}")]
    #[diagnostic(code(constrain::unsupported))]
    Unsupported {
        /// The provider (`openai`, `anthropic`, …).
        provider: &'static str,
        /// Where, in the original schema.
        pointer: String,
        /// What it cannot express, and what to do instead.
        reason: String,
    },
    /// A documented size limit of the provider that the schema passes.
    #[error("{provider} takes at most {max} {limit}; this schema has {found}")]
    #[diagnostic(
        code(constrain::limit),
        help("split the schema, or move the largest part into a separate request")
    )]
    Limit {
        /// The provider.
        provider: &'static str,
        /// The limit's name (`object properties in all`, `levels of nesting`, …).
        limit: &'static str,
        /// What the exported schema has.
        found: usize,
        /// The most the provider takes.
        max: usize,
    },
    /// A schema that refers to itself, where recursion cannot be expressed.
    #[error(
        "the schema refers to itself at `{pointer}` (through `{reference}`) and {provider} takes no recursive schema"
    )]
    #[diagnostic(
        code(constrain::recursive),
        help("bound the recursion: copy the definition a fixed number of levels deep")
    )]
    Recursive {
        /// The provider (or grammar dialect).
        provider: &'static str,
        /// Where the reference that closes the cycle is.
        pointer: String,
        /// The reference.
        reference: String,
    },
    /// A `$ref` that leads nowhere in the schema.
    #[error("`$ref` at `{pointer}` does not resolve: `{reference}`")]
    #[diagnostic(
        code(constrain::unresolved_ref),
        help(
            "only references inside the schema (`#`, `#/$defs/NAME`, `#/definitions/NAME`) can be exported; inline any other"
        )
    )]
    UnresolvedRef {
        /// Where the reference is.
        pointer: String,
        /// The reference.
        reference: String,
    },
    /// Something that is not a schema where a schema must be.
    #[error("not a schema at `{pointer}`: {found}")]
    #[diagnostic(code(constrain::not_a_schema))]
    NotASchema {
        /// Where.
        pointer: String,
        /// What was found instead (`a string`, `an array`, …).
        found: String,
    },
    /// What was asked for would pass the size every export and grammar is
    /// bounded by (a schema whose references multiply when copied, or a
    /// regex of many optional properties).
    #[error("{what} would have more than {max} {unit}")]
    #[diagnostic(
        code(constrain::too_large),
        help(
            "split the schema or spec; a grammar in lark, gbnf or ebnf keeps each reference and section as one rule, where a regex or an export copies them"
        )
    )]
    TooLarge {
        /// What would be too large (`the exported schema`, `the regex`, …).
        what: &'static str,
        /// The bound.
        max: usize,
        /// What is counted (`subschemas`, `characters`).
        unit: &'static str,
    },
}
