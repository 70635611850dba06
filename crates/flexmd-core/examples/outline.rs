//! The heading outline of a Markdown answer, as nested JSON, and rendered
//! back to Markdown.
//!
//! Run it with `cargo run -p flexmd-core --example outline`.

use flexmd_core::{build_outline, render_outline};

/// An answer with a setext heading and sub-sections.
const ANSWER: &str = "\
Intro text.

Plan
====
Ship in two steps.

## Step one
Freeze.

## Step two
Release.
";

/// What the example prints: the titles by level, then the rendering.
pub(crate) fn run() -> String {
    let outline = build_outline(ANSWER);
    let mut out = String::new();
    for node in &outline.nodes {
        out.push_str(&format!("{} {}\n", node.level, node.title));
        for child in &node.children {
            out.push_str(&format!("  {} {}\n", child.level, child.title));
        }
    }
    out.push_str("--- rendered ---\n");
    out.push_str(&render_outline(&outline));
    out
}

#[allow(clippy::print_stdout, reason = "an example prints its result")]
fn main() {
    println!("{}", run());
}
