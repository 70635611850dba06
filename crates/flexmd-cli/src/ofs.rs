//! `flexmd ofs parse|render|enrich`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;
use flexmd_core::OutputFormatSpec;

use crate::error::CliError;
use crate::input::read_text;

#[derive(Debug, Subcommand)]
pub(crate) enum OfsCommand {
    /// Read an Output Format Spec block (Markdown) and print it as JSON;
    /// lines that are not part of a spec are reported on stderr.
    Parse {
        /// The spec file; standard input when omitted or `-`.
        spec: Option<PathBuf>,
    },
    /// Write OutputFormatSpec JSON as the canonical Markdown block.
    Render {
        /// The spec JSON file; standard input when omitted or `-`.
        spec_json: Option<PathBuf>,
    },
    /// Print the prompt text for a spec: the canonical block plus only the rules it needs.
    Enrich {
        /// The spec file (Markdown); standard input when omitted or `-`.
        spec: Option<PathBuf>,
    },
}

pub(crate) fn run(command: OfsCommand) -> Result<ExitCode, CliError> {
    match command {
        OfsCommand::Parse { spec } => {
            let input = read_text(spec.as_deref())?;
            let parsed = flexmd_ofs::parse_spec(&input.text);
            input.print_parsed(&parsed)
        }
        OfsCommand::Render { spec_json } => {
            let input = read_text(spec_json.as_deref())?;
            let spec: OutputFormatSpec = input.json()?;
            crate::print(&flexmd_ofs::render_spec(&spec))?;
            Ok(ExitCode::SUCCESS)
        }
        OfsCommand::Enrich { spec } => {
            let input = read_text(spec.as_deref())?;
            let parsed = flexmd_ofs::parse_spec(&input.text);
            input.report(&parsed.diagnostics);
            crate::print(&flexmd_ofs::prompt(&parsed.value))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Reads the spec for `validate` and `extract`: OFS Markdown, or OutputFormatSpec
/// JSON when the file starts with `{`.
pub(crate) fn read_spec(path: &std::path::Path) -> Result<OutputFormatSpec, CliError> {
    let input = read_text(Some(path))?;
    if input.text.trim_start().starts_with('{') {
        return input.json();
    }
    let parsed = flexmd_ofs::parse_spec(&input.text);
    input.report(&parsed.diagnostics);
    Ok(parsed.value)
}

/// `flexmd validate`: exit 0 when the answer follows the spec, 1 when not.
pub(crate) fn validate(
    spec: &std::path::Path,
    response: Option<&std::path::Path>,
    json: bool,
) -> Result<ExitCode, CliError> {
    let spec = read_spec(spec)?;
    let input = read_text(response)?;
    let report = flexmd_ofs::validate(&input.text, &spec);
    if json {
        crate::print_json(&report)?;
    } else {
        let diagnostics: Vec<flexmd_core::Diagnostic> = report
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
        input.report(&diagnostics);
        eprintln!(
            "{}: {} ({} errors, {} warnings)",
            input.name,
            if report.ok { "valid" } else { "invalid" },
            report.errors.len(),
            report.warnings.len()
        );
    }
    Ok(if report.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `flexmd extract`: the ExtractedResult, or with `--as-json` the plain object.
pub(crate) fn extract(
    spec: &std::path::Path,
    response: Option<&std::path::Path>,
    as_json: bool,
) -> Result<ExitCode, CliError> {
    let spec = read_spec(spec)?;
    let input = read_text(response)?;
    let extracted = flexmd_ofs::extract(&input.text, &spec, &flexmd_ofs::ExtractOptions::default());
    if as_json {
        crate::print_json(&flexmd_ofs::to_json(&extracted, &spec))?;
    } else {
        crate::print_json(&extracted)?;
    }
    Ok(ExitCode::SUCCESS)
}
