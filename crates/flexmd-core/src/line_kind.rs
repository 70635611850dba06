//! What a line of Markdown starts with, read without the parser, for the
//! readers that decide line by line (the simple-piece reader, the stream's
//! line scanner, flexmd-ofs's early items) and for `parse_list`. Each
//! caller keeps its own policy for what follows the marker (the gap, the
//! content column); the marker itself is read here once, so they agree on
//! what a marker is by construction.
//!
//! **Reads** (CommonMark 0.31, list items):
//!
//! ```text
//! list-marker    = bullet-marker | ordered-marker
//! bullet-marker  = "-" | "+" | "*"
//! ordered-marker = 1*9 DIGIT ( "." | ")" )
//! ```
//!
//! A leaf: it imports nothing of the crate.

/// A list item's marker at the start of a line (after its indentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListMarker {
    /// The bullet (`-`, `*`, `+`) or the ordered marker's delimiter (`.`,
    /// `)`): the items of one list share it.
    pub delimiter: u8,
    /// The number of an ordered marker; `None` for a bullet.
    pub number: Option<u64>,
    /// Its length in bytes.
    pub len: usize,
}

/// The list marker `text` starts with: a bullet, or one to nine digits
/// then `.` or `)`. What follows it is the caller's to judge (CommonMark
/// wants a space, a tab or the end of the line).
///
/// ```
/// use flexmd_core::line_kind::{ListMarker, list_marker};
/// assert_eq!(list_marker("- a"), Some(ListMarker { delimiter: b'-', number: None, len: 1 }));
/// assert_eq!(list_marker("12) b"), Some(ListMarker { delimiter: b')', number: Some(12), len: 3 }));
/// assert_eq!(list_marker("1234567890. c"), None, "ten digits are too many");
/// assert_eq!(list_marker("12 d"), None);
/// ```
#[inline]
pub fn list_marker(text: &str) -> Option<ListMarker> {
    let bytes = text.as_bytes();
    match *bytes.first()? {
        b @ (b'-' | b'*' | b'+') => Some(ListMarker {
            delimiter: b,
            number: None,
            len: 1,
        }),
        b'0'..=b'9' => {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            let &delimiter = bytes.get(digits).filter(|d| matches!(d, b'.' | b')'))?;
            if digits > 9 {
                return None;
            }
            Some(ListMarker {
                delimiter,
                number: Some(text.get(..digits)?.parse().ok()?),
                len: digits + 1,
            })
        }
        _ => None,
    }
}

/// Whether `line` holds `]:`, as a link reference definition does (which
/// may define a label a link anywhere in the document uses, so the
/// readers that go line by line leave the rest to one parse).
///
/// ```
/// assert!(flexmd_core::line_kind::has_label_colon("[a]: https://x"));
/// assert!(!flexmd_core::line_kind::has_label_colon("[a] : no"));
/// ```
#[inline]
pub fn has_label_colon(line: &str) -> bool {
    let bytes = line.as_bytes();
    memchr::memchr_iter(b']', bytes).any(|i| bytes.get(i + 1) == Some(&b':'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A marker is what CommonMark's reference parser takes for one: a
        /// line of a marker, a space and a word is a list of one item,
        /// numbered as the marker says.
        #[test]
        fn markers_are_the_parsers(marker in "[-*+]|[0-9]{1,11}[.)]|[a-z#>]") {
            let line = format!("{marker} word\n");
            let read = list_marker(&line);
            let parsed = crate::parse_list(&line);
            prop_assert_eq!(read.is_some(), parsed.is_some(), "{:?}", line);
            if let (Some(read), Some(list)) = (read, parsed) {
                prop_assert_eq!(read.len, marker.len());
                prop_assert_eq!(read.number, list.items.first().and_then(|i| i.index));
            }
        }
    }
}
