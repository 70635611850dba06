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
    assert_eq!(
        json["Risks"][0]["text"], "",
        "the outer item has no text of its own"
    );
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
