//! A tool's result as the model reads it, within the caps: line lists,
//! values as 2-space pretty JSON (@nhtio/adk's `defaultSerialise`), lists
//! cut before they are serialised, text cut at a line break, each with a
//! `[truncated: ...]` line that says what was left out.
//!
//! A leaf of `tools/`: it knows no tool names and no artifacts.

use serde_json::Value;

/// Caps on what one call returns, so that one call cannot flood a context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Lines of a line list (head, tail, cat, grep).
    pub lines: usize,
    /// Bytes of any result.
    pub bytes: usize,
}

impl Caps {
    /// No caps: every line and byte.
    pub fn unlimited() -> Self {
        Self {
            lines: usize::MAX,
            bytes: usize::MAX,
        }
    }
}

impl Default for Caps {
    fn default() -> Self {
        Self {
            lines: 2000,
            bytes: 64 * 1024,
        }
    }
}

/// Serialize through a trait object (a small local stand-in for
/// `erased-serde`, enough for `serde_json::to_value`).
pub(crate) mod erased {
    /// `serde::Serialize` as a trait object.
    pub(crate) trait Serialize {
        fn to_value(&self) -> Result<serde_json::Value, serde_json::Error>;
    }
    impl<T: serde::Serialize> Serialize for T {
        fn to_value(&self) -> Result<serde_json::Value, serde_json::Error> {
            serde_json::to_value(self)
        }
    }
}

/// A list of serialisable items, cut before serialisation.
pub(crate) trait ErasedList {
    fn len(&self) -> usize;
    fn prefix(&self, n: usize) -> Value;
}

impl<T: serde::Serialize> ErasedList for Vec<T> {
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn prefix(&self, n: usize) -> Value {
        serde_json::to_value(self.get(..n).unwrap_or_default()).unwrap_or(Value::Null)
    }
}

/// A list of lines as @nhtio/adk serialises it, within the caps; `total` is
/// how many lines the full answer has, when more than shown.
pub(crate) fn lines_result(list: Vec<String>, total: Option<usize>, caps: Caps) -> String {
    if list.is_empty() {
        return "(empty list)".to_owned();
    }
    let shown = list.len();
    let mut text = list.join("\n");
    if text.is_empty() {
        // One empty line is still a line: never answer with nothing.
        text = "(1 empty line)".to_owned();
    }
    let mut out = cap_bytes(text, caps);
    if let Some(total) = total
        && total > shown
    {
        out.push_str(&format!(
            "\n[truncated: {shown} of {total} lines shown; read the rest with artifact_cat]"
        ));
    }
    out
}

/// A list of JSON values rendered as [`value_result`] renders a list,
/// value by value within the caps: values are lent, not copied, and
/// serialising stops once the byte cap is passed, so a selection of huge
/// subtrees (`$..*` on a deep document) costs no more than the cap.
pub(crate) struct BoundedList {
    caps: Caps,
    /// The pretty JSON array so far (without its closing bracket).
    json: Vec<u8>,
    /// Every value so far was a string: the values, each cut to the cap.
    strings: Option<Vec<String>>,
    count: usize,
    /// The JSON passed the byte cap: serialising stopped.
    full: bool,
    /// More values than the line cap were offered.
    more: bool,
}

impl BoundedList {
    pub(crate) fn new(caps: Caps) -> Self {
        Self {
            caps,
            json: b"[".to_vec(),
            strings: Some(Vec::new()),
            count: 0,
            full: false,
            more: false,
        }
    }

    /// Adds a value; `false` once no more are wanted.
    pub(crate) fn push(&mut self, value: &Value) -> bool {
        if self.count == self.caps.lines {
            self.more = true;
            return false;
        }
        self.count += 1;
        if let Some(strings) = &mut self.strings {
            match value.as_str() {
                Some(s) => {
                    let mut cut = s.len().min(self.caps.bytes.saturating_add(1));
                    while !s.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    strings.push(s.get(..cut).unwrap_or_default().to_owned());
                }
                None => self.strings = None,
            }
        }
        if !self.full {
            self.json
                .extend_from_slice(if self.count == 1 { b"\n" } else { b",\n" });
            let limit = self.caps.bytes.saturating_add(1);
            let mut writer = Indented {
                out: &mut self.json,
                limit,
                at_line_start: true,
            };
            if serde_json::to_writer_pretty(&mut writer, value).is_err() || self.json.len() > limit
            {
                self.full = true;
            }
        }
        true
    }

