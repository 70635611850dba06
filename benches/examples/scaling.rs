//! How each cost grows with the input: `check` (on answers under chapter
//! headings, and on one long list of short items), `find_json`, schema
//! validation from text, the answer stream and a literal grep, at 1 KB,
//! 100 KB, 10 MB and 100 MB (where the input kind allows), as time per byte
//! and peak heap per byte. A row whose cost per byte rises by more than
//! 1.5× from 100 KB to the largest size is flagged: it does not grow
//! linearly. (1 KB is shown but not judged: a call's fixed cost is most of
//! it there.)
//!
//! `cargo run --release -p flexmd-benches --example scaling [-- MAX_MB] [--only WORD]`
//! (`--only check`: the operations whose name holds the word).
//!
//! Peak heap is counted by this program's allocator (every byte allocated
//! and not yet freed, at its highest during the call, input excluded).
//! Prints a Markdown table; with `--json`, one JSON line per measure.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The system allocator, counting the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call goes to the system allocator unchanged; the counters
// only observe the sizes.
#[allow(unsafe_code, reason = "GlobalAlloc is an unsafe trait")]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let grown = new_size - layout.size();
                let now = IN_USE.fetch_add(grown, Ordering::Relaxed) + grown;
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                IN_USE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// This process's CPU seconds so far, in user and in system (kernel) time,
/// from `/proc/self/stat` (10 ms steps; zeros where there is no `/proc`).
fn cpu_seconds() -> (f64, f64) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name (which may hold spaces), in `)`.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 here, in
    // clock ticks (100 a second on Linux).
    let tick = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
            / 100.0
    };
    (tick(11), tick(12))
}

/// Seconds per call (the median of the runs: three from 10 MB up, so that
/// every size is timed with memory the process already has, not only the
/// largest with pages fresh from the kernel), the peak heap above what was
/// in use before the call, and the share of the last run's CPU time the
/// kernel took (page faults, mostly).
fn measure(bytes: usize, call: &mut dyn FnMut() -> usize) -> (f64, usize, f64) {
    let runs = if bytes >= 10_000_000 {
        3
    } else if bytes >= 100_000 {
        5
    } else {
        200
    };
    let mut times = Vec::with_capacity(runs);
    let mut peak = 0;
    let mut kernel_share = 0.0;
    for _ in 0..runs {
        let before = IN_USE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let cpu = cpu_seconds();
        let start = Instant::now();
        std::hint::black_box(call());
        times.push(start.elapsed().as_secs_f64());
        let after = cpu_seconds();
        let (user, system) = (after.0 - cpu.0, after.1 - cpu.1);
        kernel_share = if user + system > 0.0 {
            system / (user + system)
        } else {
            0.0
        };
        peak = peak.max(PEAK.load(Ordering::Relaxed).saturating_sub(before));
    }
    times.sort_by(f64::total_cmp);
    (
        times.get(times.len() / 2).copied().unwrap_or(f64::NAN),
        peak,
        kernel_share,
    )
}

/// A log of about `bytes`: one `FATAL` line in 1 000.
fn log(bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 128);
    let mut n = 0usize;
    while out.len() < bytes {
        n += 1;
        let level = if n.is_multiple_of(1000) {
            "FATAL"
        } else {
            "INFO"
        };
        out.push_str(&format!(
            "2026-12-07T05:{:02}:{:02} {level} worker-{} request {n} served in {} ms\n",
            n / 60 % 60,
            n % 60,
            n % 16,
            n % 250
        ));
    }
    out
}

/// About `bytes` of valid `review` instances, as a JSON array (all of it
/// is read: an invalid item would not stop the reading, but a valid array
/// is the case to time).
fn reviews(bytes: usize) -> String {
    let registry = flexmd_schema::Registry::new();
    let valid: Vec<String> = flexmd_benches::review_instances(1_000)
        .iter()
        .filter(|i| registry.is_valid("review", i))
        .map(serde_json::Value::to_string)
        .collect();
    let mut out = String::with_capacity(bytes + 1024);
    out.push('[');
    for (i, instance) in valid.iter().cycle().enumerate() {
        if out.len() >= bytes {
            break;
        }
        if i > 0 {
            out.push(',');
        }
        out.push_str(instance);
    }
    out.push(']');
    out
}

/// Each op prepares its input (untimed) and gives the call to time.
type Call = Box<dyn Fn(&str) -> Box<dyn FnMut() -> usize>>;

/// `check` of the input against the bundled answer spec.
fn check_call(spec_text: &str) -> Result<Call, Box<dyn std::error::Error>> {
    let spec = flexmd_ofs::read_spec(spec_text)
        .map_err(|e| e.to_string())?
        .value;
    let options = flexmd_ofs::ExtractOptions::default();
    Ok(Box::new(move |t: &str| {
        let (t, spec, options) = (t.to_owned(), spec.clone(), options.clone());
        Box::new(move || {
            flexmd_ofs::check(&t, &spec, &options)
                .1
                .sections_by_name
                .len()
        })
    }))
}

