//! The base operations every artifact has (@nhtio/adk's `SpooledArtifact`).

use std::borrow::Cow;
use std::fmt;

use crate::error::ArtifactError;
use crate::grep::{GrepFlags, GrepHit, GrepPattern};
use crate::reader::SpoolReader;
use crate::tokens::Encoding;

/// A lazy, line-oriented view of a tool output (@nhtio/adk's
/// `SpooledArtifact`): `head`, `tail`, `cat` and `grep` read only the lines
/// they return (and `grep` scans the bytes once, never decoding them all).
///
/// ```
/// use flexmd_artifact::{GrepFlags, MemoryReader, SpooledArtifact};
/// let a = SpooledArtifact::new(MemoryReader::new("one\ntwo\nthree\n"));
/// assert_eq!(a.line_count(), 4);
/// assert_eq!(a.head(2), ["one", "two"]);
/// assert_eq!(a.tail(2), ["three", ""]);
/// assert_eq!(a.cat(Some(1), Some(99)), ["two", "three", ""]);
/// assert_eq!(a.grep("^t", GrepFlags::NONE).unwrap(), ["two", "three"]);
/// ```
pub struct SpooledArtifact {
    reader: Box<dyn SpoolReader>,
}

impl fmt::Debug for SpooledArtifact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpooledArtifact")
            .field("bytes", &self.reader.byte_len())
            .field("lines", &self.reader.line_count())
            .finish()
    }
}

impl SpooledArtifact {
    /// An artifact over `reader`.
    pub fn new(reader: impl SpoolReader + 'static) -> Self {
        Self {
            reader: Box::new(reader),
        }
    }

    /// The reader behind the artifact.
    pub fn reader(&self) -> &dyn SpoolReader {
        self.reader.as_ref()
    }

    /// The first `n` lines (all of them when there are fewer), as `head -n`
    /// (read from the start: no line index is built).
    pub fn head(&self, n: usize) -> Vec<String> {
        let lines = self.reader.first_lines(n);
        lines.into_iter().map(Cow::into_owned).collect()
    }

    /// The last `n` lines (all of them when there are fewer), as `tail -n`
    /// (read backwards from the end: no line index is built).
    pub fn tail(&self, n: usize) -> Vec<String> {
        let lines = self.reader.last_lines(n);
        lines.into_iter().map(Cow::into_owned).collect()
    }

    /// Lines `[start, end)`, as JavaScript's `Array.prototype.slice` takes
    /// them: `start` defaults to 0 and `end` to the line count; a negative
    /// index counts from the end (`-1` is the last line); both are clamped
    /// to the line count, and `start >= end` gives nothing.
    ///
    /// ```
    /// use flexmd_artifact::{MemoryReader, SpooledArtifact};
    /// let a = SpooledArtifact::new(MemoryReader::new("a\nb\nc\nd"));
    /// assert_eq!(a.cat(Some(-2), None), ["c", "d"]);
    /// assert_eq!(a.cat(Some(1), Some(-1)), ["b", "c"]);
    /// assert_eq!(a.cat(Some(-99), Some(1)), ["a"]);
    /// ```
    pub fn cat(&self, start: Option<i64>, end: Option<i64>) -> Vec<String> {
        let range = slice_range(self.line_count(), start, end);
        self.lines(range)
    }

    /// Lines `range` (already within the line count).
    pub(crate) fn lines(&self, range: std::ops::Range<usize>) -> Vec<String> {
        self.reader
            .lines_from(range.start)
            .take(range.len())
            .map(Cow::into_owned)
            .collect()
    }

    /// The lines that match `pattern` with `flags` (see [`GrepPattern::new`];
    /// `"i".parse()` gives flags from the tools' string form), in order.
    pub fn grep(&self, pattern: &str, flags: GrepFlags) -> Result<Vec<String>, ArtifactError> {
        let pattern = GrepPattern::new(pattern, flags)?;
        let hits =
            self.grep_hits_until(&pattern, 0, None, usize::MAX, &crate::cancel::cancelled)?;
        Ok(hits
            .into_iter()
            .map(|hit| String::from_utf8_lossy(self.reader.byte_range(hit.range)).into_owned())
            .collect())
    }

    /// The indexes of the lines that match, at most `limit` of them. A
    /// panic inside the regex engine (a bug there, reached through some
    /// pattern and bytes) is an error, not the end of the process.
    pub fn grep_lines(
        &self,
        pattern: &GrepPattern,
        limit: usize,
    ) -> Result<Vec<usize>, ArtifactError> {
        self.grep_lines_from(pattern, 0, limit)
    }

