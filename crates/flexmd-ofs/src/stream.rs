//! Checking and extracting an answer while the model is still writing it.
//!
//! [`StreamingExtractor`] reads the answer through a
//! [`MarkdownStream`](flexmd_core::MarkdownStream), which parses each piece
//! of text once, when the heading after it is complete. Sections are
//! matched, bounded and checked by the same code as [`extract`](crate::extract)
//! and [`validate`](crate::validate); [`StreamingExtractor::finish`] returns
//! exactly what [`check`](crate::check) returns for the whole answer.

use std::collections::HashMap;
use std::sync::Arc;

use flexmd_core::{
    ExtractedResult, ExtractedSection, FlexPayload, LineStarts, ListItem, MarkdownStream, MdNode,
    OutputFormatSpec, ParsedList, ParsedTable, SectionKind, Span, StreamHeading, TopLevelList,
    normalize_title,
};
use serde::Serialize;

use crate::check::{ExtractOptions, Issue, Report, check_parts, check_section, extracted_section};
use crate::locate::{Bounds, Found, Head, from_headings, strip_numbering};

/// What a [`StreamingExtractor`] reports as the answer arrives.
///
/// As JSON (one object per line in `flexmd extract --stream`) each event has
/// an `"event"` field with the variant's name in snake case
/// (`"section_started"`, …) and the variant's fields beside it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum StreamEvent {
    /// A heading that names a spec section is complete.
    SectionStarted {
        /// The section's name in the spec.
        name: Arc<str>,
        /// The heading's level, 1 to 6.
        level: u8,
    },
    /// More of the section's raw Markdown, as it arrives. The text of a
    /// line that may still turn out to be a heading is held back until it
    /// is known; a setext heading (a title line underlined with `---` or
    /// `===`) is only one once its underline arrives, so its title line may
    /// already have been sent as part of the section before.
    SectionDelta {
        /// The section's name in the spec.
        name: Arc<str>,
        /// The new text (a [`CompactString`](crate::CompactString):
        /// a token's few bytes are stored inline, not allocated; it derefs
        /// to `&str`, and `String::from` or `into_string` turns it into a
        /// `String`).
        #[cfg_attr(
            feature = "schemars",
            schemars(with = "String", description = "The new text.")
        )]
        text: compact_str::CompactString,
    },
    /// A section is complete — a heading at its level or above, or another
    /// spec section's heading, has started, or the answer has ended — and
    /// `value` is what [`extract`](crate::extract) gives for it. If the
    /// answer repeats the section's heading later, the repeats stream as
    /// deltas and items under the same name, and the section is completed
    /// again at the end with the value they lead to (merged, or replaced
    /// by a higher-level one): the last `SectionCompleted` of a name is
    /// final.
    SectionCompleted {
        /// The section's name in the spec.
        name: Arc<str>,
        /// The extracted section.
        value: ExtractedSection,
    },
    /// A top-level item of a list in a list section, complete with its
    /// sub-items.
    ListItem {
        /// The section's name in the spec.
        section: Arc<str>,
        /// Where the item's text lands in [`to_json`](crate::to_json)'s
        /// object, as a JSON Pointer (`/Risks/0`).
        path: String,
        /// The item.
        item: ListItem,
    },
    /// A body row of one of the answer's tables.
    TableRow {
        /// The table's position among the answer's tables
        /// ([`ExtractedResult::tables`]).
        table: usize,
        /// The row's position in the table's body.
        index: usize,
        /// The header cells, sent with the first row of each table.
        #[serde(skip_serializing_if = "Option::is_none")]
        columns: Option<Vec<String>>,
        /// The row's cells.
        row: Vec<String>,
    },
    /// A fence bound to a payload by a `@payload:name: X` line before it
    /// (FlexMD's payload binding) has closed: its content, parsed by its
    /// language (`json`, `json5`, `table`; anything else as text).
    PayloadCompleted {
        /// The payload's name (`X`).
        name: Arc<str>,
        /// The payload: `lang`, `raw`, `value`, `parseError`.
        payload: FlexPayload,
    },
    /// Something that breaks the spec, reported once the section it
    /// concerns is complete (a missing section or table: at the end). A
    /// later repeat of the section's heading can still mend it; the final
    /// [`Report`] decides.
    Violation(Issue),
}

impl StreamEvent {
    /// A violation's span and column in `offsets`' unit (over the whole
    /// text pushed so far); the other events carry no offsets.
    pub fn reindex(&mut self, offsets: &flexmd_core::TextOffsets<'_>) {
        if let Self::Violation(issue) = self {
            issue.reindex(offsets);
        }
    }
}

/// The end of a stream: the events only the whole answer decides, and the
/// same report and extracted result as [`check`](crate::check).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamFinish {
    /// The last events: the rest of the open section, sections completed at
    /// the end or whose value the end changed, and violations not yet sent.
    pub events: Vec<StreamEvent>,
    /// The answer checked against the spec.
    pub report: Report,
    /// The answer extracted along the spec.
    pub extracted: ExtractedResult,
    /// The whole answer.
    pub text: String,
}

