//! flexmd's side of the partial-JSON comparison (benches/scripts/partial_json_peers.sh):
//! the same JSON text, the same chunks, the same timing loop as the Node
//! and Python peers.
//!
//! `stream_json_chunks write SIZE FILE` writes a structured answer of SIZE
//! bytes (`flexmd_benches::json_structured`); `stream_json_chunks time FILE
//! CHUNK RUNS` streams FILE in CHUNK-byte pieces RUNS times through
//! `StreamingJson` (a partial value after every piece, as the peers give)
//! and prints `{"tool": "flexmd StreamingJson", "ms": MEDIAN, "final_ok": …}`.

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["write", size, file] => {
            let size: usize = size.parse().unwrap_or(20_000);
            if let Err(e) = std::fs::write(file, flexmd_benches::json_structured(size)) {
                eprintln!("cannot write {file}: {e}");
                std::process::exit(2);
            }
        }
        ["time", file, chunk, runs] => {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            let chunk: usize = chunk.parse().unwrap_or(16);
            let runs: usize = runs.parse().unwrap_or(5);
            let mut times = Vec::with_capacity(runs);
            let mut final_ok = false;
            for _ in 0..runs {
                let start = Instant::now();
                let mut stream = flexmd_detect::StreamingJson::new();
                let mut at = 0;
                while at < text.len() {
                    let mut end = (at + chunk).min(text.len());
                    while !text.is_char_boundary(end) {
                        end += 1;
                    }
                    let update = stream.push(text.get(at..end).unwrap_or_default());
                    std::hint::black_box((&update, stream.value()));
                    at = end;
                }
                let end = stream.finish();
                times.push(start.elapsed().as_secs_f64() * 1000.0);
                let whole: Option<serde_json::Value> = serde_json::from_str(&text).ok();
                final_ok = end.found.map(|f| f.value) == whole;
            }
            times.sort_by(f64::total_cmp);
            let median = times.get(times.len() / 2).copied().unwrap_or_default();
            println!(
                "{{\"tool\": \"flexmd StreamingJson\", \"ms\": {median:.3}, \"final_ok\": {final_ok}}}"
            );
        }
        _ => {
            eprintln!("usage: stream_json_chunks write SIZE FILE | time FILE CHUNK RUNS");
            std::process::exit(2);
        }
    }
}
