//! The repair parser: JSON5 plus the ways models break JSON that JSON5 does
//! not accept. It is the last step of the parsing ladder (see
//! [`parse_json`](crate::parse_json)); every change it makes to the text's
//! meaning is recorded as a [`Repair`].
//!
//! It recurses at most [`MAX_DEPTH`] levels, so deep input is an error, not a
//! stack overflow, and reads each byte a bounded number of times: linear.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};

/// Nesting limit of every JSON step (serde_json's own default).
pub(crate) const MAX_DEPTH: usize = 128;

/// One change the repair parser made to read the text as JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Repair {
    /// What was repaired.
    pub kind: RepairKind,
    /// Byte offset in the searched text where it was repaired.
    pub offset: usize,
}

/// The repairs the last step of the ladder makes. None of them invents a
/// key: truncated members are dropped, not completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RepairKind {
    /// A string delimited by typographic quotes (`“…”`, `‘…’`).
    SmartQuotes,
    /// Python's `True`, `False` or `None` read as `true`, `false`, `null`.
    PythonLiteral,
    /// A raw line break inside a string, kept as a `\n` in the value.
    UnescapedNewline,
    /// A quote inside a string value that does not end it (what follows is
    /// not `,`, `}`, `]` or a value on the next line), kept as a character
    /// of the string.
    UnescapedQuote,
    /// A comma inserted between two members or elements.
    MissingComma,
    /// The input ends inside a string: the string is closed there.
    UnclosedString,
    /// The input ends inside an array: it is closed there.
    UnclosedArray,
    /// The input ends inside an object: it is closed there.
    UnclosedObject,
    /// The input ends inside a `/* … */` comment.
    UnclosedComment,
    /// A member or element cut off by the end of the input (a key without a
    /// value, `tru`, `-`) is left out.
    DroppedIncomplete,
    /// `Infinity` or `NaN`, which JSON cannot hold, became `null`.
    NonFiniteNumber,
    /// An escape JSON5 does not define (`\1`, a lone surrogate) was replaced
    /// by the character itself or U+FFFD.
    InvalidEscape,
}

impl RepairKind {
    /// Every kind, in declaration order.
    pub const ALL: [RepairKind; 12] = [
        Self::SmartQuotes,
        Self::PythonLiteral,
        Self::UnescapedNewline,
        Self::UnescapedQuote,
        Self::MissingComma,
        Self::UnclosedString,
        Self::UnclosedArray,
        Self::UnclosedObject,
        Self::UnclosedComment,
        Self::DroppedIncomplete,
        Self::NonFiniteNumber,
        Self::InvalidEscape,
    ];

    /// The kind's name, as in JSON (`missing_comma`).
    ///
    /// ```
    /// use flexmd_detect::RepairKind;
    /// assert_eq!(RepairKind::MissingComma.name(), "missing_comma");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Self::SmartQuotes => "smart_quotes",
            Self::PythonLiteral => "python_literal",
            Self::UnescapedNewline => "unescaped_newline",
            Self::UnescapedQuote => "unescaped_quote",
            Self::MissingComma => "missing_comma",
            Self::UnclosedString => "unclosed_string",
            Self::UnclosedArray => "unclosed_array",
            Self::UnclosedObject => "unclosed_object",
            Self::UnclosedComment => "unclosed_comment",
            Self::DroppedIncomplete => "dropped_incomplete",
            Self::NonFiniteNumber => "non_finite_number",
            Self::InvalidEscape => "invalid_escape",
        }
    }

    /// A short description, for reports.
    ///
    /// ```
    /// use flexmd_detect::RepairKind;
    /// assert_eq!(RepairKind::MissingComma.describe(), "inserted a missing comma");
    /// ```
    pub fn describe(self) -> &'static str {
        match self {
            Self::SmartQuotes => "read typographic quotes as string quotes",
            Self::PythonLiteral => "read a Python literal (True/False/None) as JSON",
            Self::UnescapedNewline => "kept a raw line break inside a string",
            Self::UnescapedQuote => "kept a quote inside a string as a character",
            Self::MissingComma => "inserted a missing comma",
            Self::UnclosedString => "closed a string cut off by the end of the input",
            Self::UnclosedArray => "closed an array cut off by the end of the input",
            Self::UnclosedObject => "closed an object cut off by the end of the input",
            Self::UnclosedComment => "ended a comment cut off by the end of the input",
            Self::DroppedIncomplete => "left out a member cut off by the end of the input",
            Self::NonFiniteNumber => "replaced Infinity or NaN by null",
            Self::InvalidEscape => "replaced an invalid escape",
        }
    }
}

