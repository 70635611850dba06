//! Profiling driver: `prof_outline [BYTES] [outline|floor|check|check-nomatch] [ROUNDS]`
//! builds the outline (or runs the bare pulldown-cmark iteration, or `check`
//! against the bundled answer spec, or `check` against a spec none of whose
//! sections are in the text) of `document(BYTES)`, e.g. under `perf record`
//! or `valgrind --tool=callgrind` for instruction counts.
fn main() {
    let mut args = std::env::args().skip(1);
    let size: usize = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20 * 1024);
    let mode = args.next().unwrap_or_else(|| "outline".to_owned());
    let rounds: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let md = flexmd_benches::document(size);
    let spec = flexmd_ofs::parse_spec(match mode.as_str() {
        "check-nomatch" => "## Output format\n- Verdict — prose\n- Evidence — list\n",
        _ => include_str!("../../examples/specs/answer.md"),
    })
    .value;
    let options = flexmd_ofs::ExtractOptions::default();
    let mut n = 0;
    for _ in 0..rounds {
        n += match mode.as_str() {
            "floor" => flexmd_benches::pulldown_floor(&md),
            "check" | "check-nomatch" => flexmd_ofs::check(&md, &spec, &options).0.errors.len(),
            _ => flexmd_core::build_outline(&md).nodes.len(),
        };
    }
    println!("{n}");
}
