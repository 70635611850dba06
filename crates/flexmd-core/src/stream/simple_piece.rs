//! Pieces of a stream that need no parser: paragraphs and lists of
//! one-line items (sub-items one level deep), the most common shape of a
//! model's answer.
//!
//! A [`MarkdownStream`](crate::MarkdownStream) parses each piece of text
//! between top-level headings once. The readers it feeds want only headings,
//! lists, tables and code blocks; a piece made of blank lines, paragraph
//! lines and items like `- text` or `2. text` (and sub-items right under
//! an item's text) gives them nothing but its lists, whose shape the lines
//! alone tell. Such a piece is read here line by line, and its lists are
//! handed to the readers as the events the parser would give, with the
//! same ranges. Any line this reader is not sure of (an item nested two
//! deep, a continuation line, a table, code, a quote) makes the piece an
//! ordinary one, parsed as before.

use std::ops::Range;

use pulldown_cmark::{Event, Tag, TagEnd};

use crate::line_kind::list_marker;

/// A list marker's kind: items of one list share it (CommonMark starts a
/// new list when the bullet or the number's delimiter changes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marker {
    /// `-`, `*` or `+`.
    Bullet(u8),
    /// `.` or `)` after the number.
    Ordered(u8),
}

/// What a line of a simple piece is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    /// Only spaces and tabs.
    Blank,
    /// A paragraph line, indented or not.
    Paragraph { indented: bool },
    /// A one-line list item, indented by `indent` spaces: its marker, its
    /// number if ordered, and the column its text starts at.
    Item {
        indent: usize,
        marker: Marker,
        number: Option<u64>,
        content_column: usize,
    },
}

/// The line before the current one, as far as the lists care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Previous {
    /// The piece's start or a blank line.
    Blank,
    Paragraph,
    /// An item of the open list.
    Item,
    /// A sub-item of the open list's last item.
    SubItem,
}

/// Where an item starts: its line, and its marker (after the
/// indentation); whether it is a sub-item; its marker and number.
#[derive(Debug, Clone, Copy)]
struct Mark {
    line: usize,
    marker_at: usize,
    nested: bool,
    marker: Marker,
    number: Option<u64>,
}

/// The list being read: its marker, where its items start in
/// [`SimplePiece::marks`], where its last item's text starts (a sub-item's
/// marker goes there), and the marker of that item's sub-list, if any.
#[derive(Debug)]
struct OpenList {
    marker: Marker,
    first_number: Option<u64>,
    first_item: usize,
    content_column: usize,
    sub_marker: Option<Marker>,
}

/// A closed list: its items are `marks[first_item..]` up to the next
/// list's; it ends at `end`, where the next block starts.
#[derive(Debug)]
struct ClosedList {
    ordered: bool,
    first_number: Option<u64>,
    first_item: usize,
    end: usize,
}

/// A piece read line by line while every line is simple (see the module
/// docs): where its lists' items start, and how they group into lists.
/// A few words an item: a long list costs little before its piece ends.
#[derive(Debug)]
pub(crate) struct SimplePiece {
    simple: bool,
    previous: Previous,
    open: Option<OpenList>,
    marks: Vec<Mark>,
    closed: Vec<ClosedList>,
}

impl Default for SimplePiece {
    fn default() -> Self {
        Self {
            simple: true,
            previous: Previous::Blank,
            open: None,
            marks: Vec::new(),
            closed: Vec::new(),
        }
    }
}

impl SimplePiece {
    /// Whether every line read since the piece started is simple.
    pub(crate) fn is_simple(&self) -> bool {
        self.simple
    }

    /// Gives up: the piece will be parsed.
    pub(crate) fn give_up(&mut self) {
        self.simple = false;
    }

    /// A new piece starts (keeping the buffers).
    pub(crate) fn restart(&mut self) {
        self.simple = true;
        self.previous = Previous::Blank;
        self.open = None;
        self.marks.clear();
        self.closed.clear();
    }