/// Why the repair parser gave up, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    pub(crate) offset: usize,
    pub(crate) message: String,
    /// The failure is the nesting limit.
    pub(crate) too_deep: bool,
}

/// A value read from a prefix of the text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Lenient {
    pub(crate) value: Value,
    /// Offset just after the value.
    pub(crate) end: usize,
    pub(crate) repairs: Vec<Repair>,
}

/// Reads one value starting at `start` (after whitespace and comments).
/// With `whole`, only whitespace and comments may follow it.
pub(crate) fn parse_lenient(text: &str, start: usize, whole: bool) -> Result<Lenient, Failure> {
    let mut p = Parser {
        text,
        pos: start,
        depth: 0,
        repairs: Vec::new(),
    };
    p.skip_blank();
    let value_start = p.pos;
    let value = match p.value()? {
        Step::Value(v) => v,
        Step::Cut => return Err(p.fail_at(value_start, "the input ends before a value")),
    };
    let end = p.pos;
    if whole {
        p.skip_blank();
        if p.pos < text.len() {
            return Err(p.fail("unexpected text after the value"));
        }
    }
    Ok(Lenient {
        value,
        end,
        repairs: p.repairs,
    })
}

/// A value, or the end of the input in the middle of one that cannot be
/// completed without inventing content (a number, a literal, a key).
enum Step {
    Value(Value),
    Cut,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Key,
    Value,
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    depth: usize,
    repairs: Vec<Repair>,
}

const LITERALS: [&str; 8] = [
    "true", "false", "null", "True", "False", "None", "Infinity", "NaN",
];

impl<'a> Parser<'a> {
    fn rest(&self) -> &'a str {
        let text: &'a str = self.text;
        text.get(self.pos..).unwrap_or_default()
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    fn repair(&mut self, kind: RepairKind, offset: usize) {
        self.repairs.push(Repair { kind, offset });
    }

    fn fail(&self, message: &str) -> Failure {
        self.fail_at(self.pos, message)
    }

    fn fail_at(&self, offset: usize, message: &str) -> Failure {
        let found = match self.text.get(offset..).and_then(|r| r.chars().next()) {
            Some(c) => format!("{message} (found `{}`)", c.escape_debug()),
            None => format!("{message} (at the end of the input)"),
        };
        Failure {
            offset,
            message: found,
            too_deep: false,
        }
    }

    /// Skips whitespace and comments.
    fn skip_blank(&mut self) {
        let (len, unclosed_comment) = blank_len(self.rest());
        if let Some(at) = unclosed_comment {
            self.repair(RepairKind::UnclosedComment, self.pos + at);
        }
        self.pos += len;
    }

    fn value(&mut self) -> Result<Step, Failure> {
        self.skip_blank();
        let Some(c) = self.peek() else {
            return Ok(Step::Cut);
        };
        match c {
            '{' => self.object(),
            '[' => self.array(),
            '"' | '\'' | '“' | '‘' | '”' => self.string(Context::Value),
            '-' | '+' | '.' | '0'..='9' => self.number(),
            c if c.is_ascii_alphabetic() => self.word(),
            _ => Err(self.fail("expected a value")),
        }
    }

