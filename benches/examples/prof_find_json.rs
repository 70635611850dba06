//! Profiling driver: `prof_find_json [CASES_JSONL] [ROUNDS] [--per-case]`
//! runs `find_json` over every llm-json conformance case ROUNDS times (for
//! `perf record` or callgrind); with `--per-case`, prints the cases where
//! it is slowest beside `llm_json::loads`, one JSON line each.
use std::time::Instant;

fn per_op(rounds: u32, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..rounds {
        f();
    }
    start.elapsed().as_secs_f64() / f64::from(rounds)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .cloned()
        .unwrap_or_else(|| "../shared/conformance/llm-json/cases.jsonl".to_owned());
    let rounds: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let inputs: Vec<String> = std::fs::read_to_string(&path)?
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).map(|c| {
                c.get("input")
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            })
        })
        .collect::<Result<_, _>>()?;
    if args.iter().any(|a| a == "--per-case") {
        let mut rows: Vec<(f64, f64, &String)> = inputs
            .iter()
            .map(|input| {
                let ours = per_op(rounds, || {
                    std::hint::black_box(flexmd_detect::find_json(input));
                });
                let peer = per_op(rounds, || {
                    std::hint::black_box(llm_json::loads(input, &Default::default()).ok());
                });
                (ours, peer, input)
            })
            .collect();
        let (ours, peer): (f64, f64) = rows.iter().fold((0.0, 0.0), |(a, b), r| (a + r.0, b + r.1));
        println!(
            "{}",
            serde_json::json!({"ours_total": ours, "peer_total": peer})
        );
        rows.sort_by(|a, b| (b.0 - b.1).total_cmp(&(a.0 - a.1)));
        for (ours, peer, input) in rows.iter().take(15) {
            let shown: String = input.chars().take(100).collect();
            println!(
                "{}",
                serde_json::json!({"ours_us": ours * 1e6, "peer_us": peer * 1e6, "len": input.len(), "input": shown})
            );
        }
        return Ok(());
    }
    let mut found = 0usize;
    for _ in 0..rounds {
        for input in &inputs {
            found += usize::from(flexmd_detect::find_json(input).is_some());
        }
    }
    println!("{found}");
    Ok(())
}
