//! Where an artifact's bytes live: in memory or in a file mapped into
//! memory, with a compact line index built in one pass.

use std::borrow::Cow;
use std::ops::Range;
use std::path::Path;

use crate::error::ArtifactError;

/// The index keeps, for every block of this many bytes, the number of line
/// breaks before it; a line is then found by counting inside one block.
const BLOCK: usize = 64 * 1024;

/// Full scans go through the bytes in windows of this size (16 MiB),
/// releasing each behind them (so a mapped file's pages do not pile up in
/// memory).
pub(crate) const WINDOW: usize = 16 << 20;

/// Line positions of a byte buffer, by @nhtio/adk's rules: lines split on
/// `\n` only (a `\r` stays in its line), empty content has no lines, and a
/// trailing `\n` gives a final empty line. Keeps one count per 64 KiB block
/// (128 KiB for a 1 GB file), built by SIMD byte counting.
#[derive(Debug, Clone, Default)]
pub(crate) struct LineIndex {
    /// Line breaks before each block.
    breaks_before: Vec<u64>,
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
        let mut breaks_before = Vec::with_capacity(bytes.len() / BLOCK + 1);
        let mut breaks = 0u64;
        let mut window = 0;
        while window < bytes.len() {
            let end = (window + WINDOW).min(bytes.len());
            for block in bytes.get(window..end).unwrap_or_default().chunks(BLOCK) {
                breaks_before.push(breaks);
                breaks += bytecount::count(block, b'\n') as u64;
            }
            release(window..end);
            progress(end);
            window = end;
        }
        Self {
            breaks_before,
            lines: usize::try_from(breaks)
                .unwrap_or(usize::MAX)
                .saturating_add(1),
        }
    }

    pub(crate) fn line_count(&self) -> usize {
        self.lines
    }

    /// The byte range of line `i` (without its `\n`).
    pub(crate) fn line_range(&self, bytes: &[u8], i: usize) -> Option<Range<usize>> {
        if i >= self.lines {
            return None;
        }
        let start = if i == 0 {
            // A byte order mark is not part of the first line.
            flexmd_core::bom_len(bytes)
        } else {
            // Line i starts after break number i (1-based): find its block.
            let target = i as u64;
            let block = self
                .breaks_before
                .partition_point(|&b| b < target)
                .checked_sub(1)?;
            let mut seen = *self.breaks_before.get(block)?;
            let from = block * BLOCK;
            let mut found = None;
            for nl in memchr::memchr_iter(b'\n', bytes.get(from..)?) {
                seen += 1;
                if seen == target {
                    found = Some(from + nl + 1);
                    break;
                }
            }
            found?
        };
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
        let block = offset / BLOCK;
        let before = self.breaks_before.get(block).copied().unwrap_or(0);
        let within = bytecount::count(bytes.get(block * BLOCK..offset).unwrap_or_default(), b'\n');
        (usize::try_from(before)
            .unwrap_or(usize::MAX)
            .saturating_add(within))
        .min(self.lines - 1)
    }
}

/// A read-only, line-oriented view of an artifact's bytes (@nhtio/adk's
/// `SpoolReader`). Lines follow @nhtio/adk's rules: split on `\n` only, `\r`
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

