//! How JSON text is read: the ladder from strict JSON to JSON5 to the
//! repair parser ([`parse_json`]), with the value budget and the step for
//! an answer written as an escaped JSON string; and [`not_json`], why a
//! text that looks like one JSON value is not.
//!
//! It never imports `find/`: the ladder reads a value where it is told to.

use flexmd_core::{MAX_JSON_VALUES, json_nesting_exceeds, json_values_exceed};
use miette::{Diagnostic, SourceSpan};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::answer::MAX_DEPTH;
use crate::repair::{Failure, Lenient, Repair, RepairKind, parse_lenient};
use crate::repair_kind::shift;

/// How far [`parse_json`] goes to read a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Leniency {
    /// Strict JSON, then JSON5.
    Json5,
    /// Strict JSON, then JSON5, then the repair parser (the default).
    #[default]
    Repair,
}

/// Which step of the ladder read the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum JsonMethod {
    /// Strict JSON (`serde_json`).
    Strict,
    /// JSON5: comments, trailing commas, single quotes, unquoted keys, hex
    /// numbers, `Infinity`/`NaN` (which become `null`, reported as a repair).
    Json5,
    /// The repair parser; the value's `repairs` say what it changed.
    Repaired,
}

/// A value read by [`parse_json`].
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedJson {
    /// The value.
    pub value: Value,
    /// The ladder step that read it.
    pub method: JsonMethod,
    /// What was changed to read it, with offsets into the parsed text; empty
    /// for strict JSON.
    pub repairs: Vec<Repair>,
}

/// Why a text could not be read as JSON.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Diagnostic)]
pub enum JsonError {
    /// Brackets nest deeper than the limit every step keeps (128, as
    /// `serde_json`), which protects the stack.
    #[error("brackets nest deeper than {limit} levels")]
    #[diagnostic(
        code(detect::too_deep),
        help("no JSON step reads deeper nesting; flatten the value")
    )]
    TooDeep {
        /// The nesting limit.
        limit: usize,
        /// The bracket that goes one level too deep.
        #[label("one level too deep")]
        at: SourceSpan,
    },
    /// The text holds more values than a parse builds
    /// ([`MAX_JSON_VALUES`](flexmd_core::MAX_JSON_VALUES), a bound on
    /// memory). Only strict reading refuses it; the repair step reads the
    /// values up to the limit ([`RepairKind::ValueLimit`]).
    #[error("the text holds more than {limit} values")]
    #[diagnostic(
        code(detect::too_large),
        help(
            "a parsed value takes 100-300 bytes of memory; split the document, or write it as JSON Lines"
        )
    )]
    TooLarge {
        /// The most values one text may hold.
        limit: usize,
        /// The bracket or comma past the limit.
        #[label("past the limit")]
        at: SourceSpan,
    },
    /// The text is not JSON, JSON5 or anything the repair parser can mend.
    #[error("{message}")]
    #[diagnostic(code(detect::json_syntax))]
    Syntax {
        /// What went wrong.
        message: String,
        /// Where reading stopped.
        #[label("here")]
        at: SourceSpan,
    },
}

impl JsonError {
    /// The byte offset the error points at.
    pub fn offset(&self) -> usize {
        match self {
            Self::TooDeep { at, .. } | Self::TooLarge { at, .. } | Self::Syntax { at, .. } => {
                at.offset()
            }
        }
    }

    fn from_failure(f: Failure) -> Self {
        if f.too_deep {
            Self::TooDeep {
                limit: MAX_DEPTH,
                at: f.offset.into(),
            }
        } else {
            Self::Syntax {
                message: f.message,
                at: f.offset.into(),
            }
        }
    }
}

/// Reads `text` (one value, with only whitespace and comments around it)
/// through the ladder: strict JSON; then JSON5; then, with
/// [`Leniency::Repair`], the repair parser, which also mends smart quotes,
/// Python literals, raw line breaks and stray quotes in strings, missing
/// commas and truncated output, reporting each [`Repair`].
///
/// JSON5 runs only after a bracket-depth pre-scan (the `json5` crate
/// overflows the stack on deep input), and every step stops at 128 levels.
///
/// ```
/// use flexmd_detect::{JsonMethod, Leniency, RepairKind, parse_json};
/// use serde_json::json;
///
/// let strict = parse_json("{\"a\": 1}", Leniency::Repair).unwrap();
/// assert_eq!(strict.method, JsonMethod::Strict);
///
/// let json5 = parse_json("{a: 1, /* note */ b: 'x',}", Leniency::Repair).unwrap();
/// assert_eq!((json5.value, json5.method), (json!({"a": 1, "b": "x"}), JsonMethod::Json5));
///
/// let cut = parse_json("{\"ok\": True, \"items\": [1, 2", Leniency::Repair).unwrap();
/// assert_eq!(cut.value, json!({"ok": true, "items": [1, 2]}));
/// assert_eq!(cut.method, JsonMethod::Repaired);
/// let kinds: Vec<_> = cut.repairs.iter().map(|r| r.kind).collect();
/// assert_eq!(
///     kinds,
///     [RepairKind::PythonLiteral, RepairKind::UnclosedArray, RepairKind::UnclosedObject]
/// );
///
/// assert!(parse_json("{\"ok\": True}", Leniency::Json5).is_err());
/// ```
pub fn parse_json(text: &str, leniency: Leniency) -> Result<ParsedJson, JsonError> {
    parse_within(text, leniency, MAX_JSON_VALUES).map(|(parsed, _)| parsed)
}

