//! Numbered regressions: each input once blew up time or memory, reached
//! from an agent's output. Each fails on the code before its fix
//! (docs/reliability.md records cause, fix and figures).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_schema::{MAX_ERRORS, Registry, TransformOptions};
use serde_json::{Value, json};

/// 1. Every violation was kept: a 50 MB instance with 2.4 million errors
///    peaked at 2.9 GB (and ran out of memory with coercion and hints).
///    The outcome now lists the first 100 and counts the rest.
#[test]
fn r001_violations_are_capped_and_counted() {
    let schema = json!({"type": "array", "items": {"type": "integer"}});
    let instance = Value::Array(vec![json!("x"); 90_000]);
    let registry = Registry::new();
    let outcome = registry.validate_schema(&schema, &instance).unwrap();
    assert_eq!(outcome.errors.len(), MAX_ERRORS);
    assert_eq!(outcome.errors_total, Some(90_000));
    let json = serde_json::to_value(&outcome).unwrap();
    assert_eq!(json["errorsTotal"], json!(90_000));
    // With coercion on, nothing here can be coerced; the outcome is the same.
    let options = TransformOptions {
        coerce: true,
        apply_defaults: true,
    };
    let outcome = registry
        .validate_and_transform_schema(&schema, &instance, options)
        .unwrap();
    assert_eq!(
        (outcome.errors.len(), outcome.errors_total),
        (MAX_ERRORS, Some(90_000))
    );
    // Under the cap, no total is added (the seed's shape).
    let few = registry
        .validate_schema(&schema, &json!(["a", 1, "b"]))
        .unwrap();
    assert_eq!((few.errors.len(), few.errors_total), (2, None));
    assert!(
        serde_json::to_value(&few)
            .unwrap()
            .get("errorsTotal")
            .is_none()
    );
}

/// 2. Past 100 000 values the validator is asked for the first violation
///    only: it gathers all of them before listing any.
#[test]
fn r002_a_huge_instance_gets_its_first_violation() {
    let schema = json!({"type": "array", "items": {"type": "integer"}});
    let instance = Value::Array(vec![json!("x"); 300_000]);
    let outcome = Registry::new().validate_schema(&schema, &instance).unwrap();
    assert!(!outcome.valid);
    assert_eq!(outcome.errors.len(), 1);
    assert_eq!(outcome.errors[0].pointer, "/0");
    assert!(outcome.errors_limited);
    assert_eq!(
        serde_json::to_value(&outcome).unwrap()["errorsLimited"],
        json!(true)
    );
    let valid = Value::Array(vec![json!(1); 300_000]);
    assert!(
        Registry::new()
            .validate_schema(&schema, &valid)
            .unwrap()
            .valid
    );
}
