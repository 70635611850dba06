//! flexmd-detect: Layer C of flex-md — find structured objects in
//! any text, and JSON in LLM output however it was written.
//!
//! - [`detect_objects`] finds `flexmd` fences, FlexDocument JSON fences, raw
//!   FlexMD and Markdown snippets, with confidences and byte offsets;
//!   [`parse_any`] reads them into [`FlexDocument`](flexmd_core::FlexDocument)s
//!   and keeps the rest as `remainder`.
//! - [`find_json`] / [`find_all_json`] find JSON values in fences (block and
//!   one-line) and prose, skipping reasoning blocks (`<think>…`) and taking
//!   the last complete fence; [`parse_json`] reads one through the ladder
//!   strict JSON → JSON5 → repairs (unquoted strings, missing quotes, commas,
//!   colons and brackets, Python and JavaScript forms, comments, ellipses,
//!   concatenation, escaped answers, truncated output: 34 [`RepairKind`]s),
//!   reporting each [`Repair`] with its offset.
//! - [`StreamingJson`] reads the same JSON while a model is still writing
//!   it: a partial value that only grows, a state per path, and JSON Patch
//!   operations per chunk; its end is exactly [`find_json`]'s answer.
//!
//! Fences are found by the Markdown parser, not by regular expressions: ```
//! and `~~~`, longer fences holding shorter ones, indented and nested fences,
//! CRLF, and a fence the answer ends inside.
//!
//! Nothing here panics or recurses without bound: every JSON step stops at
//! 128 levels of nesting, and the JSON5 step runs only after a bracket-depth
//! pre-scan.
//!
//! ```
//! use flexmd_detect::{RepairKind, find_json};
//! use serde_json::json;
//!
//! let answer = "The result:\n```json\n{\"done\": True, \"steps\": [\"parse\", \"check\"";
//! let found = find_json(answer).unwrap();
//! assert_eq!(found.value, json!({"done": true, "steps": ["parse", "check"]}));
//! let kinds: Vec<_> = found.repairs.iter().map(|r| r.kind).collect();
//! assert_eq!(
//!     kinds,
//!     [RepairKind::PythonLiteral, RepairKind::UnclosedArray, RepairKind::UnclosedObject]
//! );
//! ```

mod answer;
mod fence;
mod find;
mod ladder;
mod locate;
mod objects;
mod repair;
mod repair_kind;
mod stream;

pub use find::{
    FoundJson, JsonSource, NotJson, PROSE_VALUES_READ, Pick, find_all_json, find_json, not_json,
};
pub use ladder::{JsonError, JsonMethod, Leniency, ParsedJson, parse_json};
pub use locate::locate_pointer;
pub use objects::{DetectedKind, DetectedObject, ParseAnyResult, detect_objects, parse_any};
pub use repair::{Repair, RepairKind};
pub use stream::{Cursor, JsonPatchOp, JsonStreamEnd, JsonUpdate, PathState, StreamingJson};

/// The README's example, run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
