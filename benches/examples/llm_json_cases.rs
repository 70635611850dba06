//! flexmd's `find_json` and `llm_json::loads` (a Rust port of Python's
//! json_repair) on the llm-json cases, scored and timed the same way as
//! benches/python/llm_json_peers.py: one JSON line each. Run by
//! benches/scripts/llm_json_peers.sh, or alone:
//! `cargo run --release -p flexmd-benches --example llm_json_cases -- CASES_JSONL`.
//! Then two lines for a valid 1 MB document (`flexmd_benches::json_records`):
//! `find_json` on it whole and in a fence with prose, beside a bare
//! `serde_json::from_str` (`valid_document`, `seconds`, `serde_json_seconds`).

use std::collections::BTreeMap;
use std::time::Instant;

use serde_json::{Value, json};

fn score(name: &str, cases: &[Value], run: impl Fn(&str) -> Option<Value>) -> Value {
    let mut by_kind: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut passed = 0;
    for case in cases {
        let input = case["input"].as_str().unwrap_or_default();
        // `"found": false` (no `expected`): nothing may be returned (an
        // empty string counts as nothing).
        let got = run(input);
        let ok = match case.get("expected") {
            Some(expected) => got.is_some_and(|v| flexmd_testkit::same_json(&v, expected)),
            None => got.is_none_or(|v| v == Value::String(String::new())),
        };
        let kind = case["category"].as_str().unwrap_or_default();
        let entry = by_kind
            .entry(kind.trim_start_matches("json/").to_owned())
            .or_default();
        entry.0 += usize::from(ok);
        entry.1 += 1;
        passed += usize::from(ok);
    }
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = Instant::now();
        for case in cases {
            std::hint::black_box(run(case["input"].as_str().unwrap_or_default()));
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    json!({
        "name": name,
        "passed": passed,
        "total": cases.len(),
        "by_kind": by_kind.into_iter().map(|(k, (p, t))| (k, json!([p, t]))).collect::<serde_json::Map<_, _>>(),
        "seconds_per_case": best / cases.len() as f64,
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/conformance/llm-json/cases.jsonl".to_owned());
    let cases: Vec<Value> = std::fs::read_to_string(&path)?
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?;
    println!(
        "{}",
        score("flexmd find_json", &cases, |t| flexmd_detect::find_json(t)
            .map(|f| f.value))
    );
    println!(
        "{}",
        score("llm_json 1.0.3 (Rust)", &cases, |t| llm_json::loads(
            t,
            &Default::default()
        )
        .ok())
    );
    // Valid JSON: what finding costs over a bare parse, on a 1 MB answer
    // that is one value, and on the same value in a fence with prose.
    let whole = flexmd_benches::json_records(1 << 20);
    let fenced = format!("Here are the records:\n\n```json\n{whole}\n```\n\nThat is all.");
    let best = |f: &dyn Fn() -> bool| {
        (0..7)
            .map(|_| {
                let start = Instant::now();
                assert!(std::hint::black_box(f()), "the value was not read");
                start.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let bare = best(&|| serde_json::from_str::<Value>(&whole).is_ok());
    for (name, text) in [
        ("flexmd find_json (1 MB valid, the whole text)", &whole),
        (
            "flexmd find_json (1 MB valid, in a fence with prose)",
            &fenced,
        ),
    ] {
        let ours = best(&|| flexmd_detect::find_json(text).is_some());
        println!(
            "{}",
            json!({"name": name, "valid_document": true, "seconds": ours, "serde_json_seconds": bare})
        );
    }
    Ok(())
}