impl StreamFinish {
    /// Every offset of the events and the report in `unit` (a binding's
    /// string indices into the whole answer).
    pub fn reindex(&mut self, unit: flexmd_core::OffsetUnit) {
        let offsets = flexmd_core::TextOffsets::new(&self.text, unit);
        for event in &mut self.events {
            event.reindex(&offsets);
        }
        self.report.reindex(&offsets);
    }

    /// The last line of `flexmd extract --stream`: `{"event": "finished",
    /// "report": ..., "result": ...}` with the [`Report`] and the
    /// [`ExtractedResult`] (or, with `as_json`, the plain object of
    /// [`to_json`](crate::to_json) for `spec`), as a JSON value. To write
    /// it out, [`finished`](Self::finished) serialises the same without
    /// building the value first.
    pub fn finished_event(&self, spec: &OutputFormatSpec, as_json: bool) -> serde_json::Value {
        serde_json::to_value(self.finished(spec, as_json)).unwrap_or_default()
    }

    /// The same event as [`finished_event`](Self::finished_event), borrowing
    /// the report and the result: serialised straight to a writer, a long
    /// answer's result is never held twice.
    ///
    /// ```
    /// use flexmd_ofs::{StreamingExtractor, parse_spec};
    ///
    /// let spec = parse_spec("- Risks — list\n").value;
    /// let mut stream = StreamingExtractor::new(&spec);
    /// stream.push("## Risks\n- load\n");
    /// let end = stream.finish();
    /// let line = serde_json::to_string(&end.finished(&spec, true)).unwrap();
    /// assert!(line.starts_with(r#"{"event":"finished","report":{"ok":true,"valid":true,"#));
    /// assert!(line.ends_with(r#""result":{"Risks":["load"]}}"#));
    /// assert_eq!(serde_json::to_value(end.finished(&spec, false)).unwrap(), end.finished_event(&spec, false));
    /// ```
    pub fn finished(&self, spec: &OutputFormatSpec, as_json: bool) -> FinishedEvent<'_> {
        FinishedEvent {
            event: "finished",
            report: &self.report,
            result: if as_json {
                FinishedResult::Json(crate::to_json(&self.extracted, spec))
            } else {
                FinishedResult::Extracted(&self.extracted)
            },
        }
    }
}

/// The `finished` event of a stream, ready to serialise (see
/// [`StreamFinish::finished`]): `{"event": "finished", "report": ...,
/// "result": ...}`.
#[derive(Debug, Serialize)]
pub struct FinishedEvent<'a> {
    event: &'static str,
    report: &'a Report,
    result: FinishedResult<'a>,
}

/// The result in a [`FinishedEvent`]: the extracted result, or its plain
/// object.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum FinishedResult<'a> {
    Extracted(&'a ExtractedResult),
    Json(serde_json::Value),
}

/// A heading the extractor has read.
struct Seen {
    level: u8,
    /// Stored inline (keys are short): a long answer has many headings.
    key: compact_str::CompactString,
    heading: Span,
    /// The spec section it names, and how.
    section: Option<(usize, Found)>,
}

/// Validates and extracts an answer while it is being written.
///
/// Feed the model's text with [`push`](Self::push) as it streams; each call
/// returns what the new text settled. [`finish`](Self::finish) gives the
/// last events and exactly the [`Report`] and [`ExtractedResult`] that
/// [`check`](crate::check) gives for the whole answer. The answer is read in
/// one linear pass: a push costs time in proportion to its text, plus one
/// parse of each piece of the answer it completes.
///
/// ```
/// use flexmd_ofs::{StreamEvent, StreamingExtractor, parse_spec};
///
/// let spec = parse_spec("- Short answer — prose\n- Risks — list\n").value;
/// let mut stream = StreamingExtractor::new(&spec);
/// let mut events: Vec<StreamEvent> = stream.push("## Short answer\nShip ").collect();
/// events.extend(stream.push("it.\n\n## Risks\n"));
/// let names: Vec<String> = events
///     .iter()
///     .filter_map(|e| match e {
///         StreamEvent::SectionCompleted { name, value } => Some(format!("{name}: {}", value.md.trim())),
///         _ => None,
///     })
///     .collect();
/// assert_eq!(names, ["Short answer: Ship it."]);
///
/// // A list section whose first content is prose is already off-contract.
/// stream.push("Nothing to worry about.\n");
/// let end = stream.finish();
/// assert_eq!(end.report.errors[0].id(), "section_not_bullets:Risks");
/// assert!(end.events.iter().any(|e| matches!(e, StreamEvent::Violation(v) if v.code == "section_not_bullets")));
/// ```
pub struct StreamingExtractor {
    /// The answer so far, read as Markdown.
    stream: MarkdownStream,
    /// The rest, apart so that a push reads the stream while it updates
    /// this (moving the stream out and back cost two copies per push).
    state: State,
}

