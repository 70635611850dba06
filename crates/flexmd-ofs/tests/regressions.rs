//! Numbered regressions: each input once made validate/extract slow,
//! reached from a model's answer. Each fails (by taking minutes) on the code
//! before its fix; docs/reliability.md records cause, fix and figures.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_ofs::{ExtractOptions, extract, parse_spec, validate};

/// 1. A spec section without a heading sends every line to the label
///    fallback, which checked each line against every code block and every
///    heading start: 80 000 fences in 800 KB took 21 s, 100 000 headings
///    10.5 s. One cursor over the blocks and one over the heading starts now.
#[test]
fn r001_label_fallback_is_linear() {
    let spec = parse_spec("- Answer — prose\n- Missing — prose\n").value;
    let fences = format!("## Answer\nYes.\n\n{}", "```\nx\n```\n".repeat(80_000));
    let report = validate(&fences, &spec);
    assert!(!report.ok);
    assert_eq!(report.errors.len(), 1);
    assert_eq!(report.errors[0].code, "missing_section");
    let headings = format!("## Answer\nYes.\n\n{}", "## Other\ntext\n".repeat(100_000));
    let extracted = extract(&headings, &spec, &ExtractOptions::default());
    assert!(extracted.sections_by_name.contains_key("Answer"));
    assert!(!extracted.sections_by_name.contains_key("Missing"));
    // A label line after all the fences is still found.
    let label = format!("{fences}\nMissing: here it is\n");
    let extracted = extract(&label, &spec, &ExtractOptions::default());
    assert_eq!(
        extracted.sections_by_name["Missing"].md.trim(),
        "here it is"
    );
}
