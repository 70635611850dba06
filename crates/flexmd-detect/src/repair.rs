//! The repair parser: JSON5 plus the ways models break JSON that JSON5 does
//! not accept. It is the last step of the parsing ladder (see
//! [`parse_json`](crate::parse_json)); every change it makes to the text's
//! meaning is recorded as a [`Repair`].
//!
//! Every decision is local: where a quote, comma or line break could mean two
//! things, the parser looks ahead at most [`LOOKAHEAD`] bytes, and a string
//! that the input ends inside is cut at a place remembered while it was read
//! (never re-read). It recurses at most [`MAX_DEPTH`] levels. So it reads
//! each byte a bounded number of times: linear, and deep input is an error,
//! not a stack overflow.

use serde_json::{Map, Number, Value};

pub use crate::repair_kind::{Repair, RepairKind};

/// Nesting limit of every JSON step (serde_json's own default).
pub(crate) const MAX_DEPTH: usize = 128;

/// How far a decision looks ahead, in bytes.
const LOOKAHEAD: usize = 512;

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
    /// How many values it holds, itself included.
    pub(crate) values: usize,
}

/// Reads one value starting at `start` (after whitespace and comments).
/// With `whole`, only whitespace and comments may follow it, and what models
/// add after a root value is mended: a trailing comma, stray closing
/// brackets, more members of a root object that closed early, more values
/// (read as an array), a closing code fence.
///
/// At most `limit` values are read: the one past it is cut off as if the
/// text ended there ([`RepairKind::ValueLimit`]).
pub(crate) fn parse_lenient(
    text: &str,
    start: usize,
    whole: bool,
    limit: usize,
) -> Result<Lenient, Failure> {
    let mut p = Parser::new(text, start);
    p.limit = limit;
    p.skip_blank();
    let value_start = p.pos;
    let mut value = match p.value(Context::Top)? {
        Step::Value(v) => v,
        Step::Cut => return Err(p.fail_at(value_start, "the input ends before a value")),
    };
    let mut end = p.pos;
    if whole {
        value = p.after_root(value)?;
        end = p.pos;
        p.skip_blank();
        // (`p.text`: the bound on values may have cut the text short.)
        if p.pos < p.text.len() {
            return Err(p.fail("unexpected text after the value"));
        }
    }
    Ok(Lenient {
        value,
        end,
        repairs: p.repairs,
        values: p.values,
    })
}

/// The length of the whitespace (JSON5's, i.e. Unicode's, the BOM, and
/// zero-width spaces) and comments (`//`, `/* */`, `#`) `text` starts with,
/// and the offset of a `/*` comment that the text ends inside.
pub(crate) fn blank_len(text: &str) -> (usize, Option<usize>) {
    let mut p = Parser::new(text, 0);
    p.skip_blank();
    let unclosed = p
        .repairs
        .iter()
        .find(|r| r.kind == RepairKind::UnclosedComment)
        .map(|r| r.offset);
    (p.pos, unclosed)
}

/// A value, or the end of the input in the middle of one that cannot be
/// completed without inventing content (a number, a literal, a key).
enum Step {
    Value(Value),
    Cut,
}

/// Where a value is read: what may end an unquoted string or a string
/// missing its closing quote depends on it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Context {
    /// The root value.
    Top,
    /// An object key.
    Key,
    /// An object member's value.
    Member,
    /// An array element.
    Element,
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    repairs: Vec<Repair>,
    /// Open containers, innermost last: `{`, `[`, or `(` (a tuple or a
    /// function call).
    open: Vec<u8>,
    /// Values read so far, and the most that may be.
    values: usize,
    limit: usize,
}

const LITERALS: [&str; 9] = [
    "true",
    "false",
    "null",
    "True",
    "False",
    "None",
    "Infinity",
    "NaN",
    "undefined",
];

impl<'a> Parser<'a> {
    fn new(text: &'a str, pos: usize) -> Self {
        Parser {
            text,
            pos,
            repairs: Vec::new(),
            open: Vec::new(),
            values: 0,
            limit: usize::MAX,
        }
    }

