//! Checking and extracting an answer while the model is still writing it.
//!
//! [`StreamingExtractor`] reads the answer through a
//! [`MarkdownStream`](flexmd_core::MarkdownStream), which parses each piece
//! of text once, when the heading after it is complete. Sections are
//! matched, bounded and checked by the same code as [`extract`](crate::extract)
//! and [`validate`](crate::validate); [`StreamingExtractor::finish`] returns
//! exactly what [`check`](crate::check) returns for the whole answer.
//!
//! | file | owns |
//! |---|---|
//! | `event.rs` | the wire types: `StreamEvent`, `StreamFinish`, `FinishedEvent` |
//! | `state.rs` | what the extractor knows besides the text (declarations) |
//! | `section.rs` | a section's life: opened, streamed, completed |
//! | `early.rs` | list items sent before their piece is parsed |
//! | `payload.rs` | payload bindings and fences (flexmd-frames) |

mod early;
mod event;
mod payload;
mod section;
mod state;

use std::sync::Arc;

use flexmd_core::{MarkdownStream, MdNode, OutputFormatSpec, StreamHeading, normalize_title};

use crate::check::{ExtractOptions, Issue, check_parts};
use crate::stream::payload::Payloads;
use crate::stream::section::{item_path, name_of};
use crate::stream::state::{EarlyItems, Read, State};

pub use event::{FinishedEvent, StreamEvent, StreamFinish};

/// Validates and extracts an answer while it is being written.
///
/// Feed the model's text with [`push`](Self::push) as it streams; each call
/// returns what the new text settled. [`finish`](Self::finish) gives the
/// last events and exactly the [`Report`](crate::Report) and [`ExtractedResult`](crate::ExtractedResult) that
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

/// The outline's headings in document order, as a stream reads them, but
/// the first `skip` (already read: copying every title again at the end cost
/// a tenth of `finish`). Whole subtrees before them are counted, not walked.
pub(crate) fn flat_headings(nodes: &[MdNode], skip: usize) -> Vec<StreamHeading> {
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
pub(crate) fn headings_in(node: &MdNode) -> usize {
    usize::from(node.source.is_some()) + node.children.iter().map(headings_in).sum::<usize>()
}

impl State {
    /// Takes in the headings, lists and tables read since the last call,
    /// in the order of the text (`headings` starts at heading `first`).
    pub(super) fn advance(
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
}
