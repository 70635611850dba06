//! Reading Markdown as it arrives: the same outline, tables and lists as
//! [`read_markdown`](crate::read_markdown), built piece by piece.
//!
//! The text is cut at top-level headings. A heading closes every block
//! before it, so the parse of the text before a heading does not depend on
//! what follows; each piece is parsed once, when the heading that ends it is
//! complete, and its events go to the same readers a whole-text parse
//! feeds. A piece of paragraphs and lists of one-line items (most of a
//! model's answer) needs no parse: its lines tell its lists, which go to
//! the readers as the parser's events would (see `simple_piece`). A line that only looks like a heading (a `# comment` in code) is
//! checked by the parser and found not to be one; such checks are budgeted
//! so that hostile input stays linear.
//!
//! | file | owns |
//! |---|---|
//! | `mod.rs` | `MarkdownStream`, `read_markdown`, and the line scanner that cuts the text into pieces |
//! | `scan.rs` | the scanner's vocabulary: front matter, fences, a line's tail, heading-like lines |
//! | `confirm.rs` | a candidate heading confirmed by the parser, within a budget |
//! | `simple_piece.rs` | a piece of paragraphs and one-line list items read without the parser |

mod confirm;
mod scan;
mod simple_piece;

use std::borrow::Cow;

use pulldown_cmark::{CowStr, Event, Tag, TagEnd};

use crate::code::{FenceOpening, fence_opening};
use crate::error::LineStarts;
use crate::line_kind::has_label_colon;
use crate::list::TopLevelList;
use crate::model::ParsedTable;
use crate::outline::StreamHeading;
use crate::parts::{MarkdownParts, PartsReader};
use crate::stream::scan::{
    Candidate, Checked, Fence, FrontMatter, Tail, is_atx_heading, is_setext_underline,
    plain_atx_heading,
};
use crate::stream::simple_piece::SimplePiece;
use crate::text::{bom_len, is_blank, without_line_break};

/// Markdown read while it is still being written.
///
/// [`push`](Self::push) appends text; [`headings`](Self::headings),
/// [`lists`](Self::lists) and [`tables`](Self::tables) grow as the text
/// before each top-level heading becomes final, and
/// [`finish`](Self::finish) returns exactly what
/// [`read_markdown`](crate::read_markdown) returns for the whole text. Each
/// byte is scanned once and parsed about once.
///
/// Headings are read as soon as their line is complete (a setext heading
/// when its underline is). Two things wait: YAML front matter (a first line
/// `---`) holds everything back until its closing line, and after a line
/// that looks like a link reference definition (`[1]: https://…`, which a
/// link anywhere may use) nothing more is read until `finish`. A heading
/// read before such a definition keeps the title it had then, should the
/// definition turn a `[label]` in it into a link.
///
/// ```
/// use flexmd_core::{MarkdownStream, read_markdown};
/// let answer = "## Short answer\nYes.\n\n## Risks\n- load\n";
/// let mut stream = MarkdownStream::new();
/// stream.push("## Short answer\nYe");
/// assert_eq!(stream.headings().len(), 1);
/// stream.push("s.\n\n## Ri");
/// assert_eq!(stream.headings().len(), 1, "`## Ri` may still become `## Rivals`");
/// stream.push("sks\n- load\n");
/// assert_eq!(stream.headings()[1].title, "Risks");
/// assert_eq!(stream.parsed_to(), answer.find("- load").unwrap());
/// let (text, parts) = stream.finish();
/// assert_eq!(parts, read_markdown(&text));
/// ```
pub struct MarkdownStream {
    pieces: Pieces<'static>,
}

