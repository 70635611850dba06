//! JSON in prose: the regions outside fences, the values that start there
//! (objects and arrays only where they look like data), where a quotation
//! closes (README rule 5).

use flexmd_core::MAX_JSON_VALUES;
use serde_json::{Map, Value};

use crate::find::found::{FoundJson, found_at, with_limit};
use crate::ladder::{JsonMethod, Leniency, ParsedJson, parse_json, parse_within};
use crate::repair::{blank_len, parse_lenient};

/// Objects and arrays in `text[start..end]`, left to right, without overlap.
///
/// Each `{` or `[` is tried in turn; work on failed tries is capped (a few
/// passes over the region), so hostile text stays linear.
///
/// At most `most` values are read (it counts down): [`find_json`] looks at
/// [`PROSE_VALUES_READ`] values in the prose at the most.
pub(crate) fn prose_values(
    text: &str,
    start: usize,
    end: usize,
    most: &mut usize,
    left: &mut usize,
) -> Vec<FoundJson> {
    let region = text.get(..end).unwrap_or_default();
    let whole = region.get(start..).unwrap_or_default().trim();
    let mut budget = 8 * (end - start) + 65_536;
    let mut found = Vec::new();
    let mut at = start;
    let mut quotes = Quotation::at(start);
    while let Some(i) = region.get(at..).and_then(|r| r.find(['{', '['])) {
        let open = at + i;
        if *left == 0 {
            break;
        }
        match parse_lenient(region, open, false, *left) {
            // A bracket inside a quotation in the prose (`the log said
            // "{code: 28" means …`) starts a value only as written: one it
            // takes repairs to read would swallow the text after the
            // quotation.
            Ok(l) if !l.repairs.is_empty() && quotes.inside(region, open) => {
                budget = budget.saturating_sub(l.end - open);
                at = open + 1;
            }
            Ok(mut l) => {
                let slice = region.get(open..l.end).unwrap_or_default();
                let counts = slice.len() == whole.len()
                    || (holds_something(&l.value) && looks_like_data(slice, &l.value));
                // Strict JSON as the lenient reading found it (no repairs):
                // its value is the one strict reading would build, so the
                // slice is only checked, not read twice.
                let strict = l.repairs.is_empty()
                    && serde_json::from_str::<serde::de::IgnoredAny>(slice).is_ok();
                let parsed = if !counts {
                    None
                } else if strict {
                    Some(ParsedJson {
                        value: std::mem::take(&mut l.value),
                        method: JsonMethod::Strict,
                        repairs: Vec::new(),
                    })
                } else {
                    parse_within(slice, Leniency::Repair, *left)
                        .ok()
                        .map(|(parsed, _)| parsed)
                };
                if let Some(parsed) = parsed {
                    // The lenient reading of the same text counted its values.
                    *left = left.saturating_sub(l.values);
                    found.push(found_at(open, l.end, with_limit(parsed, &l, open)));
                    *most = most.saturating_sub(1);
                    if *most == 0 {
                        break;
                    }
                    at = l.end;
                    continue;
                }
                budget = budget.saturating_sub(l.end - open);
                at = open + 1;
            }
            Err(f) => {
                budget = budget.saturating_sub(f.offset.saturating_sub(open) + 1);
                // Nothing inside a too-deep value is tried on its own.
                at = if f.too_deep {
                    closing_end(region, open)
                } else {
                    open + 1
                };
            }
        }
        if budget == 0 {
            break;
        }
    }
    found
}

/// The quotes seen so far on the current line of the prose, counted as the
/// search moves forward (each byte once).
pub(crate) struct Quotation {
    pub(crate) counted_to: usize,
    pub(crate) straight: usize,
    pub(crate) opening: usize,
    pub(crate) closing: usize,
}

impl Quotation {
    fn at(start: usize) -> Self {
        Self {
            counted_to: start,
            straight: 0,
            opening: 0,
            closing: 0,
        }
    }

