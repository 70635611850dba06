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
