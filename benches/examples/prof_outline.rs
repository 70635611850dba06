//! Profiling driver: `prof_outline [BYTES] [outline|floor] [ROUNDS]` builds the
//! outline (or runs the bare pulldown-cmark iteration) of `document(BYTES)`,
//! e.g. under `perf record` or `valgrind --tool=callgrind` for instruction counts.
fn main() {
    let mut args = std::env::args().skip(1);
    let size: usize = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20 * 1024);
    let floor = args.next().is_some_and(|m| m == "floor");
    let rounds: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let md = flexmd_benches::document(size);
    let mut n = 0;
    for _ in 0..rounds {
        n += if floor {
            flexmd_benches::pulldown_floor(&md)
        } else {
            flexmd_core::build_outline(&md).nodes.len()
        };
    }
    println!("{n}");
}
