//! Schema-aligned parsing: each coercion rule with its log entry, the
//! ambiguity error, each preset, the choice between candidates, and the
//! Markdown bridge.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_detect::JsonSource;
use flexmd_schema::{AlignError, CandidateKind, Coercion, CoercionRule, Preset, Registry, Target};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

fn align(text: &str, schema: &Value, preset: Preset) -> flexmd_schema::Aligned {
    Registry::new()
        .find_json_as(text, Target::Schema(schema), preset)
        .unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn log(pointer: &str, rule: CoercionRule, before: Option<Value>, after: Option<Value>) -> Coercion {
    Coercion {
        pointer: pointer.to_owned(),
        rule,
        before,
        after,
        cost: rule.cost(),
        branch: None,
    }
}

#[test]
fn each_rule_with_its_log_entry() {
    use CoercionRule::*;
    let cases: Vec<(Value, &str, Value, Coercion)> = vec![
        (
            json!({"enum": ["in_progress", "done"]}),
            "\"In Progress\"",
            json!("in_progress"),
            log(
                "",
                EnumCase,
                Some(json!("In Progress")),
                Some(json!("in_progress")),
            ),
        ),
        (
            json!({"enum": ["approve", "reject"]}),
            "\"appr\"",
            json!("approve"),
            log("", EnumPrefix, Some(json!("appr")), Some(json!("approve"))),
        ),
        (
            json!({"type": "array", "items": {"type": "string"}}),
            "\"solo\"",
            json!(["solo"]),
            log("", WrapInArray, Some(json!("solo")), Some(json!(["solo"]))),
        ),
        (
            json!({"type": "object", "properties": {"n": {"type": "string"}}}),
            "{\"n\": [\"x\"]}",
            json!({"n": "x"}),
            log("/n", UnwrapArray, Some(json!(["x"])), Some(json!("x"))),
        ),
        (
            json!({"type": "number"}),
            "\"$1,234.50\"",
            json!(1234.5),
            log(
                "",
                NumberFromString,
                Some(json!("$1,234.50")),
                Some(json!(1234.5)),
            ),
        ),
        (
            json!({"type": "object", "properties": {"n": {"type": "integer"}}}),
            "{\"n\": \"142 tests\"}",
            json!({"n": 142}),
            log(
                "/n",
                LeadingNumber,
                Some(json!("142 tests")),
                Some(json!(142)),
            ),
        ),
        (
            json!({"type": "object", "properties": {"n": {"type": "integer"}}}),
            "{\"n\": \"3.7\"}",
            json!({"n": 3}),
            log("/n", TruncateToInteger, Some(json!("3.7")), Some(json!(3))),
        ),
        (
            json!({"type": "number"}),
            "\"3/4\"",
            json!(0.75),
            log("", NumberFromString, Some(json!("3/4")), Some(json!(0.75))),
        ),
        (
            json!({"type": "integer"}),
            "[7.0]",
            json!(7),
            // (unwrapped first, then made whole)
            log("", IntegerFromFloat, Some(json!(7.0)), Some(json!(7))),
        ),
        (
            json!({"type": "boolean"}),
            "\"Yes\"",
            json!(true),
            log("", BooleanFromString, Some(json!("Yes")), Some(json!(true))),
        ),
        (
            json!({"type": "object", "properties": {"v": {"type": "string"}}}),
            "{\"v\": 12}",
            json!({"v": "12"}),
            log("/v", ToString, Some(json!(12)), Some(json!("12"))),
        ),
        (
            json!({"type": "object", "properties": {"v": {"type": "string"}}}),
            "{\"v\": {\"a\": 1}}",
            json!({"v": "{\"a\":1}"}),
            log(
                "/v",
                JsonText,
                Some(json!({"a": 1})),
                Some(json!("{\"a\":1}")),
            ),
        ),
        (
            json!({"type": "object", "properties": {"filesChanged": {"type": "integer"}}}),
            "{\"files_changed\": 2}",
            json!({"filesChanged": 2}),
            log(
                "/filesChanged",
                KeyCase,
                Some(json!("files_changed")),
                Some(json!("filesChanged")),
            ),
        ),
        (
            json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false}),
            "{\"a\": 1, \"b\": 2}",
            json!({"a": 1}),
            log("/b", DropUnknownKey, Some(json!(2)), None),
        ),
        (
            json!({"type": "object", "properties": {"a": {}, "n": {"default": 0}}}),
            "{\"a\": 1}",
            json!({"a": 1, "n": 0}),
            log("/n", Default, None, Some(json!(0))),
        ),
    ];
    for (schema, text, value, entry) in cases {
        let aligned = align(text, &schema, Preset::Standard);
        assert_eq!(aligned.value, value, "{text:?}");
        assert!(aligned.valid, "{text:?}: {:?}", aligned.errors);
        assert_eq!(aligned.coercions.last(), Some(&entry), "{text:?}");
    }
}

