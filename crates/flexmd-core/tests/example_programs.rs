//! The example program `cargo run -p flexmd-core --example outline` prints what
//! its doc comment promises.

#[allow(dead_code, reason = "main is the example's, not the test's")]
#[path = "../examples/outline.rs"]
mod outline;

use pretty_assertions::assert_eq;

#[test]
fn the_outline_example_prints_its_result() {
    assert_eq!(
        outline::run(),
        "1 Plan\n  2 Step one\n  2 Step two\n--- rendered ---\nIntro text.\n\n# Plan\nShip in two steps.\n\n## Step one\nFreeze.\n\n## Step two\nRelease.\n",
        "should nest the ## sections under the setext heading and render it as #"
    );
}
