//! `flexmd ofs parse|render|enrich|default`, `flexmd validate`, `flexmd extract`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use flexmd_core::OutputFormatSpec;
use flexmd_ofs::SpecError;

use crate::error::{BadSpec, CliError};
use crate::input::{Input, Judged, each_input, read_text};

#[derive(Debug, Subcommand)]
pub(crate) enum OfsCommand {
    /// Read a spec (the Markdown block or its JSON) and print it as
    /// OutputFormatSpec JSON; lines that are not part of a spec are reported
    /// on stderr.
    Parse {
        /// The spec file; standard input when omitted or `-`.
        spec: Option<PathBuf>,
    },
    /// Write a spec (its JSON or the Markdown block) as the canonical Markdown block.
    Render {
        /// The spec file; standard input when omitted or `-`.
        spec: Option<PathBuf>,
    },
    /// Print the prompt text for a spec: the canonical block plus only the rules it needs.
    Enrich {
        /// The spec file (the Markdown block or its JSON); standard input when omitted or `-`.
        spec: Option<PathBuf>,
    },
    /// Print the general-purpose five-section spec (Short answer, Long
    /// answer, Reasoning, Assumptions, Unknowns) as the Markdown block
    /// (with --json, as OutputFormatSpec JSON).
    Default,
}

