//! `flexmd_frames::parse` on a ~5 MB FlexMD transcript, beside pulldown-cmark's
//! bare event iteration over the same text (the parse reads it once to find
//! code blocks, then scans lines).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn frames_parse(c: &mut Criterion) {
    let text = flexmd_benches::frames_document(5 * 1024 * 1024);
    let options = flexmd_frames::ParseOptions::default();
    let mut group = c.benchmark_group("frames_parse/transcript_5mb");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(20);
    group.bench_function("pulldown_cmark_events", |b| {
        b.iter(|| flexmd_benches::pulldown_floor(black_box(&text)))
    });
    group.bench_function("parse", |b| {
        b.iter(|| flexmd_frames::parse(black_box(&text), &options))
    });
    group.finish();
}

criterion_group!(benches, frames_parse);
criterion_main!(benches);
