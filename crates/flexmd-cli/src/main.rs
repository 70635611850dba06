//! `flexmd`: the command line over the flexmd crates.
//!
//! A thin shell: it reads input, calls one library function, and prints JSON
//! to stdout or a diagnostic to stderr. Exit codes: 0 success, 1 the input
//! was read but is invalid, 2 usage error or unreadable input.

mod artifact;
mod detect;
mod error;
mod frames;
mod input;
mod ofs;
mod schema;
mod snippet;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::error::CliError;

/// Make LLM output dependable: Markdown outlines, specs, validation and extraction.
#[derive(Debug, Parser)]
#[command(name = "flexmd", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    config: schema::ConfigArg,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the heading outline of a Markdown text as MdOutline JSON
    /// (`outline render` turns such JSON back into Markdown).
    #[command(args_conflicts_with_subcommands = true)]
    Outline {
        #[command(subcommand)]
        action: Option<OutlineAction>,
        /// The Markdown file; standard input when omitted or `-`.
        file: Option<PathBuf>,
        /// Print the outline rendered back to Markdown instead of JSON.
        #[arg(long)]
        render: bool,
    },
    /// FlexMD frames: parse them to FlexDocument JSON, or write JSON back as FlexMD.
    #[command(subcommand)]
    Frames(frames::FramesCommand),
    /// Output Format Specs: parse the Markdown block, render JSON back, print
    /// the prompt text, or print the general-purpose default spec.
    #[command(subcommand)]
    Ofs(ofs::OfsCommand),
    /// Check a model's answer against an Output Format Spec: exit 0 valid, 1 invalid.
    Validate {
        /// The spec: OFS Markdown, or OutputFormatSpec JSON.
        #[arg(long)]
        spec: PathBuf,
        /// The answer (Markdown); standard input when omitted or `-`.
        response: Option<PathBuf>,
        /// Print the report as JSON on stdout instead of diagnostics on stderr.
        #[arg(long)]
        json: bool,
    },
    /// Extract a model's answer along an Output Format Spec as ExtractedResult JSON.
    Extract {
        /// The spec: OFS Markdown, or OutputFormatSpec JSON.
        #[arg(long)]
        spec: PathBuf,
        /// The answer (Markdown); standard input when omitted or `-`.
        response: Option<PathBuf>,
        /// Print the plain object keyed by section name instead.
        #[arg(long)]
        as_json: bool,
        /// Also parse lists written in prose sections (`list` on those sections).
        #[arg(long)]
        lists_in_prose: bool,
    },
    /// Find structured objects (flexmd fences, FlexDocument JSON, raw FlexMD,
    /// Markdown snippets) in any text: DetectedObject[] JSON; exit 1 when none.
    Detect {
        /// The text; standard input when omitted or `-`.
        file: Option<PathBuf>,
    },
    /// Read every FlexMD document and Markdown snippet in any text, and the
    /// text around them: ParseAnyResult JSON.
    ParseAny {
        /// The text; standard input when omitted or `-`.
        file: Option<PathBuf>,
    },
    /// Print the JSON value in a model's answer (in a fence or in prose),
    /// repaired if need be; repairs go to stderr. Exit 1 when there is none.
    Json {
        /// The text; standard input when omitted or `-`.
        file: Option<PathBuf>,
        /// Print an array of every value found, in order.
        #[arg(long)]
        all: bool,
        /// Print each value with its span, source, ladder step and repairs
        /// (with --schema: the whole report, coercions and violations too).
        #[arg(long)]
        repairs: bool,
        /// Return the value that fits this schema best, coerced to it: a
        /// registered schema's name, a JSON Schema file, or an Output Format
        /// Spec file. Exit 1 when it still violates the schema.
        #[arg(long, conflicts_with = "all")]
        schema: Option<String>,
        /// With --schema: `strict` (repairs only), `standard` (repairs,
        /// coercions, defaults) or `salvage` (also drop what still violates).
        #[arg(long, value_enum, default_value_t = PresetArg::Standard, requires = "schema")]
        preset: PresetArg,
    },
    /// JSON Schemas for agent output: list, show, validate (with coercion,
    /// defaults, hints), create from an example.
    #[command(subcommand)]
    Schema(schema::SchemaCommand),
    /// Ask a model (any command) for an answer, validate it against a schema
    /// or an Output Format Spec, and retry with hints; prints the valid data.
    Run(schema::RunArgs),
    /// Run one artifact operation on a file, printing exactly what the
    /// forged tool would return (`flexmd artifact tail big.log n=20`).
    Artifact(artifact::ArtifactArgs),
    /// Print the tool definitions forged for these files.
    Tools(artifact::ToolsArgs),
    /// Run one tool call on these files and print its result text.
    Call(artifact::CallArgs),
}

