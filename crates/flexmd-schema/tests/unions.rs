//! Coercion, defaults and fitting through `anyOf`, `oneOf` and type lists:
//! the shapes Pydantic gives every `Optional[X]`, `X | None` and union
//! field. The fixture is `Person.model_json_schema()` as Pydantic 2 emits
//! it; the expected values are what Pydantic's own (lax) validation makes
//! of the same input.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_schema::{ChangeKind, CoercionRule, Preset, Registry, Target, TransformOptions};
use serde_json::{Value, json};

fn person() -> Value {
    let text = include_str!("fixtures/unions/pydantic_person.schema.json");
    serde_json::from_str(text).unwrap()
}

const BOTH: TransformOptions = TransformOptions {
    coerce: true,
    apply_defaults: true,
};

/// What `Person.model_validate(...)` gives for [`messy`] (its `model_dump`).
fn pydantic_result() -> Value {
    json!({"name": "Ann", "age": 212, "score": 4.5, "tags": ["a"],
        "address": {"street": "x", "zip": 1011, "country": "NL"},
        "active": true, "pet": {"kind": "dog", "good": true},
        "favourite": {"kind": "cat", "lives": 7}})
}

fn messy() -> Value {
    json!({"name": "Ann", "age": "212", "score": "4.5", "tags": ["a"],
        "address": {"street": "x", "zip": "1011"}, "active": "true",
        "pet": {"kind": "dog"}, "favourite": {"kind": "cat", "lives": "7"}})
}

#[test]
fn optional_fields_coerce_like_their_type() {
    let outcome = Registry::new()
        .validate_and_transform_schema(&person(), &messy(), BOTH)
        .unwrap();
    assert!(
        outcome.valid,
        "should coerce inside anyOf: {:?}",
        outcome.errors
    );
    assert_eq!(outcome.data.unwrap(), pydantic_result());
    let coerced: Vec<(&str, Option<&str>, &Value)> = outcome
        .changes
        .iter()
        .filter(|c| c.kind == ChangeKind::Coerced)
        .map(|c| (c.path.as_str(), c.branch.as_deref(), &c.to))
        .collect();
    assert_eq!(
        coerced,
        [
            ("age", Some("anyOf/0"), &json!(212)),
            ("score", Some("anyOf/0"), &json!(4.5)),
            ("address.zip", Some("anyOf/0"), &json!(1011)),
            ("active", Some("anyOf/0"), &json!(true)),
            ("favourite.lives", Some("oneOf/0"), &json!(7)),
        ],
        "each coercion should name the innermost branch it was made for"
    );
}

#[test]
fn defaults_come_from_the_branch_the_object_is_an_instance_of() {
    let outcome = Registry::new()
        .validate_and_transform_schema(
            &person(),
            &json!({"name": "Bo", "pet": {"kind": "dog"}, "address": {"street": "y"}}),
            TransformOptions {
                coerce: false,
                apply_defaults: true,
            },
        )
        .unwrap();
    assert!(outcome.valid, "{:?}", outcome.errors);
    let data = outcome.data.unwrap();
    assert_eq!(
        data["pet"],
        json!({"kind": "dog", "good": true}),
        "a dog gets Dog's defaults, not Cat's `lives`"
    );
    assert_eq!(
        data["address"],
        json!({"street": "y", "zip": null, "country": "NL"})
    );
    assert_eq!(data["age"], Value::Null, "the field's own default");
}

#[test]
fn a_union_no_branch_of_which_coercion_clears_keeps_its_errors() {
    let outcome = Registry::new()
        .validate_and_transform_schema(&person(), &json!({"name": "Cy", "age": "old"}), BOTH)
        .unwrap();
    assert!(!outcome.valid);
    assert_eq!(outcome.errors[0].code, "no_match_any_of");
    assert_eq!(outcome.errors[0].path, "age");
    assert!(!outcome.coerced);
}

