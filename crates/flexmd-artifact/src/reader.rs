//! Where an artifact's bytes live: in memory or in a file mapped into
//! memory, with a compact line index built in one pass.

use std::borrow::Cow;
use std::ops::Range;
use std::path::Path;

use crate::error::ArtifactError;

/// Every this many lines, the index keeps a line's start offset; lines in
/// between are found by scanning at most this many line breaks (`memchr`).
const CHECKPOINT: usize = 64;

/// Full scans go through the bytes in windows of this size (16 MiB), releasing each
/// behind them (so a mapped file's pages do not pile up in memory).
pub(crate) const WINDOW: usize = 16 << 20;

/// Line positions of a byte buffer, by the seed's rules: lines split on
/// `\n` only (a `\r` stays in its line), empty content has no lines, and a
/// trailing `\n` gives a final empty line. Keeps one offset per 64 lines
/// (8 bytes per 64 lines: 2.5 MB for a 1 GB file of 50-byte lines).
#[derive(Debug, Clone, Default)]
pub(crate) struct LineIndex {
    /// Start offset of lines 0, 64, 128, ...
    checkpoints: Vec<u64>,
    lines: usize,
}

impl LineIndex {
    /// Builds the index in one pass over `bytes`, a window at a time: after
    /// each window, `progress` gets the bytes scanned and `release` the
    /// window (a mapped file drops those pages again).
    pub(crate) fn build(
        bytes: &[u8],
        progress: &mut dyn FnMut(usize),
        release: &dyn Fn(Range<usize>),
    ) -> Self {
        if bytes.is_empty() {
            return Self::default();
        }
        let mut checkpoints = vec![0u64];
        let mut lines = 1usize;
        let mut window = 0;
        while window < bytes.len() {
            let end = (window + WINDOW).min(bytes.len());
            for nl in memchr::memchr_iter(b'\n', bytes.get(window..end).unwrap_or_default()) {
                // Line number `lines` starts after this break.
                let start = window + nl + 1;
                if lines.is_multiple_of(CHECKPOINT) {
                    checkpoints.push(start as u64);
                }
                lines += 1;
            }
            release(window..end);
            progress(end);
            window = end;
        }
        Self { checkpoints, lines }
    }

    pub(crate) fn line_count(&self) -> usize {
        self.lines
    }

    /// The byte range of line `i` (without its `\n`).
    pub(crate) fn line_range(&self, bytes: &[u8], i: usize) -> Option<Range<usize>> {
        if i >= self.lines {
            return None;
        }
        let checkpoint = usize::try_from(*self.checkpoints.get(i / CHECKPOINT)?).ok()?;
        let mut start = checkpoint;
        for _ in 0..i % CHECKPOINT {
            start += memchr::memchr(b'\n', bytes.get(start..)?)? + 1;
        }
        let end = memchr::memchr(b'\n', bytes.get(start..)?).map_or(bytes.len(), |n| start + n);
        Some(start..end)
    }

    /// The line that holds byte `offset` (the last line for `offset` past
    /// the end).
    pub(crate) fn line_of(&self, bytes: &[u8], offset: usize) -> usize {
        if self.lines == 0 {
            return 0;
        }
        let offset = offset.min(bytes.len());
        let slot = self
            .checkpoints
            .partition_point(|&c| c <= offset as u64)
            .saturating_sub(1);
        let start = self
            .checkpoints
            .get(slot)
            .and_then(|&c| usize::try_from(c).ok())
            .unwrap_or(0);
        let within =
            memchr::memchr_iter(b'\n', bytes.get(start..offset).unwrap_or_default()).count();
        (slot * CHECKPOINT + within).min(self.lines - 1)
    }
}

