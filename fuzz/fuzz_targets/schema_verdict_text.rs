//! The verdict from JSON text (`Registry::is_valid_json`, which reads the
//! text without building a value when the schema allows) against parsing
//! the text with `serde_json` and judging the value: the same verdict, and
//! an error exactly when `serde_json` refuses the text. A difference
//! panics.

#![no_main]

use flexmd_schema::Registry;
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use std::sync::OnceLock;

/// The predefined schemas, and small ones in every keyword the fast
/// verdict covers.
fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut registry = Registry::new();
        let schemas = [
            json!({"type": "object", "properties": {"a": {"type": "integer", "minimum": 0, "maximum": 9},
                "b": {"type": ["string", "null"], "minLength": 1, "maxLength": 2}},
                "required": ["a"], "additionalProperties": false}),
            json!({"type": "array", "items": {"enum": ["x", 3, null, true, 1.5]}, "minItems": 1, "maxItems": 3}),
            json!({"minProperties": 1, "maxProperties": 2, "additionalProperties": {"exclusiveMinimum": 0}}),
            json!({"const": "é\n", "maxLength": 2}),
        ];
        for (i, schema) in schemas.into_iter().enumerate() {
            let _ = registry.register(&format!("s{i}"), schema);
        }
        registry
    })
}

fuzz_target!(|text: &str| {
    let registry = registry();
    let parsed = serde_json::from_str::<Value>(text);
    let names: Vec<String> = registry.names().map(str::to_owned).collect();
    for name in &names {
        match (registry.is_valid_json(name, text), &parsed) {
            (Ok(verdict), Ok(value)) => {
                assert_eq!(verdict, registry.is_valid(name, value), "{name}: {text:?}");
            }
            (Err(flexmd_schema::SchemaError::InvalidJson { .. }), Err(_)) => {}
            (got, parsed) => panic!("{name}: {text:?}: {got:?} but serde_json read {parsed:?}"),
        }
    }
});
