//! `Registry::validate` on 100 000 small `review` answers (one in ten
//! invalid) beside bare `jsonschema` doing the same work: `is_valid`, and the
//! errors of the invalid ones. Python's `jsonschema` package runs on the same
//! data in benches/python/schema_bench.py (see docs/benchmarks.md).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn validate(c: &mut Criterion) {
    let instances = flexmd_benches::review_instances(100_000);
    let registry = flexmd_schema::Registry::new();
    let Some(schema) = registry.get("review").cloned() else {
        return;
    };
    let Ok(validator) = jsonschema::validator_for(&schema) else {
        return;
    };
    let mut group = c.benchmark_group("schema_validate/review_100k");
    group.throughput(Throughput::Elements(instances.len() as u64));
    group.sample_size(10);
    group.bench_function("jsonschema", |b| {
        b.iter(|| {
            instances
                .iter()
                .map(|v| {
                    if validator.is_valid(black_box(v)) {
                        0
                    } else {
                        validator.iter_errors(v).count()
                    }
                })
                .sum::<usize>()
        })
    });
    group.bench_function("registry_validate", |b| {
        b.iter(|| {
            instances
                .iter()
                .map(|v| registry.validate("review", black_box(v)).errors.len())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, validate);
criterion_main!(benches);
