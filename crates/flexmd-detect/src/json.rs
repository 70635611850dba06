//! JSON from LLM output: where it is ([`find_json`], [`find_all_json`]) and
//! how it is read ([`parse_json`]'s ladder).

use flexmd_core::{MAX_JSON_VALUES, json_nesting_exceeds, json_values_exceed};
use miette::{Diagnostic, SourceSpan};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::fence::{Fence, fences};
use crate::repair::{Failure, Lenient, MAX_DEPTH, Repair, RepairKind, blank_len, parse_lenient};

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
fn parse_within(
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
enum StrictFailure {
    /// The text ran out inside a value: JSON5 would run out too.
    Truncated,
    /// A complete value followed by text that is not a comment: JSON5
    /// would refuse it too.
    TrailingText,
    /// Anything else: JSON5 may read it.
    Other,
}

impl StrictFailure {
    fn of(e: &serde_json::Error) -> Self {
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
fn parse_after_strict(
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
fn spend(left: &mut usize, parsed: &ParsedJson, counted: Option<usize>) {
    let values = counted.unwrap_or_else(|| count_values(&parsed.value));
    *left = left.saturating_sub(values);
}

/// How many values `value` holds, itself included.
fn count_values(value: &Value) -> usize {
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
fn escaped(text: &str, limit: usize) -> Option<(ParsedJson, Option<usize>)> {
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
fn quote_offsets(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'"')
        .map(|(i, _)| i)
}

/// A JSON5 value; `Infinity` and `NaN` became `null` in it, which is
/// reported (with its place, found by the repair parser) as a repair.
fn json5_value(text: &str, value: Value) -> ParsedJson {
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

fn repaired(l: Lenient) -> ParsedJson {
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
fn offset_of(text: &str, line: usize, column: usize) -> usize {
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

/// Where a found value was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum JsonSource {
    /// In a fenced block labeled as JSON (`json`, `json5`, `jsonc`, `jsonl`,
    /// `ndjson`, any case).
    JsonFence,
    /// In an unlabeled fence, or one labeled `javascript`, `js`,
    /// `typescript` or `ts`; or in a fence of another language whose whole
    /// content is one object or array written as data (JSON, JSON5, or a
    /// literal with Python's spellings).
    CodeFence,
    /// In the text around fences (never inside a fence of another
    /// language: CSS rules, shell `{}` or a Python assignment are code).
    Prose,
}

/// A JSON value found in a text by [`find_json`] or [`find_all_json`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct FoundJson {
    /// The value.
    pub value: Value,
    /// Byte offset where its text starts.
    pub start: usize,
    /// Byte offset just after its text.
    pub end: usize,
    /// Where it was found.
    pub source: JsonSource,
    /// The fence's language as written, for values in a fence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// The ladder step that read it.
    pub method: JsonMethod,
    /// What was changed to read it, with offsets into the searched text.
    pub repairs: Vec<Repair>,
    /// Why [`find_json`] chose this value (`None` from [`find_all_json`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pick: Option<Pick>,
    /// The value is inside a reasoning block (`<think>…</think>`): a draft,
    /// not the answer.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_reasoning: bool,
    /// The value is an unfilled template: every value in it is a
    /// placeholder (`...`, `<number>`, `TODO`, type names such as
    /// `"string"`). [`find_json`] never returns one; [`find_all_json`] lists
    /// them with this set.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub template: bool,
}

impl FoundJson {
    /// Moves `start`, `end` and every repair's offset into `offsets`' unit
    /// (a binding's string indices: code points for Python, UTF-16 units
    /// for JavaScript), so `text[start:end]` is the value's text there.
    ///
    /// ```
    /// use flexmd_core::TextOffsets;
    /// let text = "Voilà : {\"a\": 1,}";
    /// let mut found = flexmd_detect::find_json(text).unwrap();
    /// found.reindex(&TextOffsets::code_points(text));
    /// let chars: Vec<char> = text.chars().collect();
    /// assert_eq!(chars[found.start..found.end].iter().collect::<String>(), "{\"a\": 1,}");
    /// ```
    pub fn reindex(&mut self, offsets: &flexmd_core::TextOffsets<'_>) {
        self.start = offsets.index(self.start);
        self.end = offsets.index(self.end);
        for repair in &mut self.repairs {
            repair.offset = offsets.index(repair.offset);
        }
    }
}

/// Why [`find_json`] chose the value it returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Pick {
    /// The whole answer (outside reasoning) is the value.
    WholeText,
    /// The last fence whose value is complete (a draft fence followed by a
    /// final one gives the final one): JSON-labeled fences first, then
    /// unlabeled or JavaScript ones.
    LastCompleteFence,
    /// No fence holds a complete value: the last one.
    LastFence,
    /// The last complete object or array in the prose (a draft followed by
    /// its correction gives the correction); else the last one.
    Prose,
    /// The first complete value after the last label that marks a final
    /// value (`Final answer:`, `Corrected:`, `Here is the final JSON`, `no
    /// wait`), before any other rule: a fence or a value in the prose.
    AfterLabel,
    /// Nothing outside reasoning blocks: the value inside one.
    Reasoning,
}

/// Why [`find_json`] found nothing in a text that looks like one JSON
/// value (it starts with `{` or `[`): the parse error, and the byte
/// offset in the text where it breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotJson {
    /// The byte offset of the break in the whole text.
    pub offset: usize,
    /// What the parser says is wrong there.
    pub error: String,
    /// The text holds only unfilled templates ([`FoundJson::template`]);
    /// `offset` is where the first starts.
    pub template: bool,
}

impl std::fmt::Display for NotJson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.template {
            write!(f, "no JSON value found: {}", self.error)
        } else {
            write!(
                f,
                "no JSON value found: the input is not JSON ({})",
                self.error
            )
        }
    }
}

/// For a text in which [`find_json`] finds nothing: where and why it is not
/// JSON, when it looks like JSON or holds only unfilled templates; `None`
/// for prose.
///
/// ```
/// use flexmd_detect::not_json;
/// let why = not_json("  {:::}").unwrap();
/// assert_eq!(
///     why.to_string(),
///     "no JSON value found: the input is not JSON (expected a key or `}` (found `:`))"
/// );
/// assert_eq!(why.offset, 3);
/// assert!(not_json("no braces here").is_none());
/// let template = not_json("Answer as {\"score\": <number>, \"why\": \"...\"}").unwrap();
/// assert!(template.template);
/// assert_eq!(template.offset, 10);
/// assert!(template.to_string().starts_with("no JSON value found: only a template was seen"));
/// ```
pub fn not_json(text: &str) -> Option<NotJson> {
    let found = find_all_json(text);
    if let Some(first) = found.first().filter(|_| found.iter().all(|f| f.template)) {
        return Some(NotJson {
            offset: first.start,
            error: "only a template was seen: placeholders such as `<number>`, `...` or `TODO` stand for its values".to_owned(),
            template: true,
        });
    }
    let trimmed = text.trim_start();
    if !trimmed.starts_with(['{', '[']) {
        return None;
    }
    let e = parse_json(trimmed, Leniency::Repair).err()?;
    Some(NotJson {
        offset: text.len() - trimmed.len() + e.offset(),
        error: e.to_string(),
        template: false,
    })
}

/// The best JSON value in `text`. `None` when there is none.
///
/// Reasoning blocks (`<think>`, `<thinking>`, `<reasoning>`,
/// `<scratchpad>` at the start of a line, closed or not) are skipped, and
/// so is everything before a closing tag with none open (`</think>`
/// starting or ending its line: the chat template wrote the opening tag); a
/// value inside reasoning is returned only when there is nothing else
/// (`in_reasoning` is then set).
/// Outside them, in this order:
/// 1. the whole text, when it is one value (strict, or repaired when it
///    starts like JSON: a bracket, a quote, an escaped quote, a call);
/// 2. the first complete value, in a fence or in the prose, after the last
///    label that marks a final value (`Final answer:`, `Corrected:`, `Here
///    is the final JSON`, `no wait`, `Actually,`);
/// 3. the last complete value among the fences labeled as JSON (a draft
///    fence followed by a final one gives the final one), one-line fences
///    (`` ```json {...}``` `` in a sentence) included; else the last one;
/// 4. the same among unlabeled and JavaScript fences;
/// 5. the same among the objects and arrays in the prose that hold
///    something (a member; an element that is a string, array or object)
///    and look like data (a quote, colon or comma in it; with nothing
///    quoted, no spaces in its strings), so `[1]`, `[citation needed]`,
///    `{braces}` or `{k: v for k in ks}` in a sentence are not taken for
///    JSON; else the first empty object.
///
/// An unfilled template — every value a placeholder (`...`, `<number>`,
/// `TODO`, type names such as `"string"`) — is no answer: a real value
/// elsewhere wins, and with only templates there is none ([`not_json`]
/// says a template was seen).
/// JSON Lines (two or more objects, or arrays, each alone on its line) are
/// read as one array of the records, with a [`RepairKind::JsonLines`]
/// repair; a value found that is a string holding a whole JSON document is
/// that document ([`RepairKind::DoubleEncoded`]). [`FoundJson::pick`] says which rule chose the value. A value of more
/// than [`MAX_JSON_VALUES`] values is read up to that bound and carries a
/// [`RepairKind::ValueLimit`] repair.
///
/// ```
/// use flexmd_detect::{JsonSource, Pick, find_json};
/// use serde_json::json;
///
/// let answer = "Sure! Here it is:\n\n```json\n{\"name\": \"Ada\", \"langs\": [\"en\", \"fr\",]}\n```\n";
/// let found = find_json(answer).unwrap();
/// assert_eq!(found.value, json!({"name": "Ada", "langs": ["en", "fr"]}));
/// assert_eq!((found.source, found.pick), (JsonSource::JsonFence, Some(Pick::LastCompleteFence)));
/// assert_eq!(&answer[found.start..found.end], "{\"name\": \"Ada\", \"langs\": [\"en\", \"fr\",]}");
///
/// let thinking = "<think>Maybe {\"n\": 1}?</think>\n{\"n\": 2}";
/// assert_eq!(find_json(thinking).unwrap().value, json!({"n": 2}));
/// let opened_by_the_template = "Maybe {\"n\": 1}? No.\n</think>\n\n{\"n\": 2}";
/// assert_eq!(find_json(opened_by_the_template).unwrap().value, json!({"n": 2}));
///
/// assert!(find_json("Use {braces} for [citation needed] [1].").is_none());
///
/// let corrected = "Draft: {\"n\": 1}\nNo wait, the final answer: {\"n\": 2}. (Was {\"n\": 1}.)";
/// let found = find_json(corrected).unwrap();
/// assert_eq!((found.value, found.pick), (json!({"n": 2}), Some(Pick::AfterLabel)));
/// ```
pub fn find_json(text: &str) -> Option<FoundJson> {
    let reasoning = reasoning_blocks(text);
    if reasoning.is_empty() {
        return find_in(text, &[]).map(decoded);
    }
    if let Some(found) = find_in(&blank_out(text, &reasoning), &reasoning) {
        return Some(decoded(found));
    }
    // Only reasoning holds JSON: read it by the same rules.
    let outside = complement(&reasoning, text.len());
    let mut found = find_in(&blank_out(text, &outside), &outside)?;
    found.pick = Some(Pick::Reasoning);
    found.in_reasoning = true;
    Some(decoded(found))
}

/// A found string that holds a whole JSON document (an object or array, as
/// strict JSON or JSON5: double-encoded tool arguments) as that document,
/// reported as [`RepairKind::DoubleEncoded`] at the string; anything else
/// as it is.
fn decoded(mut found: FoundJson) -> FoundJson {
    let Value::String(inner) = &found.value else {
        return found;
    };
    let inner = inner.trim();
    let bracketed = (inner.starts_with('{') && inner.ends_with('}'))
        || (inner.starts_with('[') && inner.ends_with(']'));
    if !bracketed {
        return found;
    }
    if let Ok(document) = parse_json(inner, Leniency::Json5) {
        found.value = document.value;
        found.method = JsonMethod::Repaired;
        found.repairs.push(Repair {
            kind: RepairKind::DoubleEncoded,
            offset: found.start,
        });
    }
    found
}

/// Whether a value overlaps one of the reasoning blocks (it was read from
/// blanked text, and is not what the model wrote).
fn overlaps(found: &FoundJson, blocks: &[std::ops::Range<usize>]) -> bool {
    blocks
        .iter()
        .any(|b| found.start < b.end && b.start < found.end.max(found.start + 1))
}

/// [`find_json`] on a text whose reasoning `blocks` are blanked out; values
/// that overlap them do not count.
fn find_in(text: &str, blocks: &[std::ops::Range<usize>]) -> Option<FoundJson> {
    // A template (placeholders for values) is no answer, wherever it is.
    let outside = |f: &FoundJson| !overlaps(f, blocks) && !is_template(&f.value);
    // JSON Lines are read record by record below, as find_all_json lists
    // them, so both agree on what a record is.
    let whole = whole_value(text).filter(|w| !overlaps(w, blocks));
    let whole_template = whole
        .as_ref()
        .filter(|w| is_template(&w.value))
        .map(|w| w.start..w.end);
    if let Some(whole) = whole.filter(outside).filter(|w| !is_json_lines(&w.repairs)) {
        return Some(whole);
    }
    let mut found = find_after_whole(text, &outside, whole_template)?;
    // The answer opens a value that could not be read whole: a value found
    // inside it is only a part, and says so.
    let lead = lead_len(text);
    if matches!(text.as_bytes().get(lead), Some(b'{' | b'[')) {
        let outer_end = closing_end(text, lead);
        if found.start > lead && found.end <= outer_end && found.source == JsonSource::Prose {
            found.repairs.insert(
                0,
                Repair {
                    kind: RepairKind::PartOfValue,
                    offset: found.start,
                },
            );
        }
    }
    Some(found)
}

/// [`find_in`] past the whole-text rule.
/// `whole_template`: the whole text is a template, read from there.
fn find_after_whole(
    text: &str,
    outside: &dyn Fn(&FoundJson) -> bool,
    whole_template: Option<std::ops::Range<usize>>,
) -> Option<FoundJson> {
    let fences = fences(text);
    let inline = inline_fences(text, &fences);
    let regions = prose_regions(text, &fences, &inline);
    let (mut left, mut most) = (MAX_JSON_VALUES, PROSE_VALUES_READ);
    let (templates, prose): (Vec<FoundJson>, Vec<FoundJson>) = regions
        .iter()
        .flat_map(|&(start, end)| prose_values(text, start, end, &mut most, &mut left))
        .partition(|p| is_template(&p.value));
    let prose: Vec<FoundJson> = prose.into_iter().filter(|p| outside(p)).collect();
    // The last resort (an empty object) is never one inside a template.
    let in_template = |f: &FoundJson| {
        whole_template
            .as_ref()
            .is_some_and(|t| t.contains(&f.start))
            || templates
                .iter()
                .any(|t| t.start <= f.start && f.start < t.end)
    };
    if let Some(found) = after_label(text, &fences, &inline, &regions, &prose, &outside) {
        return Some(found);
    }
    for tier in [JsonSource::JsonFence, JsonSource::CodeFence] {
        // The fences of this tier, block and one-line, last first: the first
        // complete value wins; the last value when none is complete.
        let mut spans: Vec<(usize, Option<&Fence>, Option<&InlineFence>)> = fences
            .iter()
            .filter(|f| fence_source(f) == Some(tier))
            .map(|f| (f.start, Some(f), None))
            .chain(
                inline
                    .iter()
                    .filter(|f| f.source == tier)
                    .map(|f| (f.start, None, Some(f))),
            )
            .collect();
        spans.sort_unstable_by_key(|s| std::cmp::Reverse(s.0));
        let mut last = None;
        for (_, block, one_line) in spans {
            let (value, closed) = match (block, one_line) {
                (Some(f), _) => {
                    // Records one per line are JSON Lines: all of them.
                    let values = fence_values(f, tier, &mut { MAX_JSON_VALUES });
                    let value = match json_lines(text, &values) {
                        Some(records) => Some(records),
                        None => values.into_iter().next(),
                    };
                    (value, f.closed)
                }
                (None, Some(f)) => (inline_value(text, f, &mut { MAX_JSON_VALUES }), true),
                (None, None) => (None, false),
            };
            let Some(mut value) = value.filter(|v| outside(v)) else {
                continue;
            };
            if closed && !value.repairs.iter().any(|r| r.kind.is_truncation()) {
                value.pick = Some(Pick::LastCompleteFence);
                return Some(value);
            }
            if last.is_none() {
                value.pick = Some(Pick::LastFence);
                last = Some(value);
            }
        }
        if last.is_some() {
            return last;
        }
    }
    // The last complete value in the prose (a draft then its correction
    // gives the correction, as fences do); else the last one. A value that
    // is a record of JSON Lines gives all the records of its run.
    let chosen = prose
        .iter()
        .rposition(|p| !truncated(p))
        .or_else(|| prose.len().checked_sub(1));
    chosen
        .and_then(|i| {
            let run = records_around(text, &prose, i);
            json_lines(text, prose.get(run.clone())?).or_else(|| prose.get(i).cloned())
        })
        .or_else(|| {
            regions
                .iter()
                .filter_map(|&(start, end)| first_object(text, start, end))
                .find(|f| outside(f) && !in_template(f))
        })
        .map(|mut p| {
            p.pick = Some(Pick::Prose);
            p
        })
}

/// The run of JSON Lines records around `values[i]`: the values next to
/// it, each alone on its lines, with nothing but line breaks and blanks
/// between them (just `i..i + 1` when it is no record).
fn records_around(text: &str, values: &[FoundJson], i: usize) -> std::ops::Range<usize> {
    let adjacent = |a: &FoundJson, b: &FoundJson| {
        alone_on_lines(text, a)
            && alone_on_lines(text, b)
            && text
                .get(a.end..b.start)
                .is_some_and(|gap| gap.trim().is_empty() && gap.contains('\n'))
    };
    let mut start = i;
    while let (Some(prev), Some(this)) = (
        start.checked_sub(1).and_then(|p| values.get(p)),
        values.get(start),
    ) {
        if !adjacent(prev, this) {
            break;
        }
        start -= 1;
    }
    let mut end = i + 1;
    while let (Some(this), Some(next)) = (values.get(end - 1), values.get(end)) {
        if !adjacent(this, next) {
            break;
        }
        end += 1;
    }
    start..end
}

/// Whether a value starts its line and ends its line (blanks aside).
fn alone_on_lines(text: &str, found: &FoundJson) -> bool {
    let before = text.get(..found.start).unwrap_or_default();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let after = text.get(found.end..).unwrap_or_default();
    let line_end = after.find('\n').unwrap_or(after.len());
    before
        .get(line_start..)
        .is_some_and(|b| b.trim().is_empty())
        && after.get(..line_end).is_some_and(|a| a.trim().is_empty())
}

/// JSON Lines: two or more records (all objects, or all arrays), each
/// alone on its lines with only line breaks between them, read as one
/// array of the records, reported as [`RepairKind::JsonLines`] at the
/// second. `None` for anything else.
fn json_lines(text: &str, values: &[FoundJson]) -> Option<FoundJson> {
    let (first, rest) = values.split_first()?;
    let second = rest.first()?;
    let same_kind =
        values.iter().all(|v| v.value.is_object()) || values.iter().all(|v| v.value.is_array());
    if !same_kind || records_around(text, values, 0) != (0..values.len()) {
        return None;
    }
    let last = values.last()?;
    let mut repairs: Vec<Repair> = values
        .iter()
        .flat_map(|v| v.repairs.iter().cloned())
        .collect();
    repairs.push(Repair {
        kind: RepairKind::JsonLines,
        offset: second.start,
    });
    repairs.sort_by_key(|r| r.offset);
    Some(FoundJson {
        value: Value::Array(values.iter().map(|v| v.value.clone()).collect()),
        start: first.start,
        end: last.end,
        source: first.source,
        lang: first.lang.clone(),
        method: JsonMethod::Repaired,
        repairs,
        pick: None,
        in_reasoning: first.in_reasoning,
        template: false,
    })
}

/// Whether `value` is an unfilled template, no answer: no value in it is
/// real (a number, a boolean, a string that is no placeholder), and a
/// placeholder stands for one at least — `...`, `<number>`, `[your answer]`,
/// `TODO`, or type names (two or more, with no `type` key: `{"type":
/// "string"}` is a schema).
pub(crate) fn is_template(value: &Value) -> bool {
    let (mut placeholders, mut type_names, mut typed) = (0usize, 0usize, false);
    let mut stack: Vec<(Option<&str>, &Value)> = vec![(None, value)];
    while let Some((key, v)) = stack.pop() {
        match v {
            Value::Object(map) => stack.extend(map.iter().map(|(k, v)| (Some(k.as_str()), v))),
            Value::Array(items) => stack.extend(items.iter().map(|v| (key, v))),
            Value::Null => {}
            Value::Bool(_) | Value::Number(_) => return false,
            Value::String(s) => {
                let s = s.trim();
                if placeholder(s) {
                    placeholders += 1;
                } else if TYPE_NAMES.contains(&s) {
                    type_names += 1;
                    typed |= matches!(key, Some("type" | "format"));
                } else {
                    return false;
                }
            }
        }
    }
    placeholders > 0 || (type_names >= 2 && !typed)
}

/// Type names a template writes for the value it asks for.
const TYPE_NAMES: [&str; 12] = [
    "string", "number", "integer", "boolean", "bool", "float", "int", "str", "array", "object",
    "list", "dict",
];

/// A string that stands for a value to fill in: an ellipsis, `<…>`, a
/// bracketed instruction (`[your answer here]`, `[0-1]`), `TODO`, `TBD`.
fn placeholder(s: &str) -> bool {
    // Words in one pair of brackets: no markup (`<h3>…</h3>`), no quoted
    // data (`["bar"]`), no list (`[a, b]`), no numbers alone (`[1, 2]`).
    let enclosed = |open: char, close: char| {
        let inner = s
            .strip_prefix(open)
            .and_then(|r| r.strip_suffix(close))
            .unwrap_or_default();
        s.len() <= 80
            && inner.chars().any(char::is_alphabetic)
            && !inner.contains(['<', '>', '[', ']', '"', '\'', '\\', '\n', ',', ':'])
    };
    (!s.is_empty() && s.chars().all(|c| matches!(c, '.' | '…' | ' ')))
        || enclosed('<', '>')
        || enclosed('[', ']')
        || matches!(s, "TODO" | "TBD" | "FIXME")
}

/// Whether a value was read from JSON Lines (its records as one array).
fn is_json_lines(repairs: &[Repair]) -> bool {
    repairs.iter().any(|r| r.kind == RepairKind::JsonLines)
}

/// How many values in the prose [`find_json`] reads at the most (the last
/// complete one among them wins): an answer holds a few, and reading every
/// one of a hostile text's hundreds of thousands would cost more than the
/// rest of the search. [`find_all_json`] reads them all.
pub const PROSE_VALUES_READ: usize = 10_000;

/// Whether the end of the input cut the value off (a truncation repair).
fn truncated(found: &FoundJson) -> bool {
    found.repairs.iter().any(|r| r.kind.is_truncation())
}

/// Phrases that mark the value after them as the final one, superseding
/// drafts before it (matched in any case, at the start of a word, in the
/// prose outside values).
const FINAL_LABELS: [&str; 27] = [
    "final answer",
    "final json",
    "final output",
    "final result",
    "final response",
    "final version",
    "final object",
    "final value",
    "final data",
    "final:",
    "corrected",
    "correction:",
    "revised",
    "updated:",
    "updated json",
    "updated version",
    "fixed:",
    "fixed json",
    "fixed version",
    "no wait",
    "no, wait",
    "wait, ",
    "oops",
    "actually,",
    "let me fix",
    "let me correct",
    "on second thought",
];

/// The end of the last final-value label ([`FINAL_LABELS`]) in the prose
/// `regions`, outside the prose `values` (sorted, not overlapping).
fn last_label(text: &str, regions: &[(usize, usize)], values: &[FoundJson]) -> Option<usize> {
    let labels = final_labels()?;
    let bytes = text.as_bytes();
    let mut last = None;
    for &(start, end) in regions {
        let Some(region) = text.get(start..end) else {
            continue;
        };
        for label in labels.find_overlapping_iter(region) {
            let at = start + label.start();
            let word_start = at
                .checked_sub(1)
                .and_then(|b| bytes.get(b))
                .is_none_or(|b| !b.is_ascii_alphanumeric());
            // The value that starts last at or before `at` is the only
            // one that may cover it.
            let before = values.partition_point(|v| v.start <= at);
            let inside = before
                .checked_sub(1)
                .and_then(|i| values.get(i))
                .is_some_and(|v| at < v.end);
            if word_start && !inside {
                last = last.max(Some(start + label.end()));
            }
        }
    }
    last
}

/// [`FINAL_LABELS`] in any ASCII case, found in one pass over a text (27
/// searches, each over the whole text, were a fifth of a small answer's
/// `find_json`). Built once; it cannot fail for these few short labels (a
/// test builds it), and were it to, no label would be found.
fn final_labels() -> Option<&'static aho_corasick::AhoCorasick> {
    static LABELS: std::sync::OnceLock<Option<aho_corasick::AhoCorasick>> =
        std::sync::OnceLock::new();
    LABELS
        .get_or_init(|| {
            aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(FINAL_LABELS)
                .ok()
        })
        .as_ref()
}

/// The value after the last final-value label (`Final answer:`,
/// `Corrected:`, `no wait`), when a complete one follows it: the first
/// among the fences and the prose after the label.
fn after_label(
    text: &str,
    fences: &[Fence],
    inline: &[InlineFence],
    regions: &[(usize, usize)],
    prose: &[FoundJson],
    outside: &dyn Fn(&FoundJson) -> bool,
) -> Option<FoundJson> {
    let label = last_label(text, regions, prose)?;
    let mut after: Vec<(FoundJson, bool)> = Vec::new();
    for fence in fences.iter().filter(|f| f.start >= label) {
        let Some(tier) = fence_source(fence) else {
            continue;
        };
        if let Some(value) = fence_values(fence, tier, &mut { MAX_JSON_VALUES })
            .into_iter()
            .next()
        {
            after.push((value, fence.closed));
        }
    }
    for fence in inline.iter().filter(|f| f.start >= label) {
        after.extend(inline_value(text, fence, &mut { MAX_JSON_VALUES }).map(|v| (v, true)));
    }
    after.extend(
        prose
            .iter()
            .filter(|p| p.start >= label)
            .map(|p| (p.clone(), true)),
    );
    // A value cut off by the end of the answer is no final value: the
    // other rules choose then.
    after.retain(|(v, closed)| *closed && !truncated(v) && outside(v));
    let (mut value, _) = after.into_iter().min_by_key(|(v, _)| v.start)?;
    value.pick = Some(Pick::AfterLabel);
    Some(value)
}

/// Every JSON value in `text`, in document order: each value in a JSON or
/// code fence (a fence may hold several, as JSON Lines; one-line fences
/// included), then the objects and arrays in the prose around them, as
/// [`find_json`] reads them. Values inside reasoning blocks are included,
/// with `in_reasoning` set.
///
/// At most [`MAX_JSON_VALUES`] values (elements, members and containers)
/// are kept across everything found, a bound on memory: past it the search
/// stops, and the last value carries a [`RepairKind::ValueLimit`] repair.
///
/// ```
/// use flexmd_detect::find_all_json;
/// use serde_json::json;
///
/// let text = "first {\"a\": 1} then\n```\n[2, 3]\n```\nand {'b': None}";
/// let values: Vec<_> = find_all_json(text).into_iter().map(|f| f.value).collect();
/// assert_eq!(values, [json!({"a": 1}), json!([2, 3]), json!({"b": null})]);
/// ```
pub fn find_all_json(text: &str) -> Vec<FoundJson> {
    let mut found = find_all_marked(text);
    for f in &mut found {
        f.template = is_template(&f.value);
    }
    found
}

/// [`find_all_json`] before templates are marked.
fn find_all_marked(text: &str) -> Vec<FoundJson> {
    let reasoning = reasoning_blocks(text);
    if reasoning.is_empty() {
        return find_all_in(text, &[]).into_iter().map(decoded).collect();
    }
    // Outside reasoning and inside it, each read with the other blanked
    // out, as find_json reads them.
    let outside = complement(&reasoning, text.len());
    let mut found = find_all_in(&blank_out(text, &reasoning), &reasoning);
    found.extend(
        find_all_in(&blank_out(text, &outside), &outside)
            .into_iter()
            .map(|f| FoundJson {
                in_reasoning: true,
                ..f
            }),
    );
    found.sort_by_key(|f| f.start);
    found.into_iter().map(decoded).collect()
}

/// The ranges of `0..len` outside `blocks` (sorted, not overlapping).
fn complement(blocks: &[std::ops::Range<usize>], len: usize) -> Vec<std::ops::Range<usize>> {
    let mut outside = Vec::new();
    let mut at = 0;
    for block in blocks {
        outside.push(at..block.start);
        at = block.end;
    }
    outside.push(at..len);
    outside
}

/// [`find_all_json`] on a text whose reasoning `blocks` are blanked out (or
/// that has none); values that overlap them do not count.
fn find_all_in(text: &str, blocks: &[std::ops::Range<usize>]) -> Vec<FoundJson> {
    let outside = |f: &FoundJson| !overlaps(f, blocks);
    if let Some(mut whole) = whole_value(text)
        .filter(outside)
        .filter(|w| !is_json_lines(&w.repairs))
    {
        whole.pick = None;
        return vec![whole];
    }
    let fences = fences(text);
    let inline = inline_fences(text, &fences);
    let mut found = Vec::new();
    // One bound on the values kept, across every fence and region.
    let mut left = MAX_JSON_VALUES;
    for fence in &fences {
        if let Some(tier) = fence_source(fence) {
            found.extend(fence_values(fence, tier, &mut left));
        }
    }
    for fence in &inline {
        found.extend(inline_value(text, fence, &mut left));
    }
    let regions = prose_regions(text, &fences, &inline);
    for &(start, end) in &regions {
        found.extend(prose_values(
            text,
            start,
            end,
            &mut { usize::MAX },
            &mut left,
        ));
    }
    found.retain(outside);
    // The last resort, as find_json takes it (templates are no answer, and
    // no empty object inside one is either).
    if found.iter().all(|f| is_template(&f.value)) {
        let in_template =
            |f: &FoundJson| found.iter().any(|t| t.start <= f.start && f.start < t.end);
        let last_resort = regions
            .iter()
            .filter_map(|&(start, end)| first_object(text, start, end))
            .find(|f| outside(f) && !in_template(f));
        found.extend(last_resort);
    }
    found.sort_by_key(|f| f.start);
    if left == 0 {
        mark_value_limit(&mut found);
    }
    found
}

/// Says on the last value that the search stopped at the bound on values
/// (unless a value was cut there and says so already).
fn mark_value_limit(found: &mut [FoundJson]) {
    let cut = found
        .iter()
        .any(|f| f.repairs.iter().any(|r| r.kind == RepairKind::ValueLimit));
    if let (false, Some(last)) = (cut, found.last_mut()) {
        last.repairs.push(Repair {
            kind: RepairKind::ValueLimit,
            offset: last.end,
        });
    }
}

/// The reasoning tags a model may wrap its thinking in.
const REASONING_TAGS: [&str; 4] = ["think", "thinking", "reasoning", "scratchpad"];

/// The byte ranges of reasoning blocks: from an opening tag (`<think>`,
/// any case) at the start of a line to the end of its closing tag, or to the
/// end of the text; and, when the chat template wrote the opening tag (the
/// answer holds only `</think>`), from the start of the text to the end of
/// that closing tag ([`orphan_close`]).
pub(crate) fn reasoning_blocks(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut blocks = Vec::new();
    let mut at = 0;
    if let Some(end) = orphan_close(text) {
        blocks.push(0..end);
        at = end;
    }
    while let Some(i) = text.get(at..).and_then(|r| r.find('<')) {
        let open = at + i;
        let rest = text.get(open + 1..).unwrap_or_default();
        let tag = REASONING_TAGS.iter().find(|t| {
            rest.get(..t.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(t))
                && rest.get(t.len()..).is_some_and(|r| r.starts_with('>'))
        });
        // Only a tag that starts a line opens a block (not one quoted in
        // a sentence or a JSON string). Only the blanks before it are
        // looked at, so many `<` on one long line stay linear.
        let starts_line = || {
            let before = text.as_bytes().get(..open).unwrap_or_default();
            let blanks = before
                .iter()
                .rev()
                .take_while(|b| matches!(b, b' ' | b'\t' | b'\r'))
                .count();
            before.len() == blanks || before.get(before.len() - blanks - 1) == Some(&b'\n')
        };
        let Some(tag) = tag.filter(|_| starts_line()) else {
            at = open + 1;
            continue;
        };
        let body = open + tag.len() + 2;
        let close = format!("</{tag}>");
        let end = find_ascii_ci(text, body, &close).map_or(text.len(), |i| i + close.len());
        blocks.push(open..end);
        at = end;
    }
    blocks
}

/// The end of a closing reasoning tag (`</think>`, any case) that no opening
/// tag comes before: reasoning models whose chat template writes `<think>`
/// into the prompt answer with their reasoning, `</think>`, then the
/// answer. The tag must start or end its line (not one quoted in a sentence
/// or a JSON string), and no opening tag may start a line before it.
pub(crate) fn orphan_close(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    // The line around the candidate, kept as the search moves on so each
    // byte is looked at a bounded number of times: where it starts, and
    // where its content (what is not blank) starts and ends.
    let mut line = 0..0;
    let mut content = 0..0;
    let mut at = 0;
    while let Some(i) = memchr::memmem::find(bytes.get(at..)?, b"</") {
        let open = at + i;
        at = open + 2;
        let rest = text.get(open + 2..).unwrap_or_default();
        let Some(tag) = REASONING_TAGS.iter().find(|t| {
            rest.get(..t.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(t))
                && rest.get(t.len()..).is_some_and(|r| r.starts_with('>'))
        }) else {
            continue;
        };
        if open >= line.end {
            // A new line (`line.end` is the previous line's break).
            let start = bytes
                .get(line.end..open)
                .and_then(|b| memchr::memrchr(b'\n', b))
                .map_or(line.end, |i| line.end + i + 1);
            let end = bytes
                .get(open..)
                .and_then(|b| memchr::memchr(b'\n', b))
                .map_or(bytes.len(), |i| open + i);
            let blank = |b: &u8| b.is_ascii_whitespace();
            let lead = bytes
                .get(start..end)
                .and_then(|b| b.iter().position(|b| !blank(b)))
                .map_or(end, |i| start + i);
            let tail = bytes
                .get(start..end)
                .and_then(|b| b.iter().rposition(|b| !blank(b)))
                .map_or(start, |i| start + i + 1);
            line = start..end;
            content = lead..tail;
        }
        let end = open + tag.len() + 3;
        if !(content.start == open || content.end == end) {
            continue;
        }
        // An opening tag at the start of a line before it makes it an
        // ordinary block's end.
        let opened = text.get(..open).is_some_and(|before| {
            before.split('\n').any(|line| {
                let line = line.trim_start();
                REASONING_TAGS.iter().any(|t| {
                    line.strip_prefix('<').is_some_and(|r| {
                        r.get(..t.len()).is_some_and(|w| w.eq_ignore_ascii_case(t))
                            && r.get(t.len()..).is_some_and(|r| r.starts_with('>'))
                    })
                })
            })
        });
        return (!opened).then_some(end);
    }
    None
}

/// The offset of `needle` (ASCII, any case) in `text` from `from`.
fn find_ascii_ci(text: &str, from: usize, needle: &str) -> Option<usize> {
    let hay = text.as_bytes().get(from..)?;
    hay.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
        .map(|i| from + i)
}

/// `text` with the bytes of `blocks` replaced by spaces (line breaks kept),
/// so every offset still points at the same place.
fn blank_out(text: &str, blocks: &[std::ops::Range<usize>]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for block in blocks {
        if let Some(span) = bytes.get_mut(block.clone()) {
            span.iter_mut()
                .filter(|b| **b != b'\n')
                .for_each(|b| *b = b' ');
        }
    }
    // Whole characters were replaced by ASCII bytes.
    String::from_utf8(bytes).unwrap_or_default()
}

/// A fence the Markdown parser does not see: ```` ``` ```` in the middle of
/// a line, its language, and the closing ```` ``` ```` on the same line
/// (`Here: ```json {"a": 1}```.`).
#[derive(Debug, Clone)]
struct InlineFence {
    /// The opening backticks.
    start: usize,
    /// Just after the closing backticks.
    end: usize,
    /// The content between the language word and the closing backticks.
    content: std::ops::Range<usize>,
    lang: Option<String>,
    source: JsonSource,
}

/// The one-line fences in the prose around `fences`.
fn inline_fences(text: &str, fences: &[Fence]) -> Vec<InlineFence> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(i) = text
        .as_bytes()
        .get(at..)
        .and_then(|r| memchr::memmem::find(r, b"```"))
    {
        let open = at + i;
        let ticks = text
            .get(open..)
            .unwrap_or_default()
            .bytes()
            .take_while(|&b| b == b'`')
            .count();
        at = open + ticks;
        // Fences are sorted and never overlap: the one that could hold
        // `open` is the last that starts at or before it.
        let before = fences.partition_point(|f| f.start <= open);
        if before
            .checked_sub(1)
            .and_then(|i| fences.get(i))
            .is_some_and(|f| open < f.end)
        {
            continue;
        }
        let line_start = text
            .get(..open)
            .and_then(|b| b.rfind('\n'))
            .map_or(0, |i| i + 1);
        if text
            .get(line_start..open)
            .is_none_or(|b| b.trim().is_empty())
        {
            // At the start of a line: a fence the parser reads, or none.
            continue;
        }
        let after = text.get(at..).unwrap_or_default();
        let lang_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '+')))
            .unwrap_or(after.len());
        let body_start = at + lang_len;
        let line = text.get(body_start..).unwrap_or_default();
        let line = line
            .get(..line.find('\n').unwrap_or(line.len()))
            .unwrap_or_default();
        let Some(close) = memchr::memmem::find(line.as_bytes(), b"```") else {
            continue;
        };
        let close = body_start + close;
        let lang = text.get(at..body_start).filter(|l| !l.is_empty());
        let source = match lang.map(str::to_ascii_lowercase).as_deref() {
            None | Some("javascript" | "js" | "typescript" | "ts") => JsonSource::CodeFence,
            Some("json" | "json5" | "jsonc" | "jsonl" | "ndjson") => JsonSource::JsonFence,
            Some(_) => {
                at = close + 3;
                continue;
            }
        };
        let close_ticks = text
            .get(close..)
            .unwrap_or_default()
            .bytes()
            .take_while(|&b| b == b'`')
            .count();
        found.push(InlineFence {
            start: open,
            end: close + close_ticks,
            content: body_start..close,
            lang: lang.map(str::to_owned),
            source,
        });
        at = close + close_ticks;
    }
    found
}

