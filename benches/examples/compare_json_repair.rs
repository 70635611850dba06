//! Side by side on the broken corpus (crates/flexmd-detect/tests/fixtures/json):
//! for each answer, what `find_json` and `llm_json::loads` (a Rust port of
//! Python's json_repair) return, and whether they agree with the fixture's
//! expected value. Run: `cargo run --release -p flexmd-benches --example compare_json_repair`.

use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/flexmd-detect/tests/fixtures/json");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    cases.sort();
    let (mut ours_right, mut theirs_right) = (0, 0);
    for case in &cases {
        let text = std::fs::read_to_string(case)?;
        let expected: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(case.with_extension("json"))?)?;
        let want = expected
            .get("best")
            .and_then(serde_json::Value::as_u64)
            .and_then(|i| expected.get("found")?.get(usize::try_from(i).ok()?))
            .and_then(|f| f.get("value").cloned());
        let ours = flexmd_detect::find_json(&text).map(|f| f.value);
        let theirs = llm_json::loads(&text, &Default::default()).ok();
        // json_repair answers "" (an empty string) when there is nothing.
        let theirs = theirs.filter(|v| v != &serde_json::Value::String(String::new()));
        ours_right += usize::from(ours == want);
        theirs_right += usize::from(theirs == want);
        if theirs != want {
            let name = case
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            println!(
                "{name}: llm_json gives {}",
                theirs.map_or("nothing".to_owned(), |v| v.to_string())
            );
        }
    }
    println!(
        "{} answers: find_json matches the expected value in {ours_right}, llm_json in {theirs_right}",
        cases.len()
    );
    Ok(())
}
