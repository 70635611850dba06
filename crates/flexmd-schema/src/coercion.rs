//! `CoercionRule`: the rules that change a value to fit a schema, and what
//! each costs. A leaf: it names the rules; the aligner and the transform
//! apply them.

use serde::{Deserialize, Serialize};

/// A rule that changed a value to fit the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CoercionRule {
    /// An enum value written in another case or with other punctuation
    /// (`"In Progress"` for `in_progress`).
    EnumCase,
    /// An enum value given by a prefix that only one value has (`"appr"`
    /// for `approve`).
    EnumPrefix,
    /// A single value where an array is wanted: wrapped.
    WrapInArray,
    /// A one-element array where a single value is wanted: unwrapped.
    UnwrapArray,
    /// A number written as text: `"1,234"`, `"$12.50"`, `"45%"`, `"3/4"`,
    /// `"12"`.
    NumberFromString,
    /// Text that starts with a number but has more after it, where a number
    /// or integer is wanted: the leading number, the rest dropped (`"12px"`
    /// → 12, `"3.5 kg"` → 3.5), as JavaScript's `parseFloat` and `parseInt`
    /// read it.
    LeadingNumber,
    /// A number with a fraction, written as text, where an integer is
    /// wanted: the fraction dropped (`"3.7"` → 3), as `parseInt` reads it.
    TruncateToInteger,
    /// A whole number written as a float (`3.0`) where an integer is wanted.
    IntegerFromFloat,
    /// `"true"`, `"yes"`, `"no"`, `"on"`, `"1"`… where a boolean is wanted.
    BooleanFromString,
    /// A number or boolean where a string is wanted: its text.
    ToString,
    /// An object or array where a string is wanted: its JSON text.
    JsonText,
    /// A key written in another case or style (`Summary`, `files_changed`)
    /// renamed to the schema's property (`summary`, `filesChanged`).
    KeyCase,
    /// A key the schema does not allow (`additionalProperties: false`),
    /// dropped.
    DropUnknownKey,
    /// A missing property filled with the schema's `default`.
    Default,
}

impl CoercionRule {
    /// What the rule costs when choosing between candidates: a change of
    /// form costs 1, a change of kind 2, an invented value 1.
    pub fn cost(self) -> u32 {
        match self {
            Self::EnumPrefix
            | Self::JsonText
            | Self::DropUnknownKey
            | Self::LeadingNumber
            | Self::TruncateToInteger => 2,
            Self::Default => 0,
            _ => 1,
        }
    }
}