    fn rest(&self) -> &'a str {
        let text: &'a str = self.text;
        text.get(self.pos..).unwrap_or_default()
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// The end of the input, or a code fence line that ends the JSON
    /// (`{"a": 1}```` or an unclosed value before a closing fence).
    fn at_end(&self) -> bool {
        self.pos >= self.text.len() || self.rest().starts_with("```")
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

    /// Skips whitespace and comments, reporting the ones JSON5 does not
    /// allow.
    fn skip_blank(&mut self) {
        loop {
            let rest = self.rest();
            let Some(c) = rest.chars().next() else {
                return;
            };
            if c.is_whitespace() || c == '\u{feff}' {
                self.pos += c.len_utf8();
            } else if is_special_space(c) {
                self.repair(RepairKind::SpecialWhitespace, self.pos);
                self.pos += c.len_utf8();
            } else if rest.starts_with("//") || c == '#' {
                if c == '#' {
                    self.repair(RepairKind::HashComment, self.pos);
                }
                self.pos += rest
                    .find(['\n', '\r', '\u{2028}', '\u{2029}'])
                    .unwrap_or(rest.len());
            } else if let Some(body) = rest.strip_prefix("/*") {
                match body.find("*/") {
                    Some(i) => self.pos += 2 + i + 2,
                    None => {
                        self.repair(RepairKind::UnclosedComment, self.pos);
                        self.pos = self.text.len();
                    }
                }
            } else {
                return;
            }
        }
    }

    fn enter(&mut self, bracket: u8) -> Result<(), Failure> {
        if self.open.len() >= MAX_DEPTH {
            return Err(Failure {
                offset: self.pos,
                message: format!("nesting deeper than {MAX_DEPTH} levels"),
                too_deep: true,
            });
        }
        self.open.push(bracket);
        Ok(())
    }

    /// Whether a container of this bracket is open around the current one.
    fn enclosed_by(&self, bracket: u8) -> bool {
        let outer = self.open.len().saturating_sub(1);
        self.open.get(..outer).is_some_and(|o| o.contains(&bracket))
    }

    fn value(&mut self, context: Context) -> Result<Step, Failure> {
        self.skip_blank();
        if self.at_end() {
            return Ok(Step::Cut);
        }
        let Some(c) = self.peek() else {
            return Ok(Step::Cut);
        };
        self.values += 1;
        if self.values > self.limit {
            // The memory bound: the text is read as if it ended here.
            self.values -= 1;
            self.repair(RepairKind::ValueLimit, self.pos);
            self.text = self.text.get(..self.pos).unwrap_or(self.text);
            return Ok(Step::Cut);
        }
        let c = match string_prefix_len(self.rest()) {
            Some(len) => {
                // `u'text'`: Python 2's unicode strings, bytes, raw strings.
                self.repair(RepairKind::StringPrefix, self.pos);
                self.pos += len;
                self.peek().unwrap_or(c)
            }
            None => c,
        };
        let step = match c {
            '`' if !self.rest().starts_with("```") => self.backtick_string(),
            '{' => self.object(None)?,
            '[' => self.array(b'[')?,
            '(' => {
                self.repair(RepairKind::PythonTuple, self.pos);
                self.array(b'(')?
            }
            c if is_quote(c) => self.string(context)?,
            '-' | '+' | '.' | '0'..='9' => self.number(context)?,
            '/' => self.regex()?,
            c if is_key_char(c) => self.word(context)?,
            _ => return Err(self.fail("expected a value")),
        };
        match step {
            Step::Value(Value::String(s)) if context != Context::Key => {
                Ok(Step::Value(Value::String(self.concatenation(s)?)))
            }
            step => Ok(step),
        }
    }

    /// `` `text` ``: a JavaScript template string, read as written up to
    /// the next backtick (line breaks kept); the end of the input closes it.
    fn backtick_string(&mut self) -> Step {
        let start = self.pos;
        self.repair(RepairKind::BacktickString, start);
        let body = self.rest().get(1..).unwrap_or_default();
        match body.find('`') {
            Some(end) => {
                self.pos += 1 + end + 1;
                Step::Value(Value::String(
                    body.get(..end).unwrap_or_default().to_owned(),
                ))
            }
            None => {
                self.repair(RepairKind::UnclosedString, self.text.len());
                self.pos = self.text.len();
                Step::Value(Value::String(body.to_owned()))
            }
        }
    }

    /// `"a" + "b"`: the strings after `+`, appended.
    fn concatenation(&mut self, mut s: String) -> Result<String, Failure> {
        loop {
            let (save, saved) = (self.pos, self.repairs.len());
            self.skip_blank();
            let plus = self.pos;
            if self.peek() != Some('+') {
                self.pos = save;
                self.repairs.truncate(saved);
                return Ok(s);
            }
            self.pos += 1;
            self.skip_blank();
            if !self.peek().is_some_and(is_quote) {
                self.pos = save;
                self.repairs.truncate(saved);
                return Ok(s);
            }
            self.repair(RepairKind::StringConcat, plus);
            match self.string(Context::Member)? {
                Step::Value(Value::String(next)) => s.push_str(&next),
                _ => return Ok(s),
            }
        }
    }

    /// An object; with `first_key`, an object missing its `{` whose first
    /// key (a string read as an array element) is already read.
    fn object(&mut self, first_key: Option<(String, usize)>) -> Result<Step, Failure> {
        self.enter(b'{')?;
        let mut map = Map::new();
        if first_key.is_none() {
            self.pos += 1;
        }
        self.members(&mut map, first_key)?;
        self.open.pop();
        Ok(Step::Value(Value::Object(map)))
    }

    /// The members of the object innermost in `open`, up to its end.
    fn members(
        &mut self,
        map: &mut Map<String, Value>,
        mut first_key: Option<(String, usize)>,
    ) -> Result<(), Failure> {
        loop {
            let (key, key_start) = match first_key.take() {
                Some(key) => key,
                None => {
                    self.skip_blank();
                    if self.at_end() {
                        self.repair(RepairKind::UnclosedObject, self.pos);
                        return Ok(());
                    }
                    let Some(c) = self.peek() else {
                        return Ok(());
                    };
                    match c {
                        '}' => {
                            self.pos += 1;
                            return Ok(());
                        }
                        ']' if self.enclosed_by(b'[') => {
                            self.repair(RepairKind::MissingBracket, self.pos);
                            return Ok(());
                        }
                        ']' => {
                            self.repair(RepairKind::MismatchedBracket, self.pos);
                            self.pos += 1;
                            return Ok(());
                        }
                        ')' if self.enclosed_by(b'(') => {
                            self.repair(RepairKind::MissingBracket, self.pos);
                            return Ok(());
                        }
                        '{' | '[' if self.enclosed_by(b'[') => {
                            self.repair(RepairKind::MissingBracket, self.pos);
                            return Ok(());
                        }
                        ',' => {
                            self.repair(RepairKind::ExtraComma, self.pos);
                            self.pos += 1;
                            continue;
                        }
                        _ if self.skip_ellipsis() => continue,
                        _ => {}
                    }
                    let key_start = self.pos;
                    match self.key()? {
                        Some(key) => (key, key_start),
                        None => {
                            self.repair(RepairKind::DroppedIncomplete, key_start);
                            self.repair(RepairKind::UnclosedObject, self.pos);
                            return Ok(());
                        }
                    }
                }
            };
            self.skip_blank();
            if self.at_end() {
                self.repair(RepairKind::DroppedIncomplete, key_start);
                self.repair(RepairKind::UnclosedObject, self.pos);
                return Ok(());
            }
            if self.peek() == Some(':') {
                self.pos += 1;
            } else if member_start(self.rest()) {
                // `COMMENT "next": 1`: the word was no key.
                self.repair(RepairKind::DroppedText, key_start);
                continue;
            } else if starts_value_at(self.rest()) {
                self.repair(RepairKind::MissingColon, self.pos);
            } else {
                return Err(self.fail("expected `:` after a key"));
            }
            match self.value(Context::Member)? {
                Step::Value(v) => {
                    map.insert(key, v);
                }
                Step::Cut => {
                    self.repair(RepairKind::DroppedIncomplete, key_start);
                    self.repair(RepairKind::UnclosedObject, self.pos);
                    return Ok(());
                }
            }
            self.skip_blank();
            if self.at_end() {
                continue;
            }
            match self.peek() {
                Some(',') => self.pos += 1,
                Some('}' | ']' | ')' | '{' | '[' | '.' | '…') | None => {}
                Some(c) if is_quote(c) || is_key_char(c) => {
                    self.repair(RepairKind::MissingComma, self.pos);
                }
                Some(_) => return Err(self.fail("expected `,` or `}`")),
            }
        }
    }

    /// A key: quoted, or a run of key characters. `None` when the input
    /// ends inside it.
    fn key(&mut self) -> Result<Option<String>, Failure> {
        if let Some(len) = string_prefix_len(self.rest()) {
            self.repair(RepairKind::StringPrefix, self.pos);
            self.pos += len;
        }
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        if is_quote(c) {
            return match self.string(Context::Key)? {
                Step::Value(Value::String(s)) => Ok(Some(s)),
                _ => Ok(None),
            };
        }
        if !is_key_char(c) {
            return Err(self.fail("expected a key or `}`"));
        }
        let rest = self.rest();
        let len = rest.find(|c| !is_key_char(c)).unwrap_or(rest.len());
        let key = rest.get(..len).unwrap_or_default().to_owned();
        self.pos += len;
        if self.pos >= self.text.len() {
            return Ok(None);
        }
        if self.peek() == Some('"') {
            // `{a": 1}`: the opening quote is missing.
            self.repair(RepairKind::MissingQuote, self.pos);
            self.pos += 1;
        }
        Ok(Some(key))
    }

    /// Skips an ellipsis (`...`, `…`) and a comma after it.
    fn skip_ellipsis(&mut self) -> bool {
        let rest = self.rest();
        let len = if rest.starts_with("...") {
            3
        } else if rest.starts_with('…') {
            '…'.len_utf8()
        } else {
            return false;
        };
        self.repair(RepairKind::Ellipsis, self.pos);
        self.pos += len;
        self.skip_blank();
        if self.peek() == Some(',') {
            self.pos += 1;
        }
        true
    }

    /// An array (`[`) or a Python tuple (`(`).
    fn array(&mut self, bracket: u8) -> Result<Step, Failure> {
        self.enter(bracket)?;
        let close = if bracket == b'(' { ')' } else { ']' };
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            self.skip_blank();
            if self.at_end() {
                self.repair(RepairKind::UnclosedArray, self.pos);
                break;
            }
            let Some(c) = self.peek() else {
                break;
            };
            if c == close {
                if bracket == b'[' && self.regroup_row(&mut items) {
                    continue;
                }
                self.pos += 1;
                break;
            }
            match c {
                '}' if self.enclosed_by(b'{') => {
                    self.repair(RepairKind::MissingBracket, self.pos);
                    break;
                }
                ']' | ')' => {
                    // A bracket of an enclosing container: this one was left open.
                    if self.enclosed_by(if c == ']' { b'[' } else { b'(' }) {
                        self.repair(RepairKind::MissingBracket, self.pos);
                    } else {
                        self.repair(RepairKind::MismatchedBracket, self.pos);
                        self.pos += 1;
                    }
                    break;
                }
                '}' => {
                    self.repair(RepairKind::ExtraBracket, self.pos);
                    self.pos += 1;
                    continue;
                }
                ',' => {
                    self.repair(RepairKind::ExtraComma, self.pos);
                    self.pos += 1;
                    continue;
                }
                _ if self.skip_ellipsis() => continue,
                _ => {}
            }
            let item_start = self.pos;
            match self.value(Context::Element)? {
                Step::Value(Value::String(key)) if self.colon_follows() => {
                    // `["a": 1]`: an object missing its `{`.
                    self.repair(RepairKind::MissingBracket, item_start);
                    if let Step::Value(v) = self.object(Some((key, item_start)))? {
                        items.push(v);
                    }
                }
                Step::Value(v) => items.push(v),
                Step::Cut => {
                    self.repair(RepairKind::DroppedIncomplete, item_start);
                    self.repair(RepairKind::UnclosedArray, self.pos);
                    break;
                }
            }
            self.skip_blank();
            if self.at_end() {
                continue;
            }
            match self.peek() {
                Some(',') => self.pos += 1,
                Some(']' | '}' | ')') | None => {}
                Some(_) if self.rest().starts_with("...") || self.rest().starts_with('…') => {}
                Some(c) if is_quote(c) || is_key_char(c) || starts_value_at(self.rest()) => {
                    self.repair(RepairKind::MissingComma, self.pos);
                }
                Some(_) => return Err(self.fail("expected `,` or `]`")),
            }
        }
        self.open.pop();
        Ok(Step::Value(Value::Array(items)))
    }