    fn enter(&mut self) -> Result<(), Failure> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Failure {
                offset: self.pos,
                message: format!("nesting deeper than {MAX_DEPTH} levels"),
                too_deep: true,
            });
        }
        Ok(())
    }

    fn object(&mut self) -> Result<Step, Failure> {
        self.enter()?;
        self.pos += 1;
        let mut map = Map::new();
        loop {
            self.skip_blank();
            let Some(c) = self.peek() else {
                self.repair(RepairKind::UnclosedObject, self.pos);
                break;
            };
            if c == '}' {
                self.pos += 1;
                break;
            }
            let key_start = self.pos;
            let key = if is_quote(c) {
                match self.string(Context::Key)? {
                    Step::Value(Value::String(s)) => Some(s),
                    _ => None,
                }
            } else if is_identifier_start(c) {
                let rest = self.rest();
                let len = identifier_len(rest);
                let key = rest.get(..len).unwrap_or_default().to_owned();
                self.pos += len;
                (!self.at_end()).then_some(key)
            } else {
                return Err(self.fail("expected a key or `}`"));
            };
            self.skip_blank();
            let Some(key) = key.filter(|_| !self.at_end()) else {
                self.repair(RepairKind::DroppedIncomplete, key_start);
                self.repair(RepairKind::UnclosedObject, self.pos);
                break;
            };
            if self.peek() != Some(':') {
                return Err(self.fail("expected `:` after a key"));
            }
            self.pos += 1;
            match self.value()? {
                Step::Value(v) => {
                    map.insert(key, v);
                }
                Step::Cut => {
                    self.repair(RepairKind::DroppedIncomplete, key_start);
                    self.repair(RepairKind::UnclosedObject, self.pos);
                    break;
                }
            }
            self.skip_blank();
            match self.peek() {
                Some(',') => self.pos += 1,
                Some('}') | None => {}
                Some(_) if self.starts_member() => {
                    self.repair(RepairKind::MissingComma, self.pos);
                }
                Some(_) => return Err(self.fail("expected `,` or `}`")),
            }
        }
        self.depth -= 1;
        Ok(Step::Value(Value::Object(map)))
    }

    fn array(&mut self) -> Result<Step, Failure> {
        self.enter()?;
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            self.skip_blank();
            let Some(c) = self.peek() else {
                self.repair(RepairKind::UnclosedArray, self.pos);
                break;
            };
            if c == ']' {
                self.pos += 1;
                break;
            }
            let item_start = self.pos;
            match self.value()? {
                Step::Value(v) => items.push(v),
                Step::Cut => {
                    self.repair(RepairKind::DroppedIncomplete, item_start);
                    self.repair(RepairKind::UnclosedArray, self.pos);
                    break;
                }
            }
            self.skip_blank();
            match self.peek() {
                Some(',') => self.pos += 1,
                Some(']') | None => {}
                Some(_) if self.starts_value() => {
                    self.repair(RepairKind::MissingComma, self.pos);
                }
                Some(_) => return Err(self.fail("expected `,` or `]`")),
            }
        }
        self.depth -= 1;
        Ok(Step::Value(Value::Array(items)))
    }

    /// Whether a value starts here (for a missing comma in an array).
    fn starts_value(&self) -> bool {
        starts_value_at(self.rest())
    }

    /// Whether an object member starts here: a quoted key, or an identifier
    /// followed by `:`.
    fn starts_member(&self) -> bool {
        starts_member_at(self.rest())
    }

    fn string(&mut self, context: Context) -> Result<Step, Failure> {
        let open_at = self.pos;
        let Some(open) = self.peek() else {
            return Ok(Step::Cut);
        };
        let closers: &[char] = match open {
            '"' => &['"'],
            '\'' => &['\''],
            '“' | '”' => &['”', '“'],
            _ => &['’', '‘'],
        };
        if !matches!(open, '"' | '\'') {
            self.repair(RepairKind::SmartQuotes, open_at);
        }
        self.pos += open.len_utf8();
        let mut out = String::new();
        loop {
            let rest = self.rest();
            // Copy the plain run in one step.
            let run = rest
                .find(|c: char| c == '\\' || c == '\n' || c == '\r' || closers.contains(&c))
                .unwrap_or(rest.len());
            out.push_str(rest.get(..run).unwrap_or_default());
            self.pos += run;
            let Some(c) = self.peek() else {
                return Ok(self.string_cut(context, out));
            };
            let at = self.pos;
            self.pos += c.len_utf8();
            match c {
                '\\' => {
                    if !self.escape(&mut out, at) {
                        return Ok(self.string_cut(context, out));
                    }
                }
                '\n' | '\r' => {
                    if context == Context::Key {
                        return Err(self.fail_at(at, "a key cannot span lines"));
                    }
                    self.repair(RepairKind::UnescapedNewline, at);
                    out.push(c);
                }
                _ => {
                    if self.ends_string(context) {
                        return Ok(Step::Value(Value::String(out)));
                    }
                    self.repair(RepairKind::UnescapedQuote, at);
                    out.push(c);
                }
            }
        }
    }

    /// The input ended inside a string: a key is dropped, a value closed.
    fn string_cut(&mut self, context: Context, out: String) -> Step {
        match context {
            Context::Key => Step::Cut,
            Context::Value => {
                self.repair(RepairKind::UnclosedString, self.text.len());
                Step::Value(Value::String(out))
            }
        }
    }

    /// Reads the escape after a `\` at `at` into `out`; `false` when the
    /// input ends inside it.
    fn escape(&mut self, out: &mut String, at: usize) -> bool {
        let Some(c) = self.peek() else {
            return false;
        };
        self.pos += c.len_utf8();
        match c {
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => {
                out.push('\r');
            }
            't' => out.push('\t'),
            'v' => out.push('\u{b}'),
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => out.push('\0'),
            '0'..='9' => {
                self.repair(RepairKind::InvalidEscape, at);
                out.push(c);
            }
            'x' => match self.hex(2) {
                Some(code) => out.push(char::from_u32(code).unwrap_or('\u{fffd}')),
                None => return self.bad_hex(out, at),
            },
            'u' => match self.hex(4) {
                Some(high @ 0xD800..=0xDBFF) => {
                    let low = self
                        .rest()
                        .strip_prefix("\\u")
                        .and_then(|r| r.get(..4))
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                        .filter(|low| (0xDC00..=0xDFFF).contains(low));
                    match low {
                        Some(low) => {
                            self.pos += 6;
                            let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                            out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                        }
                        None => {
                            self.repair(RepairKind::InvalidEscape, at);
                            out.push('\u{fffd}');
                        }
                    }
                }
                Some(code) => match char::from_u32(code) {
                    Some(ch) => out.push(ch),
                    None => {
                        self.repair(RepairKind::InvalidEscape, at);
                        out.push('\u{fffd}');
                    }
                },
                None => return self.bad_hex(out, at),
            },
            // A line continuation: the escaped line break is not in the value.
            '\r' => {
                if self.peek() == Some('\n') {
                    self.pos += 1;
                }
            }
            '\n' | '\u{2028}' | '\u{2029}' => {}
            // JSON5 lets any other character escape itself.
            other => out.push(other),
        }
        true
    }

    /// `\x` or `\u` without its hex digits: at the end of the input the
    /// string is cut there; elsewhere the letter is kept.
    fn bad_hex(&mut self, out: &mut String, at: usize) -> bool {
        let hex_run = self
            .rest()
            .chars()
            .take_while(char::is_ascii_hexdigit)
            .count();
        if self.pos + hex_run >= self.text.len() {
            self.pos = self.text.len();
            return false;
        }
        self.repair(RepairKind::InvalidEscape, at);
        out.push_str(self.text.get(at + 1..self.pos).unwrap_or_default());
        true
    }

    fn hex(&mut self, digits: usize) -> Option<u32> {
        let code = self
            .rest()
            .get(..digits)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|h| u32::from_str_radix(h, 16).ok())?;
        self.pos += digits;
        Some(code)
    }

    /// Whether the quote just read ends the string: what follows it must be
    /// able to follow a string there.
    fn ends_string(&self, context: Context) -> bool {
        let rest = self.rest();
        let (gap, _) = blank_len(rest);
        let after = rest.get(gap..).unwrap_or_default();
        let crossed_line = rest
            .get(..gap)
            .is_some_and(|gap| gap.contains(['\n', '\r']));
        let Some(next) = after.chars().next() else {
            return true;
        };
        match context {
            // Keys hold no quotes: reading on would swallow the text.
            Context::Key => true,
            Context::Value => match next {
                '}' | ']' => true,
                ',' => {
                    let rest = after.get(1..).unwrap_or_default();
                    let follow = rest.get(blank_len(rest).0..).unwrap_or_default();
                    follow.is_empty()
                        || follow.starts_with(['}', ']'])
                        || starts_value_at(follow)
                        || starts_member_at(follow)
                }
                // A value on the next line: a comma is missing, not a quote.
                _ => crossed_line && starts_value_at(after),
            },
        }
    }

    fn number(&mut self) -> Result<Step, Failure> {
        let start = self.pos;
        let rest = self.rest();
        let bytes = rest.as_bytes();
        let mut i = 0;
        let negative = bytes.first() == Some(&b'-');
        if matches!(bytes.first(), Some(b'-' | b'+')) {
            i += 1;
        }
        let unsigned = rest.get(i..).unwrap_or_default();
        for word in ["Infinity", "NaN"] {
            if unsigned.starts_with(word) {
                self.pos += i + word.len();
                self.repair(RepairKind::NonFiniteNumber, start);
                return Ok(Step::Value(Value::Null));
            }
            if word.starts_with(unsigned) && !unsigned.is_empty() {
                self.pos = self.text.len();
                return Ok(Step::Cut);
            }
        }
        if unsigned.starts_with("0x") || unsigned.starts_with("0X") {
            let digits = unsigned
                .get(2..)
                .unwrap_or_default()
                .bytes()
                .take_while(u8::is_ascii_hexdigit)
                .count();
            let Some(hex) = unsigned.get(2..2 + digits).filter(|h| !h.is_empty()) else {
                return self.incomplete_number(start + i + 2);
            };
            self.pos += i + 2 + digits;
            let magnitude = u64::from_str_radix(hex, 16).ok();
            let value = match (magnitude, negative) {
                (Some(m), false) => Value::Number(m.into()),
                (Some(m), true) => match i64::try_from(m) {
                    Ok(m) => Value::Number((-m).into()),
                    Err(_) => float_value(-(m as f64)),
                },
                (None, _) => {
                    let approx = hex
                        .bytes()
                        .fold(0f64, |acc, d| acc * 16.0 + f64::from(hex_digit(d)));
                    float_value(if negative { -approx } else { approx })
                }
            };
            return Ok(Step::Value(value));
        }
        let int_len = digit_run(bytes.get(i..).unwrap_or_default());
        let mut normal = String::from(if negative { "-" } else { "" });
        normal.push_str(rest.get(i..i + int_len).unwrap_or_default());
        if int_len > 1 && bytes.get(i) == Some(&b'0') {
            return Err(self.fail_at(start + i, "a number cannot have a leading zero"));
        }
        i += int_len;
        let mut frac_len = 0;
        if bytes.get(i) == Some(&b'.') {
            frac_len = digit_run(bytes.get(i + 1..).unwrap_or_default());
            if int_len == 0 {
                normal.push('0');
            }
            normal.push('.');
            normal.push_str(rest.get(i + 1..i + 1 + frac_len).unwrap_or_default());
            if frac_len == 0 {
                normal.push('0');
            }
            i += 1 + frac_len;
        }
        if int_len == 0 && frac_len == 0 {
            return self.incomplete_number(start + i);
        }
        if matches!(bytes.get(i), Some(b'e' | b'E')) {
            let mut j = i + 1;
            if matches!(bytes.get(j), Some(b'-' | b'+')) {
                j += 1;
            }
            let exp_len = digit_run(bytes.get(j..).unwrap_or_default());
            if exp_len == 0 {
                return self.incomplete_number(start + j);
            }
            normal.push_str(rest.get(i..j + exp_len).unwrap_or_default());
            i = j + exp_len;
        }
        if rest
            .get(i..)
            .and_then(|r| r.chars().next())
            .is_some_and(is_identifier_char)
        {
            return Err(self.fail_at(start + i, "unexpected character in a number"));
        }
        self.pos += i;
        let value = match serde_json::from_str::<Number>(&normal) {
            Ok(n) => Value::Number(n),
            // Out of f64's range: the value JSON cannot hold.
            Err(_) => {
                self.repair(RepairKind::NonFiniteNumber, start);
                Value::Null
            }
        };
        Ok(Step::Value(value))
    }

    /// A number that stops before it is complete (`-`, `1e`, `0x`): cut at
    /// the end of the input, an error elsewhere.
    fn incomplete_number(&mut self, at: usize) -> Result<Step, Failure> {
        if at >= self.text.len() {
            self.pos = self.text.len();
            Ok(Step::Cut)
        } else {
            Err(self.fail_at(at, "expected a digit"))
        }
    }

    fn word(&mut self) -> Result<Step, Failure> {
        let start = self.pos;
        let rest = self.rest();
        let len = identifier_len(rest);
        let word = rest.get(..len).unwrap_or_default();
        let value = match word {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            "null" => Value::Null,
            "True" | "False" | "None" => {
                self.repair(RepairKind::PythonLiteral, start);
                match word {
                    "True" => Value::Bool(true),
                    "False" => Value::Bool(false),
                    _ => Value::Null,
                }
            }
            "Infinity" | "NaN" => return self.number(),
            _ if start + len >= self.text.len() && LITERALS.iter().any(|l| l.starts_with(word)) => {
                self.pos = self.text.len();
                return Ok(Step::Cut);
            }
            _ => return Err(self.fail("expected a value")),
        };
        self.pos += len;
        Ok(Step::Value(value))
    }
}

