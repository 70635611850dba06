//! JSON read while a model is still writing it: a partial value that only
//! ever grows, a state per path, and JSON Patch operations per chunk.
//!
//! [`StreamingJson`] scans the text once. Outside JSON it skips what
//! [`find_json`] skips (leading prose, reasoning blocks, fences of other
//! languages) and starts reading at the first value [`find_json`] would
//! consider; inside JSON an incremental parser keeps its place between
//! chunks (an open string, a number being written, a half-read escape), so
//! each chunk costs time in proportion to its length.
//!
//! | file | owns |
//! |---|---|
//! | `event.rs` | the wire types: `PathState`, `JsonPatchOp`, `Cursor`, `JsonUpdate`, `JsonStreamEnd` |
//! | `scan.rs` | the scanner outside JSON: where a value may start |
//! | `parser.rs` | the incremental parser inside a value |
//! | `patch.rs` | RFC 6902 patches between two values |

mod event;
mod parser;
mod patch;
mod scan;

use serde_json::Value;

use crate::find::find_json;
use crate::stream::parser::Fed;
use crate::stream::parser::Parser;
use crate::stream::patch::diff;
use crate::stream::scan::Ready;
use crate::stream::scan::Seek;
use crate::stream::scan::{Scanner, Tier};

pub use event::{Cursor, JsonPatchOp, JsonStreamEnd, JsonUpdate, PathState};

/// JSON read from a model's answer while it streams in.
///
/// [`push`](Self::push) each chunk of the answer as it arrives; the
/// returned [`JsonUpdate`] holds JSON Patch operations from the previous
/// partial value to the new one, the paths completed, and the paths still
/// open. [`value`](Self::value) is the partial value itself.
/// [`finish`](Self::finish) returns exactly what [`find_json`] returns for
/// the whole text, plus the patches that lead there.
///
/// Between pushes (until a [`JsonUpdate::restarted`]):
/// - strings only grow; the text of a half-read escape (`\`, or part of
///   `\u00e9` or of a surrogate pair) is held back until it is complete;
/// - numbers, `true`, `false`, `null` (and Python's `True`, `False`,
///   `None`) appear only once complete, with their final value;
/// - a value's type never changes once shown, and a member or element
///   once shown is never removed.
///
/// Leading prose, reasoning blocks (`<think>…</think>`) and fences of other
/// languages are skipped as [`find_json`] skips them. A `</think>` that
/// starts a line with no block open ends reasoning the chat template
/// opened: what was shown before it is dropped (a
/// [`JsonUpdate::restarted`]). The parser reads
/// strict JSON plus the common slips of models: single quotes, unquoted
/// keys, trailing and missing commas, comments, Python literals. On
/// anything else it stops showing more until [`finish`](Self::finish),
/// which repairs the whole text as [`find_json`] does.
///
/// ```
/// use flexmd_detect::{PathState, StreamingJson};
/// use serde_json::json;
///
/// let mut stream = StreamingJson::new();
/// stream.push("Here you go:\n```json\n{\"title\": \"Cach");
/// assert_eq!(stream.value(), Some(&json!({"title": "Cach"})));
/// let update = stream.push("ing\", \"score\": 4");
/// assert_eq!(stream.value(), Some(&json!({"title": "Caching"})), "4 may become 42");
/// assert_eq!(update.done, ["/title"]);
/// assert_eq!(stream.state("/score"), Some(PathState::Pending));
/// assert_eq!(update.cursor.unwrap().path, "/score");
/// stream.push("2}\n```\n");
/// assert_eq!(stream.value(), Some(&json!({"title": "Caching", "score": 42})));
/// assert_eq!(stream.state(""), Some(PathState::Done));
/// let end = stream.finish();
/// assert_eq!(end.found.unwrap().value, json!({"title": "Caching", "score": 42}));
/// assert!(end.patches.is_empty());
/// ```
pub struct StreamingJson {
    text: String,
    scan: Scanner,
    parser: Option<Parser>,
    /// The source of the value being shown (a later value replaces it only
    /// from a fence [`find_json`] prefers).
    tier: Option<Tier>,
    /// Whether the value being shown has closed: only then may a later
    /// value in the prose replace it (a draft, then its correction).
    closed: bool,
}

