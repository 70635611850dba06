//! `Registry::validate` over the `schema` bench's data, for profilers:
//! `cargo build --release -p flexmd-benches --example prof_schema` then
//! `perf record target/release/examples/prof_schema ROUNDS`.

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let instances = flexmd_benches::review_instances(100_000);
    let registry = flexmd_schema::Registry::new();
    let mut errors = 0;
    for _ in 0..rounds {
        errors += instances
            .iter()
            .map(|v| registry.validate("review", v).errors.len())
            .sum::<usize>();
    }
    println!("{errors}");
}
