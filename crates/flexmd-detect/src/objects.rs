//! Structured objects in arbitrary text: `flexmd` fences,
//! FlexDocument JSON fences, raw FlexMD and Markdown snippets.

use flexmd_core::{Diagnostic, FlexDocument, LineIndex, Parsed, Severity, line_spans};
use flexmd_frames::{ParseOptions, line_marker};
use serde::{Deserialize, Serialize};

use crate::fence::{Fence, fences};
use crate::ladder::{Leniency, parse_json};

/// What kind of object [`detect_objects`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DetectedKind {
    /// A fence labeled `flexmd` (tier A).
    FlexmdFence,
    /// A fence labeled `json` (or `json5`) holding a FlexDocument (tier B).
    FlexdocJsonFence,
    /// FlexMD written without a fence (tier C): two or more anchor lines, or
    /// two or more markers within lines (lower confidence).
    RawFlexmd,
    /// A fence labeled `markdown` or `md`.
    MarkdownSnippet,
    /// flex-md's "nothing found"; never produced here (the list is empty
    /// instead), kept so that flex-md's JSON reads back.
    None,
}

/// An object found in a text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct DetectedObject {
    /// What it is.
    pub kind: DetectedKind,
    /// How sure the detection is, from 0 to 1 (see [`detect_objects`]).
    pub confidence: f64,
    /// Byte offset where the object starts.
    pub start: usize,
    /// Byte offset just after it.
    pub end: usize,
    /// `text[start..end]`.
    pub raw: String,
    /// For a fence, its content (indentation and container markers
    /// removed, `\n` line endings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inner: Option<String>,
    /// For a fence that the text ends inside (a truncated answer).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unclosed: bool,
}

impl DetectedObject {
    /// Moves `start` and `end` into `offsets`' unit (a binding's string
    /// indices: code points for Python, UTF-16 units for JavaScript).
    pub fn reindex(&mut self, offsets: &flexmd_core::TextOffsets<'_>) {
        self.start = offsets.index(self.start);
        self.end = offsets.index(self.end);
    }
}

/// Every object in `text`, sorted by start and never overlapping.
///
/// Fences are found by the Markdown parser (` ``` ` and `~~~`, longer
/// fences, indentation, block quotes and list items, CRLF, any info string
/// whose first word is the label, case-insensitive). Confidence:
///
/// | object | confidence |
/// |---|---|
/// | `flexmd` fence | 1.0 |
/// | `json`/`json5` fence holding an object whose `frames` is a list, that reads as a FlexDocument (lenient JSON) | 0.9 |
/// | the same shape, but not a FlexDocument (a frame without `type`, say) | 0.8 |
/// | raw FlexMD: two or more anchor lines | 0.7 |
/// | `markdown`/`md` fence | 0.5 |
/// | raw FlexMD by looser markers only: two or more `[[...]]`, `@name:` or `@payload:name:` anywhere in lines | 0.4 |
///
/// A fence the text ends inside is flagged `unclosed` and scores 0.3 less.
///
/// Raw FlexMD is sniffed outside fences only, in each stretch of text
/// between detected fences: from the first anchor line (frame header
/// `[[...]]`, meta line `@key: value`, payload binding `@payload:name: X`)
/// to the end of the stretch, so it never swallows a fenced object. Without
/// two anchor lines, markers inside lines count too (the flex-md rule),
/// from the first one, at the lowest confidence.
///
/// ```
/// use flexmd_detect::{DetectedKind, detect_objects};
///
/// let answer = "Here you go:\n\n````flexmd\n[[message role=user]]\n```\ncode\n```\n````\n\nThanks!";
/// let found = detect_objects(answer);
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].kind, DetectedKind::FlexmdFence);
/// assert_eq!(found[0].inner.as_deref(), Some("[[message role=user]]\n```\ncode\n```\n"));
/// ```
pub fn detect_objects(text: &str) -> Vec<DetectedObject> {
    detect_in(text, &fences(text))
}

