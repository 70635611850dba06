//! Counts the bundled example answers against the bundled spec, grouped by
//! the folder each answer is in, and prints the summary as JSON:
//!
//! ```sh
//! cargo run -p flexmd-report --example tally_answers
//! ```

use flexmd_report::{Judged, Tally};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let spec =
        flexmd_ofs::parse_spec(&std::fs::read_to_string(root.join("specs/answer.md"))?).value;
    let mut tally = Tally::new(vec!["folder".to_owned()]);
    for folder in ["responses", "agent"] {
        let mut paths: Vec<_> = std::fs::read_dir(root.join(folder))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        paths.sort();
        for path in paths {
            let answer = std::fs::read_to_string(&path)?;
            let report = flexmd_ofs::validate(&answer, &spec);
            // About four bytes a token in English prose.
            tally.add(
                vec![folder.to_owned()],
                &Judged::from_report(&report, answer.len() / 4),
            );
        }
    }
    println!("{}", serde_json::to_string_pretty(&tally.summary())?);
    Ok(())
}
