//! Confirming a candidate heading with the parser, and the budget that
//! keeps hostile input linear: a line that only looks like a heading (a
//! `# comment` in code) is checked by parsing its piece, and failed checks
//! may cost at most twice the piece.

use std::borrow::Cow;
use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag};

use crate::markdown::{options, parser_text};
use crate::stream::Pieces;
use crate::stream::scan::{Candidate, Checked};

/// The parser's events for `text[range]`, with ranges into all of `text`.
pub(crate) fn parse_piece(
    text: &str,
    range: Range<usize>,
) -> Option<Vec<(Event<'_>, Range<usize>)>> {
    let offset = range.start;
    let piece = text.get(range)?;
    match parser_text(piece) {
        Cow::Borrowed(piece) => Some(
            Parser::new_ext(piece, options())
                .into_offset_iter()
                .map(|(event, r)| (event, r.start + offset..r.end + offset))
                .collect(),
        ),
        // Lone carriage returns were replaced: the events own their text.
        Cow::Owned(fixed) => Some(
            Parser::new_ext(&fixed, options())
                .into_offset_iter()
                .map(|(event, r)| (event.into_static(), r.start + offset..r.end + offset))
                .collect(),
        ),
    }
}

/// Whether the last top-level block of `events` is what `kind` says,
/// completed (a heading) or opened (a fence) by the line starting at
/// `line_start`.
pub(crate) fn ends_with(
    events: &[(Event<'_>, Range<usize>)],
    line_start: usize,
    kind: Candidate,
) -> bool {
    let mut depth = 0usize;
    let mut last_top: Option<(&Tag<'_>, &Range<usize>)> = None;
    for (event, range) in events {
        match event {
            Event::Start(tag) => {
                if depth == 0 {
                    last_top = Some((tag, range));
                }
                depth += 1;
            }
            Event::End(_) => depth = depth.saturating_sub(1),
            _ if depth == 0 => last_top = None,
            _ => {}
        }
    }
    let Some((tag, range)) = last_top else {
        return false;
    };
    match (kind, tag) {
        (Candidate::Atx, Tag::Heading { .. }) => range.start >= line_start,
        (Candidate::Setext, Tag::Heading { .. }) => {
            range.start < line_start && range.end > line_start
        }
        (Candidate::Fence, Tag::CodeBlock(CodeBlockKind::Fenced(_))) => range.start >= line_start,
        _ => false,
    }
}

impl Pieces<'_> {
    /// Reads the piece up to `next`, known to end with a heading (or the
    /// text), in one parse whose events go straight to the readers.
    pub(super) fn read_piece(&mut self, next: usize) {
        let range = self.piece_start..next;
        let offset = range.start;
        if let Some(piece) = self.text.get(range) {
            let parsed = parser_text(piece);
            for (event, r) in Parser::new_ext(&parsed, options()).into_offset_iter() {
                let r = r.start + offset..r.end + offset;
                self.readers.on_event(&self.text, &event, r);
            }
        }
        self.start_piece(next);
    }

    /// The next piece starts at `next`.
    pub(super) fn start_piece(&mut self, next: usize) {
        self.piece_start = next;
        self.wasted = 0;
        self.unchecked = None;
        self.unsure_in_piece = false;
        self.simple.restart();
    }

    /// Parses the piece up to the end of the line at `start..next`, and
    /// when that line completes a top-level heading, reads the piece.
    pub(super) fn try_heading(&mut self, start: usize, next: usize, kind: Candidate) {
        if self.check(start, next, kind) == Checked::Yes {
            self.start_piece(next);
        }
    }

    /// The parser's word on whether the line at `start..next` completes or
    /// opens what `kind` says, at the top level.
    pub(super) fn check(&mut self, start: usize, next: usize, kind: Candidate) -> Checked {
        let piece_len = next.saturating_sub(self.piece_start);
        // Failed checks may cost at most twice the piece: linear overall.
        // A line not checked may still be a heading: nothing after it is
        // settled until a later heading is found (or the end).
        if self.wasted > piece_len.saturating_mul(2) {
            self.unchecked.get_or_insert(start);
            return Checked::Skipped;
        }
        let Some(events) = parse_piece(&self.text, self.piece_start..next) else {
            return Checked::No;
        };
        if ends_with(&events, start, kind) {
            if kind == Candidate::Fence {
                self.wasted = self.wasted.saturating_add(piece_len);
            } else {
                // A heading ends the piece: its events are final. They
                // borrow the text, so they are fed here, not returned.
                for (event, range) in events {
                    self.readers.on_event(&self.text, &event, range);
                }
            }
            Checked::Yes
        } else {
            self.wasted = self.wasted.saturating_add(piece_len);
            Checked::No
        }
    }
}