/// The value of a one-line fence.
fn inline_value(text: &str, fence: &InlineFence, left: &mut usize) -> Option<FoundJson> {
    let content = text.get(fence.content.clone())?;
    let trimmed = content.trim();
    let lead = fence.content.start + (content.len() - content.trim_start().len());
    if *left == 0 {
        return None;
    }
    let (parsed, counted) = parse_within(trimmed, Leniency::Repair, *left).ok()?;
    spend(left, &parsed, counted);
    let mut found = found_at(lead, lead + trimmed.len(), parsed);
    found.source = fence.source;
    found.lang.clone_from(&fence.lang);
    Some(found)
}

/// The whole text as one value: strict JSON of any kind, or, when it
/// starts like JSON (after blanks and comments: a bracket, a quote, an
/// escaped quote, a call such as `callback(`), repaired.
fn whole_value(text: &str) -> Option<FoundJson> {
    let strict = match whole_strict(text) {
        Ok(whole) => return Some(whole),
        Err(strict) => strict,
    };
    let lead = lead_len(text);
    let trimmed = text.get(lead..).unwrap_or_default().trim_end();
    let (blank, _) = blank_len(trimmed);
    let head = trimmed.get(blank..).unwrap_or_default();
    let word = head
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '.')))
        .unwrap_or(head.len());
    let call = word > 0
        && head
            .get(word..)
            .is_some_and(|r| r.trim_start_matches([' ', '\t']).starts_with('('));
    let starts_like_json =
        head.starts_with(['{', '[', '"', '\'', '“', '‘']) || head.starts_with("\\\"") || call;
    if !starts_like_json {
        return None;
    }
    let parsed = match strict {
        // Strict JSON has had its say on this text (trailing blanks aside).
        Some(strict) => parse_after_strict(
            trimmed,
            Leniency::Repair,
            MAX_JSON_VALUES,
            None,
            Some(strict),
        ),
        None => parse_within(trimmed, Leniency::Repair, MAX_JSON_VALUES),
    }
    .ok()?
    .0;
    let mut found = found_at(lead, lead + trimmed.len(), parsed);
    found.pick = Some(Pick::WholeText);
    Some(found)
}

