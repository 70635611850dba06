//! Typing of `@key: value` meta values (seed §9.1).

use crate::FlexMetaValue;

/// How meta values are typed (seed §9.1 `metaTypeMode`, without `schema`,
/// which needs per-key types and lives with the frames parser).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum MetaTypeMode {
    /// Every value stays a string (the default).
    #[default]
    Strings,
    /// `true`/`false`, `null` and JSON numbers become typed values; see [`infer_meta_value`].
    Infer,
}

impl MetaTypeMode {
    /// Types one raw value (already trimmed) under this mode.
    ///
    /// ```
    /// use flexmd_core::{FlexMetaValue, MetaTypeMode};
    /// assert_eq!(MetaTypeMode::Strings.type_value("12"), FlexMetaValue::String("12".into()));
    /// assert_eq!(MetaTypeMode::Infer.type_value("12"), FlexMetaValue::Number(12.into()));
    /// ```
    pub fn type_value(self, raw: &str) -> FlexMetaValue {
        match self {
            Self::Strings => FlexMetaValue::String(raw.to_owned()),
            Self::Infer => infer_meta_value(raw),
        }
    }
}

/// Infers a meta value's type the safe way (seed §9.1 `infer`).
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
        assert_eq!(MetaTypeMode::Strings.type_value("true"), s("true"));
        assert_eq!(MetaTypeMode::default(), MetaTypeMode::Strings);
    }
}