impl dyn SpoolReader + '_ {
    /// The first `n` lines (all of them when there are fewer), read from
    /// the start without the line index.
    ///
    /// ```
    /// use flexmd_artifact::{MemoryReader, SpoolReader};
    /// let reader: &dyn SpoolReader = &MemoryReader::new("\u{feff}a\nb\n");
    /// assert_eq!(reader.first_lines(2), ["a", "b"]);
    /// assert_eq!(reader.first_lines(9), ["a", "b", ""]);
    /// ```
    pub fn first_lines(&self, n: usize) -> Vec<Cow<'_, str>> {
        let bytes = self.bytes();
        let mut out = Vec::new();
        if bytes.is_empty() {
            return out;
        }
        let mut at = flexmd_core::bom_len(bytes);
        while out.len() < n {
            let rest = bytes.get(at..).unwrap_or_default();
            match memchr::memchr(b'\n', rest) {
                Some(len) => {
                    out.push(String::from_utf8_lossy(rest.get(..len).unwrap_or_default()));
                    at += len + 1;
                }
                None => {
                    out.push(String::from_utf8_lossy(rest));
                    break;
                }
            }
        }
        out
    }

    /// The last `n` lines (all of them when there are fewer), in order,
    /// read backwards from the end without the line index: the last lines
    /// of a 1 GB file cost what reading them costs.
    ///
    /// ```
    /// use flexmd_artifact::{MemoryReader, SpoolReader};
    /// let reader: &dyn SpoolReader = &MemoryReader::new("a\nb\nc");
    /// assert_eq!(reader.last_lines(2), ["b", "c"]);
    /// let reader: &dyn SpoolReader = &MemoryReader::new("\u{feff}a\n");
    /// assert_eq!(reader.last_lines(5), ["a", ""]);
    /// ```
    pub fn last_lines(&self, n: usize) -> Vec<Cow<'_, str>> {
        let bytes = self.bytes();
        let mut out = Vec::new();
        if bytes.is_empty() {
            return out;
        }
        let first = flexmd_core::bom_len(bytes);
        let mut end = bytes.len();
        while out.len() < n {
            let before = bytes.get(..end).unwrap_or_default();
            match memchr::memrchr(b'\n', before) {
                Some(nl) => {
                    out.push(String::from_utf8_lossy(
                        bytes.get(nl + 1..end).unwrap_or_default(),
                    ));
                    end = nl;
                }
                None => {
                    out.push(String::from_utf8_lossy(
                        bytes.get(first.min(end)..end).unwrap_or_default(),
                    ));
                    break;
                }
            }
        }
        out.reverse();
        out
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
/// its end). The line index is built in one streaming pass when a line
/// number is first needed (`head` and `tail` need none: they read from the
/// start or the end), or on open with [`FileReader::open_with_progress`].
/// The file must not change while it is open.
#[derive(Debug)]
pub struct FileReader {
    map: Storage,
    index: std::sync::OnceLock<LineIndex>,
}

/// Where a file's bytes are: mapped; read into memory (a file whose size
/// the system reports as 0 but which has content, as procfs and sysfs
/// files do); or nowhere (an empty file, which cannot be mapped on every
/// platform).
#[derive(Debug)]
enum Storage {
    Mapped(memmap2::Mmap),
    Read(Vec<u8>),
    Empty,
}

/// The most a file of reported size 0 may hold when it is read (procfs
/// and sysfs files are small; a device that never ends must not fill
/// memory).
pub const MAX_UNSIZED_FILE_BYTES: usize = 64 * 1024 * 1024;

impl FileReader {
    /// Maps the file at `path`; its line index is built on first use.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, ArtifactError> {
        let path = path.as_ref();
        Ok(Self {
            map: map_path(path)?,
            index: std::sync::OnceLock::new(),
        })
    }

    /// Maps the file at `path` and builds its line index now, calling
    /// `progress` with the bytes indexed so far every 16 MiB (for a
    /// progress line on large files).
    pub fn open_with_progress(
        path: &Path,
        progress: &mut dyn FnMut(usize),
    ) -> Result<Self, ArtifactError> {
        let map = map_path(path)?;
        let index = LineIndex::build(map.bytes(), progress, &|range| {
            if let Storage::Mapped(map) = &map {
                release_pages(map, range);
            }
        });
        Ok(Self {
            map,
            index: std::sync::OnceLock::from(index),
        })
    }

    /// The line index, built on first use.
    fn index(&self) -> &LineIndex {
        self.index.get_or_init(|| {
            LineIndex::build(self.bytes(), &mut |_| {}, &|range| self.release(range))
        })
    }
}

impl Storage {
    fn bytes(&self) -> &[u8] {
        match self {
            Self::Mapped(map) => map,
            Self::Read(bytes) => bytes,
            Self::Empty => &[],
        }
    }
}

/// The file at `path`: mapped, or read when it reports a size of 0 but
/// has content (procfs, sysfs). What is not a regular file — a pipe (whose
/// opening would wait for a writer), a device, a socket, a directory — is
/// refused with a message that says what to do instead.
fn map_path(path: &Path) -> Result<Storage, ArtifactError> {
    let io = |source| ArtifactError::Io {
        path: path.to_owned(),
        source,
    };
    // `metadata` never blocks, where opening a pipe would.
    let kind = std::fs::metadata(path).map_err(io)?.file_type();
    if !kind.is_file() {
        return Err(io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "it is {}, not a regular file: give its content on standard input instead",
                file_kind(&kind)
            ),
        )));
    }
    let file = std::fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    if len == 0 {
        let mut bytes = Vec::new();
        let limit = u64::try_from(MAX_UNSIZED_FILE_BYTES).unwrap_or(u64::MAX);
        std::io::Read::read_to_end(&mut std::io::Read::take(&file, limit + 1), &mut bytes)
            .map_err(io)?;
        if bytes.len() > MAX_UNSIZED_FILE_BYTES {
            return Err(io(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "its size is reported as 0 but it holds more than {} MiB: copy it to a \
                     regular file first",
                    MAX_UNSIZED_FILE_BYTES >> 20
                ),
            )));
        }
        return Ok(if bytes.is_empty() {
            Storage::Empty
        } else {
            Storage::Read(bytes)
        });
    }
    map_file(&file).map(Storage::Mapped).map_err(io)
}

