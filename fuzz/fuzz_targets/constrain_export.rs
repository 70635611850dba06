//! A fuzzed schema (any JSON the finder reads from the input) exported for
//! every provider, and fixed answers mapped there and back: never a panic,
//! never a hang (`$ref` copies are bounded); an export that succeeds is a
//! schema that compiles. (The exactness of the way back is a property test:
//! crates/flexmd-constrain/tests/round_trip.rs.)

#![no_main]

use flexmd_constrain::{Provider, export, from_provider, to_provider};
use flexmd_schema::Registry;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|text: &str| {
    let Some(found) = flexmd_detect::find_json(text) else {
        return;
    };
    let schema = found.value;
    let registry = Registry::new();
    let instances = [
        json!(null),
        json!({"a": "1", "b": [true, "x"], "c": {"d": null}}),
        json!({}),
        json!(["3", 4.5]),
    ];
    for provider in Provider::ALL {
        if let Ok(exported) = export(&schema, provider, "fuzzed") {
            assert!(
                registry.validate_schema(&exported.schema, &json!({})).is_ok(),
                "{provider}: the exported schema should compile: {}",
                exported.schema
            );
        }
        for instance in &instances {
            let sent = to_provider(&schema, provider, instance);
            let _ = from_provider(&schema, sent);
        }
    }
});