    pub(crate) fn finish(self) -> String {
        if self.count == 0 {
            return "(empty list)".to_owned();
        }
        let caps = self.caps;
        let mut out = match self.strings {
            Some(strings) => lines_result(strings, None, caps),
            None if !self.full => {
                let mut json = self.json;
                json.extend_from_slice(b"\n]");
                cap_bytes(String::from_utf8_lossy(&json).into_owned(), caps)
            }
            None => {
                let text = String::from_utf8_lossy(&self.json).into_owned();
                let mut cut = caps.bytes.min(text.len());
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                let cut = text.get(..cut).and_then(|t| t.rfind('\n')).unwrap_or(cut);
                format!(
                    "{}\n[truncated: {cut} of more than {} bytes shown; narrow the query (a range, a path, a pattern)]",
                    text.get(..cut).unwrap_or_default(),
                    caps.bytes
                )
            }
        };
        if self.more {
            out.push_str(&format!(
                "\n[truncated: more than {} items; narrow the query]",
                self.count
            ));
        }
        out
    }
}

/// A writer that indents every line by two spaces (an array element in
/// pretty JSON) and fails once `limit` bytes are written, which stops the
/// serialiser.
struct Indented<'a> {
    out: &'a mut Vec<u8>,
    limit: usize,
    at_line_start: bool,
}

impl std::io::Write for Indented<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            if self.at_line_start {
                self.out.extend_from_slice(b"  ");
            }
            self.out.push(b);
            self.at_line_start = b == b'\n';
        }
        if self.out.len() > self.limit {
            return Err(std::io::Error::other("past the byte cap"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A tool's return value as the model reads it (@nhtio/adk's
/// `defaultSerialise`): a string as is, a list of strings one per line, a
/// number in decimal, anything else as 2-space pretty JSON. Where @nhtio/adk
/// would answer with nothing, the text says so: `(empty list)` for `[]`,
/// `(undefined)` for no value (`null`), `(1 empty line)` for `[""]`.
///
/// ```
/// use flexmd_artifact::default_serialise;
/// use serde_json::json;
/// assert_eq!(default_serialise(&json!("as is")), "as is");
/// assert_eq!(default_serialise(&json!(["a", "b"])), "a\nb");
/// assert_eq!(default_serialise(&json!(42)), "42");
/// assert_eq!(default_serialise(&json!({"a": [1]})), "{\n  \"a\": [\n    1\n  ]\n}");
/// assert_eq!(default_serialise(&json!([])), "(empty list)");
/// ```
pub fn default_serialise(value: &Value) -> String {
    value_result(value, Caps::unlimited())
}

pub(crate) fn value_result(value: &dyn erased::Serialize, caps: Caps) -> String {
    let value = value.to_value().unwrap_or(Value::Null);
    let text = match &value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) if items.iter().all(Value::is_string) && !items.is_empty() => {
            let list: Vec<String> = items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect();
            return lines_result(list, None, caps);
        }
        Value::Array(items) if items.is_empty() => return "(empty list)".to_owned(),
        Value::Null => return "(undefined)".to_owned(),
        other => serde_json::to_string_pretty(other).unwrap_or_default(),
    };
    cap_bytes(text, caps)
}

/// [`value_result`] for a value given as JSON (custom tools).
pub(crate) fn capped_value(value: &Value, caps: Caps) -> String {
    value_result(value, caps)
}

/// [`cap_bytes`] for the turn's inline results.
pub(crate) fn capped(text: String, caps: Caps) -> String {
    cap_bytes(text, caps)
}

pub(crate) fn capped_text(text: String, caps: Caps) -> String {
    if text.is_empty() {
        return "(empty)".to_owned();
    }
    cap_bytes(text, caps)
}

/// `text` cut at the last line break within `caps.bytes`, with a marker.
fn cap_bytes(text: String, caps: Caps) -> String {
    if text.len() <= caps.bytes {
        return text;
    }
    let total = text.len();
    let mut cut = caps.bytes;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let cut = text.get(..cut).and_then(|t| t.rfind('\n')).unwrap_or(cut);
    format!(
        "{}\n[truncated: {cut} of {total} bytes shown; narrow the query (a range, a path, a pattern)]",
        text.get(..cut).unwrap_or_default()
    )
}

/// A list cut to the line cap before it is serialised, so a huge result
/// never becomes a huge JSON tree; `total` is how many items the full
/// answer has, when known.
pub(crate) fn list_result(items: &dyn ErasedList, total: Option<usize>, caps: Caps) -> String {
    let shown = items.len().min(caps.lines);
    let mut out = value_result(&items.prefix(shown), caps);
    if items.len() > shown {
        out.push_str(&match total {
            Some(total) => {
                format!("\n[truncated: {shown} of {total} items shown; narrow the query]")
            }
            None => format!("\n[truncated: more than {shown} items; narrow the query]"),
        });
    }
    out
}