/// The length of what comes before a text's first character of content: a
/// byte order mark, then whitespace.
fn lead_len(text: &str) -> usize {
    let bom = flexmd_core::bom_len(text.as_bytes());
    let rest = text.get(bom..).unwrap_or_default();
    bom + rest.len() - rest.trim_start().len()
}

/// The fast path: the whole text is one strict JSON value. Else how
/// strict JSON failed on it (`None`: not tried).
fn whole_strict(text: &str) -> Result<FoundJson, Option<StrictFailure>> {
    let start = lead_len(text);
    let trimmed = text.get(start..).unwrap_or_default();
    if !trimmed
        .starts_with(|c: char| matches!(c, '{' | '[' | '"' | '-' | 't' | 'f' | 'n' | '0'..='9'))
    {
        return Err(None);
    }
    if json_values_exceed(trimmed, MAX_JSON_VALUES).is_some() {
        return Err(None);
    }
    let mut values = serde_json::Deserializer::from_str(trimmed).into_iter::<Value>();
    let value = match values.next() {
        Some(Ok(value)) => value,
        Some(Err(e)) => return Err(Some(StrictFailure::of(&e))),
        None => return Err(Some(StrictFailure::Truncated)),
    };
    let rest = trimmed.get(values.byte_offset()..).unwrap_or_default();
    let rest = rest.trim_start();
    if !rest.is_empty() {
        // A comment after the value is JSON5; other text is not.
        return Err(Some(if rest.starts_with('/') {
            StrictFailure::Other
        } else {
            StrictFailure::TrailingText
        }));
    }
    Ok(FoundJson {
        value,
        start,
        end: text.trim_end().len(),
        source: JsonSource::Prose,
        lang: None,
        method: JsonMethod::Strict,
        repairs: Vec::new(),
        pick: Some(Pick::WholeText),
        in_reasoning: false,
        template: false,
    })
}