    /// Reads the line `line` (without its ending) that starts at byte
    /// `start` of the text.
    pub(crate) fn read_line(&mut self, line: &str, start: usize) {
        if !self.simple {
            return;
        }
        let previous = self.previous;
        self.simple = match classify(line) {
            None => false,
            Some(Line::Blank) => {
                self.previous = Previous::Blank;
                true
            }
            Some(Line::Paragraph { indented }) => {
                self.previous = Previous::Paragraph;
                self.paragraph(previous, indented, start)
            }
            Some(Line::Item {
                indent: 0,
                marker,
                number,
                content_column,
            }) => {
                self.previous = Previous::Item;
                self.item(previous, marker, number, content_column, start)
            }
            Some(Line::Item {
                indent,
                marker,
                number,
                ..
            }) => {
                self.previous = Previous::SubItem;
                self.sub_item(previous, indent, marker, number, start)
            }
        };
    }

    /// A paragraph line: whether the piece stays simple.
    fn paragraph(&mut self, previous: Previous, indented: bool, start: usize) -> bool {
        if self.open.is_none() {
            return true;
        }
        // Right after an item it continues the item's text (lazily);
        // indented after a blank line, it may belong to the item. At the
        // margin after a blank, it ends the list.
        if matches!(previous, Previous::Item | Previous::SubItem) || indented {
            return false;
        }
        self.close(start);
        true
    }

    /// An item at the margin: whether the piece stays simple.
    fn item(
        &mut self,
        previous: Previous,
        marker: Marker,
        number: Option<u64>,
        content_column: usize,
        start: usize,
    ) -> bool {
        let mark = Mark {
            line: start,
            marker_at: start,
            nested: false,
            marker,
            number,
        };
        match &mut self.open {
            Some(open) if open.marker == marker => {
                open.content_column = content_column;
                open.sub_marker = None;
                self.marks.push(mark);
                return true;
            }
            // Another kind of marker starts another list, even right
            // after an item (its text is not continued by it).
            Some(_) => self.close(start),
            // Only a bullet or a `1.` may interrupt a paragraph; `2.`
            // there is more of the paragraph's text.
            None if previous == Previous::Paragraph && !interrupts(marker, number) => {
                return false;
            }
            None => {}
        }
        self.open = Some(OpenList {
            marker,
            first_number: number,
            first_item: self.marks.len(),
            content_column,
            sub_marker: None,
        });
        self.marks.push(mark);
        true
    }

    /// An indented item: a sub-item of the open list's last item when it
    /// starts where that item's text does; whether the piece stays simple.
    fn sub_item(
        &mut self,
        previous: Previous,
        indent: usize,
        marker: Marker,
        number: Option<u64>,
        start: usize,
    ) -> bool {
        let Some(open) = self.open.as_mut() else {
            return false;
        };
        if indent != open.content_column {
            return false;
        }
        let fits = match (open.sub_marker, previous) {
            // The sub-list goes on.
            (Some(sub), Previous::SubItem | Previous::Blank) => sub == marker,
            // A sub-list starts, right under the item's text (which only
            // a bullet or `1.` may interrupt) or after a blank line.
            (None, Previous::Item) => interrupts(marker, number),
            (None, Previous::Blank) => true,
            _ => false,
        };
        if fits {
            open.sub_marker = Some(marker);
            self.marks.push(Mark {
                line: start,
                marker_at: start + indent,
                nested: true,
                marker,
                number,
            });
        }
        fits
    }

