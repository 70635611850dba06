//! Models with known habits (examples/report/README.md), reported in one
//! pass: the report shows exactly those habits and nothing else.

#![allow(clippy::indexing_slicing, clippy::panic, clippy::unwrap_used)]

use std::collections::BTreeMap;

use flexmd_report::{Check, Checker, GroupSummary, Options, SectionCounts, Summary, report_lines};

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn spec() -> flexmd_ofs::OutputFormatSpec {
    let text = std::fs::read_to_string(root().join("../../examples/specs/answer.md")).unwrap();
    flexmd_ofs::parse_spec(&text).value
}

fn answers() -> String {
    std::fs::read_to_string(root().join("../../examples/report/answers.jsonl")).unwrap()
}

fn options(group_by: &[&str]) -> Options {
    Options {
        group_by: group_by.iter().map(|g| (*g).to_owned()).collect(),
        jobs: 2,
        ..Options::default()
    }
}

fn report(group_by: &[&str]) -> Summary {
    let checker = Checker::new(
        Check::Spec {
            spec: spec(),
            strict: false,
        },
        flexmd_schema::Registry::new(),
    )
    .unwrap();
    report_lines(
        answers().as_bytes(),
        None::<&[u8]>,
        checker,
        &options(group_by),
        &mut |_| {},
    )
    .unwrap()
}

fn by<'s>(summary: &'s Summary, value: &str) -> &'s GroupSummary {
    summary
        .groups
        .iter()
        .find(|g| g.group.values().next().map(String::as_str) == Some(value))
        .unwrap_or_else(|| panic!("no group {value}"))
}

fn counts(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect()
}

#[test]
fn each_models_habit_and_nothing_else() {
    let summary = report(&["model"]);
    assert_eq!(summary.answers, 16);
    assert_eq!(summary.invalid_lines.count, 0);
    let names: Vec<&str> = summary
        .groups
        .iter()
        .map(|g| g.group["model"].as_str())
        .collect();
    assert_eq!(names, ["bullets", "drops", "json", "tidy"]);

    let drops = by(&summary, "drops");
    assert_eq!((drops.answers, drops.valid, drops.lenient), (4, 0, 0));
    assert_eq!(drops.errors, counts(&[("missing_section", 4)]));
    assert!(drops.warnings.is_empty() && drops.repairs.is_empty());
    assert_eq!(
        drops.sections,
        BTreeMap::from([(
            "Unknowns".to_owned(),
            SectionCounts {
                missing: 4,
                ..SectionCounts::default()
            }
        )])
    );
    // Every answer is invalid: all four kept, in input order, with their text.
    let lines: Vec<usize> = drops.worst.iter().map(|e| e.line).collect();
    assert_eq!(lines, [1, 4, 7, 10]);
    assert!(
        drops.worst[0]
            .excerpt
            .as_ref()
            .unwrap()
            .text
            .starts_with("## Short answer\n")
    );

    let bullets = by(&summary, "bullets");
    assert_eq!(
        (bullets.valid, bullets.lenient, bullets.lenient_share),
        (4, 4, 1.0)
    );
    assert!(bullets.errors.is_empty() && bullets.sections.is_empty() && bullets.repairs.is_empty());
    assert_eq!(
        bullets.warnings,
        counts(&[("lenient_bullets", 4), ("lenient_heading", 4)])
    );
    // The warning points at the bold label the heading was read from.
    let first = &bullets.worst[0];
    let label = first
        .warnings
        .iter()
        .find(|w| w.code == "lenient_heading")
        .unwrap();
    let text = &first.excerpt.as_ref().unwrap().text;
    assert_eq!(&text[label.span.clone().unwrap()], "**Short answer:**");

    let json = by(&summary, "json");
    assert_eq!((json.valid, json.lenient), (4, 4));
    assert!(json.errors.is_empty() && json.warnings.is_empty() && json.sections.is_empty());
    assert_eq!(
        json.repairs,
        counts(&[
            ("json5", 1),
            ("missing_comma", 2),
            ("python_literal", 1),
            ("unescaped_newline", 1)
        ])
    );

    let tidy = by(&summary, "tidy");
    assert_eq!((tidy.valid, tidy.lenient), (4, 0));
    assert!(tidy.errors.is_empty() && tidy.warnings.is_empty() && tidy.repairs.is_empty());
    assert!(tidy.worst.is_empty());
    // 4 of 4: the interval's top is 1, its bottom Wilson's 0.5101.
    let interval = tidy
        .valid_interval
        .map(|i| (format!("{:.4}", i.low), i.high));
    assert_eq!(interval, Some(("0.5101".to_owned(), 1.0)));
    // Every answer's length is known and counted.
    for g in &summary.groups {
        assert_eq!(g.tokens.iter().map(|b| b.answers).sum::<u64>(), 4);
    }
}

