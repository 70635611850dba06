//! Fixed JSONPath queries on fuzzed documents read as JSON, JSON5 and JSON
//! Lines: never a panic.

#![no_main]

use flexmd_artifact::{JsonFormat, MemoryReader, SpooledJsonArtifact};
use libfuzzer_sys::fuzz_target;

const QUERIES: &[&str] = &["$", "$..*", "$.a.b", "$[0]", "$[?@.x > 1]", "$..name", "$[-1:]"];

fuzz_target!(|text: &str| {
    for format in [
        None,
        Some(JsonFormat::Json),
        Some(JsonFormat::Json5),
        Some(JsonFormat::Jsonl),
    ] {
        let Ok(doc) = SpooledJsonArtifact::new(MemoryReader::new(text.to_owned()), format) else {
            continue;
        };
        let _ = doc.json_type();
        let _ = doc.json_keys();
        let _ = doc.json_length();
        for query in QUERIES {
            let _ = doc.json_get(query);
            let _ = doc.json_filter(query);
            let _ = doc.json_pluck(query);
        }
        let _ = doc.json_slice(Some(-3), None);
    }
});
