// The timing loop the Node side-by-side scripts share, the same as the Rust
// and Python ones: each call of `work` repeated until a round takes 50 ms,
// the median of `runs` rounds, in seconds per call. A call of a second or
// more is timed once (repeating it would only take minutes, and a JIT is
// warm within it). Shorter work is first run for half a second untimed:
// V8 compiles JavaScript and WebAssembly in tiers, and the first rounds
// ran in the baseline tier, at up to 4x the time of later ones (the first
// measure of a process varied 6.9-27 us per call from run to run).
export function time(work, runs) {
  const first = process.hrtime.bigint();
  work();
  const once = Number(process.hrtime.bigint() - first) / 1e9;
  if (once >= 1) return once;
  const warm = process.hrtime.bigint();
  while (Number(process.hrtime.bigint() - warm) / 1e9 < 0.5) work();
  let reps = 1;
  for (;;) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < reps; i++) work();
    if (Number(process.hrtime.bigint() - start) / 1e9 >= 0.05) break;
    reps *= 2;
  }
  const samples = [];
  for (let r = 0; r < runs; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < reps; i++) work();
    samples.push(Number(process.hrtime.bigint() - start) / 1e9 / reps);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}
