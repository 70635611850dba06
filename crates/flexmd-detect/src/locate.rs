//! Where a JSON Pointer's value is written in a JSON text, so a schema
//! violation can name a line and column of the model's answer.

/// The byte offset in `text` where the value at `pointer` (RFC 6901, `""`
/// for the root) starts; for a pointer that goes past what is written (a
/// missing property), the start of the deepest value that is there.
///
/// `text` is JSON as a model wrote it: strict JSON, JSON5 (comments,
/// single-quoted or bare keys, trailing commas) and most broken JSON is
/// walked the same way, without building values; the walk is iterative, so
/// nesting depth costs no stack. `None` when `text` holds no value at all.
///
/// ```
/// use flexmd_detect::locate_pointer;
/// let text = "{\n  \"files\": [\n    {\"path\": \"a.rs\", \"purpose\": 3}\n  ]\n}";
/// let at = locate_pointer(text, "/files/0/purpose").unwrap();
/// assert_eq!(&text[at..at + 1], "3");
/// // A missing property: where its object starts.
/// let at = locate_pointer(text, "/files/0/owner").unwrap();
/// assert_eq!(&text[at..at + 9], "{\"path\": ");
/// ```
pub fn locate_pointer(text: &str, pointer: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = skip_blank(bytes, 0);
    if at >= bytes.len() {
        return None;
    }
    let tokens = pointer
        .strip_prefix('/')
        .map(|rest| rest.split('/').map(unescape).collect::<Vec<_>>())
        .unwrap_or_default();
    for token in &tokens {
        let found = match bytes.get(at) {
            Some(b'{') => find_member(bytes, at + 1, token),
            Some(b'[') => token
                .parse::<usize>()
                .ok()
                .and_then(|n| find_element(bytes, at + 1, n)),
            _ => None,
        };
        match found {
            Some(next) => at = next,
            None => break,
        }
    }
    Some(at)
}

/// A pointer token with `~1` and `~0` decoded.
fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// The offset of the first byte after `at` that is neither white space nor
/// inside a comment.
fn skip_blank(bytes: &[u8], mut at: usize) -> usize {
    loop {
        match (bytes.get(at), bytes.get(at + 1)) {
            (Some(b), _) if b.is_ascii_whitespace() => at += 1,
            (Some(b'/'), Some(b'/')) => {
                at = memchr::memchr(b'\n', bytes.get(at..).unwrap_or_default())
                    .map_or(bytes.len(), |n| at + n + 1);
            }
            (Some(b'/'), Some(b'*')) => {
                at = memchr::memmem::find(bytes.get(at + 2..).unwrap_or_default(), b"*/")
                    .map_or(bytes.len(), |n| at + 2 + n + 2);
            }
            _ => return at,
        }
    }
}

