//! The repair parser's what models add after the root value: a trailing
//! comma, stray closing brackets, more members of a root object that closed
//! early, more values (read as an array), a closing code fence.
//!
//! **Reads:** `after = [","] { "]" | "}" } [ members "}" ] { value } ["```"]`
//!
//! **Repairs:** `DroppedIncomplete`, `ExtraBracket`, `ExtraComma`,
//! `JsonLines`, `MultipleValues`.

use serde_json::Value;

use crate::repair::lookahead::member_start;
use crate::repair::{Context, Failure, Parser, Repair, RepairKind, Step};

impl<'a> Parser<'a> {
    /// What models add after the root value (see [`parse_lenient`]).
    pub(super) fn after_root(&mut self, mut value: Value) -> Result<Value, Failure> {
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
}
