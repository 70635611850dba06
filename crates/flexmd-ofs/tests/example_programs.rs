//! The example program `cargo run -p flexmd-ofs --example check_answer` prints what
//! its doc comment promises.

#[allow(dead_code, reason = "main is the example's, not the test's")]
#[path = "../examples/check_answer.rs"]
mod check_answer;

use pretty_assertions::assert_eq;

#[test]
fn the_check_answer_example_prints_its_result() {
    let out = check_answer::run();
    assert!(
        out.contains("- Ordered-list sections must use numbered items (nested allowed).\n"),
        "{out}"
    );
    assert!(
        out.contains("--- valid: true (warnings: lenient_heading:Short answer, lenient_numbering:Steps) ---\n"),
        "{out}"
    );
    let json = out.rsplit_once("---\n").map(|(_, j)| j).unwrap_or_default();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(json).unwrap_or_default(),
        serde_json::json!({
            "Short answer": "Yes, ship on Friday.",
            "Steps": ["Freeze the branch.", "Run the release checklist."],
            "Risks": null
        })
    );
}

#[allow(dead_code, reason = "main is the example's, not the test's")]
#[path = "../../../examples/streaming/stream_answer.rs"]
mod stream_answer;

#[test]
fn the_stream_answer_example_prints_events_as_the_chunks_settle_them() {
    let out = stream_answer::run();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines.first().copied(),
        Some("chunk 3: {\"event\":\"section_started\",\"name\":\"Short answer\",\"level\":2}"),
        "the section starts when its heading line is complete"
    );
    assert!(
        out.contains("chunk 100: {\"event\":\"list_item\",\"section\":\"Reasoning\",\"path\":\"/Reasoning/0\""),
        "the first item is sent once the second one starts: {out}"
    );
    assert!(
        out.contains(
            "--- stop the model and re-ask:\nThe section `Assumptions` of your answer does not follow the format: \
             `Assumptions` must be `-` bullet items or `None`.\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("\"event\":\"payload_completed\",\"name\":\"cache_config\""),
        "{out}"
    );
    assert_eq!(
        lines.last().copied(),
        Some("valid: false (errors: section_not_bullets:Assumptions)")
    );
}
