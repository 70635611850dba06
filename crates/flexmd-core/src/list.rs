//! Lists → [`ParsedList`] item trees.

use std::ops::Range;

use pulldown_cmark::{Event, Tag, TagEnd};

use crate::line_kind::list_marker;
use crate::markdown::{front_matter_end, offset_events, parser_text};
use crate::model::{ListItem, ListKind, ParsedList};
use crate::text::{line_spans, line_start, slice};

/// How deep [`parse_list`] nests items. Items nested deeper become siblings
/// of their ancestor at this depth, in document order, so no text is lost and
/// the tree stays well inside serde_json's recursion limit of 128 when it is
/// read back from JSON.
pub const MAX_LIST_DEPTH: usize = 32;

/// Parses the top-level lists of a Markdown text into one item tree.
///
/// Items come from the parser's real list nodes, so nesting follows CommonMark
/// indentation rules, bullets may be `-`, `*` or `+`, and numbers may end in
/// `.` or `)`. CommonMark starts a new list whenever the bullet character or
/// numbering style changes; models do that by accident, so every top-level
/// list in `md` is merged, in order, into one [`ParsedList`] whose `ordered`
/// is that of the first list. Lists inside block quotes are not top-level.
///
/// Each [`ListItem`] has:
/// - `text`: the item's own Markdown (inline markup kept) without its marker
///   and without its sub-lists, continuation lines de-indented, trimmed;
/// - `index`: for items of numbered lists, the number as written (`1. 1. 1.`
///   gives 1, 1, 1);
/// - `children`: the items of its sub-lists.
///
/// Returns `None` when `md` has no top-level list.
///
/// ```
/// use flexmd_core::parse_list;
/// let list = parse_list("3) first\n4) second\n   - detail\n").unwrap();
/// assert!(list.ordered);
/// assert_eq!(list.items[0].index, Some(3));
/// assert_eq!(list.items[1].text, "second");
/// assert_eq!(list.items[1].children[0].text, "detail");
/// assert_eq!(list.items[1].children[0].index, None);
/// ```
pub fn parse_list(md: &str) -> Option<ParsedList> {
    let mut reader = ListReader::default();
    let parsed = parser_text(md);
    for (event, range) in offset_events(&parsed, front_matter_end(&parsed)) {
        reader.on_event(md, &event, range);
    }
    merge_lists(reader.lists)
}

/// Merges top-level lists, in order, into one (see [`parse_list`]).
pub(crate) fn merge_lists(lists: impl IntoIterator<Item = TopLevelList>) -> Option<ParsedList> {
    let mut merged: Option<ParsedList> = None;
    for top in lists {
        match merged.as_mut() {
            None => merged = Some(top.list),
            Some(all) => all.items.extend(top.list.items),
        }
    }
    merged
}

/// One top-level list of a text and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct TopLevelList {
    /// From the first marker to the end of the last item.
    pub span: Range<usize>,
    /// The list's items.
    pub list: ParsedList,
}

/// An item whose end has not been seen yet.
struct OpenItem {
    start: usize,
    /// Display column of the marker on its line.
    marker_column: usize,
    index: Option<u64>,
    /// Spans of the lists nested directly in this item, in order.
    sublists: Vec<Range<usize>>,
    children: Vec<ListItem>,
    /// At depth [`MAX_LIST_DEPTH`]: slots for the deeper items flattened after
    /// this one, filled in document (start) order.
    overflow: Vec<Option<ListItem>>,
    /// For items deeper than [`MAX_LIST_DEPTH`]: their slot in the overflow.
    slot: Option<usize>,
}

