//! `flexmd frames parse|stringify`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Subcommand, ValueEnum};
use flexmd_core::{FlexDocument, MetaTypeMode};
use flexmd_frames::{HeaderStyle, ParseOptions, StringifyOptions};

use crate::error::CliError;
use crate::input::read_text;

#[derive(Debug, Subcommand)]
pub(crate) enum FramesCommand {
    /// Parse FlexMD to FlexDocument JSON; diagnostics go to stderr, and any
    /// error among them makes the exit code 1.
    Parse {
        /// The FlexMD file; standard input when omitted or `-`.
        file: Option<PathBuf>,
        /// How meta values are typed.
        #[arg(long, value_enum, default_value_t = MetaMode::Strings)]
        meta: MetaMode,
        /// Read `@key: value` and `@payload` lines anywhere in a frame, not only in its head.
        #[arg(long)]
        meta_anywhere: bool,
    },
    /// Write FlexDocument JSON as FlexMD.
    Stringify {
        /// The FlexDocument JSON file; standard input when omitted or `-`.
        file: Option<PathBuf>,
        /// Write headers as `## [[type ...]]` headings at this level instead of bracket lines.
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
        heading_level: Option<u8>,
    },
}

/// `--meta`: how meta values are typed.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum MetaMode {
    /// Every value stays a string.
    Strings,
    /// true/false, null and JSON numbers become typed; `0012` stays a string.
    Infer,
}

pub(crate) fn run(command: FramesCommand) -> Result<ExitCode, CliError> {
    match command {
        FramesCommand::Parse {
            file,
            meta,
            meta_anywhere,
        } => {
            let input = read_text(file.as_deref())?;
            let options = ParseOptions {
                meta_type_mode: match meta {
                    MetaMode::Strings => MetaTypeMode::Strings,
                    MetaMode::Infer => MetaTypeMode::Infer,
                },
                meta_anywhere,
                ..ParseOptions::default()
            };
            let parsed = flexmd_frames::parse(&input.text, &options);
            input.print_parsed(&parsed)
        }
        FramesCommand::Stringify {
            file,
            heading_level,
        } => {
            let input = read_text(file.as_deref())?;
            let doc: FlexDocument = input.json()?;
            let options = StringifyOptions {
                header_style: heading_level.map_or(HeaderStyle::Bracket, HeaderStyle::Heading),
            };
            crate::print(&flexmd_frames::stringify(&doc, &options))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