/// What a [`StreamingExtractor`] knows besides the text.
struct State {
    spec: OutputFormatSpec,
    options: ExtractOptions,
    /// Spec section by normalised name.
    keys: HashMap<String, usize, foldhash::fast::RandomState>,
    seen: Vec<Seen>,
    /// Per heading, where its subtree ends (`usize::MAX` while open).
    ends: Vec<usize>,
    /// Indices of headings whose subtrees are open, outermost first.
    open: Vec<usize>,
    /// Heading starts of every heading that names a spec section.
    section_starts: Vec<usize>,
    /// The heading whose section is open, and where its unsent text starts.
    current: Option<(usize, usize)>,
    /// The open section's own content has ended at a sub-heading, and it
    /// had some: what follows (its subsections) is not sent as its text or
    /// items.
    own_ended: bool,
    lists_done: usize,
    tables_done: usize,
    /// Per spec section: its last completed value, and items sent.
    completed: Vec<Option<ExtractedSection>>,
    items_sent: Vec<usize>,
    violations_sent: Vec<Issue>,
    /// Items of the open piece sent before the piece is parsed.
    early: EarlyItems,
    payloads: Payloads,
    /// The events of a push, handed out by draining.
    buffer: Vec<StreamEvent>,
    /// The spec's section names, shared by every event that names one.
    names: Vec<Arc<str>>,
    /// Per spec section, the JSON Pointer of its items (`/Name/`).
    pointers: Vec<String>,
}

/// What the stream has read: the text, its lines, and the lists and tables
/// of its parsed pieces.
#[derive(Clone, Copy)]
struct Read<'a> {
    text: &'a str,
    lines: &'a LineStarts,
    lists: &'a [TopLevelList],
    tables: &'a [ParsedTable],
}

/// Payload bindings and their fences, found line by line.
#[derive(Debug, Default)]
struct Payloads {
    /// The next line to look at.
    line: usize,
    /// A binding line's payload name, waiting for its fence.
    name: Option<String>,
    /// The bound fence being read.
    open: Option<OpenPayload>,
    /// A fence bound to nothing (lines in it are code).
    other: Option<(u8, usize)>,
    /// An open `flexmd` fence, whose bindings count.
    flexmd: Option<(u8, usize)>,
}

#[derive(Debug)]
struct OpenPayload {
    name: String,
    marker: u8,
    len: usize,
    lang: Option<String>,
    content_start: usize,
}

impl Payloads {
    /// Reads the complete lines after the last one read.
    fn scan(&mut self, text: &str, lines: &LineStarts, events: &mut Vec<StreamEvent>) {
        while let Some((start, end, next)) = lines.line(text, self.line) {
            self.line += 1;
            self.read_line(text, start, end, next, events);
        }
    }

    /// The line `start..end` (its ending up to `next`).
    fn read_line(
        &mut self,
        text: &str,
        start: usize,
        end: usize,
        next: usize,
        events: &mut Vec<StreamEvent>,
    ) {
        let line = text.get(start..end).unwrap_or_default();
        let closes = |marker: u8, len: usize| {
            flexmd_core::FenceOpening {
                marker,
                len,
                info: "",
            }
            .closed_by(line)
        };
        if let Some(open) = &self.open {
            if closes(open.marker, open.len) {
                let raw = text.get(open.content_start..start).unwrap_or_default();
                self.complete(raw, events);
            }
            return;
        }
        if let Some((marker, len)) = self.other {
            if closes(marker, len) {
                self.other = None;
            }
            return;
        }
        if let Some((marker, len)) = self.flexmd
            && closes(marker, len)
        {
            self.flexmd = None;
            self.name = None;
            return;
        }
        let first = line.trim_start().bytes().next();
        if !matches!(first, Some(b'`' | b'~' | b'@')) {
            // Neither a fence nor a binding (most lines): skip the parsers.
            if first.is_some() {
                self.name = None;
            }
            return;
        }
        if let Some(fence) = flexmd_core::fence_opening(line) {
            let lang = fence.info.split_whitespace().next().map(str::to_owned);
            match self.name.take() {
                Some(name) => {
                    self.open = Some(OpenPayload {
                        name,
                        marker: fence.marker,
                        len: fence.len,
                        lang,
                        content_start: next,
                    });
                }
                // A `flexmd` fence holds frames: its bindings count.
                None if lang
                    .as_deref()
                    .is_some_and(|l| l.eq_ignore_ascii_case("flexmd")) =>
                {
                    self.flexmd = Some((fence.marker, fence.len));
                }
                None => self.other = Some((fence.marker, fence.len)),
            }
            return;
        }
        if let Some(name) = flexmd_frames::payload_name(line.trim()) {
            self.name = Some(name);
        } else if !line.trim().is_empty() {
            // A binding holds only for the fence right after it.
            self.name = None;
        }
    }

    fn complete(&mut self, raw: &str, events: &mut Vec<StreamEvent>) {
        if let Some(open) = self.open.take() {
            events.push(StreamEvent::PayloadCompleted {
                name: open.name.into(),
                payload: flexmd_frames::read_payload(open.lang.as_deref(), raw),
            });
        }
    }

    /// The end of the answer: its last line, and a payload fence it leaves
    /// open (complete at the end, as a fence the text ends in is).
    fn finish(&mut self, text: &str, lines: &LineStarts, events: &mut Vec<StreamEvent>) {
        self.scan(text, lines, events);
        let start = lines.line_start(self.line);
        if start < text.len() {
            self.read_line(text, start, text.len(), text.len(), events);
        }
        let raw = self
            .open
            .as_ref()
            .and_then(|open| text.get(open.content_start..))
            .unwrap_or_default()
            .to_owned();
        self.complete(&raw, events);
    }
}

