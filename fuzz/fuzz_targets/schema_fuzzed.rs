//! A fuzzed schema (any JSON the finder reads from the input) against small
//! fixed instances, validated, transformed and aligned: never a panic.

#![no_main]

use flexmd_schema::{Preset, Registry, Target, TransformOptions};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|text: &str| {
    let Some(found) = flexmd_detect::find_json(text) else {
        return;
    };
    let schema = found.value;
    let registry = Registry::new();
    let options = TransformOptions {
        coerce: true,
        apply_defaults: true,
    };
    for instance in [
        json!(null),
        json!({"a": "1", "b": [true, "x"], "c": {"d": null}}),
        json!(["3", 4.5, {"e": []}]),
        json!("yes"),
    ] {
        let _ = registry.validate_schema(&schema, &instance);
        if let Ok(outcome) = registry.validate_and_transform_schema(&schema, &instance, options) {
            let _ = flexmd_schema::hints(&outcome.errors, &schema);
        }
    }
    let _ = registry.find_json_as(
        "Answer: {\"a\": \"2\", \"list\": [\"x\"]}",
        Target::Schema(&schema),
        Preset::Salvage,
    );
    let _ = flexmd_schema::infer_schema("fuzzed", &schema);
});
