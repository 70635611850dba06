//! Structured objects in arbitrary text (seed §10): `flexmd` fences,
//! FlexDocument JSON fences, raw FlexMD and Markdown snippets.

use flexmd_core::{Diagnostic, FlexDocument, LineIndex, Parsed, Severity, line_spans};
use flexmd_frames::{ParseOptions, line_marker};
use serde::{Deserialize, Serialize};

use crate::fence::{Fence, fences};
use crate::json::{Leniency, parse_json};

/// What kind of object [`detect_objects`] found (seed §10.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DetectedKind {
    /// A fence labeled `flexmd` (tier A).
    FlexmdFence,
    /// A fence labeled `json` (or `json5`) holding a FlexDocument (tier B).
    FlexdocJsonFence,
    /// FlexMD written without a fence (tier C): two or more anchor lines.
    RawFlexmd,
    /// A fence labeled `markdown` or `md`.
    MarkdownSnippet,
    /// The seed's "nothing found"; never produced here (the list is empty
    /// instead), kept so that the seed's JSON reads back.
    None,
}

/// An object found in a text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

/// Every object in `text`, sorted by start and never overlapping.
///
/// Fences are found by the Markdown parser (` ``` ` and `~~~`, longer
/// fences, indentation, block quotes and list items, CRLF, any info string
/// whose first word is the label, case-insensitive). Confidence: `flexmd`
/// fence 1.0, FlexDocument JSON fence 0.9 (its content must deserialize as
/// a FlexDocument, read with the lenient JSON ladder), raw FlexMD 0.7,
/// Markdown snippet 0.5; a fence the text ends inside is flagged `unclosed`
/// and scores 0.3 less.
///
/// Raw FlexMD is sniffed outside fences only: a stretch of text between
/// detected fences with at least two anchor lines (frame headers `[[...]]`,
/// meta lines `@key: value`, payload bindings `@payload:name: X`), from the
/// first anchor line to the end of the stretch, so it never swallows a
/// fenced object; anchors inside any fence do not count.
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
        "json" | "json5" if flex_document(&fence.content).is_some() => {
            (DetectedKind::FlexdocJsonFence, 0.9, 0.6)
        }
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

/// The FlexDocument a JSON fence holds: an object with a `frames` array
/// that deserializes as a FlexDocument.
fn flex_document(content: &str) -> Option<FlexDocument> {
    // Most JSON fences are not FlexDocuments: skip the parse for them.
    if !content.contains("frames") {
        return None;
    }
    let parsed = parse_json(content.trim(), Leniency::Repair).ok()?;
    if !parsed.value.get("frames").is_some_and(|f| f.is_array()) {
        return None;
    }
    serde_json::from_value(parsed.value).ok()
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
        if line_marker(text.get(start..end)?).is_some() {
            first.get_or_insert(start);
            anchors += 1;
        }
    }
    let start = first.filter(|_| anchors >= 2)?;
    let end = start + text.get(start..to)?.trim_end().len();
    Some(DetectedObject {
        kind: DetectedKind::RawFlexmd,
        confidence: 0.7,
        start,
        end,
        raw: text.get(start..end)?.to_owned(),
        inner: None,
        unclosed: false,
    })
}

/// What [`parse_any`] reads from a text (seed `parseAny`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
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
/// through `flexmd-frames`, FlexDocument JSON as it is. The diagnostics of
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
        result
            .remainder
            .push_str(text.get(at..object.start).unwrap_or_default());
        at = object.end;
        let inner_start = match object.kind {
            DetectedKind::RawFlexmd => object.start,
            _ => object
                .raw
                .find('\n')
                .map_or(object.end, |i| object.start + i + 1),
        };
        let source = object.inner.as_deref().unwrap_or(&object.raw);
        match object.kind {
            DetectedKind::FlexmdFence | DetectedKind::RawFlexmd => {
                let parsed = flexmd_frames::parse(source, &ParseOptions::default());
                let index = index.get_or_insert_with(|| LineIndex::new(text));
                diagnostics.extend(
                    parsed
                        .diagnostics
                        .into_iter()
                        .map(|d| relocate(d, inner_start, index)),
                );
                result.flex_docs.push(parsed.value);
            }
            DetectedKind::FlexdocJsonFence => {
                if let Some(doc) = flex_document(source) {
                    result.flex_docs.push(doc);
                }
            }
            DetectedKind::MarkdownSnippet => result.markdown_snippets.push(source.to_owned()),
            DetectedKind::None => {}
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

/// A diagnostic of a parse of `text[base..]`, made to point into `text`.
fn relocate(mut d: Diagnostic, base: usize, index: &LineIndex<'_>) -> Diagnostic {
    d.span = base + d.span.start..base + d.span.end;
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