fn detect_in(text: &str, all_fences: &[Fence]) -> Vec<DetectedObject> {
    let mut found: Vec<DetectedObject> = all_fences
        .iter()
        .filter_map(|f| fenced_object(text, f))
        .collect();
    let mut raw = Vec::new();
    let mut at = 0;
    for object in found
        .iter()
        .map(|o| (o.start, o.end))
        .chain([(text.len(), text.len())])
    {
        if let Some(region) = raw_region(text, all_fences, at, object.0) {
            raw.push(region);
        }
        at = object.1;
    }
    found.extend(raw);
    found.sort_by_key(|o| o.start);
    found
}

fn fenced_object(text: &str, fence: &Fence) -> Option<DetectedObject> {
    // Confidence closed, and unclosed (0.3 less).
    let (kind, closed, unclosed) = match fence.lang_lower().as_str() {
        "flexmd" => (DetectedKind::FlexmdFence, 1.0, 0.7),
        "json" | "json5" => match flex_document(&fence.content)? {
            Ok(_) => (DetectedKind::FlexdocJsonFence, 0.9, 0.6),
            Err(_) => (DetectedKind::FlexdocJsonFence, SHAPE_ONLY, SHAPE_ONLY - 0.3),
        },
        "markdown" | "md" => (DetectedKind::MarkdownSnippet, 0.5, 0.2),
        _ => return None,
    };
    Some(DetectedObject {
        kind,
        confidence: if fence.closed { closed } else { unclosed },
        start: fence.start,
        end: fence.end,
        raw: text.get(fence.start..fence.end)?.to_owned(),
        inner: Some(fence.content.clone()),
        unclosed: !fence.closed,
    })
}

/// Confidence of a JSON fence with a `frames` array that does not read as a
/// FlexDocument (flex-md's shape rule holds, the types do not).
const SHAPE_ONLY: f64 = 0.8;

/// Confidence of raw FlexMD found only by flex-md's looser markers (`@key:`
/// or `[[...]]` anywhere in a line), not by two anchor lines.
const LOOSE_MARKERS: f64 = 0.4;

/// What a JSON fence holds when it has the FlexDocument shape (an object
/// whose `frames` is an array): the document, or why it does not read as
/// one. `None` without that shape.
fn flex_document(content: &str) -> Option<Result<FlexDocument, String>> {
    // Most JSON fences are not FlexDocuments: skip the parse for them.
    if !content.contains("frames") {
        return None;
    }
    let parsed = parse_json(content.trim(), Leniency::Repair).ok()?;
    if !parsed.value.get("frames").is_some_and(|f| f.is_array()) {
        return None;
    }
    Some(serde_json::from_value(parsed.value).map_err(|e| e.to_string()))
}

/// flex-md's raw FlexMD markers in `line`, wherever they stand: `[[...]]`,
/// `@name:` and `@payload:name:` (which flex-md counts twice: it is also
/// an `@name:`). Returns how many and the offset of the first.
fn loose_markers(line: &str) -> (usize, Option<usize>) {
    let bytes = line.as_bytes();
    let mut count = 0;
    let mut first = None;
    let mut note = |at: usize, n: usize| {
        count += n;
        first = Some(first.map_or(at, |f: usize| f.min(at)));
    };
    // `[[` then one or more characters other than `]`, then `]]`; matches
    // do not overlap. The next `]` only moves forward: linear on any line.
    let mut from = 0;
    let mut close = 0;
    while let Some(open) = line.get(from..).and_then(|r| r.find("[[")) {
        let start = from + open;
        if close < start + 2 {
            close = line
                .get(start + 2..)
                .and_then(|r| r.find(']'))
                .map_or(line.len(), |j| start + 2 + j);
        }
        if close > start + 2 && bytes.get(close + 1) == Some(&b']') {
            note(start, 1);
            from = close + 2;
        } else {
            from = start + 1;
        }
    }
    // `@` then an identifier then `:`.
    let ident = |at: usize| {
        let rest = bytes.get(at..).unwrap_or_default();
        match rest.first() {
            Some(b) if b.is_ascii_alphabetic() || *b == b'_' => rest
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count(),
            _ => 0,
        }
    };
    for (at, _) in line.match_indices('@') {
        let len = ident(at + 1);
        if len == 0 || bytes.get(at + 1 + len) != Some(&b':') {
            continue;
        }
        let payload = line.get(at + 1..at + 1 + len) == Some("payload") && {
            let name = ident(at + 2 + len);
            name > 0 && bytes.get(at + 2 + len + name) == Some(&b':')
        };
        note(at, if payload { 2 } else { 1 });
    }
    (count, first.map(|f| f.min(line.len())))
}

