//! Answers checked against a spec: `fixtures/responses/<case>.md` with the
//! spec in `<case>.spec.md` (default: `examples/specs/answer.md`), compared
//! with `<case>.json`: the report (issues as `line:column id: message`) and
//! the plain JSON object. Run with `FLEXMD_BLESS=1` to rewrite expected
//! files, then review the diff.

// Test helpers may panic: a panic here is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::path::Path;

use flexmd_ofs::{ExtractOptions, Issue, check, json_schema, parse_spec, to_json, validate};
use pretty_assertions::assert_eq;
use proptest::prelude::*;
use serde_json::json;

fn issues(list: &[Issue]) -> Vec<String> {
    list.iter()
        .map(|i| format!("{}:{} {}: {}", i.line, i.column, i.id(), i.message))
        .collect()
}

fn default_spec() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/specs/answer.md"
    ))
    .unwrap()
}

#[test]
fn response_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/responses");
    let cases = flexmd_testkit::check_fixtures(&dir, &[".spec.md"], |case, response| {
        let spec_md = std::fs::read_to_string(case.with_extension("spec.md"))
            .unwrap_or_else(|_| default_spec());
        let spec = parse_spec(&spec_md).value;
        let (report, extracted) = check(response, &spec, &ExtractOptions::default());
        assert_eq!(
            report,
            validate(response, &spec),
            "check and validate agree"
        );
        let value = to_json(&extracted, &spec);
        let validator = jsonschema::validator_for(&json_schema(&spec)).unwrap();
        let problems: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| e.to_string())
            .collect();
        // Even an invalid answer's object fits: what is missing is `null`.
        assert!(
            problems.is_empty(),
            "{}: to_json breaks json_schema: {problems:?}",
            case.display()
        );
        serde_json::to_string_pretty(&json!({
            "ok": report.ok,
            "errors": issues(&report.errors),
            "warnings": issues(&report.warnings),
            "json": value,
        }))
        .unwrap()
            + "\n"
    });
    assert!(cases.len() >= 25, "{} fixtures", cases.len());
}

/// The schema's shape, and that it rejects what `to_json` never makes (every
/// fixture's object is checked against it in `response_fixtures`).
#[test]
fn json_schema_describes_to_json() {
    let spec = parse_spec(&default_spec()).value;
    let schema = json_schema(&spec);
    let validator = jsonschema::validator_for(&schema).unwrap();
    let all_null = json!({"Short answer": null, "Long answer": null, "Reasoning": null, "Assumptions": null, "Unknowns": null});
    assert!(validator.is_valid(&all_null), "every section may be None");
    assert!(
        !validator.is_valid(&json!({"Short answer": "x"})),
        "sections are required"
    );
    let mut wrong = all_null.clone();
    wrong["Reasoning"] = json!([{"text": "a"}]);
    assert!(
        !validator.is_valid(&wrong),
        "list items are strings, nested or not"
    );
    wrong["Reasoning"] = json!("a string");
    assert!(!validator.is_valid(&wrong), "a list is an array");
    let mut extra = all_null.clone();
    extra["Other"] = json!(1);
    assert!(!validator.is_valid(&extra), "no other keys");
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(
        schema["required"],
        json!([
            "Short answer",
            "Long answer",
            "Reasoning",
            "Assumptions",
            "Unknowns"
        ]),
        "tables are optional in this spec"
    );
    assert_eq!(
        schema["properties"]["tables"]["properties"]["#, property1, property2, property3"]["items"]
            ["required"],
        json!(["#", "property1", "property2", "property3"])
    );
    assert_eq!(
        schema["properties"]["tables"]["required"],
        json!([
            "property1, property2, property3",
            "#, property1, property2, property3"
        ])
    );
    assert_eq!(schema["additionalProperties"], false);
}

#[test]
fn a_missing_section_and_a_section_written_none_are_told_apart() {
    let spec = parse_spec("- Summary — prose\n- Risks — list\n- Unknowns — list\n").value;
    let answer = "## Summary\nok\n\n## Unknowns\nNone.\n";
    let extracted = flexmd_ofs::extract(answer, &spec, &flexmd_ofs::ExtractOptions::default());
    // Missing: no entry at all. Written as None: an entry marked empty.
    assert!(!extracted.sections_by_name.contains_key("Risks"));
    assert!(extracted.sections_by_name["Unknowns"].empty);
    assert!(!extracted.sections_by_name["Summary"].empty);
    let json = serde_json::to_value(&extracted.sections_by_name).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "Summary": {"nodeKey": "summary", "nodeLevel": 2, "md": "ok\n\n"},
            "Unknowns": {"nodeKey": "unknowns", "nodeLevel": 2, "md": "None.\n", "empty": true}
        })
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn validate_and_extract_never_panic(s in "\\PC*") {
        let spec = parse_spec(&default_spec()).value;
        let (report, extracted) = check(&s, &spec, &ExtractOptions { lists_in_prose: true });
        prop_assert_eq!(report.ok, report.errors.is_empty());
        let validator = jsonschema::validator_for(&json_schema(&spec)).unwrap();
        prop_assert!(validator.is_valid(&to_json(&extracted, &spec)), "to_json always fits json_schema");
    }

    #[test]
    fn validate_never_panics_on_markdown_shapes(
        lines in proptest::collection::vec(prop_oneof![
            Just("## Short answer".to_owned()), Just("**Reasoning:**".to_owned()), Just("Unknowns: None".to_owned()),
            Just("1) step".to_owned()), Just("* item".to_owned()), Just("| # | property1 |".to_owned()),
            Just("|---|---|".to_owned()), Just("| 2 | x |".to_owned()), Just("```".to_owned()), Just(String::new()),
            "\\PC{0,10}".prop_map(String::from),
        ], 0..30)
    ) {
        let spec = parse_spec(&default_spec()).value;
        let text = lines.join("\n");
        let report = validate(&text, &spec);
        for issue in report.errors.iter().chain(&report.warnings) {
            prop_assert!(issue.span.start <= text.len() && issue.line >= 1);
        }
    }
}