    /// Whether `open` (at or after the last place asked) is inside a
    /// quotation: more opening than closing quotes before it on its line
    /// (`"` counted in pairs, `“` against `”`).
    fn inside(&mut self, text: &str, open: usize) -> bool {
        if let Some(seen) = text.get(self.counted_to..open) {
            for c in seen.chars() {
                match c {
                    '\n' => (self.straight, self.opening, self.closing) = (0, 0, 0),
                    '"' => self.straight += 1,
                    '“' => self.opening += 1,
                    '”' => self.closing += 1,
                    _ => {}
                }
            }
            self.counted_to = open;
        }
        self.straight % 2 == 1 || self.opening > self.closing
    }
}

/// The offset just after the bracket that closes the one at `open` (or the
/// end of `text`), skipping strings and comments as JSON5 reads them.
pub(crate) fn closing_end(text: &str, open: usize) -> usize {
    let mut depth = 0usize;
    let mut at = open;
    let bytes = text.as_bytes();
    while let Some(&b) = bytes.get(at) {
        match b {
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return at + 1;
                }
            }
            b'"' | b'\'' => {
                // To the closing quote or the end of the line, whichever first.
                let rest = text.get(at + 1..).unwrap_or_default();
                let mut escaped = false;
                let len = rest
                    .bytes()
                    .position(|c| {
                        let end = !escaped && (c == b || c == b'\n');
                        escaped = !escaped && c == b'\\';
                        end
                    })
                    .unwrap_or(rest.len());
                at += len + 1;
            }
            b'/' => at += blank_len(text.get(at..).unwrap_or_default()).0.max(1) - 1,
            _ => {}
        }
        at += 1;
    }
    text.len()
}

/// The first empty object in `text[start..end]`: the last resort of
/// [`find_json`] (`stringbeforeobject {}`).
pub(crate) fn first_object(text: &str, start: usize, end: usize) -> Option<FoundJson> {
    let region = text.get(..end)?;
    let mut at = start;
    let mut tries = 0;
    while let Some(i) = region.get(at..).and_then(|r| r.find('{')) {
        let open = at + i;
        tries += 1;
        if tries > 64 {
            return None;
        }
        if let Ok(l) = parse_lenient(region, open, false, MAX_JSON_VALUES)
            && l.value.as_object().is_some_and(Map::is_empty)
            && let Ok(parsed) = parse_json(region.get(open..l.end)?, Leniency::Repair)
        {
            return Some(found_at(open, l.end, parsed));
        }
        at = open + 1;
    }
    None
}

/// Whether a bracketed stretch of prose reads as data, not as words in
/// brackets: it holds a quote, a colon or a comma, and when nothing in it is
/// quoted, no string has a space (`{k: v for k in ks}` is code).
pub(crate) fn looks_like_data(slice: &str, value: &Value) -> bool {
    fn spaced_string(value: &Value) -> bool {
        match value {
            Value::String(s) => s.contains(char::is_whitespace),
            Value::Array(items) => items.iter().any(spaced_string),
            Value::Object(map) => map.values().any(spaced_string),
            _ => false,
        }
    }
    let quoted = slice.contains(['"', '\'', '“', '”', '‘', '’']);
    quoted || (slice.contains([':', ',']) && !spaced_string(value))
}

/// An object with a member, or an array with a string, array or object.
pub(crate) fn holds_something(value: &Value) -> bool {
    match value {
        Value::Object(map) => !map.is_empty(),
        Value::Array(items) => items
            .iter()
            .any(|v| matches!(v, Value::String(_) | Value::Array(_) | Value::Object(_))),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closing_end_skips_strings_and_comments() {
        let text = "x [1, \"]\", '\\']', // ]\n /* ] */ [2]] y";
        assert_eq!(&text[closing_end(text, 2)..], " y");
        assert_eq!(closing_end("[[", 0), 2);
    }
}