/// What a file that is not a regular file is, in a few words.
fn file_kind(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a pipe (FIFO)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "not a regular file"
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
    #[cfg(unix)]
    let _ = unsafe {
        map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start)
    };
    // Elsewhere (Windows, WebAssembly) there is no such advice: pages stay
    // until the map is dropped.
    #[cfg(not(unix))]
    let _ = (map, start, end);
}

impl SpoolReader for FileReader {
    fn bytes(&self) -> &[u8] {
        self.map.bytes()
    }
    fn release(&self, range: Range<usize>) {
        if let Storage::Mapped(map) = &self.map {
            release_pages(map, range);
        }
    }
    fn line_count(&self) -> usize {
        self.index().line_count()
    }
    fn line_range(&self, i: usize) -> Option<Range<usize>> {
        self.index().line_range(self.bytes(), i)
    }
    fn line_of(&self, offset: usize) -> usize {
        self.index().line_of(self.bytes(), offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_agrees_with_a_split_across_blocks() {
        // Lines of varied lengths over several 64 KiB blocks, with a line
        // break exactly at a block edge and a line longer than a block.
        let mut text = String::new();
        for i in 0..9000 {
            text.push_str(&"x".repeat(i % 37));
            text.push('\n');
        }
        text.push_str(&"y".repeat(3 * BLOCK));
        text.push('\n');
        text.push_str("last");
        let reader = MemoryReader::new(text.clone());
        let lines: Vec<&str> = text.split('\n').collect();
        assert_eq!(reader.line_count(), lines.len());
        let mut offset = 0;
        for (i, line) in lines.iter().enumerate() {
            assert_eq!(reader.line(i).as_deref(), Some(*line), "line {i}");
            assert_eq!(reader.line_of(offset), i, "offset {offset}");
            assert_eq!(reader.line_of(offset + line.len()), i);
            offset += line.len() + 1;
        }
        assert_eq!(reader.line(lines.len()), None);
        assert_eq!(reader.line_of(usize::MAX), lines.len() - 1);
    }

    proptest::proptest! {
        #[test]
        fn first_and_last_lines_are_the_indexed_lines(
            text in "(\u{feff})?([a-c\r\n]|é){0,40}",
            n in 0usize..12,
        ) {
            let reader: &dyn SpoolReader = &MemoryReader::new(text.clone());
            let count = reader.line_count();
            let indexed = |range: Range<usize>| -> Vec<String> {
                range.filter_map(|i| reader.line(i).map(Cow::into_owned)).collect()
            };
            let first: Vec<String> = reader.first_lines(n).into_iter().map(Cow::into_owned).collect();
            let last: Vec<String> = reader.last_lines(n).into_iter().map(Cow::into_owned).collect();
            proptest::prop_assert_eq!(first, indexed(0..n.min(count)));
            proptest::prop_assert_eq!(last, indexed(count.saturating_sub(n)..count));
        }
    }

    #[test]
    fn a_file_opened_lazily_reads_its_ends_without_an_index() {
        let dir = std::env::temp_dir().join(format!("flexmd-lazy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("log.txt");
        std::fs::write(&path, "one\ntwo\nthree\n").unwrap();
        let file = FileReader::open(&path).unwrap();
        let reader: &dyn SpoolReader = &file;
        assert_eq!(reader.last_lines(2), ["three", ""]);
        assert_eq!(reader.first_lines(1), ["one"]);
        assert!(file.index.get().is_none(), "no index for the ends");
        assert_eq!(reader.line_count(), 4);
        assert!(file.index.get().is_some());
        let eager = FileReader::open_with_progress(&path, &mut |_| {}).unwrap();
        assert!(eager.index.get().is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