/// The input streamed in 4 KB pushes against the bundled answer spec, the
/// last events lent one at a time (as `flexmd extract --stream` takes them).
fn stream_call(spec_text: &str) -> Result<Call, Box<dyn std::error::Error>> {
    let spec = flexmd_ofs::read_spec(spec_text)
        .map_err(|e| e.to_string())?
        .value;
    Ok(Box::new(move |t: &str| {
        let (t, spec) = (t.to_owned(), spec.clone());
        Box::new(move || {
            let mut stream = flexmd_ofs::StreamingExtractor::new(&spec);
            let mut events = 0;
            let mut rest = t.as_str();
            while !rest.is_empty() {
                let mut cut = rest.len().min(4096);
                while !rest.is_char_boundary(cut) {
                    cut += 1;
                }
                let (piece, tail) = rest.split_at(cut);
                events += stream.push(piece).count();
                rest = tail;
            }
            stream.finish_each(|_| events += 1);
            events
        })
    }))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    let max_mb: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(100);
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let sizes: Vec<usize> = [1_000, 100_000, 10_000_000, 100_000_000]
        .into_iter()
        .filter(|&s| s <= max_mb * 1_000_000)
        .collect();
    let spec_text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/specs/answer.md"),
    )?;
    let registry = {
        let mut registry = flexmd_schema::Registry::new();
        let review = registry.get("review").ok_or("no review schema")?.clone();
        registry.register(
            "reviews",
            serde_json::json!({"type": "array", "items": review}),
        )?;
        registry
    };
    // (operation, what the input is, the largest size of its kind, the
    // input's maker, the call)
    type Op = (&'static str, &'static str, usize, fn(usize) -> String, Call);
    let ops: Vec<Op> = vec![
        (
            "check (validate + extract)",
            "answers under chapter headings",
            usize::MAX,
            flexmd_benches::document,
            check_call(&spec_text)?,
        ),
        (
            "find_json",
            "a JSON array of records in prose (100 MB passes the 2 000 000-value bound)",
            10_000_000,
            |n| format!("Here it is:\n{}\nDone.", flexmd_benches::json_records(n)),
            Box::new(|t: &str| {
                let t = t.to_owned();
                Box::new(move || flexmd_detect::find_json(&t).map_or(0, |f| f.end))
            }),
        ),
        (
            "schema from text (is_valid_json)",
            "a JSON array of review answers",
            usize::MAX,
            reviews,
            Box::new(move |t: &str| {
                let (t, registry) = (t.to_owned(), registry.clone());
                Box::new(move || {
                    usize::from(registry.is_valid_json("reviews", &t).unwrap_or(false))
                })
            }),
        ),
        (
            "answer stream (4 KB pushes)",
            "answers under chapter headings",
            usize::MAX,
            flexmd_benches::document,
            stream_call(&spec_text)?,
        ),
        (
            "check (validate + extract)",
            "one section: a list of short items",
            usize::MAX,
            flexmd_benches::one_list_answer,
            check_call(&spec_text)?,
        ),
        (
            "answer stream (4 KB pushes)",
            "one section: a list of short items",
            usize::MAX,
            flexmd_benches::one_list_answer,
            stream_call(&spec_text)?,
        ),
        (
            "grep, a literal",
            "a log",
            usize::MAX,
            log,
            Box::new(|t: &str| {
                // The file is opened (indexed) once, as an agent's tool
                // output is; the call is the grep.
                let artifact = flexmd_artifact::SpooledArtifact::new(
                    flexmd_artifact::MemoryReader::new(t.to_owned()),
                );
                Box::new(move || {
                    artifact
                        .grep("FATAL", flexmd_artifact::GrepFlags::NONE)
                        .map_or(0, |hits| hits.len())
                })
            }),
        ),
    ];
    if !json {
        println!(
            "| operation | input | size | time per byte | of it in the kernel | peak heap per byte |"
        );
        println!("|---|---|---|---|---|---|");
    }
    for (name, input, limit, make, call) in &ops {
        if only
            .as_ref()
            .is_some_and(|word| !name.contains(word.as_str()))
        {
            continue;
        }
        let mut per_byte = Vec::new();
        for &size in sizes.iter().filter(|&&s| s <= *limit) {
            let text = make(size);
            let mut run = call(&text);
            let (seconds, peak, kernel) = measure(text.len(), &mut run);
            let time_per_byte = seconds / text.len() as f64;
            let peak_per_byte = peak as f64 / text.len() as f64;
            per_byte.push((size, time_per_byte, peak_per_byte));
            if json {
                println!(
                    "{}",
                    serde_json::json!({"op": name, "bytes": text.len(), "seconds": seconds,
                        "ns_per_byte": time_per_byte * 1e9, "peak_heap_bytes": peak,
                        "peak_per_byte": peak_per_byte, "kernel_share": kernel})
                );
            } else {
                println!(
                    "| {name} | {input} | {} | {:.2} ns | {} | {:.2} B |",
                    label(size),
                    time_per_byte * 1e9,
                    if size >= 10_000_000 {
                        format!("{:.0}%", kernel * 100.0)
                    } else {
                        "—".to_owned()
                    },
                    peak_per_byte
                );
            }
        }
        // Judged from 100 KB up: the cost per byte should not rise.
        let judged: Vec<&(usize, f64, f64)> = per_byte.iter().filter(|p| p.0 >= 100_000).collect();
        if let (Some(first), Some(last)) = (judged.first(), judged.last()) {
            for (what, a, b) in [("time", first.1, last.1), ("peak heap", first.2, last.2)] {
                if b > 1.5 * a {
                    eprintln!(
                        "scaling: {name}: {what} per byte rises {:.2}× from {} to {}",
                        b / a,
                        label(first.0),
                        label(last.0)
                    );
                }
            }
        }
    }
    Ok(())
}

fn label(size: usize) -> String {
    match size {
        s if s >= 1_000_000 => format!("{} MB", s / 1_000_000),
        s => format!("{} KB", s / 1_000),
    }
}
