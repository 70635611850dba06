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
    starts: LineStarts,
}

/// Bytes per character checkpoint of [`LineStarts`].
const CHAR_BLOCK: usize = 4096;

/// The part of a [`LineIndex`] that owns no text: where the lines of a text
/// start, and how many characters come before each block of it. It can be
/// [extended](Self::extend) as the text grows, so a stream indexes each byte
/// once and turns the index into a [`LineIndex`] at the end.
///
/// ```
/// use flexmd_core::{LineIndex, LineStarts};
/// let mut starts = LineStarts::new();
/// starts.extend("ab\r");
/// starts.extend("ab\r\ncé");
/// let index = LineIndex::from_starts("ab\r\ncé", starts);
/// assert_eq!(index.line_col(5), (2, 2));
/// ```
#[derive(Debug, Clone)]
pub struct LineStarts {
    /// Byte offset where each line starts; the first is 0.
    line_starts: Vec<usize>,
    /// For each block of [`CHAR_BLOCK`] bytes that starts at or before
    /// the bytes read, the characters before it: a column is found in
    /// bounded time on a line of any length.
    chars_before_block: Vec<usize>,
    /// Bytes read so far.
    scanned: usize,
    /// The text read so far ends in `\r`: whether a line starts after it
    /// depends on whether `\n` comes next.
    pending_cr: bool,
}

impl Default for LineStarts {
    fn default() -> Self {
        Self::new()
    }
}

impl LineStarts {
    /// The index of an empty text.
    pub fn new() -> Self {
        Self {
            line_starts: vec![0],
            chars_before_block: Vec::new(),
            scanned: 0,
            pending_cr: false,
        }
    }

    /// Reads what `text` adds to the text given before (`text` extends it;
    /// the first call gets the whole text so far).
    pub fn extend(&mut self, text: &str) {
        let bytes = text.as_bytes();
        if self.pending_cr {
            let Some(&next) = bytes.get(self.scanned) else {
                return;
            };
            self.pending_cr = false;
            if next != b'\n' {
                self.line_starts.push(self.scanned);
            }
        }
        let from = self.scanned;
        let Some(new) = bytes.get(from..).filter(|new| !new.is_empty()) else {
            return;
        };
        if new.len() < 64 {
            // A stream's few new bytes: eight at a time, as a word, rather
            // than setting up a vector search; a word is looked at byte by
            // byte only if one of its bytes is below 0x0E (`\r` is 0x0D).
            let mut words = new.chunks_exact(8);
            let mut at = from;
            for word in &mut words {
                let mut eight = [0u8; 8];
                eight.copy_from_slice(word);
                let w = u64::from_le_bytes(eight);
                if w.wrapping_sub(0x0E0E_0E0E_0E0E_0E0E) & !w & 0x8080_8080_8080_8080 != 0 {
                    self.line_ends_in(bytes, word, at);
                }
                at += 8;
            }
            self.line_ends_in(bytes, words.remainder(), at);
        } else {
            for i in memchr::memchr2_iter(b'\n', b'\r', new) {
                self.line_end(bytes, from + i);
            }
        }
        self.scanned = bytes.len();
        // The characters before each block start reached, a whole block
        // counted at once with vector instructions (counted byte by byte
        // as a stream's tokens arrived, they were most of its line index).
        while let Some(block_start) = self
            .chars_before_block
            .len()
            .checked_mul(CHAR_BLOCK)
            .filter(|&start| start <= self.scanned)
        {
            let before = match block_start.checked_sub(CHAR_BLOCK) {
                Some(previous) => {
                    let counted = self.chars_before_block.last().copied().unwrap_or(0);
                    counted + count_chars(bytes.get(previous..block_start).unwrap_or_default())
                }
                None => 0,
            };
            self.chars_before_block.push(before);
        }
    }

    /// Line `k` (from 0) of `text`, the text read so far, once its line
    /// ending has been read: its start, the end of its content and the
    /// start of the line after it.
    ///
    /// ```
    /// use flexmd_core::LineStarts;
    /// let mut lines = LineStarts::new();
    /// lines.extend("one\r\ntw");
    /// assert_eq!(lines.line("one\r\ntw", 0), Some((0, 3, 5)));
    /// assert_eq!(lines.line("one\r\ntw", 1), None, "not ended yet");
    /// assert_eq!(lines.line_start(1), 5);
    /// ```
    pub fn line(&self, text: &str, k: usize) -> Option<(usize, usize, usize)> {
        let start = *self.line_starts.get(k)?;
        let next = *self.line_starts.get(k + 1)?;
        let bytes = text.as_bytes();
        let mut end = next;
        for ending in [b'\n', b'\r'] {
            if end > start && bytes.get(end - 1) == Some(&ending) {
                end -= 1;
            }
        }
        Some((start, end, next))
    }

    /// How many lines have started: one more than the line endings read.
    /// A stream reader that sees it unchanged after a push knows that no
    /// line was completed.
    ///
    /// ```
    /// use flexmd_core::LineStarts;
    /// let mut lines = LineStarts::new();
    /// lines.extend("one\ntw");
    /// assert_eq!(lines.count(), 2);
    /// ```
    pub fn count(&self) -> usize {
        self.line_starts.len()
    }

    /// Where line `k` starts; past the last line, where the last starts.
    pub fn line_start(&self, k: usize) -> usize {
        self.line_starts
            .get(k)
            .or(self.line_starts.last())
            .copied()
            .unwrap_or(0)
    }