/// The length of the whitespace (JSON5's, i.e. Unicode's, and the BOM) and
/// comments `text` starts with, and the offset of a `/*` comment that the
/// text ends inside.
pub(crate) fn blank_len(text: &str) -> (usize, Option<usize>) {
    let mut pos = 0;
    loop {
        let rest = text.get(pos..).unwrap_or_default();
        let trimmed = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        pos += rest.len() - trimmed.len();
        if trimmed.starts_with("//") {
            pos += trimmed
                .find(['\n', '\r', '\u{2028}', '\u{2029}'])
                .unwrap_or(trimmed.len());
        } else if let Some(body) = trimmed.strip_prefix("/*") {
            match body.find("*/") {
                Some(i) => pos += 2 + i + 2,
                None => return (text.len(), Some(pos)),
            }
        } else {
            return (pos, None);
        }
    }
}

fn float_value(f: f64) -> Value {
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

fn hex_digit(d: u8) -> u8 {
    match d {
        b'0'..=b'9' => d - b'0',
        b'a'..=b'f' => d - b'a' + 10,
        b'A'..=b'F' => d - b'A' + 10,
        _ => 0,
    }
}

fn digit_run(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|b| b.is_ascii_digit()).count()
}

fn is_quote(c: char) -> bool {
    matches!(c, '"' | '\'' | '“' | '”' | '‘')
}