/// The reader behind [`MarkdownStream`] and [`read_markdown`](crate::read_markdown):
/// the text is owned while it arrives, borrowed when it is all there.
pub(crate) struct Pieces<'a> {
    text: Cow<'a, str>,
    front: FrontMatter,
    body_start: usize,
    /// Where the lines of the text start (one scan of each byte, shared
    /// with the stream's readers through [`MarkdownStream::line_starts`]).
    lines: LineStarts,
    /// The first line not read yet.
    line: usize,
    /// The unfinished last line, as far as it tells whether it may become
    /// a heading.
    tail: Tail,
    /// Start of the text not yet parsed.
    piece_start: usize,
    fence: Option<Fence>,
    /// Whether the previous scanned line was blank (or there was none).
    previous_blank: bool,
    /// Bytes parsed in checks that found no heading, since the last one that did.
    wasted: usize,
    /// The first line since the last heading found that may open a heading
    /// but was not checked (budget spent).
    unchecked: Option<usize>,
    /// A line of the open piece starts with `<` (an HTML block may hide the
    /// lines after it) or opens a fence the parser was not asked about:
    /// headings there are checked by the parser.
    unsure_in_piece: bool,
    /// The open piece read line by line while it holds only paragraphs and
    /// lists of one-line items: a plain heading that ends such a piece
    /// is read, with the piece's lists, without a parser.
    simple: SimplePiece,
    /// A link reference definition (`[a]: /url`) may be used anywhere in
    /// the text, before it too: once a line looks like one, nothing more is
    /// read until [`MarkdownStream::finish`], which parses the whole text.
    saw_link_definition: bool,
    /// The end of the line where a link reference definition was first
    /// seen: headings after it are not known before the end.
    settled_cap: usize,
    readers: PartsReader,
}

impl Default for MarkdownStream {
    fn default() -> Self {
        Self::new()
    }
}

impl MarkdownStream {
    /// An empty stream.
    pub fn new() -> Self {
        Self {
            pieces: Pieces::new(Cow::Owned(String::new())),
        }
    }

    /// Appends `chunk` and reads every line it completes. Work is
    /// proportional to the chunk, plus one parse of each piece it ends.
    pub fn push(&mut self, chunk: &str) {
        self.pieces.text.to_mut().push_str(chunk);
        self.pieces.read_lines();
    }

    /// Everything pushed so far.
    pub fn text(&self) -> &str {
        &self.pieces.text
    }

    /// Where the lines of [`text`](Self::text) start: readers that go line
    /// by line over a stream use these instead of searching the text again.
    pub fn line_starts(&self) -> &LineStarts {
        &self.pieces.lines
    }

    /// The top-level headings read so far, in order.
    pub fn headings(&self) -> &[StreamHeading] {
        self.pieces.readers.outline.recorded()
    }

    /// The top-level lists read so far: those that end before
    /// [`parsed_to`](Self::parsed_to).
    pub fn lists(&self) -> &[TopLevelList] {
        &self.pieces.readers.lists.lists
    }

    /// The tables read so far.
    pub fn tables(&self) -> &[ParsedTable] {
        &self.pieces.readers.tables.tables
    }

    /// Where the parsed text ends: everything before it is read and final.
    pub fn parsed_to(&self) -> usize {
        self.pieces.piece_start
    }

    /// Where the text stops being known not to open a heading: the start of
    /// an unfinished last line that could still become one (`#…`, `===`,
    /// `---`), else the end of the text; after a line that looks like a link
    /// reference definition, the end of that line (headings after it are
    /// only read at the end). A consumer showing text as it arrives can show
    /// everything before this offset.
    pub fn settled_to(&self) -> usize {
        self.pieces.settled_to()
    }

    /// The outline, tables and lists of everything pushed, equal to
    /// [`read_markdown`](crate::read_markdown) of [`text`](Self::text),
    /// which is returned with them.
    pub fn finish(self) -> (String, MarkdownParts) {
        let (text, parts, _) = self.pieces.finish();
        (text.into_owned(), parts)
    }
}

