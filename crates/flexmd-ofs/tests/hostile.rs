//! Hostile answers and specs: deep nesting, huge lines, thousands of
//! duplicate sections — a report in linear time, never a panic.

// Test helpers may panic: a panic here is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_ofs::{ExtractOptions, check, parse_spec, to_json};

fn spec() -> flexmd_core::OutputFormatSpec {
    parse_spec("- Short answer — prose\n- Steps — ordered list\n- Risks — list\n").value
}

#[test]
fn deeply_nested_list_in_a_list_section() {
    let answer = format!(
        "## Short answer\nok\n## Steps\n1. x\n## Risks\n{}deep\n",
        "- ".repeat(100_000)
    );
    let (report, extracted) = check(&answer, &spec(), &ExtractOptions::default());
    assert!(report.ok, "{:?}", report.errors);
    let json = to_json(&extracted, &spec());
    let risk = json["Risks"][0].as_str().unwrap();
    assert!(
        risk.starts_with("\n  - \n    - "),
        "the outer item has no text of its own; its sub-items follow, indented"
    );
    // Past MAX_LIST_DEPTH items are siblings, so no line is indented more
    // than that: the string grows with the answer, not with its square.
    let deepest = risk.lines().map(|l| l.len() - l.trim_start().len()).max();
    assert_eq!(deepest, Some(2 * (flexmd_core::MAX_LIST_DEPTH - 1)));
    assert!(risk.len() < 40 * answer.len(), "{} bytes", risk.len());
}

#[test]
fn fifty_megabyte_line_and_deep_quotes() {
    let answer = format!(
        "## Short answer\n{}\n## Steps\n{}1. x\n",
        "word ".repeat(10_000_000),
        "> ".repeat(100_000)
    );
    let (report, _) = check(&answer, &spec(), &ExtractOptions::default());
    let ids: Vec<String> = report.errors.iter().map(|e| e.id()).collect();
    assert_eq!(
        ids,
        ["section_not_numbered:Steps", "missing_section:Risks"],
        "errors in the spec's order"
    );
}

#[test]
fn thousands_of_duplicate_sections_merge() {
    let answer = "## Steps\n1. a\n## Risks\n- r\n".repeat(20_000) + "## Short answer\nok\n";
    let (report, extracted) = check(&answer, &spec(), &ExtractOptions::default());
    assert!(report.ok);
    assert_eq!(
        report.warnings.len(),
        2,
        "one duplicate_section warning per section"
    );
    let steps = extracted.sections_by_name["Steps"].list.as_ref().unwrap();
    assert_eq!(steps.items.len(), 20_000);
}

#[test]
fn hostile_spec_lines() {
    let spec_md = format!(
        "- {} — prose\n{}\n- a — list",
        "x".repeat(1_000_000),
        "- — — — —".repeat(10_000)
    );
    let parsed = parse_spec(&spec_md);
    assert_eq!(parsed.value.sections.len(), 2);
}

#[test]
fn a_hundred_thousand_sections() {
    let spec_md: String = (0..100_000)
        .map(|i| format!("- Section {i} — list\n"))
        .collect();
    let spec = parse_spec(&spec_md).value;
    assert_eq!(spec.sections.len(), 100_000);
    let answer: String = (0..100_000)
        .map(|i| format!("## Section {i}\n- item\n"))
        .collect();
    let report = flexmd_ofs::validate(&answer, &spec);
    assert!(report.ok, "{:?}", report.errors.first());
}

/// Streams `answer` in 16-byte pieces; the end must equal `check`.
fn stream_in_16_byte_pieces(answer: &str) -> flexmd_ofs::StreamFinish {
    let mut stream = flexmd_ofs::StreamingExtractor::new(&spec());
    for piece in answer.as_bytes().chunks(16) {
        let _ = stream.push(std::str::from_utf8(piece).unwrap());
    }
    stream.finish()
}

#[test]
fn a_stream_of_one_long_line_reads_it_once() {
    // Each 16-byte piece of a 2 MB line used to search the line from its
    // start for its end (and for a heading's `---`): 131 072 pieces x 1 MB.
    for line in [
        "word ".repeat(400_000),
        "-".repeat(2_000_000),
        " ".repeat(2_000_000),
        format!("- {}", "item ".repeat(400_000)),
    ] {
        let answer = format!("## Risks\n{line}\n## Steps\n1. x\n");
        let end = stream_in_16_byte_pieces(&answer);
        let (report, extracted) = check(&answer, &spec(), &ExtractOptions::default());
        assert_eq!(end.report, report);
        assert_eq!(end.extracted, extracted);
    }
}
