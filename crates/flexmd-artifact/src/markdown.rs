//! Markdown artifacts (@nhtio/adk's `SpooledMarkdownArtifact`): a structural
//! index built in one line scan that keeps no content, and bounded inline
//! queries over line ranges.

use std::collections::HashMap;
use std::sync::OnceLock;

use std::borrow::Cow;

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::artifact::{SpooledArtifact, TextChunk};
use crate::autolink::Link;
use crate::error::ArtifactError;
use crate::reader::SpoolReader;

/// Front matter larger than this is refused (YAML is parsed whole).
pub const MAX_FRONTMATTER_BYTES: usize = 1 << 20;

/// `md_ast` reads at most this much text (markdown-rs is slow and
/// memory-hungry on large input; bound the range with `md_sections`).
pub const MAX_AST_BYTES: usize = 1 << 20;

/// Lines are read by `md_text`, `md_links` and `md_images` in pieces of
/// about this many bytes (cut before headings and at blank lines outside
/// fenced code).
const PIECE_BYTES: usize = 1 << 20;

/// `md_ast` refuses text whose block quotes or lists nest deeper than this
/// (markdown-rs is superlinear on deep nesting: a list nested 400 levels
/// across lines took 0.9 s, 1 000 levels 12 s). A line's nesting is its
/// markers plus half its indentation, so a list nested across lines counts.
pub const MAX_AST_NESTING: usize = 32;

/// `md_ast` refuses text with more `[` than this that no `]` closes on the
/// same line (markdown-rs is superlinear on unclosed link openers: 50 000
/// took 0.55 s, 100 000 4.9 s, 400 KB over a minute); 5 000 take under 20 ms.
pub const MAX_AST_OPEN_BRACKETS: usize = 5_000;

/// A heading in the index (@nhtio/adk's `MarkdownHeadingEntry`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct HeadingEntry {
    /// 1 to 6 (`#` to `######`; a setext `=` underline is 1, `-` is 2).
    pub depth: u8,
    /// The heading text, markers and closing `#`s removed, trimmed.
    pub text: String,
    /// The heading's line (for a setext heading, its first text line).
    pub start_line: usize,
    /// The last line of its section (inclusive).
    pub end_line: usize,
}

/// A fenced code block in the index (@nhtio/adk's `MarkdownCodeEntry`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CodeEntry {
    /// The info string's first word, or `None`.
    pub lang: Option<String>,
    /// The opening fence's line.
    pub start_line: usize,
    /// The closing fence's line (the last line when the fence is unclosed).
    pub end_line: usize,
}

/// A section (@nhtio/adk's `MarkdownSection`): line numbers only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Section {
    /// The heading's depth.
    pub depth: u8,
    /// The heading text.
    pub heading: String,
    /// The heading's line.
    pub heading_line: usize,
    /// The first body line (after the heading, or its setext underline).
    pub body_start_line: usize,
    /// The last body line (inclusive): before the next heading of the same
    /// or a higher level, or the last line. Less than `body_start_line`
    /// when the body is empty.
    pub body_end_line: usize,
}

/// An image found by [`SpooledMarkdownArtifact::md_images`]: `{alt, url, title?}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Image {
    /// The alt text (`![this](…)`), markup removed.
    pub alt: String,
    /// The image's address.
    pub url: String,
    /// The title, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl Image {
    /// An image read by the shared link reader, whose text is the alt text.
    pub(crate) fn from_link(link: Link) -> Self {
        Self {
            alt: link.text,
            url: link.url,
            title: link.title,
        }
    }
}

/// A heading in the index: where it is, not what it says (its text is read
/// again from its lines when asked for), so 10 million headings take 160 MB,
/// not a gigabyte.
#[derive(Debug, Clone, Copy)]
struct Mark {
    /// The heading's first line.
    line: usize,
    /// Lines from `line` to the section's body: 1 for `#` headings, the
    /// paragraph's lines and the underline for setext headings.
    lines: u32,
    depth: u8,
}

impl Mark {
    fn body_start(self) -> usize {
        self.line + self.lines as usize
    }
}

/// A fenced code block in the index: its lines (the language is read
/// again from the opening line when asked for).
#[derive(Debug, Clone, Copy)]
struct Fence {
    start_line: usize,
    end_line: usize,
}

/// The most reference definitions the index keeps (each holds its label,
/// address and title): links using labels defined past this many resolve
/// only in ranges that hold their definitions.
const MAX_DEFINITIONS: usize = 100_000;

#[derive(Debug, Default)]
struct Index {
    headings: Vec<Mark>,
    code: Vec<Fence>,
    /// Lines of the front matter block, `---` lines included.
    frontmatter: Option<(usize, usize)>,
    /// Reference definitions (`[label]: url "title"`), for links in ranges
    /// that do not hold their definitions.
    definitions: HashMap<String, (String, Option<String>)>,
}

/// A Markdown artifact: the base line operations plus structure queries.
///
/// ```
/// use flexmd_artifact::{MemoryReader, SpooledMarkdownArtifact};
///
/// let doc = "---\ntitle: Notes\n---\n# Intro\ntext\n```md\n# not a heading\n```\n## Detail\nmore\n";
/// let a = SpooledMarkdownArtifact::new(MemoryReader::new(doc));
/// let sections = a.md_sections(None);
/// assert_eq!(sections[0].heading, "Intro");
/// assert_eq!((sections[0].body_start_line, sections[0].body_end_line), (4, 10), "`##` is inside `#`");
/// assert_eq!(a.md_frontmatter().unwrap().unwrap()["title"], "Notes");
/// assert_eq!(a.md_code_blocks(Some("md"))[0].start_line, 5);
/// ```
#[derive(Debug)]
pub struct SpooledMarkdownArtifact {
    base: SpooledArtifact,
    index: OnceLock<Index>,
    /// The index while [`SpooledMarkdownArtifact::index_chunk`] builds it.
    building: std::sync::Mutex<Option<Box<IndexBuilder>>>,
}

impl SpooledMarkdownArtifact {
    /// A Markdown artifact over `reader`; the index is built on first use.
    pub fn new(reader: impl SpoolReader + 'static) -> Self {
        Self {
            base: SpooledArtifact::new(reader),
            index: OnceLock::new(),
            building: std::sync::Mutex::new(None),
        }
    }

    /// A Markdown artifact over an artifact already built.
    pub(crate) fn from_base(base: SpooledArtifact) -> Self {
        Self {
            base,
            index: OnceLock::new(),
            building: std::sync::Mutex::new(None),
        }
    }

    /// The line operations (`head`, `grep`, ...).
    pub fn base(&self) -> &SpooledArtifact {
        &self.base
    }

    fn index(&self) -> &Index {
        self.index.get_or_init(|| {
            let reader = self.base.reader();
            let partial = self
                .building
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take();
            match partial {
                Some(mut builder) => {
                    builder.advance(reader, usize::MAX);
                    builder.finish(reader)
                }
                None => build_index(reader),
            }
        })
    }