fn is_identifier_start(c: char) -> bool {
    c == '_' || c == '$' || c.is_alphabetic()
}

fn is_identifier_char(c: char) -> bool {
    c == '_' || c == '$' || c.is_alphanumeric()
}

fn identifier_len(text: &str) -> usize {
    text.find(|c: char| !is_identifier_char(c))
        .unwrap_or(text.len())
}

/// Whether `text` starts with a value: a bracket, a quote, a number or one
/// of the literal words (or its start, at the end of the input).
fn starts_value_at(text: &str) -> bool {
    let Some(c) = text.chars().next() else {
        return false;
    };
    match c {
        '{' | '[' | '-' | '+' | '.' | '0'..='9' => true,
        c if is_quote(c) => true,
        c if c.is_ascii_alphabetic() => {
            let len = identifier_len(text);
            let word = text.get(..len).unwrap_or_default();
            // A literal, or the start of one cut off by the end of the input.
            LITERALS.contains(&word)
                || (len == text.len() && LITERALS.iter().any(|l| l.starts_with(word)))
        }
        _ => false,
    }
}

/// Whether `text` starts with an object member: a quoted key, or an
/// identifier and a `:`.
fn starts_member_at(text: &str) -> bool {
    let Some(c) = text.chars().next() else {
        return false;
    };
    if is_quote(c) {
        return true;
    }
    is_identifier_start(c)
        && text
            .get(identifier_len(text)..)
            .is_some_and(|r| r.trim_start().starts_with(':'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn whole(text: &str) -> (Value, Vec<(RepairKind, usize)>) {
        let l = parse_lenient(text, 0, true).unwrap_or_else(|f| panic!("{text:?}: {f:?}"));
        (
            l.value,
            l.repairs.into_iter().map(|r| (r.kind, r.offset)).collect(),
        )
    }

    fn fails(text: &str) -> Failure {
        parse_lenient(text, 0, true).expect_err(text)
    }

    use RepairKind::*;

    #[test]
    fn kind_names_are_the_json_names() {
        for kind in RepairKind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), json!(kind.name()));
        }
    }

    #[test]
    fn json5_is_read_without_repairs() {
        let (v, r) = whole(
            "// c\n{a: 1, 'b': [0x1F, .5, 5., +2, -0xA,], /* x */ \"c\\x41\\u00e9\": 'it\\'s',}",
        );
        assert_eq!(
            v,
            json!({"a": 1, "b": [31, 0.5, 5.0, 2, -10], "cAé": "it's"})
        );
        assert_eq!(r, []);
    }

    #[test]
    fn model_mistakes_are_repaired_and_reported() {
        assert_eq!(
            whole("{“a”: ‘x’, \"b\": True, \"c\": None}"),
            (
                json!({"a": "x", "b": true, "c": null}),
                vec![
                    (SmartQuotes, 1),
                    (SmartQuotes, 10),
                    (PythonLiteral, 24),
                    (PythonLiteral, 35)
                ]
            )
        );
        assert_eq!(
            whole("{\"a\": 1\n \"b\": [1 2]}"),
            (
                json!({"a": 1, "b": [1, 2]}),
                vec![(MissingComma, 9), (MissingComma, 17)]
            )
        );
        assert_eq!(
            whole("{\"q\": \"say \"hi\" now\", \"n\": \"a\nb\"}"),
            (
                json!({"q": "say \"hi\" now", "n": "a\nb"}),
                vec![
                    (UnescapedQuote, 11),
                    (UnescapedQuote, 14),
                    (UnescapedNewline, 29)
                ]
            )
        );
    }

    #[test]
    fn truncated_input_is_closed_and_cut_members_dropped() {
        assert_eq!(
            whole("{\"a\": [1, 2, {\"b\": \"hel"),
            (
                json!({"a": [1, 2, {"b": "hel"}]}),
                vec![
                    (UnclosedString, 23),
                    (UnclosedObject, 23),
                    (UnclosedArray, 23),
                    (UnclosedObject, 23)
                ]
            )
        );
        assert_eq!(
            whole("{\"a\": 1, \"b\": tr"),
            (
                json!({"a": 1}),
                vec![(DroppedIncomplete, 9), (UnclosedObject, 16)]
            )
        );
        assert_eq!(
            whole("{\"a\": 1, \"long_k"),
            (
                json!({"a": 1}),
                vec![(DroppedIncomplete, 9), (UnclosedObject, 16)]
            )
        );
        assert_eq!(
            whole("[1, -"),
            (json!([1]), vec![(DroppedIncomplete, 4), (UnclosedArray, 5)])
        );
        assert_eq!(
            whole("[1, 2, /* cut"),
            (
                json!([1, 2]),
                vec![(UnclosedComment, 7), (UnclosedArray, 13)]
            )
        );
    }

    #[test]
    fn non_finite_numbers_become_null() {
        assert_eq!(
            whole("[Infinity, -Infinity, NaN, 1e999]"),
            (
                json!([null, null, null, null]),
                vec![
                    (NonFiniteNumber, 1),
                    (NonFiniteNumber, 11),
                    (NonFiniteNumber, 22),
                    (NonFiniteNumber, 27)
                ]
            )
        );
    }

    #[test]
    fn escapes() {
        assert_eq!(
            whole(
                r#"["\ud83d\ude00", "\ud800x", "\1", "a\
b"]"#
            ),
            (
                json!(["😀", "\u{fffd}x", "1", "ab"]),
                vec![(InvalidEscape, 18), (InvalidEscape, 29)]
            )
        );
    }

    #[test]
    fn garbage_is_refused_with_a_position() {
        let f = fails("{braces}");
        assert_eq!(
            (f.offset, f.message.as_str()),
            (7, "expected `:` after a key (found `}`)")
        );
        assert_eq!(fails("[citation needed]").offset, 1);
        assert_eq!(
            fails("{\"a\": 1} tail").message,
            "unexpected text after the value (found `t`)"
        );
        assert_eq!(fails("[007]").offset, 1);
        assert_eq!(
            fails("").message,
            "the input ends before a value (at the end of the input)"
        );
        assert_eq!(
            fails("{\"a\nb\": 1}").message,
            "a key cannot span lines (found `\\n`)"
        );
    }

    #[test]
    fn depth_is_bounded() {
        let f = fails(&"[".repeat(100_000));
        assert!(f.too_deep);
        assert_eq!(f.offset, 128);
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse_lenient(&ok, 0, true).is_ok());
    }

    #[test]
    fn prefix_mode_reports_where_the_value_ends() {
        let l = parse_lenient("x {\"a\": [1]} and more", 2, false).unwrap();
        assert_eq!((l.value, l.end), (json!({"a": [1]}), 12));
    }
}