fn fence_source(fence: &Fence) -> Option<JsonSource> {
    match fence.lang_lower().as_str() {
        "json" | "json5" | "jsonc" | "jsonl" | "ndjson" => Some(JsonSource::JsonFence),
        "" | "javascript" | "js" | "typescript" | "ts" => Some(JsonSource::CodeFence),
        // Markdown and plain text are prose (searched as the text around
        // fences is).
        lang if PROSE_LANGS.contains(&lang) => None,
        // Another language's code (CSS rules, shell `{}`, an assignment, a
        // YAML mapping) is not JSON, unless the whole content is one value
        // as written: JSON, JSON5, or a literal with Python's spellings.
        _ => written_as_data(fence.content.as_str()).then_some(JsonSource::CodeFence),
    }
}

/// Fence languages whose content is prose, not code: Markdown (FlexMD
/// included, which may quote whole answers with their fences) and text.
const PROSE_LANGS: [&str; 7] = [
    "markdown",
    "md",
    "flexmd",
    "text",
    "txt",
    "plaintext",
    "plain",
];

/// Whether `content` is, as a whole, one object or array written as data:
/// strict JSON or JSON5, or read with no repair but another language's
/// spelling of a literal (`True`, `None`, `u'…'`, a tuple, `NaN`).
fn written_as_data(content: &str) -> bool {
    let trimmed = content.trim();
    if !trimmed.starts_with(['{', '[']) {
        return false;
    }
    parse_json(trimmed, Leniency::Repair).is_ok_and(|parsed| {
        parsed.repairs.iter().all(|r| {
            matches!(
                r.kind,
                RepairKind::PythonLiteral
                    | RepairKind::StringPrefix
                    | RepairKind::PythonTuple
                    | RepairKind::NonFiniteNumber
            )
        })
    })
}