    /// [`SpooledArtifact::grep_lines`] from line `first` on: the search
    /// starts at that line's first byte, so a page of matches resumes where
    /// the last one stopped without searching the lines before it again.
    pub fn grep_lines_from(
        &self,
        pattern: &GrepPattern,
        first: usize,
        limit: usize,
    ) -> Result<Vec<usize>, ArtifactError> {
        self.grep_lines_until(pattern, first, limit, &crate::cancel::cancelled)
    }

    /// [`SpooledArtifact::grep_lines_from`] that gives up, with
    /// [`ArtifactError::Cancelled`], once `stop` says so (it is asked
    /// between windows of the file).
    pub(crate) fn grep_lines_until(
        &self,
        pattern: &GrepPattern,
        first: usize,
        limit: usize,
        stop: &dyn Fn() -> bool,
    ) -> Result<Vec<usize>, ArtifactError> {
        let hits = self.grep_hits_until(pattern, first, None, limit, stop)?;
        Ok(hits.into_iter().map(|hit| hit.line).collect())
    }

    /// The matching lines from line `first` on, each with its bytes: lines
    /// are counted while the search goes, so a search from the start (or
    /// from `first`'s first byte, `at`, when the caller knows it) needs no
    /// line index.
    pub(crate) fn grep_hits_until(
        &self,
        pattern: &GrepPattern,
        first: usize,
        at: Option<usize>,
        limit: usize,
        stop: &dyn Fn() -> bool,
    ) -> Result<Vec<GrepHit>, ArtifactError> {
        let reader = self.reader.as_ref();
        let bytes = reader.bytes();
        // Where the search starts: line `first`'s first byte; for the first
        // line, after any byte order mark (not part of the line: `^#`
        // matches a heading right behind one).
        let from = match (first, at) {
            (0, _) => flexmd_core::bom_len(bytes),
            (_, Some(at)) => at,
            _ => match reader.line_range(first) {
                Some(range) => range.start,
                None => return Ok(Vec::new()),
            },
        };
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if bytes.len() == from && (first > 0 || from > 0) {
                // Nothing left to search but one empty line: the last line
                // after a final line break (a page resuming there), or a
                // byte order mark alone.
                return if limit > 0 && pattern.matches_empty() {
                    vec![GrepHit {
                        line: first,
                        range: from..from,
                    }]
                } else {
                    Vec::new()
                };
            }
            let mut hits = pattern.matching_lines(
                bytes.get(from..).unwrap_or_default(),
                first,
                limit,
                crate::reader::WINDOW,
                &|range| reader.release(range.start + from..range.end + from),
                stop,
            );
            for hit in &mut hits {
                hit.range = hit.range.start + from..hit.range.end + from;
            }
            hits
        }))
        .map_err(|_| {
            ArtifactError::Pattern(
                "the regex engine failed on this pattern and input; try a simpler pattern"
                    .to_owned(),
            )
        })
        .and_then(|lines| {
            if stop() {
                Err(ArtifactError::Cancelled)
            } else {
                Ok(lines)
            }
        })
    }

    /// One window of [`SpooledArtifact::grep`]: the matching lines among
    /// those that start in the `max_bytes` (at least 1) from byte `start`,
    /// and where the next window starts (`None` after the last). Start at 0
    /// and go on at each window's `next`, to give control back between
    /// windows (the npm package's event loop): the windows' lines, in
    /// order, are exactly what `grep` returns. Windows end at line breaks
    /// (a line longer than `max_bytes` is one window), so no line is cut.
    /// A `start` that is not 0 or a `next` (not a line's first byte, or
    /// past the end) is an error.
    ///
    /// ```
    /// use flexmd_artifact::{GrepFlags, GrepPattern, MemoryReader, SpooledArtifact};
    /// let log = SpooledArtifact::new(MemoryReader::new("GET /a 200\nGET /b 500\nPUT /c 500\n"));
    /// let pattern = GrepPattern::new(" 500$", GrepFlags::default()).unwrap();
    /// let (mut lines, mut at) = (Vec::new(), Some(0));
    /// while let Some(start) = at {
    ///     let window = log.grep_chunk(&pattern, start, 12).unwrap();
    ///     lines.extend(window.lines);
    ///     at = window.next;
    /// }
    /// assert_eq!(lines, ["GET /b 500", "PUT /c 500"]);
    /// ```
    pub fn grep_chunk(
        &self,
        pattern: &GrepPattern,
        start: usize,
        max_bytes: usize,
    ) -> Result<GrepChunk, ArtifactError> {
        let bytes = self.reader.bytes();
        let line_start = start == 0 || bytes.get(start.wrapping_sub(1)) == Some(&b'\n');
        if !line_start || start > bytes.len() {
            return Err(ArtifactError::Call(format!(
                "grep window start {start} is not 0 or the `next` of a window"
            )));
        }
        let from = if start == 0 {
            flexmd_core::bom_len(bytes)
        } else {
            start
        };
        let target = from.saturating_add(max_bytes.max(1));
        // The window ends after its last line break; a line longer than the
        // window is taken whole.
        let end = if target >= bytes.len() {
            None
        } else {
            let before = bytes.get(from..target).unwrap_or_default();
            memchr::memrchr(b'\n', before)
                .map(|nl| from + nl + 1)
                .or_else(|| {
                    memchr::memchr(b'\n', bytes.get(target..).unwrap_or_default())
                        .map(|nl| target + nl + 1)
                })
                .filter(|&end| end < bytes.len())
        };
        let stop = &crate::cancel::cancelled;
        let hits = match end {
            // The last window: the whole search from `from`, with its rules
            // for the end (an empty last line, a byte order mark alone).
            None => self.grep_hits_until(
                pattern,
                usize::from(start > 0),
                Some(from),
                usize::MAX,
                stop,
            )?,
            // A window before the last: its lines without the final break,
            // so no empty line is seen after it.
            // One empty line: the search below sees no line in no bytes.
            Some(end) if end == from + 1 => {
                if pattern.matches_empty() {
                    vec![GrepHit {
                        line: 0,
                        range: from..from,
                    }]
                } else {
                    Vec::new()
                }
            }
            Some(end) => {
                let window = bytes.get(from..end - 1).unwrap_or_default();
                let hits = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    pattern.matching_lines(
                        window,
                        0,
                        usize::MAX,
                        crate::reader::WINDOW,
                        &|_| {},
                        stop,
                    )
                }))
                .map_err(|_| {
                    ArtifactError::Pattern(
                        "the regex engine failed on this pattern and input; try a simpler pattern"
                            .to_owned(),
                    )
                })?;
                if stop() {
                    return Err(ArtifactError::Cancelled);
                }
                hits.into_iter()
                    .map(|hit| GrepHit {
                        line: hit.line,
                        range: hit.range.start + from..hit.range.end + from,
                    })
                    .collect()
            }
        };
        Ok(GrepChunk {
            lines: hits
                .into_iter()
                .map(|hit| String::from_utf8_lossy(self.reader.byte_range(hit.range)).into_owned())
                .collect(),
            next: end,
        })
    }

    /// The number of bytes, as stored.
    pub fn byte_length(&self) -> usize {
        self.reader.byte_len()
    }

    /// The number of lines (@nhtio/adk's rules: see [`SpoolReader`]).
    pub fn line_count(&self) -> usize {
        self.reader.line_count()
    }

    /// The number of tokens of the whole content under `encoding`, counted
    /// in chunks cut at whitespace, so memory stays bounded.
    pub fn estimate_tokens(&self, encoding: Encoding) -> usize {
        crate::tokens::count_tokens_releasing(self.reader.bytes(), encoding, &|range| {
            self.reader.release(range);
        })
    }

    /// One chunk (at most `max_bytes`, 4 KiB to 1 MiB) of
    /// [`SpooledArtifact::estimate_tokens`], from byte `start`: start at 0
    /// and go on at each chunk's `next`, to give control back between
    /// chunks (the npm package's event loop); the sum is the whole count.
    /// See [`crate::count_tokens_chunk`].
    pub fn estimate_tokens_chunk(
        &self,
        encoding: Encoding,
        start: usize,
        max_bytes: usize,
    ) -> crate::TokenChunk {
        crate::count_tokens_chunk(self.reader.bytes(), start, max_bytes, encoding)
    }

    /// The whole content, byte-faithful (line endings kept) where it is
    /// UTF-8; invalid bytes become U+FFFD.
    pub fn as_string(&self) -> Cow<'_, str> {
        self.reader.read_all()
    }

    /// [`SpooledArtifact::as_string`] a piece at a time, for a host that
    /// must not be held for the whole text at once: the text from byte
    /// `start`, at most `max_bytes` (at least 4) bytes of it, cut before a
    /// character so that the pieces join to the whole; `next` is where the
    /// next piece starts.
    ///
    /// ```
    /// use flexmd_artifact::{MemoryReader, SpooledArtifact};
    ///
    /// let a = SpooledArtifact::new(MemoryReader::new("añb€c"));
    /// let (mut text, mut at) = (String::new(), Some(0));
    /// while let Some(start) = at {
    ///     let piece = a.as_string_chunk(start, 4);
    ///     text.push_str(&piece.text);
    ///     at = piece.next;
    /// }
    /// assert_eq!(text, a.as_string());
    /// ```
    pub fn as_string_chunk(&self, start: usize, max_bytes: usize) -> TextChunk {
        let bytes = self.reader.bytes();
        let start = start.min(bytes.len());
        let reach = start.saturating_add(max_bytes.max(4)).min(bytes.len());
        let end = piece_end(bytes, start, reach);
        TextChunk {
            text: String::from_utf8_lossy(bytes.get(start..end).unwrap_or_default()).into_owned(),
            next: (end < bytes.len()).then_some(end),
        }
    }
}

