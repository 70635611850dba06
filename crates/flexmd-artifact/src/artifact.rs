//! The base operations every artifact has (the seed's `SpooledArtifact`).

use std::borrow::Cow;
use std::fmt;

use crate::error::ArtifactError;
use crate::grep::{GrepFlags, GrepPattern};
use crate::reader::SpoolReader;
use crate::tokens::{Encoding, count_tokens};

/// A lazy, line-oriented view of a tool output (the seed's
/// `SpooledArtifact`): `head`, `tail`, `cat` and `grep` read only the lines
/// they return (and `grep` scans the bytes once, never decoding them all).
///
/// ```
/// use flexmd_artifact::{MemoryReader, SpooledArtifact};
/// let a = SpooledArtifact::new(MemoryReader::new("one\ntwo\nthree\n"));
/// assert_eq!(a.line_count(), 4);
/// assert_eq!(a.head(2), ["one", "two"]);
/// assert_eq!(a.tail(2), ["three", ""]);
/// assert_eq!(a.cat(Some(1), Some(99)), ["two", "three", ""]);
/// assert_eq!(a.grep("^t", "").unwrap(), ["two", "three"]);
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

    /// The first `n` lines (all of them when there are fewer), as `head -n`.
    pub fn head(&self, n: usize) -> Vec<String> {
        self.cat(Some(0), Some(n))
    }

    /// The last `n` lines (all of them when there are fewer), as `tail -n`.
    pub fn tail(&self, n: usize) -> Vec<String> {
        let count = self.line_count();
        self.cat(Some(count.saturating_sub(n)), None)
    }

    /// Lines `[start, end)`, as JavaScript's `slice` clamps them: `start`
    /// defaults to 0, `end` to the line count, both are clamped to the line
    /// count, and `start >= end` gives nothing. Negative indexes are not
    /// accepted (the tools' schemas say `minimum: 0`).
    pub fn cat(&self, start: Option<usize>, end: Option<usize>) -> Vec<String> {
        let count = self.line_count();
        let end = end.unwrap_or(count).min(count);
        let start = start.unwrap_or(0).min(end);
        self.reader
            .lines_from(start)
            .take(end - start)
            .map(Cow::into_owned)
            .collect()
    }

    /// The lines that match `pattern` with `flags` (a subset of `imsu`; see
    /// [`GrepPattern::new`]), in order.
    pub fn grep(&self, pattern: &str, flags: &str) -> Result<Vec<String>, ArtifactError> {
        let pattern = GrepPattern::new(pattern, GrepFlags::parse(flags)?)?;
        Ok(self
            .grep_lines(&pattern, usize::MAX)?
            .into_iter()
            .filter_map(|i| self.reader.line(i).map(Cow::into_owned))
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
        let reader = self.reader.as_ref();
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pattern.matching_lines(
                reader.bytes(),
                |offset| reader.line_of(offset),
                limit,
                crate::reader::WINDOW,
                &|range| reader.release(range),
            )
        }))
        .map_err(|_| {
            ArtifactError::Pattern(
                "the regex engine failed on this pattern and input; try a simpler pattern"
                    .to_owned(),
            )
        })
    }

    /// The number of bytes, as stored.
    pub fn byte_length(&self) -> usize {
        self.reader.byte_len()
    }

    /// The number of lines (the seed's rules: see [`SpoolReader`]).
    pub fn line_count(&self) -> usize {
        self.reader.line_count()
    }

    /// The number of tokens of the whole content under `encoding`, counted
    /// in chunks cut at whitespace, so memory stays bounded.
    pub fn estimate_tokens(&self, encoding: Encoding) -> usize {
        let count = count_tokens(self.reader.bytes(), encoding);
        self.reader.release(0..self.reader.byte_len());
        count
    }

    /// The whole content, byte-faithful (line endings kept) where it is
    /// UTF-8; invalid bytes become U+FFFD.
    pub fn as_string(&self) -> Cow<'_, str> {
        self.reader.read_all()
    }
}
