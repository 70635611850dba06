//! Reads the JSON in a model's answer while it streams in: a recorded token
//! stream (`review.chunks.jsonl`: a `<think>` draft, prose, then a JSON
//! fence cut mid-escape and mid-number) is replayed through a
//! `StreamingJson`, printing after each chunk that changes the value its
//! JSON Patch operations and where the reading is, then the final value.
//!
//! Run it with `cargo run -p flexmd-detect --example stream_json`.

use flexmd_detect::StreamingJson;

const CHUNKS: &str = include_str!("review.chunks.jsonl");

/// What the example prints: `chunk N: UPDATE_JSON` lines, then the
/// `finished` line.
pub(crate) fn run() -> String {
    let mut stream = StreamingJson::new();
    let mut out = String::new();
    for (n, line) in CHUNKS.lines().enumerate() {
        let delta = serde_json::from_str::<serde_json::Value>(line)
            .ok()
            .and_then(|v| v.get("delta")?.as_str().map(str::to_owned))
            .unwrap_or_default();
        let update = stream.push(&delta);
        if !update.is_empty() {
            let json = serde_json::to_string(&update).unwrap_or_default();
            out.push_str(&format!("chunk {}: {json}\n", n + 1));
        }
    }
    let end = stream.finish();
    out.push_str(&format!("end: {}\n", end.finished_event(false)));
    out
}

fn main() {
    print!("{}", run());
}