    /// In a list of rows (lists of scalars of one width), as many scalars
    /// after the last row and a `]` that more lists follow (`[[1, 2], 3, 4],
    /// [5, 6]]`): the scalars were a row missing its `[`. They are grouped, and the `]` and the comma after it
    /// read; `false` (nothing read) otherwise.
    fn regroup_row(&mut self, items: &mut Vec<Value>) -> bool {
        let Some(last_list) = items.iter().rposition(Value::is_array) else {
            return false;
        };
        let row_start = last_list + 1;
        let (lists, scalars) = items.split_at(row_start.min(items.len()));
        // Rows of one width, and as many scalars after them.
        let row = |v: &Value| {
            v.as_array()
                .filter(|r| r.iter().all(|x| !x.is_array() && !x.is_object()))
                .map(Vec::len)
        };
        let width = scalars.len();
        if width < 2
            || scalars.iter().any(|v| v.is_object() || v.is_array())
            || !lists.iter().all(|l| row(l) == Some(width))
        {
            return false;
        }
        let after = after_blank(self.rest().get(1..).unwrap_or_default());
        let Some(next) = after.strip_prefix(',') else {
            return false;
        };
        if !after_blank(next).starts_with('[') || !self.extra_closer_ahead() {
            return false;
        }
        self.repair(RepairKind::MissingBracket, self.pos);
        let row: Vec<Value> = items.drain(row_start..).collect();
        items.push(Value::Array(row));
        // Past the `]` and the comma.
        let comma = self.rest().len() - after.len();
        self.pos += comma + 1;
        true
    }

    /// Whether the text just after the `]` here closes more lists than it
    /// opens, beyond those open now (looking [`LOOKAHEAD`] bytes ahead): the
    /// `]` here is then one too many.
    fn extra_closer_ahead(&self) -> bool {
        let open_lists = self.open.iter().filter(|&&b| b == b'[').count();
        let mut balance = 0usize;
        let mut opened = 0usize;
        for b in window(self.rest().get(1..).unwrap_or_default()).bytes() {
            match b {
                b'[' => opened += 1,
                b']' if opened > 0 => opened -= 1,
                b']' => {
                    balance += 1;
                    if balance >= open_lists {
                        return true;
                    }
                }
                _ => {}
            }
        }
        false
    }

    /// Whether a `:` follows (after blanks).
    fn colon_follows(&self) -> bool {
        after_blank(self.rest()).starts_with(':')
    }

    /// What models add after the root value (see [`parse_lenient`]).
    fn after_root(&mut self, mut value: Value) -> Result<Value, Failure> {
        let mut values: Option<Vec<Value>> = None;
        // Whether the values after the root are JSON Lines records (on
        // lines of their own) rather than comma-separated.
        let mut lines = false;
        loop {
            let before = self.pos;
            self.skip_blank();
            let Some(c) = self.peek() else {
                self.pos = before;
                break;
            };
            if self.rest().starts_with("```") {
                // A closing fence after the value.
                let fence = self.rest().trim_start_matches('`');
                if fence.trim().is_empty() {
                    self.pos = self.text.len();
                    break;
                }
                self.pos = before;
                break;
            }
            match c {
                '}' | ']' => {
                    self.repair(RepairKind::ExtraBracket, self.pos);
                    self.pos += 1;
                }
                '{' | '['
                    if (values.is_none() || lines)
                        && (value.is_object() == (c == '{'))
                        && (value.is_object() || value.is_array())
                        && self
                            .text
                            .get(before..self.pos)
                            .is_some_and(|gap| gap.contains('\n')) =>
                {
                    // JSON Lines: another record of the same kind on a line
                    // of its own.
                    let item_start = self.pos;
                    match self.value(Context::Top)? {
                        Step::Value(next) if next.is_object() == value.is_object() => {
                            if values.is_none() {
                                self.repair(RepairKind::JsonLines, item_start);
                                lines = true;
                            }
                            values.get_or_insert_with(Vec::new).push(next);
                        }
                        Step::Value(_) => {
                            self.pos = before;
                            break;
                        }
                        Step::Cut => {
                            self.repair(RepairKind::DroppedIncomplete, item_start);
                        }
                    }
                }
                ',' if !lines => {
                    let comma = self.pos;
                    self.pos += 1;
                    self.skip_blank();
                    if self.at_end() {
                        self.repair(RepairKind::ExtraComma, comma);
                        continue;
                    }
                    if let Value::Object(map) = &mut value
                        && values.is_none()
                        && member_start(self.rest())
                    {
                        // `{"a": 1}, "b": 2}`: the first `}` closed too early.
                        self.repair(RepairKind::ExtraBracket, comma);
                        self.open.push(b'{');
                        self.members(map, None)?;
                        self.open.pop();
                        continue;
                    }
                    let item_start = self.pos;
                    match self.value(Context::Top)? {
                        Step::Value(next) => {
                            let list = values.get_or_insert_with(|| {
                                self.repairs.push(Repair {
                                    kind: RepairKind::MultipleValues,
                                    offset: comma,
                                });
                                Vec::new()
                            });
                            list.push(next);
                        }
                        Step::Cut => {
                            self.repair(RepairKind::DroppedIncomplete, item_start);
                        }
                    }
                }
                _ => {
                    self.pos = before;
                    break;
                }
            }
        }
        Ok(match values {
            Some(rest) => {
                let mut all = vec![value];
                all.extend(rest);
                Value::Array(all)
            }
            None => value,
        })
    }

