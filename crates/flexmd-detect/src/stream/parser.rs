//! The value: an incremental JSON parser that keeps its place between
//! chunks (an open string, a number being written, a half-read escape), so
//! each chunk costs time in proportion to its length. It never imports the
//! repair parser or the ladder: what it cannot read waits for more text,
//! and `finish` hands the whole text to `find_json`.

use serde_json::{Map, Value};

use flexmd_core::MAX_JSON_VALUES;

use crate::answer::MAX_DEPTH;
use crate::stream::event::JsonPatchOp;
use crate::stream::event::{Cursor, JsonUpdate, PathState};
use crate::stream::patch::escape_token;

/// What an open container expects next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expect {
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
pub(crate) struct Frame {
    pub(crate) object: bool,
    pub(crate) expect: Expect,
    /// An object's current member.
    pub(crate) key: String,
    /// An array's elements so far.
    pub(crate) len: usize,
    /// The container's own JSON Pointer.
    pub(crate) path: String,
}

/// The token being read.
#[derive(Debug, Default)]
pub(crate) enum Token {
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
pub(crate) enum Fed {
    /// Took it all; the value goes on.
    More,
    /// The root closed; the first `usize` bytes were the value's.
    Complete(usize),
    /// Met something it does not read at this offset.
    Stalled(usize),
}

/// A change made during a push, for its patches.
pub(crate) enum Change {
    Added(String),
    Grew(String),
}

#[derive(Default)]
pub(crate) struct Parser {
    pub(crate) root: Option<Value>,
    pub(crate) frames: Vec<Frame>,
    pub(crate) token: Token,
    /// A key being read in quotes.
    pub(crate) key: String,
    pub(crate) values: usize,
    pub(crate) changes: Vec<Change>,
    pub(crate) done: Vec<String>,
    /// The string being written already has a `Grew` in this push.
    pub(crate) grew: bool,
    /// The first root replaces an earlier value (a restart).
    pub(crate) replace_root: bool,
}

/// A stall: the parser met something it does not read.
pub(crate) struct Stall;

impl Parser {
    /// Reads `s`, the value's next text.
    pub(crate) fn feed(&mut self, s: &str) -> Fed {
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
    pub(crate) fn string(&mut self, s: &str, i: usize) -> Result<usize, Stall> {
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
    pub(crate) fn append(&mut self, text: &str, key: bool) {
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
    pub(crate) fn end_key(&mut self, key: String) -> Result<(), Stall> {
        let frame = self.frames.last_mut().ok_or(Stall)?;
        frame.key = key;
        frame.expect = Expect::Colon;
        Ok(())
    }

    /// Between tokens: blanks, brackets, commas, colons and the start of
    /// the next token.
    pub(crate) fn structural(&mut self, s: &str, i: usize) -> Result<usize, Stall> {
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
                    if is_bare_key_char(ch) {
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
    pub(crate) fn value_start(&mut self, c: u8, i: usize) -> Result<usize, Stall> {
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
    pub(crate) fn other(&mut self, s: &str, i: usize) -> Result<usize, Stall> {
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
                if is_bare_key_char(ch) {
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
    pub(crate) fn open(&mut self, object: bool) -> Result<(), Stall> {
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
    pub(crate) fn close(&mut self) -> Result<(), Stall> {
        let path = self.pointer(self.frames.len().saturating_sub(1));
        self.frames.pop().ok_or(Stall)?;
        self.done.push(path);
        self.after_value();
        Ok(())
    }

    /// A complete number, boolean or null.
    pub(crate) fn scalar(&mut self, value: Value) -> Result<(), Stall> {
        self.insert(value)?;
        self.done.push(self.pointer(self.frames.len()));
        self.after_value();
        Ok(())
    }

    /// The innermost container has a complete value; it expects a comma.
    pub(crate) fn after_value(&mut self) {
        if let Some(frame) = self.frames.last_mut() {
            frame.expect = Expect::After;
        }
    }

    /// Puts `value` in the innermost container (or makes it the root).
    pub(crate) fn insert(&mut self, value: Value) -> Result<(), Stall> {
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
    pub(crate) fn child(&mut self) -> Option<&mut Value> {
        descend(self.root.as_mut(), &self.frames)
    }

    /// The JSON Pointer of the current child of frame `depth - 1` (`""`
    /// for 0: the root).
    pub(crate) fn pointer(&self, depth: usize) -> String {
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
    pub(crate) fn cursor(&self) -> Option<Cursor> {
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
    pub(crate) fn flush(&mut self, update: &mut JsonUpdate) {
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
pub(crate) fn descend<'v>(root: Option<&'v mut Value>, frames: &[Frame]) -> Option<&'v mut Value> {
    let mut value = root?;
    for frame in frames {
        value = step_into(value, frame)?;
    }
    Some(value)
}

/// The current child of `frame`'s container `value`.
pub(crate) fn step_into<'v>(value: &'v mut Value, frame: &Frame) -> Option<&'v mut Value> {
    match value {
        Value::Object(map) => map.get_mut(&frame.key),
        Value::Array(items) => items.last_mut(),
        _ => None,
    }
}

/// A character of an unquoted key.
pub(crate) fn is_bare_key_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '$' | '-')
}

/// A half-read escape (`\`, `\u00`, `\ud83d\ude`…): `Ok(None)` while more is
/// needed, the character once complete; a stall for an escape JSON has not.
pub(crate) fn decode_escape(escape: &str) -> Result<Option<char>, Stall> {
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