/// The values in a fence: its whole content as one value; or else values
/// one after another (JSON Lines) until something is not JSON; or else, when
/// that finds nothing (`const config = {…};`), the objects and arrays in it
/// as in prose.
///
/// Values are kept while `left` (a bound on their values) lasts.
fn fence_values(fence: &Fence, source: JsonSource, left: &mut usize) -> Vec<FoundJson> {
    let content = fence.content.as_str();
    let trimmed = content.trim();
    if trimmed.is_empty() {
        return Vec::new();
    }
    let lead = content.len() - content.trim_start().len();
    let in_text = |found: FoundJson| FoundJson {
        start: fence.text_offset(found.start),
        end: fence.text_offset(found.end),
        source,
        lang: fence.lang.clone(),
        repairs: shift(found.repairs, |at| fence.text_offset(at)),
        ..found
    };
    if *left == 0 {
        return Vec::new();
    }
    // One value; records of JSON Lines are listed one by one (find_json
    // reads them as one array).
    if let Ok((parsed, counted)) = parse_within(trimmed, Leniency::Repair, *left)
        && !is_json_lines(&parsed.repairs)
    {
        spend(left, &parsed, counted);
        return vec![in_text(found_at(lead, lead + trimmed.len(), parsed))];
    }
    let mut found = Vec::new();
    let mut at = lead;
    while at < content.len() && *left > 0 {
        let Ok(l) = parse_lenient(content, at, false, *left) else {
            break;
        };
        let start = at + blank_len(content.get(at..).unwrap_or_default()).0;
        let slice = content.get(start..l.end).unwrap_or_default();
        let Ok((parsed, _)) = parse_within(slice, Leniency::Repair, *left) else {
            break;
        };
        // The lenient reading of the same text counted its values.
        *left = left.saturating_sub(l.values);
        found.push(in_text(found_at(
            start,
            l.end,
            with_limit(parsed, &l, start),
        )));
        at = l.end;
        // Values may be separated by commas as well as line breaks.
        let rest = content.get(at..).unwrap_or_default();
        let gap = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        at += rest.len() - gap.len();
    }
    if found.is_empty() {
        found = prose_values(content, 0, content.len(), &mut { usize::MAX }, left)
            .into_iter()
            .map(in_text)
            .collect();
    }
    found
}

