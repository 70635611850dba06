//! Any JSON found in the text against each predefined schema, with
//! coercion and defaults, and schema-aligned parsing: never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fuzz_target!(|text: &str| {
    static REGISTRY: OnceLock<flexmd_schema::Registry> = OnceLock::new();
    let registry = REGISTRY.get_or_init(flexmd_schema::Registry::new);
    let options = flexmd_schema::TransformOptions { coerce: true, apply_defaults: true };
    if let Some(found) = flexmd_detect::find_json(text) {
        for name in ["analysis", "implementation", "review", "verification", "plan"] {
            let _ = registry.validate_and_transform(name, &found.value, options);
        }
    }
    let _ = registry.find_json_as(
        text,
        flexmd_schema::Target::Named("review"),
        flexmd_schema::Preset::Salvage,
    );
});
