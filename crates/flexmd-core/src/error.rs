//! Reading input text and pointing into it.

use miette::Diagnostic;
use thiserror::Error;

/// What can go wrong before Markdown parsing starts. Parsing itself never fails.
#[derive(Debug, Clone, PartialEq, Eq, Error, Diagnostic)]
#[non_exhaustive]
pub enum Error {
    /// The input bytes are not UTF-8.
    #[error("input is not valid UTF-8 at line {line}, column {column} (byte {offset})")]
    #[diagnostic(
        code(flexmd::invalid_utf8),
        help("flexmd reads UTF-8 text; convert the file first, e.g. with `iconv -t UTF-8`")
    )]
    InvalidUtf8 {
        /// Byte offset of the first invalid byte.
        offset: usize,
        /// 1-based line of the first invalid byte.
        line: usize,
        /// 1-based column (in characters) of the first invalid byte.
        column: usize,
    },
}

/// Turns input bytes into text, or says where they stop being UTF-8.
///
/// A leading byte-order mark is kept: it is text as far as Markdown goes.
///
/// ```
/// use flexmd_core::{decode_utf8, Error};
/// assert_eq!(decode_utf8(b"# ok").unwrap(), "# ok");
/// assert_eq!(
///     decode_utf8(b"ok\nx\xff").unwrap_err(),
///     Error::InvalidUtf8 { offset: 4, line: 2, column: 2 }
/// );
/// ```
pub fn decode_utf8(bytes: &[u8]) -> Result<&str, Error> {
    std::str::from_utf8(bytes).map_err(|e| Error::invalid_utf8(bytes, &e))
}

impl Error {
    /// The [`Error::InvalidUtf8`] for `bytes`, which failed to decode with `err`
    /// (for callers that decode themselves, e.g. with `String::from_utf8`).
    pub fn invalid_utf8(bytes: &[u8], err: &std::str::Utf8Error) -> Self {
        let offset = err.valid_up_to();
        let valid = bytes
            .get(..offset)
            .and_then(|b| std::str::from_utf8(b).ok())
            .unwrap_or_default();
        let (line, column) = LineIndex::new(valid).line_col(offset);
        Error::InvalidUtf8 {
            offset,
            line,
            column,
        }
    }
}

/// Maps byte offsets of a text to 1-based `(line, column)` pairs.
///
/// Lines end at `\n`, `\r\n` or a lone `\r`, as in CommonMark; columns count
/// characters, not bytes.
///
/// ```
/// use flexmd_core::LineIndex;
/// let text = "ab\r\ncé\rx";
/// let index = LineIndex::new(text);
/// assert_eq!(index.line_col(0), (1, 1));
/// assert_eq!(index.line_col(4), (2, 1));
/// assert_eq!(index.line_col(7), (2, 3), "é is one column");
/// assert_eq!(index.line_col(8), (3, 1));
/// ```
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset where each line starts; the first is 0.
    line_starts: Vec<usize>,
    /// For each block of [`CHAR_BLOCK`] bytes, the characters before it: a
    /// column is found in bounded time on a line of any length.
    chars_before_block: Vec<usize>,
}

/// Bytes per character checkpoint of [`LineIndex`].
const CHAR_BLOCK: usize = 4096;

impl<'a> LineIndex<'a> {
    /// Indexes the line starts of `text` in one pass.
    pub fn new(text: &'a str) -> Self {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        let mut chars_before_block = Vec::with_capacity(bytes.len() / CHAR_BLOCK + 1);
        let mut chars = 0usize;
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if i % CHAR_BLOCK == 0 {
                chars_before_block.push(chars);
            }
            // A character starts at every byte but a continuation byte.
            chars += usize::from(b & 0xC0 != 0x80);
            i += 1;
            let ends_line = match b {
                b'\n' => true,
                b'\r' => bytes.get(i) != Some(&b'\n'),
                _ => false,
            };
            if ends_line {
                line_starts.push(i);
            }
        }
        Self {
            text,
            line_starts,
            chars_before_block,
        }
    }

    /// The characters that start before byte `offset`.
    fn chars_before(&self, offset: usize) -> usize {
        let block = offset / CHAR_BLOCK;
        let base = self.chars_before_block.get(block).copied().unwrap_or(0);
        let from = block * CHAR_BLOCK;
        base + self
            .text
            .as_bytes()
            .get(from..offset)
            .unwrap_or_default()
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count()
    }

    /// The 1-based line and column of byte `offset`; offsets past the end map
    /// to the end, offsets inside a character to the column after it. Takes
    /// bounded time on lines of any length.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let mut start = self.line_starts.get(line - 1).copied().unwrap_or(0);
        if line == 1 {
            // Editors do not show a byte order mark: columns start after it.
            start = crate::text::bom_len(self.text.as_bytes()).min(offset);
        }
        let column = self.chars_before(offset) - self.chars_before(start) + 1;
        (line, column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_past_end_is_clamped() {
        let index = LineIndex::new("a\nb");
        assert_eq!(index.line_col(99), (2, 2));
        assert_eq!(LineIndex::new("").line_col(0), (1, 1));
    }

    #[test]
    fn columns_on_a_long_line_with_wide_characters() {
        let text = format!("x\n{}é{}z", "a".repeat(10_000), "ü".repeat(5_000));
        let index = LineIndex::new(&text);
        let z = text.find('z').unwrap();
        assert_eq!(index.line_col(z), (2, 10_000 + 1 + 5_000 + 1));
        let e = text.find('é').unwrap();
        assert_eq!(index.line_col(e), (2, 10_001));
        assert_eq!(
            index.line_col(e + 1),
            (2, 10_002),
            "inside é: the column after it"
        );
    }

    #[test]
    fn columns_start_after_a_byte_order_mark() {
        let index = LineIndex::new("\u{feff}ab\nc");
        assert_eq!(index.line_col(3), (1, 1));
        assert_eq!(index.line_col(4), (1, 2));
        assert_eq!(index.line_col(0), (1, 1));
        assert_eq!(index.line_col(6), (2, 1));
    }

    #[test]
    fn trailing_newline_starts_an_empty_line() {
        let index = LineIndex::new("a\n");
        assert_eq!(index.line_col(2), (2, 1));
    }

    #[test]
    fn invalid_utf8_message_names_the_place() {
        let err = decode_utf8(b"\xc3").unwrap_err();
        assert_eq!(
            err.to_string(),
            "input is not valid UTF-8 at line 1, column 1 (byte 0)"
        );
    }
}
