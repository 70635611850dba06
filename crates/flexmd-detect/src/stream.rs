//! JSON read while a model is still writing it: a partial value that only
//! ever grows, a state per path, and JSON Patch operations per chunk.
//!
//! [`StreamingJson`] scans the text once. Outside JSON it skips what
//! [`find_json`] skips (leading prose, reasoning blocks, fences of other
//! languages) and starts reading at the first value [`find_json`] would
//! consider; inside JSON an incremental parser keeps its place between
//! chunks (an open string, a number being written, a half-read escape), so
//! each chunk costs time in proportion to its length.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::json::{FoundJson, find_json};
use flexmd_core::{FenceOpening, MAX_JSON_VALUES, fence_opening};

/// How far a path of the partial value has been read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PathState {
    /// Its key is read but its value is not shown yet (a number, `true`,
    /// `null` or a bare word is shown only once it is complete).
    Pending,
    /// Shown and still growing: a string, object or array not closed yet.
    Partial,
    /// Complete: it will not change any more.
    Done,
}

/// One JSON Patch operation (RFC 6902), as [`StreamingJson`] sends them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum JsonPatchOp {
    /// A new value at `path` (`""` is the whole document; an array index
    /// equal to the array's length appends).
    Add {
        /// A JSON Pointer (RFC 6901).
        path: String,
        /// The value, as far as it is read.
        value: Value,
    },
    /// The value at `path` is now `value` (a string that grew, or what the
    /// end of the stream decided).
    Replace {
        /// A JSON Pointer (RFC 6901).
        path: String,
        /// The new value.
        value: Value,
    },
    /// The value at `path` is gone (only at the end of a stream).
    Remove {
        /// A JSON Pointer (RFC 6901).
        path: String,
    },
}

/// Where the reading is: the innermost path not complete yet. It and every
/// path above it are open; every other path of the value is done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Cursor {
    /// A JSON Pointer (RFC 6901).
    pub path: String,
    /// [`PathState::Partial`] (a string, object or array being written) or
    /// [`PathState::Pending`] (a key read, its value not shown yet). The
    /// paths above it are partial.
    pub state: PathState,
}

/// What one [`StreamingJson::push`] changed. As JSON (a line of `flexmd
/// json --stream`) it carries `"event": "update"` besides its fields.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(tag = "event", rename = "update")]
#[cfg_attr(feature = "schemars", schemars(transform = event_tag))]
pub struct JsonUpdate {
    /// The operations that turn the value before the push into the value
    /// after it, in order.
    pub patches: Vec<JsonPatchOp>,
    /// Paths completed by this push, innermost first.
    pub done: Vec<String>,
    /// Where the reading is after the push; `None` before a value starts
    /// and once it is complete (or the stream stopped reading it).
    pub cursor: Option<Cursor>,
    /// The stream has moved to another value (a later fence, which
    /// [`find_json`] prefers): the patches start by replacing the whole
    /// document, and the growth guarantees start again from it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub restarted: bool,
}

/// Adds the `"event": "update"` serde writes (schemars leaves a struct's
/// tag out).
#[cfg(feature = "schemars")]
fn event_tag(schema: &mut schemars::Schema) {
    if let Some(properties) = schema
        .get_mut("properties")
        .and_then(serde_json::Value::as_object_mut)
    {
        properties.insert(
            "event".to_owned(),
            serde_json::json!({"const": "update", "description": "Always `update`."}),
        );
    }
    if let Some(required) = schema
        .get_mut("required")
        .and_then(serde_json::Value::as_array_mut)
    {
        required.insert(0, "event".into());
    }
}

impl JsonUpdate {
    /// Whether the push changed nothing.
    pub fn is_empty(&self) -> bool {
        self.patches.is_empty() && self.done.is_empty() && !self.restarted
    }
}

/// The end of a [`StreamingJson`].
#[derive(Debug, Clone, PartialEq)]
pub struct JsonStreamEnd {
    /// [`find_json`] of the whole text: the value, where it was, its repairs.
    pub found: Option<FoundJson>,
    /// The operations that turn the last partial value into `found`'s
    /// value (`null` when nothing was found): what only the whole text
    /// decides, such as a number the text ends in, or repairs.
    pub patches: Vec<JsonPatchOp>,
}

impl JsonStreamEnd {
    /// The last line of `flexmd json --stream`: `{"event": "finished",
    /// "patches": [...], "value": ...}` (`value` is `null` when nothing was
    /// found), and with `with_found` the whole [`FoundJson`] as `found`.
    ///
    /// ```
    /// let mut stream = flexmd_detect::StreamingJson::new();
    /// stream.push("{\"a\": [1, 2");
    /// let end = stream.finish().finished_event(false);
    /// assert_eq!(
    ///     end,
    ///     serde_json::json!({"event": "finished",
    ///         "patches": [{"op": "add", "path": "/a/1", "value": 2}],
    ///         "value": {"a": [1, 2]}})
    /// );
    /// ```
    pub fn finished_event(&self, with_found: bool) -> Value {
        let mut event = Map::new();
        event.insert("event".to_owned(), Value::from("finished"));
        event.insert(
            "patches".to_owned(),
            serde_json::to_value(&self.patches).unwrap_or_default(),
        );
        event.insert(
            "value".to_owned(),
            self.found
                .as_ref()
                .map_or(Value::Null, |found| found.value.clone()),
        );
        if let (true, Some(found)) = (with_found, &self.found) {
            event.insert(
                "found".to_owned(),
                serde_json::to_value(found).unwrap_or_default(),
            );
        }
        Value::Object(event)
    }
}

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

