//! FlexMD frames to JSON and back: a transcript read into a FlexDocument,
//! then written in the canonical layout.
//!
//! Run it with `cargo run -p flexmd-frames --example round_trip`.

use flexmd_frames::{ParseOptions, StringifyOptions, parse, stringify};

/// A transcript with a tool result bound as a JSON payload.
const TRANSCRIPT: &str = "\
[[message role=user id=m1]] Weather
Will it rain in Oslo?

[[tool name=forecast id=t1]]
@payload:name: result
```json
{\"city\": \"Oslo\", \"rain\": 0.8}
```
";

/// What the example prints: the JSON, then the FlexMD written back.
pub(crate) fn run() -> String {
    let parsed = parse(TRANSCRIPT, &ParseOptions::default());
    let json = serde_json::to_string_pretty(&parsed.value).unwrap_or_default();
    let written = stringify(&parsed.value, &StringifyOptions::default());
    format!("{json}\n--- written back ---\n{written}")
}

#[allow(clippy::print_stdout, reason = "an example prints its result")]
fn main() {
    println!("{}", run());
}
