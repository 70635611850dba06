//! The repair parser's values: the dispatch on the first character, string
//! concatenation (`"a" + "b"`), regex literals, words (literals in any
//! case, Python's and JavaScript's), function-call wrappers
//! (`JSON.parse(...)`, JSONP).
//!
//! **Reads:** `value = string | number | object | array | regex | word | call ; word = literal in any case | identifier`
//!
//! **Repairs:** `FunctionWrapper`, `LiteralCase`, `PythonLiteral`,
//! `PythonTuple`, `RegexLiteral`, `StringConcat`, `StringPrefix`,
//! `Undefined`, `UnquotedString`, `ValueLimit`.

use serde_json::Value;

use crate::repair::lookahead::{
    LITERALS, ends_literal, identifier_len, is_key_char, is_quote, string_prefix_len,
};
use crate::repair::{Context, Failure, Parser, RepairKind, Step};

impl<'a> Parser<'a> {
    pub(super) fn value(&mut self, context: Context) -> Result<Step, Failure> {
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

    /// `"a" + "b"`: the strings after `+`, appended.
    pub(super) fn concatenation(&mut self, mut s: String) -> Result<String, Failure> {
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

    /// `/ab+c/`: a regular-expression literal, as a string (slashes kept).
    pub(super) fn regex(&mut self) -> Result<Step, Failure> {
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

    pub(super) fn word(&mut self, context: Context) -> Result<Step, Failure> {
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
    pub(super) fn call(&mut self, start: usize, name_len: usize) -> Result<Step, Failure> {
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
}
