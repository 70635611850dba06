//! Items sent before their piece is parsed: the open list section's items
//! read line by line, without the parser, by a reader of one-line items
//! (with one level of one-line sub-items) that gives what `parse_list`
//! gives or nothing (property tests compare the two). The marker is
//! flexmd-core's `line_kind::list_marker`.

use flexmd_core::ListItem;
use flexmd_core::line_kind::{ListMarker, has_label_colon, list_marker};

use crate::stream::event::StreamEvent;
use crate::stream::section::{item_path, name_of};
use crate::stream::state::{EarlyItems, Read, State};

impl EarlyItems {
    pub(super) fn at(piece: usize, line: usize) -> Self {
        Self {
            piece,
            line,
            previous_blank: true,
            content_column: usize::MAX,
            ..Self::default()
        }
    }
}

/// The column where a list item's content starts (after the marker and
/// one to four spaces); `usize::MAX` (nothing is surely inside) when a tab
/// follows the marker.
pub(crate) fn content_column(line: &str) -> usize {
    let marker = line
        .bytes()
        .position(|b| b == b' ' || b == b'\t')
        .unwrap_or(line.len());
    let rest = line.get(marker..).unwrap_or_default();
    if rest.starts_with('\t') {
        return usize::MAX;
    }
    let spaces = rest.bytes().take_while(|&b| b == b' ').count();
    marker + if (1..=4).contains(&spaces) { spaces } else { 1 }
}

/// A thematic break: three or more `-`, `*` or `_` and blanks.
pub(crate) fn is_rule(line: &str) -> bool {
    let trimmed = line.trim();
    let Some(first) = trimmed
        .bytes()
        .next()
        .filter(|b| matches!(b, b'-' | b'*' | b'_'))
    else {
        return false;
    };
    trimmed
        .bytes()
        .all(|b| b == first || b == b' ' || b == b'\t')
        && trimmed.bytes().filter(|&b| b == first).count() >= 3
}

/// The marker of a list item `line` starts with (no indentation), when
/// text follows it and the line is not a thematic break.
pub(crate) fn item_marker(line: &str) -> Option<ListMarker> {
    let marker = list_marker(line)?;
    let rest = line.get(marker.len..)?;
    let has_text = rest.starts_with([' ', '\t']) && !rest.trim().is_empty();
    // `- - -` and `* * *` are rules, not items.
    (has_text && !is_rule(line)).then_some(marker)
}

/// The one item `slice` holds (a top-level list item alone), with spans
/// moved to the whole text; `None` when it parses otherwise.
pub(crate) fn single_item(slice: &str, offset: usize) -> Option<ListItem> {
    if let Some(item) = one_line_item(slice, offset) {
        return Some(item);
    }
    if let Some(item) = item_with_one_line_children(slice, offset) {
        return Some(item);
    }
    let list = flexmd_core::parse_list(slice)?;
    let [mut item] = <[ListItem; 1]>::try_from(list.items).ok()?;
    // The item must be the whole slice (but blank lines after it).
    if item.span.as_ref()?.end < slice.trim_end().len() {
        return None;
    }
    shift_spans(&mut item, offset);
    Some(item)
}

/// The item of a slice that is one line of plain text after its marker
/// (`- text`, `2. text`), read without a parser: most items are. Anything
/// the parser could read otherwise (a tab or indented code after the
/// marker, a nested list marker, several lines) is left to it.
pub(crate) fn one_line_item(slice: &str, offset: usize) -> Option<ListItem> {
    let line = trim_blank_end(slice);
    if memchr::memchr2(b'\n', b'\r', line.as_bytes()).is_some() {
        return None;
    }
    let marker = item_marker(line)?;
    let rest = line.get(marker.len..)?;
    let gap = rest.bytes().take_while(|&b| b == b' ').count();
    let text = rest.get(gap..)?;
    // What could open another block in the item (a nested marker among
    // them: `-`, `*`, `+` or a digit).
    let nested = text.starts_with(['-', '*', '+', '#', '>', '`', '~', '<', '|', '[', '\\'])
        || text.bytes().next().is_some_and(|b| b.is_ascii_digit());
    if rest.starts_with('\t')
        || !(1..=4).contains(&gap)
        || nested
        || memchr::memchr(b'\t', text.as_bytes()).is_some()
    {
        return None;
    }
    Some(ListItem {
        text: text.to_owned(),
        index: marker.number,
        children: Vec::new(),
        // As the parser spans it: through the blank end of the slice.
        span: Some(offset..offset + slice.len()),
    })
}

/// `text` without its trailing spaces, tabs and line endings.
pub(crate) fn trim_blank_end(text: &str) -> &str {
    let blank = text
        .bytes()
        .rev()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        .count();
    text.get(..text.len() - blank).unwrap_or(text)
}