/// [`parse_json`] reading at most `limit` values; with how many it read
/// when the repair step counted them (strict and JSON5 values are counted
/// only by callers that keep a budget: [`spend`]).
pub(crate) fn parse_within(
    text: &str,
    leniency: Leniency,
    limit: usize,
) -> Result<(ParsedJson, Option<usize>), JsonError> {
    let too_large = json_values_exceed(text, limit);
    let strict = match too_large {
        None => match serde_json::from_str::<Value>(text) {
            Ok(value) => {
                let parsed = ParsedJson {
                    value,
                    method: JsonMethod::Strict,
                    repairs: Vec::new(),
                };
                return Ok((parsed, None));
            }
            Err(e) => Some(StrictFailure::of(&e)),
        },
        Some(_) => None,
    };
    parse_after_strict(text, leniency, limit, too_large, strict)
}

/// How strict JSON failed on a text, as far as the later steps care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StrictFailure {
    /// The text ran out inside a value: JSON5 would run out too.
    Truncated,
    /// A complete value followed by text that is not a comment: JSON5
    /// would refuse it too.
    TrailingText,
    /// Anything else: JSON5 may read it.
    Other,
}

impl StrictFailure {
    pub(crate) fn of(e: &serde_json::Error) -> Self {
        if e.classify() == serde_json::error::Category::Eof {
            Self::Truncated
        } else {
            Self::Other
        }
    }
}

/// [`parse_within`] after the strict step: JSON5, then the repairs.
/// `strict` is how strict JSON failed (`None`: not tried, the text is over
/// the value bound `too_large` reports).
pub(crate) fn parse_after_strict(
    text: &str,
    leniency: Leniency,
    limit: usize,
    too_large: Option<usize>,
    strict: Option<StrictFailure>,
) -> Result<(ParsedJson, Option<usize>), JsonError> {
    // JSON5 runs only on text within the bounds (the json5 crate overflows
    // the stack on deep input).
    let refused = || match (too_large, json_nesting_exceeds(text, MAX_DEPTH)) {
        (_, Some(offset)) => Some(JsonError::TooDeep {
            limit: MAX_DEPTH,
            at: offset.into(),
        }),
        (Some(offset), None) => Some(JsonError::TooLarge {
            limit,
            at: offset.into(),
        }),
        (None, None) => None,
    };
    if leniency == Leniency::Json5 {
        return Err(match refused() {
            Some(e) => e,
            None => match json5::from_str::<Value>(text) {
                Ok(value) => return Ok((json5_value(text, value), None)),
                Err(e) => {
                    let offset = e
                        .position()
                        .map_or(0, |p| offset_of(text, p.line, p.column));
                    JsonError::Syntax {
                        message: e.to_string(),
                        at: offset.into(),
                    }
                }
            },
        });
    }
    // Text cut off inside a value, or a value with prose after it, fails
    // JSON5 as it failed strict JSON: skip straight to the repairs (which
    // keep their own bounds). JSON5's error message is not written either
    // (it was a tenth of reading broken JSON).
    let json5_may_read = !matches!(
        strict,
        Some(StrictFailure::Truncated | StrictFailure::TrailingText)
    );
    if json5_may_read
        && too_large.is_none()
        && refused().is_none()
        && let Ok(value) = json5::from_str::<Value>(text)
    {
        return Ok((json5_value(text, value), None));
    }
    match parse_lenient(text, 0, true, limit) {
        Ok(l) => {
            let values = l.values;
            Ok((repaired(l), Some(values)))
        }
        Err(f) => escaped(text, limit).ok_or_else(|| JsonError::from_failure(f)),
    }
}

/// Takes what a kept value holds from the budget `left`: its count when the
/// parse made one, else counted now.
pub(crate) fn spend(left: &mut usize, parsed: &ParsedJson, counted: Option<usize>) {
    let values = counted.unwrap_or_else(|| count_values(&parsed.value));
    *left = left.saturating_sub(values);
}

