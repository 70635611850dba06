//! JSON Lines records read one at a time, with a bound on a line's length.

use std::io::BufRead;

use miette::Diagnostic;
use serde_json::{Value, json};
use thiserror::Error;

/// The longest line [`JsonLines::new`] keeps: 256 MiB. A longer line is an
/// error record ([`RecordError::TooLong`]), skipped without being held.
pub const DEFAULT_MAX_LINE_BYTES: usize = 256 << 20;

/// One non-blank line of a JSON Lines input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The 1-based line number in the input (blank lines count).
    pub line: usize,
    /// The line's text, without its line break (and without a byte-order
    /// mark on the first line).
    pub text: String,
}

/// Why a record gives no result. Each is reported for its line and the
/// batch goes on, except [`RecordError::Io`], after which the input ends.
#[derive(Debug, Clone, PartialEq, Eq, Error, Diagnostic)]
#[non_exhaustive]
pub enum RecordError {
    /// The input could not be read further.
    #[error("line {line}: the input could not be read: {message}")]
    #[diagnostic(code(flexmd::batch::io))]
    Io {
        /// The line that was being read.
        line: usize,
        /// What the operating system said.
        message: String,
    },
    /// The line is not UTF-8.
    #[error("line {line}: not UTF-8 at byte {byte} of the line")]
    #[diagnostic(
        code(flexmd::batch::invalid_utf8),
        help("JSON Lines are UTF-8 text; convert the file first, e.g. with `iconv -t UTF-8`")
    )]
    InvalidUtf8 {
        /// The line.
        line: usize,
        /// The 0-based byte offset of the first invalid byte in the line.
        byte: usize,
    },
    /// The line is longer than the limit; it was skipped without being kept.
    #[error("line {line}: longer than {limit} bytes, skipped")]
    #[diagnostic(code(flexmd::batch::line_too_long))]
    TooLong {
        /// The line.
        line: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// The line is not a JSON value.
    #[error("line {line}: not JSON: {message}")]
    #[diagnostic(
        code(flexmd::batch::invalid_json),
        help(
            "each line must be one JSON value: a string, or an object with the answer in a field"
        )
    )]
    InvalidJson {
        /// The line.
        line: usize,
        /// What the JSON parser said (with the column).
        message: String,
    },
    /// The line is an object without the field that holds the answer.
    #[error("line {line}: the object has no field `{field}`")]
    #[diagnostic(
        code(flexmd::batch::missing_field),
        help("name the field that holds the answer with --field")
    )]
    MissingField {
        /// The line.
        line: usize,
        /// The field looked for.
        field: String,
    },
    /// The line (or its field) holds something other than text.
    #[error("line {line}: expected the answer as a JSON string, found {found}")]
    #[diagnostic(code(flexmd::batch::not_text))]
    NotText {
        /// The line.
        line: usize,
        /// The JSON type found instead (`number`, `array`, …).
        found: &'static str,
    },
}

impl RecordError {
    /// The line the error is about.
    #[must_use]
    pub fn line(&self) -> usize {
        match self {
            Self::Io { line, .. }
            | Self::InvalidUtf8 { line, .. }
            | Self::TooLong { line, .. }
            | Self::InvalidJson { line, .. }
            | Self::MissingField { line, .. }
            | Self::NotText { line, .. } => *line,
        }
    }

    /// A short name for the error, as in the error record: `io`,
    /// `invalid_utf8`, `line_too_long`, `invalid_json`, `missing_field`,
    /// `not_text`.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Self::Io { .. } => "io",
            Self::InvalidUtf8 { .. } => "invalid_utf8",
            Self::TooLong { .. } => "line_too_long",
            Self::InvalidJson { .. } => "invalid_json",
            Self::MissingField { .. } => "missing_field",
            Self::NotText { .. } => "not_text",
        }
    }

    /// The result line printed for a record that gives no result:
    /// `{"line": N, "ok": false, "error": {"code", "message"}}`.
    ///
    /// ```
    /// use flexmd_batch::RecordError;
    /// let error = RecordError::MissingField { line: 3, field: "response".into() };
    /// assert_eq!(
    ///     error.to_record().to_string(),
    ///     r#"{"line":3,"ok":false,"error":{"code":"missing_field","message":"line 3: the object has no field `response`"}}"#
    /// );
    /// ```
    #[must_use]
    pub fn to_record(&self) -> Value {
        json!({
            "line": self.line(),
            "ok": false,
            "error": {"code": self.code(), "message": self.to_string()},
        })
    }
}