    fn string(&mut self, context: Context) -> Result<Step, Failure> {
        let open_at = self.pos;
        let Some(open) = self.peek() else {
            return Ok(Step::Cut);
        };
        let closers: &[char] = match open {
            '"' => &['"'],
            '\'' => &['\''],
            '“' | '”' | '„' => &['”', '“'],
            _ => &['’', '‘'],
        };
        if !matches!(open, '"' | '\'') {
            self.repair(RepairKind::SmartQuotes, open_at);
        }
        self.pos += open.len_utf8();
        if let Some(step) = self.doubled_quotes(open, open_at, context) {
            return Ok(step);
        }
        let mut out = String::new();
        let mut read = StringRead {
            start: self.pos,
            ..StringRead::default()
        };
        loop {
            let rest = self.rest();
            // Copy the plain run in one step.
            let run = match open {
                // ASCII stops: bytes, not a char at a time (most of a long
                // string's cost).
                '"' => plain_run(rest, b'"'),
                '\'' => plain_run(rest, b'\''),
                _ => rest
                    .find(|c: char| {
                        matches!(c, '\\' | '\n' | '\r' | '{' | '}' | '[' | ']' | ',' | ':')
                            || closers.contains(&c)
                    })
                    .unwrap_or(rest.len()),
            };
            out.push_str(rest.get(..run).unwrap_or_default());
            self.pos += run;
            if run > 0 {
                continue;
            }
            let Some(c) = self.peek() else {
                return Ok(self.string_cut(context, out, &read));
            };
            let at = self.pos;
            self.pos += c.len_utf8();
            match c {
                '\\' => {
                    if !self.escape(&mut out, at, open) {
                        return Ok(self.string_cut(context, out, &read));
                    }
                }
                '\n' | '\r' => {
                    if context == Context::Key {
                        return Err(self.fail_at(at, "a key cannot span lines"));
                    }
                    if context == Context::Member
                        && open == '"'
                        && quoted_member_start(after_blank(window(self.rest())), '"')
                    {
                        // `"first line\n"next": 2`: the string ran into the
                        // next member; its closing quote is missing.
                        self.repair(RepairKind::MissingQuote, at);
                        self.pos = at;
                        return Ok(Step::Value(Value::String(out)));
                    }
                    self.repair(RepairKind::UnescapedNewline, at);
                    out.push(c);
                }
                '{' | '[' => {
                    read.nesting(c, 1);
                    out.push(c);
                }
                '}' | ']' => {
                    read.nesting(c, -1);
                    out.push(c);
                }
                ':' => {
                    if context == Context::Key && read.colon.is_none() {
                        read.colon = Some((at, out.len()));
                    }
                    out.push(c);
                }
                ',' => {
                    if context == Context::Member && open == '"' {
                        let after = after_blank(self.rest());
                        if quoted_member_start(after, '"') || bare_member_with_string(after) {
                            // `{"a": "b, "c": 1}`: the string ended at the comma.
                            self.repair(RepairKind::MissingQuote, at);
                            self.pos = at;
                            return Ok(Step::Value(Value::String(out)));
                        }
                        if read.member.is_none() && member_start(after) {
                            read.member = Some((at, out.len()));
                        }
                    }
                    out.push(c);
                }
                _ => {
                    if context == Context::Key
                        && read.colon.is_some()
                        && !after_blank(self.rest()).starts_with(':')
                    {
                        // `{"key:"value"}`: the key ended at its colon.
                        return Ok(self.key_at_colon(out, &read));
                    }
                    if self.ends_string(context, open, &out, &read) {
                        return Ok(Step::Value(Value::String(out)));
                    }
                    if context == Context::Member
                        && open == '"'
                        && read.curly == 0
                        && read.square == 0
                        && out.chars().next_back().is_some_and(char::is_alphanumeric)
                        && key_then_colon(self.rest())
                    {
                        // `"Ada"age": 36`: the string ended at this quote,
                        // and the next key lost its opening quote.
                        return Ok(Step::Value(Value::String(out)));
                    }
                    self.repair(RepairKind::UnescapedQuote, at);
                    read.inner_quote(&out, self.peek());
                    out.push(c);
                }
            }
        }
    }

    /// A string opened with a doubled or tripled quote: `""` (empty),
    /// `""text""`, `"""text"""`.
    fn doubled_quotes(&mut self, open: char, open_at: usize, context: Context) -> Option<Step> {
        if !matches!(open, '"' | '\'') || self.peek() != Some(open) {
            return None;
        }
        let after_two = self.rest().get(1..).unwrap_or_default();
        let pair: String = [open, open].iter().collect();
        if after_two.starts_with(open) {
            // `"""text"""`
            let body = after_two.get(1..).unwrap_or_default();
            let triple: String = [open, open, open].iter().collect();
            let end = body.find(triple.as_str())?;
            self.repair(RepairKind::DoubledQuotes, open_at);
            self.pos += 2 + end + 3;
            return Some(Step::Value(Value::String(
                body.get(..end).unwrap_or_default().to_owned(),
            )));
        }
        if context == Context::Key {
            // `""home": …`: a doubled quote opening a key.
            let word = after_two.find(|c: char| !is_key_char(c)).unwrap_or(0);
            let after_word = after_two.get(word..).unwrap_or_default();
            if word > 0
                && after_word.starts_with(open)
                && after_blank(after_word.get(1..).unwrap_or_default()).starts_with(':')
            {
                self.repair(RepairKind::DoubledQuotes, open_at);
                self.pos += 1 + word + 1;
                return Some(Step::Value(Value::String(
                    after_two.get(..word).unwrap_or_default().to_owned(),
                )));
            }
        }
        let next = after_blank(after_two).chars().next();
        let empty = match next {
            None => true,
            Some(':') => context == Context::Key,
            Some(c) => matches!(c, ',' | '}' | ']' | ')') || is_quote(c),
        };
        if !empty
            && let Some(end) = after_two.find(pair.as_str())
            && !after_two.get(..end).unwrap_or_default().contains('\n')
        {
            // `""text""`
            self.repair(RepairKind::DoubledQuotes, open_at);
            self.pos += 1 + end + 2;
            return Some(Step::Value(Value::String(
                after_two.get(..end).unwrap_or_default().to_owned(),
            )));
        }
        self.pos += 1;
        Some(Step::Value(Value::String(String::new())))
    }

    /// Whether the quote just read ends the string: what follows it must be
    /// able to follow a string there.
    fn ends_string(&self, context: Context, open: char, out: &str, read: &StringRead) -> bool {
        let rest = self.rest();
        let window = window(rest);
        let (gap, _) = blank_len(window);
        let after = window.get(gap..).unwrap_or_default();
        let crossed_line = window
            .get(..gap)
            .is_some_and(|gap| gap.contains(['\n', '\r']));
        if after.is_empty() || after.starts_with("```") {
            return true;
        }
        let Some(next) = after.chars().next() else {
            return true;
        };
        match context {
            // Keys hold no quotes: reading on would swallow the text.
            Context::Key => true,
            _ => match next {
                '}' => read.curly == 0,
                ']' => read.square == 0,
                ')' => self.open.contains(&b'('),
                ':' => context != Context::Member,
                ',' => {
                    let rest = after.get(1..).unwrap_or_default();
                    let follow = after_blank(rest);
                    !read.inner_open
                        || follow.is_empty()
                        || follow.starts_with(['}', ']'])
                        || starts_value_at(follow)
                        || member_start(follow)
                }
                '+' => after_blank(after.get(1..).unwrap_or_default())
                    .chars()
                    .next()
                    .is_some_and(is_quote),
                c if is_quote(c) && quoted_member_start(after, c) => true,
                _ if context == Context::Element && open == '"' => {
                    // `["a" "b"]`, `["a" 2]`, `["a" b"]`: a comma is missing;
                    // `["say "hi" now"]` keeps its inner quotes.
                    let closing = gap > 0 && !out.ends_with(char::is_whitespace);
                    is_quote(next)
                        || next.is_ascii_digit()
                        || (closing && !read.inner_open && is_key_char(next))
                }
                // A value or member on the next line: a comma is missing,
                // not a quote.
                _ => crossed_line && (starts_value_at(after) || member_start(after)),
            },
        }
    }

