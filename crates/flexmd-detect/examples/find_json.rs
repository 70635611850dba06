//! The JSON in a model's answer: found in prose or a fence, repaired where
//! the model broke it, every repair reported.
//!
//! Run it with `cargo run -p flexmd-detect --example find_json`.

use flexmd_detect::find_json;

/// An answer that thinks out loud, then writes Python-flavoured JSON and is
/// cut off before the end.
const ANSWER: &str = "<think>Maybe {\"draft\": 1}?</think>
Here is the call:
```json
{'tool': 'search', 'args': {'query': \"rust json\", 'limit': 5, 'safe': True,}
";

/// What the example prints: the value, then each repair with its offset.
pub(crate) fn run() -> String {
    let Some(found) = find_json(ANSWER) else {
        return "no JSON found".to_owned();
    };
    let mut out = serde_json::to_string(&found.value).unwrap_or_default();
    for repair in &found.repairs {
        let kind = serde_json::to_value(repair.kind).unwrap_or_default();
        out.push_str(&format!(
            "\nrepair {} at byte {}",
            kind.as_str().unwrap_or("?"),
            repair.offset
        ));
    }
    out
}

#[allow(clippy::print_stdout, reason = "an example prints its result")]
fn main() {
    println!("{}", run());
}
