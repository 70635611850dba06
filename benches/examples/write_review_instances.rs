//! Writes the `schema` bench's data for the Python side-by-side:
//! `cargo run --release -p flexmd-benches --example write_review_instances -- OUT_DIR`
//! writes OUT_DIR/review_instances.json and OUT_DIR/review_schema.json.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".to_owned()));
    std::fs::create_dir_all(&out)?;
    let instances = flexmd_benches::review_instances(100_000);
    std::fs::write(
        out.join("review_instances.json"),
        serde_json::to_string(&instances)?,
    )?;
    let registry = flexmd_schema::Registry::new();
    let schema = registry.get("review").ok_or("no review schema")?;
    std::fs::write(
        out.join("review_schema.json"),
        serde_json::to_string_pretty(schema)?,
    )?;
    Ok(())
}