/// The records of a JSON Lines input, read one line at a time: memory stays
/// at one line whatever the input's size. Blank lines are skipped (their
/// numbers still count); a line break may be `\n` or `\r\n`; the input may
/// end without one.
///
/// ```
/// use flexmd_batch::{JsonLines, RecordError};
/// let input: &[u8] = b"\"first\"\n\n{\"response\": \"second\"}\r\n\xff\n";
/// let mut records = JsonLines::new(input);
/// let first = records.next().unwrap().unwrap();
/// assert_eq!((first.line, first.text.as_str()), (1, "\"first\""));
/// assert_eq!(records.next().unwrap().unwrap().line, 3);
/// assert_eq!(
///     records.next().unwrap().unwrap_err(),
///     RecordError::InvalidUtf8 { line: 4, byte: 0 }
/// );
/// assert!(records.next().is_none());
/// ```
#[derive(Debug)]
pub struct JsonLines<R> {
    reader: R,
    line: usize,
    max_line_bytes: usize,
    done: bool,
    buf: Vec<u8>,
}

impl<R: BufRead> JsonLines<R> {
    /// Records of `reader`, each line at most [`DEFAULT_MAX_LINE_BYTES`].
    pub fn new(reader: R) -> Self {
        Self::with_max_line_bytes(reader, DEFAULT_MAX_LINE_BYTES)
    }

    /// Records of `reader`; a line longer than `max_line_bytes` (its line
    /// `\n` not counted) is a [`RecordError::TooLong`].
    pub fn with_max_line_bytes(reader: R, max_line_bytes: usize) -> Self {
        Self {
            reader,
            line: 0,
            max_line_bytes,
            done: false,
            buf: Vec::new(),
        }
    }

    /// Reads the next line into `buf`: whether there was one, and whether
    /// it was too long to keep.
    fn read_line(&mut self) -> Result<(bool, bool), std::io::Error> {
        self.buf.clear();
        let (mut any, mut too_long) = (false, false);
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                self.done = true;
                return Ok((any, too_long));
            }
            any = true;
            let (take, ends) = match memchr::memchr(b'\n', available) {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            if !too_long {
                let content = take - usize::from(ends);
                if self.buf.len() + content > self.max_line_bytes {
                    too_long = true;
                    self.buf = Vec::new();
                } else {
                    self.buf
                        .extend_from_slice(available.get(..take).unwrap_or_default());
                }
            }
            self.reader.consume(take);
            if ends {
                return Ok((any, too_long));
            }
        }
    }
}

impl<R: BufRead> Iterator for JsonLines<R> {
    type Item = Result<Record, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.done {
                return None;
            }
            let (any, too_long) = match self.read_line() {
                Ok(read) => read,
                Err(e) => {
                    self.done = true;
                    return Some(Err(RecordError::Io {
                        line: self.line + 1,
                        message: e.to_string(),
                    }));
                }
            };
            if !any {
                return None;
            }
            self.line += 1;
            if too_long {
                return Some(Err(RecordError::TooLong {
                    line: self.line,
                    limit: self.max_line_bytes,
                }));
            }
            if self.buf.last() == Some(&b'\n') {
                self.buf.pop();
            }
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
            if self.line == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
                self.buf.drain(..3);
            }
            if self.buf.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let bytes = std::mem::take(&mut self.buf);
            return Some(match String::from_utf8(bytes) {
                Ok(text) => Ok(Record {
                    line: self.line,
                    text,
                }),
                Err(e) => Err(RecordError::InvalidUtf8 {
                    line: self.line,
                    byte: e.utf8_error().valid_up_to(),
                }),
            });
        }
    }
}

impl Record {
    /// The answer this record holds: the line itself when it is a JSON
    /// string, or the string in `field` when it is an object.
    ///
    /// ```
    /// use flexmd_batch::{Record, RecordError};
    /// let record = |text: &str| Record { line: 7, text: text.to_owned() };
    /// assert_eq!(record(r###""## Summary\nYes.""###).answer("response").unwrap(), "## Summary\nYes.");
    /// assert_eq!(record(r#"{"id": 1, "response": "Hi"}"#).answer("response").unwrap(), "Hi");
    /// assert_eq!(
    ///     record(r#"{"id": 1, "text": 4}"#).answer("text").unwrap_err(),
    ///     RecordError::NotText { line: 7, found: "number" }
    /// );
    /// ```
    pub fn answer(&self, field: &str) -> Result<String, RecordError> {
        take_answer(self.value()?, field, self.line)
    }

