//! Numbers read from text where a schema wants a number or an integer, as
//! JavaScript's `parseFloat` and `parseInt` read them: text that is a whole
//! number keeps its value; otherwise the number the text starts with is
//! read and the rest dropped (`"12px"` → 12), and an integer loses its
//! fraction (`"3.7"` → 3). Each lossy reading is named by its rule so the
//! change can say what was dropped.

use serde_json::Value;

use crate::coercion::CoercionRule;

/// Beyond this, a float's integral value is not exact as an `i64`.
const EXACT_INTEGER: f64 = 9.0e15;

/// `text` read as a number (or, with `integer`, an integer), with the rule
/// that read it: [`CoercionRule::NumberFromString`] when the whole text is
/// the number, [`CoercionRule::TruncateToInteger`] when an integer lost its
/// fraction, [`CoercionRule::LeadingNumber`] when only a leading part of the
/// text was a number. `None` when the text does not start with one.
pub(crate) fn read_number(text: &str, integer: bool) -> Option<(Value, CoercionRule)> {
    let trimmed = text.trim();
    let whole = trimmed
        .parse::<f64>()
        .ok()
        .filter(|n| n.is_finite() && is_decimal_literal(trimmed));
    if let Some(n) = whole {
        if let Some(exact) = integral(n, trimmed) {
            return Some((exact, CoercionRule::NumberFromString));
        }
        if !integer {
            return Some((float(n)?, CoercionRule::NumberFromString));
        }
        // parseInt stops at the point: the fraction goes.
        return Some((integral(n.trunc(), "")?, CoercionRule::TruncateToInteger));
    }
    let start = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let value = if integer {
        let digits = leading_integer(start)?;
        integral(digits.parse().ok()?, digits)?
    } else {
        let n = leading_float(start)?;
        integral(n, "").or_else(|| float(n))?
    };
    Some((value, CoercionRule::LeadingNumber))
}

/// Whether `s` is written as a decimal number (Rust's float parser also
/// takes `inf` and `NaN`, which JSON has no value for).
fn is_decimal_literal(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'e' | b'E'))
}

/// `n` as a JSON integer when it has no fraction: exactly from the digits
/// in `digits` when they are a plain integer (no precision lost past 2^53),
/// else from the float while it is exact.
fn integral(n: f64, digits: &str) -> Option<Value> {
    if let Ok(i) = digits.parse::<i64>() {
        return Some(Value::from(i));
    }
    if let Ok(u) = digits.parse::<u64>() {
        return Some(Value::from(u));
    }
    if n.fract() != 0.0 || !n.is_finite() {
        return None;
    }
    if n.abs() < EXACT_INTEGER {
        // In range and integral: the cast is exact.
        #[allow(clippy::cast_possible_truncation)]
        return Some(Value::from(n as i64));
    }
    float(n)
}

fn float(n: f64) -> Option<Value> {
    serde_json::Number::from_f64(n).map(Value::Number)
}

/// The decimal number `s` starts with, as `parseFloat` reads it: a sign,
/// digits with an optional point and fraction (or a point and a fraction),
/// an optional exponent. `None` when `s` does not start with one or it is
/// not finite.
fn leading_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut end = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |from: usize| {
        b.get(from..).map_or(0, |rest| {
            rest.iter().take_while(|c| c.is_ascii_digit()).count()
        })
    };
    let int = digits(end);
    end += int;
    let mut frac = 0;
    if b.get(end) == Some(&b'.') {
        frac = digits(end + 1);
        if int > 0 || frac > 0 {
            end += 1 + frac;
        }
    }
    if int == 0 && frac == 0 {
        return None;
    }
    if matches!(b.get(end), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(b.get(end + 1), Some(b'+' | b'-')));
        let exp = digits(end + 1 + sign);
        if exp > 0 {
            end += 1 + sign + exp;
        }
    }
    s.get(..end)?.parse::<f64>().ok().filter(|n| n.is_finite())
}

/// The integer `s` starts with, as `parseInt(s, 10)` reads it: a sign and
/// decimal digits.
fn leading_integer(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    let sign = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let count = b.get(sign..).map_or(0, |rest| {
        rest.iter().take_while(|c| c.is_ascii_digit()).count()
    });
    if count == 0 {
        return None;
    }
    s.get(..sign + count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn number(s: &str) -> Option<(Value, CoercionRule)> {
        read_number(s, false)
    }

    fn integer(s: &str) -> Option<(Value, CoercionRule)> {
        read_number(s, true)
    }

    #[test]
    fn whole_numbers_keep_their_value() {
        use CoercionRule::NumberFromString as Whole;
        assert_eq!(number("12"), Some((json!(12), Whole)));
        assert_eq!(number(" -3.5 "), Some((json!(-3.5), Whole)));
        assert_eq!(number("1e3"), Some((json!(1000), Whole)));
        assert_eq!(number(".5"), Some((json!(0.5), Whole)));
        assert_eq!(integer("3.0"), Some((json!(3), Whole)));
        assert_eq!(integer("1e3"), Some((json!(1000), Whole)));
        assert_eq!(
            integer("12345678901234567890"),
            Some((json!(12_345_678_901_234_567_890_u64), Whole))
        );
    }

    #[test]
    fn leading_numbers_as_parse_float_and_parse_int_read_them() {
        use CoercionRule::LeadingNumber as Leading;
        assert_eq!(number("12px"), Some((json!(12), Leading)));
        assert_eq!(number("3.5 kg"), Some((json!(3.5), Leading)));
        assert_eq!(number("-.5e-1x"), Some((json!(-0.05), Leading)));
        assert_eq!(number("1e"), Some((json!(1), Leading)));
        assert_eq!(number("5.x"), Some((json!(5), Leading)));
        assert_eq!(number("0x10"), Some((json!(0), Leading)));
        assert_eq!(number("\u{feff} 7 days"), Some((json!(7), Leading)));
        assert_eq!(integer("12px"), Some((json!(12), Leading)));
        assert_eq!(integer("3.7px"), Some((json!(3), Leading)));
        assert_eq!(integer("+4 items"), Some((json!(4), Leading)));
    }

    #[test]
    fn integers_lose_their_fraction() {
        use CoercionRule::TruncateToInteger as Truncated;
        assert_eq!(integer("3.7"), Some((json!(3), Truncated)));
        assert_eq!(integer("-3.7"), Some((json!(-3), Truncated)));
        assert_eq!(integer("0.5"), Some((json!(0), Truncated)));
    }

    #[test]
    fn text_that_does_not_start_with_a_number_is_not_one() {
        for s in [
            "", "abc", "px12", ".", "-", "+.", "e5", "Infinity", "NaN", "inf",
        ] {
            assert_eq!(number(s), None, "{s:?}");
            assert_eq!(integer(s), None, "{s:?}");
        }
        // JSON has no infinity; parseInt reads the digits before the `e`.
        assert_eq!(number("1e999"), None);
        assert_eq!(
            integer("1e999"),
            Some((json!(1), CoercionRule::LeadingNumber))
        );
    }
}
