//! Reports the bundled answers of four made-up models
//! (examples/report/answers.jsonl) against the bundled spec, grouped by
//! model: prints the Markdown summary, and writes the HTML page to the
//! file given as the first argument, if any.
//!
//! ```sh
//! cargo run -p flexmd-report --example report_answers -- report.html
//! ```

use flexmd_report::{About, Check, Checker, Options, render_html, render_markdown, report_lines};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let spec =
        flexmd_ofs::parse_spec(&std::fs::read_to_string(root.join("specs/answer.md"))?).value;
    let checker = Checker::new(
        Check::Spec {
            spec,
            strict: false,
        },
        flexmd_schema::Registry::new(),
    )?;
    let answers = std::io::BufReader::new(std::fs::File::open(root.join("report/answers.jsonl"))?);
    let options = Options {
        group_by: vec!["model".to_owned()],
        ..Options::default()
    };
    let summary = report_lines(answers, None::<&[u8]>, checker, &options, &mut |_| {})?;
    print!("{}", render_markdown(&summary));
    if let Some(path) = std::env::args().nth(1) {
        let about = About {
            input: "examples/report/answers.jsonl".to_owned(),
            checked_against: "the spec examples/specs/answer.md".to_owned(),
        };
        std::fs::write(&path, render_html(&summary, &about))?;
        eprintln!("{path} written");
    }
    Ok(())
}
