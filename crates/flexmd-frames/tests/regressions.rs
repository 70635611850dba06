//! Numbered regressions of the documented fixed point
//! `stringify(parse(x))` = `stringify(parse(stringify(parse(x))))`: each
//! input once changed on a second round (found by fuzzing; see
//! docs/reliability.md).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_core::{FlexDocument, FlexMetaValue};
use flexmd_frames::{ParseOptions, StringifyOptions, parse, stringify};
use pretty_assertions::assert_eq;

fn round(text: &str) -> (FlexDocument, String) {
    let doc = parse(text, &ParseOptions::default()).value;
    let written = stringify(&doc, &StringifyOptions::default());
    (doc, written)
}

/// `x` is read, written, read and written again: both writings agree, and
/// the second reading equals the first.
fn fixed_point(text: &str) -> FlexDocument {
    let (first, written) = round(text);
    let (second, again) = round(&written);
    assert_eq!(again, written, "the second writing of {text:?} differs");
    assert_eq!(second, first, "the second reading of {text:?} differs");
    first
}

/// 1. A quoted header value that is only whitespace, or has a space at an
///    end, was written as `@e:  ` and read back trimmed.
#[test]
fn r001_meta_values_with_outer_spaces_survive() {
    for value in [" ", "\t", "\u{b}", "v ", " v", "a\nb"] {
        let escaped = value.replace('\n', "\\n");
        let doc = fixed_point(&format!("[[e e=\"{escaped}\"]]\nbody\n"));
        let meta = doc.frames[0].meta.as_ref().unwrap();
        assert_eq!(
            meta["e"],
            FlexMetaValue::String(value.to_owned()),
            "{value:?}"
        );
    }
}

/// 2. A payload fence's info string with backslashes lost one escape level
///    per round: the parser unescapes it, stringify wrote it back raw.
#[test]
fn r002_backslashes_in_a_payload_info_string_survive() {
    // `a\\\b` reads as `a\\b` (`\\` escapes a backslash; `\b` is no escape).
    let doc = fixed_point("[[m]]\n@payload:name: p\n```a\\\\\\b x\n{}\n```\n");
    let lang = doc.frames[0].payloads.as_ref().unwrap()["p"].lang.clone();
    assert_eq!(lang.as_deref(), Some("a\\\\b"));
    let doc = fixed_point("[[m]]\n@payload:name: p\n```a&amp;b\n{}\n```\n");
    let lang = doc.frames[0].payloads.as_ref().unwrap()["p"].lang.clone();
    assert_eq!(lang.as_deref(), Some("a&b"));
}

/// 3. A `~~~` payload fence whose info string holds a backtick was written
///    as a backtick fence, which cannot hold it.
#[test]
fn r003_a_backtick_in_the_info_string_keeps_a_tilde_fence() {
    let doc = fixed_point("[[m]]\n@payload:name: p\n~~~j`s\n{}\n~~~\n");
    let payload = &doc.frames[0].payloads.as_ref().unwrap()["p"];
    assert_eq!(payload.lang.as_deref(), Some("j`s"));
    assert_eq!(payload.raw, "{}\n");
}

/// 4. A duplicate binding kept as text left a lone CR in `body_md`.
#[test]
fn r004_a_duplicate_binding_kept_as_text_has_lf_endings() {
    let text = "[[m]]\n@payload:name: p\n```json\n{}\n```\n@payload:name: p\n```json\r{\"a\":\r1}\r```\nend\n";
    let doc = fixed_point(text);
    let body = doc.frames[0].body_md.as_deref().unwrap();
    assert!(!body.contains('\r'), "{body:?}");
    assert!(body.contains("{\"a\":\n1}"), "{body:?}");
}

/// 5. An HTML block line before a frame hid its fence on the first reading;
///    the blank lines stringify writes ended the HTML block, and the frame
///    count changed on the second reading.
#[test]
fn r005_an_html_block_does_not_hide_fences() {
    let doc = fixed_point("<t>\n[[m]]\n```\n[[n]]\n```\n");
    assert_eq!(doc.frames.len(), 1, "[[n]] is inside a fence");
    let doc = fixed_point("<div>\n```\n[[x]]\n```\n</div>\n[[m]]\nbody\n");
    assert_eq!(doc.frames.len(), 1);
}

/// 6. Two byte order marks: the first is skipped on reading, the second
///    stays in the preamble; written first in the output, it was skipped
///    on the next reading (fuzz target `frames_roundtrip`).
#[test]
fn r006_a_second_byte_order_mark_survives() {
    let doc = fixed_point("\u{feff}\u{feff}[e= ]:[e= ]: <1) !");
    assert_eq!(doc.preamble_md, "\u{feff}[e= ]:[e= ]: <1) !");
    let (_, written) = round("\u{feff}\u{feff}[e= ]:[e= ]: <1) !");
    assert!(written.starts_with("\u{feff}\u{feff}"), "{written:?}");
}