/// Builds top-level lists from parser events (one of the readers that
/// [`crate::read_markdown`] feeds from a single pass).
#[derive(Default)]
pub(crate) struct ListReader {
    depth: usize,
    /// Whether each open list is ordered, innermost last.
    open_lists: Vec<bool>,
    /// Open items, outermost first: `open[k]` is at depth `k + 1`.
    open: Vec<OpenItem>,
    /// The top-level list being read: its start and whether it is ordered.
    top: Option<(usize, bool)>,
    items: Vec<ListItem>,
    columns: ColumnCursor,
    /// The finished top-level lists, in order.
    pub(crate) lists: Vec<TopLevelList>,
}

impl ListReader {
    pub(crate) fn on_event(&mut self, md: &str, event: &Event<'_>, range: Range<usize>) {
        match event {
            Event::Start(tag) => {
                match tag {
                    Tag::List(start) if self.depth == 0 || !self.open_lists.is_empty() => {
                        if self.open_lists.is_empty() {
                            self.top = Some((range.start, start.is_some()));
                        }
                        self.start_list(start.is_some(), range);
                    }
                    Tag::Item if !self.open_lists.is_empty() => self.start_item(md, range),
                    _ => {}
                }
                self.depth += 1;
            }
            Event::End(tag) => {
                self.depth = self.depth.saturating_sub(1);
                match tag {
                    TagEnd::List(_) if !self.open_lists.is_empty() => {
                        self.open_lists.pop();
                        if self.open_lists.is_empty()
                            && let Some((start, ordered)) = self.top.take()
                        {
                            self.lists.push(TopLevelList {
                                span: start..range.end,
                                list: ParsedList {
                                    kind: ListKind::Value,
                                    ordered,
                                    items: std::mem::take(&mut self.items),
                                },
                            });
                        }
                    }
                    TagEnd::Item if !self.open_lists.is_empty() => self.end_item(md, range),
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn start_list(&mut self, ordered: bool, range: Range<usize>) {
        // Only the innermost open item owns a sub-list; its ancestors already
        // exclude that item's whole span through their own sub-list.
        if let Some(item) = self.open.last_mut() {
            item.sublists.push(range);
        }
        self.open_lists.push(ordered);
    }

    fn start_item(&mut self, md: &str, range: Range<usize>) {
        let ordered = self.open_lists.last().copied().unwrap_or(false);
        let index = ordered.then(|| marker_number(md, range.start)).flatten();
        let depth = self.open.len() + 1;
        let slot = if depth > MAX_LIST_DEPTH {
            self.open.get_mut(MAX_LIST_DEPTH - 1).map(|cap| {
                cap.overflow.push(None);
                cap.overflow.len() - 1
            })
        } else {
            None
        };
        let marker_column = self.columns.column_at(md, range.start);
        self.open.push(OpenItem {
            start: range.start,
            marker_column,
            index,
            sublists: Vec::new(),
            children: Vec::new(),
            overflow: Vec::new(),
            slot,
        });
    }

    fn end_item(&mut self, md: &str, range: Range<usize>) {
        let Some(open) = self.open.pop() else { return };
        let span = open.start..range.end;
        let item = ListItem {
            text: own_text(md, span.clone(), &open.sublists, open.marker_column),
            index: open.index,
            children: open.children,
            span: Some(span),
        };
        if let Some(slot) = open.slot {
            if let Some(cell) = self
                .open
                .get_mut(MAX_LIST_DEPTH - 1)
                .and_then(|cap| cap.overflow.get_mut(slot))
            {
                *cell = Some(item);
            }
            return;
        }
        let siblings = match self.open.last_mut() {
            Some(parent) => &mut parent.children,
            None => &mut self.items,
        };
        siblings.push(item);
        siblings.extend(open.overflow.into_iter().flatten());
    }
}

/// Reads the number of an ordered-list marker at `start` (`12.` or `12)`).
fn marker_number(md: &str, start: usize) -> Option<u64> {
    let rest = md.get(start..)?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    rest.get(..digits)?.parse().ok()
}

/// The item's text: its span minus its sub-lists, marker removed,
/// continuation lines de-indented to the item's content column, trimmed, and
/// blank-line runs left by removed sub-lists collapsed.
fn own_text(
    md: &str,
    span: Range<usize>,
    sublists: &[Range<usize>],
    column_of_marker: usize,
) -> String {
    // Most items have no sub-list: read their text in place.
    let raw: std::borrow::Cow<'_, str> = if sublists.is_empty() {
        std::borrow::Cow::Borrowed(slice(md, span))
    } else {
        let mut raw = String::new();
        let mut at = span.start;
        for sub in sublists {
            raw.push_str(slice(md, at..sub.start.max(at)));
            at = sub.end.max(at);
        }
        raw.push_str(slice(md, at..span.end.max(at)));
        std::borrow::Cow::Owned(raw)
    };

    let (marker_len, content_offset) = marker_and_gap(&raw);
    let content_column = column_of_marker + content_offset;

    let mut out = String::with_capacity(raw.len());
    let mut blank_run = false;
    for (n, line) in line_spans(&raw)
        .map(|l| slice(&raw, l.start..l.end))
        .enumerate()
    {
        let line = if n == 0 {
            line.get(marker_len..).unwrap_or_default().trim_start()
        } else {
            // Indentation beyond the content column (nested code) is kept.
            dedent(line, content_column)
        };
        let line = line.trim_end();
        if line.is_empty() {
            blank_run = !out.is_empty();
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank_run { "\n\n" } else { "\n" });
        }
        blank_run = false;
        out.push_str(line);
    }
    out
}

/// Byte length of the list marker at the start of `raw`, and the column
/// (relative to the marker) where the item's content starts.
fn marker_and_gap(raw: &str) -> (usize, usize) {
    // `raw` starts at an item the parser found, so at its marker.
    let marker = list_marker(raw).map_or(0, |m| m.len);
    let gap = raw
        .get(marker..)
        .unwrap_or_default()
        .bytes()
        .take_while(|&b| b == b' ' || b == b'\t')
        .count();
    // CommonMark: five or more spaces after the marker means the content is
    // indented code that starts one space after the marker.
    let gap = if gap >= 5 { 1 } else { gap.max(1) };
    (marker, marker + gap)
}

/// Removes up to `column` columns of leading spaces and tabs (tab stops of 4).
fn dedent(line: &str, column: usize) -> &str {
    let mut width = 0;
    for (i, c) in line.char_indices() {
        if width >= column {
            return line.get(i..).unwrap_or_default();
        }
        match c {
            ' ' => width += 1,
            '\t' => width += 4 - width % 4,
            _ => return line.get(i..).unwrap_or_default(),
        }
    }
    ""
}

/// Finds display columns (tab stops of 4) of increasing offsets in one
/// forward pass: items start in document order, and one line may hold
/// thousands of nested markers (`- - - - x`), so rescanning each line from
/// its start would be quadratic.
#[derive(Default)]
struct ColumnCursor {
    offset: usize,
    column: usize,
}

impl ColumnCursor {
    fn column_at(&mut self, md: &str, offset: usize) -> usize {
        if offset < self.offset {
            // Not expected (starts increase), but stay correct: restart at the line.
            self.offset = line_start(md, offset);
            self.column = 0;
        }
        let mut rest = slice(md, self.offset..offset);
        // Only the text after the last line break counts; find it without
        // walking every character in between (a char loop over a 5 MB
        // answer cost a quarter of the parse).
        if let Some(brk) = memchr::memrchr2(b'\n', b'\r', rest.as_bytes()) {
            rest = rest.get(brk + 1..).unwrap_or_default();
            self.column = 0;
        }
        if rest.contains('\t') {
            for c in rest.chars() {
                self.column = match c {
                    '\t' => self.column + 4 - self.column % 4,
                    _ => self.column + 1,
                };
            }
        } else {
            self.column += rest.chars().count();
        }
        self.offset = offset;
        self.column
    }
}
