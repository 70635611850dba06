//! What a `StreamingExtractor` knows besides the text (`State`), a heading
//! it has read (`Seen`), what the stream has read (`Read`), and the items
//! sent before their piece is parsed (`EarlyItems`). Declarations only:
//! `section.rs` and `early.rs` add the methods.

use std::collections::HashMap;
use std::sync::Arc;

use flexmd_core::{
    ExtractedSection, LineStarts, OutputFormatSpec, ParsedTable, Span, TopLevelList,
};

use crate::check::{ExtractOptions, Issue};
use crate::locate::Found;
use crate::stream::event::StreamEvent;
use crate::stream::payload::Payloads;

/// A heading the extractor has read.
pub(crate) struct Seen {
    pub(crate) level: u8,
    /// Stored inline (keys are short): a long answer has many headings.
    pub(crate) key: compact_str::CompactString,
    pub(crate) heading: Span,
    /// The spec section it names, and how.
    pub(crate) section: Option<(usize, Found)>,
}

/// What a [`StreamingExtractor`] knows besides the text.
pub(crate) struct State {
    pub(crate) spec: OutputFormatSpec,
    pub(crate) options: ExtractOptions,
    /// Spec section by normalised name.
    pub(crate) keys: HashMap<String, usize, foldhash::fast::RandomState>,
    pub(crate) seen: Vec<Seen>,
    /// Per heading, where its subtree ends (`usize::MAX` while open).
    pub(crate) ends: Vec<usize>,
    /// Indices of headings whose subtrees are open, outermost first.
    pub(crate) open: Vec<usize>,
    /// Heading starts of every heading that names a spec section.
    pub(crate) section_starts: Vec<usize>,
    /// The heading whose section is open, and where its unsent text starts.
    pub(crate) current: Option<(usize, usize)>,
    /// The open section's own content has ended at a sub-heading, and it
    /// had some: what follows (its subsections) is not sent as its text or
    /// items.
    pub(crate) own_ended: bool,
    pub(crate) lists_done: usize,
    pub(crate) tables_done: usize,
    /// Per spec section: its last completed value, and items sent.
    pub(crate) completed: Vec<Option<ExtractedSection>>,
    pub(crate) items_sent: Vec<usize>,
    pub(crate) violations_sent: Vec<Issue>,
    /// Items of the open piece sent before the piece is parsed.
    pub(crate) early: EarlyItems,
    pub(crate) payloads: Payloads,
    /// The events of a push, handed out by draining.
    pub(crate) buffer: Vec<StreamEvent>,
    /// The spec's section names, shared by every event that names one.
    pub(crate) names: Vec<Arc<str>>,
    /// Per spec section, the JSON Pointer of its items (`/Name/`).
    pub(crate) pointers: Vec<String>,
}

/// What the stream has read: the text, its lines, and the lists and tables
/// of its parsed pieces.
#[derive(Clone, Copy)]
pub(crate) struct Read<'a> {
    pub(crate) text: &'a str,
    pub(crate) lines: &'a LineStarts,
    pub(crate) lists: &'a [TopLevelList],
    pub(crate) tables: &'a [ParsedTable],
}

/// The top-level items of a list in the open piece of text (the part not
/// parsed yet), each sent once the next item's marker shows it complete.
#[derive(Debug, Default)]
pub(crate) struct EarlyItems {
    /// Where the piece starts ([`MarkdownStream::parsed_to`]).
    pub(crate) piece: usize,
    /// The next line to look at.
    pub(crate) line: usize,
    /// Where the current top-level item starts.
    pub(crate) item: Option<usize>,
    /// The column its content starts at: lines indented this far belong
    /// to it.
    pub(crate) content_column: usize,
    /// Whether the previous line was blank (or the piece just started).
    pub(crate) previous_blank: bool,
    /// The marker of the open list's items (`-`, `*`, `+`, `.` or `)`).
    pub(crate) list: Option<u8>,
    /// A line that may change how the piece parses (HTML, a link
    /// definition, a fence): no more items are sent early in this piece.
    pub(crate) stopped: bool,
    /// Items sent early in this piece, which its parse must not send again.
    pub(crate) sent: usize,
}