/// The offset just after the string starting at `at` (its quote).
fn skip_string(bytes: &[u8], at: usize) -> usize {
    let quote = bytes.get(at).copied().unwrap_or(b'"');
    let mut i = at + 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 2,
            b'\n' => return i,
            _ if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The offset just after the value starting at `at`: a string, a container
/// (bracket depth counted, strings skipped) or a scalar.
fn skip_value(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at) {
        Some(b'"' | b'\'') => skip_string(bytes, at),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut i = at;
            while let Some(&b) = bytes.get(i) {
                match b {
                    b'"' | b'\'' => {
                        i = skip_string(bytes, i);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return i + 1;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            bytes.len()
        }
        _ => {
            let mut i = at;
            while let Some(&b) = bytes.get(i) {
                if matches!(b, b',' | b'}' | b']' | b'\n') {
                    break;
                }
                i += 1;
            }
            i
        }
    }
}

/// The offset of the value of member `key` in the object whose members start
/// at `at`, or `None` when it has none.
fn find_member(bytes: &[u8], mut at: usize, key: &str) -> Option<usize> {
    loop {
        at = skip_blank(bytes, at);
        let (name, after) = match bytes.get(at)? {
            b'}' => return None,
            b',' => {
                at += 1;
                continue;
            }
            b'"' | b'\'' => {
                let end = skip_string(bytes, at);
                let raw = bytes.get(at + 1..end.saturating_sub(1)).unwrap_or_default();
                (decode_key(raw), end)
            }
            _ => {
                let mut end = at;
                while bytes
                    .get(end)
                    .is_some_and(|&b| !matches!(b, b':' | b'}' | b',') && !b.is_ascii_whitespace())
                {
                    end += 1;
                }
                let raw = bytes.get(at..end).unwrap_or_default();
                (String::from_utf8_lossy(raw).into_owned(), end.max(at + 1))
            }
        };
        at = skip_blank(bytes, after);
        if bytes.get(at) == Some(&b':') {
            at = skip_blank(bytes, at + 1);
        }
        if name == key {
            // A key cut off at the end of the text has no value written.
            return (at < bytes.len()).then_some(at);
        }
        let end = skip_value(bytes, at);
        at = end.max(at + 1);
    }
}

/// A quoted key's text with the common escapes decoded (`\"`, `\\`, `\/`,
/// `\uXXXX`); anything else is kept as written.
fn decode_key(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    if !text.contains('\\') {
        return text.into_owned();
    }
    serde_json::from_str::<String>(&format!("\"{text}\"")).unwrap_or_else(|_| text.into_owned())
}

/// The offset of element `n` of the array whose elements start at `at`.
fn find_element(bytes: &[u8], mut at: usize, n: usize) -> Option<usize> {
    let mut index = 0;
    loop {
        at = skip_blank(bytes, at);
        match bytes.get(at)? {
            b']' | b'}' => return None,
            b',' => {
                at += 1;
                continue;
            }
            _ if index == n => return Some(at),
            _ => {
                at = skip_value(bytes, at).max(at + 1);
                index += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    #[test]
    fn a_key_cut_off_at_the_end_points_at_its_object() {
        // Found by proptest: an unclosed `"` read as the key "" at the end.
        assert_eq!(super::locate_pointer("{\"", "/"), Some(0));
        assert_eq!(super::locate_pointer("{\"a\":", "/a"), Some(0));
    }

    use super::locate_pointer;

    fn at<'t>(text: &'t str, pointer: &str) -> &'t str {
        let start = locate_pointer(text, pointer).unwrap();
        let rest = &text[start..];
        &rest[..rest.len().min(6)]
    }

    #[test]
    fn strict_json() {
        let text = r#"{"a": {"b~c": [10, {"d/e": "x"}], "s": "q\"}"}, "z": null}"#;
        assert_eq!(at(text, ""), r#"{"a": "#);
        assert_eq!(at(text, "/a/b~0c/0"), "10, {\"");
        assert_eq!(at(text, "/a/b~0c/1/d~1e"), "\"x\"}],");
        assert_eq!(at(text, "/z"), "null}");
        // Past what is written: the deepest value found.
        assert_eq!(at(text, "/a/b~0c/7"), "[10, {");
        assert_eq!(at(text, "/a/s/deeper"), "\"q\\\"}\"");
    }

    #[test]
    fn json5_and_broken_json() {
        let text = "{\n  // note\n  name: 'x', /* c */ tags: ['a', 'b',],\n  \"n\": 1,\n}";
        assert_eq!(at(text, "/tags/1"), "'b',],");
        assert_eq!(at(text, "/n"), "1,\n}");
        assert_eq!(at("{\"a\": [1, 2", "/a/1"), "2");
        assert_eq!(locate_pointer("   ", ""), None);
    }

    #[test]
    fn deep_nesting_costs_no_stack() {
        let text = format!("{}1{}", "[".repeat(200_000), "]".repeat(200_000));
        let pointer = "/0".repeat(200_000);
        assert_eq!(locate_pointer(&text, &pointer), Some(200_000));
        assert_eq!(locate_pointer(&text, "/1"), Some(0));
    }
}