/// The patches that turn `old` into `new`, for the value at `path`.
fn diff(old: &Value, new: &Value, path: &mut String, out: &mut Vec<JsonPatchOp>) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            for key in a.keys().filter(|k| !b.contains_key(*k)) {
                out.push(JsonPatchOp::Remove {
                    path: format!("{path}/{}", escape_token(key)),
                });
            }
            for (key, value) in b {
                let len = path.len();
                path.push('/');
                path.push_str(&escape_token(key));
                match a.get(key) {
                    Some(old) => diff(old, value, path, out),
                    None => out.push(JsonPatchOp::Add {
                        path: path.clone(),
                        value: value.clone(),
                    }),
                }
                path.truncate(len);
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for i in (b.len()..a.len()).rev() {
                out.push(JsonPatchOp::Remove {
                    path: format!("{path}/{i}"),
                });
            }
            for (i, value) in b.iter().enumerate() {
                let len = path.len();
                path.push('/');
                path.push_str(&i.to_string());
                match a.get(i) {
                    Some(old) => diff(old, value, path, out),
                    None => out.push(JsonPatchOp::Add {
                        path: path.clone(),
                        value: value.clone(),
                    }),
                }
                path.truncate(len);
            }
        }
        _ if old == new => {}
        _ => out.push(JsonPatchOp::Replace {
            path: path.clone(),
            value: new.clone(),
        }),
    }
}

/// A JSON Pointer reference token: `~` → `~0`, `/` → `~1`.
fn escape_token(key: &str) -> String {
    if key.contains(['~', '/']) {
        key.replace('~', "~0").replace('/', "~1")
    } else {
        key.to_owned()
    }
}

// ---------------------------------------------------------------------------
// Where the value is: the scanner outside JSON.

/// Where a value was found, in the order [`find_json`] prefers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Tier {
    /// The whole text, or the prose around fences.
    Prose,
    /// An unlabeled or JavaScript fence.
    CodeFence,
    /// A fence labeled as JSON.
    JsonFence,
}

impl Tier {
    /// Whether a value from `self` replaces one from `current`: a later
    /// value of the same kind (the last complete fence, or value in the
    /// prose, wins; a value in the prose is looked for only once the one
    /// shown has closed), or a better kind.
    fn replaces(self, current: Tier) -> bool {
        self >= current
    }
}

/// A value may start at `at`.
#[derive(Debug, Clone, Copy)]
struct Start {
    at: usize,
    tier: Tier,
    /// Whether it is inside a fence.
    in_fence: bool,
}

/// What text of a value is ready for the parser.
enum Ready {
    /// Nothing yet.
    Wait,
    /// `from..to`.
    Text(usize, usize),
    /// The fence the value is in has closed.
    FenceClosed,
}

/// An open fence.
#[derive(Debug, Clone, Copy)]
struct OpenFence {
    marker: u8,
    len: usize,
    /// The fence's kind, when JSON may be read in it.
    tier: Option<Tier>,
    /// Whether a value may still start in it (only at its first content).
    may_start: bool,
}

/// The scanner's place in the text, kept between pushes.
#[derive(Debug)]
struct Scanner {
    /// Next byte to look at.
    at: usize,
    /// Whether `at` is at the start of a line.
    line_start: bool,
    /// Only a byte order mark, blanks and reasoning blocks so far: a bracket
    /// here starts the whole text as one value.
    lead: bool,
    /// Inside a reasoning block: its closing tag.
    reasoning: Option<&'static str>,
    /// A reasoning block has opened, or a closing tag with none open has
    /// ended the reasoning the chat template opened: a later closing tag
    /// is no such end.
    reasoning_seen: bool,
    fence: Option<OpenFence>,
    /// Inside a value the parser is reading; `Some(true)` in a fence.
    value: Option<bool>,
    /// Up to where the line at `at` is known to hold no line break (a line
    /// waited on is searched once, not once a push).
    searched: usize,
}

impl Default for Scanner {
    fn default() -> Self {
        Self {
            at: 0,
            line_start: true,
            lead: true,
            reasoning: None,
            reasoning_seen: false,
            fence: None,
            value: None,
            searched: 0,
        }
    }
}

/// The reasoning tags a model may wrap its thinking in, with their closing
/// tags ([`find_json`] skips the same).
const REASONING: [(&str, &str); 4] = [
    ("think", "</think>"),
    ("thinking", "</thinking>"),
    ("reasoning", "</reasoning>"),
    ("scratchpad", "</scratchpad>"),
];

/// What to do at the start of a line.
enum LineStart {
    Wait,
    Go,
    Start(Start),
    /// A closing reasoning tag with no block open: what came before was
    /// reasoning, and what was shown of it is dropped.
    Restart,
}

/// What [`Scanner::seek`] found.
enum Seek {
    /// A value may start here.
    Start(Start),
    /// Everything before was reasoning: start over after it.
    Restart,
}

