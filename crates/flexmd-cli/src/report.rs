//! `flexmd report`: how well a JSON Lines file of answers follows its
//! format, as an HTML page, JSON or a Markdown table (flexmd-report).

use std::path::PathBuf;
use std::process::ExitCode;

use flexmd_report::{About, Check, Checker, Options, SchemaRef};

use crate::detect::SchemaArg;
use crate::error::CliError;

/// `flexmd report`'s arguments.
#[derive(Debug, clap::Args)]
pub(crate) struct ReportArgs {
    /// The answers, as JSON Lines: one answer per line, a JSON string or an
    /// object holding the answer in --field and the --group-by fields.
    /// Without --spec and --schema, the result lines `flexmd extract`,
    /// `validate` or `json --jsonl` printed. Standard input when `-`.
    answers: PathBuf,
    /// Check the answers against this Output Format Spec (its Markdown
    /// block, or OutputFormatSpec JSON). An answer written as JSON instead
    /// (an object keyed by section name) is read against the spec's
    /// sections, its JSON repairs counted.
    #[arg(long, conflicts_with = "schema")]
    spec: Option<PathBuf>,
    /// Check the JSON in the answers against this schema: a registered
    /// schema's name or a JSON Schema file (an Output Format Spec file is
    /// read as --spec).
    #[arg(long, value_name = "NAME|FILE")]
    schema: Option<String>,
    /// With --schema: `strict` (repairs only), `standard` (repairs,
    /// coercions, defaults) or `salvage` (also drop what still violates).
    #[arg(long, value_enum, default_value_t = crate::config::PresetArg::Standard, requires = "schema")]
    preset: crate::config::PresetArg,
    /// With --spec: count leniencies (a label for a heading, `*` bullets)
    /// as errors.
    #[arg(long, requires = "spec")]
    strict: bool,
    /// The field of each record that holds the answer.
    #[arg(long, default_value = "response", value_name = "NAME")]
    field: String,
    /// Group the answers by these fields of their records (`model,prompt`);
    /// a record without one is in its `(none)` group.
    #[arg(long, value_delimiter = ',', value_name = "FIELD,...")]
    group_by: Vec<String>,
    /// With result lines (no --spec or --schema): the JSON Lines file of
    /// answers they are the results of, matched by line number; the group
    /// fields and the answers' text come from there.
    #[arg(long = "answers", value_name = "ANSWERS.jsonl", conflicts_with_all = ["spec", "schema"])]
    answers_of: Option<PathBuf>,
    /// Write the report as one self-contained HTML page to this file.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Print a short Markdown summary table (for a CI comment).
    #[arg(long)]
    markdown: bool,
    /// How many worst answers to keep per group.
    #[arg(long, value_name = "N", default_value_t = flexmd_report::DEFAULT_WORST)]
    worst: usize,
    /// How many threads check answers (default: one per core).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
}

/// `flexmd report`: the aggregates as HTML (`-o`), JSON (`--json`) and/or
/// Markdown (`--markdown`). Exit 0 once the report is made, whatever the
/// answers' verdicts.
pub(crate) fn report(
    args: ReportArgs,
    config: &crate::config::ConfigArg,
    json: bool,
) -> Result<ExitCode, CliError> {
    if args.output.is_none() && !json && !args.markdown {
        return Err(CliError::Usage(
            "say what to make: -o report.html (the HTML page), --json (the figures) or \
             --markdown (a summary table)"
                .to_owned(),
        ));
    }
    if json && args.markdown {
        return Err(CliError::Usage(
            "--json and --markdown both print to standard output: give one".to_owned(),
        ));
    }
    let registry = crate::config::setup(config)?.registry;
    let (check, checked_against) = match (&args.spec, &args.schema) {
        (Some(spec), _) => (
            Check::Spec {
                spec: crate::ofs::read_spec(spec)?,
                strict: args.strict,
            },
            format!("the spec {}", spec.display()),
        ),
        (None, Some(schema)) => {
            let check = match SchemaArg::resolve(schema, &registry)? {
                SchemaArg::Named(name) => Check::Schema {
                    schema: SchemaRef::Named(name),
                    preset: args.preset.into(),
                },
                SchemaArg::Schema(value) => Check::Schema {
                    schema: SchemaRef::Inline(value),
                    preset: args.preset.into(),
                },
                SchemaArg::Spec(spec) => Check::Spec {
                    spec,
                    strict: args.strict,
                },
            };
            (check, format!("the schema {schema}"))
        }
        (None, None) => (Check::Results, "the checks that wrote them".to_owned()),
    };
    let checker = Checker::new(check, registry)?;
    let options = Options {
        group_by: args.group_by.clone(),
        field: args.field.clone(),
        worst: args.worst,
        jobs: args.jobs.unwrap_or(0),
        offsets: None,
    };
    let name = if crate::input::is_stdin(Some(&args.answers)) {
        "<stdin>".to_owned()
    } else {
        crate::input::check_file(&args.answers)?;
        args.answers.display().to_string()
    };
    let progress = crate::output::Progress::start(&format!("flexmd report: {name}"));
    let mut tick = |n: u64| progress.set(format!(": {n} records"));
    let answers_of = match &args.answers_of {
        Some(path) => {
            crate::input::check_file(path)?;
            Some(open(path)?)
        }
        None => None,
    };
    let summary = if crate::input::is_stdin(Some(&args.answers)) {
        flexmd_report::report_lines(
            std::io::stdin().lock(),
            answers_of,
            checker,
            &options,
            &mut tick,
        )?
    } else {
        flexmd_report::report_lines(
            open(&args.answers)?,
            answers_of,
            checker,
            &options,
            &mut tick,
        )?
    };
    drop(progress);
    let mut done = format!(
        "{name}: {} answers in {} groups",
        summary.answers,
        summary.groups.len()
    );
    if summary.invalid_lines.count > 0 {
        done.push_str(&format!(
            ", {} lines hold no answer",
            summary.invalid_lines.count
        ));
    }
    if let Some(path) = &args.output {
        let about = About {
            input: name.clone(),
            checked_against,
        };
        let page = flexmd_report::render_html(&summary, &about);
        std::fs::write(path, &page).map_err(|source| CliError::Write {
            path: path.clone(),
            source,
        })?;
        done.push_str(&format!(
            "; {} written ({} KB)",
            path.display(),
            page.len().div_ceil(1024)
        ));
    }
    eprintln!("{done}");
    if json {
        crate::print_json(&summary)?;
    } else if args.markdown {
        crate::print(&flexmd_report::render_markdown(&summary))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn open(path: &std::path::Path) -> Result<std::io::BufReader<std::fs::File>, CliError> {
    std::fs::File::open(path)
        .map(|f| std::io::BufReader::with_capacity(1 << 16, f))
        .map_err(|source| CliError::Read {
            path: path.to_owned(),
            source,
        })
}