/// `flexmd outline render`.
#[derive(Debug, Subcommand)]
enum OutlineAction {
    /// Write MdOutline JSON back as Markdown: each heading at its level with
    /// its title and content (keys and ids are internal and never written).
    Render {
        /// The MdOutline JSON file; standard input when omitted or `-`.
        outline_json: Option<PathBuf>,
    },
}

/// `--preset` values.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum PresetArg {
    Strict,
    Standard,
    Salvage,
}

impl From<PresetArg> for flexmd_schema::Preset {
    fn from(p: PresetArg) -> Self {
        match p {
            PresetArg::Strict => Self::Strict,
            PresetArg::Standard => Self::Standard,
            PresetArg::Salvage => Self::Salvage,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // A reader that stops early (`| head`) is not an error worth a report.
        Err(CliError::Stdout(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            let code = err.exit_code();
            eprintln!("{:?}", miette::Report::new(err));
            code
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, CliError> {
    match cli.command {
        Command::Outline {
            action: Some(OutlineAction::Render { outline_json }),
            ..
        } => {
            let input = input::read_text(outline_json.as_deref())?;
            let outline: flexmd_core::MdOutline = input.json()?;
            print(&flexmd_core::render_outline(&outline))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Outline { file, render, .. } => {
            let input = input::read_text(file.as_deref())?;
            let outline = flexmd_core::build_outline(&input.text);
            if render {
                print(&flexmd_core::render_outline(&outline))?;
            } else {
                print_json(&outline)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Frames(command) => frames::run(command),
        Command::Ofs(command) => ofs::run(command),
        Command::Validate {
            spec,
            response,
            json,
        } => ofs::validate(&spec, response.as_deref(), json),
        Command::Extract {
            spec,
            response,
            as_json,
            lists_in_prose,
        } => ofs::extract(&spec, response.as_deref(), as_json, lists_in_prose),
        Command::Detect { file } => detect::detect(file.as_deref()),
        Command::ParseAny { file } => detect::parse_any_command(file.as_deref()),
        Command::Json {
            file,
            repairs,
            schema: Some(schema),
            preset,
            ..
        } => detect::json_as(
            file.as_deref(),
            &schema,
            preset.into(),
            repairs,
            &cli.config,
        ),
        Command::Json {
            file, all, repairs, ..
        } => detect::json(file.as_deref(), all, repairs),
        Command::Schema(command) => schema::run(command, &cli.config),
        Command::Run(args) => schema::run_model(args, &cli.config),
        Command::Artifact(args) => artifact::artifact(args),
        Command::Tools(args) => artifact::tools(args),
        Command::Call(args) => artifact::call(args),
    }
}

/// Writes `text` to stdout as is.
pub(crate) fn print(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(CliError::Stdout)
}

/// Writes `value` to stdout as pretty JSON and a final newline, streamed
/// (a 100 MB value is not built as a string first).
pub(crate) fn print_json<T: serde::Serialize>(value: &T) -> Result<(), CliError> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer_pretty(&mut out, value).map_err(|e| {
        if e.is_io() {
            CliError::Stdout(std::io::Error::from(e))
        } else {
            CliError::Serialize(e)
        }
    })?;
    out.write_all(b"\n")
        .and_then(|()| out.flush())
        .map_err(CliError::Stdout)
}
