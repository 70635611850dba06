//! A cheap guard for recursive JSON parsers.

/// The byte offset of the first `[` or `{` that takes bracket nesting past
/// `limit`, reading `text` with JSON5's lexical rules (double- and
/// single-quoted strings with `\` escapes, `//` and `/* */` comments); `None`
/// when the nesting stays within `limit`.
///
/// Recursive parsers such as `json5` overflow the stack (a process abort,
/// not an error) on very deep input, so callers run this first. The scan
/// never counts fewer brackets than a JSON5 parser would open: a string that
/// runs into a line break ends there, so whatever follows is counted.
///
/// ```
/// use flexmd_core::json_nesting_exceeds;
/// assert_eq!(json_nesting_exceeds("[[1], {\"a\": [2]}]", 3), None);
/// assert_eq!(json_nesting_exceeds("[[[1]]]", 2), Some(2));
/// assert_eq!(json_nesting_exceeds("['[[[', /* [[[ */ 1]", 1), None);
/// // An apostrophe in a comment does not hide the brackets after it.
/// assert_eq!(json_nesting_exceeds("// don't\n[[[", 2), Some(11));
/// ```
pub fn json_nesting_exceeds(text: &str, limit: usize) -> Option<usize> {
    let mut depth = 0usize;
    scan_code(text, |_, b| match b {
        b'[' | b'{' => {
            depth += 1;
            depth > limit
        }
        b']' | b'}' => {
            depth = depth.saturating_sub(1);
            false
        }
        _ => false,
    })
}

/// How deep flexmd lets JSON data nest: what `serde_json` parses by
/// default, what the JSON finder repairs, what schema validation walks, and
/// what the Python and JavaScript bindings take from their callers' data
/// (deeper data is an error there, never a stack overflow).
pub const MAX_JSON_DEPTH: usize = 128;

/// The most values (the root, every array element and every object member,
/// containers included) that flexmd builds from one JSON text. A parsed
/// value costs 100–300 bytes of memory whatever its text (an `[1]` is three
/// bytes of text and two values), so this, not the text's size, bounds the
/// memory of a parse: about 600 MB at worst, and 20–50 MB of typical JSON
/// stays under it.
pub const MAX_JSON_VALUES: usize = 2_000_000;

/// The byte offset of the bracket or comma at which `text` holds more than
/// `limit` values, read with the lexical rules of [`json_nesting_exceeds`]
/// (a value per `[`, `{` or `,` outside strings and comments, plus the
/// root: never fewer than a JSON or JSON5 parser builds); `None` when it
/// holds at most `limit`. A text of at most `limit` bytes cannot hold more
/// and is not read.
///
/// ```
/// use flexmd_core::json_values_exceed;
/// assert_eq!(json_values_exceed("[1, 2, [3]]", 5), None);
/// assert_eq!(json_values_exceed("[1, 2, [3]]", 4), Some(7));
/// assert_eq!(json_values_exceed("[\"a,b,c\", 2]", 3), None);
/// ```
pub fn json_values_exceed(text: &str, limit: usize) -> Option<usize> {
    if text.len() <= limit {
        return None;
    }
    let mut values = 1usize;
    scan_code(text, |_, b| {
        if matches!(b, b'[' | b'{' | b',') {
            values += 1;
        }
        values > limit
    })
}

/// Calls `stop` on each byte outside strings and comments (JSON5's lexical
/// rules); the offset of the first byte it returns true for.
fn scan_code(text: &str, mut stop: impl FnMut(usize, u8) -> bool) -> Option<usize> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Code,
        Str(u8),
        Escape(u8),
        LineComment,
        BlockComment,
    }
    let bytes = text.as_bytes();
    let mut state = State::Code;
    let mut i = 0usize;
    while let Some(&b) = bytes.get(i) {
        let next = bytes.get(i + 1).copied();
        state = match state {
            State::Code => match b {
                b'"' | b'\'' => State::Str(b),
                b'/' if next == Some(b'/') => {
                    i += 1;
                    State::LineComment
                }
                b'/' if next == Some(b'*') => {
                    i += 1;
                    State::BlockComment
                }
                _ => {
                    if stop(i, b) {
                        return Some(i);
                    }
                    State::Code
                }
            },
            State::Str(quote) => match b {
                b'\\' => State::Escape(quote),
                b'\n' | b'\r' => State::Code,
                _ if b == quote => State::Code,
                _ => State::Str(quote),
            },
            State::Escape(quote) => State::Str(quote),
            State::LineComment => {
                if b == b'\n' || b == b'\r' || is_line_separator(bytes, i) {
                    State::Code
                } else {
                    State::LineComment
                }
            }
            State::BlockComment => {
                if b == b'*' && next == Some(b'/') {
                    i += 1;
                    State::Code
                } else {
                    State::BlockComment
                }
            }
        };
        i += 1;
    }
    None
}

/// U+2028 or U+2029 (JSON5 line terminators) starting at `i`.
fn is_line_separator(bytes: &[u8], i: usize) -> bool {
    matches!(
        bytes.get(i..i + 3),
        Some([0xE2, 0x80, 0xA8]) | Some([0xE2, 0x80, 0xA9])
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_end_at_line_breaks_so_nothing_is_under_counted() {
        assert_eq!(json_nesting_exceeds("\"open\n[[", 1), Some(7));
        assert_eq!(json_nesting_exceeds("'a\\'[' [[", 1), Some(8));
        assert_eq!(json_nesting_exceeds("// c\u{2028}[[", 1), Some(8));
        assert_eq!(json_nesting_exceeds("/* never closed [[[[", 1), None);
    }

    #[test]
    fn deep_input_is_found_in_one_pass() {
        let deep = "[".repeat(100_000);
        assert_eq!(json_nesting_exceeds(&deep, 128), Some(128));
        assert_eq!(json_nesting_exceeds("", 0), None);
        assert_eq!(json_nesting_exceeds("[]", 0), Some(0));
    }

    #[test]
    fn values_are_counted_outside_strings_and_comments() {
        // Six values: the array and five numbers; the third is reached
        // at the first comma.
        assert_eq!(json_values_exceed("[1,2,3,4,5]", 2), Some(2));
        assert_eq!(json_values_exceed("[1,2,3,4,5]", 5), Some(8));
        assert_eq!(json_values_exceed("[1,2,3,4,5]", 6), None);
        assert_eq!(json_values_exceed("['a,b,c,d,e', 1]", 3), None);
        assert_eq!(json_values_exceed("// a,b,c,d,e\n[1]", 2), None);
        assert_eq!(json_values_exceed("[[[[[[[[]]]]]]]]", 8), Some(7));
        // No longer than the limit: cannot exceed it, not read.
        assert_eq!(json_values_exceed(",,,", 3), None);
        assert_eq!(json_values_exceed(",,,,", 3), Some(2));
    }
}
