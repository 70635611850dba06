//! Properties: an inferred schema accepts its example; transforming never
//! yields data the plain validation rejects; nothing panics.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_schema::{Registry, TransformOptions, infer_schema};
use proptest::prelude::*;
use serde_json::{Map, Value};

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        prop::sample::select(vec!["", "true", "12", "3.5", "low", "x", "approve"])
            .prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(vec![
                        "phases", "id", "name", "tasks", "summary", "files", "path", "purpose",
                        "approved", "issues", "severity", "passed", "tests", "total", "k",
                    ]),
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn an_inferred_schema_accepts_its_example(example in json_value()) {
        let schema = infer_schema("example", &example);
        let outcome = Registry::empty().validate_schema(&schema, &example).unwrap();
        prop_assert!(outcome.valid, "{schema} rejects {example}: {:?}", outcome.errors);
    }

    #[test]
    fn transformed_data_is_valid_data(value in json_value(), coerce in any::<bool>(), apply_defaults in any::<bool>()) {
        let registry = Registry::new();
        for name in ["analysis", "implementation", "review", "verification", "plan"] {
            let plain = registry.validate(name, &value);
            prop_assert_eq!(plain.valid, plain.errors.is_empty());
            let outcome = registry.validate_and_transform(name, &value, TransformOptions { coerce, apply_defaults });
            if let Some(data) = &outcome.data {
                prop_assert!(registry.validate(name, data).valid, "{name}: {data}");
            }
            if !coerce && !apply_defaults {
                prop_assert_eq!(&outcome, &plain);
            }
        }
    }

    #[test]
    fn an_owned_instance_gets_the_outcome_a_borrowed_one_gets(value in json_value()) {
        let registry = Registry::new();
        for name in ["analysis", "implementation", "review", "verification", "plan"] {
            let borrowed = registry.validate(name, &value);
            prop_assert_eq!(borrowed.data.is_some(), borrowed.valid);
            prop_assert_eq!(registry.validate_owned(name, value.clone()), borrowed);
        }
        let text = value.to_string();
        let schema = registry.get("review").unwrap().clone();
        let validator = registry.record_validator(&schema, TransformOptions::default()).unwrap();
        let from_text = validator.validate_text(&text);
        prop_assert_eq!(from_text.data.is_some(), from_text.valid);
        prop_assert_eq!(from_text.valid, registry.validate("review", &value).valid);
    }
}