/// Reads `md` once and builds its outline, tables and lists together: the
/// same values as [`build_outline`](crate::build_outline),
/// [`parse_tables`](crate::parse_tables) and, per span,
/// [`parse_list`](crate::parse_list), for the price of one parse.
///
/// The text is read as a [`MarkdownStream`](crate::MarkdownStream) reads
/// it, in pieces cut at top-level headings: the parser holds one piece at a
/// time, and a piece of paragraphs and one-line list items is read from its
/// lines without a parser. The parts are those of
/// [`read_markdown_in_one_parse`](crate::read_markdown_in_one_parse), in less memory (a 10 MB list of short
/// items: a peak heap of 18× the text instead of 36×) and, for long lists,
/// less time.
pub fn read_markdown(md: &str) -> MarkdownParts {
    read_whole(md).0
}

/// [`read_markdown`](crate::read_markdown) and the line starts it found (where each line of `md`
/// begins), for a reader that goes on to point at lines of the same text.
///
/// ```
/// let (parts, lines) = flexmd_core::read_markdown_with_lines("# A\nx\n# B\n");
/// assert_eq!(parts.outline.nodes.len(), 2);
/// assert_eq!(lines.line_start(2), 6);
/// ```
pub fn read_markdown_with_lines(md: &str) -> (MarkdownParts, LineStarts) {
    read_whole(md)
}

/// The whole text scanned as a stream that has all of it.
fn read_whole(md: &str) -> (MarkdownParts, LineStarts) {
    let mut pieces = Pieces::new(Cow::Borrowed(md));
    pieces.read_lines();
    let (_, parts, lines) = pieces.finish();
    (parts, lines)
}

impl<'a> Pieces<'a> {
    fn new(text: Cow<'a, str>) -> Self {
        Self {
            text,
            front: FrontMatter::Undecided,
            body_start: 0,
            lines: LineStarts::new(),
            line: 0,
            tail: Tail::at(0),
            piece_start: 0,
            fence: None,
            previous_blank: true,
            wasted: 0,
            unchecked: None,
            unsure_in_piece: false,
            simple: SimplePiece::default(),
            saw_link_definition: false,
            settled_cap: usize::MAX,
            readers: PartsReader::recording(),
        }
    }

    /// Reads every line the text completes, from the first not read yet.
    fn read_lines(&mut self) {
        self.lines.extend(&self.text);
        while let Some((start, _, next)) = self.lines.line(&self.text, self.line) {
            self.line += 1;
            self.scan_line(start, next);
        }
        let open_line = self.lines.line_start(self.line);
        if self.tail.start != open_line {
            self.tail = Tail::at(open_line);
        }
        self.tail.read(self.text.as_bytes());
    }

    fn settled_to(&self) -> usize {
        self.settled_unbounded()
            .min(self.settled_cap)
            .min(self.unchecked.unwrap_or(usize::MAX))
    }

    fn settled_unbounded(&self) -> usize {
        if self.front != FrontMatter::Done {
            return self
                .body_start
                .max(self.lines.line_start(self.line))
                .min(self.piece_start);
        }
        let could_be_heading = self.fence.is_none() && self.tail.may_become_heading();
        if could_be_heading {
            self.lines.line_start(self.line)
        } else {
            self.text.len()
        }
    }

    /// The text, its outline, tables and lists, and its line starts.
    fn finish(mut self) -> (Cow<'a, str>, MarkdownParts, LineStarts) {
        // The last line has no line ending (or a lone final `\r`): it is complete now.
        let start = self.lines.line_start(self.line);
        if start < self.text.len() {
            self.scan_line(start, self.text.len());
        }
        if self.saw_link_definition {
            let parts = crate::parts::read_markdown_in_one_parse(&self.text);
            return (self.text, parts, self.lines);
        }
        if self.front != FrontMatter::Done {
            // Front matter never closed: there is none.
            self.body_start = bom_len(self.text.as_bytes());
            self.piece_start = self.body_start;
            self.simple.give_up();
        }
        // The last piece: what a heading would have ended, the end does.
        if self.simple.is_simple() {
            let end = self.text.len();
            let (text, readers) = (&self.text, &mut self.readers);
            self.simple
                .finish(end, |event, range| readers.on_event(text, event, range));
            self.start_piece(end);
        } else {
            self.read_piece(self.text.len());
        }
        let text = std::mem::take(&mut self.text);
        let parts = self.readers.finish(&text);
        (text, parts, self.lines)
    }