/// The top-level items of a list in the open piece of text (the part not
/// parsed yet), each sent once the next item's marker shows it complete.
#[derive(Debug, Default)]
struct EarlyItems {
    /// Where the piece starts ([`MarkdownStream::parsed_to`]).
    piece: usize,
    /// The next line to look at.
    line: usize,
    /// Where the current top-level item starts.
    item: Option<usize>,
    /// The column its content starts at: lines indented this far belong
    /// to it.
    content_column: usize,
    /// Whether the previous line was blank (or the piece just started).
    previous_blank: bool,
    /// The marker of the open list's items (`-`, `*`, `+`, `.` or `)`).
    list: Option<u8>,
    /// A line that may change how the piece parses (HTML, a link
    /// definition, a fence): no more items are sent early in this piece.
    stopped: bool,
    /// Items sent early in this piece, which its parse must not send again.
    sent: usize,
}

impl EarlyItems {
    fn at(piece: usize, line: usize) -> Self {
        Self {
            piece,
            line,
            previous_blank: true,
            content_column: usize::MAX,
            ..Self::default()
        }
    }
}

impl StreamingExtractor {
    /// A stream checked against `spec`, with the default options.
    pub fn new(spec: &OutputFormatSpec) -> Self {
        Self::with_options(spec, &ExtractOptions::default())
    }

    /// A stream checked against `spec`, extracted with `options`.
    pub fn with_options(spec: &OutputFormatSpec, options: &ExtractOptions) -> Self {
        let keys = spec
            .sections
            .iter()
            .enumerate()
            .rev()
            .map(|(i, s)| (normalize_title(&s.name), i))
            .collect();
        let n = spec.sections.len();
        let state = State {
            spec: spec.clone(),
            options: options.clone(),
            keys,
            seen: Vec::new(),
            ends: Vec::new(),
            open: Vec::new(),
            section_starts: Vec::new(),
            current: None,
            own_ended: false,
            lists_done: 0,
            tables_done: 0,
            completed: vec![None; n],
            items_sent: vec![0; n],
            violations_sent: Vec::new(),
            early: EarlyItems::default(),
            payloads: Payloads::default(),
            buffer: Vec::new(),
            names: spec
                .sections
                .iter()
                .map(|s| Arc::from(s.name.as_str()))
                .collect(),
            pointers: spec
                .sections
                .iter()
                .map(|s| format!("/{}/", s.name.replace('~', "~0").replace('/', "~1")))
                .collect(),
        };
        Self {
            stream: MarkdownStream::new(),
            state,
        }
    }

    /// Everything pushed so far.
    pub fn text(&self) -> &str {
        self.stream.text()
    }

    /// The spec the answer is checked against.
    pub fn spec(&self) -> &OutputFormatSpec {
        &self.state.spec
    }

    /// A prompt asking the model to write `issue`'s section again (see
    /// [`section_correction`](crate::section_correction)): stop the model
    /// at a [`StreamEvent::Violation`] and send this.
    pub fn correction(&self, issue: &Issue) -> Option<String> {
        crate::section_correction(&self.state.spec, issue)
    }

