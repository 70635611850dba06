//! Seed fidelity: flex-md's default spec, its `validateOutput` result shape,
//! specs in either form, and a byte order mark at the start of a spec or
//! an answer.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_core::OutputFormatSpec;
use flexmd_ofs::{SpecError, default_spec, parse_spec, read_spec, render_spec, validate};
use pretty_assertions::assert_eq;
use serde_json::json;

/// flex-md's `makeDefaultOfs()` (SPEC Appendix A), as JSON.
fn seed_default() -> serde_json::Value {
    json!({
        "descriptorType": "output_format_spec",
        "format": "markdown",
        "sectionOrderMatters": false,
        "sections": [
            { "name": "Short answer", "kind": "prose" },
            { "name": "Long answer", "kind": "prose" },
            { "name": "Reasoning", "kind": "ordered_list" },
            { "name": "Assumptions", "kind": "list" },
            { "name": "Unknowns", "kind": "list" },
        ],
        "tablesOptional": true,
        "tables": [],
        "emptySectionValue": "None",
    })
}

#[test]
fn default_spec_is_the_seeds_make_default_ofs() {
    assert_eq!(
        serde_json::to_value(default_spec()).unwrap(),
        seed_default()
    );
    // Its Markdown block reads back to the same spec.
    assert_eq!(
        parse_spec(&render_spec(&default_spec())).value,
        default_spec()
    );
}

#[test]
fn validate_result_is_the_seeds_ok_and_error_strings_plus_details() {
    // Appendix B: missing sections, a list not in bullets, an ordered list
    // not numbered, an empty section without `None`.
    let answer = "## Short answer\n\n## Long answer\nText.\n\n## Reasoning\n- one\n\n## Assumptions\nprose\n";
    let report = validate(answer, &default_spec());
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["ok"], false);
    assert_eq!(
        json["errors"],
        json!([
            "empty_section_without_none:Short answer",
            "section_not_numbered:Reasoning",
            "section_not_bullets:Assumptions",
            "missing_section:Unknowns",
        ])
    );
    assert_eq!(json["warnings"], json!([]));
    let first = &json["details"]["errors"][0];
    assert_eq!(first["code"], "empty_section_without_none");
    assert_eq!(first["section"], "Short answer");
    assert_eq!(first["line"], 1);
    assert_eq!(json["details"]["warnings"], json!([]));
    let valid = validate(
        "## Short answer\nYes\n## Long answer\nYes\n## Reasoning\n1. a\n## Assumptions\nNone\n## Unknowns\n- b\n",
        &default_spec(),
    );
    assert_eq!(
        serde_json::to_value(&valid).unwrap(),
        json!({"ok": true, "valid": true, "errors": [], "warnings": [], "details": {"errors": [], "warnings": []}})
    );
}

#[test]
fn read_spec_takes_either_form_by_content() {
    let from_json = read_spec(&seed_default().to_string()).unwrap();
    assert_eq!(from_json.value, default_spec());
    let from_md = read_spec(&render_spec(&default_spec())).unwrap();
    assert_eq!(from_md.value, default_spec());
    // Pretty JSON with leading blank lines and a byte order mark.
    let pretty = format!(
        "\u{feff}\n  {}",
        serde_json::to_string_pretty(&seed_default()).unwrap()
    );
    assert_eq!(read_spec(&pretty).unwrap().value, default_spec());
}

#[test]
fn read_spec_refuses_what_is_neither() {
    assert_eq!(
        read_spec("Answer briefly, please.").unwrap_err(),
        SpecError::NotASpec
    );
    assert_eq!(read_spec("").unwrap_err(), SpecError::NotASpec);
    let SpecError::Json {
        line,
        column,
        reason,
        ..
    } = read_spec("{\n  \"sections\": [{\"name\": \"A\", \"kind\": \"essay\"}]\n}").unwrap_err()
    else {
        panic!("a JSON error");
    };
    assert_eq!((line, column), (2, 44));
    assert_eq!(
        reason,
        "unknown variant `essay`, expected one of `prose`, `list`, `ordered_list`"
    );
    // A tables-only spec is a spec.
    let tables = read_spec("Tables:\n- (Name, Role — table)\n")
        .unwrap()
        .value;
    assert_eq!(tables.tables[0].columns, ["Name", "Role"]);
    assert!(!tables.tables_optional);
}

#[test]
fn a_leading_byte_order_mark_hides_neither_the_spec_title_nor_a_section() {
    let spec = parse_spec("\u{feff}## Output format\n- Foo — prose\n");
    assert_eq!(spec.diagnostics, [], "the title line is read as a title");
    let spec: OutputFormatSpec = spec.value;
    let report = validate("\u{feff}# Foo\n\nHi", &spec);
    assert!(report.ok, "{report:?}");
    let extracted = flexmd_ofs::extract("\u{feff}# Foo\n\nHi", &spec, &Default::default());
    assert_eq!(flexmd_ofs::to_json(&extracted, &spec), json!({"Foo": "Hi"}));
}

#[test]
fn a_misspelt_kind_is_an_error_that_names_the_nearest_kind() {
    let spec = "## Output format\n- Summary — prose\n- Steps — orderd list\n- Risks: lsit, short\n";
    let parsed = parse_spec(spec);
    let errors: Vec<(&str, usize, &str)> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.severity == flexmd_core::Severity::Error)
        .map(|d| (d.code.as_str(), d.line, d.message.as_str()))
        .collect();
    assert_eq!(
        errors,
        [
            (
                "ofs::unknown_kind",
                3,
                "section `Steps`: unknown kind `orderd list`; did you mean `ordered list`?"
            ),
            (
                "ofs::unknown_kind",
                4,
                "section `Risks`: unknown kind `lsit`; did you mean `list`?"
            ),
        ]
    );
    let SpecError::BadLine {
        line,
        column,
        message,
        ..
    } = read_spec(spec).unwrap_err()
    else {
        panic!("a bad line");
    };
    assert_eq!((line, column), (3, 1));
    assert!(message.contains("did you mean `ordered list`"));
    // A line far from any kind stays a warning: it may be a note.
    let note = parse_spec("- Summary — prose\n- Note: be brief\n");
    assert_eq!(note.diagnostics[0].code, "ofs::unknown_line");
    assert_eq!(note.diagnostics[0].severity, flexmd_core::Severity::Warning);
    assert!(read_spec("- Summary — prose\n- Note: be brief\n").is_ok());
}
