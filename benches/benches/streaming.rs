//! Streaming against one batch read of the same text: an answer pushed in
//! 16-byte chunks through `StreamingExtractor` (then finished) against one
//! `flexmd_ofs::check`, and `StreamingJson` against one `find_json`; and the
//! cost of a chunk as the text grows from 1 KB to 1 MB (flat when the pass
//! is linear, growing with the text when a stream re-reads what it has).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

/// The chunk size of the streams: a token or a few, as APIs send them.
const CHUNK: usize = 16;

/// `text` cut into pieces of about `size` bytes, at character boundaries.
fn chunks(text: &str, size: usize) -> Vec<&str> {
    let mut out = Vec::with_capacity(text.len() / size + 1);
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + size).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[at..end]);
        at = end;
    }
    out
}

fn extract_stream(
    spec: &flexmd_ofs::OutputFormatSpec,
    pieces: &[&str],
) -> flexmd_ofs::StreamFinish {
    let mut stream = flexmd_ofs::StreamingExtractor::new(spec);
    let mut events = 0usize;
    for piece in pieces {
        events += stream.push(piece).len();
    }
    black_box(events);
    stream.finish()
}

fn json_stream(pieces: &[&str]) -> flexmd_detect::JsonStreamEnd {
    let mut stream = flexmd_detect::StreamingJson::new();
    let mut patches = 0usize;
    for piece in pieces {
        patches += stream.push(piece).patches.len();
    }
    black_box(patches);
    stream.finish()
}

/// A JSON answer of at least `target_bytes`: prose, then a fenced object
/// with prose strings (escapes included) and records.
fn json_answer(target_bytes: usize) -> String {
    format!(
        "Here is the result:\n\n```json\n{}\n```\n",
        flexmd_benches::json_structured(target_bytes)
    )
}

fn streaming(c: &mut Criterion) {
    let spec = flexmd_ofs::parse_spec(include_str!("../../examples/specs/answer.md")).value;
    let options = flexmd_ofs::ExtractOptions::default();

    let md = flexmd_benches::document(5 * 1024 * 1024);
    let pieces = chunks(&md, CHUNK);
    let mut group = c.benchmark_group("streaming/answer_5mb");
    group.throughput(Throughput::Bytes(md.len() as u64));
    group.sample_size(10);
    group.bench_function("check_once", |b| {
        b.iter(|| flexmd_ofs::check(black_box(&md), &spec, &options))
    });
    group.bench_function("stream_16_byte_chunks", |b| {
        b.iter(|| extract_stream(&spec, black_box(&pieces)))
    });
    group.finish();

    let json = json_answer(1024 * 1024);
    let pieces = chunks(&json, CHUNK);
    let mut group = c.benchmark_group("streaming/json_1mb");
    group.throughput(Throughput::Bytes(json.len() as u64));
    group.sample_size(10);
    group.bench_function("find_json_once", |b| {
        b.iter(|| flexmd_detect::find_json(black_box(&json)))
    });
    group.bench_function("stream_16_byte_chunks", |b| {
        b.iter(|| json_stream(black_box(&pieces)))
    });
    group.finish();

    // Per chunk, as the text grows: the whole stream divided by its chunks.
    let mut group = c.benchmark_group("streaming/per_chunk");
    group.sample_size(10);
    for size in [1024, 64 * 1024, 1024 * 1024] {
        let md = flexmd_benches::document(size);
        let pieces = chunks(&md, CHUNK);
        group.throughput(Throughput::Elements(pieces.len() as u64));
        group.bench_with_input(BenchmarkId::new("answer", size), &pieces, |b, pieces| {
            b.iter(|| extract_stream(&spec, black_box(pieces)))
        });
        let json = json_answer(size);
        let pieces = chunks(&json, CHUNK);
        group.throughput(Throughput::Elements(pieces.len() as u64));
        group.bench_with_input(BenchmarkId::new("json", size), &pieces, |b, pieces| {
            b.iter(|| json_stream(black_box(pieces)))
        });
    }
    group.finish();
}

criterion_group!(benches, streaming);
criterion_main!(benches);
