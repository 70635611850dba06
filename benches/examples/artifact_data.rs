//! Writes the large artifacts the 1 GB comparison reads
//! (benches/scripts/artifact_1gb.sh): `OUT_DIR/log.txt` (log lines, one rare
//! `FATAL` line per 100 000), `OUT_DIR/events.jsonl` (one JSON record per
//! line) and `OUT_DIR/doc.md` (sections with prose, lists and code), each of
//! about SIZE_MB megabytes.
//!
//! `cargo run --release -p flexmd-benches --example artifact_data -- OUT_DIR 1024`

use std::io::{BufWriter, Write};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let out = std::path::PathBuf::from(
        args.next()
            .unwrap_or_else(|| "target/bench-data".to_owned()),
    );
    let size_mb: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1024);
    let target = size_mb << 20;
    std::fs::create_dir_all(&out)?;

    let mut log = BufWriter::new(std::fs::File::create(out.join("log.txt"))?);
    let (mut written, mut n) = (0u64, 0u64);
    while written < target {
        n += 1;
        let level = if n % 100_000 == 0 {
            "FATAL"
        } else if n % 7 == 0 {
            "WARN"
        } else {
            "INFO"
        };
        let line = format!(
            "2026-11-30T02:{:02}:{:02}.{:03}Z {level} worker-{} request {n} served in {} ms\n",
            n / 60 % 60,
            n % 60,
            n % 1000,
            n % 16,
            n % 250
        );
        written += line.len() as u64;
        log.write_all(line.as_bytes())?;
    }
    log.flush()?;

    let mut jsonl = BufWriter::new(std::fs::File::create(out.join("events.jsonl"))?);
    let (mut written, mut n) = (0u64, 0u64);
    while written < target {
        n += 1;
        let line = format!(
            "{{\"id\":{n},\"user\":\"u{}\",\"kind\":\"{}\",\"ok\":{},\"ms\":{},\"tags\":[\"a\",\"b\"]}}\n",
            n % 5000,
            match n % 3 {
                0 => "click",
                1 => "view",
                _ => "buy",
            },
            n % 11 != 0,
            n % 997
        );
        written += line.len() as u64;
        jsonl.write_all(line.as_bytes())?;
    }
    jsonl.flush()?;

    let mut md = BufWriter::new(std::fs::File::create(out.join("doc.md"))?);
    let (mut written, mut n) = (0u64, 0u64);
    while written < target {
        n += 1;
        let mut section = format!(
            "## Section {n}\n\nSome prose about item {n}, with a [link](https://example.com/{n}).\n\n"
        );
        for i in 0..40 {
            section.push_str(&format!("- point {i} of section {n}\n"));
        }
        section.push_str("\n```rust\n# not a heading\nfn main() {}\n```\n\n");
        for _ in 0..40 {
            section.push_str(
                "More prose that fills the section so that headings are not too dense.\n",
            );
        }
        section.push('\n');
        written += section.len() as u64;
        md.write_all(section.as_bytes())?;
    }
    md.flush()?;
    Ok(())
}
