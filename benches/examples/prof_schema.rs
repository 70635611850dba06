//! `Registry::validate` (or, with `is_valid` as the second argument,
//! `Registry::is_valid`) over the `schema` bench's data, for profilers:
//! `cargo build --release -p flexmd-benches --example prof_schema` then
//! `perf record target/release/examples/prof_schema ROUNDS [is_valid]`.

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(5);
    let verdict_only = args.next().is_some_and(|a| a == "is_valid");
    let instances = flexmd_benches::review_instances(100_000);
    let registry = flexmd_schema::Registry::new();
    let mut errors = 0;
    for _ in 0..rounds {
        errors += instances
            .iter()
            .map(|v| {
                if verdict_only {
                    usize::from(!registry.is_valid("review", v))
                } else {
                    registry.validate("review", v).errors.len()
                }
            })
            .sum::<usize>();
    }
    println!("{errors}");
}