/// `parsed` (read again from the part of the text that `lenient` read, at
/// `start`) with the cut at the bound on values that `lenient` made: the
/// second reading sees only the text cut short.
fn with_limit(mut parsed: ParsedJson, lenient: &Lenient, start: usize) -> ParsedJson {
    if let Some(cut) = lenient
        .repairs
        .iter()
        .find(|r| r.kind == RepairKind::ValueLimit)
    {
        parsed.repairs.push(Repair {
            kind: RepairKind::ValueLimit,
            offset: cut.offset.saturating_sub(start),
        });
    }
    parsed
}

/// A value parsed from `text[start..end]`, with repair offsets made
/// relative to `text`.
fn found_at(start: usize, end: usize, parsed: ParsedJson) -> FoundJson {
    FoundJson {
        value: parsed.value,
        start,
        end,
        source: JsonSource::Prose,
        lang: None,
        method: parsed.method,
        repairs: shift(parsed.repairs, |at| start + at),
        pick: None,
        in_reasoning: false,
        template: false,
    }
}

fn shift(repairs: Vec<Repair>, map: impl Fn(usize) -> usize) -> Vec<Repair> {
    repairs
        .into_iter()
        .map(|r| Repair {
            kind: r.kind,
            offset: map(r.offset),
        })
        .collect()
}

