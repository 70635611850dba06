//! The repair parser's numbers: JSON5's (hex, a leading `+` or `.`,
//! `Infinity`, `NaN`), digit separators, numbers written as text
//! (`1,250,000`, `5 km`, a phone number) read as strings.
//!
//! **Reads:** `number = ["+"|"-"] ( digits ["." digits] [exponent] | "0x" hex | "Infinity" | "NaN" ) [unit]`
//!
//! **Repairs:** `DigitSeparator`, `FormattedNumber`, `NonFiniteNumber`,
//! `NumberAsString`.

use serde_json::{Number, Value};

use crate::repair::lookahead::{after_blank, digit_run, ends_number, is_key_char, member_start};
use crate::repair::{Context, Failure, Parser, RepairKind, Step};

impl<'a> Parser<'a> {
    pub(super) fn number(&mut self, context: Context) -> Result<Step, Failure> {
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
    pub(super) fn not_a_number(
        &mut self,
        start: usize,
        at: usize,
        context: Context,
    ) -> Result<Step, Failure> {
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
}

pub(super) fn float_value(f: f64) -> Value {
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

pub(super) fn hex_digit(d: u8) -> u8 {
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
pub(super) fn formatted(rest: &str, len: usize, context: Context) -> bool {
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
