//! Hostile input: huge, deep and broken FlexMD gives a value and diagnostics
//! in linear time, never a panic or a stack overflow.

// Test helpers may panic: a panic here is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_core::Severity;
use flexmd_frames::{ParseOptions, StringifyOptions, parse, stringify};

#[test]
fn deeply_nested_json_and_json5_payloads_are_parse_errors() {
    for lang in ["json", "json5"] {
        let text = format!(
            "[[tool]]\n@payload:name: deep\n```{lang}\n{}\n```\n",
            "[".repeat(100_000)
        );
        let parsed = parse(&text, &ParseOptions::default());
        let payload = &parsed.value.frames[0].payloads.as_ref().unwrap()["deep"];
        assert!(payload.value.is_null(), "{lang}");
        assert!(payload.parse_error.is_some(), "{lang} should say why");
        assert_eq!(payload.raw.len(), 100_001, "raw is kept");
    }
}

#[test]
fn a_hundred_thousand_frames() {
    let text = "[[message role=user]]\n@tags: a\n\nhi\n".repeat(100_000);
    let parsed = parse(&text, &ParseOptions::default());
    assert_eq!(parsed.value.frames.len(), 100_000);
    assert!(parsed.diagnostics.is_empty());
    assert_eq!(
        stringify(&parsed.value, &StringifyOptions::default()).len(),
        text.len() + 99_999
    );
}

#[test]
fn fifty_megabyte_header_line_and_deep_quotes() {
    let long = format!(
        "[[message role=user title=\"{}\"",
        "x".repeat(50 * 1024 * 1024)
    );
    let parsed = parse(&long, &ParseOptions::default());
    assert_eq!(parsed.value.frames.len(), 0);
    assert_eq!(parsed.diagnostics[0].code, "frames::unterminated_header");
    assert_eq!(parsed.diagnostics[0].severity, Severity::Error);

    let quotes = format!("[[m]]\n{}x\n", "> ".repeat(100_000));
    let parsed = parse(&quotes, &ParseOptions::default());
    assert_eq!(
        parsed.value.frames[0].body_md.as_ref().unwrap().len(),
        200_001
    );
}

#[test]
fn unterminated_header_and_binding_at_end_of_input() {
    let parsed = parse("[[message role=user", &ParseOptions::default());
    let d = &parsed.diagnostics[0];
    assert_eq!(
        (d.line, d.column, d.code.as_str()),
        (1, 1, "frames::unterminated_header")
    );

    let parsed = parse("intro\n[[m]]\n@payload:x:", &ParseOptions::default());
    let d = &parsed.diagnostics[0];
    assert_eq!(
        (d.line, d.column, d.code.as_str()),
        (3, 1, "frames::payload_without_fence")
    );
}
