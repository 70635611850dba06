//! The `schema` row of `cargo xtask bench`: 100 000 `review` instances
//! (`flexmd_benches::review_instances`, one in ten invalid) validated one by
//! one, as values already parsed and as text (parse, then validate), timed
//! in this process: the median of RUNS rounds, per instance.
//!
//! `cargo run --release -p flexmd-benches --example schema_timing -- [RUNS] [OUT_DIR]`
//!
//! Prints one JSON line per measure: `{"tool", "op", "seconds_per_op",
//! "invalid"}`. With OUT_DIR, also writes the instances and the schema
//! there (`review_instances.json`, `review_schema.json`) for the Python and
//! Node peers.

use std::time::Instant;

use serde_json::{Value, json};

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times.get(times.len() / 2).copied().unwrap_or(f64::NAN)
}

/// The median of `runs` rounds of `round` (which returns how many were
/// invalid), per instance.
fn time(runs: usize, count: usize, mut round: impl FnMut() -> usize) -> (f64, usize) {
    let mut invalid = 0;
    let times = (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            invalid = std::hint::black_box(round());
            start.elapsed().as_secs_f64() / count as f64
        })
        .collect();
    (median(times), invalid)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let out = args.next().map(std::path::PathBuf::from);
    let instances = flexmd_benches::review_instances(100_000);
    let texts: Vec<String> = instances.iter().map(Value::to_string).collect();
    let registry = flexmd_schema::Registry::new();
    let schema = registry.get("review").ok_or("no review schema")?.clone();
    if let Some(out) = &out {
        std::fs::create_dir_all(out)?;
        std::fs::write(
            out.join("review_instances.json"),
            serde_json::to_string(&instances)?,
        )?;
        std::fs::write(
            out.join("review_schema.json"),
            serde_json::to_string_pretty(&schema)?,
        )?;
    }
    let bare = jsonschema::validator_for(&schema)?;
    let n = instances.len();
    let print = |tool: &str, op: &str, (seconds, invalid): (f64, usize)| {
        println!(
            "{}",
            json!({"tool": tool, "op": op, "seconds_per_op": seconds, "invalid": invalid})
        );
    };
    print(
        "flexmd Registry::is_valid",
        "values",
        time(runs, n, || {
            instances
                .iter()
                .filter(|i| !registry.is_valid("review", i))
                .count()
        }),
    );
    print(
        "flexmd Registry::validate",
        "values",
        time(runs, n, || {
            instances
                .iter()
                .filter(|i| !registry.validate("review", i).valid)
                .count()
        }),
    );
    print(
        "bare jsonschema (is_valid, then iter_errors)",
        "values",
        time(runs, n, || {
            instances
                .iter()
                .filter(|i| !bare.is_valid(i) && bare.iter_errors(i).count() > 0)
                .count()
        }),
    );
    print(
        "bare jsonschema is_valid",
        "values",
        time(runs, n, || {
            instances.iter().filter(|i| !bare.is_valid(i)).count()
        }),
    );
    // Text in, verdict out: parse, then judge.
    let from_text = |judge: &dyn Fn(&Value) -> bool| {
        texts
            .iter()
            .filter(|t| serde_json::from_str::<Value>(t).map_or(true, |v| !judge(&v)))
            .count()
    };
    print(
        "flexmd serde_json + Registry::is_valid",
        "text",
        time(runs, n, || from_text(&|v| registry.is_valid("review", v))),
    );
    print(
        "flexmd Registry::is_valid_json",
        "text",
        time(runs, n, || {
            texts
                .iter()
                .filter(|t| !registry.is_valid_json("review", t).unwrap_or(false))
                .count()
        }),
    );
    print(
        "flexmd serde_json + Registry::validate_owned",
        "text",
        time(runs, n, || {
            texts
                .iter()
                .filter(|t| {
                    serde_json::from_str::<Value>(t)
                        .map_or(true, |v| !registry.validate_owned("review", v).valid)
                })
                .count()
        }),
    );
    Ok(())
}