    /// Reads `chunk`, the next piece of the answer, and returns the events
    /// it settled, in the order of the text (drained from a buffer the
    /// stream reuses: a push allocates no list of its own).
    pub fn push(&mut self, chunk: &str) -> std::vec::Drain<'_, StreamEvent> {
        let stream = &mut self.stream;
        let lines_before = stream.line_starts().count();
        stream.push(chunk);
        let state = &mut self.state;
        let mut events = std::mem::take(&mut state.buffer);
        events.clear();
        let read = Read {
            text: stream.text(),
            lines: stream.line_starts(),
            lists: stream.lists(),
            tables: stream.tables(),
        };
        // Headings, lists, tables, items and payloads are read a line at a
        // time: a push that ends no line (most tokens) only adds text.
        let line_ended = read.lines.count() != lines_before;
        if line_ended {
            state.advance(&read, stream.headings(), 0, &mut events);
        }
        state.send_delta(read.text, stream.settled_to(), &mut events);
        if line_ended {
            state.early_items(&read, stream.parsed_to(), &mut events);
            state.payloads.scan(read.text, read.lines, &mut events);
        }
        state.buffer = events;
        state.buffer.drain(..)
    }

    /// Ends the stream: the last events, and the report and extracted
    /// result of the whole answer.
    pub fn finish(self) -> StreamFinish {
        let mut events = Vec::new();
        let mut end = self.finish_owned(|event| match event {
            // The section stays in the result too: the event gets a copy.
            StreamEvent::SectionCompleted { .. } => {
                events.push(event.clone());
                Some(event)
            }
            other => {
                events.push(other);
                None
            }
        });
        end.events = events;
        end
    }

    /// Ends the stream as [`finish`](Self::finish) does, but lends each of
    /// the last events to `each` in turn instead of collecting them
    /// (`events` is left empty): a section completed at the end is lent
    /// from the extracted result, not copied, so a long answer's largest
    /// section is not held twice.
    ///
    /// ```
    /// use flexmd_ofs::{ExtractOptions, StreamEvent, StreamingExtractor, parse_spec};
    /// let spec = parse_spec("- Steps — list\n").value;
    /// let mut stream = StreamingExtractor::with_options(&spec, &ExtractOptions::default());
    /// let _ = stream.push("## Steps\n- one\n- two").count();
    /// let mut last = Vec::new();
    /// let end = stream.finish_each(|event| last.push(serde_json::to_value(event).unwrap()));
    /// assert!(end.events.is_empty());
    /// assert_eq!(last.last().unwrap()["event"], "section_completed");
    /// assert_eq!(end.extracted.sections_by_name["Steps"].list.as_ref().unwrap().items.len(), 2);
    /// ```
    pub fn finish_each(self, mut each: impl FnMut(&StreamEvent)) -> StreamFinish {
        self.finish_owned(|event| {
            each(&event);
            Some(event)
        })
    }

    /// Ends the stream, giving each last event to `each`, which gives a
    /// `SectionCompleted` back (its value is moved out of the result and
    /// returned to it) and may keep any other.
    fn finish_owned(
        self,
        mut each: impl FnMut(StreamEvent) -> Option<StreamEvent>,
    ) -> StreamFinish {
        let Self { stream, mut state } = self;
        // Lines of a long answer: cheap to copy beside reading the text again.
        let lines = stream.line_starts().clone();
        let (text, parts) = stream.finish();
        let mut events = Vec::new();
        let first = state.seen.len();
        let headings = flat_headings(&parts.outline.nodes, first);
        let read = Read {
            text: &text,
            lines: &lines,
            lists: &parts.lists,
            tables: &parts.tables,
        };
        state.advance(&read, &headings, first, &mut events);
        state.send_delta(&text, text.len(), &mut events);
        state.payloads.finish(&text, &lines, &mut events);
        for event in events {
            each(event);
        }
        let (report, mut extracted) = check_parts(&text, parts, lines, &state.spec, &state.options);
        for (index, section) in state.spec.sections.iter().enumerate() {
            let Some(value) = extracted.sections_by_name.get_mut(&section.name) else {
                continue;
            };
            let i = Some(index);
            let name = name_of(&state.names, index);
            // Items only the end placed (a section found by its label).
            if let (Some(i), Some(list)) = (i, &value.list) {
                let sent = state.items_sent.get(i).copied().unwrap_or(0);
                for (n, item) in list.items.iter().enumerate().skip(sent) {
                    each(StreamEvent::ListItem {
                        section: Arc::clone(&name),
                        path: item_path(&state.pointers, index, n),
                        item: item.clone(),
                    });
                }
            }
            let last = i
                .and_then(|i| state.completed.get(i))
                .and_then(Option::as_ref);
            if last != Some(&*value) {
                // Lent: moved into the event and back, never copied.
                let event = StreamEvent::SectionCompleted {
                    name: Arc::clone(&name),
                    value: std::mem::take(value),
                };
                if let Some(StreamEvent::SectionCompleted { value: lent, .. }) = each(event) {
                    *value = lent;
                }
            }
        }
        for issue in &report.errors {
            if !state.violations_sent.contains(issue) {
                each(StreamEvent::Violation(issue.clone()));
            }
        }
        StreamFinish {
            events: Vec::new(),
            report,
            extracted,
            text,
        }
    }
}

impl State {
    /// Takes in the headings, lists and tables read since the last call,
    /// in the order of the text (`headings` starts at heading `first`).
    fn advance(
        &mut self,
        read: &Read<'_>,
        headings: &[StreamHeading],
        first: usize,
        events: &mut Vec<StreamEvent>,
    ) {
        let (lists, tables) = (read.lists, read.tables);
        loop {
            let heading = self
                .seen
                .len()
                .checked_sub(first)
                .and_then(|k| headings.get(k));
            let list = lists.get(self.lists_done);
            let table = tables.get(self.tables_done);
            let heading_at = heading.map_or(usize::MAX, |h| h.heading.start);
            let list_at = list.map_or(usize::MAX, |l| l.span.start);
            let table_at = table
                .map(|t| t.span.as_ref().map_or(0, |s| s.start))
                .unwrap_or(usize::MAX);
            let first = heading_at.min(list_at).min(table_at);
            if first == usize::MAX {
                break;
            }
            if let (Some(h), true) = (heading, heading_at == first) {
                self.on_heading(read, h, events);
            } else if let (Some(l), true) = (list, list_at == first) {
                self.lists_done += 1;
                self.on_list(l, events);
            } else if let Some(t) = table {
                let index = self.tables_done;
                self.tables_done += 1;
                for (i, row) in t.rows.iter().enumerate() {
                    events.push(StreamEvent::TableRow {
                        table: index,
                        index: i,
                        columns: (i == 0).then(|| t.columns.clone()),
                        row: row.clone(),
                    });
                }
            }
        }
    }