#[test]
fn type_lists_and_the_branch_with_the_fewest_coercions() {
    let registry = Registry::new();
    let nullable = json!({"type": "object", "properties": {"n": {"type": ["integer", "null"]}}});
    let outcome = registry
        .validate_and_transform_schema(&nullable, &json!({"n": " 7 "}), BOTH)
        .unwrap();
    assert_eq!(outcome.data.unwrap(), json!({"n": 7}));

    // Branch 0 needs two coercions, branch 1 one: branch 1 wins.
    let schema = json!({"anyOf": [
        {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}},
        {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "boolean"}}}
    ]});
    let outcome = registry
        .validate_and_transform_schema(&schema, &json!({"a": "1", "b": "true"}), BOTH)
        .unwrap();
    assert!(outcome.valid, "{:?}", outcome.errors);
    assert_eq!(outcome.data.unwrap(), json!({"a": "1", "b": true}));
    assert_eq!(outcome.changes[0].branch.as_deref(), Some("anyOf/1"));

    // oneOf as well.
    let one_of = json!({"oneOf": [{"type": "integer"}, {"type": "null"}]});
    let outcome = registry
        .validate_and_transform_schema(&one_of, &json!("12"), BOTH)
        .unwrap();
    assert_eq!(outcome.data.unwrap(), json!(12));
    assert_eq!(outcome.changes[0].branch.as_deref(), Some("oneOf/0"));
}

#[test]
fn fitting_reaches_through_unions() {
    let answer = "Here you go:\n```json\n{\"Name\": \"Ann\", \"age\": \"212\", \"score\": \"4.5\", \
                  \"tags\": \"a\", \"address\": {\"street\": \"x\", \"zip\": \"1,011\"}, \
                  \"active\": \"yes\", \"pet\": {\"kind\": \"Dog\"}, \
                  \"favourite\": {\"kind\": \"cat\", \"lives\": 7.0}}\n```";
    let aligned = Registry::new()
        .find_json_as(answer, Target::Schema(&person()), Preset::Standard)
        .unwrap();
    assert!(aligned.valid, "{:?}", aligned.errors);
    assert_eq!(aligned.value, pydantic_result());
    let log: Vec<(&str, CoercionRule, Option<&str>)> = aligned
        .coercions
        .iter()
        .filter(|c| c.rule != CoercionRule::Default)
        .map(|c| (c.pointer.as_str(), c.rule, c.branch.as_deref()))
        .collect();
    assert_eq!(
        log,
        [
            ("/name", CoercionRule::KeyCase, None),
            ("/age", CoercionRule::NumberFromString, Some("anyOf/0")),
            ("/score", CoercionRule::NumberFromString, Some("anyOf/0")),
            ("/tags", CoercionRule::WrapInArray, Some("anyOf/0")),
            (
                "/address/zip",
                CoercionRule::NumberFromString,
                Some("anyOf/0")
            ),
            ("/active", CoercionRule::BooleanFromString, Some("anyOf/0")),
            ("/pet/kind", CoercionRule::EnumCase, Some("anyOf/1")),
            (
                "/favourite/lives",
                CoercionRule::IntegerFromFloat,
                Some("oneOf/0")
            ),
        ]
    );
}

#[test]
fn fitting_keeps_a_branch_that_fits_as_written() {
    // `"5"` fits the string branch with no change; the array branch would
    // need two (wrap, then a number).
    let schema = json!({"type": "object", "properties": {"v": {"anyOf": [
        {"type": "array", "items": {"type": "integer"}}, {"type": "string"}]}}});
    let aligned = Registry::new()
        .find_json_as(r#"{"v": "5"}"#, Target::Schema(&schema), Preset::Standard)
        .unwrap();
    assert_eq!(aligned.value, json!({"v": "5"}));
    assert!(aligned.coercions.is_empty(), "{:?}", aligned.coercions);
}

#[test]
fn optional_lists_read_from_markdown_sections_are_lists() {
    let answer = "## Name\nAnn\n\n## Tags\n- red\n- blue\n";
    let aligned = Registry::new()
        .find_json_as(answer, Target::Schema(&person()), Preset::Standard)
        .unwrap();
    assert_eq!(aligned.value["tags"], json!(["red", "blue"]));
    assert_eq!(aligned.value["name"], json!("Ann"));
}