/// Where a piece of `bytes` from `start` that may reach `reach` ends: at
/// `reach`, unless a character (or a maximal invalid sequence, which
/// lossy decoding turns into one U+FFFD) starts before it and ends after
/// it; then before that character.
fn piece_end(bytes: &[u8], start: usize, reach: usize) -> usize {
    if reach >= bytes.len() {
        return bytes.len();
    }
    let from = reach.saturating_sub(3).max(start);
    let Some(lead) = (from..reach)
        .rev()
        .find(|&i| bytes.get(i).is_some_and(|b| b & 0xC0 != 0x80))
    else {
        return reach;
    };
    let window = bytes
        .get(lead..lead.saturating_add(4).min(bytes.len()))
        .unwrap_or_default();
    let first = match std::str::from_utf8(window) {
        Ok(text) => text.chars().next().map_or(1, char::len_utf8),
        Err(e) if e.valid_up_to() > 0 => window
            .get(..e.valid_up_to())
            .and_then(|valid| std::str::from_utf8(valid).ok())
            .and_then(|text| text.chars().next())
            .map_or(1, char::len_utf8),
        Err(e) => e.error_len().unwrap_or(window.len()),
    };
    if lead + first > reach && lead > start {
        lead
    } else {
        reach
    }
}

/// The indexes `[start, end)` of a list of `len` items, as JavaScript's
/// `Array.prototype.slice` reads its arguments: a negative index counts
/// from the end, both are clamped to `0..=len`, and `start >= end` is empty.
pub(crate) fn slice_range(
    len: usize,
    start: Option<i64>,
    end: Option<i64>,
) -> std::ops::Range<usize> {
    let resolve = |i: i64| {
        if i < 0 {
            len.saturating_sub(usize::try_from(i.unsigned_abs()).unwrap_or(usize::MAX))
        } else {
            usize::try_from(i).unwrap_or(usize::MAX).min(len)
        }
    };
    let end = end.map_or(len, resolve);
    let start = start.map_or(0, resolve).min(end);
    start..end
}