/// How many values `value` holds, itself included.
pub(crate) fn count_values(value: &Value) -> usize {
    let mut count = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        count += 1;
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    count
}

/// A whole answer written as an escaped string (`{\"a\": \"b\"}`): every
/// quote has a backslash before it. Read with one level of escapes removed;
/// repair offsets point into `text`.
pub(crate) fn escaped(text: &str, limit: usize) -> Option<(ParsedJson, Option<usize>)> {
    let first = memchr::memmem::find(text.as_bytes(), b"\\\"")?;
    let bytes = text.as_bytes();
    let all_escaped = quote_offsets(text).all(|i| i > 0 && bytes.get(i - 1) == Some(&b'\\'));
    if !all_escaped {
        return None;
    }
    // One level of escapes removed; `removed` holds, for each backslash
    // dropped, its offset in the unescaped text (to map offsets back).
    let mut plain = String::with_capacity(text.len());
    let mut removed = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        let unescaped = match (c, chars.peek().map(|&(_, n)| n)) {
            ('\\', Some(n @ ('"' | '\\' | '/'))) => Some(n),
            ('\\', Some('n')) => Some('\n'),
            ('\\', Some('t')) => Some('\t'),
            ('\\', Some('r')) => Some('\r'),
            _ => None,
        };
        match unescaped {
            Some(u) => {
                removed.push(plain.len());
                plain.push(u);
                chars.next();
            }
            None => plain.push(c),
        }
    }
    let l = parse_lenient(&plain, 0, true, limit).ok()?;
    let to_text = |at: usize| at + removed.partition_point(|&r| r <= at);
    let mut repairs = vec![Repair {
        kind: RepairKind::EscapedJson,
        offset: first,
    }];
    repairs.extend(shift(l.repairs, to_text));
    Some((
        ParsedJson {
            value: l.value,
            method: JsonMethod::Repaired,
            repairs,
        },
        Some(l.values),
    ))
}

/// The offsets of the `"` in `text`.
pub(crate) fn quote_offsets(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'"')
        .map(|(i, _)| i)
}

/// A JSON5 value; `Infinity` and `NaN` became `null` in it, which is
/// reported (with its place, found by the repair parser) as a repair.
pub(crate) fn json5_value(text: &str, value: Value) -> ParsedJson {
    let has = |word: &[u8]| memchr::memmem::find(text.as_bytes(), word).is_some();
    let repairs = if has(b"Infinity") || has(b"NaN") {
        parse_lenient(text, 0, true, usize::MAX)
            .map(|l| {
                l.repairs
                    .into_iter()
                    .filter(|r| r.kind == RepairKind::NonFiniteNumber)
                    .collect()
            })
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    ParsedJson {
        value,
        method: JsonMethod::Json5,
        repairs,
    }
}

pub(crate) fn repaired(l: Lenient) -> ParsedJson {
    // With no repairs, the repair parser read plain JSON5 that the json5
    // crate refused (it is stricter on a few number and escape forms).
    let method = if l.repairs.is_empty() {
        JsonMethod::Json5
    } else {
        JsonMethod::Repaired
    };
    ParsedJson {
        value: l.value,
        method,
        repairs: l.repairs,
    }
}

/// The byte offset of 0-based `line` and `column` (in characters).
pub(crate) fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 0..line {
        match text.get(start..).and_then(|r| r.find('\n')) {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let rest = text.get(start..).unwrap_or_default();
    start
        + rest
            .char_indices()
            .nth(column)
            .map_or(rest.len(), |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_ladder_reports_its_step() {
        let p = parse_json("[1, 2,]", Leniency::Repair).unwrap();
        assert_eq!((p.value, p.method), (json!([1, 2]), JsonMethod::Json5));
        let p = parse_json("[Infinity, 1]", Leniency::Json5).unwrap();
        assert_eq!(p.value, json!([null, 1]));
        assert_eq!(
            p.repairs,
            [Repair {
                kind: RepairKind::NonFiniteNumber,
                offset: 1
            }]
        );
    }
    #[test]
    fn errors_point_at_the_problem() {
        let e = parse_json("{\"a\": 1,\n \"b\" }", Leniency::Repair).unwrap_err();
        assert_eq!(e.to_string(), "expected `:` after a key (found `}`)");
        assert_eq!(e.offset(), 14);
        let e = parse_json("{\"a\": 1,\n x}", Leniency::Json5).unwrap_err();
        assert_eq!(e.offset(), 11);
        let e = parse_json(&"[".repeat(100_000), Leniency::Repair).unwrap_err();
        assert_eq!(e.to_string(), "brackets nest deeper than 128 levels");
        assert_eq!(e.offset(), 128);
    }
}
