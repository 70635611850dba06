//! flexmd-frames: Layer A of flex-md — FlexMD frames to and from
//! [`FlexDocument`].
//!
//! FlexMD is Markdown with three anchors:
//!
//! - **frame headers**, as a bracket line `[[message role=user id=m1]]` or a
//!   heading `## [[message role=user id=m1]]` (any level). The first word is
//!   the frame type; `role`, `id` and `ts` become fields; any other
//!   `key=value` attribute goes to the frame's meta. Values with spaces are
//!   double-quoted (`title="a b"`, escapes `\"` `\\` `\n` `\t` `\r`). Text after
//!   `]]` is the frame's `title`.
//! - **meta lines** `@key: value` in a frame's head, or before the first
//!   frame for the document. `tags` and `refs` split on commas.
//! - **payload bindings** `@payload:name: X` (or `@payload:X:`) in a frame's
//!   head, which bind the next fenced block to payload `X`: `json` and `json5`
//!   are parsed, `table` becomes a parsed table, anything else stays a string;
//!   `raw` is always kept.
//!
//! A frame's **head** is its header line, then meta lines and payload
//! bindings (each with its fence), up to the first other line — a blank line
//! included. The rest is the body, where `@` lines are text, unless
//! [`ParseOptions::meta_anywhere`] is set. Keeping structure in the head is
//! what lets [`stringify()`] write payloads before the body without changing
//! what the body's own lines mean.
//!
//! A `# Title` before the first frame is the document title; other text there
//! is kept as `preamble_md`. Code blocks are found by the Markdown parser, so
//! headers, meta and bindings inside fences are plain text. Body text is the
//! frame's remaining lines, with `\n` line endings and no leading or trailing
//! blank lines.
//!
//! Parsing never fails: anything odd — an unterminated header, a binding with
//! no fence, a duplicate attribute, a meta value that does not fit its schema
//! type — is a [`Diagnostic`](flexmd_core::Diagnostic) with line and column,
//! and the text it concerns is kept.
//!
//! ```
//! use flexmd_frames::{ParseOptions, StringifyOptions, parse, stringify};
//!
//! let text = "[[message role=user id=m1]] Question\n@tags: db, sql\n\nWhich database?\n";
//! let parsed = parse(text, &ParseOptions::default());
//! assert!(parsed.diagnostics.is_empty());
//! let frame = &parsed.value.frames[0];
//! assert_eq!(frame.role.as_deref(), Some("user"));
//! assert_eq!(frame.title.as_deref(), Some("Question"));
//! assert_eq!(frame.body_md.as_deref(), Some("Which database?"));
//! assert_eq!(stringify(&parsed.value, &StringifyOptions::default()), text);
//! ```

mod header;
mod parse;
mod payload;
mod stringify;

use flexmd_core::{FlexDocument, Parsed};

pub use parse::{LineMarker, ParseOptions, line_marker};
pub use stringify::{HeaderStyle, StringifyOptions};

/// Parses FlexMD text into a [`FlexDocument`] and the diagnostics met on the
/// way (flex-md's `parseFlexMd`). Never fails; see the crate docs for the format.
///
/// ```
/// use flexmd_frames::{parse, ParseOptions};
/// let parsed = parse("[[message role=user\nhello\n", &ParseOptions::default());
/// assert_eq!(parsed.value.frames.len(), 0);
/// assert_eq!(parsed.value.preamble_md, "[[message role=user\nhello");
/// assert_eq!(
///     parsed.diagnostics[0].to_string(),
///     "1:1: frame header is not closed with `]]`; the line is kept as text"
/// );
/// ```
pub fn parse(text: &str, options: &ParseOptions) -> Parsed<FlexDocument> {
    parse::parse(text, options)
}

/// Writes a [`FlexDocument`] as FlexMD (flex-md's `stringifyFlexMd`): title, document
/// meta, preamble, then each frame as header, meta lines, payload bindings with
/// their fences, a blank line and the body. [`parse`] reads it back to the same
/// document when meta values are strings (or typed the way the parse options
/// type them) and each value fits on one line.
pub fn stringify(doc: &FlexDocument, options: &StringifyOptions) -> String {
    stringify::stringify(doc, options)
}

/// The payload name a binding line binds (`@payload:name: X` or
/// `@payload:X:`, trailing blanks allowed); `None` for any other line and
/// for a malformed binding (which [`parse`] reports).
///
/// ```
/// assert_eq!(flexmd_frames::payload_name("@payload:name: input").as_deref(), Some("input"));
/// assert_eq!(flexmd_frames::payload_name("@payload:result:").as_deref(), Some("result"));
/// assert_eq!(flexmd_frames::payload_name("@payload:name:"), None);
/// assert_eq!(flexmd_frames::payload_name("@tags: a"), None);
/// ```
pub fn payload_name(line: &str) -> Option<String> {
    parse::payload_binding(line)?.ok()
}

/// What a fence bound to a payload becomes, from its language and content:
/// `json` and `json5` parsed (on failure `value` is `null` and `parseError`
/// says why), `table` a parsed table, anything else the content as a
/// string; `raw` is always the content.
///
/// ```
/// let payload = flexmd_frames::read_payload(Some("json"), "{\"a\": 1}\n");
/// assert_eq!(payload.value, serde_json::json!({"a": 1}));
/// assert_eq!(payload.parse_error, None);
/// let broken = flexmd_frames::read_payload(Some("json"), "{\"a\": }");
/// assert!(broken.parse_error.is_some());
/// ```
pub fn read_payload(lang: Option<&str>, raw: &str) -> flexmd_core::FlexPayload {
    payload::payload(lang, raw)
}

/// The README's example, run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
