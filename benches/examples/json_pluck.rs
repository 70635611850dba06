//! `SpooledJsonArtifact::json_get_each` over a whole file, each value
//! written to stdout as one line of JSON as it is found (what `jq -c PATH`
//! does; the `artifact` row of `cargo xtask bench`). The CLI's tool output
//! is capped; this runs the full query, with memory that stays flat.
//!
//! `cargo run --release -p flexmd-benches --example json_pluck -- FILE '$.id'`

use std::io::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let file = args.next().ok_or("usage: json_pluck FILE PATH")?;
    let path = args.next().unwrap_or_else(|| "$.id".to_owned());
    let reader = flexmd_artifact::FileReader::open(std::path::Path::new(&file))?;
    let artifact = flexmd_artifact::SpooledJsonArtifact::new(reader, None)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut failed = None;
    artifact.json_get_each(&path, &mut |value| {
        let written = serde_json::to_writer(&mut out, value)
            .map_err(std::io::Error::from)
            .and_then(|()| out.write_all(b"\n"));
        if let Err(e) = written {
            failed = Some(e);
            return false;
        }
        true
    })?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    out.flush()?;
    Ok(())
}
