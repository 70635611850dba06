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
//!
//! The parser's machine (cursor, depth guard, blanks and comments, the
//! record of repairs) is here; each construct is a file that adds its
//! methods to [`Parser`], headed by what it reads and the repairs it
//! records:
//!
//! | file | reads |
//! |---|---|
//! | `value.rs` | the dispatch on a value's first character; concatenation, regex literals, words, calls |
//! | `object.rs` | objects, members, keys, `...` |
//! | `array.rs` | arrays and tuples |
//! | `after_root.rs` | what models add after the root value |
//! | `string.rs` | strings, quotes of every kind, a missing closing quote |
//! | `escape.rs` | escapes inside strings |
//! | `number.rs` | numbers, and numbers written as text |
//! | `unquoted.rs` | unquoted strings |
//! | `lookahead.rs` | the predicates over the text ahead (the one place that slices ahead of the cursor) |

mod after_root;
mod array;
mod escape;
mod lookahead;
mod number;
mod object;
mod string;
mod unquoted;
mod value;

use serde_json::Value;

pub(crate) use crate::answer::MAX_DEPTH;
pub(crate) use crate::repair::lookahead::blank_len;
use crate::repair::lookahead::next_blank;

pub use crate::repair_kind::{Repair, RepairKind};

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
        while let Some((len, repair)) = next_blank(self.rest()) {
            if let Some(kind) = repair {
                self.repair(kind, self.pos);
            }
            self.pos += len;
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
}

#[cfg(test)]
mod tests;
