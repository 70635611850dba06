//! The repair parser's arrays and Python tuples: elements, commas, a closer
//! that does not match its opener, an object's members written in an array.
//!
//! **Reads:** `array = ("[" | "(") [ value { [","] value } ] [","] ["]" | ")"]`
//!
//! **Repairs:** `DroppedIncomplete`, `ExtraBracket`, `ExtraComma`,
//! `MismatchedBracket`, `MissingBracket`, `MissingComma`, `UnclosedArray`.

use serde_json::Value;

use crate::repair::lookahead::{after_blank, is_key_char, is_quote, starts_value_at, window};
use crate::repair::{Context, Failure, Parser, RepairKind, Step};

impl<'a> Parser<'a> {
    /// An array (`[`) or a Python tuple (`(`).
    pub(super) fn array(&mut self, bracket: u8) -> Result<Step, Failure> {
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
    pub(super) fn regroup_row(&mut self, items: &mut Vec<Value>) -> bool {
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
    pub(super) fn extra_closer_ahead(&self) -> bool {
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
    pub(super) fn colon_follows(&self) -> bool {
        after_blank(self.rest()).starts_with(':')
    }
}