/// Raw FlexMD in `text[from..to]`: at least two anchor lines outside fences.
fn raw_region(text: &str, fences: &[Fence], from: usize, to: usize) -> Option<DetectedObject> {
    if from >= to {
        return None;
    }
    let region = text.get(from..to)?;
    let mut fence_at = fences.partition_point(|f| f.end <= from);
    let mut first = None;
    let mut anchors = 0;
    let (mut loose, mut loose_first) = (0, None);
    for line in line_spans(region) {
        let (start, end) = (from + line.start, from + line.end);
        while fences.get(fence_at).is_some_and(|f| f.end <= start) {
            fence_at += 1;
        }
        if fences
            .get(fence_at)
            .is_some_and(|f| f.start < end.max(start + 1))
        {
            continue;
        }
        let line = text.get(start..end)?;
        if line_marker(line).is_some() {
            first.get_or_insert(start);
            anchors += 1;
        }
        if let (n, Some(at)) = loose_markers(line) {
            loose += n;
            loose_first.get_or_insert(start + at);
        }
    }
    let (start, confidence) = match first.filter(|_| anchors >= 2) {
        Some(start) => (start, 0.7),
        None => (loose_first.filter(|_| loose >= 2)?, LOOSE_MARKERS),
    };
    let end = start + text.get(start..to)?.trim_end().len();
    Some(DetectedObject {
        kind: DetectedKind::RawFlexmd,
        confidence,
        start,
        end,
        raw: text.get(start..end)?.to_owned(),
        inner: None,
        unclosed: false,
    })
}

/// What [`parse_any`] reads from a text (flex-md's `parseAny`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ParseAnyResult {
    /// The FlexMD documents found (fenced, as FlexDocument JSON, or raw), in
    /// document order.
    pub flex_docs: Vec<FlexDocument>,
    /// The content of each Markdown snippet fence, in document order.
    pub markdown_snippets: Vec<String>,
    /// The text outside the detected objects, in order: with the objects'
    /// `raw` texts it makes up the whole input.
    pub remainder: String,
}