/// An item of one plain line with a sub-list of one-line plain items right
/// under it (`- a` then `  - b`, `  - c`), read without a parser: the
/// usual shape of a nested item, and a parser started per such item cost
/// a streamed answer more than its own text. Anything else (a sub-item at
/// another column, markers of two lists, an ordered sub-list that does not
/// start at 1 and so cannot interrupt the item's text) is left to the
/// parser.
pub(crate) fn item_with_one_line_children(slice: &str, offset: usize) -> Option<ListItem> {
    let body = trim_blank_end(slice);
    if body.contains('\r') {
        return None;
    }
    let mut lines = body.split('\n');
    let first = lines.next()?;
    let mut item = one_line_item(first, offset)?;
    let column = content_column(first);
    let mut list = None;
    let mut line_start = offset + first.len() + 1;
    for line in lines {
        let indent = line.bytes().take_while(|&b| b == b' ').count();
        let rest = line.get(indent..)?;
        if indent != column {
            return None;
        }
        let marker = item_marker(rest)?;
        match list {
            None if marker.number.is_some_and(|n| n != 1) => return None,
            None => list = Some(marker.delimiter),
            Some(delimiter) if delimiter != marker.delimiter => return None,
            Some(_) => {}
        }
        let mut child = one_line_item(rest, line_start + indent)?;
        // As the parser spans them: a child through its line ending, the
        // last one (and the item) through the blank end of the slice.
        child.span = Some(line_start + indent..line_start + line.len() + 1);
        item.children.push(child);
        line_start += line.len() + 1;
    }
    let end = offset + slice.len();
    if let Some(last) = item.children.last_mut() {
        last.span = last.span.take().map(|span| span.start..end);
    } else {
        return None;
    }
    item.span = Some(offset..end);
    Some(item)
}

pub(crate) fn shift_spans(item: &mut ListItem, offset: usize) {
    if let Some(span) = item.span.as_mut() {
        *span = span.start + offset..span.end + offset;
    }
    for child in &mut item.children {
        shift_spans(child, offset);
    }
}