    /// The first line that starts at or after byte `offset`.
    pub fn line_at(&self, offset: usize) -> usize {
        // Streams ask about places near the end of what they have read:
        // gallop back from the end, then bisect what is left (a plain
        // bisection of a long text's lines missed the cache at every step).
        let starts = self.line_starts.as_slice();
        let (mut lo, mut hi, mut step) = (0, starts.len(), 1usize);
        while hi > lo {
            let probe = hi.saturating_sub(step).max(lo);
            if starts.get(probe).is_some_and(|&s| s >= offset) {
                hi = probe;
                step = step.saturating_mul(2);
            } else {
                lo = probe + 1;
                break;
            }
        }
        lo + starts
            .get(lo..hi)
            .unwrap_or_default()
            .partition_point(|&s| s < offset)
    }

    /// Notes the lines that the `\n`s and `\r`s of `part`, which starts at
    /// byte `at` of `bytes`, end.
    fn line_ends_in(&mut self, bytes: &[u8], part: &[u8], at: usize) {
        for (i, &b) in part.iter().enumerate() {
            if b == b'\n' || b == b'\r' {
                self.line_end(bytes, at + i);
            }
        }
    }

    /// Notes the line that the `\n` or `\r` at `at` ends.
    fn line_end(&mut self, bytes: &[u8], at: usize) {
        let next = at + 1;
        if bytes.get(at) == Some(&b'\n') {
            self.line_starts.push(next);
        } else {
            match bytes.get(next) {
                Some(b'\n') => {}
                Some(_) => self.line_starts.push(next),
                None => self.pending_cr = true,
            }
        }
    }

    /// The characters that start before byte `offset` (at most the bytes
    /// read).
    fn chars_before(&self, text: &str, offset: usize) -> usize {
        let offset = offset.min(self.scanned);
        let block = offset / CHAR_BLOCK;
        let base = self.chars_before_block.get(block).copied().unwrap_or(0);
        let from = block * CHAR_BLOCK;
        base + count_chars(text.as_bytes().get(from..offset).unwrap_or_default())
    }

    /// As [`LineIndex::line_col`], for `text`, the text read so far (a `\r`
    /// at its end has not ended its line yet).
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len()).min(self.scanned);
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let mut start = self.line_starts.get(line - 1).copied().unwrap_or(0);
        if line == 1 {
            // Editors do not show a byte order mark: columns start after it.
            start = crate::text::bom_len(text.as_bytes()).min(offset);
        }
        let column = self.chars_before(text, offset) - self.chars_before(text, start) + 1;
        (line, column)
    }
}

/// The characters of UTF-8 `bytes` (its bytes that are not continuation
/// bytes), counted in runs of 255 with byte-wide counters so the compiler
/// vectorises it: a byte-at-a-time count was most of the index's cost.
fn count_chars(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|run| {
            let n = run
                .iter()
                .fold(0u8, |n, &b| n.wrapping_add(u8::from(b & 0xC0 != 0x80)));
            usize::from(n)
        })
        .sum()
}

impl<'a> LineIndex<'a> {
    /// Indexes the line starts of `text` in one pass.
    pub fn new(text: &'a str) -> Self {
        Self::from_starts(text, LineStarts::new())
    }

    /// The index of `text` from `starts`, which has read all or the start of
    /// it (the rest is read here): `text` is complete, so a `\r` at its end
    /// ends a line.
    pub fn from_starts(text: &'a str, mut starts: LineStarts) -> Self {
        starts.extend(text);
        if std::mem::take(&mut starts.pending_cr) {
            starts.line_starts.push(starts.scanned);
        }
        Self { text, starts }
    }

    /// The 1-based line and column of byte `offset`; offsets past the end map
    /// to the end, offsets inside a character to the column after it. Takes
    /// bounded time on lines of any length.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        self.starts.line_col(self.text, offset)
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
    fn the_column_at_the_end_of_a_text_grown_to_a_block_boundary() {
        // 4096 bytes, 2048 characters: the end is the start of block 1.
        let text = "é".repeat(2048);
        let mut starts = LineStarts::new();
        for end in (0..=2048).map(|chars| chars * 2).step_by(3) {
            starts.extend(&text[..end]);
        }
        starts.extend(&text);
        assert_eq!(starts.line_col(&text, text.len()), (1, 2049));
        assert_eq!(starts.line_col(&text, 4094), (1, 2048));
        assert_eq!(LineIndex::new(&text).line_col(text.len()), (1, 2049));
    }

    #[test]
    fn line_at_finds_the_first_line_starting_at_or_after_an_offset() {
        let text = "ab\n\ncd\r\ne\n".repeat(40);
        let mut starts = LineStarts::new();
        starts.extend(&text);
        // Line starts: 0, 3, 4, 8, 10, then every 10 bytes.
        assert_eq!(starts.line_at(0), 0);
        assert_eq!(starts.line_at(1), 1);
        assert_eq!(starts.line_at(3), 1);
        assert_eq!(starts.line_at(4), 2);
        assert_eq!(starts.line_at(5), 3);
        assert_eq!(starts.line_at(10), 4);
        let count = starts.count();
        assert_eq!(count, 161);
        assert_eq!(starts.line_at(text.len()), count - 1);
        assert_eq!(starts.line_at(text.len() + 1), count);
        assert_eq!(starts.line_at(text.len() - 3), count - 2);
        assert_eq!(starts.line_at(200), 80);
        assert_eq!(LineStarts::new().line_at(5), 1);
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
