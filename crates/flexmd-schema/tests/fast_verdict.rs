//! The fast verdict (a schema in the common keywords, judged without the
//! jsonschema crate's general machinery, and from text without building a
//! value) agrees with the jsonschema crate on every value: near-valid
//! `review` answers with one thing wrong, and random values against
//! schemas with bounds, lengths and closed objects.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_schema::{Registry, SchemaError};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..12).prop_map(Value::from),
        prop::sample::select(vec![0.0, 1.0, -0.0, 2.5, 1e3, -1.5, 9.0]).prop_map(Value::from),
        Just(json!(u64::MAX)),
        Just(json!(i64::MIN)),
        prop::sample::select(vec![
            "",
            "a",
            "ab",
            "abcdefghijklmno",
            "é",
            "éé",
            "🙂🙂",
            "line\nbreak",
            "quote\"",
            "\\",
            "low",
            "bug",
            "approve",
            "critical",
            "true",
            "3",
        ])
        .prop_map(|s| Value::String(s.to_owned())),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(vec!["a", "b", "n", "tags", "x", "é", "low", "file"]),
                    inner
                ),
                0..5
            )
            .prop_map(|kv| Value::Object(
                kv.into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect::<Map<_, _>>()
            )),
        ]
    })
}

/// One of `good`, or (one time in thirty) any value.
fn mostly(good: Vec<Value>) -> impl Strategy<Value = Value> {
    prop_oneof![29 => prop::sample::select(good), 1 => leaf()]
}

fn issue() -> impl Strategy<Value = Value> {
    (
        mostly(vec![
            json!("high"),
            json!("info"),
            json!("low"),
            json!("fatal"),
        ]),
        mostly(vec![json!("bug"), json!("style")]),
        mostly(vec![json!("src/a.rs")]),
        mostly(vec![json!("a message")]),
        prop::option::of(mostly(vec![json!(12), json!(1.5)])),
        prop::option::of(mostly(vec![json!(true)])),
        any::<bool>(),
    )
        .prop_map(
            |(severity, kind, file, message, line, fixable, drop_file)| {
                let mut issue =
                    json!({"severity": severity, "type": kind, "file": file, "message": message});
                if let Some(line) = line {
                    issue["line"] = line;
                }
                if let Some(fixable) = fixable {
                    issue["autoFixable"] = fixable;
                }
                if drop_file {
                    issue.as_object_mut().unwrap().shift_remove("file");
                }
                issue
            },
        )
}

fn review() -> impl Strategy<Value = Value> {
    let count = || {
        mostly(vec![
            json!(0),
            json!(3),
            json!(2.0),
            json!(1),
            json!(5),
            json!(0),
            json!(4),
            json!(2),
            json!(-1),
            json!(0.5),
        ])
    };
    (
        mostly(vec![json!(true), json!(false)]),
        prop::collection::vec(issue(), 0..3),
        (count(), count(), count(), count(), count()),
        mostly(vec![
            json!("approve"),
            json!("needs_discussion"),
            json!("merge"),
        ]),
        prop::option::weighted(
            0.1,
            prop::sample::select(vec!["approved", "summary", "issues"]),
        ),
        prop::option::weighted(0.2, leaf()),
    )
        .prop_map(
            |(approved, issues, (c, h, m, l, i), recommendation, drop, extra)| {
                let mut review = json!({
                    "approved": approved,
                    "issues": issues,
                    "summary": {"critical": c, "high": h, "medium": m, "low": l, "info": i},
                    "recommendation": recommendation,
                });
                let map = review.as_object_mut().unwrap();
                if let Some(drop) = drop {
                    map.shift_remove(drop);
                }
                if let Some(extra) = extra {
                    map.insert("extra".to_owned(), extra);
                }
                review
            },
        )
}

/// Schemas in the keywords the fast verdict covers.
fn schemas() -> Vec<Value> {
    vec![
        json!({"type": "object", "properties": {"a": {"type": "integer", "minimum": 0, "maximum": 9},
            "b": {"type": ["string", "null"], "minLength": 1, "maxLength": 2}},
            "required": ["a"], "additionalProperties": false}),
        json!({"type": "array", "items": {"enum": ["low", "bug", 3, null, true]}, "minItems": 1, "maxItems": 3}),
        json!({"minProperties": 2, "maxProperties": 3, "additionalProperties": {"type": "number", "exclusiveMinimum": 0}}),
        json!({"properties": {"tags": {"type": "array", "items": {"type": "string", "maxLength": 1}}},
            "required": ["x", "tags"]}),
        json!({"const": 9, "type": "number"}),
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "items": {"exclusiveMaximum": 2.5}}),
        json!({"properties": {"n": false, "x": true}, "additionalProperties": {"type": "object"}}),
    ]
}

/// The jsonschema crate's verdict, as the reference.
fn reference(schema: &Value, value: &Value) -> bool {
    jsonschema::validator_for(schema).unwrap().is_valid(value)
}

fn agree(
    registry: &Registry,
    name: &str,
    schema: &Value,
    value: &Value,
) -> Result<(), TestCaseError> {
    let expected = reference(schema, value);
    prop_assert_eq!(
        registry.is_valid(name, value),
        expected,
        "is_valid {} on {}",
        name,
        value
    );
    prop_assert_eq!(
        registry.validate(name, value).valid,
        expected,
        "validate {} on {}",
        name,
        value
    );
    for text in [
        serde_json::to_string(value).unwrap(),
        serde_json::to_string_pretty(value).unwrap(),
    ] {
        prop_assert_eq!(
            registry.is_valid_json(name, &text).unwrap(),
            expected,
            "is_valid_json {} on {}",
            name,
            text
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn review_answers_get_the_validators_verdict(answer in review()) {
        let registry = Registry::new();
        let schema = registry.get("review").unwrap().clone();
        agree(&registry, "review", &schema, &answer)?;
    }

    #[test]
    fn random_values_get_the_validators_verdict(value in value()) {
        let mut registry = Registry::empty();
        for (i, schema) in schemas().into_iter().enumerate() {
            let name = format!("s{i}");
            registry.register(&name, schema.clone()).unwrap();
            agree(&registry, &name, &schema, &value)?;
        }
    }

    #[test]
    fn any_text_gets_the_verdict_of_its_parse(text in "[{}\\[\\]\",: 0-9a-z.eE+\\-\\\\]{0,40}") {
        let registry = Registry::new();
        let parsed = serde_json::from_str::<Value>(&text);
        match (registry.is_valid_json("review", &text), parsed) {
            (Ok(valid), Ok(value)) => prop_assert_eq!(valid, registry.is_valid("review", &value)),
            (Err(SchemaError::InvalidJson { .. }), Err(_)) => {}
            (got, parsed) => prop_assert!(false, "{text:?}: {got:?} but serde_json read {parsed:?}"),
        }
    }
}

#[test]
fn the_review_answers_are_both_valid_and_invalid() {
    use proptest::strategy::ValueTree;
    let registry = Registry::new();
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let valid = (0..1000)
        .filter(|_| {
            let answer = review().new_tree(&mut runner).unwrap().current();
            registry.is_valid("review", &answer)
        })
        .count();
    assert!((50..950).contains(&valid), "{valid} of 1000 valid");
}

#[test]
fn an_unknown_schema_and_text_that_is_not_json_are_errors() {
    let registry = Registry::new();
    assert!(matches!(
        registry.is_valid_json("nope", "{}"),
        Err(SchemaError::NotFound { name, .. }) if name == "nope"
    ));
    let err = registry
        .is_valid_json("review", "{\"approved\": tru}")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the text is not JSON (line 1, column 17): expected ident"
    );
}