/// A read-only, line-oriented view of an artifact's bytes (the seed's
/// `SpoolReader`). Lines follow the seed's rules: split on `\n` only, `\r`
/// kept, no lines in empty content, a final empty line after a trailing
/// `\n`. Lines are decoded lossily (invalid UTF-8 becomes U+FFFD); byte
/// counts are of the bytes as stored.
pub trait SpoolReader: Send + Sync {
    /// All the bytes, as stored.
    fn bytes(&self) -> &[u8];
    /// The number of lines.
    fn line_count(&self) -> usize;
    /// The byte range of line `i`, without its `\n`.
    fn line_range(&self, i: usize) -> Option<Range<usize>>;
    /// The line holding byte `offset`.
    fn line_of(&self, offset: usize) -> usize;

    /// Says that `range` will not be read again soon: a mapped file drops
    /// its pages from memory (they are read again from the file if needed).
    /// Full scans call it behind them. A no-op for memory.
    fn release(&self, _range: Range<usize>) {}

    /// The byte length.
    fn byte_len(&self) -> usize {
        self.bytes().len()
    }

    /// Line `i`, decoded lossily; `None` past the end.
    fn line(&self, i: usize) -> Option<Cow<'_, str>> {
        let range = self.line_range(i)?;
        Some(String::from_utf8_lossy(self.bytes().get(range)?))
    }

    /// The bytes of `range` (clamped to the content).
    fn byte_range(&self, range: Range<usize>) -> &[u8] {
        let end = range.end.min(self.byte_len());
        self.bytes()
            .get(range.start.min(end)..end)
            .unwrap_or_default()
    }

    /// The whole content as text, byte-faithful where it is UTF-8.
    fn read_all(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(self.bytes())
    }
}

impl dyn SpoolReader + '_ {
    /// The lines from `start`, in order, decoded lossily; one index lookup,
    /// then a forward scan.
    ///
    /// ```
    /// use flexmd_artifact::{MemoryReader, SpoolReader};
    /// let reader: &dyn SpoolReader = &MemoryReader::new("a\nb\nc");
    /// assert_eq!(reader.lines_from(1).collect::<Vec<_>>(), ["b", "c"]);
    /// ```
    pub fn lines_from(&self, start: usize) -> Lines<'_> {
        let at = self.line_range(start).map_or(self.byte_len(), |r| r.start);
        Lines {
            reader: self,
            at,
            released: at,
            left: self.line_count().saturating_sub(start),
        }
    }
}

/// Sequential lines of a [`SpoolReader`] (see `lines_from`).
pub struct Lines<'a> {
    reader: &'a dyn SpoolReader,
    at: usize,
    /// Bytes before this were released to the reader.
    released: usize,
    left: usize,
}

impl std::fmt::Debug for Lines<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lines")
            .field("at", &self.at)
            .field("left", &self.left)
            .finish()
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Cow<'a, str>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let bytes = self.reader.bytes();
        let rest = bytes.get(self.at..).unwrap_or_default();
        let len = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        let line = rest.get(..len).unwrap_or_default();
        self.at += len + 1;
        if self.at - self.released >= WINDOW {
            // Release whole pages behind the line just read.
            let end = self.at.saturating_sub(len + 1) & !0xFFF;
            if end > self.released {
                self.reader.release(self.released..end);
                self.released = end;
            }
        }
        Some(String::from_utf8_lossy(line))
    }
}

/// An artifact held in memory.
///
/// ```
/// use flexmd_artifact::{MemoryReader, SpoolReader};
/// let r = MemoryReader::new("a\nb\n");
/// assert_eq!(r.line_count(), 3);
/// assert_eq!(r.line(2).as_deref(), Some(""));
/// assert_eq!(MemoryReader::new("").line_count(), 0);
/// ```
#[derive(Debug, Clone)]
pub struct MemoryReader {
    bytes: Vec<u8>,
    index: LineIndex,
}

impl MemoryReader {
    /// Indexes `content` (a `String`, `&str`, `Vec<u8>` or `&[u8]`).
    pub fn new(content: impl Into<Vec<u8>>) -> Self {
        let bytes = content.into();
        let index = LineIndex::build(&bytes, &mut |_| {}, &|_| {});
        Self { bytes, index }
    }
}