/// Detects the objects in `text` and reads them: FlexMD (fenced or raw)
/// through `flexmd-frames`, FlexDocument JSON as it is. What does not read
/// as a document stays in the remainder: a JSON fence with the shape but
/// not the types (with a warning), and loose markers in prose that hold no
/// frame. The diagnostics of
/// each FlexMD parse point into `text` (inside an indented fence, the
/// column may be off by the indentation).
///
/// ```
/// use flexmd_detect::parse_any;
///
/// let text = "Intro.\n```flexmd\n[[message role=user]]\nHi\n```\nBye.\n";
/// let parsed = parse_any(text);
/// assert_eq!(parsed.value.flex_docs[0].frames[0].body_md.as_deref(), Some("Hi"));
/// assert_eq!(parsed.value.remainder, "Intro.\n\nBye.\n");
/// ```
pub fn parse_any(text: &str) -> Parsed<ParseAnyResult> {
    let mut result = ParseAnyResult::default();
    let mut diagnostics = Vec::new();
    let mut index: Option<LineIndex<'_>> = None;
    let mut at = 0;
    let all_fences = fences(text);
    let nested: Vec<usize> = all_fences.iter().filter_map(|f| f.nested_close).collect();
    if !nested.is_empty() {
        let index = index.get_or_insert_with(|| LineIndex::new(text));
        diagnostics.extend(nested.into_iter().map(|at| {
            Diagnostic::new(
                "detect::nested_fence",
                Severity::Warning,
                "this line closes a payload fence inside a `flexmd` fence, and Markdown would \
                 end the `flexmd` fence here too; it is read as ending at the next bare fence \
                 line (write the outer fence longer, e.g. ````flexmd, to be unambiguous)",
                at..at + 3,
                index,
            )
        }));
    }
    for object in detect_in(text, &all_fences) {
        let before = text.get(at..object.start).unwrap_or_default();
        let inner_start = match object.kind {
            DetectedKind::RawFlexmd => object.start,
            _ => object
                .raw
                .find('\n')
                .map_or(object.end, |i| object.start + i + 1),
        };
        let source = object.inner.as_deref().unwrap_or(&object.raw);
        // Whether the object was read; one that was not stays in the remainder.
        let read = match object.kind {
            DetectedKind::FlexmdFence | DetectedKind::RawFlexmd => {
                let parsed = flexmd_frames::parse(source, &ParseOptions::default());
                // Loose markers in prose ("ask @bob: ...") are no document.
                let loose = object.kind == DetectedKind::RawFlexmd
                    && object.confidence < 0.7
                    && parsed.value.frames.is_empty();
                if !loose {
                    let index = index.get_or_insert_with(|| LineIndex::new(text));
                    diagnostics.extend(
                        parsed
                            .diagnostics
                            .into_iter()
                            .map(|d| relocate(d, inner_start, object.end, index)),
                    );
                    result.flex_docs.push(parsed.value);
                }
                !loose
            }
            DetectedKind::FlexdocJsonFence => match flex_document(source) {
                Some(Ok(doc)) => {
                    result.flex_docs.push(doc);
                    true
                }
                Some(Err(why)) => {
                    let index = index.get_or_insert_with(|| LineIndex::new(text));
                    diagnostics.push(Diagnostic::new(
                        "detect::not_a_flex_document",
                        Severity::Warning,
                        format!(
                            "this JSON has a `frames` list but does not read as a FlexDocument \
                             ({why}); it is kept in the remainder"
                        ),
                        object.start..object.end,
                        index,
                    ));
                    false
                }
                None => false,
            },
            DetectedKind::MarkdownSnippet => {
                result.markdown_snippets.push(source.to_owned());
                true
            }
            DetectedKind::None => false,
        };
        if read {
            result.remainder.push_str(before);
            at = object.end;
        }
    }
    result
        .remainder
        .push_str(text.get(at..).unwrap_or_default());
    Parsed {
        value: result,
        diagnostics,
    }
}

/// A diagnostic of a parse of an object's content starting at `base`, made
/// to point into `text`, never past the object's `end`: a fence's content
/// drops indentation and turns lone CRs into line breaks, so offsets after
/// such a line are approximate, but they stay inside the object.
fn relocate(mut d: Diagnostic, base: usize, end: usize, index: &LineIndex<'_>) -> Diagnostic {
    let start = (base + d.span.start).min(end);
    d.span = start..(base + d.span.end).clamp(start, end);
    (d.line, d.column) = index.line_col(d.span.start);
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(DetectedKind, usize, usize)> {
        detect_objects(text)
            .into_iter()
            .map(|o| (o.kind, o.start, o.end))
            .collect()
    }

    #[test]
    fn remainder_and_objects_make_up_the_text() {
        let text = "a\n```md\n# x\n```\nb\n[[m]]\n@k: v\n";
        let objects = detect_objects(text);
        let parsed = parse_any(text).value;
        let mut rebuilt = String::new();
        let mut at = 0;
        let mut remainder = parsed.remainder.as_str();
        for o in &objects {
            let gap = &text[at..o.start];
            assert!(remainder.starts_with(gap));
            remainder = &remainder[gap.len()..];
            rebuilt.push_str(gap);
            rebuilt.push_str(&o.raw);
            at = o.end;
        }
        rebuilt.push_str(remainder);
        assert_eq!(rebuilt, text);
        assert_eq!(parsed.markdown_snippets, ["# x\n"]);
    }

    #[test]
    fn raw_regions_stop_at_fenced_objects() {
        let text = "[[a]]\n@k: v\n```flexmd\n[[b]]\n```\ntail";
        assert_eq!(
            kinds(text),
            [
                (DetectedKind::RawFlexmd, 0, 11),
                (DetectedKind::FlexmdFence, 12, 31)
            ]
        );
    }
}
