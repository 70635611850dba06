//! The repair parser's escapes inside strings: JSON's and JSON5's, and the
//! invalid ones models write (`\\x41`, `\\u00e`, a lone backslash).
//!
//! **Reads:** `escape = "\\" ( one of `"\\/bfnrt'` | "u" 4 hex | "x" 2 hex | line break | other )`
//!
//! **Repairs:** `InvalidEscape`.

use crate::repair::lookahead::is_quote;
use crate::repair::{Parser, RepairKind};

impl<'a> Parser<'a> {
    /// Reads the escape after a `\` at `at` into `out`; `false` when the
    /// input ends inside it.
    pub(super) fn escape(&mut self, out: &mut String, at: usize, open: char) -> bool {
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
    pub(super) fn bad_hex(&mut self, out: &mut String, at: usize) -> bool {
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

    pub(super) fn hex(&mut self, digits: usize) -> Option<u32> {
        let code = self
            .rest()
            .get(..digits)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|h| u32::from_str_radix(h, 16).ok())?;
        self.pos += digits;
        Some(code)
    }
}
