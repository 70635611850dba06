//! Typing of `@key: value` meta values.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::FlexMetaValue;

/// The type a caller gives a meta key in [`MetaTypeMode::Schema`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum MetaType {
    /// Any text.
    String,
    /// A JSON number (integer or float).
    Number,
    /// A JSON integer.
    Integer,
    /// `true` or `false`.
    Boolean,
    /// A comma-separated list of strings.
    Strings,
}

impl std::fmt::Display for MetaType {
    /// The type's name as written in a schema: `string`, `number`, ...
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::String => "string",
            Self::Number => "number",
            Self::Integer => "integer",
            Self::Boolean => "boolean",
            Self::Strings => "a list of strings",
        })
    }
}

/// How meta values are typed (flex-md's `metaTypeMode`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum MetaTypeMode {
    /// Every value stays a string (the default).
    #[default]
    Strings,
    /// `true`/`false`, `null` and JSON numbers become typed values; see [`infer_meta_value`].
    Infer,
    /// The caller gives each key's type; the schema wins. Keys it does not
    /// name stay strings.
    Schema(IndexMap<String, MetaType>),
}

/// A meta value that does not have the type the schema gives its key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("meta `{key}` should be {expected} but is {raw:?}; kept as a string")]
pub struct MetaTypeMismatch {
    /// The key.
    pub key: String,
    /// The type the schema gives it.
    pub expected: MetaType,
    /// The value as written.
    pub raw: String,
}

impl MetaTypeMode {
    /// Types the raw value (already trimmed) of `key` under this mode.
    ///
    /// A value that does not fit its schema type is an `Err` holding what a
    /// caller needs to report it; the caller keeps the raw string.
    ///
    /// ```
    /// use flexmd_core::{FlexMetaValue, MetaType, MetaTypeMode};
    /// assert_eq!(MetaTypeMode::Strings.type_value("n", "12"), Ok(FlexMetaValue::String("12".into())));
    /// assert_eq!(MetaTypeMode::Infer.type_value("n", "12"), Ok(FlexMetaValue::Number(12.into())));
    /// let schema = MetaTypeMode::Schema([("n".to_owned(), MetaType::Integer)].into_iter().collect());
    /// assert_eq!(schema.type_value("n", "0012"), Ok(FlexMetaValue::Number(12.into())));
    /// assert!(schema.type_value("n", "1.5").is_err());
    /// assert_eq!(schema.type_value("other", "1"), Ok(FlexMetaValue::String("1".into())));
    /// ```
    pub fn type_value(&self, key: &str, raw: &str) -> Result<FlexMetaValue, MetaTypeMismatch> {
        match self {
            Self::Strings => Ok(FlexMetaValue::String(raw.to_owned())),
            Self::Infer => Ok(infer_meta_value(raw)),
            Self::Schema(types) => match types.get(key) {
                None => Ok(FlexMetaValue::String(raw.to_owned())),
                Some(&expected) => coerce(raw, expected).ok_or_else(|| MetaTypeMismatch {
                    key: key.to_owned(),
                    expected,
                    raw: raw.to_owned(),
                }),
            },
        }
    }

    /// The type the schema gives `key`, if this is a schema mode that names it.
    pub fn schema_type(&self, key: &str) -> Option<MetaType> {
        match self {
            Self::Schema(types) => types.get(key).copied(),
            _ => None,
        }
    }
}

/// `raw` as a value of type `expected`: the schema wins, so `0012` is the
/// integer 12 when the schema says integer.
fn coerce(raw: &str, expected: MetaType) -> Option<FlexMetaValue> {
    match expected {
        MetaType::String => Some(FlexMetaValue::String(raw.to_owned())),
        MetaType::Boolean => match raw {
            "true" => Some(FlexMetaValue::Bool(true)),
            "false" => Some(FlexMetaValue::Bool(false)),
            _ => None,
        },
        MetaType::Integer => {
            let digits = raw.strip_prefix('-').unwrap_or(raw);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            raw.parse::<i64>()
                .ok()
                .map(Into::into)
                .or_else(|| raw.parse::<u64>().ok().map(Into::into))
                .map(FlexMetaValue::Number)
        }
        MetaType::Number => json_number(raw)
            .or_else(|| {
                // Leading zeros are fine when the schema asks for a number.
                let trimmed = raw.trim_start_matches('0');
                let trimmed = if trimmed.is_empty() || trimmed.starts_with('.') {
                    raw
                } else {
                    trimmed
                };
                json_number(trimmed)
            })
            .map(FlexMetaValue::Number),
        MetaType::Strings => Some(FlexMetaValue::Strings(split_meta_list(raw))),
    }
}

/// Splits a list value on commas, trimming each item and dropping empty ones.
///
/// ```
/// assert_eq!(flexmd_core::split_meta_list(" a, b ,, c "), ["a", "b", "c"]);
/// ```
pub fn split_meta_list(raw: &str) -> Vec<String> {
    raw.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Infers a meta value's type the safe way (flex-md's `infer`).
