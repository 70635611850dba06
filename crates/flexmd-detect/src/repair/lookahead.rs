//! The repair parser's look-ahead: pure predicates over the text after the
//! cursor, each reading at most [`LOOKAHEAD`] bytes of it (`window`). Every
//! decision that looks ahead goes through here, so the parser stays
//! linear: each byte is looked at a bounded number of times.
//!
//! A leaf: it imports nothing of `repair/`.

use crate::repair_kind::RepairKind;

/// How far a decision looks ahead, in bytes.
pub(super) const LOOKAHEAD: usize = 512;

/// The words a value may be (in JSON, JSON5, Python or JavaScript).
pub(super) const LITERALS: [&str; 9] = [
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

/// The blank piece `rest` starts with (whitespace, a comment) and the
/// repair reading it needs, if any; `None` where a value or a delimiter
/// starts. A `/*` comment the text ends inside runs to the end.
#[inline]
pub(super) fn next_blank(rest: &str) -> Option<(usize, Option<RepairKind>)> {
    let c = rest.chars().next()?;
    if c.is_whitespace() || c == '\u{feff}' {
        Some((c.len_utf8(), None))
    } else if is_special_space(c) {
        Some((c.len_utf8(), Some(RepairKind::SpecialWhitespace)))
    } else if rest.starts_with("//") || c == '#' {
        let len = rest
            .find(['\n', '\r', '\u{2028}', '\u{2029}'])
            .unwrap_or(rest.len());
        Some((len, (c == '#').then_some(RepairKind::HashComment)))
    } else {
        rest.strip_prefix("/*").map(|body| match body.find("*/") {
            Some(i) => (2 + i + 2, None),
            None => (rest.len(), Some(RepairKind::UnclosedComment)),
        })
    }
}

/// The length of the whitespace (JSON5's, i.e. Unicode's, the BOM, and
/// zero-width spaces) and comments (`//`, `/* */`, `#`) `text` starts with,
/// and the offset of a `/*` comment that the text ends inside.
pub(crate) fn blank_len(text: &str) -> (usize, Option<usize>) {
    let mut at = 0;
    let mut unclosed = None;
    while let Some((len, repair)) = text.get(at..).and_then(next_blank) {
        if repair == Some(RepairKind::UnclosedComment) {
            unclosed.get_or_insert(at);
        }
        at += len;
    }
    (at, unclosed)
}

/// Where the run of closing brackets, whitespace, `;` and backticks that
/// ends `text` starts (at its first bracket or backtick), or `text.len()`
/// when there is no bracket in that run.
#[inline]
pub(super) fn closing_tail(text: &str) -> usize {
    let trimmed = text
        .trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '}' | ']' | ')' | '`' | ';'));
    let run = text.get(trimmed.len()..).unwrap_or_default();
    match run.find(['}', ']', '`']) {
        Some(i) if run.contains(['}', ']']) => trimmed.len() + i,
        _ => text.len(),
    }
}

/// At most [`LOOKAHEAD`] bytes of `text`, cut at a character boundary.
#[inline]
pub(super) fn window(text: &str) -> &str {
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
#[inline]
pub(super) fn after_blank(text: &str) -> &str {
    let w = window(text);
    let (gap, _) = blank_len(w);
    if gap >= w.len() && text.len() > w.len() {
        // Blanks past the look-ahead: treat as the end.
        return "";
    }
    text.get(gap..).unwrap_or_default()
}

/// Zero-width and other spaces JSON5 does not count as whitespace.
#[inline]
pub(super) fn is_special_space(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{180e}')
}

/// Whether `text` starts with a key that lost its opening quote: key
/// characters, a quote, then a colon (`age": 36`).
#[inline]
pub(super) fn key_then_colon(text: &str) -> bool {
    let w = window(text);
    let word = w.find(|c: char| !is_key_char(c)).unwrap_or(0);
    let after = w.get(word..).unwrap_or_default();
    word > 0
        && after.starts_with('"')
        && after_blank(after.get(1..).unwrap_or_default()).starts_with(':')
}

/// The length of a Python string prefix (`u`, `b`, `r`, `rb`, `br`, any
/// case) right before a quote at the start of `rest`.
#[inline]
pub(super) fn string_prefix_len(rest: &str) -> Option<usize> {
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

#[inline]
pub(super) fn digit_run(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|b| b.is_ascii_digit()).count()
}

#[inline]
pub(super) fn is_quote(c: char) -> bool {
    matches!(c, '"' | '\'' | '“' | '”' | '‘' | '„')
}

/// A character of an unquoted key or word: anything but blanks,
/// punctuation JSON gives meaning to, and quotes.
#[inline]
pub(super) fn is_key_char(c: char) -> bool {
    !(c.is_whitespace()
        || is_special_space(c)
        || is_quote(c)
        || matches!(
            c,
            ':' | ',' | '{' | '}' | '[' | ']' | '(' | ')' | '/' | '#' | '’' | '\\' | '`' | ';'
        ))
}

#[inline]
pub(super) fn is_identifier_char(c: char) -> bool {
    c == '_' || c == '$' || c.is_alphanumeric()
}

#[inline]
pub(super) fn identifier_len(text: &str) -> usize {
    text.find(|c: char| !is_identifier_char(c))
        .unwrap_or(text.len())
}

/// Whether a number may end where `rest` starts.
#[inline]
pub(super) fn ends_number(rest: &str) -> bool {
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
#[inline]
pub(super) fn ends_literal(rest: &str) -> bool {
    ends_number(rest) || rest.starts_with(':')
}

/// Whether `text` starts with a value: a bracket, a quote, a number or one
/// of the literal words (or its start, at the end of the input).
#[inline]
pub(super) fn starts_value_at(text: &str) -> bool {
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
#[inline]
pub(super) fn member_start(text: &str) -> bool {
    let Some(c) = text.chars().next() else {
        return false;
    };
    if is_quote(c) {
        return quoted_member_start(text, c);
    }
    bare_member_len(text).is_some()
}

/// `key:` at the start of `text`: the length up to and with the colon.
#[inline]
pub(super) fn bare_member_len(text: &str) -> Option<usize> {
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
#[inline]
pub(super) fn bare_member_with_string(text: &str) -> bool {
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
#[inline]
pub(super) fn quoted_member_start(text: &str, quote: char) -> bool {
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
#[inline]
pub(super) fn plain_run(rest: &str, quote: u8) -> usize {
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

    #[test]
    fn the_closing_tail() {
        assert_eq!(closing_tail("{\"a\": \"b]} \n"), 8);
        assert_eq!(closing_tail("{\"a\": \"b}```"), 8);
        assert_eq!(closing_tail("{\"a\": \"b"), 8);
        assert_eq!(closing_tail("abc```"), 6);
    }
}
