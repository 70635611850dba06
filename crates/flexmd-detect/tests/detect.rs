//! detect_objects and parse_any: the seed's tiers (§10.2), and the cases its
//! regular expressions get wrong.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_detect::{DetectedKind, DetectedObject, detect_objects, parse_any};
use pretty_assertions::assert_eq;
use serde_json::json;

use DetectedKind::*;

/// (kind, confidence, start, end, unclosed) of each object.
fn summary(text: &str) -> Vec<(DetectedKind, f64, usize, usize, bool)> {
    detect_objects(text)
        .into_iter()
        .map(|o| (o.kind, o.confidence, o.start, o.end, o.unclosed))
        .collect()
}

#[test]
fn tier_a_flexmd_fence() {
    let text = "Intro\n```flexmd\n[[message role=user]]\nHi\n```\nOutro";
    let objects = detect_objects(text);
    assert_eq!(
        objects,
        [DetectedObject {
            kind: FlexmdFence,
            confidence: 1.0,
            start: 6,
            end: 44,
            raw: "```flexmd\n[[message role=user]]\nHi\n```".to_owned(),
            inner: Some("[[message role=user]]\nHi\n".to_owned()),
            unclosed: false,
        }]
    );
    assert_eq!(
        serde_json::to_value(&objects[0]).unwrap(),
        json!({"kind": "flexmd_fence", "confidence": 1.0, "start": 6, "end": 44,
               "raw": "```flexmd\n[[message role=user]]\nHi\n```",
               "inner": "[[message role=user]]\nHi\n"})
    );
}

#[test]
fn tier_b_json_fence_with_a_flex_document() {
    let text = "```json\n{\"frames\": [{\"type\": \"message\", \"role\": \"user\", \"body_md\": \"Hi\"}]}\n```\n";
    assert_eq!(summary(text), [(FlexdocJsonFence, 0.9, 0, 78, false)]);
    let doc = &parse_any(text).value.flex_docs[0];
    assert_eq!(doc.frames[0].role.as_deref(), Some("user"));
    // Other JSON is not a FlexDocument, and neither is `frames` that is not a list.
    assert_eq!(summary("```json\n{\"a\": 1}\n```\n"), []);
    assert_eq!(summary("```json\n{\"frames\": 3}\n```\n"), []);
}

#[test]
fn tier_b_takes_the_seeds_shape_rule_with_lower_confidence_when_untyped() {
    // The seed accepts any object whose `frames` is an array.
    let text = "```json\n{\"frames\": [{\"role\": \"user\"}]}\n```\n";
    assert_eq!(summary(text), [(FlexdocJsonFence, 0.8, 0, 42, false)]);
    let empty = "```json\n{\"frames\": []}\n```";
    assert_eq!(summary(empty), [(FlexdocJsonFence, 0.9, 0, 26, false)]);
    // parse_any cannot make a FlexDocument of it: it stays in the remainder,
    // with a warning saying why.
    let parsed = parse_any(text);
    assert!(parsed.value.flex_docs.is_empty());
    assert_eq!(parsed.value.remainder, text);
    assert_eq!(parsed.diagnostics[0].code, "detect::not_a_flex_document");
    assert!(
        parsed.diagnostics[0]
            .message
            .contains("missing field `type`"),
        "{}",
        parsed.diagnostics[0].message
    );
}

#[test]
fn tier_c_raw_flexmd_needs_two_anchor_lines() {
    let text = "Some chat log:\n\n[[message role=user]]\n@tags: a, b\nHello\n\n[[message role=assistant]]\nHi\n\n";
    assert_eq!(summary(text), [(RawFlexmd, 0.7, 16, 86, false)]);
    let parsed = parse_any(text).value;
    assert_eq!(parsed.flex_docs[0].frames.len(), 2);
    assert_eq!(parsed.remainder, "Some chat log:\n\n\n\n");
    // One anchor is not enough.
    assert_eq!(summary("[[message role=user]]\nHello"), []);
}

#[test]
fn tier_c_markers_inside_lines_count_as_the_seed_counts_them_at_lower_confidence() {
    // The seed's regexes find `[[...]]` and `@name:` anywhere: two of them
    // make raw FlexMD from the first one to the end.
    let text = "mail @bob: hi, see [[wiki]] and @alice: too";
    assert_eq!(summary(text), [(RawFlexmd, 0.4, 5, 43, false)]);
    // `@payload:name:` counts twice in the seed (it is also an `@name:`).
    assert_eq!(
        summary("see @payload:name: x"),
        [(RawFlexmd, 0.4, 4, 20, false)]
    );
    assert_eq!(summary("one @marker: only"), []);
    assert_eq!(
        summary("[[]] is empty and [x] is single: none of them count"),
        []
    );
    assert_eq!(summary("[[[a]] counts once, unlike the seed's overlap"), []);
    // Prose with loose markers and no frame is no document: parse_any keeps
    // it in the remainder.
    let parsed = parse_any(text).value;
    assert!(parsed.flex_docs.is_empty());
    assert_eq!(parsed.remainder, text);
    // A frame header in a line of prose with a meta marker after it is one.
    let framed = "Log: [[message role=user]] hi @tags: a";
    assert_eq!(summary(framed), [(RawFlexmd, 0.4, 5, 38, false)]);
}

#[test]
fn tier_c_loose_markers_are_linear_on_a_long_line() {
    let line = "[[".repeat(500_000) + &"@a".repeat(500_000);
    assert_eq!(summary(&line), []);
}