    /// The line read as strict JSON.
    ///
    /// ```
    /// use flexmd_batch::Record;
    /// let record = Record { line: 2, text: "{\"a\": [1, 2]}".to_owned() };
    /// assert_eq!(record.value().unwrap(), serde_json::json!({"a": [1, 2]}));
    /// let broken = Record { line: 2, text: "{\"a\": ".to_owned() };
    /// assert_eq!(broken.value().unwrap_err().code(), "invalid_json");
    /// ```
    pub fn value(&self) -> Result<Value, RecordError> {
        serde_json::from_str(&self.text).map_err(|e| RecordError::InvalidJson {
            line: self.line,
            message: e.to_string(),
        })
    }
}

/// The answer a record's `value` holds, moved out of it (no copy): the
/// value itself when it is a string, or the string in `field` when it is an
/// object (for a caller that reads other fields of the record first, as
/// [`Record::answer`] does not). `line` numbers the errors.
///
/// ```
/// use flexmd_batch::{RecordError, take_answer};
/// let record = serde_json::json!({"model": "a", "response": "Hi"});
/// assert_eq!(take_answer(record, "response", 3).unwrap(), "Hi");
/// assert_eq!(
///     take_answer(serde_json::json!({"model": "a"}), "response", 3).unwrap_err().code(),
///     "missing_field"
/// );
/// ```
///
/// # Errors
///
/// [`RecordError::MissingField`] or [`RecordError::NotText`].
pub fn take_answer(value: Value, field: &str, line: usize) -> Result<String, RecordError> {
    match value {
        Value::String(text) => Ok(text),
        Value::Object(mut map) => match map.remove(field) {
            Some(Value::String(text)) => Ok(text),
            Some(other) => Err(RecordError::NotText {
                line,
                found: json_type(&other),
            }),
            None => Err(RecordError::MissingField {
                line,
                field: field.to_owned(),
            }),
        },
        other => Err(RecordError::NotText {
            line,
            found: json_type(&other),
        }),
    }
}

/// JSON's name for a value's type.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<Result<(usize, String), RecordError>> {
        JsonLines::with_max_line_bytes(input, max)
            .map(|r| r.map(|r| (r.line, r.text)))
            .collect()
    }

    #[test]
    fn line_breaks_blank_lines_and_a_missing_last_break() {
        assert_eq!(
            all(b"\xEF\xBB\xBF1\r\n  \n\n2\n3", 100),
            [
                Ok((1, "1".to_owned())),
                Ok((4, "2".to_owned())),
                Ok((5, "3".to_owned()))
            ]
        );
        assert_eq!(all(b"", 100), []);
        assert_eq!(all(b"\n\n", 100), []);
    }

    #[test]
    fn a_long_line_is_skipped_and_the_next_one_read() {
        assert_eq!(
            all(b"12345\n123456\n7\n", 5),
            [
                Ok((1, "12345".to_owned())),
                Err(RecordError::TooLong { line: 2, limit: 5 }),
                Ok((3, "7".to_owned())),
            ]
        );
    }

    #[test]
    fn a_long_line_across_many_reads_is_not_kept() {
        // A reader that hands out 3 bytes at a time.
        let text = format!("\"{}\"\n\"ok\"\n", "x".repeat(1000));
        let reader = std::io::BufReader::with_capacity(3, text.as_bytes());
        let got: Vec<_> = JsonLines::with_max_line_bytes(reader, 10)
            .map(|r| r.map(|r| r.text))
            .collect();
        assert_eq!(
            got,
            [
                Err(RecordError::TooLong { line: 1, limit: 10 }),
                Ok("\"ok\"".to_owned())
            ]
        );
    }

    #[test]
    fn a_read_error_ends_the_records() {
        struct Failing;
        impl std::io::Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk gone"))
            }
        }
        let mut records = JsonLines::new(std::io::BufReader::new(Failing));
        assert_eq!(
            records.next(),
            Some(Err(RecordError::Io {
                line: 1,
                message: "disk gone".to_owned()
            }))
        );
        assert_eq!(records.next(), None);
    }

    #[test]
    fn answers_in_strings_and_fields() {
        let record = |text: &str| Record {
            line: 1,
            text: text.to_owned(),
        };
        assert_eq!(
            record("[1]").answer("response"),
            Err(RecordError::NotText {
                line: 1,
                found: "array"
            })
        );
        assert_eq!(
            record("{\"x\": 1}").answer("response"),
            Err(RecordError::MissingField {
                line: 1,
                field: "response".to_owned()
            })
        );
        assert_eq!(
            record("{\"response\": \"a\\nb\"}").answer("response"),
            Ok("a\nb".to_owned())
        );
        assert_eq!(
            record("nope").answer("response").map_err(|e| e.code()),
            Err("invalid_json")
        );
    }
}
