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
        /// How meta values are typed (`schema` needs --meta-schema).
        #[arg(long, value_enum, default_value_t = MetaMode::Strings)]
        meta: MetaMode,
        /// The type of each meta key, as a JSON object such as
        /// `{"priority": "integer", "done": "boolean", "owners": "strings"}`
        /// (types: string, number, integer, boolean, strings); keys it does
        /// not name stay strings. Implies `--meta schema`.
        #[arg(long, value_name = "FILE")]
        meta_schema: Option<PathBuf>,
        /// Read `@key: value` and `@payload` lines anywhere in a frame, not only in its head.
        #[arg(long)]
        meta_anywhere: bool,
        /// Meta keys whose values are comma-separated lists (default: tags,refs;
        /// an empty value means none).
        #[arg(long, value_name = "KEYS", value_delimiter = ',')]
        array_keys: Option<Vec<String>>,
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
    /// Each key has the type --meta-schema gives it; a value that does not fit is an error.
    Schema,
}

pub(crate) fn run(command: FramesCommand) -> Result<ExitCode, CliError> {
    match command {
        FramesCommand::Parse {
            file,
            meta,
            meta_schema,
            meta_anywhere,
            array_keys,
        } => {
            let meta_type_mode = match (meta, meta_schema) {
                (MetaMode::Strings | MetaMode::Schema, Some(path)) => {
                    let schema = read_text(Some(&path))?;
                    MetaTypeMode::Schema(schema.json()?)
                }
                (MetaMode::Schema, None) => {
                    return Err(CliError::Usage(
                        "--meta schema needs --meta-schema FILE (a JSON object of key → type)"
                            .to_owned(),
                    ));
                }
                (MetaMode::Infer, Some(_)) => {
                    return Err(CliError::Usage(
                        "--meta-schema types meta by schema; it does not go with --meta infer"
                            .to_owned(),
                    ));
                }
                (MetaMode::Strings, None) => MetaTypeMode::Strings,
                (MetaMode::Infer, None) => MetaTypeMode::Infer,
            };
            let input = read_text(file.as_deref())?;
            let defaults = ParseOptions::default();
            let options = ParseOptions {
                meta_type_mode,
                meta_anywhere,
                array_keys: array_keys
                    .map(|keys| keys.into_iter().filter(|k| !k.is_empty()).collect())
                    .unwrap_or(defaults.array_keys),
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
