//! Pieces of a stream that need no parser: paragraphs and flat lists of
//! one-line items, the most common shape of a model's answer.
//!
//! A [`MarkdownStream`](crate::MarkdownStream) parses each piece of text
//! between top-level headings once. The readers it feeds want only headings,
//! lists, tables and code blocks; a piece made of blank lines, paragraph
//! lines and items like `- text` or `2. text` gives them nothing but its
//! lists, whose shape the lines alone tell. Such a piece is read here line
//! by line, and its lists are handed to the readers as the events the
//! parser would give, with the same ranges. Any line this reader is not
//! sure of (a nested item, a continuation line, a table, code, a quote)
//! makes the piece an ordinary one, parsed as before.

use std::ops::Range;

use pulldown_cmark::{Event, Tag, TagEnd};

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
    /// A one-line list item at the margin, with its number if ordered.
    Item(Marker, Option<u64>),
}

/// The line before the current one, as far as the lists care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Previous {
    /// The piece's start or a blank line.
    Blank,
    Paragraph,
    Item,
}

/// The list being read: its marker, the number of its first item (ordered
/// lists), and where its items start in [`SimplePiece::starts`].
#[derive(Debug)]
struct OpenList {
    marker: Marker,
    first_number: Option<u64>,
    first_item: usize,
}

/// A closed list: its items are `starts[first_item..]` up to the next
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
/// Eight bytes an item: a long list costs little before its piece ends.
#[derive(Debug)]
pub(crate) struct SimplePiece {
    simple: bool,
    previous: Previous,
    open: Option<OpenList>,
    starts: Vec<usize>,
    closed: Vec<ClosedList>,
}

impl Default for SimplePiece {
    fn default() -> Self {
        Self {
            simple: true,
            previous: Previous::Blank,
            open: None,
            starts: Vec::new(),
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
        self.starts.clear();
        self.closed.clear();
    }

    /// Reads the line `line` (without its ending) that starts at byte
    /// `start` of the text.
    pub(crate) fn read_line(&mut self, line: &str, start: usize) {
        if !self.simple {
            return;
        }
        let Some(kind) = classify(line) else {
            self.simple = false;
            return;
        };
        let previous = std::mem::replace(
            &mut self.previous,
            match kind {
                Line::Blank => Previous::Blank,
                Line::Paragraph { .. } => Previous::Paragraph,
                Line::Item(..) => Previous::Item,
            },
        );
        match kind {
            Line::Blank => {}
            Line::Paragraph { indented } => {
                if self.open.is_some() {
                    // Right after an item it continues the item's text
                    // (lazily); indented after a blank line, it may belong
                    // to the item. At the margin after a blank, it ends
                    // the list.
                    if previous == Previous::Item || indented {
                        self.simple = false;
                    } else {
                        self.close(start);
                    }
                }
            }
            Line::Item(marker, number) => match &self.open {
                Some(open) if open.marker == marker => self.starts.push(start),
                // Another kind of marker starts another list, even right
                // after an item (its text is not continued by it).
                Some(_) => {
                    self.close(start);
                    self.open_list(marker, number, start);
                }
                None => {
                    // Only a bullet or a `1.` may interrupt a paragraph;
                    // `2.` there is more of the paragraph's text.
                    let interrupts = matches!(marker, Marker::Bullet(_)) || number == Some(1);
                    if previous == Previous::Paragraph && !interrupts {
                        self.simple = false;
                    } else {
                        self.open_list(marker, number, start);
                    }
                }
            },
        }
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
                .map_or(self.starts.len(), |next| next.first_item);
            let items = self
                .starts
                .get(list.first_item..last_item)
                .unwrap_or_default();
            let Some(&first) = items.first() else {
                continue;
            };
            feed(&Event::Start(Tag::List(list.first_number)), first..list.end);
            let ends = items.iter().skip(1).copied().chain([list.end]);
            for (&item, item_end) in items.iter().zip(ends) {
                feed(&Event::Start(Tag::Item), item..item_end);
                feed(&Event::End(TagEnd::Item), item..item_end);
            }
            feed(&Event::End(TagEnd::List(list.ordered)), first..list.end);
        }
        self.restart();
    }

    fn open_list(&mut self, marker: Marker, number: Option<u64>, start: usize) {
        self.open = Some(OpenList {
            marker,
            first_number: number,
            first_item: self.starts.len(),
        });
        self.starts.push(start);
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
    let (marker, number, marker_len) = match bytes.first()? {
        &b @ (b'-' | b'*' | b'+') => (Marker::Bullet(b), None, 1),
        b if b.is_ascii_digit() => {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            let &delimiter = bytes.get(digits).filter(|d| matches!(d, b'.' | b')'))?;
            if digits > 9 {
                return None;
            }
            let number = line.get(..digits)?.parse().ok()?;
            (Marker::Ordered(delimiter), Some(number), digits + 1)
        }
        _ => return None,
    };
    let after = line.get(marker_len..)?;
    let gap = after.bytes().take_while(|&b| b == b' ').count();
    // One to four spaces, then a paragraph's first character: the item is
    // one paragraph (five spaces would make it indented code; a tab, a
    // column count the parser does better).
    let content = after.get(gap..)?;
    let one_paragraph = (1..=4).contains(&gap)
        && !line.contains('\t')
        && !content.starts_with(' ')
        && is_paragraph_line(content);
    one_paragraph.then_some(Line::Item(marker, number))
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
