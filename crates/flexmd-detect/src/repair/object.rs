//! The repair parser's objects: members, keys (quoted, unquoted, missing),
//! colons and commas between members, `...` placeholders.
//!
//! **Reads:** `object = "{" [ member { [","] member } ] [","] ["}"] ; member = key [":"] value`
//!
//! **Repairs:** `DroppedIncomplete`, `DroppedText`, `Ellipsis`,
//! `ExtraComma`, `MismatchedBracket`, `MissingBracket`, `MissingColon`,
//! `MissingComma`, `MissingQuote`, `StringPrefix`, `UnclosedObject`.

use serde_json::{Map, Value};

use crate::repair::lookahead::{
    is_key_char, is_quote, member_start, starts_value_at, string_prefix_len,
};
use crate::repair::{Context, Failure, Parser, RepairKind, Step};

impl<'a> Parser<'a> {
    /// An object; with `first_key`, an object missing its `{` whose first
    /// key (a string read as an array element) is already read.
    pub(super) fn object(&mut self, first_key: Option<(String, usize)>) -> Result<Step, Failure> {
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
    pub(super) fn members(
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
    pub(super) fn key(&mut self) -> Result<Option<String>, Failure> {
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
    pub(super) fn skip_ellipsis(&mut self) -> bool {
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
}
