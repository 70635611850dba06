//! `schema export --for PROVIDER` and `schema validate --from PROVIDER`.

use super::*;
use pretty_assertions::assert_eq;

/// The command's standard error, which must hold every one of `needles`.
fn stderr_holds(assert: assert_cmd::assert::Assert, needles: &[&str]) {
    let text = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    for needle in needles {
        assert!(
            text.contains(needle),
            "stderr should hold {needle:?}:\n{text}"
        );
    }
}

#[test]
fn export_prints_the_libraries_request_fragment() {
    let dir = scratch("export");
    let out = flexmd()
        .current_dir(&dir)
        .args(["schema", "export", "review", "--for", "openai"])
        .assert()
        .success()
        .get_output()
        .clone();
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let registry = flexmd_schema::Registry::new();
    let expected = flexmd_constrain::export(
        registry.get("review").unwrap(),
        flexmd_constrain::Provider::OpenAi,
        "review",
    )
    .unwrap();
    assert_eq!(printed, expected.request);
    assert_eq!(
        printed["response_format"]["json_schema"]["name"],
        json!("review")
    );
    let notes = String::from_utf8(out.stderr).unwrap();
    assert!(
        notes.is_empty(),
        "OpenAI enforces every constraint of `review`, so nothing is noted: {notes}"
    );
}

#[test]
fn export_with_json_reports_every_change_and_names_the_file() {
    let out = flexmd()
        .args([
            "schema",
            "export",
            &example("constrain/invoice.schema.json"),
            "--for",
            "anthropic-tool",
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .clone();
    let export: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(export["name"], json!("invoice"));
    assert_eq!(
        export["request"]["tool_choice"],
        json!({"type": "tool", "name": "invoice"})
    );
    let unenforced: Vec<(&str, &str)> = export["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["action"] == "unenforced")
        .map(|c| {
            (
                c["pointer"].as_str().unwrap(),
                c["keyword"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        unenforced,
        [
            ("/$defs/LineItem/properties/description", "maxLength"),
            ("/$defs/LineItem/properties/quantity", "minimum"),
            ("/$defs/LineItem/properties/unit_price", "exclusiveMinimum"),
        ]
    );
}

#[test]
fn export_notes_what_the_provider_leaves_unenforced() {
    stderr_holds(
        flexmd()
            .args([
                "schema",
                "export",
                &example("constrain/invoice.schema.json"),
                "--for",
                "gemini",
            ])
            .assert()
            .success(),
        &[
            "note: /properties/number: `pattern` is not enforced by the provider: checked after the answer",
            "`flexmd schema validate --schema",
        ],
    );
}

#[test]
fn a_schema_the_provider_cannot_take_exits_1_naming_the_place() {
    let dir = scratch("export-refused");
    let schema = dir.join("tree.json");
    std::fs::write(
        &schema,
        r##"{"$defs": {"n": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/n"}}}}},
            "type": "object", "properties": {"root": {"$ref": "#/$defs/n"}}}"##,
    )
    .unwrap();
    stderr_holds(
        flexmd()
            .args([
                "schema",
                "export",
                schema.to_str().unwrap(),
                "--for",
                "anthropic",
            ])
            .assert()
            .code(1),
        &["the schema refers to itself at `/$defs/n/properties/kids/items`"],
    );
    flexmd()
        .args([
            "schema",
            "export",
            schema.to_str().unwrap(),
            "--for",
            "openai",
        ])
        .assert()
        .success();
    stderr_holds(
        flexmd()
            .args(["schema", "export", "review", "--for", "claude"])
            .assert()
            .code(2),
        &["possible values: openai, openai-tool"],
    );
}

#[test]
fn validate_from_maps_the_answer_back_before_validating() {
    let answer = example("constrain/invoice.openai.json");
    let schema = example("constrain/invoice.schema.json");
    let out = flexmd()
        .args([
            "schema", "validate", "--schema", &schema, "--from", "openai", "--json", &answer,
        ])
        .assert()
        .success()
        .get_output()
        .clone();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["valid"], json!(true));
    assert_eq!(report["nullsRemoved"], json!(["/status", "/notes"]));
    assert_eq!(
        report["data"]["status"],
        json!("draft"),
        "the default fills the removed null"
    );
    assert_eq!(report["data"]["notes"], json!([]));
    assert_eq!(report["data"]["customer_email"], json!("ap@example.org"));
    // Read as it is, the answer's nulls are errors.
    flexmd()
        .args(["schema", "validate", "--schema", &schema, &answer])
        .assert()
        .code(1);
}

#[test]
fn validate_from_checks_what_the_provider_did_not_enforce() {
    let dir = scratch("validate-from");
    let answer = dir.join("answer.json");
    // A zero unit price: the exported schema for Anthropic drops
    // `exclusiveMinimum`, validation after the answer catches it.
    std::fs::write(
        &answer,
        r#"{"number": "INV-0001", "items": [{"description": "x", "quantity": 1, "unit_price": 0}], "due": "2026-01-01"}"#,
    )
    .unwrap();
    let out = flexmd()
        .args([
            "schema",
            "validate",
            "--schema",
            &example("constrain/invoice.schema.json"),
            "--from",
            "anthropic",
            "--json",
            answer.to_str().unwrap(),
        ])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["errors"][0]["path"], json!("items.[0].unit_price"));
    assert_eq!(report["nullsRemoved"], json!([]));
    stderr_holds(
        flexmd()
            .args([
                "schema",
                "validate",
                "--schema",
                "review",
                "--from",
                "openai",
                "--jsonl",
                answer.to_str().unwrap(),
            ])
            .assert()
            .code(2),
        &["--from reads one answer a file"],
    );
}

#[test]
fn grammar_prints_the_libraries_grammar_and_notes_what_it_leaves() {
    let schema = example("constrain/invoice.schema.json");
    let out = flexmd()
        .args(["grammar", "--schema", &schema, "--format", "gbnf"])
        .assert()
        .success()
        .get_output()
        .clone();
    let value: Value = serde_json::from_str(&std::fs::read_to_string(&schema).unwrap()).unwrap();
    let expected =
        flexmd_constrain::schema_grammar(&value, flexmd_constrain::GrammarFormat::Gbnf).unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected.grammar);
    let notes = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        notes.lines().collect::<Vec<_>>(),
        [
            "note: /properties/number: left to validation: pattern",
            "note: /properties/customer_email/anyOf/0: left to validation: format",
            "note: /$defs/LineItem/properties/description: left to validation: maxLength",
            "note: /$defs/LineItem/properties/quantity: left to validation: minimum",
            "note: /$defs/LineItem/properties/unit_price: left to validation: exclusiveMinimum",
            "note: /properties/due: left to validation: format",
        ]
    );
}

#[test]
fn grammar_errors_name_the_place() {
    let dir = scratch("grammar-refused");
    let schema = dir.join("tree.json");
    std::fs::write(
        &schema,
        r##"{"$defs": {"n": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/n"}}}}},
            "$ref": "#/$defs/n"}"##,
    )
    .unwrap();
    stderr_holds(
        flexmd()
            .args([
                "grammar",
                "--schema",
                schema.to_str().unwrap(),
                "--format",
                "regex",
            ])
            .assert()
            .code(1),
        &["the schema refers to itself at `/$defs/n`"],
    );
    flexmd()
        .args([
            "grammar",
            "--schema",
            schema.to_str().unwrap(),
            "--format",
            "lark",
        ])
        .assert()
        .success();
    stderr_holds(
        flexmd()
            .args(["grammar", "--schema", "review", "--format", "peg"])
            .assert()
            .code(2),
        &["possible values: lark, gbnf, ebnf, regex"],
    );
}

