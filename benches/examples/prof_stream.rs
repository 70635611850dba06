//! Profiling aid: `prof_stream SIZE CHUNK [answer|json|check|none|ratio] [RUNS] [dense|long]`
//! streams a generated text of SIZE bytes in CHUNK-byte pieces (or, with
//! `check`, reads it once; with `none`, only makes the input), RUNS times in
//! one process, for `perf` or `valgrind --tool=callgrind`. The answer is
//! `flexmd_benches::document` (`dense`, a heading every 180 bytes) or
//! `long_sections_document` (`long`, a heading every 1–2 KB). `ratio` runs one
//! `check` and one stream of the answer back to back per run and prints the
//! ratio of each pair and their median: on a machine whose speed drifts,
//! pairs measured seconds apart compare better than separate runs.

use std::time::{Duration, Instant};

fn stream_answer(spec: &flexmd_ofs::OutputFormatSpec, pieces: &[&str]) -> (Duration, usize) {
    let start = Instant::now();
    let mut events = 0usize;
    let mut stream = flexmd_ofs::StreamingExtractor::new(spec);
    for piece in pieces {
        events += stream.push(piece).len();
    }
    let end = stream.finish();
    events += end.events.len();
    // Dropped inside the timing, as criterion's `iter` drops its output.
    drop(end);
    (start.elapsed(), events)
}

fn check_answer(spec: &flexmd_ofs::OutputFormatSpec, text: &str) -> (Duration, usize) {
    let start = Instant::now();
    let result = flexmd_ofs::check(text, spec, &flexmd_ofs::ExtractOptions::default());
    let errors = result.0.errors.len();
    // Dropped inside the timing, as the stream's result is.
    drop(result);
    (start.elapsed(), errors)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let size: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(1 << 20);
    let chunk: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(16);
    let mode = args.get(2).map_or("answer", String::as_str);
    let runs: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
    let spec = flexmd_ofs::parse_spec(include_str!("../../examples/specs/answer.md")).value;
    let text = if mode == "json" {
        flexmd_benches::json_structured(size)
    } else if args.get(4).is_some_and(|d| d == "long") {
        flexmd_benches::long_sections_document(size)
    } else {
        flexmd_benches::document(size)
    };
    let pieces: Vec<&str> = text
        .as_bytes()
        .chunks(chunk)
        .map(|c| std::str::from_utf8(c).unwrap_or_default())
        .collect();
    let mut events = 0usize;
    let mut ratios = Vec::new();
    let mut times = (Vec::new(), Vec::new());
    for _ in 0..runs {
        match mode {
            // Only the input: subtract it from the others.
            "none" => events += pieces.len(),
            "check" => {
                let (took, n) = check_answer(&spec, &text);
                eprintln!("check {took:?}");
                events += n;
            }
            "ratio" => {
                let (once, _) = check_answer(&spec, &text);
                let (streamed, n) = stream_answer(&spec, &pieces);
                events += n;
                let ratio = streamed.as_secs_f64() / once.as_secs_f64();
                eprintln!("check {once:?}, stream {streamed:?}, ratio {ratio:.2}");
                ratios.push(ratio);
                times.0.push(once);
                times.1.push(streamed);
            }
            "json" => {
                let mut stream = flexmd_detect::StreamingJson::new();
                for piece in &pieces {
                    events += stream.push(piece).patches.len();
                }
                events += stream.finish().patches.len();
            }
            _ => {
                let (took, n) = stream_answer(&spec, &pieces);
                eprintln!("stream {took:?}");
                events += n;
            }
        }
    }
    if !ratios.is_empty() {
        ratios.sort_by(f64::total_cmp);
        let median = ratios.get(ratios.len() / 2).copied().unwrap_or_default();
        times.0.sort();
        times.1.sort();
        let middle = |t: &[Duration]| t.get(t.len() / 2).copied().unwrap_or_default();
        eprintln!(
            "median ratio {median:.2} over {} pairs (medians: check {:?}, stream {:?})",
            ratios.len(),
            middle(&times.0),
            middle(&times.1)
        );
    }
    println!("{events} events");
}
