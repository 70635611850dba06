//! The example program `cargo run -p flexmd-detect --example find_json` prints what
//! its doc comment promises.

#[allow(dead_code, reason = "main is the example's, not the test's")]
#[path = "../examples/find_json.rs"]
mod find_json;

use pretty_assertions::assert_eq;

#[test]
fn the_find_json_example_prints_its_result() {
    assert_eq!(
        find_json::run(),
        "{\"tool\":\"search\",\"args\":{\"query\":\"rust json\",\"limit\":5,\"safe\":true}}\nrepair python_literal at byte 131\nrepair unclosed_object at byte 137",
        "should skip the draft in <think>, fix True and close the cut object"
    );
}

#[allow(dead_code, reason = "main is the example's, not the test's")]
#[path = "../../../examples/streaming/stream_json.rs"]
mod stream_json;

#[test]
fn the_stream_json_example_grows_the_review_and_ends_as_find_json() {
    let out = stream_json::run();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines.first().copied(),
        Some(
            "chunk 25: {\"event\":\"update\",\"patches\":[{\"op\":\"add\",\"path\":\"\",\"value\":{}}],\
             \"done\":[],\"cursor\":{\"path\":\"\",\"state\":\"partial\"}}"
        ),
        "the draft in <think> and the prose are skipped"
    );
    // The escape `\u201c` arrives in pieces: nothing of it shows before it is whole.
    assert!(!out.contains("fallback to \\\\"), "{out}");
    assert!(
        out.contains("\"value\":\"No test covers the fallback to “last known\"}"),
        "{out}"
    );
    let end = lines.last().copied().unwrap_or_default();
    let end: serde_json::Value =
        serde_json::from_str(end.strip_prefix("end: ").unwrap_or_default()).unwrap_or_default();
    let whole: String = include_str!("../../../examples/streaming/review.chunks.jsonl")
        .lines()
        .filter_map(|l| {
            serde_json::from_str::<serde_json::Value>(l).ok()?["delta"]
                .as_str()
                .map(str::to_owned)
        })
        .collect();
    assert_eq!(
        end["value"],
        flexmd_detect::find_json(&whole).unwrap().value
    );
    assert_eq!(
        end["patches"],
        serde_json::json!([]),
        "everything was shown on the way"
    );
    assert_eq!(end["value"]["tags"][2], "😀 tests");
}