    /// The input ended inside a string.
    fn string_cut(&mut self, context: Context, mut out: String, read: &StringRead) -> Step {
        if context == Context::Key {
            if read.colon.is_some() {
                return self.key_at_colon(out, read);
            }
            return Step::Cut;
        }
        // The text ends in closing brackets: the closing quote is missing
        // before them (`{"a": "b]}`), or before the member that starts at a
        // comma (`{"a": "b, c: 1}`). The closing run holds no escapes, so it
        // ends the value as it ends the text.
        let tail = closing_tail(self.text);
        let run = self.text.len() - tail;
        let at_tail = (tail > read.start && run <= out.len()).then(|| (tail, out.len() - run));
        let cut = if tail < self.text.len() {
            read.member.or(at_tail)
        } else {
            None
        };
        match cut {
            Some((at, len)) => {
                out.truncate(len);
                let kept = out.trim_end().len();
                out.truncate(kept);
                // Line breaks read past the cut are no longer in the value.
                self.repairs
                    .retain(|r| r.offset < at || r.kind != RepairKind::UnescapedNewline);
                self.repair(RepairKind::MissingQuote, at);
                self.pos = at;
            }
            None => self.repair(RepairKind::UnclosedString, self.text.len()),
        }
        Step::Value(Value::String(out))
    }

    /// A key that ran past its colon (`{"key:"value"}`, `{"key:value}`):
    /// it ends at the colon, which the object then reads.
    fn key_at_colon(&mut self, mut out: String, read: &StringRead) -> Step {
        let Some((at, len)) = read.colon else {
            return Step::Cut;
        };
        out.truncate(len);
        self.repair(RepairKind::MissingQuote, at);
        self.pos = at;
        Step::Value(Value::String(out))
    }

    /// Reads the escape after a `\` at `at` into `out`; `false` when the
    /// input ends inside it.
    fn escape(&mut self, out: &mut String, at: usize, open: char) -> bool {
        let Some(c) = self.peek() else {
            return false;
        };
        self.pos += c.len_utf8();
        match c {
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\u{b}'),
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => out.push('\0'),
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
            // Quotes, the backslash and the slash escape themselves.
            '"' | '\'' | '\\' | '/' => out.push(c),
            c if c == open || is_quote(c) => out.push(c),
            // JSON5 lets any other character escape itself, but a model that
            // writes `\s` or `\d` means a regular expression, and `C:\Users`
            // a path: the backslash stays.
            other => {
                self.repair(RepairKind::InvalidEscape, at);
                out.push('\\');
                out.push(other);
            }
        }
        true
    }

    /// `\x` or `\u` without its hex digits: at the end of the input the
    /// string is cut there; elsewhere the escape is kept as written.
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
        out.push_str(self.text.get(at..self.pos).unwrap_or_default());
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

    fn number(&mut self, context: Context) -> Result<Step, Failure> {
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
                return self.not_a_number(start, start + i + 2, context);
            };
            if !ends_number(rest.get(i + 2 + digits..).unwrap_or_default()) {
                return self.not_a_number(start, start + i + 2 + digits, context);
            }
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
        let mut normal = String::from(if negative { "-" } else { "" });
        // Digits, with `_` between digits (`1_000`).
        let int_start = i;
        let mut separated = false;
        while let Some(&b) = bytes.get(i) {
            if b.is_ascii_digit() {
                normal.push(char::from(b));
                i += 1;
            } else if b == b'_' && i > int_start && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)
            {
                separated = true;
                i += 1;
            } else {
                break;
            }
        }
        let int_len = i - int_start;
        let leading_zero = int_len > 1 && bytes.get(int_start) == Some(&b'0');
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
            return self.not_a_number(start, start + i, context);
        }
        if matches!(bytes.get(i), Some(b'e' | b'E')) {
            let mut j = i + 1;
            if matches!(bytes.get(j), Some(b'-' | b'+')) {
                j += 1;
            }
            let exp_len = digit_run(bytes.get(j..).unwrap_or_default());
            if exp_len == 0 {
                return self.not_a_number(start, start + j, context);
            }
            normal.push_str(rest.get(i..j + exp_len).unwrap_or_default());
            i = j + exp_len;
        }
        if formatted(rest, i, context) {
            return self.unquoted(context, start, RepairKind::FormattedNumber);
        }
        if leading_zero || !ends_number(rest.get(i..).unwrap_or_default()) {
            return self.not_a_number(start, start + i, context);
        }
        if separated {
            self.repair(RepairKind::DigitSeparator, start);
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

    /// Something that starts like a number but is none (`1.2.3`, `10-20`,
    /// `007`, a date): a string inside a container; cut at the end of the
    /// input (`-`, `1e`); an error at the root.
    fn not_a_number(&mut self, start: usize, at: usize, context: Context) -> Result<Step, Failure> {
        let run_end = start
            + self
                .rest()
                .find(|c: char| !(is_key_char(c) || matches!(c, '.' | '-' | '+' | ':')))
                .unwrap_or(self.rest().len());
        if run_end >= self.text.len() && at >= self.text.len() {
            self.pos = self.text.len();
            return Ok(Step::Cut);
        }
        if matches!(context, Context::Member | Context::Element) {
            return self.unquoted(context, start, RepairKind::NumberAsString);
        }
        Err(self.fail_at(at, "unexpected character in a number"))
    }

    /// `/ab+c/`: a regular-expression literal, as a string (slashes kept).
    fn regex(&mut self) -> Result<Step, Failure> {
        let start = self.pos;
        let rest = self.rest();
        let mut escaped = false;
        let end = rest
            .char_indices()
            .skip(1)
            .find(|&(_, c)| {
                let end = !escaped && (c == '/' || c == '\n');
                escaped = !escaped && c == '\\';
                end
            })
            .filter(|&(_, c)| c == '/')
            .map(|(i, _)| i + 1);
        let Some(end) = end else {
            return Err(self.fail("expected a value"));
        };
        self.repair(RepairKind::RegexLiteral, start);
        self.pos += end;
        Ok(Step::Value(Value::String(
            rest.get(..end).unwrap_or_default().to_owned(),
        )))
    }

    fn word(&mut self, context: Context) -> Result<Step, Failure> {
        let start = self.pos;
        let rest = self.rest();
        let len = identifier_len(rest);
        let word = rest.get(..len).unwrap_or_default();
        let after = rest.get(len..).unwrap_or_default();
        let literal = match word {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            "null" => Some(Value::Null),
            "True" | "False" | "None" => {
                self.repair(RepairKind::PythonLiteral, start);
                Some(match word {
                    "True" => Value::Bool(true),
                    "False" => Value::Bool(false),
                    _ => Value::Null,
                })
            }
            "undefined" => {
                self.repair(RepairKind::Undefined, start);
                Some(Value::Null)
            }
            "Infinity" | "NaN" => return self.number(context),
            _ => match word.to_ascii_lowercase().as_str() {
                "true" | "false" | "null" if ends_literal(after) => {
                    self.repair(RepairKind::LiteralCase, start);
                    Some(match word.to_ascii_lowercase().as_str() {
                        "true" => Value::Bool(true),
                        "false" => Value::Bool(false),
                        _ => Value::Null,
                    })
                }
                _ => None,
            },
        };
        if let Some(value) = literal.filter(|_| ends_literal(after)) {
            self.pos += len;
            return Ok(Step::Value(value));
        }
        if start + len >= self.text.len() && LITERALS.iter().any(|l| l.starts_with(word)) {
            self.pos = self.text.len();
            return Ok(Step::Cut);
        }
        // `NumberLong(2)`, `callback({...});`
        let gap = after.len() - after.trim_start_matches([' ', '\t']).len();
        if len > 0 && after.get(gap..).is_some_and(|a| a.starts_with('(')) {
            return self.call(start, len + gap);
        }
        if context == Context::Top {
            return Err(self.fail("expected a value"));
        }
        self.unquoted(context, start, RepairKind::UnquotedString)
    }

    /// A value wrapped in a function call whose name ends `name_len` bytes
    /// from the start.
    fn call(&mut self, start: usize, name_len: usize) -> Result<Step, Failure> {
        self.enter(b'(')?;
        self.repair(RepairKind::FunctionWrapper, start);
        self.pos = start + name_len + 1;
        let value = self.value(Context::Element)?;
        self.skip_blank();
        if self.peek() == Some(')') {
            self.pos += 1;
            let rest = self.rest();
            let gap = rest.len() - rest.trim_start_matches([' ', '\t']).len();
            if rest.get(gap..).is_some_and(|r| r.starts_with(';')) {
                self.pos += gap + 1;
            }
        } else if !self.at_end() {
            return Err(self.fail("expected `)`"));
        }
        self.open.pop();
        Ok(value)
    }

    /// Text without quotes from `start`, up to what ends a value in
    /// `context` (see the crate README).
    fn unquoted(
        &mut self,
        context: Context,
        start: usize,
        kind: RepairKind,
    ) -> Result<Step, Failure> {
        let text: &'a str = self.text;
        let mut at = start;
        let mut end = None;
        let mut consumed_quote = false;
        while let Some(c) = text.get(at..).and_then(|r| r.chars().next()) {
            let rest = text.get(at..).unwrap_or_default();
            let next = rest.get(c.len_utf8()..).unwrap_or_default();
            let stop = match c {
                ',' => match context {
                    Context::Element => true,
                    _ => {
                        let follow = after_blank(window(next));
                        follow.is_empty() || follow.starts_with(['}', ']']) || member_start(follow)
                    }
                },
                '\n' | '\r' => match context {
                    Context::Element => true,
                    _ => {
                        let follow = after_blank(window(next));
                        follow.is_empty() || follow.starts_with(['}', ']']) || member_start(follow)
                    }
                },
                '}' | ']' => true,
                ')' => self.open.last() == Some(&b'('),
                '"' | '\'' | '”' | '’' => {
                    let attached = at > start
                        && text
                            .get(..at)
                            .and_then(|b| b.chars().next_back())
                            .is_some_and(|p| !p.is_whitespace());
                    let follow = after_blank(window(next));
                    if attached && (follow.is_empty() || follow.starts_with([',', '}', ']', '\n']))
                    {
                        // `{"a": b"}`: the opening quote is missing.
                        consumed_quote = true;
                        true
                    } else {
                        !attached && member_start(rest)
                    }
                }
                '/' | '#' => {
                    let spaced = text
                        .get(..at)
                        .and_then(|b| b.chars().next_back())
                        .is_some_and(char::is_whitespace);
                    spaced && (c == '#' || next.starts_with(['/', '*']))
                }
                _ => false,
            };
            if stop {
                end = Some(at);
                break;
            }
            at += c.len_utf8();
        }
        let end = end.unwrap_or(text.len());
        let value = text.get(start..end).unwrap_or_default().trim_end();
        if value.is_empty() {
            return Err(self.fail_at(start, "expected a value"));
        }
        if end >= text.len() && LITERALS.iter().any(|l| l.starts_with(value)) {
            self.pos = text.len();
            return Ok(Step::Cut);
        }
        self.repair(kind, start);
        self.pos = end;
        if consumed_quote {
            self.repair(RepairKind::MissingQuote, end);
            self.pos += 1;
        }
        Ok(Step::Value(Value::String(value.to_owned())))
    }
}