#[test]
fn unknown_keys_stay_when_the_schema_allows_them() {
    let schema = json!({"type": "object", "properties": {"a": {}}});
    let aligned = align("{\"a\": 1, \"b\": 2}", &schema, Preset::Standard);
    assert_eq!(aligned.value, json!({"a": 1, "b": 2}));
    assert_eq!(aligned.coercions, []);
}

#[test]
fn an_ambiguous_enum_is_an_error_listing_the_candidates() {
    let schema =
        json!({"type": "object", "properties": {"level": {"enum": ["high", "higher", "low"]}}});
    let err = Registry::new()
        .find_json_as(
            "{\"level\": \"hi\"}",
            Target::Schema(&schema),
            Preset::Standard,
        )
        .unwrap_err();
    assert_eq!(
        err,
        AlignError::AmbiguousEnum {
            pointer: "/level".to_owned(),
            value: "hi".to_owned(),
            candidates: vec!["high".to_owned(), "higher".to_owned()],
        }
    );
    assert_eq!(
        err.to_string(),
        "`hi` at `/level` could be any of high, higher"
    );
    // An exact normalised match is not ambiguous, even when it prefixes another.
    let aligned = align("{\"level\": \"HIGH\"}", &schema, Preset::Standard);
    assert_eq!(aligned.value, json!({"level": "high"}));
}

#[test]
fn presets() {
    let schema = json!({
        "type": "object",
        "properties": {
            "score": {"type": "integer"},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 5}}
        },
        "required": ["score"]
    });
    let text = "{\"score\": \"7\", \"tags\": [\"ok\", \"far too long\", \"fine\"]}";
    // strict: repairs only, the value as written, with its violations.
    let strict = align(text, &schema, Preset::Strict);
    assert_eq!((strict.preset, strict.valid), (Preset::Strict, false));
    assert_eq!(strict.coercions, []);
    assert_eq!(
        strict
            .errors
            .iter()
            .map(|e| e.pointer.as_str())
            .collect::<Vec<_>>(),
        ["/score", "/tags/1"]
    );
    // standard: the score is coerced; the long tag still violates.
    let standard = align(text, &schema, Preset::Standard);
    assert_eq!(standard.value["score"], json!(7));
    assert_eq!(standard.errors.len(), 1);
    assert!(standard.dropped.is_empty());
    // salvage: the long tag goes, and the report says so.
    let salvage = align(text, &schema, Preset::Salvage);
    assert!(salvage.valid);
    assert_eq!(salvage.value, json!({"score": 7, "tags": ["ok", "fine"]}));
    assert_eq!(salvage.dropped.len(), 1);
    assert_eq!(
        (
            salvage.dropped[0].pointer.as_str(),
            &salvage.dropped[0].value
        ),
        ("/tags/1", &json!("far too long"))
    );
    // A required property is never dropped.
    let bad = align("{\"score\": \"many\"}", &schema, Preset::Salvage);
    assert!(!bad.valid);
    assert_eq!(bad.value, json!({"score": "many"}));
}