    /// Ends the piece at byte `end` (the start of the heading line that
    /// ends it, or the end of the text) and hands `feed` the events of its
    /// lists, in order, as the parser gives them, with ranges into the
    /// whole text.
    pub(crate) fn finish(
        &mut self,
        end: usize,
        mut feed: impl FnMut(&Event<'static>, Range<usize>),
    ) {
        self.close(end);
        for (k, list) in self.closed.iter().enumerate() {
            let last_item = self
                .closed
                .get(k + 1)
                .map_or(self.marks.len(), |next| next.first_item);
            let marks = self
                .marks
                .get(list.first_item..last_item)
                .unwrap_or_default();
            let Some(first) = marks.first() else {
                continue;
            };
            let list_range = first.marker_at..list.end;
            feed(
                &Event::Start(Tag::List(list.first_number)),
                list_range.clone(),
            );
            // An item ends where the next one at its depth or above starts
            // (its line), or where the list ends; a sub-list ends with its
            // item.
            let mut rest = marks;
            while let Some((item, after)) = rest.split_first() {
                let subs = after.iter().take_while(|m| m.nested).count();
                let (children, next) = after.split_at(subs);
                let item_end = next.first().map_or(list.end, |m| m.line);
                feed(&Event::Start(Tag::Item), item.marker_at..item_end);
                if let Some(first_sub) = children.first() {
                    let sub_range = first_sub.marker_at..item_end;
                    feed(
                        &Event::Start(Tag::List(first_sub.number)),
                        sub_range.clone(),
                    );
                    for (j, sub) in children.iter().enumerate() {
                        let sub_end = children.get(j + 1).map_or(item_end, |m| m.line);
                        feed(&Event::Start(Tag::Item), sub.marker_at..sub_end);
                        feed(&Event::End(TagEnd::Item), sub.marker_at..sub_end);
                    }
                    let ordered = matches!(first_sub.marker, Marker::Ordered(_));
                    feed(&Event::End(TagEnd::List(ordered)), sub_range);
                }
                feed(&Event::End(TagEnd::Item), item.marker_at..item_end);
                rest = next;
            }
            feed(&Event::End(TagEnd::List(list.ordered)), list_range);
        }
        self.restart();
    }

    /// Closes the open list: its last item (blank lines after it included)
    /// ends at `end`, where the next block starts.
    fn close(&mut self, end: usize) {
        if let Some(open) = self.open.take() {
            self.closed.push(ClosedList {
                ordered: matches!(open.marker, Marker::Ordered(_)),
                first_number: open.first_number,
                first_item: open.first_item,
                end,
            });
        }
    }
}

/// Whether an item with `marker` may interrupt a paragraph (CommonMark:
/// a bullet, or an ordered item numbered 1).
fn interrupts(marker: Marker, number: Option<u64>) -> bool {
    matches!(marker, Marker::Bullet(_)) || number == Some(1)
}

/// What `line` is, if it is simple; `None` for anything else.
fn classify(line: &str) -> Option<Line> {
    let bytes = line.as_bytes();
    if bytes.iter().all(|&b| b == b' ' || b == b'\t') {
        return Some(Line::Blank);
    }
    if is_paragraph_line(line) {
        return Some(Line::Paragraph {
            indented: bytes.first() == Some(&b' '),
        });
    }
    let indent = bytes.iter().take_while(|&&b| b == b' ').count();
    let item = line.get(indent..)?;
    let read = list_marker(item)?;
    let (number, marker_len) = (read.number, read.len);
    let marker = match number {
        Some(_) => Marker::Ordered(read.delimiter),
        None => Marker::Bullet(read.delimiter),
    };
    let after = item.get(marker_len..)?;
    let gap = after.bytes().take_while(|&b| b == b' ').count();
    // One to four spaces, then a paragraph's first character: the item is
    // one paragraph (five spaces would make it indented code; a tab, a
    // column count the parser does better).
    let content = after.get(gap..)?;
    let one_paragraph = (1..=4).contains(&gap)
        && !line.contains('\t')
        && !content.starts_with(' ')
        && is_paragraph_line(content);
    one_paragraph.then_some(Line::Item {
        indent,
        marker,
        number,
        content_column: indent + marker_len + gap,
    })
}

/// Whether `line` (a whole line without its ending) can only be a line of
/// a paragraph, whatever came before it in a piece of paragraphs: one to
/// three spaces, then a letter, a digit not starting an ordered list
/// marker, `(`, `"`, `'` or a non-ASCII character. Every other block of
/// CommonMark and GFM (lists, quotes, code, HTML, rules, headings, setext
/// underlines, tables' delimiter rows, link definitions) starts with
/// something else. Conservative: a line this says no to may still be one.
pub(crate) fn is_paragraph_line(line: &str) -> bool {
    let bytes = line.as_bytes();
    let indent = bytes.iter().take_while(|&&b| b == b' ').count();
    if indent > 3 || bytes.contains(&b'\r') {
        return false;
    }
    match bytes.get(indent) {
        Some(b) if b.is_ascii_alphabetic() || matches!(b, b'(' | b'"' | b'\'') || *b >= 0x80 => {
            true
        }
        Some(b) if b.is_ascii_digit() => {
            let digits = bytes
                .get(indent..)
                .unwrap_or_default()
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            !matches!(bytes.get(indent + digits), Some(b'.' | b')'))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lists(md: &str) -> Vec<(String, Range<usize>)> {
        let mut piece = SimplePiece::default();
        let mut at = 0;
        for line in md.split_inclusive('\n') {
            piece.read_line(line.trim_end_matches('\n'), at);
            at += line.len();
        }
        assert!(piece.is_simple(), "{md:?} should be simple");
        let mut events = Vec::new();
        piece.finish(md.len(), |event, range| {
            events.push((format!("{event:?}"), range));
        });
        events
    }

    #[test]
    fn items_end_where_the_next_block_starts() {
        assert_eq!(
            lists("Intro\n- a\n- b\n\nafter\n"),
            [
                ("Start(List(None))".to_owned(), 6..15),
                ("Start(Item)".to_owned(), 6..10),
                ("End(Item)".to_owned(), 6..10),
                ("Start(Item)".to_owned(), 10..15),
                ("End(Item)".to_owned(), 10..15),
                ("End(List(false))".to_owned(), 6..15),
            ]
        );
    }

    #[test]
    fn sub_items_under_an_items_text_make_a_sub_list() {
        // What pulldown-cmark gives for the same text.
        let events: Vec<String> = lists("1. a\n   1. b\n   2. c\n2. d\n")
            .into_iter()
            .map(|(event, range)| format!("{event} {range:?}"))
            .collect();
        assert_eq!(
            events,
            [
                "Start(List(Some(1))) 0..26",
                "Start(Item) 0..21",
                "Start(List(Some(1))) 8..21",
                "Start(Item) 8..13",
                "End(Item) 8..13",
                "Start(Item) 16..21",
                "End(Item) 16..21",
                "End(List(true)) 8..21",
                "End(Item) 0..21",
                "Start(Item) 21..26",
                "End(Item) 21..26",
                "End(List(true)) 0..26",
            ]
        );
    }

    #[test]
    fn a_changed_delimiter_after_a_blank_line_starts_a_list() {
        let events = lists("1. a\n\n3) b\n");
        assert_eq!(events[0], ("Start(List(Some(1)))".to_owned(), 0..6));
        assert_eq!(events[3], ("End(List(true))".to_owned(), 0..6));
        assert_eq!(events[4], ("Start(List(Some(3)))".to_owned(), 6..11));
    }

    #[test]
    fn unsure_lines_give_up() {
        for md in [
            "- a\ncontinued\n",
            "- a\n\n  more of a\n",
            "x\n2. not a list\n",
            "- [ ] task\n",
            "- - nested\n",
            "1. a\n   2. b\n",
            "- a\n  - b\n    - c\n",
            "- a\n   - b\n",
            "- a\n  - b\ncontinued\n",
            "-\tTabbed\n",
            "| a | b |\n",
            "    code\n",
            "> quote\n",
        ] {
            let mut piece = SimplePiece::default();
            let mut at = 0;
            for line in md.split_inclusive('\n') {
                piece.read_line(line.trim_end_matches('\n'), at);
                at += line.len();
            }
            assert!(!piece.is_simple(), "{md:?} should be left to the parser");
        }
    }
}
