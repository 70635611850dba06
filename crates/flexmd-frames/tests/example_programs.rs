//! The example program `cargo run -p flexmd-frames --example round_trip` prints what
//! its doc comment promises.

#[allow(dead_code, reason = "main is the example's, not the test's")]
#[path = "../examples/round_trip.rs"]
mod round_trip;

use pretty_assertions::assert_eq;

#[test]
fn the_round_trip_example_prints_its_result() {
    let out = round_trip::run();
    let (json, written) = out
        .split_once("\n--- written back ---\n")
        .unwrap_or_default();
    let doc: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    assert_eq!(doc["frames"][1]["payloads"]["result"]["value"]["rain"], 0.8);
    assert_eq!(
        written,
        "[[message role=user id=m1]] Weather\n\nWill it rain in Oslo?\n\n[[tool id=t1]]\n@name: forecast\n@payload:name: result\n```json\n{\"city\": \"Oslo\", \"rain\": 0.8}\n```\n",
        "should write the canonical layout"
    );
}