impl Scanner {
    /// The next place a value may start, or `None` when more text is
    /// needed. `prose`: whether a value in prose is still wanted.
    fn seek(&mut self, text: &str, prose: bool) -> Option<Seek> {
        let bytes = text.as_bytes();
        loop {
            if let Some(close) = self.reasoning {
                let Some(i) = find_ascii_ci(bytes, self.at, close) else {
                    // The closing tag may be cut: look again from its length
                    // minus one before the end.
                    self.at = self.at.max(bytes.len().saturating_sub(close.len() - 1));
                    return None;
                };
                self.at = i + close.len();
                self.reasoning = None;
                self.line_start = false;
                continue;
            }
            let &byte = bytes.get(self.at)?;
            if byte == b'\n' || byte == b'\r' {
                self.at += 1;
                self.line_start = true;
                continue;
            }
            if self.line_start {
                match self.line_opening(text) {
                    LineStart::Wait => return None,
                    LineStart::Start(start) => return Some(Seek::Start(start)),
                    LineStart::Restart => return Some(Seek::Restart),
                    LineStart::Go => continue,
                }
            }
            if self.fence.is_some() {
                // In a fence with no value to read: on to its next line.
                let rest = bytes.get(self.at..)?;
                match memchr::memchr2(b'\n', b'\r', rest) {
                    Some(i) => self.at += i,
                    None => self.at = bytes.len(),
                }
                continue;
            }
            if self.lead {
                if self.at == 0 && bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
                    self.at = 3;
                    continue;
                }
                match byte {
                    b' ' | b'\t' => {
                        self.at += 1;
                        continue;
                    }
                    b'{' | b'[' => {
                        return Some(Seek::Start(Start {
                            at: self.at,
                            tier: Tier::Prose,
                            in_fence: false,
                        }));
                    }
                    _ => self.lead = false,
                }
            }
            if matches!(byte, b'{' | b'[') && prose {
                match looks_like_data(bytes, self.at) {
                    None => return None,
                    Some(true) => {
                        return Some(Seek::Start(Start {
                            at: self.at,
                            tier: Tier::Prose,
                            in_fence: false,
                        }));
                    }
                    Some(false) => {}
                }
            }
            // On to the next bracket or line end.
            let rest = bytes.get(self.at + 1..).unwrap_or_default();
            let next = if prose {
                memchr::memchr3(b'{', b'[', b'\n', rest)
            } else {
                memchr::memchr(b'\n', rest)
            };
            let next = next.unwrap_or(rest.len());
            let next = memchr::memchr(b'\r', rest.get(..next).unwrap_or_default()).unwrap_or(next);
            self.at += 1 + next;
        }
    }

    /// At the start of a line: a fence opening or closing, a reasoning tag,
    /// or a fence's first content.
    fn line_opening(&mut self, text: &str) -> LineStart {
        let bytes = text.as_bytes();
        let line = bytes.get(self.at..).unwrap_or_default();
        let line_end = self.line_end(bytes);
        // Four spaces are indented code: no need to count further.
        let indent = line.iter().take(4).take_while(|&&b| b == b' ').count();
        let Some(&first) = line.get(indent) else {
            return LineStart::Wait;
        };
        if first == b'\n' || first == b'\r' {
            // A blank line.
            self.at += indent;
            return LineStart::Go;
        }
        self.line_start = false;
        if indent > 3 {
            return LineStart::Go;
        }
        if first == b'`' || first == b'~' {
            // A fence line is decided once it is complete.
            let Some(end) = line_end else {
                self.line_start = true;
                return LineStart::Wait;
            };
            let content = text.get(self.at..self.at + end).unwrap_or_default();
            if let Some(open) = self.fence {
                if closes_fence(content, open.marker, open.len) {
                    self.fence = None;
                    self.at += end;
                    return LineStart::Go;
                }
            } else if let Some(open) = opens_fence(content) {
                self.fence = Some(open);
                self.lead = false;
                self.at += end;
                return LineStart::Go;
            }
        } else if first == b'<' && self.fence.is_none() {
            let after = line.get(indent + 1..).unwrap_or_default();
            if !self.reasoning_seen && after.first() == Some(&b'/') {
                // `</think>` with no block open: the chat template wrote the
                // opening tag, and everything so far was reasoning.
                for (_, close) in REASONING {
                    let word = line.get(indent..indent + close.len());
                    match word {
                        Some(word) if word.eq_ignore_ascii_case(close.as_bytes()) => {
                            self.reasoning_seen = true;
                            self.lead = true;
                            self.at += indent + close.len();
                            return LineStart::Restart;
                        }
                        None if line_end.is_none() => {
                            let known = line.len() - indent;
                            let same = line.get(indent..).zip(close.as_bytes().get(..known));
                            if same.is_some_and(|(a, b)| a.eq_ignore_ascii_case(b)) {
                                self.line_start = true;
                                return LineStart::Wait;
                            }
                        }
                        _ => {}
                    }
                }
            }
            for (tag, close) in REASONING {
                let word = after.get(..tag.len() + 1);
                match word {
                    Some(word) => {
                        let (name, bracket) = word.split_at(tag.len());
                        if name.eq_ignore_ascii_case(tag.as_bytes()) && bracket == b">" {
                            self.reasoning = Some(close);
                            self.reasoning_seen = true;
                            self.at += indent + 1 + word.len();
                            return LineStart::Go;
                        }
                    }
                    None if line_end.is_none() => {
                        // Too short to tell yet.
                        let known = after.len().min(tag.len());
                        let same = after.get(..known).zip(tag.as_bytes().get(..known));
                        if same.is_some_and(|(a, b)| a.eq_ignore_ascii_case(b)) {
                            self.line_start = true;
                            return LineStart::Wait;
                        }
                    }
                    None => {}
                }
            }
        }
        if let Some(fence) = self.fence.as_mut()
            && std::mem::take(&mut fence.may_start)
            && let (Some(tier), b'{' | b'[') = (fence.tier, first)
        {
            return LineStart::Start(Start {
                at: self.at + indent,
                tier,
                in_fence: true,
            });
        }
        LineStart::Go
    }

    /// The length of the line at `at` when it has ended, searching only
    /// the bytes not searched before.
    fn line_end(&mut self, bytes: &[u8]) -> Option<usize> {
        let from = self.searched.max(self.at);
        match bytes
            .get(from..)
            .and_then(|rest| memchr::memchr2(b'\n', b'\r', rest))
        {
            Some(i) => Some(from + i - self.at),
            None => {
                self.searched = bytes.len();
                None
            }
        }
    }

    /// Inside a value: the text ready for the parser, up to a line that may
    /// close the fence the value is in.
    fn ready(&mut self, text: &str) -> Ready {
        let bytes = text.as_bytes();
        if self.at >= bytes.len() {
            return Ready::Wait;
        }
        let (Some(true), Some(fence)) = (self.value, self.fence) else {
            return Ready::Text(self.at, bytes.len());
        };
        let line = bytes.get(self.at..).unwrap_or_default();
        if self.line_start {
            let indent = line.iter().take(4).take_while(|&&b| b == b' ').count();
            let Some(&first) = line.get(indent) else {
                return Ready::Wait;
            };
            if indent <= 3 && first == fence.marker {
                let Some(end) = self.line_end(bytes) else {
                    return Ready::Wait;
                };
                let content = text.get(self.at..self.at + end).unwrap_or_default();
                if closes_fence(content, fence.marker, fence.len) {
                    self.fence = None;
                    self.value = None;
                    self.at += end;
                    self.line_start = false;
                    return Ready::FenceClosed;
                }
            }
            self.line_start = false;
        }
        let to = memchr::memchr2(b'\n', b'\r', line).map_or(bytes.len(), |i| self.at + i + 1);
        Ready::Text(self.at, to)
    }

    /// The parser took the value's text up to `to`.
    fn fed(&mut self, text: &str, to: usize) {
        self.at = to;
        let last = to.checked_sub(1).and_then(|i| text.as_bytes().get(i));
        self.line_start = matches!(last, Some(b'\n' | b'\r'));
    }

    /// A value starts here.
    fn enter(&mut self, start: Start) {
        self.at = start.at;
        self.line_start = false;
        self.lead = false;
        self.value = Some(start.in_fence);
    }

    /// A value that may start here is not wanted.
    fn pass(&mut self, start: Start) {
        if !start.in_fence {
            self.at = start.at + 1;
            self.lead = false;
        }
    }

    /// The value ended at `at`: its root closed, or the parser met something
    /// it does not read. The rest is prose, or the rest of its fence.
    fn left_value(&mut self, at: usize) {
        self.value = None;
        self.at = at;
        self.line_start = false;
    }
}