    fn scan_line(&mut self, start: usize, next: usize) {
        // A byte order mark is not part of the first line: what the line
        // says (`<` opening an HTML block, `#` a heading) starts after it.
        let from = if start == 0 {
            bom_len(self.text.as_bytes()).min(next)
        } else {
            start
        };
        let line = self.text.get(from..next).unwrap_or_default();
        let content = without_line_break(line);
        match self.front {
            FrontMatter::Undecided => {
                let bom = bom_len(self.text.as_bytes());
                if content.trim_end() == "---" {
                    self.front = FrontMatter::Open;
                    return;
                }
                self.front = FrontMatter::Done;
                self.body_start = bom;
                self.piece_start = bom;
            }
            FrontMatter::Open => {
                if matches!(content.trim_end(), "---" | "...") {
                    self.front = FrontMatter::Done;
                    self.body_start = next;
                    self.piece_start = next;
                }
                return;
            }
            FrontMatter::Done => {}
        }
        let blank = is_blank(content);
        let previous_blank = std::mem::replace(&mut self.previous_blank, blank);
        if let Some(fence) = self.fence {
            if fence.closed_by(content) {
                self.fence = None;
            }
            return;
        }
        let simple_before = self.simple.is_simple();
        if simple_before {
            // The first line's byte order mark is not part of the piece.
            let from = start.max(self.piece_start);
            let line = self.text.get(from..next).unwrap_or_default();
            self.simple.read_line(without_line_break(line), from);
        }
        if let Some(FenceOpening { marker, len, .. }) = fence_opening(content) {
            let fence = Fence { marker, len };
            // Only a fence at the top level hides headings: not one inside
            // a list item, a quote or an HTML block. The parser tells.
            match self.check(start, next, Candidate::Fence) {
                Checked::Yes => self.fence = Some(fence),
                Checked::Skipped => self.unsure_in_piece = true,
                Checked::No => {}
            }
            return;
        }
        // Anywhere (a quote or a list item may hold one): from here on,
        // everything waits for the one parse at the end.
        if !self.saw_link_definition && has_label_colon(content) {
            self.saw_link_definition = true;
            self.settled_cap = next;
        }
        let indent = content.len() - content.trim_start_matches(' ').len();
        if indent > 3 || self.saw_link_definition {
            return;
        }
        let rest = content.get(indent..).unwrap_or_default();
        if rest.starts_with('<') {
            // An HTML block may hide what follows, up to a blank line.
            self.unsure_in_piece = true;
        }
        if indent == 0 && !self.unsure_in_piece && is_atx_heading(rest) {
            // `# Title` at the margin, with no HTML block open before it:
            // it ends every block (lists, quotes, tables, paragraphs) and is
            // a top-level heading. One parse reads the piece; after a
            // simple piece, a heading of plain text needs none.
            match plain_atx_heading(content) {
                Some((level, title)) if simple_before => {
                    let heading = Tag::Heading {
                        level,
                        id: None,
                        classes: Vec::new(),
                        attrs: Vec::new(),
                    };
                    let text = &self.text;
                    let readers = &mut self.readers;
                    self.simple
                        .finish(from, |event, range| readers.on_event(text, event, range));
                    readers.on_event(text, &Event::Start(heading), from..next);
                    if !title.is_empty() {
                        let event = Event::Text(CowStr::Borrowed(title));
                        readers.on_event(text, &event, from..next);
                    }
                    readers.on_event(text, &Event::End(TagEnd::Heading(level)), from..next);
                    self.start_piece(next);
                }
                _ => self.read_piece(next),
            }
            return;
        }
        let candidate = if is_atx_heading(rest) {
            Some(Candidate::Atx)
        } else if !previous_blank && is_setext_underline(rest) {
            Some(Candidate::Setext)
        } else {
            None
        };
        if let Some(kind) = candidate {
            self.try_heading(start, next, kind);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read_markdown_in_one_parse;

    fn streamed(text: &str, chunk: usize) -> MarkdownParts {
        let mut stream = MarkdownStream::new();
        let mut at = 0;
        while at < text.len() {
            let mut end = (at + chunk).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            stream.push(text.get(at..end).unwrap_or_default());
            at = end;
        }
        stream.finish().1
    }

    #[test]
    fn every_split_gives_the_whole_parse() {
        let samples = [
            "## A\ntext\n\n## B\n- a\n- b\n\n### C\n| x | y |\n|---|---|\n| 1 | 2 |\n# D\n",
            "Intro\n\nTitle\n-----\nbody\n\n===\n## After\n",
            "```sh\n# not a heading\n```\n# Real\n    # indented\n",
            "---\ntitle: x\n---\n# A\nbody\n",
            "---\n# A\nbody\n",
            "- item\n# H\n> # quoted\n<div>\n# in html\n</div>\n\n# Out\n",
            "a\r\n# b\r\nc\r# d\rx",
            "[x]\n# [x]\n\n[x]: /url\n",
            "\u{feff}# Bom\ntext",
            "# a | b\n--|--\n| 1 | 2 |\n",
            "- a\n# b\n> q\n# c\n| x |\n|---|\n# d\n    code\n# e\n",
            "<div>\n# hidden\n\n# shown\n",
        ];
        for text in samples {
            let whole = read_markdown_in_one_parse(text);
            for chunk in 1..=text.len() {
                assert_eq!(
                    streamed(text, chunk),
                    whole,
                    "{text:?} in chunks of {chunk}"
                );
            }
        }
    }

    #[test]
    fn a_fence_the_budget_left_unchecked_hides_its_comments() {
        // Failed checks (`---` under list items are rules) spend the budget,
        // so the fence below is not confirmed: its `# comment` must still
        // not be taken for a heading.
        let text = format!("# A\n{}```\n# comment\n```\n# B\n", "- a\n---\n".repeat(40));
        let whole = read_markdown_in_one_parse(&text);
        for chunk in [1, 3, 16, 64] {
            assert_eq!(streamed(&text, chunk), whole, "chunks of {chunk}");
        }
        let titles: Vec<&str> = whole
            .outline
            .nodes
            .iter()
            .map(|n| n.title.as_str())
            .collect();
        assert_eq!(titles, ["A", "B"]);
    }

    #[test]
    fn headings_are_read_as_soon_as_their_line_is_complete() {
        let mut stream = MarkdownStream::new();
        stream.push("# A\nx\n## B");
        assert_eq!(stream.headings().len(), 1);
        stream.push("\n");
        let titles: Vec<&str> = stream.headings().iter().map(|h| h.title.as_str()).collect();
        assert_eq!(titles, ["A", "B"]);
        assert_eq!(stream.headings()[1].heading, 6..11);
        assert_eq!(stream.parsed_to(), 11);
    }

    #[test]
    fn a_heading_inside_code_is_not_one() {
        let mut stream = MarkdownStream::new();
        stream.push("# A\n```\n# comment\n```\n");
        assert_eq!(stream.headings().len(), 1);
        assert_eq!(stream.settled_to(), stream.text().len());
    }

    #[test]
    fn settled_holds_back_a_line_that_may_become_a_heading() {
        let mut stream = MarkdownStream::new();
        stream.push("# A\nsome text");
        assert_eq!(stream.settled_to(), 13);
        stream.push("\n## B");
        assert_eq!(stream.settled_to(), 14);
    }
}
