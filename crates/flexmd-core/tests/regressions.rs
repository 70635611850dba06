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
