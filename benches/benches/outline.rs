//! `build_outline` against pulldown-cmark's bare event iteration on the same
//! input (the floor: the outline cannot be faster than the parse it reads).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn outline(c: &mut Criterion) {
    for (name, size) in [
        ("answer_20kb", 20 * 1024),
        ("document_5mb", 5 * 1024 * 1024),
    ] {
        let md = flexmd_benches::document(size);
        let mut group = c.benchmark_group(format!("outline/{name}"));
        group.throughput(Throughput::Bytes(md.len() as u64));
        if size > 1024 * 1024 {
            group.sample_size(20);
        }
        group.bench_function("pulldown_cmark_events", |b| {
            b.iter(|| flexmd_benches::pulldown_floor(black_box(&md)))
        });
        // The drop of the outline is timed too: the caller pays for it.
        group.bench_function("build_outline", |b| {
            b.iter(|| flexmd_core::build_outline(black_box(&md)))
        });
        group.finish();
    }
}

criterion_group!(benches, outline);
criterion_main!(benches);