#[test]
fn grouped_by_two_fields() {
    let summary = report(&["model", "prompt"]);
    assert_eq!(summary.groups.len(), 8);
    assert_eq!(
        summary.groups[0].group,
        BTreeMap::from([
            ("model".to_owned(), "bullets".to_owned()),
            ("prompt".to_owned(), "p0".to_owned())
        ])
    );
    assert_eq!(summary.groups[0].answers, 2);
    assert_eq!(summary.groups.iter().map(|g| g.answers).sum::<u64>(), 16);
}

/// Result lines as `flexmd validate --jsonl` prints them, read back with
/// the answers beside them, count what checking the answers counts.
#[test]
fn result_lines_joined_with_their_answers_count_the_same() {
    let spec = spec();
    let mut results = String::new();
    for (i, line) in answers().lines().enumerate() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let report = flexmd_ofs::validate(record["response"].as_str().unwrap(), &spec);
        let mut fields = serde_json::to_value(&report).unwrap();
        fields["line"] = (i + 1).into();
        results.push_str(&serde_json::to_string(&fields).unwrap());
        results.push('\n');
    }
    let checker = Checker::new(Check::Results, flexmd_schema::Registry::new()).unwrap();
    let read = report_lines(
        results.as_bytes(),
        Some(answers().as_bytes()),
        checker,
        &options(&["model"]),
        &mut |_| {},
    )
    .unwrap();
    let checked = report(&["model"]);
    for model in ["bullets", "drops", "tidy"] {
        assert_eq!(by(&read, model), by(&checked, model), "{model}");
    }
    // Read as Markdown, the JSON answers miss every section.
    assert_eq!(by(&read, "json").errors, counts(&[("missing_section", 20)]));

    // Without the answers: one group, no text, no lengths.
    let checker = Checker::new(Check::Results, flexmd_schema::Registry::new()).unwrap();
    let alone = report_lines(
        results.as_bytes(),
        None::<&[u8]>,
        checker,
        &options(&["model"]),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(alone.groups.len(), 1);
    assert_eq!(alone.groups[0].group["model"], "(none)");
    assert_eq!(
        alone.groups[0]
            .tokens
            .iter()
            .map(|b| b.answers)
            .sum::<u64>(),
        0
    );
    assert!(alone.groups[0].worst.iter().all(|e| e.excerpt.is_none()));
}

#[test]
fn a_schema_report_counts_violations_by_key_and_repairs_by_kind() {
    let schema = serde_json::json!({"type": "object", "required": ["verdict", "score"],
        "properties": {"verdict": {"enum": ["pass", "fail"]}, "score": {"type": "integer"}}});
    let lines = [
        r#"{"m": "a", "response": "{\"verdict\": \"pass\", \"score\": 3}"}"#,
        r#"{"m": "a", "response": "{verdict: 'pass', score: 3,}"}"#,
        r#"{"m": "b", "response": "{\"verdict\": \"pass\" \"score\": \"high\"}"}"#,
        r#"{"m": "b", "response": "no JSON here"}"#,
        r#"{"m": "b"}"#,
    ];
    let input = lines.join("\n");
    let check = Check::Schema {
        schema: flexmd_report::SchemaRef::Inline(schema),
        preset: flexmd_schema::Preset::Standard,
    };
    let checker = Checker::new(check, flexmd_schema::Registry::empty()).unwrap();
    let summary = report_lines(
        input.as_bytes(),
        None::<&[u8]>,
        checker,
        &options(&["m"]),
        &mut |_| {},
    )
    .unwrap();
    let a = by(&summary, "a");
    assert_eq!((a.answers, a.valid, a.lenient), (2, 2, 1));
    assert_eq!(a.repairs, counts(&[("json5", 1)]));
    let b = by(&summary, "b");
    assert_eq!((b.answers, b.valid), (2, 0));
    assert_eq!(b.errors, counts(&[("invalid_type", 1), ("no_json", 1)]));
    assert_eq!(b.repairs, counts(&[("missing_comma", 1)]));
    assert_eq!(b.sections["score"].wrong_kind, 1);
    assert_eq!(summary.invalid_lines.count, 1);
    assert_eq!(summary.invalid_lines.listed[0].line, 5);
    assert_eq!(summary.invalid_lines.listed[0].code, "missing_field");
}
