//! A fuzzed schema (any JSON the finder reads from the input) exported for
//! every provider, and fixed answers mapped there and back, and written as
//! a grammar in every format: never a panic, never a hang (`$ref` copies
//! and grammar sizes are bounded); an export that succeeds is a schema that
//! compiles, a grammar that succeeds is not empty. (The exactness of the way back is a property test:
//! crates/flexmd-constrain/tests/round_trip.rs.)

#![no_main]

use flexmd_constrain::{GrammarFormat, Provider, export, from_provider, schema_grammar, to_provider};
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
    for format in GrammarFormat::ALL {
        if let Ok(grammar) = schema_grammar(&schema, format) {
            assert!(!grammar.grammar.is_empty(), "{format}: an empty grammar");
        }
    }
});
