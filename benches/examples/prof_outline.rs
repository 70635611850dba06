//! Profiling driver: `perf record target/release/examples/prof_outline [BYTES]`.
fn main() {
    let size: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20 * 1024);
    let md = flexmd_benches::document(size);
    let rounds = (200 * 1024 * 1024 / md.len()).max(1);
    let mut n = 0;
    for _ in 0..rounds {
        let outline = flexmd_core::build_outline(&md);
        n += outline.nodes.len();
        // The bench excludes the drop (iter_with_large_drop): leave it out here too.
        std::mem::forget(outline);
    }
    println!("{n}");
}