#[test]
fn grammar_for_a_spec_takes_its_options_and_reports_what_it_leaves() {
    let spec = example("specs/answer.md");
    let out = flexmd()
        .args([
            "grammar",
            "--spec",
            &spec,
            "--format",
            "lark",
            "--json",
            "--think",
            "10",
            "--max-items",
            "4",
        ])
        .assert()
        .success()
        .get_output()
        .clone();
    let grammar: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(grammar["format"], json!("lark"));
    assert!(
        grammar["grammar"]
            .as_str()
            .unwrap()
            .starts_with("start: think? section_short_answer")
    );
    let places: Vec<&str> = grammar["coverage"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["place"].as_str().unwrap())
        .collect();
    assert_eq!(
        places,
        [
            "<think>",
            "Short answer",
            "Long answer",
            "Reasoning",
            "Assumptions",
            "Unknowns",
            "table (property1, property2, property3)",
            "table (property1, property2, property3)",
        ]
    );
    let notes = String::from_utf8(
        flexmd()
            .args(["grammar", "--spec", &spec, "--format", "gbnf"])
            .assert()
            .success()
            .get_output()
            .stderr
            .clone(),
    )
    .unwrap();
    assert_eq!(
        notes.lines().collect::<Vec<_>>(),
        [
            "note: Reasoning: left to validation: numbers in order",
            "note: table (property1, property2, property3): left to validation: `#` numbered 1 to N (give a row bound to enforce it)",
        ]
    );
    stderr_holds(
        flexmd()
            .args([
                "grammar", "--schema", "review", "--format", "gbnf", "--think", "3",
            ])
            .assert()
            .code(2),
        &["--spec"],
    );
    stderr_holds(
        flexmd()
            .args([
                "grammar",
                "--spec",
                &spec,
                "--format",
                "gbnf",
                "--heading-level",
                "7",
            ])
            .assert()
            .code(1),
        &["a heading level is 1 to 6, not 7"],
    );
}