    /// Builds the structure index (headings, code blocks, front matter,
    /// reference definitions) a piece at a time, about `budget` bytes of
    /// text per call, for a host that must not be held for the whole text
    /// at once (the npm package gives its event loop a turn between
    /// pieces); returns whether the index is complete. Any query builds
    /// what is left.
    ///
    /// ```
    /// use flexmd_artifact::{MemoryReader, SpooledMarkdownArtifact};
    ///
    /// let doc: String = (0..100).map(|i| format!("# H{i}\ntext\n")).collect();
    /// let a = SpooledMarkdownArtifact::new(MemoryReader::new(doc));
    /// let mut calls = 1;
    /// while !a.index_chunk(64) {
    ///     calls += 1;
    /// }
    /// assert!(calls > 10);
    /// assert_eq!(a.md_headings(None).len(), 100);
    /// ```
    pub fn index_chunk(&self, budget: usize) -> bool {
        if self.index.get().is_some() {
            return true;
        }
        let reader = self.base.reader();
        let mut building = self
            .building
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let builder = building.get_or_insert_with(Box::default);
        if !builder.advance(reader, budget) {
            return false;
        }
        if let Some(builder) = building.take() {
            let _ = self.index.set(builder.finish(reader));
        }
        true
    }

    /// The front matter as JSON: an object (empty for an empty block),
    /// `None` when line 0 is not `---` or the block is never closed. YAML
    /// is read with size (1 MiB), depth and alias-expansion limits.
    pub fn md_frontmatter(&self) -> Result<Option<Value>, ArtifactError> {
        let Some((first, last)) = self.index().frontmatter else {
            return Ok(None);
        };
        let reader = self.base.reader();
        let (Some(start), Some(end)) = (reader.line_range(first + 1), reader.line_range(last))
        else {
            return Ok(Some(Value::Object(serde_json::Map::new())));
        };
        if start.start >= end.start {
            return Ok(Some(Value::Object(serde_json::Map::new())));
        }
        let bytes = reader.byte_range(start.start..end.start);
        if bytes.len() > MAX_FRONTMATTER_BYTES {
            return Err(ArtifactError::Markdown(format!(
                "the front matter is {} bytes; at most {MAX_FRONTMATTER_BYTES} are read",
                bytes.len()
            )));
        }
        let text = String::from_utf8_lossy(bytes);
        if text.trim().is_empty() {
            return Ok(Some(Value::Object(serde_json::Map::new())));
        }
        // serde_yaml limits recursion (128) and alias expansion itself.
        let yaml: serde_yaml::Value = serde_yaml::from_str(&text)
            .map_err(|e| ArtifactError::Markdown(format!("the front matter is not YAML: {e}")))?;
        let json = serde_json::to_value(yaml).map_err(|e| {
            ArtifactError::Markdown(format!("the front matter has no JSON form: {e}"))
        })?;
        Ok(Some(match json {
            Value::Null => Value::Object(serde_json::Map::new()),
            other => other,
        }))
    }

    /// The headings in document order, of one depth when given.
    pub fn md_headings(&self, depth: Option<u8>) -> Vec<HeadingEntry> {
        self.headings(depth).collect()
    }

    /// The sections, of one depth when given (deeper headings are then part
    /// of the body).
    pub fn md_sections(&self, depth: Option<u8>) -> Vec<Section> {
        self.sections(depth).collect()
    }

    /// Headings `[start, start + max)` of [`Self::md_headings`] (of one
    /// depth when given), and where the next chunk starts (`None` after the
    /// last): for a caller that must give control back between chunks (the
    /// npm package's event loop). The chunks' items, in order, are exactly
    /// `md_headings`.
    ///
    /// ```
    /// use flexmd_artifact::{MemoryReader, SpooledMarkdownArtifact};
    /// let doc = SpooledMarkdownArtifact::new(MemoryReader::new("# A\n## B\n## C\n"));
    /// let first = doc.md_headings_chunk(None, 0, 2);
    /// assert_eq!((first.items.len(), first.next), (2, Some(2)));
    /// let last = doc.md_headings_chunk(None, 2, 2);
    /// assert_eq!((last.items[0].text.as_str(), last.next), ("C", None));
    /// ```
    pub fn md_headings_chunk(
        &self,
        depth: Option<u8>,
        start: usize,
        max: usize,
    ) -> ListChunk<HeadingEntry> {
        let mut lines = LineCursor::new(self.base.reader());
        let (items, next) = chunk_of(self.entries(depth), start, max);
        ListChunk {
            items: items
                .into_iter()
                .map(|(h, end)| HeadingEntry {
                    depth: h.depth,
                    text: Self::heading_text(h, &mut lines),
                    start_line: h.line,
                    end_line: end,
                })
                .collect(),
            next,
        }
    }

    /// Sections `[start, start + max)` of [`Self::md_sections`], as
    /// [`Self::md_headings_chunk`] gives headings.
    pub fn md_sections_chunk(
        &self,
        depth: Option<u8>,
        start: usize,
        max: usize,
    ) -> ListChunk<Section> {
        let mut lines = LineCursor::new(self.base.reader());
        let (items, next) = chunk_of(self.entries(depth), start, max);
        ListChunk {
            items: items
                .into_iter()
                .map(|(h, end)| Section {
                    depth: h.depth,
                    heading: Self::heading_text(h, &mut lines),
                    heading_line: h.line,
                    body_start_line: h.body_start(),
                    body_end_line: end,
                })
                .collect(),
            next,
        }
    }

