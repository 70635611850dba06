//! Seed fidelity: a byte order mark at the start hides no frame header.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_frames::{ParseOptions, parse};
use pretty_assertions::assert_eq;

#[test]
fn a_leading_byte_order_mark_does_not_hide_the_first_frame() {
    let text = "\u{feff}[[message role=user id=m1]]\n@tags: a, b\nHello\n";
    let parsed = parse(text, &ParseOptions::default());
    assert_eq!(parsed.diagnostics, []);
    let doc = parsed.value;
    assert_eq!(doc.preamble_md, "");
    assert_eq!(doc.frames.len(), 1);
    assert_eq!(doc.frames[0].role.as_deref(), Some("user"));
    assert_eq!(doc.frames[0].body_md.as_deref(), Some("Hello"));
}

#[test]
fn diagnostics_after_a_byte_order_mark_count_columns_as_editors_do() {
    let text = "\u{feff}[[message role=user\nHi\n";
    let parsed = parse(text, &ParseOptions::default());
    let d = &parsed.diagnostics[0];
    assert_eq!((d.line, d.column), (1, 1));
    assert_eq!(d.span.start, 3);
}
