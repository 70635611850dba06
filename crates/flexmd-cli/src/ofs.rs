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
            crate::print_json(&parsed.value)?;
            let failed = input.report(&parsed.diagnostics);
            Ok(if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
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
