//! Hostile input: deep nesting, huge lines, pathological prose. Each case
//! must finish (in linear time) with an error or a bounded result, never a
//! panic or a stack overflow.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_detect::{
    JsonError, Leniency, detect_objects, find_all_json, find_json, parse_any, parse_json,
};

const DEEP: usize = 100_000;

#[test]
fn hundred_thousand_open_brackets() {
    let deep = "[".repeat(DEEP);
    for leniency in [Leniency::Json5, Leniency::Repair] {
        let err = parse_json(&deep, leniency).unwrap_err();
        assert!(
            matches!(err, JsonError::TooDeep { limit: 128, .. }),
            "{err:?}"
        );
        assert_eq!(err.offset(), 128);
    }
    assert_eq!(find_json(&deep), None);
    assert!(find_all_json(&format!("text {deep} text")).is_empty());
    assert!(find_all_json(&format!("```json\n{deep}\n```")).is_empty());
    assert!(detect_objects(&format!("```json\n{deep}\n```")).is_empty());
}

#[test]
fn deep_but_balanced_nesting_of_objects() {
    let deep = format!("{}1{}", "{\"a\":".repeat(DEEP), "}".repeat(DEEP));
    assert!(matches!(
        parse_json(&deep, Leniency::Repair),
        Err(JsonError::TooDeep { .. })
    ));
    assert!(find_all_json(&deep).is_empty());
    // A JSON5 comment with an apostrophe must not hide the depth from the guard.
    let hidden = format!("// it's deep\n{}", "[".repeat(DEEP));
    assert!(matches!(
        parse_json(&hidden, Leniency::Json5),
        Err(JsonError::TooDeep { .. })
    ));
}

#[test]
fn many_openers_in_prose_stay_linear() {
    // Each `[` inside a string starts a try that reads to the `x` at the end
    // and fails there: the work on failed tries is capped, so this is not
    // quadratic.
    let text = format!("{}x", "[\"[\", ".repeat(100_000));
    assert!(find_all_json(&text).is_empty());
    // Nested unclosed openers: too deep, and nothing inside is tried again.
    let text = "{\"k\": [1, 2, ".repeat(50_000);
    assert!(find_all_json(&text).is_empty());
    // A long flat array cut off at the end is read whole.
    let text = format!("[{}", "\"a\", ".repeat(500_000));
    let found = find_json(&text).unwrap();
    assert_eq!(found.value.as_array().unwrap().len(), 500_000);
    let text = "{ \"a\" x ".repeat(200_000);
    assert!(find_all_json(&text).is_empty());
}

#[test]
fn a_ten_megabyte_line() {
    let line = "x".repeat(10_000_000);
    assert!(find_all_json(&line).is_empty());
    assert!(detect_objects(&line).is_empty());
    let string = format!("{{\"s\": \"{line}\"}}");
    assert_eq!(
        find_json(&string).unwrap().value["s"]
            .as_str()
            .unwrap()
            .len(),
        10_000_000
    );
    let unclosed = format!("{{\"s\": \"{line}");
    let found = find_json(&unclosed).unwrap();
    assert_eq!(found.repairs.len(), 2);
}

#[test]
fn stray_quotes_everywhere() {
    let text = format!("{{\"a\": \"{}\"}}", "\" x ".repeat(100_000));
    let found = find_json(&text).unwrap();
    assert_eq!(found.repairs.len(), 100_000);
}

#[test]
fn many_flexmd_fences_with_nested_payload_fences() {
    let one = "```flexmd\n[[m]]\n@payload:name: p\n```json\n{}\n```\nbody\n```\n";
    let text = one.repeat(20_000);
    let parsed = parse_any(&text);
    assert_eq!(parsed.value.flex_docs.len(), 20_000);
    assert_eq!(
        parsed.value.flex_docs[19_999].frames[0].body_md.as_deref(),
        Some("body")
    );
    assert_eq!(
        parsed.diagnostics.len(),
        20_000,
        "one nested_fence warning each"
    );
}

#[test]
fn many_fences_and_anchors() {
    let text = "```flexmd\n[[m]]\n```\n[[a]]\n@k: v\n".repeat(20_000);
    let objects = detect_objects(&text);
    assert_eq!(objects.len(), 40_000);
    assert_eq!(parse_any(&text).value.flex_docs.len(), 40_000);
}

/// The shapes the repair parser looks ahead on, 2 MB of each (the units in
/// tests/fixtures/hostile_json.json, which the `find_json/hostile_10mb`
/// benchmark times at 10 MB): each finishes with the kind of value written
/// there, or nothing.
#[test]
fn look_ahead_shapes_are_bounded() {
    const SIZE: usize = 2 * 1024 * 1024;
    let shapes: serde_json::Value =
        serde_json::from_str(include_str!("fixtures/hostile_json.json")).unwrap();
    for shape in shapes.as_array().unwrap() {
        let (name, unit) = (
            shape["name"].as_str().unwrap(),
            shape["unit"].as_str().unwrap(),
        );
        let text = unit.repeat(SIZE / unit.len());
        let found = find_json(&text).map(|f| match f.value {
            serde_json::Value::String(_) => "string",
            serde_json::Value::Array(_) => "array",
            serde_json::Value::Object(_) => "object",
            _ => "scalar",
        });
        assert_eq!(found, shape["finds"].as_str(), "{name}");
    }
}