/// What a string read remembers to decide where it ends.
#[derive(Default)]
struct StringRead {
    /// Brackets opened inside the string and not yet closed there: a quote
    /// followed by `}` does not end `"see {"a": 1} here"`.
    curly: usize,
    square: usize,
    /// A quote that looks like an opening inner quote (`say "hi`) is waiting
    /// for its closing one.
    inner_open: bool,
    /// Where the string's content starts.
    start: usize,
    /// The first comma followed by a bare member (`, key:`).
    member: Option<(usize, usize)>,
    /// In a key, the first colon.
    colon: Option<(usize, usize)>,
}

impl StringRead {
    fn nesting(&mut self, c: char, delta: isize) {
        let count = if matches!(c, '{' | '}') {
            &mut self.curly
        } else {
            &mut self.square
        };
        *count = count.saturating_add_signed(delta);
    }

    /// Tracks inner quotes: one after a space and before a word opens,
    /// one after a word closes.
    fn inner_quote(&mut self, before: &str, next: Option<char>) {
        let after_space = before
            .chars()
            .next_back()
            .is_none_or(|c| c.is_whitespace() || matches!(c, '(' | '[' | '{'));
        let before_word = next.is_some_and(|c| !c.is_whitespace());
        if after_space && before_word {
            self.inner_open = true;
        } else if !after_space {
            self.inner_open = false;
        }
    }
}

/// Where the run of closing brackets, whitespace, `;` and backticks that
/// ends `text` starts (at its first bracket or backtick), or `text.len()`
/// when there is no bracket in that run.
fn closing_tail(text: &str) -> usize {
    let trimmed = text
        .trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '}' | ']' | ')' | '`' | ';'));
    let run = text.get(trimmed.len()..).unwrap_or_default();
    match run.find(['}', ']', '`']) {
        Some(i) if run.contains(['}', ']']) => trimmed.len() + i,
        _ => text.len(),
    }
}

/// At most [`LOOKAHEAD`] bytes of `text`, cut at a character boundary.
fn window(text: &str) -> &str {
    if text.len() <= LOOKAHEAD {
        return text;
    }
    let mut end = LOOKAHEAD;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or_default()
}

/// `text` after its leading blanks (looking at most [`LOOKAHEAD`] bytes).
fn after_blank(text: &str) -> &str {
    let w = window(text);
    let (gap, _) = blank_len(w);
    if gap >= w.len() && text.len() > w.len() {
        // Blanks past the look-ahead: treat as the end.
        return "";
    }
    text.get(gap..).unwrap_or_default()
}

