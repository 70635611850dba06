//! Profiling aid: `prof_stream SIZE CHUNK [answer|json|check]` streams a
//! generated text of SIZE bytes in CHUNK-byte pieces (or, with `check`,
//! reads it once; with `none`, only makes the input), for `perf` or
//! `valgrind --tool=callgrind`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let size: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(1 << 20);
    let chunk: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(16);
    let mode = args.get(2).map_or("answer", String::as_str);
    let spec = flexmd_ofs::parse_spec(include_str!("../../examples/specs/answer.md")).value;
    let text = if mode == "json" {
        flexmd_benches::json_structured(size)
    } else {
        flexmd_benches::document(size)
    };
    let pieces: Vec<&str> = text
        .as_bytes()
        .chunks(chunk)
        .map(|c| std::str::from_utf8(c).unwrap_or_default())
        .collect();
    let mut events = 0usize;
    match mode {
        // Only the input: subtract it from the others.
        "none" => events += pieces.len(),
        "check" => {
            let (report, _) =
                flexmd_ofs::check(&text, &spec, &flexmd_ofs::ExtractOptions::default());
            events += report.errors.len();
        }
        "json" => {
            let mut stream = flexmd_detect::StreamingJson::new();
            for piece in &pieces {
                events += stream.push(piece).patches.len();
            }
            events += stream.finish().patches.len();
        }
        _ => {
            let mut stream = flexmd_ofs::StreamingExtractor::new(&spec);
            for piece in &pieces {
                events += stream.push(piece).len();
            }
            events += stream.finish().events.len();
        }
    }
    println!("{events} events");
}
