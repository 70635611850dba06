//! `flexmd_ofs::check` (validate + extract in one read) against pulldown-cmark's
//! bare event iteration over the same answer (the floor).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn ofs(c: &mut Criterion) {
    let spec = flexmd_ofs::parse_spec(include_str!("../../examples/specs/answer.md")).value;
    let options = flexmd_ofs::ExtractOptions::default();
    for (name, size) in [
        ("answer_20kb", 20 * 1024),
        ("document_5mb", 5 * 1024 * 1024),
    ] {
        let md = flexmd_benches::document(size);
        let mut group = c.benchmark_group(format!("ofs/{name}"));
        group.throughput(Throughput::Bytes(md.len() as u64));
        if size > 1024 * 1024 {
            group.sample_size(20);
        }
        group.bench_function("pulldown_cmark_events", |b| {
            b.iter(|| flexmd_benches::pulldown_floor(black_box(&md)))
        });
        group.bench_function("validate_and_extract", |b| {
            b.iter(|| flexmd_ofs::check(black_box(&md), &spec, &options))
        });
        group.finish();
    }
}

criterion_group!(benches, ofs);
criterion_main!(benches);
