//! One pass over a Markdown text for everything a checker needs.

use pulldown_cmark::{Event, Tag};

use crate::list::{ListReader, TopLevelList, merge_lists};
use crate::markdown::{front_matter_end, offset_events, parser_text};
use crate::model::{MdOutline, ParsedList, ParsedTable, Span};
use crate::outline::OutlineReader;
use crate::table::TableReader;

/// A Markdown text's outline, tables and top-level lists, from one parse.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkdownParts {
    /// As [`build_outline`](crate::build_outline) gives it.
    pub outline: MdOutline,
    /// As [`parse_tables`](crate::parse_tables) gives them.
    pub tables: Vec<ParsedTable>,
    /// Every top-level list with its span; spans of items are into the whole text.
    pub lists: Vec<TopLevelList>,
    /// The span of every code block (fenced or indented), in order, as
    /// [`code_blocks`](crate::code_blocks) finds them: text in them is
    /// literal, never a heading or a label.
    pub code_blocks: Vec<Span>,
}

impl MarkdownParts {
    /// The top-level lists that lie within `span`, merged as
    /// [`parse_list`](crate::parse_list) merges a text's lists.
    ///
    /// ```
    /// let md = "# A\n- a1\n* a2\n# B\n1. b1\n";
    /// let parts = flexmd_core::read_markdown(md);
    /// let b = parts.outline.nodes[1].source.clone().unwrap().content;
    /// let list = parts.list_in(&b).unwrap();
    /// assert!(list.ordered);
    /// assert_eq!(list.items[0].text, "b1");
    /// let a = parts.outline.nodes[0].source.clone().unwrap().content;
    /// assert_eq!(parts.list_in(&a).unwrap().items.len(), 2);
    /// ```
    pub fn list_in(&self, span: &Span) -> Option<ParsedList> {
        let inside = self.lists.get(self.lists_within(span)).unwrap_or_default();
        merge_lists(inside.iter().cloned())
    }

    /// The indices in [`MarkdownParts::lists`] of the top-level lists that lie
    /// within `span` (lists are in document order, so they are contiguous).
    pub fn lists_within(&self, span: &Span) -> std::ops::Range<usize> {
        let first = self.lists.partition_point(|l| l.span.start < span.start);
        let count = self
            .lists
            .get(first..)
            .unwrap_or_default()
            .iter()
            .take_while(|l| l.span.end <= span.end)
            .count();
        first..first + count
    }
}

/// The parts of `md` from one parse of the whole text: what
/// [`read_markdown`](crate::read_markdown) returns, built the plain way (the parser's whole
/// document tree at once, 20–30× the text for long lists). Kept as the
/// reference the piecewise reader is tested against.
///
/// ```
/// let md = "## A\n- a1\n- a2\n\n## B\n| x |\n|---|\n| 1 |\n";
/// assert_eq!(flexmd_core::read_markdown_in_one_parse(md), flexmd_core::read_markdown(md));
/// ```
pub fn read_markdown_in_one_parse(md: &str) -> MarkdownParts {
    let mut readers = PartsReader::default();
    let parsed = parser_text(md);
    for (event, range) in offset_events(&parsed, front_matter_end(&parsed)) {
        readers.on_event(md, &event, range);
    }
    readers.finish(md)
}

/// Everything [`read_markdown`](crate::read_markdown) builds, fed the parser's events of a whole
/// text or, in a stream, of one piece after another.
#[derive(Default)]
pub(crate) struct PartsReader {
    pub(crate) outline: OutlineReader,
    pub(crate) tables: TableReader,
    pub(crate) lists: ListReader,
    code_blocks: Vec<Span>,
}

impl PartsReader {
    /// Readers whose outline records its headings as it goes (for a stream).
    pub(crate) fn recording() -> Self {
        Self {
            outline: OutlineReader::recording(),
            ..Self::default()
        }
    }

    pub(crate) fn on_event(&mut self, md: &str, event: &Event<'_>, range: Span) {
        if let Event::Start(Tag::CodeBlock(_)) = event {
            self.code_blocks.push(range.clone());
        }
        self.outline.on_event(md, event, range.clone());
        self.tables.on_event(md, event, range.clone());
        self.lists.on_event(md, event, range);
    }

    pub(crate) fn finish(self, md: &str) -> MarkdownParts {
        MarkdownParts {
            outline: self.outline.finish(md),
            tables: self.tables.tables,
            lists: self.lists.lists,
            code_blocks: self.code_blocks,
        }
    }
}