/// Whether the bracket at `at` in prose opens data (`{"`, `{'`, `[{`, `["`,
/// `[[`), as opposed to `{braces}` or `[1]`; `None` until the next
/// non-blank byte has arrived.
fn looks_like_data(bytes: &[u8], at: usize) -> Option<bool> {
    let open = *bytes.get(at)?;
    let next = bytes
        .get(at + 1..)?
        .iter()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))?;
    Some(match open {
        b'{' => matches!(next, b'"' | b'\''),
        _ => matches!(next, b'"' | b'{' | b'['),
    })
}

/// The offset of `needle` (ASCII, any case) in `bytes` from `from`.
fn find_ascii_ci(bytes: &[u8], from: usize, needle: &str) -> Option<usize> {
    let hay = bytes.get(from..)?;
    hay.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
        .map(|i| from + i)
}

/// A fence opening, with the tier of JSON in it (by its language).
fn opens_fence(line: &str) -> Option<OpenFence> {
    let open = fence_opening(line)?;
    let lang = open.info.split_whitespace().next().unwrap_or_default();
    let tier = match lang.to_ascii_lowercase().as_str() {
        "json" | "json5" | "jsonc" | "jsonl" | "ndjson" => Some(Tier::JsonFence),
        "" | "javascript" | "js" | "typescript" | "ts" => Some(Tier::CodeFence),
        _ => None,
    };
    Some(OpenFence {
        marker: open.marker,
        len: open.len,
        tier,
        may_start: true,
    })
}

/// Whether `line` closes a fence of `len` `marker`s.
fn closes_fence(line: &str, marker: u8, len: usize) -> bool {
    FenceOpening {
        marker,
        len,
        info: "",
    }
    .closed_by(line)
}

// ---------------------------------------------------------------------------
// The value: an incremental parser that keeps its place between chunks.

/// The deepest nesting read, as every JSON step here.
const MAX_DEPTH: usize = 128;

/// What an open container expects next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// A key or `}` (objects).
    Key,
    /// `:` (objects).
    Colon,
    /// A value (or `]` in an array: a trailing comma).
    Value,
    /// `,` or the closing bracket.
    After,
}

/// An open object or array.
#[derive(Debug)]
struct Frame {
    object: bool,
    expect: Expect,
    /// An object's current member.
    key: String,
    /// An array's elements so far.
    len: usize,
    /// The container's own JSON Pointer.
    path: String,
}