    /// The index's headings of one depth (or all), each with the last line
    /// of its section.
    fn entries(&self, depth: Option<u8>) -> impl Iterator<Item = (Mark, usize)> + '_ {
        let headings = &self.index().headings;
        let last = self.base.line_count().saturating_sub(1);
        headings
            .iter()
            .enumerate()
            .filter(move |(_, h)| depth.is_none_or(|d| h.depth == d))
            .map(move |(i, h)| (*h, section_end(headings, i, last)))
    }

    /// A heading's text, read again from its lines: `#` markers and closing
    /// `#`s removed, or a setext heading's paragraph lines joined.
    fn heading_text(mark: Mark, lines: &mut LineCursor<'_>) -> String {
        let mut line = |i: usize| {
            let raw = lines.line(i).unwrap_or_default();
            match raw.strip_suffix('\r') {
                Some(l) => l.to_owned(),
                None => raw.into_owned(),
            }
        };
        if mark.lines <= 1 {
            let text = line(mark.line);
            let body = text.trim_start_matches(' ');
            return atx(body).map(|(_, t)| t.to_owned()).unwrap_or_default();
        }
        let mut text = String::new();
        for i in mark.line..mark.body_start().saturating_sub(1) {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(line(i).trim());
        }
        text
    }

    /// [`SpooledMarkdownArtifact::md_headings`], lazily.
    pub(crate) fn headings(&self, depth: Option<u8>) -> impl Iterator<Item = HeadingEntry> + '_ {
        let mut lines = LineCursor::new(self.base.reader());
        self.entries(depth).map(move |(h, end)| HeadingEntry {
            depth: h.depth,
            text: Self::heading_text(h, &mut lines),
            start_line: h.line,
            end_line: end,
        })
    }

    /// [`SpooledMarkdownArtifact::md_sections`], lazily.
    pub(crate) fn sections(&self, depth: Option<u8>) -> impl Iterator<Item = Section> + '_ {
        let mut lines = LineCursor::new(self.base.reader());
        self.entries(depth).map(move |(h, end)| Section {
            depth: h.depth,
            heading: Self::heading_text(h, &mut lines),
            heading_line: h.line,
            body_start_line: h.body_start(),
            body_end_line: end,
        })
    }

    /// How many headings (of one depth when given) there are.
    pub(crate) fn heading_count(&self, depth: Option<u8>) -> usize {
        self.index()
            .headings
            .iter()
            .filter(|h| depth.is_none_or(|d| h.depth == d))
            .count()
    }

    /// The fenced code blocks; with `Some(lang)`, those of that language
    /// (`Some("")` selects blocks with no language).
    pub fn md_code_blocks(&self, lang: Option<&str>) -> Vec<CodeEntry> {
        let reader = self.base.reader();
        self.index()
            .code
            .iter()
            .map(|c| CodeEntry {
                lang: reader.line(c.start_line).and_then(|line| {
                    let line = line.strip_suffix('\r').unwrap_or(&line);
                    opens(line.trim_start_matches(' ')).and_then(|open| open.1)
                }),
                start_line: c.start_line,
                end_line: c.end_line,
            })
            .filter(|c| match lang {
                None => true,
                Some("") => c.lang.is_none(),
                Some(l) => c.lang.as_deref() == Some(l),
            })
            .collect()
    }

    /// Links in lines `[start, end)` (inline, autolink and reference forms;
    /// references resolve against definitions anywhere in the document).
    pub fn md_links(&self, start: Option<usize>, end: Option<usize>) -> Vec<Link> {
        self.inline(start, end, false)
    }

    /// Images in lines `[start, end)` (inline and reference forms).
    ///
    /// ```
    /// use flexmd_artifact::{Image, MemoryReader, SpooledMarkdownArtifact};
    /// let a = SpooledMarkdownArtifact::new(MemoryReader::new("![a *cat*](cat.png \"Cat\")\n"));
    /// assert_eq!(
    ///     a.md_images(None, None),
    ///     [Image { alt: "a cat".into(), url: "cat.png".into(), title: Some("Cat".into()) }]
    /// );
    /// ```
    pub fn md_images(&self, start: Option<usize>, end: Option<usize>) -> Vec<Image> {
        self.inline(start, end, true)
            .into_iter()
            .map(Image::from_link)
            .collect()
    }

    /// The text of lines `[start, end)` with the markup removed; blocks are
    /// separated by a blank line. Code, link text and alt text are kept.
    pub fn md_text(&self, start: Option<usize>, end: Option<usize>) -> String {
        self.md_text_limited(start, end, usize::MAX)
    }

    /// Byte ranges that cover lines `[start, end)` (without the line break
    /// that ends the last), cut before each heading and, in a stretch
    /// larger than [`PIECE_BYTES`], after blank lines outside fenced code:
    /// each is parsed on its own, so memory follows the piece, not the file
    /// (the Markdown parser builds a document's whole block tree before its
    /// first event). Lazy, in one pass over the bytes: a caller that stops
    /// early reads no further, and the pages of a mapped file behind the
    /// piece being given are released.
    fn pieces(
        &self,
        start: Option<usize>,
        end: Option<usize>,
    ) -> impl Iterator<Item = (usize, std::ops::Range<usize>)> + '_ {
        let (first, last) = self.clamp(start, end);
        let reader = self.base.reader();
        let span = match (
            reader.line_range(first),
            reader.line_range(last.saturating_sub(1)),
        ) {
            (Some(head), Some(tail)) if first < last => Some((head.start, tail.end)),
            _ => None,
        };
        let (from, to) = span.unwrap_or_default();
        let bytes = reader.bytes();
        let index = self.index();
        let mut cuts = index
            .headings
            .iter()
            .map(|h| h.line)
            .filter(move |&l| l > first && l < last)
            .peekable();
        let code = &index.code;
        let in_code = move |line: usize| {
            let i = code.partition_point(|c| c.start_line <= line);
            i.checked_sub(1)
                .and_then(|i| code.get(i))
                .is_some_and(|c| line <= c.end_line)
        };
        // A piece's first byte and line.
        let (mut piece, mut piece_line) = (from, first);
        let (mut pos, mut line) = (from, first);
        let mut released = from;
        let mut given = 0usize;
        std::iter::from_fn(move || {
            span?;
            if released < piece {
                // What came before this piece is not read again.
                reader.release(released..piece);
                released = piece;
            }
            while pos < to {
                while cuts.next_if(|&c| c < line).is_some() {}
                if cuts.next_if_eq(&line).is_some() && pos > piece {
                    let out = (piece_line, piece..pos - 1);
                    (piece, piece_line) = (pos, line);
                    given += 1;
                    return Some(out);
                }
                let nl = memchr::memchr(b'\n', bytes.get(pos..to).unwrap_or_default())
                    .map_or(to, |i| pos + i);
                let blank = bytes
                    .get(pos..nl)
                    .is_some_and(|l| l.iter().all(u8::is_ascii_whitespace));
                let at_line = line;
                pos = nl + 1;
                line += 1;
                if nl - piece > PIECE_BYTES && blank && !in_code(at_line) {
                    let out = (piece_line, piece..nl);
                    (piece, piece_line) = ((nl + 1).min(to), line);
                    given += 1;
                    return Some(out);
                }
            }
            if piece < to || (given == 0 && piece <= to) {
                let out = (piece_line, piece..to);
                piece = to + 1;
                given += 1;
                return Some(out);
            }
            None
        })
    }

    /// [`Self::md_text`], stopping once the text passes `max_bytes`.
    pub(crate) fn md_text_limited(
        &self,
        start: Option<usize>,
        end: Option<usize>,
        max_bytes: usize,
    ) -> String {
        let mut out = String::new();
        let mut block = String::new();
        for (_, piece) in self.pieces(start, end) {
            if out.len() > max_bytes || crate::cancel::cancelled() {
                break;
            }
            self.text_of(piece, &mut out, &mut block, max_bytes);
        }
        flush(&mut out, &mut block);
        out
    }

    /// One chunk of [`Self::md_text`] of lines `[start, end)`: the text of
    /// the pieces the Markdown is read in (cut before headings and at blank
    /// lines) from line `at` (`None`: `start`) until the text reaches
    /// `max_bytes`, and the line the next chunk starts at (`None` after the
    /// last). Start with `None` and go on at each chunk's `next`, to give
    /// control back between chunks (the npm package's event loop): the
    /// chunks' texts that are not empty, joined with a blank line (`\n\n`),
    /// are exactly `md_text`. An `at` that is not a `next` gives the text
    /// from the piece starting there, clamped to the range.
    ///
    /// ```
    /// use flexmd_artifact::{MemoryReader, SpooledMarkdownArtifact};
    /// let doc = SpooledMarkdownArtifact::new(MemoryReader::new("# A\ntext\n## B\nmore *words*\n"));
    /// let (mut texts, mut at) = (Vec::new(), None);
    /// loop {
    ///     let chunk = doc.md_text_chunk(None, None, at, 1);
    ///     texts.push(chunk.text);
    ///     match chunk.next {
    ///         Some(next) => at = Some(next),
    ///         None => break,
    ///     }
    /// }
    /// assert_eq!(texts, ["A\n\ntext", "B\n\nmore words"]);
    /// assert_eq!(texts.join("\n\n"), doc.md_text(None, None));
    /// ```
    pub fn md_text_chunk(
        &self,
        start: Option<usize>,
        end: Option<usize>,
        at: Option<usize>,
        max_bytes: usize,
    ) -> TextChunk {
        let (first, last) = self.clamp(start, end);
        let at = at.unwrap_or(first).clamp(first, last);
        let (mut out, mut block) = (String::new(), String::new());
        let mut pieces = self.pieces(Some(at), Some(last)).peekable();
        let mut next = None;
        while let Some((_, piece)) = pieces.next() {
            if crate::cancel::cancelled() {
                break;
            }
            self.text_of(piece, &mut out, &mut block, usize::MAX);
            if out.len() + block.len() >= max_bytes {
                next = pieces.peek().map(|(line, _)| *line);
                break;
            }
        }
        flush(&mut out, &mut block);
        TextChunk { text: out, next }
    }

    /// The text of the bytes `range`, appended to `out` block by block.
    fn text_of(
        &self,
        range: std::ops::Range<usize>,
        out: &mut String,
        block: &mut String,
        max_bytes: usize,
    ) {
        let frontmatter = range.start == 0;
        let text = String::from_utf8_lossy(self.base.reader().byte_range(range));
        // Front matter is data, not text: `md_frontmatter` gives it.
        let mut in_frontmatter = false;
        for event in parser(&text, &self.index().definitions, frontmatter) {
            if out.len() + block.len() > max_bytes {
                break;
            }
            match event {
                Event::Start(Tag::MetadataBlock(_)) => in_frontmatter = true,
                Event::End(TagEnd::MetadataBlock(_)) => in_frontmatter = false,
                Event::Text(_) if in_frontmatter => {}
                Event::Text(t) | Event::Code(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                    block.push_str(&t)
                }
                Event::SoftBreak | Event::HardBreak => block.push('\n'),
                Event::End(
                    TagEnd::Paragraph
                    | TagEnd::Heading(_)
                    | TagEnd::CodeBlock
                    | TagEnd::Item
                    | TagEnd::TableRow
                    | TagEnd::TableHead,
                ) => flush(out, block),
                Event::End(TagEnd::TableCell) => block.push('\t'),
                _ => {}
            }
        }
    }

    /// The mdast tree (markdown-rs, GFM and front matter) of lines
    /// `[start, end)`, with positions shifted to the document: `line` is the
    /// document's 1-based line, `offset` its byte offset. Refused over
    /// [`MAX_AST_BYTES`] or past [`MAX_AST_NESTING`] levels of block quotes
    /// and lists (markdown-rs is quadratic there).
    pub fn md_ast(&self, start: Option<usize>, end: Option<usize>) -> Result<Value, ArtifactError> {
        let (first, _) = self.clamp(start, end);
        let text = self.range_text(start, end);
        if text.len() > MAX_AST_BYTES {
            return Err(ArtifactError::Markdown(format!(
                "the range is {} bytes; md_ast reads at most {MAX_AST_BYTES}: pass startLine/endLine from md_sections",
                text.len()
            )));
        }
        if let Some(line) = text
            .lines()
            .position(|l| nesting(l) + indentation(l) / 2 > MAX_AST_NESTING)
        {
            return Err(ArtifactError::Markdown(format!(
                "line {} nests block quotes or lists deeper than {MAX_AST_NESTING}; md_ast refuses it",
                first + line
            )));
        }
        let open: usize = text.lines().map(open_brackets).sum();
        if open > MAX_AST_OPEN_BRACKETS {
            return Err(ArtifactError::Markdown(format!(
                "the range has {open} `[` that no `]` closes on their line; md_ast reads at most {MAX_AST_OPEN_BRACKETS}: pass a smaller range"
            )));
        }
        let mut options = markdown::ParseOptions::gfm();
        options.constructs.frontmatter = first == 0;
        // markdown-rs has known panics on some inputs (front matter before
        // a list, wooorm/markdown-rs#213): contain them as an error.
        // The options and text are local and not used after a panic.
        let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            markdown::to_mdast(&text, &options)
        }));
        let tree = match parsed {
            Ok(tree) => tree.map_err(|e| ArtifactError::Markdown(format!("markdown-rs: {e}")))?,
            Err(_) => {
                return Err(ArtifactError::Markdown(
                    "markdown-rs failed on this range (a bug in that parser); use md_text, md_links or cat instead"
                        .to_owned(),
                ));
            }
        };
        let mut json = serde_json::to_value(&tree)
            .map_err(|e| ArtifactError::Markdown(format!("mdast has no JSON form: {e}")))?;
        let offset = self.base.reader().line_range(first).map_or(0, |r| r.start);
        shift_positions(&mut json, first, offset);
        Ok(json)
    }

    fn clamp(&self, start: Option<usize>, end: Option<usize>) -> (usize, usize) {
        let count = self.base.line_count();
        let end = end.unwrap_or(count).min(count);
        (start.unwrap_or(0).min(end), end)
    }

    /// Lines `[start, end)` joined with `\n`: the bytes as stored, borrowed
    /// when they are UTF-8 (a 1 GB file is not copied to be read).
    fn range_text(&self, start: Option<usize>, end: Option<usize>) -> Cow<'_, str> {
        let (first, last) = self.clamp(start, end);
        if first == last {
            return Cow::Borrowed("");
        }
        let reader = self.base.reader();
        let (Some(a), Some(b)) = (reader.line_range(first), reader.line_range(last - 1)) else {
            return Cow::Borrowed("");
        };
        String::from_utf8_lossy(reader.byte_range(a.start..b.end))
    }

    fn inline(&self, start: Option<usize>, end: Option<usize>, images: bool) -> Vec<Link> {
        self.inline_limited(start, end, images, usize::MAX)
    }

    /// A chunk of [`Self::md_links`] (or of the images) of lines
    /// `[start, end)`: those in the pieces the Markdown is read in from
    /// line `at` (`None`: `start`) until `max_bytes` of it are parsed.
    fn inline_chunk(
        &self,
        (start, end, at): (Option<usize>, Option<usize>, Option<usize>),
        images: bool,
        max_bytes: usize,
    ) -> ListChunk<Link> {
        let (first, last) = self.clamp(start, end);
        let at = at.unwrap_or(first).clamp(first, last);
        let (mut items, mut parsed, mut next) = (Vec::new(), 0usize, None);
        let mut pieces = self.pieces(Some(at), Some(last)).peekable();
        while let Some((_, piece)) = pieces.next() {
            if crate::cancel::cancelled() {
                break;
            }
            parsed = parsed.saturating_add(piece.len());
            self.inline_of(piece, images, usize::MAX, &mut items);
            if parsed >= max_bytes {
                next = pieces.peek().map(|(line, _)| *line);
                break;
            }
        }
        ListChunk { items, next }
    }

    /// One chunk of [`Self::md_links`] of lines `[start, end)`: the links
    /// in the pieces the Markdown is read in (cut before headings and at
    /// blank lines) from line `at` (`None`: `start`) until `max_bytes` of
    /// it are parsed, and the line the next chunk starts at (`None` after
    /// the last). The chunks' items, in order, are exactly `md_links`.
    ///
    /// ```
    /// use flexmd_artifact::{MemoryReader, SpooledMarkdownArtifact};
    /// let doc = SpooledMarkdownArtifact::new(MemoryReader::new("# A\n[a](x)\n# B\n[b](y)\n"));
    /// let first = doc.md_links_chunk(None, None, None, 1);
    /// assert_eq!((first.items[0].url.as_str(), first.next), ("x", Some(2)));
    /// let last = doc.md_links_chunk(None, None, first.next, 1);
    /// assert_eq!((last.items[0].url.as_str(), last.next), ("y", None));
    /// ```
    pub fn md_links_chunk(
        &self,
        start: Option<usize>,
        end: Option<usize>,
        at: Option<usize>,
        max_bytes: usize,
    ) -> ListChunk<Link> {
        self.inline_chunk((start, end, at), false, max_bytes)
    }

    /// One chunk of [`Self::md_images`], as [`Self::md_links_chunk`] gives
    /// links.
    pub fn md_images_chunk(
        &self,
        start: Option<usize>,
        end: Option<usize>,
        at: Option<usize>,
        max_bytes: usize,
    ) -> ListChunk<Image> {
        let chunk = self.inline_chunk((start, end, at), true, max_bytes);
        ListChunk {
            items: chunk.items.into_iter().map(Image::from_link).collect(),
            next: chunk.next,
        }
    }

    /// The links (or images) of lines `[start, end)`, at most `limit`: the
    /// parse stops there.
    pub(crate) fn inline_limited(
        &self,
        start: Option<usize>,
        end: Option<usize>,
        images: bool,
        limit: usize,
    ) -> Vec<Link> {
        let mut out = Vec::new();
        for (_, piece) in self.pieces(start, end) {
            if out.len() >= limit || crate::cancel::cancelled() {
                break;
            }
            self.inline_of(piece, images, limit, &mut out);
        }
        out
    }

    /// The links (or images) of the bytes `range`, appended to `out` up to
    /// `limit` (links do not cross blocks, so pieces read them whole).
    fn inline_of(
        &self,
        range: std::ops::Range<usize>,
        images: bool,
        limit: usize,
        out: &mut Vec<Link>,
    ) {
        let frontmatter = range.start == 0;
        let text = String::from_utf8_lossy(self.base.reader().byte_range(range));
        // Open links/images: (url, title, text so far).
        let mut open: Vec<(String, Option<String>, String, bool)> = Vec::new();
        // The text node being read outside links and code, for GFM
        // autolink literals (`https://…`, `www.…`, e-mail addresses).
        let mut plain = String::new();
        let mut in_code = false;
        for event in parser(&text, &self.index().definitions, frontmatter) {
            if !images {
                match &event {
                    Event::Text(t) if open.is_empty() && !in_code => plain.push_str(t),
                    Event::SoftBreak if open.is_empty() => plain.push('\n'),
                    _ => {
                        if !plain.is_empty() {
                            crate::autolink::literal_links(&plain, out);
                            plain.clear();
                        }
                    }
                }
                match &event {
                    Event::Start(Tag::CodeBlock(_)) => in_code = true,
                    Event::End(TagEnd::CodeBlock) => in_code = false,
                    _ => {}
                }
            }
            if out.len() >= limit {
                break;
            }
            match event {
                Event::Start(Tag::Link {
                    dest_url, title, ..
                }) => open.push((
                    dest_url.into_string(),
                    non_empty(title),
                    String::new(),
                    false,
                )),
                Event::Start(Tag::Image {
                    dest_url, title, ..
                }) => open.push((
                    dest_url.into_string(),
                    non_empty(title),
                    String::new(),
                    true,
                )),
                Event::Text(t) | Event::Code(t) => {
                    for o in &mut open {
                        o.2.push_str(&t);
                    }
                }
                Event::End(TagEnd::Link | TagEnd::Image) => {
                    if let Some((url, title, text, is_image)) = open.pop()
                        && is_image == images
                    {
                        out.push(Link { text, url, title });
                        if out.len() >= limit {
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
        if !plain.is_empty() && out.len() < limit {
            crate::autolink::literal_links(&plain, out);
        }
        out.truncate(limit);
    }
}

fn non_empty(title: CowStr<'_>) -> Option<String> {
    (!title.is_empty()).then(|| title.into_string())
}

fn flush(out: &mut String, block: &mut String) {
    let text = block.trim_end_matches(['\t', '\n']);
    if !text.is_empty() {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(text);
    }
    block.clear();
}

/// The parser for a piece; `frontmatter` only for the piece at the
/// document's first byte: a `---` block further down is a rule and a
/// paragraph (or a setext heading), as in the whole document.
fn parser<'a>(
    text: &'a str,
    definitions: &'a HashMap<String, (String, Option<String>)>,
    frontmatter: bool,
) -> impl Iterator<Item = Event<'a>> {
    let mut options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    if frontmatter {
        options |= Options::ENABLE_YAML_STYLE_METADATA_BLOCKS;
    }
    Parser::new_with_broken_link_callback(
        text,
        options,
        Some(move |link: pulldown_cmark::BrokenLink<'_>| {
            definitions
                .get(&normalize_label(&link.reference))
                .map(|(url, title)| {
                    (
                        CowStr::from(url.clone()),
                        CowStr::from(title.clone().unwrap_or_default()),
                    )
                })
        }),
    )
}

/// The last line of heading `i`'s section: the line before the next heading
/// of the same or a higher level, or `last`.
fn section_end(headings: &[Mark], i: usize, last: usize) -> usize {
    let Some(depth) = headings.get(i).map(|h| h.depth) else {
        return last;
    };
    headings
        .get(i + 1..)
        .unwrap_or_default()
        .iter()
        .find(|h| h.depth <= depth)
        .map_or(last, |h| h.line.saturating_sub(1))
}

/// The columns of a line's leading whitespace (a tab counts 4).
fn indentation(line: &str) -> usize {
    line.chars()
        .take_while(|c| matches!(c, ' ' | '\t'))
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

/// The `[` of a line that no later `]` on it closes.
fn open_brackets(line: &str) -> usize {
    let mut open = 0usize;
    for b in line.bytes() {
        match b {
            b'[' => open += 1,
            b']' => open = open.saturating_sub(1),
            _ => {}
        }
    }
    open
}

/// How many block quote and list markers open a line.
fn nesting(line: &str) -> usize {
    let mut depth = 0;
    let mut rest = line.trim_start();
    loop {
        if let Some(r) = rest.strip_prefix('>') {
            depth += 1;
            rest = r.trim_start();
        } else if let Some(r) = ["- ", "* ", "+ "].iter().find_map(|m| rest.strip_prefix(m)) {
            depth += 1;
            rest = r.trim_start();
        } else {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            match rest.get(digits..digits + 2) {
                Some(". " | ") ") if digits > 0 => {
                    depth += 1;
                    rest = rest.get(digits + 2..).unwrap_or_default().trim_start();
                }
                _ => return depth,
            }
        }
    }
}

/// Adds `line_shift` to every `line` and `offset` shift to every `offset`
/// inside `position` objects of an mdast JSON tree (iteratively).
fn shift_positions(tree: &mut Value, line_shift: usize, offset_shift: usize) {
    let mut stack = vec![tree];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                if let Some(Value::Object(position)) = map.get_mut("position") {
                    for point in ["start", "end"] {
                        if let Some(Value::Object(p)) = position.get_mut(point) {
                            bump(p.get_mut("line"), line_shift);
                            bump(p.get_mut("offset"), offset_shift);
                        }
                    }
                }
                if let Some(children) = map.get_mut("children") {
                    stack.push(children);
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

fn bump(value: Option<&mut Value>, by: usize) {
    if let Some(v) = value
        && let Some(n) = v.as_u64()
    {
        *v = Value::from(n + by as u64);
    }
}

/// A fence being read: its character, length and opening line.
#[derive(Debug)]
struct OpenFence {
    marker: u8,
    len: usize,
    entry: usize,
}

/// The index, built a piece at a time: one pass over the lines; no
/// content is kept but reference definitions (at most
/// [`MAX_DEFINITIONS`]).
#[derive(Debug, Default)]
struct IndexBuilder {
    index: Index,
    fence: Option<OpenFence>,
    in_frontmatter: bool,
    /// The current paragraph's first line, for setext headings.
    paragraph: Option<usize>,
    /// The next line to read.
    line: usize,
    /// Bytes read so far.
    bytes: usize,
}

impl IndexBuilder {
    /// Reads lines until about `budget` more bytes are read or the text
    /// ends; returns whether it has.
    fn advance(&mut self, reader: &dyn SpoolReader, budget: usize) -> bool {
        let stop = self.bytes.saturating_add(budget);
        for raw in reader.lines_from(self.line) {
            if self.bytes >= stop {
                return false;
            }
            let i = self.line;
            self.line += 1;
            self.bytes += raw.len() + 1;
            let line = raw.strip_suffix('\r').unwrap_or(&raw);
            if i == 0 && line.trim_end() == "---" {
                self.in_frontmatter = true;
                continue;
            }
            if self.in_frontmatter {
                if matches!(line.trim_end(), "---" | "...") {
                    self.in_frontmatter = false;
                    self.index.frontmatter = Some((0, i));
                }
                continue;
            }
            if let Some(open) = &self.fence {
                if closes(line, open) {
                    if let Some(entry) = self.index.code.get_mut(open.entry) {
                        entry.end_line = i;
                    }
                    self.fence = None;
                }
                continue;
            }
            let indent = line.len() - line.trim_start_matches(' ').len();
            let body = line.get(indent..).unwrap_or_default();
            if indent <= 3
                && let Some(open) = opens(body)
            {
                self.paragraph = None;
                self.index.code.push(Fence {
                    start_line: i,
                    end_line: i,
                });
                self.fence = Some(OpenFence {
                    marker: open.0.0,
                    len: open.0.1,
                    entry: self.index.code.len() - 1,
                });
                continue;
            }
            if indent <= 3
                && let Some(depth) = atx_depth(body)
            {
                self.paragraph = None;
                self.index.headings.push(Mark {
                    line: i,
                    lines: 1,
                    depth,
                });
                continue;
            }
            if indent <= 3
                && let Some(depth) = setext_underline(body)
                && let Some(first) = self.paragraph.take()
            {
                self.index.headings.push(Mark {
                    line: first,
                    lines: u32::try_from(i + 1 - first).unwrap_or(u32::MAX),
                    depth,
                });
                continue;
            }
            // `---` after a paragraph is its underline (above); anywhere else
            // it, `***` or `___` is a rule that ends the paragraph and starts
            // none (front matter only opens on the first line).
            if line.trim().is_empty() || (indent <= 3 && thematic_break(body)) {
                self.paragraph = None;
                continue;
            }
            if indent <= 3
                && let Some((label, url, title)) = definition(body)
            {
                if self.index.definitions.len() < MAX_DEFINITIONS {
                    self.index.definitions.entry(label).or_insert((url, title));
                }
                continue;
            }
            // A paragraph line can become a setext heading; list items, quotes
            // and indented code cannot.
            let plain = indent <= 3 && !starts_container(body);
            if self.paragraph.is_none() && plain {
                self.paragraph = Some(i);
            }
        }
        true
    }

    /// The index, once [`IndexBuilder::advance`] has read every line.
    fn finish(mut self, reader: &dyn SpoolReader) -> Index {
        // An unclosed fence runs to the last line.
        if let Some(open) = self.fence
            && let Some(entry) = self.index.code.get_mut(open.entry)
        {
            entry.end_line = reader.line_count().saturating_sub(1);
        }
        // The index lives as long as the artifact: give back the growth slack.
        self.index.headings.shrink_to_fit();
        self.index.code.shrink_to_fit();
        self.index
    }
}

/// The index, in one pass over the lines.
fn build_index(reader: &dyn SpoolReader) -> Index {
    let mut builder = IndexBuilder::default();
    builder.advance(reader, usize::MAX);
    builder.finish(reader)
}

/// An opening fence: (marker, length) and the info string's first word.
fn opens(body: &str) -> Option<((u8, usize), Option<String>)> {
    let marker = *body.as_bytes().first()?;
    if marker != b'`' && marker != b'~' {
        return None;
    }
    let len = body.bytes().take_while(|&b| b == marker).count();
    if len < 3 {
        return None;
    }
    let info = body.get(len..).unwrap_or_default().trim();
    if marker == b'`' && info.contains('`') {
        return None;
    }
    Some((
        (marker, len),
        info.split_whitespace().next().map(str::to_owned),
    ))
}

/// Whether `line` closes `fence`: the same character, at least as long,
/// nothing after but spaces, indented at most three spaces.
fn closes(line: &str, fence: &OpenFence) -> bool {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let body = line.get(indent..).unwrap_or_default();
    let len = body.bytes().take_while(|&b| b == fence.marker).count();
    indent <= 3 && len >= fence.len && body.get(len..).is_some_and(|r| r.trim().is_empty())
}

/// An ATX heading: depth and text (closing `#` run removed).
fn atx(body: &str) -> Option<(u8, &str)> {
    let hashes = body.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&hashes) {
        return None;
    }
    let rest = body.get(hashes..).unwrap_or_default();
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let mut text = rest.trim();
    // A closing run of `#` counts only after a space (or as the whole text).
    let without = text.trim_end_matches('#');
    if without.is_empty() || without.ends_with([' ', '\t']) {
        text = without.trim_end();
    }
    Some((u8::try_from(hashes).ok()?, text))
}

/// The depth of an ATX heading line, without its text.
fn atx_depth(body: &str) -> Option<u8> {
    atx(body).map(|(depth, _)| depth)
}

/// A setext underline: `=` gives 1, `-` gives 2.
fn setext_underline(body: &str) -> Option<u8> {
    let t = body.trim_end();
    if t.is_empty() {
        return None;
    }
    if t.bytes().all(|b| b == b'=') {
        Some(1)
    } else if t.bytes().all(|b| b == b'-') {
        Some(2)
    } else {
        None
    }
}

/// A thematic break: three or more `-`, `*` or `_` (the same one), with
/// only spaces or tabs between.
fn thematic_break(body: &str) -> bool {
    let mut marks = body.bytes().filter(|b| !matches!(b, b' ' | b'\t'));
    let Some(first) = marks.next() else {
        return false;
    };
    let mut count = 1;
    for b in marks {
        if b != first {
            return false;
        }
        count += 1;
    }
    matches!(first, b'-' | b'*' | b'_') && count >= 3
}

fn starts_container(body: &str) -> bool {
    if body.starts_with('>') || ["- ", "* ", "+ "].iter().any(|m| body.starts_with(m)) {
        return true;
    }
    if matches!(body, "-" | "*" | "+") {
        return true;
    }
    let digits = body.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && matches!(body.get(digits..digits + 1), Some("." | ")"))
}

/// A link reference definition on one line: `[label]: url "title"`.
fn definition(body: &str) -> Option<(String, String, Option<String>)> {
    let rest = body.strip_prefix('[')?;
    let close = rest.find("]:")?;
    let label = rest.get(..close)?;
    if label.trim().is_empty() || label.contains(['[', ']']) {
        return None;
    }
    let after = rest.get(close + 2..)?.trim();
    let (url, title) = match after.split_once(char::is_whitespace) {
        Some((url, title)) => {
            let t = title.trim();
            let title = t
                .strip_prefix('"')
                .and_then(|t| t.strip_suffix('"'))
                .or_else(|| t.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')))
                .or_else(|| t.strip_prefix('(').and_then(|t| t.strip_suffix(')')))?;
            (url, Some(title.to_owned()))
        }
        None => (after, None),
    };
    if url.is_empty() {
        return None;
    }
    let url = url
        .strip_prefix('<')
        .and_then(|u| u.strip_suffix('>'))
        .unwrap_or(url);
    Some((normalize_label(label), url.to_owned(), title))
}

/// CommonMark label matching: case-folded, inner whitespace collapsed.
fn normalize_label(label: &str) -> String {
    label
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;
    use crate::MemoryReader;

    fn chunked_text(md: &SpooledMarkdownArtifact, max_bytes: usize) -> String {
        let (mut texts, mut at) = (Vec::new(), None);
        loop {
            let chunk = md.md_text_chunk(None, None, at, max_bytes);
            if !chunk.text.is_empty() {
                texts.push(chunk.text);
            }
            match chunk.next {
                Some(next) => at = Some(next),
                None => return texts.join("\n\n"),
            }
        }
    }

    /// A `---` that follows no paragraph is a rule, not the start of a
    /// setext heading or of front matter (only the first line opens that):
    /// found by the artifact_query fuzz target, where the chunks' text and
    /// the whole text differed. Front matter is not text.
    #[test]
    fn rules_are_not_headings_or_front_matter() {
        let cases = [
            (
                "# Report\n---\n \"Ada\"\n  \"## Findings\nAll good.\n---\n## Next steps\n- ship\n",
                vec![(0, 1), (2, 2), (6, 2)],
                "Report\n\n\"Ada\"\n\"## Findings\nAll good.\n\nNext steps\n\nship",
            ),
            (
                "# A\n\npara\n\n---\nnot: front\n---\n\n# B\n",
                vec![(0, 1), (5, 2), (8, 1)],
                "A\n\npara\n\nnot: front\n\nB",
            ),
            (
                "para\n***\n* * *\ntext\n---\n",
                vec![(3, 2)],
                "para\n\ntext",
            ),
            ("---\ntitle: x\n---\n# H\nbody\n", vec![(3, 1)], "H\n\nbody"),
        ];
        for (doc, headings, text) in cases {
            let md = SpooledMarkdownArtifact::new(MemoryReader::new(doc));
            let found: Vec<_> = md
                .index()
                .headings
                .iter()
                .map(|h| (h.line, h.depth))
                .collect();
            assert_eq!(found, headings, "{doc:?}");
            assert_eq!(md.md_text(None, None), text, "{doc:?}");
            for max_bytes in [1, 7, 64] {
                assert_eq!(chunked_text(&md, max_bytes), text, "{doc:?} by {max_bytes}");
            }
        }
    }

    /// Text and links read piece by piece are what one parse of the whole
    /// range gives, across headings, fences holding `#` lines, setext
    /// headings, reference links defined at the end, and stretches long
    /// enough to be cut at blank lines.
    /// Headings read in one pass give the texts each heading's own lookup
    /// gives: near and far apart (past the cursor's walk), setext, after a
    /// byte order mark, with CRLF, and a heading on the last line.
    #[test]
    fn headings_read_in_one_pass_are_read_as_one_by_one() {
        let mut doc = String::from("\u{feff}# First\r\ntext\nSetext\n---\n");
        for i in 0..3 {
            doc.push_str(&"line\n".repeat(LineCursor::MAX_WALK * i));
            doc.push_str(&format!("## Part {i} ##\n### Sub {i}\r\n"));
        }
        doc.push_str("# Last");
        let a = SpooledMarkdownArtifact::new(MemoryReader::new(doc));
        let one_by_one: Vec<String> = a
            .entries(None)
            .map(|(mark, _)| {
                SpooledMarkdownArtifact::heading_text(mark, &mut LineCursor::new(a.base.reader()))
            })
            .collect();
        let texts: Vec<String> = a.md_headings(None).into_iter().map(|h| h.text).collect();
        assert_eq!(texts, one_by_one);
        assert_eq!(
            texts,
            [
                "First",
                "text Setext",
                "Part 0",
                "Sub 0",
                "Part 1",
                "Sub 1",
                "Part 2",
                "Sub 2",
                "Last"
            ]
        );
        let sections: Vec<String> = a
            .md_sections(Some(3))
            .into_iter()
            .map(|s| s.heading)
            .collect();
        assert_eq!(sections, ["Sub 0", "Sub 1", "Sub 2"]);
    }

    #[test]
    fn heading_texts_and_languages_are_read_again_from_their_lines() {
        let doc = "  ## Closing ##  \r\nA setext\r\n  heading   over\nthree lines\n===\n\n```rust title\nx\n```\n#\n";
        let a = SpooledMarkdownArtifact::new(MemoryReader::new(doc));
        let texts: Vec<_> = a
            .md_headings(None)
            .into_iter()
            .map(|h| (h.depth, h.text, h.start_line, h.end_line))
            .collect();
        assert_eq!(
            texts,
            [
                (2, "Closing".to_owned(), 0, 0),
                (1, "A setext heading   over three lines".to_owned(), 1, 8),
                (1, String::new(), 9, 10),
            ]
        );
        assert_eq!(a.md_sections(None)[1].body_start_line, 5);
        let code = a.md_code_blocks(None);
        assert_eq!(code.len(), 1);
        assert_eq!(
            (
                code[0].lang.as_deref(),
                code[0].start_line,
                code[0].end_line
            ),
            (Some("rust"), 6, 8)
        );
    }

    #[test]
    fn pieces_read_as_the_whole_does() {
        let unit = "# Title\n\nSome [ref] text and [inline](http://x/1).\n\n```sh\n# not a heading\n\nstill code\n```\n\nSetext\n======\n\n- item [a](http://x/2)\n- item\n\n> quote\n\n";
        let mut doc = unit.repeat(20_000);
        doc.push_str("[ref]: http://x/ref\n");
        assert!(doc.len() > 2 * PIECE_BYTES);
        let a = SpooledMarkdownArtifact::new(MemoryReader::new(doc.clone()));
        let (lines, pieces): (Vec<_>, Vec<_>) = a.pieces(None, None).unzip();
        assert!(pieces.len() > 20_000, "{} pieces", pieces.len());
        // Each with the line it starts on.
        for (line, piece) in lines.iter().zip(&pieces) {
            assert_eq!(
                *line,
                bytecount::count(&doc.as_bytes()[..piece.start], b'\n')
            );
        }
        // They tile the text: each starts after the line break that ends the
        // one before.
        assert_eq!(pieces[0].start, 0);
        for pair in pieces.windows(2) {
            assert_eq!(pair[1].start, pair[0].end + 1, "{pair:?}");
        }
        assert_eq!(pieces.last().map(|p| p.end), Some(doc.len()));
        let all = 0..doc.len() - 1;
        let (mut whole, mut block) = (String::new(), String::new());
        a.text_of(all.clone(), &mut whole, &mut block, usize::MAX);
        flush(&mut whole, &mut block);
        assert_eq!(a.md_text(None, None), whole);
        let mut links = Vec::new();
        a.inline_of(all, false, usize::MAX, &mut links);
        assert_eq!(a.md_links(None, None), links);
        assert_eq!(links.len(), 60_000);
        // One long stretch without headings is cut at blank lines.
        let prose = "A paragraph [l](http://x/3) here.\n\n".repeat(100_000);
        let b = SpooledMarkdownArtifact::new(MemoryReader::new(prose));
        assert!(b.pieces(None, None).count() > 2);
        assert_eq!(b.md_links(None, None).len(), 100_000);
    }
}

/// Lines read in increasing order, each found from the one before: the
/// headings of a document are read in one pass over its bytes, where a
/// lookup by number scans up to a 64 KiB block each (seconds for 200 000
/// headings in WebAssembly, which has no SIMD byte search).
struct LineCursor<'a> {
    reader: &'a dyn SpoolReader,
    /// The last line read and its first byte.
    at: Option<(usize, usize)>,
}

impl<'a> LineCursor<'a> {
    /// Lines further on than this are looked up by number instead.
    const MAX_WALK: usize = 1024;

    fn new(reader: &'a dyn SpoolReader) -> Self {
        Self { reader, at: None }
    }

    /// Line `i`, decoded lossily; `None` past the end.
    fn line(&mut self, i: usize) -> Option<Cow<'a, str>> {
        let bytes = self.reader.bytes();
        let start = match self.at {
            Some((line, mut start)) if i >= line && i - line <= Self::MAX_WALK => {
                for _ in line..i {
                    start += memchr::memchr(b'\n', bytes.get(start..)?)? + 1;
                }
                start
            }
            _ => self.reader.line_range(i)?.start,
        };
        self.at = Some((i, start));
        let end = memchr::memchr(b'\n', bytes.get(start..)?).map_or(bytes.len(), |n| start + n);
        Some(String::from_utf8_lossy(bytes.get(start..end)?))
    }
}

/// Items `[start, start + max)` (at least one) of `items`, and the start of
/// the rest if there is any.
fn chunk_of<T>(
    items: impl Iterator<Item = T>,
    start: usize,
    max: usize,
) -> (Vec<T>, Option<usize>) {
    let max = max.max(1);
    let mut rest = items.skip(start).peekable();
    let chunk: Vec<T> = rest.by_ref().take(max).collect();
    let next = rest.peek().is_some().then(|| start + chunk.len());
    (chunk, next)
}

/// One chunk of a list done a chunk at a time: its items, and where the
/// next chunk starts (`None` after the last): the index of its first item
/// for [`SpooledMarkdownArtifact::md_headings_chunk`] and
/// [`SpooledMarkdownArtifact::md_sections_chunk`], a line for
/// [`SpooledMarkdownArtifact::md_links_chunk`] and
/// [`SpooledMarkdownArtifact::md_images_chunk`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ListChunk<T> {
    /// This chunk's items, in order.
    pub items: Vec<T>,
    /// Where to go on; `None` when the list is done.
    pub next: Option<usize>,
}