/// The stretches of `text` outside JSON and code fences (one-line fences
/// included).
fn prose_regions(text: &str, fences: &[Fence], inline: &[InlineFence]) -> Vec<(usize, usize)> {
    // Every fence but Markdown and text: a fence of another language is
    // code, not prose.
    let mut spans: Vec<(usize, usize)> = fences
        .iter()
        .filter(|f| !PROSE_LANGS.contains(&f.lang_lower().as_str()))
        .map(|f| (f.start, f.end))
        .chain(inline.iter().map(|f| (f.start, f.end)))
        .collect();
    spans.sort_unstable();
    let mut regions = Vec::new();
    let mut at = 0;
    for (start, end) in spans {
        if start > at {
            regions.push((at, start));
        }
        at = at.max(end);
    }
    if at < text.len() {
        regions.push((at, text.len()));
    }
    regions
}

/// Objects and arrays in `text[start..end]`, left to right, without overlap.
///
/// Each `{` or `[` is tried in turn; work on failed tries is capped (a few
/// passes over the region), so hostile text stays linear.
///
/// At most `most` values are read (it counts down): [`find_json`] looks at
/// [`PROSE_VALUES_READ`] values in the prose at the most.
fn prose_values(
    text: &str,
    start: usize,
    end: usize,
    most: &mut usize,
    left: &mut usize,
) -> Vec<FoundJson> {
    let region = text.get(..end).unwrap_or_default();
    let whole = region.get(start..).unwrap_or_default().trim();
    let mut budget = 8 * (end - start) + 65_536;
    let mut found = Vec::new();
    let mut at = start;
    let mut quotes = Quotation::at(start);
    while let Some(i) = region.get(at..).and_then(|r| r.find(['{', '['])) {
        let open = at + i;
        if *left == 0 {
            break;
        }
        match parse_lenient(region, open, false, *left) {
            // A bracket inside a quotation in the prose (`the log said
            // "{code: 28" means …`) starts a value only as written: one it
            // takes repairs to read would swallow the text after the
            // quotation.
            Ok(l) if !l.repairs.is_empty() && quotes.inside(region, open) => {
                budget = budget.saturating_sub(l.end - open);
                at = open + 1;
            }
            Ok(mut l) => {
                let slice = region.get(open..l.end).unwrap_or_default();
                let counts = slice.len() == whole.len()
                    || (holds_something(&l.value) && looks_like_data(slice, &l.value));
                // Strict JSON as the lenient reading found it (no repairs):
                // its value is the one strict reading would build, so the
                // slice is only checked, not read twice.
                let strict = l.repairs.is_empty()
                    && serde_json::from_str::<serde::de::IgnoredAny>(slice).is_ok();
                let parsed = if !counts {
                    None
                } else if strict {
                    Some(ParsedJson {
                        value: std::mem::take(&mut l.value),
                        method: JsonMethod::Strict,
                        repairs: Vec::new(),
                    })
                } else {
                    parse_within(slice, Leniency::Repair, *left)
                        .ok()
                        .map(|(parsed, _)| parsed)
                };
                if let Some(parsed) = parsed {
                    // The lenient reading of the same text counted its values.
                    *left = left.saturating_sub(l.values);
                    found.push(found_at(open, l.end, with_limit(parsed, &l, open)));
                    *most = most.saturating_sub(1);
                    if *most == 0 {
                        break;
                    }
                    at = l.end;
                    continue;
                }
                budget = budget.saturating_sub(l.end - open);
                at = open + 1;
            }
            Err(f) => {
                budget = budget.saturating_sub(f.offset.saturating_sub(open) + 1);
                // Nothing inside a too-deep value is tried on its own.
                at = if f.too_deep {
                    closing_end(region, open)
                } else {
                    open + 1
                };
            }
        }
        if budget == 0 {
            break;
        }
    }
    found
}