/// The token being read.
#[derive(Debug, Default)]
enum Token {
    #[default]
    None,
    /// A string; `key`: an object's key. `escape` holds a half-read escape.
    Str {
        quote: u8,
        key: bool,
        escape: String,
    },
    /// An unquoted key.
    Bare(String),
    Number(String),
    /// `true`, `None`, …
    Word(String),
    /// A `/` that may open a comment.
    Slash,
    LineComment,
    BlockComment {
        star: bool,
    },
}

/// What the parser did with a piece of text.
enum Fed {
    /// Took it all; the value goes on.
    More,
    /// The root closed; the first `usize` bytes were the value's.
    Complete(usize),
    /// Met something it does not read at this offset.
    Stalled(usize),
}

/// A change made during a push, for its patches.
enum Change {
    Added(String),
    Grew(String),
}

#[derive(Default)]
struct Parser {
    root: Option<Value>,
    frames: Vec<Frame>,
    token: Token,
    /// A key being read in quotes.
    key: String,
    values: usize,
    changes: Vec<Change>,
    done: Vec<String>,
    /// The string being written already has a `Grew` in this push.
    grew: bool,
    /// The first root replaces an earlier value (a restart).
    replace_root: bool,
}

/// A stall: the parser met something it does not read.
struct Stall;

