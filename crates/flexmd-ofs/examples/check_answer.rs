//! The main job: a spec tells the model what to write, the answer is
//! checked against it, and the sections come out as JSON.
//!
//! Run it with `cargo run -p flexmd-ofs --example check_answer`.

use flexmd_ofs::{ExtractOptions, check, prompt, read_spec, to_json};

/// The spec, as a person writes it.
const SPEC: &str = "\
Output format:
- Short answer — prose
- Steps — ordered list
- Risks — list
";

/// A model's answer, with a bold pseudo-heading and `1)` numbering.
const ANSWER: &str = "\
**Short answer:** Yes, ship on Friday.

## Steps
1) Freeze the branch.
2) Run the release checklist.

## Risks
None
";

/// What the example prints: the prompt, the verdict and the JSON.
pub(crate) fn run() -> String {
    let spec = match read_spec(SPEC) {
        Ok(parsed) => parsed.value,
        Err(e) => return format!("not a spec: {e}"),
    };
    let (report, extracted) = check(ANSWER, &spec, &ExtractOptions::default());
    let warnings: Vec<String> = report.warnings.iter().map(|w| w.id()).collect();
    let json = to_json(&extracted, &spec);
    format!(
        "--- prompt ---\n{}\n--- valid: {} (warnings: {}) ---\n{}",
        prompt(&spec),
        report.ok,
        warnings.join(", "),
        serde_json::to_string_pretty(&json).unwrap_or_default()
    )
}

#[allow(clippy::print_stdout, reason = "an example prints its result")]
fn main() {
    println!("{}", run());
}
