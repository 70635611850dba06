//! Seed fidelity: a byte order mark at the start of a text hides nothing.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_core::{build_outline, code_blocks, front_matter, read_markdown, render_outline};
use pretty_assertions::assert_eq;

const BOM: &str = "\u{feff}";

#[test]
fn a_leading_byte_order_mark_does_not_hide_the_first_heading() {
    let text = format!("{BOM}# Foo\n\nHi\n");
    let outline = build_outline(&text);
    assert_eq!(outline.nodes.len(), 1);
    assert_eq!(outline.nodes[0].title, "Foo");
    assert_eq!(outline.nodes[0].content_md, "\nHi\n");
    assert_eq!(outline.preamble_md, "", "the mark is not preamble");
    // Offsets still index the text as given.
    let source = outline.nodes[0].source.clone().unwrap();
    assert_eq!(source.heading.start, 3);
    assert_eq!(&text[source.content.clone()], "\nHi\n");
    assert_eq!(render_outline(&outline), "# Foo\n\nHi\n");
    assert_eq!(read_markdown(&text).outline, outline);
}

#[test]
fn front_matter_and_fences_after_a_byte_order_mark() {
    let text = format!("{BOM}---\ntitle: x\n---\n# Doc\n```json\n{{}}\n```\n");
    assert_eq!(front_matter(&text), Some(3..20));
    assert_eq!(build_outline(&text).nodes[0].title, "Doc");
    let blocks = code_blocks(&text);
    assert_eq!(blocks[0].content, "{}\n");
    let first_fence = format!("{BOM}```json\n{{}}\n```\n");
    assert_eq!(code_blocks(&first_fence)[0].info.as_deref(), Some("json"));
}