/// Zero-width and other spaces JSON5 does not count as whitespace.
fn is_special_space(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{180e}')
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

/// Whether the number that `rest` starts with (`len` bytes of it) goes on
/// as a number with formatting JSON has no place for, in a container:
/// - a unit after a space (`5 km`, `21.5 °C`, `12 USD`), unless the word
///   is the next member's key (`1 b: 2`, a missing comma);
/// - in a member's value, digit groups of three after commas (`1,250,000`)
///   that end the value or carry a unit;
/// - in a member's value, groups of digits after spaces: a leading `+`
///   (`+1 415 555 0100`), or two groups or more (`415 555 0100`).
fn formatted(rest: &str, len: usize, context: Context) -> bool {
    if !matches!(context, Context::Member | Context::Element) {
        return false;
    }
    let after = rest.get(len..).unwrap_or_default();
    let spaced = after.trim_start_matches([' ', '\t']);
    let unit_start = |text: &str| {
        text.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || "%°‰€$£¥₹µ".contains(c))
    };
    // A unit is one word that ends the value (`c 3` after a number is a
    // key missing its colon).
    let unit = |text: &str| {
        let word = text
            .find(|c: char| c.is_whitespace() || matches!(c, ',' | '}' | ']' | '"'))
            .unwrap_or(text.len());
        let next = text
            .get(word..)
            .unwrap_or_default()
            .trim_start_matches([' ', '\t']);
        unit_start(text)
            && !member_start(text)
            && !text.starts_with("//")
            && (next.is_empty() || next.starts_with([',', '}', ']', '\n', '\r']))
    };
    if spaced.len() < after.len() && unit(spaced) {
        return true;
    }
    if context != Context::Member {
        return false;
    }
    // `1,250,000`: groups of exactly three digits after the first one to
    // three, then the end of the value or a unit.
    let bytes = after.as_bytes();
    let int_digits = rest
        .bytes()
        .skip_while(|b| matches!(b, b'+' | b'-'))
        .take_while(u8::is_ascii_digit)
        .count();
    let mut at = 0;
    let mut groups = 0;
    while bytes.get(at) == Some(&b',') && digit_run(bytes.get(at + 1..).unwrap_or_default()) == 3 {
        at += 4;
        groups += 1;
    }
    if groups > 0
        && (1..=3).contains(&int_digits)
        && len == int_digits + usize::from(rest.starts_with(['+', '-']))
    {
        let tail = after.get(at..).unwrap_or_default();
        let spaced_tail = tail.trim_start_matches([' ', '\t']);
        let ends = tail.is_empty()
            || tail.starts_with(['}', '\n', '\r'])
            || (tail.starts_with(',')
                && member_start(after_blank(tail.get(1..).unwrap_or_default())))
            || tail.starts_with('.') && digit_run(tail.as_bytes().get(1..).unwrap_or_default()) > 0;
        if ends || (spaced_tail.len() < tail.len() && unit(spaced_tail)) {
            return true;
        }
    }
    // Digit groups after single spaces: a phone number.
    let mut groups = 0;
    let mut at = 0;
    while bytes.get(at) == Some(&b' ') {
        let run = digit_run(bytes.get(at + 1..).unwrap_or_default());
        if run == 0 {
            break;
        }
        at += 1 + run;
        groups += 1;
    }
    groups >= 2 || (groups == 1 && rest.starts_with('+'))
}

/// Whether `text` starts with a key that lost its opening quote: key
/// characters, a quote, then a colon (`age": 36`).
fn key_then_colon(text: &str) -> bool {
    let w = window(text);
    let word = w.find(|c: char| !is_key_char(c)).unwrap_or(0);
    let after = w.get(word..).unwrap_or_default();
    word > 0
        && after.starts_with('"')
        && after_blank(after.get(1..).unwrap_or_default()).starts_with(':')
}

/// The length of a Python string prefix (`u`, `b`, `r`, `rb`, `br`, any
/// case) right before a quote at the start of `rest`.
fn string_prefix_len(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    let letters = bytes
        .iter()
        .take(3)
        .take_while(|b| matches!(b.to_ascii_lowercase(), b'u' | b'b' | b'r'))
        .count();
    let prefix = rest.get(..letters)?.to_ascii_lowercase();
    let known = matches!(prefix.as_str(), "u" | "b" | "r" | "rb" | "br");
    let quote = *bytes.get(letters).filter(|q| matches!(q, b'\'' | b'"'))?;
    // The string it opens closes on the same line (`{"a": b"}` is a word
    // missing its opening quote), within the bounded look-ahead.
    let line = window(rest.get(letters + 1..)?);
    let line = line.get(..line.find('\n').unwrap_or(line.len()))?;
    (known && line.bytes().any(|b| b == quote)).then_some(letters)
}

fn digit_run(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|b| b.is_ascii_digit()).count()
}

fn is_quote(c: char) -> bool {
    matches!(c, '"' | '\'' | '“' | '”' | '‘' | '„')
}

/// A character of an unquoted key or word: anything but blanks,
/// punctuation JSON gives meaning to, and quotes.
fn is_key_char(c: char) -> bool {
    !(c.is_whitespace()
        || is_special_space(c)
        || is_quote(c)
        || matches!(
            c,
            ':' | ',' | '{' | '}' | '[' | ']' | '(' | ')' | '/' | '#' | '’' | '\\' | '`' | ';'
        ))
}

fn is_identifier_char(c: char) -> bool {
    c == '_' || c == '$' || c.is_alphanumeric()
}

fn identifier_len(text: &str) -> usize {
    text.find(|c: char| !is_identifier_char(c))
        .unwrap_or(text.len())
}

/// Whether a number may end where `rest` starts.
fn ends_number(rest: &str) -> bool {
    match rest.chars().next() {
        None => true,
        Some(c) => {
            c.is_whitespace()
                || is_special_space(c)
                || matches!(c, ',' | '{' | '}' | '[' | ']' | ')' | '/' | '#' | '`' | ';')
                || is_quote(c)
        }
    }
}

/// Whether a literal word may end where `rest` starts.
fn ends_literal(rest: &str) -> bool {
    ends_number(rest) || rest.starts_with(':')
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
                || matches!(
                    word.to_ascii_lowercase().as_str(),
                    "true" | "false" | "null"
                )
                || (len == text.len() && LITERALS.iter().any(|l| l.starts_with(word)))
        }
        _ => false,
    }
}

/// Whether `text` starts with an object member: a quoted key and a `:`, or
/// a bare key and a `:` (not `://`, which starts no member but a URL).
fn member_start(text: &str) -> bool {
    let Some(c) = text.chars().next() else {
        return false;
    };
    if is_quote(c) {
        return quoted_member_start(text, c);
    }
    bare_member_len(text).is_some()
}

/// `key:` at the start of `text`: the length up to and with the colon.
fn bare_member_len(text: &str) -> Option<usize> {
    let w = window(text);
    let len = w.find(|c| !is_key_char(c)).unwrap_or(w.len());
    if len == 0 || len == w.len() {
        return None;
    }
    let after = w.get(len..).unwrap_or_default();
    let gap = after.len() - after.trim_start_matches([' ', '\t']).len();
    let colon = after.get(gap..)?;
    (colon.starts_with(':') && !colon.starts_with("://")).then_some(len + gap + 1)
}

/// `key: "` at the start of `text`: a bare member whose value is a string,
/// which inside a string value means the string's closing quote is missing
/// (`{"a": "b, c: "d"}`).
fn bare_member_with_string(text: &str) -> bool {
    let Some(len) = bare_member_len(text) else {
        return false;
    };
    let after = text.get(len..).unwrap_or_default();
    after
        .trim_start_matches([' ', '\t'])
        .starts_with(['"', '\''])
}

/// `"key":` at the start of `text`, quoted with `quote` (and its smart
/// partner), on one line.
fn quoted_member_start(text: &str, quote: char) -> bool {
    let w = window(text);
    let body = w.get(quote.len_utf8()..).unwrap_or_default();
    let closers: &[char] = match quote {
        '"' => &['"'],
        '\'' => &['\''],
        '“' | '”' | '„' => &['”', '“'],
        _ => &['’', '‘'],
    };
    let end = match quote {
        '"' => memchr::memchr2(b'"', b'\n', body.as_bytes()),
        '\'' => memchr::memchr2(b'\'', b'\n', body.as_bytes()),
        _ => body.find(|c: char| closers.contains(&c) || c == '\n'),
    };
    let Some(end) = end else {
        return false;
    };
    let Some(closer) = body.get(end..).and_then(|r| r.chars().next()) else {
        return false;
    };
    if closer == '\n' {
        return false;
    }
    let after = body.get(end + closer.len_utf8()..).unwrap_or_default();
    after.trim_start_matches([' ', '\t']).starts_with(':')
}