impl State {
    /// Sends the items of the open section's list that the text after the
    /// parsed pieces already shows complete: a top-level item ends where the
    /// next one's marker starts.
    pub(super) fn early_items(
        &mut self,
        read: &Read<'_>,
        parsed_to: usize,
        events: &mut Vec<StreamEvent>,
    ) {
        let text = read.text;
        if self.early.piece != parsed_to {
            // The line the piece starts in (mid-line after a byte order
            // mark).
            let first = read.lines.line_at(parsed_to + 1).saturating_sub(1);
            self.early = EarlyItems::at(parsed_to, first);
        }
        let Some(i) = self.open_list_section() else {
            return;
        };
        while !self.early.stopped {
            let Some((start, end, _)) = read.lines.line(text, self.early.line) else {
                break;
            };
            self.early.line += 1;
            let start = start.max(parsed_to);
            let line = text.get(start..end).unwrap_or_default();
            let trimmed = line.trim_start_matches([' ', '\t']);
            // In columns: a tab goes to the next multiple of four.
            let indent =
                line.bytes()
                    .take_while(|b| matches!(b, b' ' | b'\t'))
                    .fold(
                        0,
                        |col, b| if b == b'\t' { col / 4 * 4 + 4 } else { col + 1 },
                    );
            let blank = line.trim().is_empty();
            let previous_blank = std::mem::replace(&mut self.early.previous_blank, blank);
            let marker = item_marker(line);
            // What a line means may depend on what the parser alone knows
            // (HTML, fences, link definitions, tables, quotes, lazy
            // continuation lines, lists indented by one to three spaces):
            // such a piece's items are sent when it is parsed.
            let unsure = (indent <= 3
                && (trimmed.starts_with(['<', '`', '~', '>', '|'])
                    || has_label_colon(line)
                    || (indent > 0
                        && indent < self.early.content_column
                        && item_marker(trimmed).is_some())))
                || match marker {
                    Some(ListMarker {
                        number: Some(n),
                        delimiter,
                        ..
                    }) => !(previous_blank || n == 1 || self.early.list == Some(delimiter)),
                    Some(ListMarker { number: None, .. }) => false,
                    None => {
                        !blank
                            && indent == 0
                            && !previous_blank
                            && self.early.list.is_some()
                            && !is_rule(line)
                    }
                };
            if unsure {
                self.early.stopped = true;
                break;
            }
            let starts_item = marker.is_some();
            let ends_list = !blank && indent == 0 && (previous_blank || is_rule(line));
            if starts_item || ends_list {
                if let Some(item_start) = self.early.item.take() {
                    let slice = text.get(item_start..start).unwrap_or_default();
                    let Some(item) = single_item(slice, item_start) else {
                        // Not one item alone: the piece's parse sends it.
                        self.early.stopped = true;
                        break;
                    };
                    let Some(sent) = self.items_sent.get_mut(i) else {
                        break;
                    };
                    events.push(StreamEvent::ListItem {
                        section: name_of(&self.names, i),
                        path: item_path(&self.pointers, i, *sent),
                        item,
                    });
                    *sent += 1;
                    self.early.sent += 1;
                }
                self.early.list = marker.map(|m| m.delimiter);
                self.early.content_column = usize::MAX;
                if starts_item {
                    self.early.item = Some(start);
                    self.early.content_column = content_column(line);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flexmd_core::Span;
    use proptest::prelude::*;

    /// An item with its span, which `ListItem`'s `==` leaves out.
    #[derive(Debug, PartialEq)]
    struct Spanned(String, Option<u64>, Option<Span>, Vec<Spanned>);

    fn spanned(items: &[ListItem]) -> Vec<Spanned> {
        items
            .iter()
            .map(|i| {
                Spanned(
                    i.text.clone(),
                    i.index,
                    i.span.clone(),
                    spanned(&i.children),
                )
            })
            .collect()
    }

    #[test]
    fn the_usual_nested_items_are_read_without_the_parser() {
        for slice in [
            "2) Compare that with our tolerance.\n   - Finance accepts quotes.\n",
            "1. Dual writes first.\n   1. Nightly counts.\n   2. Checksums.\n",
            "- Write volume fits.\n  - Measured peak: 40% CPU.\n",
        ] {
            let fast = item_with_one_line_children(slice, 0);
            let parsed = flexmd_core::parse_list(slice).map(|l| l.items);
            assert!(fast.is_some(), "{slice:?}");
            assert_eq!(fast.map(|f| spanned(&[f])), parsed.map(|p| spanned(&p)));
        }
        // Read by the parser: an ordered sub-list from 2 cannot interrupt
        // the item's text; a sub-item at another column may be text.
        assert!(item_with_one_line_children("- a\n  2. b\n", 0).is_none());
        assert!(item_with_one_line_children("- a\n   - b\n", 0).is_none());
    }

    /// An item's text: mostly plain words, sometimes what may open
    /// another block.
    fn item_text() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => "[a-z][a-z *_.]{0,8}",
            1 => "[a-z *_`#>0-9.-]{0,8}",
        ]
    }

    proptest! {
        /// A one-line item read without the parser is what the parser reads.
        #[test]
        fn one_line_items_read_as_the_parser_reads_them(
            marker in prop::sample::select(vec!["-", "*", "+", "1.", "2)", "10.", "007."]),
            gap in prop::sample::select(vec![" ", "  ", "    ", "     ", "\t", " \t"]),
            text in "[a-z *_`#>\\[\\]<|!\\\\0-9.)(~-]{0,12}",
            end in prop::sample::select(vec!["", "\n", "\r\n", "\r", "  \n", "\n\n", "  "]),
        ) {
            let slice = format!("{marker}{gap}{text}{end}");
            if let Some(fast) = one_line_item(&slice, 0) {
                let parsed = flexmd_core::parse_list(&slice).map(|l| l.items);
                prop_assert_eq!(Some(spanned(&[fast])), parsed.map(|p| spanned(&p)), "{:?}", slice);
            }
        }

        /// An item with one-line sub-items read without the parser is what
        /// the parser reads, spans included.
        #[test]
        fn items_with_one_line_children_read_as_the_parser_reads_them(
            marker in prop::sample::select(vec!["-", "*", "1.", "2)", "10."]),
            gap in prop::sample::select(vec![" ", " ", "  ", "     ", "\t"]),
            text in item_text(),
            children in prop::collection::vec((
                // Mostly at the item's content column, where a sub-item is.
                prop::sample::select(vec![None, None, None, None, Some(""), Some(" "), Some("    "), Some("\t")]),
                prop::sample::select(vec!["-", "-", "-", "*", "1.", "1.", "1)", "2.", "3)"]),
                prop::sample::select(vec![" ", " ", "  ", "\t"]),
                item_text(),
            ), 0..4),
            end in prop::sample::select(vec!["", "\n", "\r\n", "\r", "  \n", "\n\n", "  "]),
        ) {
            let mut slice = format!("{marker}{gap}{text}");
            let column = " ".repeat(marker.len() + gap.len());
            for (indent, child, child_gap, child_text) in &children {
                let indent = indent.unwrap_or(&column);
                slice.push_str(&format!("\n{indent}{child}{child_gap}{child_text}"));
            }
            slice.push_str(end);
            if let Some(fast) = item_with_one_line_children(&slice, 0) {
                let parsed = flexmd_core::parse_list(&slice).map(|l| l.items);
                prop_assert_eq!(Some(spanned(&[fast])), parsed.map(|p| spanned(&p)), "{:?}", slice);
            }
        }
    }
}