impl Default for StreamingJson {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamingJson {
    /// An empty stream.
    pub fn new() -> Self {
        Self {
            text: String::new(),
            scan: Scanner::default(),
            parser: None,
            tier: None,
            closed: false,
        }
    }

    /// Everything pushed so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The partial value as read so far; `None` before a value starts.
    pub fn value(&self) -> Option<&Value> {
        self.parser.as_ref().and_then(|p| p.root.as_ref())
    }

    /// How far `pointer` (RFC 6901, `""` for the whole value) is read;
    /// `None` for a path the partial value does not have.
    pub fn state(&self, pointer: &str) -> Option<PathState> {
        let parser = self.parser.as_ref()?;
        if let Some(cursor) = parser.cursor() {
            if cursor.path == pointer {
                return Some(cursor.state);
            }
            let above = cursor
                .path
                .strip_prefix(pointer)
                .is_some_and(|rest| rest.starts_with('/'));
            if above {
                return Some(PathState::Partial);
            }
        }
        parser
            .root
            .as_ref()?
            .pointer(pointer)
            .map(|_| PathState::Done)
    }

    /// Reads `chunk`, the next piece of the text, and returns what it
    /// changed in the partial value.
    pub fn push(&mut self, chunk: &str) -> JsonUpdate {
        self.text.push_str(chunk);
        let mut update = JsonUpdate::default();
        loop {
            if self.scan.value.is_some() {
                let Some(parser) = self.parser.as_mut() else {
                    break;
                };
                match self.scan.ready(&self.text) {
                    Ready::Wait => break,
                    Ready::FenceClosed => continue,
                    Ready::Text(from, to) => {
                        let piece = self.text.get(from..to).unwrap_or_default();
                        match parser.feed(piece) {
                            Fed::More => self.scan.fed(&self.text, to),
                            Fed::Complete(used) => {
                                self.closed = true;
                                self.scan.left_value(from + used);
                            }
                            Fed::Stalled(used) => self.scan.left_value(from + used),
                        }
                    }
                }
                continue;
            }
            let prose = self.tier.is_none_or(|t| t == Tier::Prose && self.closed);
            let start = match self.scan.seek(&self.text, prose) {
                None => break,
                Some(Seek::Start(start)) => start,
                Some(Seek::Restart) => {
                    // What was shown came from reasoning: drop it.
                    if let Some(mut old) = self.parser.take() {
                        old.flush(&mut JsonUpdate::default());
                        update = JsonUpdate {
                            restarted: true,
                            ..JsonUpdate::default()
                        };
                    }
                    self.tier = None;
                    self.closed = false;
                    continue;
                }
            };
            if self
                .tier
                .is_some_and(|current| !start.tier.replaces(current))
            {
                self.scan.pass(start);
                continue;
            }
            if let Some(mut old) = self.parser.take() {
                // A value find_json prefers: what was shown is replaced.
                old.flush(&mut JsonUpdate::default());
                update = JsonUpdate {
                    restarted: true,
                    ..JsonUpdate::default()
                };
            }
            self.parser = Some(Parser {
                replace_root: update.restarted,
                ..Parser::default()
            });
            self.tier = Some(start.tier);
            self.closed = false;
            self.scan.enter(start);
        }
        if let Some(parser) = self.parser.as_mut() {
            parser.flush(&mut update);
            update.cursor = parser.cursor();
        }
        update
    }

    /// Ends the stream: [`find_json`] of the whole text, and the patches
    /// from the last partial value to its value.
    pub fn finish(self) -> JsonStreamEnd {
        let found = find_json(&self.text);
        let shown = self.parser.and_then(|p| p.root);
        let mut patches = Vec::new();
        match (&shown, found.as_ref().map(|f| &f.value)) {
            (None, Some(value)) => patches.push(JsonPatchOp::Add {
                path: String::new(),
                value: value.clone(),
            }),
            (Some(_), None) => patches.push(JsonPatchOp::Replace {
                path: String::new(),
                value: Value::Null,
            }),
            (Some(old), Some(new)) => diff(old, new, &mut String::new(), &mut patches),
            (None, None) => {}
        }
        JsonStreamEnd { found, patches }
    }
}

#[cfg(test)]
mod tests;