#[test]
fn markdown_snippets() {
    let text = "```markdown\n# Title\n- item\n```\n";
    assert_eq!(summary(text), [(MarkdownSnippet, 0.5, 0, 30, false)]);
    assert_eq!(
        parse_any(text).value.markdown_snippets,
        ["# Title\n- item\n"]
    );
}

// The seed's regular expressions miss each of the following.

#[test]
fn crlf_fences() {
    let text = "a\r\n```flexmd\r\n[[message]]\r\nHi\r\n```\r\nb";
    assert_eq!(summary(text), [(FlexmdFence, 1.0, 3, 34, false)]);
    let parsed = parse_any(text).value;
    assert_eq!(parsed.flex_docs[0].frames[0].body_md.as_deref(), Some("Hi"));
    assert_eq!(parsed.remainder, "a\r\n\r\nb");
}

#[test]
fn tilde_longer_and_indented_fences_with_info_words() {
    let text = "~~~~ flexmd title=x\n[[m]]\n~~~~\n\n   ```FlexMD\n   [[n]]\n   ```\n";
    assert_eq!(
        summary(text),
        [
            (FlexmdFence, 1.0, 0, 30, false),
            (FlexmdFence, 1.0, 32, 60, false)
        ]
    );
    let docs = parse_any(text).value.flex_docs;
    assert_eq!(docs[1].frames[0].frame_type, "n");
}

#[test]
fn four_backtick_fence_holding_three() {
    let text = "````flexmd\n[[m]]\n```json\n{}\n```\n````\n";
    let objects = detect_objects(text);
    assert_eq!(objects.len(), 1);
    assert_eq!(objects[0].end, 36);
    assert_eq!(
        objects[0].inner.as_deref(),
        Some("[[m]]\n```json\n{}\n```\n")
    );
}

#[test]
fn markers_inside_fences_do_not_count() {
    let text = "Example:\n```text\n[[message role=user]]\n@tags: x\n```\nDone.";
    assert_eq!(summary(text), []);
    // A raw region never swallows a fenced object after it.
    let text = "[[a]]\n@k: v\n\n```flexmd\n[[b]]\n```\n\n[[c]]\n@k: w\n";
    assert_eq!(
        summary(text),
        [
            (RawFlexmd, 0.7, 0, 11, false),
            (FlexmdFence, 1.0, 13, 32, false),
            (RawFlexmd, 0.7, 34, 45, false)
        ]
    );
}

#[test]
fn two_fences_in_one_answer() {
    let text = "```flexmd\n[[a]]\n```\nand\n```flexmd\n[[b]]\n```\n";
    assert_eq!(
        summary(text),
        [
            (FlexmdFence, 1.0, 0, 19, false),
            (FlexmdFence, 1.0, 24, 43, false)
        ]
    );
    assert_eq!(parse_any(text).value.flex_docs.len(), 2);
}

#[test]
fn truncated_answer_is_flagged_with_lower_confidence() {
    let text = "Here:\n```flexmd\n[[message role=user]]\nHal";
    let objects = detect_objects(text);
    assert_eq!(summary(text), [(FlexmdFence, 0.7, 6, 41, true)]);
    assert_eq!(
        objects[0].inner.as_deref(),
        Some("[[message role=user]]\nHal")
    );
    assert_eq!(
        serde_json::to_value(&objects[0]).unwrap()["unclosed"],
        json!(true)
    );
    let cut_json = "```json\n{\"frames\": [{\"type\": \"m\", \"body_md\": \"cut";
    assert_eq!(summary(cut_json), [(FlexdocJsonFence, 0.6, 0, 49, true)]);
    assert_eq!(
        parse_any(cut_json).value.flex_docs[0].frames[0]
            .body_md
            .as_deref(),
        Some("cut")
    );
}

#[test]
fn parse_any_diagnostics_point_into_the_whole_text() {
    let text = "x\n```flexmd\n[[m]]\n@payload:name: data\n```\n";
    let parsed = parse_any(text);
    assert_eq!(parsed.diagnostics.len(), 1);
    assert_eq!(
        parsed.diagnostics[0].to_string(),
        "4:1: `@payload` for `data` binds the next fenced block, but the input ends before a fenced block; the line is kept as text"
    );
    assert_eq!(
        &text[parsed.diagnostics[0].span.clone()],
        "@payload:name: data"
    );
}

#[test]
fn parse_any_result_uses_the_seed_field_names() {
    let v = serde_json::to_value(parse_any("plain").value).unwrap();
    assert_eq!(
        v,
        json!({"flexDocs": [], "markdownSnippets": [], "remainder": "plain"})
    );
}

#[test]
fn a_leading_byte_order_mark_is_not_part_of_any_object() {
    let text = "\u{feff}[[message role=user]]\n@tags: a\nHi";
    assert_eq!(summary(text), [(RawFlexmd, 0.7, 3, text.len(), false)]);
    let fenced = "\u{feff}```flexmd\n[[m]]\n```";
    assert_eq!(
        summary(fenced),
        [(FlexmdFence, 1.0, 3, fenced.len(), false)]
    );
    let found = flexmd_detect::find_json("\u{feff}{\"a\": 1}").unwrap();
    assert_eq!(found.value, json!({"a": 1}));
    assert_eq!(found.start, 3);
}
