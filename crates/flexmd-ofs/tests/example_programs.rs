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
