//! The repair parser's unquoted strings: text with no quotes at all, ended
//! where the context says (a comma, a closer, a line break, the next key).
//!
//! **Reads:** `unquoted = { char but what ends the context }`
//!
//! **Repairs:** `MissingQuote`.

use serde_json::Value;

use crate::repair::lookahead::{LITERALS, after_blank, member_start, window};
use crate::repair::{Context, Failure, Parser, RepairKind, Step};

impl<'a> Parser<'a> {
    /// Text without quotes from `start`, up to what ends a value in
    /// `context` (see the crate README).
    pub(super) fn unquoted(
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
