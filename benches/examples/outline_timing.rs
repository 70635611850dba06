//! The `outline` row of `cargo xtask bench`: flexmd's validate + extract
//! (`flexmd_ofs::check` against the bundled spec) and outline
//! (`build_outline`) beside pulldown-cmark's bare event iteration (the
//! floor), on a 20 KB answer, a 1 MB and a 5 MB document
//! (`flexmd_benches::document`),
//! timed in this process: each operation repeated until a round takes 50 ms,
//! the median of RUNS rounds, the drop of each result counted.
//!
//! `cargo run --release -p flexmd-benches --example outline_timing -- [RUNS] [OUT_DIR]`
//!
//! With OUT_DIR, writes the three inputs there (`answer-20k.md`,
//! `document-1m.md`, `document-5m.md`) for the Node and Python peers. Prints one JSON line
//! per measure: `{"tool", "op", "input", "seconds_per_op"}`.

use std::time::Instant;

use serde_json::json;

/// Median seconds of `runs` rounds of `work`, each round repeating it until
/// it takes 50 ms or more.
fn time<T>(runs: usize, mut work: impl FnMut() -> T) -> f64 {
    drop(std::hint::black_box(work()));
    let mut reps = 1u32;
    loop {
        let start = Instant::now();
        for _ in 0..reps {
            drop(std::hint::black_box(work()));
        }
        if start.elapsed().as_secs_f64() >= 0.05 {
            break;
        }
        reps *= 2;
    }
    let mut samples: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            for _ in 0..reps {
                drop(std::hint::black_box(work()));
            }
            start.elapsed().as_secs_f64() / f64::from(reps)
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples.get(samples.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let out = args.next().map(std::path::PathBuf::from);
    let spec = flexmd_ofs::parse_spec(include_str!("../../examples/specs/answer.md")).value;
    let options = flexmd_ofs::ExtractOptions::default();
    for (name, file, bytes) in [
        ("20 KB answer", "answer-20k.md", 20_000),
        ("1 MB document", "document-1m.md", 1_000_000),
        ("5 MB document", "document-5m.md", 5_000_000),
    ] {
        let text = flexmd_benches::document(bytes);
        if let Some(out) = &out {
            std::fs::create_dir_all(out)?;
            std::fs::write(out.join(file), &text)?;
        }
        let print = |tool: &str, op: &str, seconds: f64| {
            println!(
                "{}",
                json!({"tool": tool, "op": op, "input": name, "file": file, "seconds_per_op": seconds})
            );
        };
        print(
            "flexmd check (validate + extract)",
            "check",
            time(runs, || flexmd_ofs::check(&text, &spec, &options)),
        );
        print(
            "flexmd build_outline",
            "outline",
            time(runs, || flexmd_core::build_outline(&text)),
        );
        print(
            "pulldown-cmark events (the floor)",
            "floor",
            time(runs, || flexmd_benches::pulldown_floor(&text)),
        );
    }
    Ok(())
}