pub(crate) fn run(command: OfsCommand, json: bool) -> Result<ExitCode, CliError> {
    match command {
        OfsCommand::Parse { spec } => {
            let (input, parsed) = read_spec_input(spec.as_deref())?;
            input.print_parsed(&parsed)
        }
        OfsCommand::Render { spec } => {
            let (input, parsed) = read_spec_input(spec.as_deref())?;
            input.report(&parsed.diagnostics);
            crate::print(&flexmd_ofs::render_spec(&parsed.value))?;
            Ok(ExitCode::SUCCESS)
        }
        OfsCommand::Enrich { spec } => {
            let (input, parsed) = read_spec_input(spec.as_deref())?;
            input.report(&parsed.diagnostics);
            crate::print(&flexmd_ofs::prompt(&parsed.value))?;
            Ok(ExitCode::SUCCESS)
        }
        OfsCommand::Default => {
            let spec = flexmd_ofs::default_spec();
            if json {
                crate::print_json(&spec)?;
            } else {
                crate::print(&flexmd_ofs::render_spec(&spec))?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Reads a spec in either form (told apart by content) from `file` or stdin.
fn read_spec_input(
    file: Option<&Path>,
) -> Result<(Input, flexmd_core::Parsed<OutputFormatSpec>), CliError> {
    let input = read_text(file)?;
    match flexmd_ofs::read_spec(&input.text) {
        Ok(parsed) => Ok((input, parsed)),
        Err(source) => {
            let span = match &source {
                SpecError::Json { span, .. } | SpecError::BadLine { span, .. } => Some(*span),
                SpecError::NotASpec => None,
            };
            Err(CliError::BadSpec(Box::new(BadSpec {
                name: input.name.clone(),
                message: source.to_string(),
                help: miette::Diagnostic::help(&source).map(|h| h.to_string()),
                src: crate::snippet::Snippets::new(&input.name, &input.text),
                span,
            })))
        }
    }
}

/// Reads the spec for `validate`, `extract`, `json --schema` and `run`: the
/// Markdown block or OutputFormatSpec JSON; diagnostics on stderr.
pub(crate) fn read_spec(path: &Path) -> Result<OutputFormatSpec, CliError> {
    let (input, parsed) = read_spec_input(Some(path))?;
    input.report(&parsed.diagnostics);
    Ok(parsed.value)
}

/// `flexmd validate`: exit 0 when every answer follows the spec, 1 when
/// one does not. With `--json` the report (one per file) on stdout; else
/// the problems as diagnostics on stderr.
pub(crate) fn validate(
    spec: &Path,
    responses: &[PathBuf],
    strict: bool,
    json: bool,
) -> Result<ExitCode, CliError> {
    let spec = read_spec(spec)?;
    each_input(responses, |input| {
        let mut report = flexmd_ofs::validate(&input.text, &spec);
        if strict {
            report = report.into_strict();
        }
        if !json {
            report_issues(input, &report);
        }
        let code = exit_for(&report);
        Ok(Judged {
            result: json.then(|| crate::output::rendered(report)),
            code,
        })
    })
}

/// The report's issues on stderr, top to bottom as the answer reads, and a
/// summary line.
pub(crate) fn report_issues(input: &Input, report: &flexmd_ofs::Report) {
    let mut diagnostics: Vec<flexmd_core::Diagnostic> = report
        .errors
        .iter()
        .map(|e| e.to_diagnostic(flexmd_core::Severity::Error))
        .chain(
            report
                .warnings
                .iter()
                .map(|w| w.to_diagnostic(flexmd_core::Severity::Warning)),
        )
        .collect();
    diagnostics.sort_by_key(|d| d.span.start);
    input.report(&diagnostics);
    eprintln!(
        "{}: {} ({} errors, {} warnings)",
        input.name,
        if report.ok { "valid" } else { "invalid" },
        report.errors.len(),
        report.warnings.len()
    );
}

/// 0 when the answer follows the spec, 1 when not.
fn exit_for(report: &flexmd_ofs::Report) -> u8 {
    u8::from(!report.ok)
}

/// How `flexmd extract` prints and judges.
pub(crate) struct ExtractFlags {
    /// The plain object keyed by section name instead of ExtractedResult.
    pub(crate) as_json: bool,
    /// Parse lists in prose sections too.
    pub(crate) lists_in_prose: bool,
    /// Warnings count as errors.
    pub(crate) strict: bool,
}

/// `flexmd extract`: the ExtractedResult, or with `--as-json` the plain
/// object; when an answer does not follow the spec, its problems go to
/// stderr and the exit is 1 (the JSON is printed all the same).
pub(crate) fn extract(
    spec: &Path,
    responses: &[PathBuf],
    flags: &ExtractFlags,
) -> Result<ExitCode, CliError> {
    let spec = read_spec(spec)?;
    let options = flexmd_ofs::ExtractOptions {
        lists_in_prose: flags.lists_in_prose,
    };
    each_input(responses, |input| {
        let (mut report, extracted) = flexmd_ofs::check(&input.text, &spec, &options);
        if flags.strict {
            report = report.into_strict();
        }
        let result = if flags.as_json {
            crate::output::rendered(flexmd_ofs::to_json(&extracted, &spec))
        } else {
            crate::output::rendered(extracted)
        };
        if !report.ok || !report.warnings.is_empty() {
            report_issues(input, &report);
        }
        Ok(Judged {
            result: Some(result),
            code: exit_for(&report),
        })
    })
}

/// `flexmd validate|extract --jsonl`: every record's answer checked (and,
/// unless `validate_only`, extracted) on all cores; one line per record:
/// the report's fields, plus `result` for `extract`.
pub(crate) fn batch(
    spec: &Path,
    files: &[PathBuf],
    flags: &ExtractFlags,
    args: &crate::batch::BatchArgs,
    validate_only: bool,
) -> Result<ExitCode, CliError> {
    let spec = read_spec(spec)?;
    let options = flexmd_ofs::ExtractOptions {
        lists_in_prose: flags.lists_in_prose,
    };
    let (as_json, strict, field) = (flags.as_json, flags.strict, args.field.clone());
    crate::batch::run(files, args.jobs, false, move |record| {
        let answer = record.answer(&field)?;
        let (mut report, extracted) = flexmd_ofs::check(&answer, &spec, &options);
        if strict {
            report = report.into_strict();
        }
        let code = exit_for(&report);
        let mut fields = crate::batch::fields_of(&report);
        if !validate_only {
            let result = if as_json {
                flexmd_ofs::to_json(&extracted, &spec)
            } else {
                serde_json::to_value(&extracted).unwrap_or_default()
            };
            fields.insert("result".to_owned(), result);
        }
        Ok(crate::batch::Emitted::result(fields, code))
    })
}