    fn on_heading(&mut self, read: &Read<'_>, h: &StreamHeading, events: &mut Vec<StreamEvent>) {
        let index = self.seen.len();
        let title = normalize_title(&h.title);
        let stripped = strip_numbering(&title);
        let section = match self.keys.get(&title) {
            Some(&i) => Some((i, Found::Heading)),
            None if stripped != title => self
                .keys
                .get(stripped)
                .map(|&i| (i, Found::NumberedHeading)),
            None => None,
        };
        // Subtrees at this level or below end here.
        while let Some(&top) = self.open.last() {
            if self.seen.get(top).is_some_and(|s| s.level >= h.level) {
                if let Some(end) = self.ends.get_mut(top) {
                    *end = h.heading.start;
                }
                self.open.pop();
            } else {
                break;
            }
        }
        // A numbered heading is a section boundary for its name too.
        let names_section =
            section.is_some() || (stripped != title && self.keys.contains_key(stripped));
        if names_section {
            self.section_starts.push(h.heading.start);
        }
        self.seen.push(Seen {
            level: h.level,
            // Only a section's heading is ever looked up by its key.
            key: if section.is_some() {
                compact_str::CompactString::new(&h.key)
            } else {
                compact_str::CompactString::default()
            },
            heading: h.heading.clone(),
            section,
        });
        self.ends.push(usize::MAX);
        self.open.push(index);
        if let Some((open, _)) = self.current {
            let closed = names_section || self.ends.get(open).is_some_and(|&e| e != usize::MAX);
            if closed {
                self.send_delta(read.text, h.heading.start, events);
                self.current = None;
                self.own_ended = false;
                self.complete(read, open, events);
            } else if !self.own_ended && index == open + 1 {
                // Its first sub-heading ends the section's own content. When it has
                // some, that is the section; else the section is read from
                // its subsections, and they stream as its text.
                let own_start = self.seen.get(open).map_or(0, |s| s.heading.end);
                let has_own = read
                    .text
                    .get(own_start..h.heading.start)
                    .is_some_and(|own| !own.trim().is_empty());
                if has_own {
                    self.send_delta(read.text, h.heading.start, events);
                    self.own_ended = true;
                }
            }
        }
        if let Some((i, _)) = section {
            if i < self.spec.sections.len() {
                events.push(StreamEvent::SectionStarted {
                    name: name_of(&self.names, i),
                    level: h.level,
                });
            }
            self.current = Some((index, h.heading.end));
            self.own_ended = false;
        }
    }

    /// The spec section open in the answer, when its lists' items are
    /// sent (a list kind, or prose with `lists_in_prose`).
    fn open_list_section(&self) -> Option<usize> {
        if self.own_ended {
            return None;
        }
        let (open, _) = self.current?;
        let (i, _) = self.seen.get(open)?.section?;
        let section = self.spec.sections.get(i)?;
        (section.kind != SectionKind::Prose || self.options.lists_in_prose).then_some(i)
    }

    /// Items of a list in the open section, when its kind is a list.
    fn on_list(&mut self, list: &TopLevelList, events: &mut Vec<StreamEvent>) {
        let Some(i) = self.open_list_section() else {
            return;
        };
        let Some(sent) = self.items_sent.get_mut(i) else {
            return;
        };
        // The first items may have been sent before the piece was parsed.
        let early = std::mem::take(&mut self.early.sent);
        let skip = early.min(list.list.items.len());
        self.early.sent = early - skip;
        for item in list.list.items.iter().skip(skip) {
            events.push(StreamEvent::ListItem {
                section: name_of(&self.names, i),
                path: item_path(&self.pointers, i, *sent),
                item: item.clone(),
            });
            *sent += 1;
        }
    }

