//! Agent output checked against a JSON Schema: strings coerced to the types
//! the schema wants, defaults filled in, and what still fails turned into
//! hints a model can act on.
//!
//! Run it with `cargo run -p flexmd-schema --example validate_answer`.

use flexmd_schema::{Registry, TransformOptions, hints};
use serde_json::json;

/// What the example prints: each change, each error with its place and
/// hint, and the data when valid.
pub(crate) fn run() -> String {
    let schema = json!({
        "type": "object",
        "required": ["title", "priority", "done"],
        "properties": {
            "title": {"type": "string"},
            "priority": {"type": "integer", "minimum": 1, "maximum": 5},
            "done": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}, "default": []}
        }
    });
    // Strings where the schema wants numbers and booleans: coerced.
    let fixable =
        "Sure:\n```json\n{\"title\": \"Fix login\", \"priority\": \"4\", \"done\": \"false\"}\n```";
    // A priority out of range: no coercion makes it valid, so hints.
    let broken = "{\"title\": \"Fix login\",\n \"priority\": 9}";
    let registry = Registry::new();
    let options = TransformOptions {
        coerce: true,
        apply_defaults: true,
    };
    let mut out = String::new();
    for answer in [fixable, broken] {
        let outcome = match registry.validate_text(answer, &schema, options) {
            Ok(outcome) => outcome,
            Err(e) => return format!("bad schema: {e}"),
        };
        out.push_str(&format!("valid: {}\n", outcome.valid));
        for change in &outcome.changes {
            out.push_str(&format!(
                "  {:?} {}: {}\n",
                change.kind, change.path, change.to
            ));
        }
        for (error, hint) in outcome.errors.iter().zip(hints(&outcome.errors, &schema)) {
            out.push_str(&format!(
                "  error at line {}: {}\n  hint: {}\n",
                error.line.unwrap_or(0),
                error.message,
                hint.hint
            ));
        }
        if let Some(data) = &outcome.data {
            out.push_str(&format!("  data: {data}\n"));
        }
    }
    out
}

#[allow(clippy::print_stdout, reason = "an example prints its result")]
fn main() {
    println!("{}", run());
}
