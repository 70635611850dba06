//! Numbered regressions found by fuzzing (see docs/reliability.md); each
//! input failed before its fix.

#![allow(clippy::indexing_slicing)]

use pretty_assertions::assert_eq;

/// 1. A header row wider than its delimiter row (here a vertical tab before
///    the first `|` makes an extra cell, which flexmd keeps) left the body
///    rows at the delimiter's width, shorter than the header (fuzz target
///    `lists_tables`).
#[test]
fn r001_body_rows_are_padded_to_a_wide_header() {
    let tables = flexmd_core::parse_tables("\u{b}| step | owner |\n|---|---|\n| b |\n");
    assert_eq!(tables[0].columns, ["", "step", "owner"]);
    assert_eq!(tables[0].rows, [vec!["b", "", ""]]);
}

/// 2. A closing fence followed by a tab: the parser leaves the fence open
///    (the `#` lines after it are code), but the stream's line scanner took
///    the fence as closed and read them as headings (fuzz target
///    `stream_answer`).
#[test]
fn r002_a_tab_after_a_closing_fence_leaves_it_open_in_a_stream_too() {
    let text = "```\n```\t\n#\n#";
    let whole = flexmd_core::read_markdown_in_one_parse(text);
    assert!(whole.outline.nodes.is_empty());
    let code: Vec<(usize, usize)> = whole.code_blocks.iter().map(|r| (r.start, r.end)).collect();
    assert_eq!(code, [(0, 12)]);
    for chunk in 1..=text.len() {
        let mut stream = flexmd_core::MarkdownStream::new();
        for piece in text.as_bytes().chunks(chunk) {
            stream.push(std::str::from_utf8(piece).unwrap_or_default());
        }
        assert_eq!(stream.finish().1, whole, "in {chunk}-byte chunks");
    }
}

/// 3. A first line that opens an HTML block after a byte order mark
///    (`\u{feff}<!t`): the parser reads the rest as the block, but the
///    stream's line scanner looked at the line with the mark in front, did
///    not see the `<`, and read a later `#` as a heading (fuzz target
///    `stream_answer`).
#[test]
fn r003_a_byte_order_mark_does_not_hide_an_html_block_from_a_stream() {
    for text in [
        "\u{feff}<!t\n#\n# ",
        "\u{feff}<div>\n# not a heading\n\n# A\n",
    ] {
        let whole = flexmd_core::read_markdown_in_one_parse(text);
        for chunk in 1..=text.len() {
            let mut stream = flexmd_core::MarkdownStream::new();
            let mut at = 0;
            while at < text.len() {
                let mut end = (at + chunk).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                stream.push(&text[at..end]);
                at = end;
            }
            assert_eq!(stream.finish().1, whole, "{text:?} in {chunk}-byte chunks");
        }
    }
    assert!(
        flexmd_core::read_markdown("\u{feff}<!t\n#\n# ")
            .outline
            .nodes
            .is_empty()
    );
}
