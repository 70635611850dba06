//! What a `StreamingExtractor` reports, the wire types of `flexmd extract
//! --stream`: `StreamEvent`, `StreamFinish`, `FinishedEvent`. A leaf of
//! `stream/`: types and their JSON.

use std::sync::Arc;

use flexmd_core::{ExtractedResult, ExtractedSection, FlexPayload, ListItem, OutputFormatSpec};
use serde::Serialize;

use crate::check::{Issue, Report};

/// What a [`StreamingExtractor`](crate::StreamingExtractor) reports as the answer arrives.
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
pub(crate) enum FinishedResult<'a> {
    Extracted(&'a ExtractedResult),
    Json(serde_json::Value),
}