#[test]
fn the_candidate_that_fits_wins() {
    let schema = json!({
        "type": "object",
        "properties": {"verdict": {"enum": ["pass", "fail"]}},
        "required": ["verdict"]
    });
    // The first fence is an example of the input, the prose holds the answer.
    let text = "Input was:\n```json\n{\"files\": [\"a.rs\"]}\n```\nResult: {\"verdict\": \"PASS\"}";
    let aligned = align(text, &schema, Preset::Standard);
    assert_eq!(aligned.value, json!({"verdict": "pass"}));
    assert_eq!(
        (aligned.candidate, aligned.source),
        (CandidateKind::Json, Some(JsonSource::Prose))
    );
    assert_eq!(aligned.candidates, 2);
    assert_eq!(&text[aligned.start..aligned.end], "{\"verdict\": \"PASS\"}");
    // Between two that fit, the cheaper: no repair beats a repaired one.
    let text = "{verdict: 'fail',}\n\n```json\n{\"verdict\": \"pass\"}\n```";
    assert_eq!(
        align(text, &schema, Preset::Standard).value,
        json!({"verdict": "pass"})
    );
}

#[test]
fn a_string_schema_takes_the_whole_answer() {
    let schema = json!({"type": "string", "minLength": 3});
    let aligned = align("  A plain answer.\n", &schema, Preset::Standard);
    assert_eq!(aligned.value, json!("A plain answer."));
    assert_eq!(aligned.candidate, CandidateKind::RawAnswer);
}

#[test]
fn a_markdown_answer_becomes_the_object_its_headings_name() {
    let schema = json!({
        "type": "object",
        "properties": {
            "summary": {"type": "string"},
            "riskLevel": {"enum": ["low", "medium", "high"]},
            "filesChanged": {"type": "integer"},
            "steps": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["summary", "riskLevel"]
    });
    let text = "## Summary\nAll good.\n\n## Risk level\nMedium\n\n## Files changed\n3\n\n## Steps\n- build\n- test\n";
    let aligned = align(text, &schema, Preset::Standard);
    assert!(aligned.valid, "{:?}", aligned.errors);
    assert_eq!(aligned.candidate, CandidateKind::MarkdownSections);
    assert_eq!(
        aligned.value,
        json!({"summary": "All good.", "riskLevel": "medium", "filesChanged": 3, "steps": ["build", "test"]})
    );
    // With a spec as the target, its own sections are read.
    let spec = flexmd_ofs::parse_spec("- Answer — prose\n- Risks — list\n").value;
    let aligned = Registry::new()
        .find_json_as(
            "## Answer\nYes.\n\n## Risks\n- none really\n",
            Target::Spec(&spec),
            Preset::Standard,
        )
        .unwrap();
    assert_eq!(
        aligned.value,
        json!({"Answer": "Yes.", "Risks": ["none really"]})
    );
    // A section written `None` is `null`, as the spec's JSON says.
    let aligned = Registry::new()
        .find_json_as(
            "## Answer\nYes.\n\n## Risks\nNone\n",
            Target::Spec(&spec),
            Preset::Standard,
        )
        .unwrap();
    assert!(aligned.valid, "{:?}", aligned.errors);
    assert_eq!(aligned.value, json!({"Answer": "Yes.", "Risks": null}));
}

#[test]
fn named_schemas_and_missing_candidates() {
    let registry = Registry::new();
    let answer = "```json\n{\"approved\": \"yes\", \"issues\": [], \"summary\": {\"critical\": 0, \"high\": 0, \"medium\": \"1\", \"low\": 0, \"info\": 0}, \"recommendation\": \"Approve\"}\n```";
    let aligned = registry
        .find_json_as(answer, Target::Named("review"), Preset::Standard)
        .unwrap();
    assert!(aligned.valid, "{:?}", aligned.errors);
    assert_eq!(aligned.value["approved"], json!(true));
    assert_eq!(aligned.value["recommendation"], json!("approve"));
    assert!(matches!(
        registry.find_json_as("x", Target::Named("nope"), Preset::Standard),
        Err(AlignError::Schema(_))
    ));
    let object = json!({"type": "object"});
    assert_eq!(
        registry.find_json_as("No JSON here.", Target::Schema(&object), Preset::Standard),
        Err(AlignError::NoCandidate)
    );
}
