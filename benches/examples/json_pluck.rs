//! `SpooledJsonArtifact::json_pluck` over a whole file, printing the number
//! of values (the jq comparison in benches/scripts/artifact_1gb.sh: the CLI's
//! tool output is capped, this runs the full query).
//!
//! `cargo run --release -p flexmd-benches --example json_pluck -- FILE '$.id'`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let file = args.next().ok_or("usage: json_pluck FILE PATH")?;
    let path = args.next().unwrap_or_else(|| "$.id".to_owned());
    let reader = flexmd_artifact::FileReader::open(std::path::Path::new(&file))?;
    let artifact = flexmd_artifact::SpooledJsonArtifact::new(reader, None)?;
    println!("{}", artifact.json_pluck(&path)?.len());
    Ok(())
}