impl SpoolReader for MemoryReader {
    fn bytes(&self) -> &[u8] {
        &self.bytes
    }
    fn line_count(&self) -> usize {
        self.index.line_count()
    }
    fn line_range(&self, i: usize) -> Option<Range<usize>> {
        self.index.line_range(&self.bytes, i)
    }
    fn line_of(&self, offset: usize) -> usize {
        self.index.line_of(&self.bytes, offset)
    }
}

/// An artifact in a file, mapped into memory (the OS pages it in as it is
/// read, and out again: reading the last lines of a 1 GB file touches only
/// its end). The line index is built in one streaming pass on open. The
/// file must not change while it is open.
#[derive(Debug)]
pub struct FileReader {
    map: Option<memmap2::Mmap>,
    index: LineIndex,
}

impl FileReader {
    /// Maps and indexes the file at `path`.
    pub fn open(path: &Path) -> Result<Self, ArtifactError> {
        Self::open_with_progress(path, &mut |_| {})
    }

    /// [`FileReader::open`], calling `progress` with the bytes indexed so
    /// far every 64 MiB (for a progress line on large files).
    pub fn open_with_progress(
        path: &Path,
        progress: &mut dyn FnMut(usize),
    ) -> Result<Self, ArtifactError> {
        let io = |source| ArtifactError::Io {
            path: path.to_owned(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        // An empty file cannot be mapped on every platform; it has no lines.
        let map = if len == 0 {
            None
        } else {
            Some(map_file(&file).map_err(io)?)
        };
        let index = LineIndex::build(map.as_deref().unwrap_or_default(), progress, &|range| {
            if let Some(map) = &map {
                release_pages(map, range);
            }
        });
        Ok(Self { map, index })
    }
}

/// One of the two `unsafe` blocks of the workspace (with `release_pages`).
#[allow(
    unsafe_code,
    reason = "mapping a file is the only way to read 1 GB lazily"
)]
fn map_file(file: &std::fs::File) -> std::io::Result<memmap2::Mmap> {
    // SAFETY: the map is read-only and never outlives the reader. What
    // `Mmap::map` cannot promise is that no other process truncates or
    // rewrites the file meanwhile; an artifact is a finished tool output,
    // and changing it while it is open is documented as unsupported (as
    // for ripgrep and every other mmap reader). Truncation would end in
    // SIGBUS, not in reading freed memory.
    unsafe { memmap2::Mmap::map(file) }
}

/// Drops the resident pages of `range` (whole pages inside it).
#[allow(
    unsafe_code,
    reason = "MADV_DONTNEED keeps full scans of large files out of memory"
)]
fn release_pages(map: &memmap2::Mmap, range: Range<usize>) {
    const PAGE: usize = 4096;
    let start = range.start.div_ceil(PAGE) * PAGE;
    let end = range.end.min(map.len()) / PAGE * PAGE;
    if end <= start {
        return;
    }
    // SAFETY: the mapping is a read-only mapping of a file that we never
    // write through, so MADV_DONTNEED only drops clean pages: the next read
    // of the range faults them in again from the file, with the same bytes.
    // Slices borrowed from the map stay valid (the mapping itself is not
    // changed). A failure only means the pages stay resident.
    let _ = unsafe {
        map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start)
    };
}

impl SpoolReader for FileReader {
    fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or_default()
    }
    fn release(&self, range: Range<usize>) {
        if let Some(map) = &self.map {
            release_pages(map, range);
        }
    }
    fn line_count(&self) -> usize {
        self.index.line_count()
    }
    fn line_range(&self, i: usize) -> Option<Range<usize>> {
        self.index.line_range(self.bytes(), i)
    }
    fn line_of(&self, offset: usize) -> usize {
        self.index.line_of(self.bytes(), offset)
    }
}