/// One chunk of a text done a chunk at a time
/// ([`SpooledMarkdownArtifact::md_text_chunk`](crate::SpooledMarkdownArtifact::md_text_chunk)): its text, and the line the
/// next chunk starts at (`None` after the last).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TextChunk {
    /// The text of this chunk's pieces.
    pub text: String,
    /// Where to go on (a line for `md_text_chunk`, a byte for
    /// `as_string_chunk`); `None` when the text is done.
    pub next: Option<usize>,
}

#[cfg(test)]
mod tests {
    use super::slice_range;

    #[test]
    fn slice_range_reads_indexes_as_javascript_slice() {
        assert_eq!(slice_range(5, None, None), 0..5);
        assert_eq!(slice_range(5, Some(-2), None), 3..5);
        assert_eq!(slice_range(5, Some(1), Some(-1)), 1..4);
        assert_eq!(slice_range(5, Some(-9), Some(2)), 0..2);
        assert_eq!(slice_range(5, Some(4), Some(2)), 2..2);
        assert_eq!(slice_range(5, Some(i64::MIN), Some(i64::MAX)), 0..5);
        assert_eq!(slice_range(0, Some(-1), Some(-1)), 0..0);
    }
}

/// One window of a grep done a window at a time
/// ([`SpooledArtifact::grep_chunk`]): its matching lines, and where the next
/// window starts (`None` after the last).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GrepChunk {
    /// The matching lines that start in this window, in order.
    pub lines: Vec<String>,
    /// The byte offset of the next window; `None` when the text is done.
    pub next: Option<usize>,
}