///
/// - `true` / `false` → boolean, `null` → null (exact, lowercase);
/// - a JSON number → number: `0`, `-3`, `0.5`, `1e3`; integers must fit 64
///   bits and floats must be finite, otherwise the value stays a string so no
///   digit is lost;
/// - anything else, including `0012`, `+1`, `.5`, `1.` and `True`, stays a string.
///
/// ```
/// use flexmd_core::{infer_meta_value, FlexMetaValue};
/// assert_eq!(infer_meta_value("true"), FlexMetaValue::Bool(true));
/// assert_eq!(infer_meta_value("null"), FlexMetaValue::Null);
/// assert_eq!(infer_meta_value("0012"), FlexMetaValue::String("0012".into()));
/// assert_eq!(infer_meta_value("0.5").to_string(), "0.5");
/// ```
pub fn infer_meta_value(raw: &str) -> FlexMetaValue {
    match raw {
        "true" => return FlexMetaValue::Bool(true),
        "false" => return FlexMetaValue::Bool(false),
        "null" => return FlexMetaValue::Null,
        _ => {}
    }
    match json_number(raw) {
        Some(n) => FlexMetaValue::Number(n),
        None => FlexMetaValue::String(raw.to_owned()),
    }
}

/// Parses `raw` when it is exactly a JSON number that converts without loss of
/// magnitude: integers within `i64`/`u64`, finite floats.
fn json_number(raw: &str) -> Option<serde_json::Number> {
    if !is_json_number_syntax(raw) {
        return None;
    }
    let is_integer = !raw.contains(['.', 'e', 'E']);
    if is_integer {
        if let Ok(i) = raw.parse::<i64>() {
            return Some(i.into());
        }
        return raw.parse::<u64>().ok().map(Into::into);
    }
    raw.parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
}

/// The JSON number grammar (RFC 8259 §6): `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
fn is_json_number_syntax(raw: &str) -> bool {
    let b = raw.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    if b.first() == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

impl std::fmt::Display for FlexMetaValue {
    /// Writes the value as it would appear on a meta line: strings as is,
    /// arrays comma-separated, others as JSON.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Null => f.write_str("null"),
            Self::Bool(b) => write!(f, "{b}"),
            Self::Number(n) => write!(f, "{n}"),
            Self::String(s) => f.write_str(s),
            Self::Strings(items) => f.write_str(&items.join(", ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> FlexMetaValue {
        FlexMetaValue::String(v.to_owned())
    }

    #[test]
    fn infer_types_numbers_by_json_grammar() {
        assert_eq!(infer_meta_value("0"), FlexMetaValue::Number(0.into()));
        assert_eq!(infer_meta_value("-7"), FlexMetaValue::Number((-7).into()));
        assert_eq!(infer_meta_value("1e3").to_string(), "1000.0");
        assert_eq!(infer_meta_value("-0.25").to_string(), "-0.25");
        assert_eq!(
            infer_meta_value("18446744073709551615"),
            FlexMetaValue::Number(u64::MAX.into())
        );
    }

    #[test]
    fn infer_keeps_lookalikes_as_strings() {
        for raw in [
            "0012",
            "00",
            "-",
            "+1",
            ".5",
            "1.",
            "1e",
            "1e+",
            "0x10",
            "True",
            "NULL",
            "",
            " 1",
            "18446744073709551616",
            "1e999",
            "NaN",
        ] {
            assert_eq!(
                infer_meta_value(raw),
                s(raw),
                "{raw:?} should stay a string"
            );
        }
    }

    #[test]
    fn strings_mode_never_types() {
        assert_eq!(MetaTypeMode::Strings.type_value("k", "true"), Ok(s("true")));
        assert_eq!(MetaTypeMode::default(), MetaTypeMode::Strings);
    }

    #[test]
    fn schema_coerces_or_reports() {
        let schema = MetaTypeMode::Schema(
            [
                ("n".to_owned(), MetaType::Number),
                ("b".to_owned(), MetaType::Boolean),
                ("tags".to_owned(), MetaType::Strings),
            ]
            .into_iter()
            .collect(),
        );
        assert_eq!(schema.type_value("n", "007.5").unwrap().to_string(), "7.5");
        assert_eq!(schema.type_value("n", "0").unwrap().to_string(), "0");
        assert_eq!(
            schema.type_value("b", "false"),
            Ok(FlexMetaValue::Bool(false))
        );
        assert_eq!(
            schema.type_value("tags", "x, y"),
            Ok(FlexMetaValue::Strings(vec!["x".into(), "y".into()]))
        );
        let err = schema.type_value("b", "yes").unwrap_err();
        assert_eq!(
            err.to_string(),
            "meta `b` should be boolean but is \"yes\"; kept as a string"
        );
        assert!(schema.type_value("n", "abc").is_err());
    }
}