/// The length of the run at the start of `rest` that holds none of the
/// bytes that stop a plain run in a string opened with `quote` (an ASCII
/// quote): escapes, line breaks, brackets, commas, colons and the quote.
/// All are ASCII, so the run ends on a character boundary.
fn plain_run(rest: &str, quote: u8) -> usize {
    rest.bytes()
        .position(|b| {
            matches!(
                b,
                b'\\' | b'\n' | b'\r' | b'{' | b'}' | b'[' | b']' | b',' | b':'
            ) || b == quote
        })
        .unwrap_or(rest.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn whole(text: &str) -> (Value, Vec<(RepairKind, usize)>) {
        let l =
            parse_lenient(text, 0, true, usize::MAX).unwrap_or_else(|f| panic!("{text:?}: {f:?}"));
        (
            l.value,
            l.repairs.into_iter().map(|r| (r.kind, r.offset)).collect(),
        )
    }

    fn value(text: &str) -> Value {
        whole(text).0
    }

    fn kinds(text: &str) -> Vec<RepairKind> {
        whole(text).1.into_iter().map(|(k, _)| k).collect()
    }

    fn fails(text: &str) -> Failure {
        parse_lenient(text, 0, true, usize::MAX).expect_err(text)
    }

    use RepairKind::*;

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
b", "^\s+\(x"]"#
            ),
            (
                json!(["😀", "\u{fffd}x", "\\1", "ab", "^\\s+\\(x"]),
                vec![
                    (InvalidEscape, 18),
                    (InvalidEscape, 29),
                    (InvalidEscape, 44),
                    (InvalidEscape, 47)
                ]
            )
        );
    }

    #[test]
    fn unquoted_strings_end_where_the_context_says() {
        assert_eq!(
            whole("{city: New York, zip: 10001}"),
            (
                json!({"city": "New York", "zip": 10001}),
                vec![(UnquotedString, 7)]
            )
        );
        // A comma or a line break ends a member's value only before a member.
        assert_eq!(
            value("{a: one, two, three\n  and four,\n b: x}"),
            json!({"a": "one, two, three\n  and four", "b": "x"})
        );
        assert_eq!(value("[a, b c\nd]"), json!(["a", "b c", "d"]));
        assert_eq!(
            value("{url: https://example.com/a, n: 1}"),
            json!({"url": "https://example.com/a", "n": 1})
        );
        assert_eq!(kinds("{\"a\": b\"}"), [UnquotedString, MissingQuote]);
    }

    #[test]
    fn strings_missing_a_quote() {
        assert_eq!(
            whole("{\"a\": \"b, \"c\": \"d\"}"),
            (json!({"a": "b", "c": "d"}), vec![(MissingQuote, 8)])
        );
        assert_eq!(
            value("{\"a\": \"first, b: \"second\"}"),
            json!({"a": "first", "b": "second"})
        );
        assert_eq!(
            whole("{\"key\": [\"value]}"),
            (json!({"key": ["value"]}), vec![(MissingQuote, 15)])
        );
        assert_eq!(value("{\"a\": \"fox. }"), json!({"a": "fox."}));
        assert_eq!(value("{\"key:\"value\"}"), json!({"key": "value"}));
        assert_eq!(value("{\"key:value}"), json!({"key": "value"}));
        // Brackets inside the string keep a quote from ending it.
        assert_eq!(
            value("{\"x\": \"is {\"a\": \"b\"}, ok\"}"),
            json!({"x": "is {\"a\": \"b\"}, ok"})
        );
    }

    #[test]
    fn separators_and_brackets() {
        assert_eq!(
            whole("{a 1 b:2}"),
            (
                json!({"a": 1, "b": 2}),
                vec![(MissingColon, 3), (MissingComma, 5)]
            )
        );
        assert_eq!(
            whole("[,1,,2]"),
            (json!([1, 2]), vec![(ExtraComma, 1), (ExtraComma, 4)])
        );
        assert_eq!(
            whole("[{\"b\":2]"),
            (json!([{"b": 2}]), vec![(MissingBracket, 7)])
        );
        assert_eq!(
            whole("{\"a\":2]"),
            (json!({"a": 2}), vec![(MismatchedBracket, 6)])
        );
        assert_eq!(whole("[1]}"), (json!([1]), vec![(ExtraBracket, 3)]));
        assert_eq!(
            whole("[\"a\": 1]"),
            (
                json!([{"a": 1}]),
                vec![(MissingBracket, 1), (MissingBracket, 7)]
            )
        );
        assert_eq!(
            whole("{\"a\": 1}, \"b\": 2}"),
            (json!({"a": 1, "b": 2}), vec![(ExtraBracket, 8)])
        );
        assert_eq!(
            whole("{\"a\": 1}, {\"b\": 2}"),
            (json!([{"a": 1}, {"b": 2}]), vec![(MultipleValues, 8)])
        );
        assert_eq!(
            whole("[[1, 2], 3, 4], [5]]"),
            (json!([[1, 2], [3, 4], [5]]), vec![(MissingBracket, 13)])
        );
        assert_eq!(
            whole("{\"a\": 1, COMMENT \"b\": 2}"),
            (json!({"a": 1, "b": 2}), vec![(DroppedText, 9)])
        );
    }

    #[test]
    fn javascript_and_python_forms() {
        assert_eq!(
            whole("[1, ..., (2, 3), undefined, TRUE, /a+b/, 1_000]"),
            (
                json!([1, [2, 3], null, true, "/a+b/", 1000]),
                vec![
                    (Ellipsis, 4),
                    (PythonTuple, 9),
                    (Undefined, 17),
                    (LiteralCase, 28),
                    (RegexLiteral, 34),
                    (DigitSeparator, 41)
                ]
            )
        );
        assert_eq!(
            whole("callback({\"a\": NumberLong(2)});"),
            (
                json!({"a": 2}),
                vec![(FunctionWrapper, 0), (FunctionWrapper, 15)]
            )
        );
        assert_eq!(
            whole("'a' + \"b\" /* c */ + 'c'"),
            (json!("abc"), vec![(StringConcat, 4), (StringConcat, 18)])
        );
        assert_eq!(
            whole("{\"v\": 1.2.3, \"d\": 2024-01-02}"),
            (
                json!({"v": "1.2.3", "d": "2024-01-02"}),
                vec![(NumberAsString, 6), (NumberAsString, 18)]
            )
        );
        assert_eq!(
            whole("{\"a\":\u{200b}1 # note\n}"),
            (
                json!({"a": 1}),
                vec![(SpecialWhitespace, 5), (HashComment, 10)]
            )
        );
        assert_eq!(
            whole("{\"\"a\"\": \"\"\"x\"y\"\"\"}"),
            (
                json!({"a": "x\"y"}),
                vec![(DoubledQuotes, 1), (DoubledQuotes, 8)]
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
        assert_eq!(
            fails("{\"a\": 1} tail").message,
            "unexpected text after the value (found `t`)"
        );
        assert_eq!(
            fails("").message,
            "the input ends before a value (at the end of the input)"
        );
        assert_eq!(
            fails("{\"a\nb\": 1}").message,
            "a key cannot span lines (found `\\n`)"
        );
        assert_eq!(fails("hello").offset, 0);
    }

    #[test]
    fn depth_is_bounded() {
        let f = fails(&"[".repeat(100_000));
        assert!(f.too_deep);
        assert_eq!(f.offset, 128);
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse_lenient(&ok, 0, true, usize::MAX).is_ok());
    }

    #[test]
    fn prefix_mode_reports_where_the_value_ends() {
        let l = parse_lenient("x {\"a\": [1]} and more", 2, false, usize::MAX).unwrap();
        assert_eq!((l.value, l.end), (json!({"a": [1]}), 12));
    }

    #[test]
    fn the_closing_tail() {
        assert_eq!(closing_tail("{\"a\": \"b]} \n"), 8);
        assert_eq!(closing_tail("{\"a\": \"b}```"), 8);
        assert_eq!(closing_tail("{\"a\": \"b"), 8);
        assert_eq!(closing_tail("abc```"), 6);
    }
}