    /// Sends the items of the open section's list that the text after the
    /// parsed pieces already shows complete: a top-level item ends where the
    /// next one's marker starts.
    fn early_items(&mut self, read: &Read<'_>, parsed_to: usize, events: &mut Vec<StreamEvent>) {
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
                    Some(Marker::Ordered(n, delimiter)) => {
                        !(previous_blank || n == 1 || self.early.list == Some(delimiter))
                    }
                    Some(Marker::Bullet(_)) => false,
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
                self.early.list = marker.map(|m| m.delimiter());
                self.early.content_column = usize::MAX;
                if starts_item {
                    self.early.item = Some(start);
                    self.early.content_column = content_column(line);
                }
            }
        }
    }

    /// Sends the open section's text up to `end`.
    fn send_delta(&mut self, text: &str, end: usize, events: &mut Vec<StreamEvent>) {
        let Some((open, from)) = self.current else {
            return;
        };
        if self.own_ended {
            return;
        }
        if end <= from {
            return;
        }
        let Some(name) = self
            .seen
            .get(open)
            .and_then(|s| s.section)
            .map(|(i, _)| name_of(&self.names, i))
        else {
            return;
        };
        if let Some(piece) = text.get(from..end) {
            events.push(StreamEvent::SectionDelta {
                name,
                text: compact_str::CompactString::new(piece),
            });
            self.current = Some((open, end));
        }
    }

    /// The section of heading `open` is complete: its value and violations,
    /// as the text so far decides them.
    fn complete(&mut self, read: &Read<'_>, open: usize, events: &mut Vec<StreamEvent>) {
        let Read {
            text,
            lines,
            lists,
            tables,
        } = *read;
        let Some((i, _)) = self.seen.get(open).and_then(|s| s.section) else {
            return;
        };
        let Some(section) = self.spec.sections.get(i) else {
            return;
        };
        // A section is completed while streaming once, at its first
        // occurrence; repeats (merged, or replaced by a higher level) are
        // settled by `finish`. Completing each repeat with the merged value
        // would cost the whole section again each time: quadratic.
        if self.completed.get(i).is_some_and(Option::is_some) {
            return;
        }
        let (exact, numbered): (Vec<usize>, Vec<usize>) = {
            let mut exact = Vec::new();
            let mut numbered = Vec::new();
            for (j, seen) in self.seen.iter().enumerate() {
                match seen.section {
                    Some((k, Found::Heading)) if k == i => exact.push(j),
                    Some((k, _)) if k == i => numbered.push(j),
                    _ => {}
                }
            }
            (exact, numbered)
        };
        let (candidates, found) = if exact.is_empty() {
            (numbered, Found::NumberedHeading)
        } else {
            (exact, Found::Heading)
        };
        // Only the candidates' headings and subtree ends, renumbered.
        let heads: Vec<Head<'_>> = candidates
            .iter()
            .filter_map(|&j| self.seen.get(j))
            .map(|s| Head {
                level: s.level,
                key: s.key.as_str(),
                source: Some((s.heading.clone(), s.heading.end)),
            })
            .collect();
        let ends: Vec<usize> = candidates
            .iter()
            .map(|&j| self.ends.get(j).copied().unwrap_or(usize::MAX))
            .collect();
        // Own content ends at the next heading seen (none yet: open).
        let own_ends: Vec<usize> = candidates
            .iter()
            .map(|&j| {
                self.seen
                    .get(j + 1)
                    .map_or(usize::MAX, |next| next.heading.start)
            })
            .collect();
        let candidates: Vec<usize> = (0..heads.len()).collect();
        let bounds = Bounds {
            subtree_ends: &ends,
            own_ends: &own_ends,
            section_starts: &self.section_starts,
        };
        let Some(located) = from_headings(text, &heads, &bounds, &candidates, found) else {
            return;
        };
        let issue = |code: &str, section: Option<&str>, message: String, span: Span| {
            let place = lines.line_col(text, span.start);
            Issue::at(code, section, message, span, place)
        };
        let spans = located.content_spans.clone();
        let checked = check_section(
            text,
            &self.spec,
            &section.name,
            section.kind,
            &located,
            tables,
            || merged_lists(lists, &spans),
            &issue,
        );
        let value = extracted_section(
            section.kind,
            located,
            checked.list,
            checked.is_none,
            &self.options,
        );
        let changed = self
            .completed
            .get(i)
            .is_none_or(|last| last.as_ref() != Some(&value));
        if changed {
            events.push(StreamEvent::SectionCompleted {
                name: name_of(&self.names, i),
                value: value.clone(),
            });
            if let Some(slot) = self.completed.get_mut(i) {
                *slot = Some(value);
            }
        }
        for error in checked.errors {
            if !self.violations_sent.contains(&error) {
                self.violations_sent.push(error.clone());
                events.push(StreamEvent::Violation(error));
            }
        }
    }
}

/// The lists within `spans`, merged in order (as the whole-answer check
/// merges a section's lists).
fn merged_lists(lists: &[TopLevelList], spans: &[Span]) -> Option<ParsedList> {
    let mut merged: Option<ParsedList> = None;
    for span in spans {
        let first = lists.partition_point(|l| l.span.start < span.start);
        let inside = lists
            .get(first..)
            .unwrap_or_default()
            .iter()
            .take_while(|l| l.span.end <= span.end);
        for top in inside {
            match merged.as_mut() {
                None => merged = Some(top.list.clone()),
                Some(all) => all.items.extend(top.list.items.iter().cloned()),
            }
        }
    }
    merged
}

/// A list marker at the start of a line (no indentation) with text after it.
#[derive(Debug, Clone, Copy)]
enum Marker {
    /// `-`, `*` or `+`.
    Bullet(u8),
    /// The number, and `.` or `)`.
    Ordered(u64, u8),
}

impl Marker {
    /// What an item of the same list has: the bullet, or the delimiter.
    fn delimiter(self) -> u8 {
        match self {
            Marker::Bullet(b) | Marker::Ordered(_, b) => b,
        }
    }
}