impl Parser {
    /// Reads `s`, the value's next text.
    fn feed(&mut self, s: &str) -> Fed {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let step = match self.token {
                Token::Str { .. } => self.string(s, i),
                Token::None => self.structural(s, i),
                _ => self.other(s, i),
            };
            match step {
                Ok(next) => i = next,
                Err(Stall) => return Fed::Stalled(i),
            }
            if self.root.is_some() && self.frames.is_empty() {
                return Fed::Complete(i);
            }
        }
        Fed::More
    }

    /// Inside a string: a run of plain text, an escape, or the closing quote.
    fn string(&mut self, s: &str, i: usize) -> Result<usize, Stall> {
        let Token::Str { quote, key, escape } = &mut self.token else {
            return Err(Stall);
        };
        let (quote, key) = (*quote, *key);
        if !escape.is_empty() {
            let c = s.get(i..).and_then(|r| r.chars().next()).ok_or(Stall)?;
            escape.push(c);
            let decoded = decode_escape(escape)?;
            let next = i + c.len_utf8();
            if let Some(c) = decoded {
                escape.clear();
                let mut buf = [0; 4];
                self.append(c.encode_utf8(&mut buf), key);
            }
            return Ok(next);
        }
        let rest = s.as_bytes().get(i..).unwrap_or_default();
        let run = memchr::memchr2(quote, b'\\', rest).unwrap_or(rest.len());
        // Quotes and backslashes are ASCII: `i + run` is a boundary.
        let plain = s.get(i..i + run).ok_or(Stall)?;
        if !plain.is_empty() {
            self.append(plain, key);
        }
        let at = i + run;
        match rest.get(run) {
            None => Ok(at),
            Some(b'\\') => {
                if let Token::Str { escape, .. } = &mut self.token {
                    escape.push('\\');
                }
                Ok(at + 1)
            }
            Some(_) => {
                self.token = Token::None;
                if key {
                    let key = std::mem::take(&mut self.key);
                    self.end_key(key)?;
                } else {
                    self.done.push(self.pointer(self.frames.len()));
                    self.after_value();
                }
                Ok(at + 1)
            }
        }
    }

    /// Adds `text` to the key or the string value being read.
    fn append(&mut self, text: &str, key: bool) {
        if key {
            self.key.push_str(text);
            return;
        }
        if let Some(Value::String(string)) = self.child() {
            string.push_str(text);
        }
        if !std::mem::replace(&mut self.grew, true) {
            let path = self.pointer(self.frames.len());
            self.changes.push(Change::Grew(path));
        }
    }

    /// A key is read: the member's value comes next.
    fn end_key(&mut self, key: String) -> Result<(), Stall> {
        let frame = self.frames.last_mut().ok_or(Stall)?;
        frame.key = key;
        frame.expect = Expect::Colon;
        Ok(())
    }

    /// Between tokens: blanks, brackets, commas, colons and the start of
    /// the next token.
    fn structural(&mut self, s: &str, i: usize) -> Result<usize, Stall> {
        let bytes = s.as_bytes();
        let &c = bytes.get(i).ok_or(Stall)?;
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            return Ok(i + 1);
        }
        if c == b'/' {
            self.token = Token::Slash;
            return Ok(i + 1);
        }
        let Some(frame) = self.frames.last_mut() else {
            // The root: the scanner starts the parser at a bracket.
            return match c {
                b'{' | b'[' => self.open(c == b'{').map(|()| i + 1),
                _ => Err(Stall),
            };
        };
        match (frame.object, frame.expect) {
            (true, Expect::Key) => match c {
                b'"' | b'\'' => {
                    self.token = Token::Str {
                        quote: c,
                        key: true,
                        escape: String::new(),
                    };
                    Ok(i + 1)
                }
                b'}' => self.close().map(|()| i + 1),
                _ => {
                    let ch = s.get(i..).and_then(|r| r.chars().next()).ok_or(Stall)?;
                    if is_key_char(ch) {
                        self.token = Token::Bare(String::new());
                        Ok(i)
                    } else {
                        Err(Stall)
                    }
                }
            },
            (true, Expect::Colon) => match c {
                b':' => {
                    frame.expect = Expect::Value;
                    Ok(i + 1)
                }
                _ => Err(Stall),
            },
            (object, Expect::Value) => match c {
                b']' if !object => self.close().map(|()| i + 1),
                _ => self.value_start(c, i),
            },
            (true, Expect::After) => match c {
                b',' => {
                    frame.expect = Expect::Key;
                    Ok(i + 1)
                }
                b'}' => self.close().map(|()| i + 1),
                // A missing comma before the next member.
                b'"' | b'\'' => {
                    frame.expect = Expect::Key;
                    Ok(i)
                }
                _ => Err(Stall),
            },
            (false, Expect::After) => match c {
                b',' => {
                    frame.expect = Expect::Value;
                    Ok(i + 1)
                }
                b']' => self.close().map(|()| i + 1),
                // A missing comma before the next element.
                b'"' | b'\'' | b'{' | b'[' => {
                    frame.expect = Expect::Value;
                    Ok(i)
                }
                _ => Err(Stall),
            },
            (false, Expect::Key | Expect::Colon) => Err(Stall),
        }
    }

    /// The first byte of a value.
    fn value_start(&mut self, c: u8, i: usize) -> Result<usize, Stall> {
        match c {
            b'{' | b'[' => self.open(c == b'{').map(|()| i + 1),
            b'"' | b'\'' => {
                self.insert(Value::String(String::new()))?;
                self.grew = true;
                self.token = Token::Str {
                    quote: c,
                    key: false,
                    escape: String::new(),
                };
                Ok(i + 1)
            }
            b'-' | b'0'..=b'9' => {
                self.token = Token::Number(String::new());
                Ok(i)
            }
            b'a'..=b'z' | b'A'..=b'Z' => {
                self.token = Token::Word(String::new());
                Ok(i)
            }
            _ => Err(Stall),
        }
    }

    /// Numbers, words, bare keys and comments.
    fn other(&mut self, s: &str, i: usize) -> Result<usize, Stall> {
        let bytes = s.as_bytes();
        let &c = bytes.get(i).ok_or(Stall)?;
        match &mut self.token {
            Token::Number(buf) => {
                if matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                    buf.push(char::from(c));
                    return Ok(i + 1);
                }
                let number = serde_json::from_str::<Value>(buf).map_err(|_| Stall)?;
                if !number.is_number() {
                    return Err(Stall);
                }
                self.token = Token::None;
                self.scalar(number)?;
                Ok(i)
            }
            Token::Word(buf) => {
                if c.is_ascii_alphabetic() {
                    if buf.len() >= 5 {
                        return Err(Stall);
                    }
                    buf.push(char::from(c));
                    return Ok(i + 1);
                }
                let value = match buf.as_str() {
                    "true" | "True" => Value::Bool(true),
                    "false" | "False" => Value::Bool(false),
                    "null" | "None" => Value::Null,
                    _ => return Err(Stall),
                };
                self.token = Token::None;
                self.scalar(value)?;
                Ok(i)
            }
            Token::Bare(buf) => {
                let ch = s.get(i..).and_then(|r| r.chars().next()).ok_or(Stall)?;
                if is_key_char(ch) {
                    buf.push(ch);
                    return Ok(i + ch.len_utf8());
                }
                let key = std::mem::take(buf);
                self.token = Token::None;
                self.end_key(key)?;
                Ok(i)
            }
            Token::Slash => {
                self.token = match c {
                    b'/' => Token::LineComment,
                    b'*' => Token::BlockComment { star: false },
                    _ => return Err(Stall),
                };
                Ok(i + 1)
            }
            Token::LineComment => {
                let rest = bytes.get(i..).unwrap_or_default();
                match memchr::memchr2(b'\n', b'\r', rest) {
                    Some(n) => {
                        self.token = Token::None;
                        Ok(i + n + 1)
                    }
                    None => Ok(bytes.len()),
                }
            }
            Token::BlockComment { star } => {
                if *star && c == b'/' {
                    self.token = Token::None;
                } else {
                    *star = c == b'*';
                }
                Ok(i + 1)
            }
            Token::None | Token::Str { .. } => Err(Stall),
        }
    }

    /// Opens an object or array as the next value.
    fn open(&mut self, object: bool) -> Result<(), Stall> {
        if self.frames.len() >= MAX_DEPTH {
            return Err(Stall);
        }
        let empty = if object {
            Value::Object(Map::new())
        } else {
            Value::Array(Vec::new())
        };
        self.insert(empty)?;
        let path = self.pointer(self.frames.len());
        self.frames.push(Frame {
            object,
            expect: if object { Expect::Key } else { Expect::Value },
            key: String::new(),
            len: 0,
            path,
        });
        Ok(())
    }

    /// Closes the innermost container.
    fn close(&mut self) -> Result<(), Stall> {
        let path = self.pointer(self.frames.len().saturating_sub(1));
        self.frames.pop().ok_or(Stall)?;
        self.done.push(path);
        self.after_value();
        Ok(())
    }

    /// A complete number, boolean or null.
    fn scalar(&mut self, value: Value) -> Result<(), Stall> {
        self.insert(value)?;
        self.done.push(self.pointer(self.frames.len()));
        self.after_value();
        Ok(())
    }

    /// The innermost container has a complete value; it expects a comma.
    fn after_value(&mut self) {
        if let Some(frame) = self.frames.last_mut() {
            frame.expect = Expect::After;
        }
    }

    /// Puts `value` in the innermost container (or makes it the root).
    fn insert(&mut self, value: Value) -> Result<(), Stall> {
        self.values += 1;
        if self.values > MAX_JSON_VALUES {
            return Err(Stall);
        }
        let depth = self.frames.len();
        if depth == 0 {
            if self.root.is_some() {
                return Err(Stall);
            }
            self.root = Some(value);
            self.changes.push(Change::Added(String::new()));
            return Ok(());
        }
        let (outer, last) = self.frames.split_at_mut(depth - 1);
        let frame = last.first_mut().ok_or(Stall)?;
        let container = descend(self.root.as_mut(), outer).ok_or(Stall)?;
        match container {
            Value::Object(map) => {
                // A repeated key would replace a value already shown.
                if map.contains_key(&frame.key) {
                    return Err(Stall);
                }
                map.insert(frame.key.clone(), value);
            }
            Value::Array(items) => {
                items.push(value);
                frame.len += 1;
            }
            _ => return Err(Stall),
        }
        self.changes.push(Change::Added(self.pointer(depth)));
        Ok(())
    }

    /// The current child of the innermost container.
    fn child(&mut self) -> Option<&mut Value> {
        descend(self.root.as_mut(), &self.frames)
    }

    /// The JSON Pointer of the current child of frame `depth - 1` (`""`
    /// for 0: the root).
    fn pointer(&self, depth: usize) -> String {
        let Some(frame) = depth.checked_sub(1).and_then(|d| self.frames.get(d)) else {
            return String::new();
        };
        let seg = if frame.object {
            escape_token(&frame.key)
        } else {
            frame.len.saturating_sub(1).to_string()
        };
        format!("{}/{seg}", frame.path)
    }

    /// The innermost path not complete.
    fn cursor(&self) -> Option<Cursor> {
        let depth = self.frames.len();
        let frame = self.frames.last()?;
        let (path, state) = match (&self.token, frame.expect) {
            (Token::Str { key: false, .. }, _) => (self.pointer(depth), PathState::Partial),
            (Token::Number(_) | Token::Word(_), _) | (_, Expect::Colon | Expect::Value)
                if frame.object || matches!(self.token, Token::Number(_) | Token::Word(_)) =>
            {
                let seg = if frame.object {
                    escape_token(&frame.key)
                } else {
                    frame.len.to_string()
                };
                (format!("{}/{seg}", frame.path), PathState::Pending)
            }
            _ => (frame.path.clone(), PathState::Partial),
        };
        Some(Cursor { path, state })
    }

    /// This push's changes as patches, and its completed paths.
    fn flush(&mut self, update: &mut JsonUpdate) {
        let mut added: std::collections::HashSet<String> = std::collections::HashSet::new();
        for change in std::mem::take(&mut self.changes) {
            let (path, grew) = match change {
                Change::Added(path) => (path, false),
                Change::Grew(path) => (path, true),
            };
            // Covered by a value added in this push (shown whole).
            let covered = added.contains(&path)
                || path
                    .match_indices('/')
                    .any(|(i, _)| path.get(..i).is_some_and(|p| added.contains(p)));
            if covered {
                continue;
            }
            let Some(value) = self.root.as_ref().and_then(|r| r.pointer(&path)).cloned() else {
                continue;
            };
            if grew {
                update.patches.push(JsonPatchOp::Replace { path, value });
            } else if path.is_empty() && std::mem::take(&mut self.replace_root) {
                added.insert(path.clone());
                update.patches.push(JsonPatchOp::Replace { path, value });
            } else {
                added.insert(path.clone());
                update.patches.push(JsonPatchOp::Add { path, value });
            }
        }
        update.done.append(&mut self.done);
        self.grew = false;
    }
}

