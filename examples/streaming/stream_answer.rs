//! Checks and extracts a model's answer while it streams in: a recorded
//! token stream (`answer.chunks.jsonl`, one `{"delta": …}` per chunk, cut
//! where a streaming API cuts) is replayed through a `StreamingExtractor`
//! against the bundled spec, and each event is printed as a JSON line as
//! soon as the chunk that settles it arrives. At the first violation it
//! prints the prompt that re-asks for that section only (a real client
//! would stop the model there).
//!
//! Run it with `cargo run -p flexmd-ofs --example stream_answer`.

use flexmd_ofs::{StreamEvent, StreamingExtractor, read_spec};

/// The bundled spec and the recorded stream.
const SPEC: &str = include_str!("../specs/answer.md");
const CHUNKS: &str = include_str!("answer.chunks.jsonl");

/// What the example prints: `chunk N: EVENT_JSON` lines, the correction
/// prompt after the first violation, and the final verdict.
pub(crate) fn run() -> String {
    let spec = match read_spec(SPEC) {
        Ok(parsed) => parsed.value,
        Err(e) => return format!("the bundled spec does not read: {e}"),
    };
    let mut stream = StreamingExtractor::new(&spec);
    let mut out = String::new();
    let mut corrected = false;
    let mut print =
        |n: &str, event: &StreamEvent, stream: &StreamingExtractor, out: &mut String| {
            let json = serde_json::to_string(event).unwrap_or_default();
            out.push_str(&format!("chunk {n}: {json}\n"));
            if let (StreamEvent::Violation(issue), false) = (event, corrected) {
                corrected = true;
                let prompt = stream.correction(issue).unwrap_or_default();
                out.push_str(&format!("--- stop the model and re-ask:\n{prompt}---\n"));
            }
        };
    for (n, line) in CHUNKS.lines().enumerate() {
        let delta = serde_json::from_str::<serde_json::Value>(line)
            .ok()
            .and_then(|v| v.get("delta")?.as_str().map(str::to_owned))
            .unwrap_or_default();
        let events: Vec<StreamEvent> = stream.push(&delta).collect();
        for event in events {
            print(&(n + 1).to_string(), &event, &stream, &mut out);
        }
    }
    let end = stream.finish();
    for event in &end.events {
        // The stream has ended: `finish` owns the extractor now.
        let json = serde_json::to_string(event).unwrap_or_default();
        out.push_str(&format!("end: {json}\n"));
    }
    let ids: Vec<String> = end.report.errors.iter().map(|e| e.id()).collect();
    out.push_str(&format!(
        "valid: {} (errors: {})\n",
        end.report.ok,
        ids.join(", ")
    ));
    out
}

fn main() {
    print!("{}", run());
}
