//! Payload bindings (`flexmd_frames`) and their fences, found line by
//! line: the only module of flexmd-ofs's stream that knows flexmd-frames.

use flexmd_core::LineStarts;

use crate::stream::event::StreamEvent;

/// Payload bindings and their fences, found line by line.
#[derive(Debug, Default)]
pub(crate) struct Payloads {
    /// The next line to look at.
    pub(crate) line: usize,
    /// A binding line's payload name, waiting for its fence.
    pub(crate) name: Option<String>,
    /// The bound fence being read.
    pub(crate) open: Option<OpenPayload>,
    /// A fence bound to nothing (lines in it are code).
    pub(crate) other: Option<(u8, usize)>,
    /// An open `flexmd` fence, whose bindings count.
    pub(crate) flexmd: Option<(u8, usize)>,
}

#[derive(Debug)]
pub(crate) struct OpenPayload {
    pub(crate) name: String,
    pub(crate) marker: u8,
    pub(crate) len: usize,
    pub(crate) lang: Option<String>,
    pub(crate) content_start: usize,
}

impl Payloads {
    /// Reads the complete lines after the last one read.
    pub(crate) fn scan(&mut self, text: &str, lines: &LineStarts, events: &mut Vec<StreamEvent>) {
        while let Some((start, end, next)) = lines.line(text, self.line) {
            self.line += 1;
            self.read_line(text, start, end, next, events);
        }
    }

    /// The line `start..end` (its ending up to `next`).
    pub(crate) fn read_line(
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

    pub(crate) fn complete(&mut self, raw: &str, events: &mut Vec<StreamEvent>) {
        if let Some(open) = self.open.take() {
            events.push(StreamEvent::PayloadCompleted {
                name: open.name.into(),
                payload: flexmd_frames::read_payload(open.lang.as_deref(), raw),
            });
        }
    }

    /// The end of the answer: its last line, and a payload fence it leaves
    /// open (complete at the end, as a fence the text ends in is).
    pub(crate) fn finish(&mut self, text: &str, lines: &LineStarts, events: &mut Vec<StreamEvent>) {
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