/// The column where a list item's content starts (after the marker and
/// one to four spaces); `usize::MAX` (nothing is surely inside) when a tab
/// follows the marker.
fn content_column(line: &str) -> usize {
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
fn is_rule(line: &str) -> bool {
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

fn item_marker(line: &str) -> Option<Marker> {
    let bytes = line.as_bytes();
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let (marker, after) = match *bytes.first()? {
        b @ (b'-' | b'*' | b'+') => (Marker::Bullet(b), 1),
        b'0'..=b'9' if (1..=9).contains(&digits) => {
            let &delimiter = bytes.get(digits).filter(|d| matches!(d, b'.' | b')'))?;
            let number = line.get(..digits)?.parse().ok()?;
            (Marker::Ordered(number, delimiter), digits + 1)
        }
        _ => return None,
    };
    let rest = line.get(after..)?;
    let has_text = rest.starts_with([' ', '\t']) && !rest.trim().is_empty();
    // `- - -` and `* * *` are rules, not items.
    (has_text && !is_rule(line)).then_some(marker)
}

/// The one item `slice` holds (a top-level list item alone), with spans
/// moved to the whole text; `None` when it parses otherwise.
fn single_item(slice: &str, offset: usize) -> Option<ListItem> {
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
fn one_line_item(slice: &str, offset: usize) -> Option<ListItem> {
    let line = trim_blank_end(slice);
    if memchr::memchr2(b'\n', b'\r', line.as_bytes()).is_some() {
        return None;
    }
    let marker = item_marker(line)?;
    let after = match marker {
        Marker::Bullet(_) => 1,
        Marker::Ordered(..) => line.bytes().take_while(u8::is_ascii_digit).count() + 1,
    };
    let rest = line.get(after..)?;
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
        index: match marker {
            Marker::Ordered(n, _) => Some(n),
            Marker::Bullet(_) => None,
        },
        children: Vec::new(),
        // As the parser spans it: through the blank end of the slice.
        span: Some(offset..offset + slice.len()),
    })
}

/// `text` without its trailing spaces, tabs and line endings.
fn trim_blank_end(text: &str) -> &str {
    let blank = text
        .bytes()
        .rev()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        .count();
    text.get(..text.len() - blank).unwrap_or(text)
}

/// Whether `line` holds `]:`, as a link reference definition does.
fn has_label_colon(line: &str) -> bool {
    let bytes = line.as_bytes();
    memchr::memchr_iter(b']', bytes).any(|i| bytes.get(i + 1) == Some(&b':'))
}

/// An item of one plain line with a sub-list of one-line plain items right
/// under it (`- a` then `  - b`, `  - c`), read without a parser: the
/// usual shape of a nested item, and a parser started per such item cost
/// a streamed answer more than its own text. Anything else (a sub-item at
/// another column, markers of two lists, an ordered sub-list that does not
/// start at 1 and so cannot interrupt the item's text) is left to the
/// parser.
fn item_with_one_line_children(slice: &str, offset: usize) -> Option<ListItem> {
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
            None if matches!(marker, Marker::Ordered(n, _) if n != 1) => return None,
            None => list = Some(marker.delimiter()),
            Some(delimiter) if delimiter != marker.delimiter() => return None,
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

fn shift_spans(item: &mut ListItem, offset: usize) {
    if let Some(span) = item.span.as_mut() {
        *span = span.start + offset..span.end + offset;
    }
    for child in &mut item.children {
        shift_spans(child, offset);
    }
}

/// The outline's headings in document order, as a stream reads them, but
/// the first `skip` (already read: copying every title again at the end cost
/// a tenth of `finish`). Whole subtrees before them are counted, not walked.
fn flat_headings(nodes: &[MdNode], skip: usize) -> Vec<StreamHeading> {
    let mut out = Vec::new();
    let mut seen = 0usize;
    for root in nodes {
        let size = headings_in(root);
        if seen + size <= skip {
            seen += size;
            continue;
        }
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            if let Some(source) = &node.source {
                if seen >= skip {
                    out.push(StreamHeading {
                        level: node.level,
                        title: node.title.clone(),
                        key: node.key.clone(),
                        heading: source.heading.clone(),
                    });
                }
                seen += 1;
            }
            stack.extend(node.children.iter().rev());
        }
    }
    out
}

/// The headings in `node`'s subtree, itself included. An outline read from
/// Markdown nests at most six deep (a child's level is above its parent's).
fn headings_in(node: &MdNode) -> usize {
    usize::from(node.source.is_some()) + node.children.iter().map(headings_in).sum::<usize>()
}

/// Section `i`'s shared name.
fn name_of(names: &[Arc<str>], i: usize) -> Arc<str> {
    names.get(i).cloned().unwrap_or_else(|| Arc::from(""))
}

/// A JSON Pointer reference token: `~` → `~0`, `/` → `~1`.
/// The JSON Pointer of item `n` of section `i`, from the sections' pointers.
fn item_path(pointers: &[String], i: usize, n: usize) -> String {
    let prefix = pointers.get(i).map_or("", String::as_str);
    // `itoa`, not `write!`: the formatter cost more than the rest of
    // sending an item.
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(n);
    let mut path = String::with_capacity(prefix.len() + digits.len());
    path.push_str(prefix);
    path.push_str(digits);
    path
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn item_paths_are_json_pointers_with_the_item_number() {
        let pointers = vec!["/Risks/".to_owned(), "/a~1b/".to_owned()];
        assert_eq!(item_path(&pointers, 0, 0), "/Risks/0");
        assert_eq!(item_path(&pointers, 0, 7), "/Risks/7");
        assert_eq!(item_path(&pointers, 1, 10), "/a~1b/10");
        assert_eq!(item_path(&pointers, 0, 1_234_509), "/Risks/1234509");
        assert_eq!(
            item_path(&pointers, 0, usize::MAX),
            format!("/Risks/{}", usize::MAX)
        );
        assert_eq!(item_path(&pointers, 5, 3), "3");
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
