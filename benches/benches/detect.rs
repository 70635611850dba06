//! flexmd-detect, each beside a peer in the same run:
//!
//! - `find_json` on valid JSON (the whole text; and inside a fence with
//!   prose around it) beside bare `serde_json::from_str`: the overhead;
//! - `find_json` on the broken corpus (the 45 fixture answers of
//!   crates/flexmd-detect/tests/fixtures/json) beside `llm_json::loads`, a
//!   Rust port of Python's json_repair;
//! - `detect_objects`, `parse_any` and `find_all_json` on 5 MB of mixed model
//!   output beside pulldown-cmark's bare event iteration (the floor);
//! - `find_json` on 10 MB of each hostile shape beside `serde_json::from_str`
//!   on 10 MB of valid JSON.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn valid(c: &mut Criterion) {
    for (name, size) in [("2kb", 2 * 1024), ("1mb", 1024 * 1024)] {
        let json = flexmd_benches::json_records(size);
        let answer = format!("Here is the result:\n\n```json\n{json}\n```\n\nAnything else?\n");
        let mut group = c.benchmark_group(format!("find_json/valid_{name}"));
        group.throughput(Throughput::Bytes(json.len() as u64));
        group.bench_function("serde_json_from_str", |b| {
            b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(&json)))
        });
        group.bench_function("find_json", |b| {
            b.iter(|| flexmd_detect::find_json(black_box(&json)))
        });
        group.bench_function("find_json_in_fence", |b| {
            b.iter(|| flexmd_detect::find_json(black_box(&answer)))
        });
        group.finish();
    }
}

fn broken(c: &mut Criterion) {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/flexmd-detect/tests/fixtures/json"
    );
    let mut corpus: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "md"))
                .filter_map(|p| std::fs::read_to_string(p).ok())
                .collect()
        })
        .unwrap_or_default();
    corpus.sort();
    let bytes: usize = corpus.iter().map(String::len).sum();
    let mut group = c.benchmark_group("find_json/broken_corpus");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("llm_json_loads", |b| {
        b.iter(|| {
            corpus
                .iter()
                .filter(|t| llm_json::loads(black_box(t), &Default::default()).is_ok())
                .count()
        })
    });
    group.bench_function("find_json", |b| {
        b.iter(|| {
            corpus
                .iter()
                .filter(|t| flexmd_detect::find_json(black_box(t)).is_some())
                .count()
        })
    });
    group.finish();
}

fn mixed(c: &mut Criterion) {
    let text = flexmd_benches::mixed_document(5 * 1024 * 1024);
    let mut group = c.benchmark_group("detect/mixed_5mb");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(10);
    group.bench_function("pulldown_cmark_events", |b| {
        b.iter(|| flexmd_benches::pulldown_floor(black_box(&text)))
    });
    group.bench_function("detect_objects", |b| {
        b.iter(|| flexmd_detect::detect_objects(black_box(&text)))
    });
    group.bench_function("parse_any", |b| {
        b.iter(|| flexmd_detect::parse_any(black_box(&text)))
    });
    group.bench_function("find_all_json", |b| {
        b.iter(|| flexmd_detect::find_all_json(black_box(&text)))
    });
    group.finish();
}

/// 10 MB of each hostile shape (`flexmd_benches::hostile_json`) through
/// `find_json`, beside `serde_json::from_str` on 10 MB of valid JSON: serde
/// rejects the hostile bytes within microseconds, so the floor is what it
/// takes to read that many bytes when they are JSON.
fn hostile(c: &mut Criterion) {
    const SIZE: usize = 10 * 1024 * 1024;
    let valid = flexmd_benches::json_records(SIZE);
    let mut group = c.benchmark_group("find_json/hostile_10mb");
    group.throughput(Throughput::Bytes(SIZE as u64));
    group.sample_size(10);
    group.bench_function("serde_json_valid", |b| {
        b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(&valid)))
    });
    for (name, unit) in flexmd_benches::hostile_json() {
        let text = unit.repeat(SIZE / unit.len());
        group.bench_function(&name, |b| {
            b.iter(|| flexmd_detect::find_json(black_box(&text)))
        });
    }
    group.finish();
}

criterion_group!(benches, valid, broken, mixed, hostile);
criterion_main!(benches);