/// The quotes seen so far on the current line of the prose, counted as the
/// search moves forward (each byte once).
struct Quotation {
    counted_to: usize,
    straight: usize,
    opening: usize,
    closing: usize,
}

impl Quotation {
    fn at(start: usize) -> Self {
        Self {
            counted_to: start,
            straight: 0,
            opening: 0,
            closing: 0,
        }
    }

    /// Whether `open` (at or after the last place asked) is inside a
    /// quotation: more opening than closing quotes before it on its line
    /// (`"` counted in pairs, `“` against `”`).
    fn inside(&mut self, text: &str, open: usize) -> bool {
        if let Some(seen) = text.get(self.counted_to..open) {
            for c in seen.chars() {
                match c {
                    '\n' => (self.straight, self.opening, self.closing) = (0, 0, 0),
                    '"' => self.straight += 1,
                    '“' => self.opening += 1,
                    '”' => self.closing += 1,
                    _ => {}
                }
            }
            self.counted_to = open;
        }
        self.straight % 2 == 1 || self.opening > self.closing
    }
}

/// The offset just after the bracket that closes the one at `open` (or the
/// end of `text`), skipping strings and comments as JSON5 reads them.
fn closing_end(text: &str, open: usize) -> usize {
    let mut depth = 0usize;
    let mut at = open;
    let bytes = text.as_bytes();
    while let Some(&b) = bytes.get(at) {
        match b {
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return at + 1;
                }
            }
            b'"' | b'\'' => {
                // To the closing quote or the end of the line, whichever first.
                let rest = text.get(at + 1..).unwrap_or_default();
                let mut escaped = false;
                let len = rest
                    .bytes()
                    .position(|c| {
                        let end = !escaped && (c == b || c == b'\n');
                        escaped = !escaped && c == b'\\';
                        end
                    })
                    .unwrap_or(rest.len());
                at += len + 1;
            }
            b'/' => at += blank_len(text.get(at..).unwrap_or_default()).0.max(1) - 1,
            _ => {}
        }
        at += 1;
    }
    text.len()
}

/// The first empty object in `text[start..end]`: the last resort of
/// [`find_json`] (`stringbeforeobject {}`).
fn first_object(text: &str, start: usize, end: usize) -> Option<FoundJson> {
    let region = text.get(..end)?;
    let mut at = start;
    let mut tries = 0;
    while let Some(i) = region.get(at..).and_then(|r| r.find('{')) {
        let open = at + i;
        tries += 1;
        if tries > 64 {
            return None;
        }
        if let Ok(l) = parse_lenient(region, open, false, MAX_JSON_VALUES)
            && l.value.as_object().is_some_and(Map::is_empty)
            && let Ok(parsed) = parse_json(region.get(open..l.end)?, Leniency::Repair)
        {
            return Some(found_at(open, l.end, parsed));
        }
        at = open + 1;
    }
    None
}

/// Whether a bracketed stretch of prose reads as data, not as words in
/// brackets: it holds a quote, a colon or a comma, and when nothing in it is
/// quoted, no string has a space (`{k: v for k in ks}` is code).
fn looks_like_data(slice: &str, value: &Value) -> bool {
    fn spaced_string(value: &Value) -> bool {
        match value {
            Value::String(s) => s.contains(char::is_whitespace),
            Value::Array(items) => items.iter().any(spaced_string),
            Value::Object(map) => map.values().any(spaced_string),
            _ => false,
        }
    }
    let quoted = slice.contains(['"', '\'', '“', '”', '‘', '’']);
    quoted || (slice.contains([':', ',']) && !spaced_string(value))
}

/// An object with a member, or an array with a string, array or object.
fn holds_something(value: &Value) -> bool {
    match value {
        Value::Object(map) => !map.is_empty(),
        Value::Array(items) => items
            .iter()
            .any(|v| matches!(v, Value::String(_) | Value::Array(_) | Value::Object(_))),
        _ => false,
    }
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

    #[test]
    fn fences_are_tried_before_prose_and_json_labels_first() {
        let text = "{\"prose\": 1}\n```\n{\"plain\": 2}\n```\n```JSON\n{\"json\": 3}\n```\n";
        assert_eq!(find_json(text).unwrap().value, json!({"json": 3}));
        let all: Vec<_> = find_all_json(text).into_iter().map(|f| f.source).collect();
        assert_eq!(
            all,
            [
                JsonSource::Prose,
                JsonSource::CodeFence,
                JsonSource::JsonFence
            ]
        );
    }

    #[test]
    fn json_lines_in_a_fence() {
        let text = "```jsonl\n{\"a\": 1}\n{\"a\": 2}\n```";
        let all = find_all_json(text);
        assert_eq!(all.len(), 2);
        assert_eq!(&text[all[1].start..all[1].end], "{\"a\": 2}");
    }

    #[test]
    fn prose_needs_substance() {
        assert!(find_json("see [1] and [ ] and [1, 2] or [citation needed]").is_none());
        // An empty object is the last resort.
        let empty = find_json("see [1] and {} and [1, 2]").unwrap();
        assert_eq!((empty.value, empty.start), (json!({}), 12));
        assert_eq!(
            find_json("see [1] then [\"x\"]").unwrap().value,
            json!(["x"])
        );
        assert_eq!(find_json("  [1]  ").unwrap().value, json!([1]));
    }

    #[test]
    fn the_final_labels_are_found_in_any_case_as_words() {
        assert!(final_labels().is_some());
        let text = "Draft {\"a\": 1}. FINAL Answer: {\"a\": 2}; unfixed: no";
        let regions = [(0, text.len())];
        let end = text.find("Answer").map(|i| i + "Answer".len());
        assert_eq!(last_label(text, &regions, &[]), end);
        // `fixed:` inside `unfixed:` is no word; `no wait` is.
        assert_eq!(last_label("unfixed: 1", &[(0, 10)], &[]), None);
        assert_eq!(last_label("x, No Wait {}", &[(0, 13)], &[]), Some(10));
    }

    #[test]
    fn closing_end_skips_strings_and_comments() {
        let text = "x [1, \"]\", '\\']', // ]\n /* ] */ [2]] y";
        assert_eq!(&text[closing_end(text, 2)..], " y");
        assert_eq!(closing_end("[[", 0), 2);
    }

    #[test]
    fn deep_prose_is_refused_quickly() {
        let text = format!("x {}", "[".repeat(100_000));
        assert!(find_all_json(&text).is_empty());
    }
}