/// The value reached from `root` through the current child of each of
/// `frames`.
fn descend<'v>(root: Option<&'v mut Value>, frames: &[Frame]) -> Option<&'v mut Value> {
    let mut value = root?;
    for frame in frames {
        value = step_into(value, frame)?;
    }
    Some(value)
}

/// The current child of `frame`'s container `value`.
fn step_into<'v>(value: &'v mut Value, frame: &Frame) -> Option<&'v mut Value> {
    match value {
        Value::Object(map) => map.get_mut(&frame.key),
        Value::Array(items) => items.last_mut(),
        _ => None,
    }
}

/// A character of an unquoted key.
fn is_key_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '$' | '-')
}

/// A half-read escape (`\`, `\u00`, `\ud83d\ude`…): `Ok(None)` while more is
/// needed, the character once complete; a stall for an escape JSON has not.
fn decode_escape(escape: &str) -> Result<Option<char>, Stall> {
    let body = escape.strip_prefix('\\').ok_or(Stall)?;
    let Some(rest) = body.strip_prefix('u') else {
        let mut chars = body.chars();
        return match (chars.next(), chars.next()) {
            (None, _) => Ok(None),
            (Some(c), None) => match c {
                '"' | '\\' | '/' | '\'' => Ok(Some(c)),
                'b' => Ok(Some('\u{8}')),
                'f' => Ok(Some('\u{c}')),
                'n' => Ok(Some('\n')),
                'r' => Ok(Some('\r')),
                't' => Ok(Some('\t')),
                _ => Err(Stall),
            },
            _ => Err(Stall),
        };
    };
    let hex = |digits: &str| -> Result<Option<u32>, Stall> {
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(Stall);
        }
        if digits.len() < 4 {
            return Ok(None);
        }
        u32::from_str_radix(digits, 16).map(Some).map_err(|_| Stall)
    };
    let Some(high) = hex(rest.get(..4.min(rest.len())).ok_or(Stall)?)? else {
        return Ok(None);
    };
    if !(0xD800..0xDC00).contains(&high) {
        return if rest.len() == 4 {
            char::from_u32(high).map(Some).ok_or(Stall)
        } else {
            Err(Stall)
        };
    }
    // A high surrogate: its low half follows as `\uXXXX`.
    let tail = rest.get(4..).unwrap_or_default();
    match tail {
        "" | "\\" => return Ok(None),
        _ if !tail.starts_with("\\u") => return Err(Stall),
        _ => {}
    }
    let Some(low) = hex(tail.get(2..).unwrap_or_default())? else {
        return Ok(None);
    };
    if !(0xDC00..0xE000).contains(&low) || tail.len() != 6 {
        return Err(Stall);
    }
    char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        .map(Some)
        .ok_or(Stall)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;
    use serde_json::json;

    /// Pushes `text` one character at a time; the value after each push.
    fn each_char(text: &str) -> (Vec<Option<Value>>, JsonStreamEnd) {
        let mut stream = StreamingJson::new();
        let mut seen = Vec::new();
        for c in text.chars() {
            stream.push(c.encode_utf8(&mut [0; 4]));
            seen.push(stream.value().cloned());
        }
        (seen, stream.finish())
    }

    #[test]
    fn escapes_are_held_back_until_complete() {
        let text = r#"{"a": "x\u00e9\ud83d\ude00\n"}"#;
        let (seen, end) = each_char(text);
        let strings: Vec<String> = seen
            .iter()
            .filter_map(|v| v.as_ref()?.get("a")?.as_str().map(str::to_owned))
            .collect();
        for pair in strings.windows(2) {
            assert!(pair[1].starts_with(&pair[0]), "{pair:?}");
        }
        assert!(strings.contains(&"xé".to_owned()));
        assert!(
            !strings
                .iter()
                .any(|s| s.contains('\u{FFFD}') || s.contains('\\'))
        );
        assert_eq!(end.found.unwrap().value, json!({"a": "xé😀\n"}));
        assert!(end.patches.is_empty());
    }

    #[test]
    fn scalars_appear_only_when_complete() {
        let (seen, _) = each_char(r#"[12, true, null, -3.5e2, "s"]"#);
        let shown: Vec<Value> = seen.into_iter().flatten().collect();
        for value in &shown {
            for item in value.as_array().unwrap() {
                assert!(
                    [json!(12), json!(true), json!(null), json!(-350.0)].contains(item)
                        || item.is_string(),
                    "{item}"
                );
            }
        }
    }

    #[test]
    fn patches_rebuild_the_value() {
        let mut stream = StreamingJson::new();
        let first = stream.push("```json\n{\"a\": [1, {\"b\": \"he");
        assert_eq!(
            first.patches,
            [JsonPatchOp::Add {
                path: String::new(),
                value: json!({"a": [1, {"b": "he"}]})
            }]
        );
        let next = stream.push("llo\"}, 2");
        assert_eq!(
            next.patches,
            [JsonPatchOp::Replace {
                path: "/a/1/b".into(),
                value: json!("hello")
            }]
        );
        assert_eq!(next.done, ["/a/1/b", "/a/1"]);
        let cursor = next.cursor.unwrap();
        assert_eq!(
            (cursor.path.as_str(), cursor.state),
            ("/a/2", PathState::Pending)
        );
        assert_eq!(stream.state("/a"), Some(PathState::Partial));
        assert_eq!(stream.state("/a/1"), Some(PathState::Done));
        assert_eq!(stream.state("/b"), None);
    }

    #[test]
    fn reasoning_and_prose_are_skipped() {
        let mut stream = StreamingJson::new();
        stream.push("<think>maybe {\"n\": 1}?</think>\nSure: see [1]. {\"n\": 2}");
        assert_eq!(stream.value(), Some(&json!({"n": 2})));
        assert_eq!(stream.finish().found.unwrap().value, json!({"n": 2}));
    }

    #[test]
    fn a_closing_tag_with_none_open_drops_the_reasoning_before_it() {
        let mut stream = StreamingJson::new();
        stream.push("The user wants n. Draft {\"n\": 1} then check.\n</thi");
        assert_eq!(
            stream.value(),
            Some(&json!({"n": 1})),
            "shown until the tag"
        );
        let update = stream.push("nk>\n\n{\"n\": 2}");
        assert!(update.restarted);
        assert_eq!(stream.value(), Some(&json!({"n": 2})));
        let mut stream = StreamingJson::new();
        stream.push("<think>a</think>\n{\"n\": 1}\n</think>\n");
        assert_eq!(
            stream.value(),
            Some(&json!({"n": 1})),
            "a second closing tag"
        );
        let end = stream.finish().found.unwrap();
        assert_eq!((end.value, end.in_reasoning), (json!({"n": 1}), false));
    }

    #[test]
    fn a_later_json_fence_restarts_the_value() {
        let mut stream = StreamingJson::new();
        stream.push("Draft:\n```json\n{\"n\": 1}\n```\nFinal:\n```json\n[");
        assert_eq!(stream.value(), Some(&json!([])));
        let end = stream.finish();
        assert_eq!(end.found.unwrap().value, json!({"n": 1}));
    }

    #[test]
    fn model_slips_are_read() {
        let (_, end) = each_char("{name: 'Ada', ok: True, tags: ['a', 'b',], // note\n}");
        assert_eq!(
            end.found.unwrap().value,
            json!({"name": "Ada", "ok": true, "tags": ["a", "b"]})
        );
        assert!(end.patches.is_empty(), "{:?}", end.patches);
    }
}
