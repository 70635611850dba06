//! The example program `cargo run -p flexmd-schema --example validate_answer` prints what
//! its doc comment promises.

#[allow(dead_code, reason = "main is the example's, not the test's")]
#[path = "../examples/validate_answer.rs"]
mod validate_answer;

use pretty_assertions::assert_eq;

#[test]
fn the_validate_answer_example_prints_its_result() {
    assert_eq!(
        validate_answer::run(),
        "valid: true\n  Default tags: []\n  Coerced priority: 4\n  Coerced done: false\n  data: {\"title\":\"Fix login\",\"priority\":4,\"done\":false,\"tags\":[]}\nvalid: false\n  Default tags: []\n  error at line 1: Missing required field: done\n  hint: Fix done: Missing required field: done. Add `done` (boolean).\n  error at line 2: Number must be <= 5\n  hint: Fix priority: Number must be <= 5. Keep it >= 1 and <= 5.\n"
    );
}
