//! Profiling driver: `perf record target/release/examples/prof_frames`.
fn main() {
    let text = flexmd_benches::frames_document(5 * 1024 * 1024);
    let options = flexmd_frames::ParseOptions::default();
    let mut n = 0;
    for _ in 0..20 {
        n += flexmd_frames::parse(&text, &options).value.frames.len();
    }
    println!("{n}");
}
