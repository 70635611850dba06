//! What an export changed, keyword by keyword.

use serde::{Deserialize, Serialize};

/// One change an export made to the schema, at one place of the original.
///
/// ```json
/// {"pointer": "/properties/name", "rule": "unenforced_keyword",
///  "action": "unenforced", "keyword": "minLength",
///  "detail": "minLength 3 is checked after the answer"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct SchemaChange {
    /// Where, in the original schema, as a JSON Pointer (`""` is the root).
    pub pointer: String,
    /// Which rule made the change.
    pub rule: Rule,
    /// What became of the original there.
    pub action: Action,
    /// The keyword concerned, when one is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
    /// The change in words, for a person.
    pub detail: String,
}

/// What an export did with a part of the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Written another way the provider takes; the provider enforces it.
    Rewritten,
    /// Removed; it constrained nothing (an annotation), or the way back
    /// restores it (a `default`).
    Dropped,
    /// Removed or loosened: the provider does not enforce it, so validation
    /// after the answer does (the exported description names it, so the
    /// model still reads it).
    Unenforced,
}

/// The rules an export applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// `additionalProperties: false` added: the provider produces only the
    /// declared properties.
    ClosedObject,
    /// An optional property made required and nullable (OpenAI's strict
    /// mode requires every property); the way back removes the null.
    OptionalMadeNullable,
    /// A `$ref` replaced by a copy of what it points to.
    RefInlined,
    /// A `$ref` kept, in `$defs`: the schema refers to itself.
    RefKept,
    /// `allOf` merged into one schema.
    AllOfMerged,
    /// `oneOf` written as `anyOf`: "exactly one branch" is not enforced.
    OneOfAsAnyOf,
    /// `const` written as a one-value `enum`.
    ConstAsEnum,
    /// `propertyOrdering` added: the properties in the schema's order.
    PropertyOrdering,
    /// A schema with no type (any value) where the provider needs one:
    /// written as "any scalar".
    UntypedAsScalar,
    /// A constraint the provider does not enforce.
    UnenforcedKeyword,
    /// `minItems` above what the provider takes, loosened to its most.
    MinItemsLoosened,
    /// `default` removed: the way back fills it in.
    DefaultDropped,
    /// An annotation (`title`, `$schema`, `examples`, …) removed.
    AnnotationDropped,
    /// A keyword flexmd does not know, removed.
    UnknownKeyword,
}
