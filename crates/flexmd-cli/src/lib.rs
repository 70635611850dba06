//! `flexmd`: the command line over the flexmd crates.
//!
//! A thin shell: it reads input, calls one library function, and prints JSON
//! to stdout or a diagnostic to stderr. Exit codes: 0 success, 1 the input
//! was read but is invalid (or nothing was found), 2 usage error or
//! unreadable input.
//!
//! The library target exists for the binary and for `cargo xtask codegen`
//! (the CLI reference, man page and completions are generated from
//! [`command`]); its API is these two functions.

mod artifact;
mod batch;
mod detect;
mod error;
mod frames;
mod input;
mod ofs;
mod output;
mod schema;
mod snippet;
mod stream;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::error::CliError;
pub(crate) use crate::output::{print, print_json};

/// Make LLM output dependable: tell a model in Markdown what shape to answer
/// in, then check its answer and turn it into JSON.
///
/// Also: find JSON and other structure in any text, validate agent output
/// against JSON Schemas (and re-ask the model with hints), and query files
/// far too large for a prompt the way a model's tools would.
#[derive(Debug, Parser)]
#[command(name = "flexmd", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    config: schema::ConfigArg,
    #[command(flatten)]
    output: output::OutputArgs,
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
    /// FlexMD frames (a Markdown format for chat transcripts and tool
    /// messages): parse them to FlexDocument JSON, or write JSON back.
    #[command(subcommand)]
    Frames(frames::FramesCommand),
    /// Output Format Specs (the Markdown block that tells a model which
    /// sections to answer with): read one, print it, print the prompt text.
    #[command(subcommand)]
    Ofs(ofs::OfsCommand),
    /// Check answers against an Output Format Spec: exit 0 valid, 1 invalid.
    Validate {
        /// The spec: its Markdown block, or OutputFormatSpec JSON.
        #[arg(long)]
        spec: PathBuf,
        /// The answers (Markdown); standard input when none or `-`.
        responses: Vec<PathBuf>,
        /// Count warnings (leniencies used to read the answer) as errors.
        #[arg(long)]
        strict: bool,
        #[command(flatten)]
        batch: batch::BatchArgs,
    },
    /// Extract answers along an Output Format Spec as ExtractedResult JSON
    /// (exit 1 when an answer breaks the spec; the JSON is printed anyway).
    Extract {
        /// The spec: its Markdown block, or OutputFormatSpec JSON.
        #[arg(long)]
        spec: PathBuf,
        /// The answers (Markdown); standard input when none or `-`.
        responses: Vec<PathBuf>,
        /// Print the plain object keyed by section name instead.
        #[arg(long)]
        as_json: bool,
        /// Also parse lists written in prose sections (`list` on those sections).
        #[arg(long)]
        lists_in_prose: bool,
        /// Count warnings (leniencies used to read the answer) as errors.
        #[arg(long)]
        strict: bool,
        /// Read the answer as it arrives (one answer: a file, or standard
        /// input as a model writes it) and print each event as one line
        /// of JSON: `section_started`, `section_delta`, `section_completed`,
        /// `list_item`, `table_row`, `violation`, then `finished` with the
        /// report and the result.
        #[arg(long, conflicts_with = "jsonl")]
        stream: bool,
        #[command(flatten)]
        batch: batch::BatchArgs,
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
        /// The texts; standard input when none or `-`.
        files: Vec<PathBuf>,
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
        #[arg(long, conflicts_with_all = ["all", "jsonl"])]
        schema: Option<String>,
        /// With --schema: `strict` (repairs only), `standard` (repairs,
        /// coercions, defaults) or `salvage` (also drop what still violates).
        #[arg(long, value_enum, default_value_t = PresetArg::Standard, requires = "schema")]
        preset: PresetArg,
        /// Read the text as it arrives (one text: a file, or standard input
        /// as a model writes it) and print, as one line of JSON each, an
        /// `update` for every piece that changes the partial value (JSON
        /// Patch operations, the paths completed, where the reading is),
        /// then `finished` with the value.
        #[arg(long, conflicts_with_all = ["all", "schema", "jsonl"])]
        stream: bool,
        #[command(flatten)]
        batch: batch::BatchArgs,
    },
    /// JSON Schemas for agent output: list, show, validate (with coercion,
    /// defaults, hints), create one from an example.
    #[command(subcommand)]
    Schema(schema::SchemaCommand),
    /// Ask a model (any command) for an answer, check it against a schema
    /// or an Output Format Spec, and ask again with hints until it is valid.
    Run(schema::RunArgs),
    /// Print a grammar that holds a local model to a JSON Schema or an
    /// Output Format Spec while it writes: Lark (llguidance: vLLM, SGLang),
    /// GBNF (llama.cpp), EBNF (XGrammar) or one regex (Outlines). What the
    /// grammar cannot enforce is noted on stderr (with --json, the whole
    /// report).
    Grammar(schema::GrammarArgs),
    /// Query a file far too large for a prompt, as a model's tools would
    /// (`flexmd artifact tail big.log n=20`); `flexmd artifact OP --help`
    /// explains each operation.
    #[command(subcommand_required = true)]
    Artifact(artifact::ArtifactArgs),
    /// Print the function-calling tools (OpenAI or Anthropic format) a model
    /// would be offered to query these files.
    Tools(artifact::ToolsArgs),
    /// Run a model's tool calls (as the provider sent them) on these files
    /// and print the results.
    Call(artifact::CallArgs),
    /// Serve flexmd to an agent over the Model Context Protocol, on
    /// standard input and output: the artifact tools over FILEs and any
    /// file opened under a --root, and the output checks; every result
    /// within a token budget, paged with a cursor, never cut silently.
    Mcp {
        /// A directory whose files the agent may open (`artifact_open`);
        /// repeat for more. Paths outside it, `..` and symlinks leading out
        /// are refused. Without one, only the FILEs can be read.
        #[arg(long = "root", value_name = "DIR")]
        roots: Vec<PathBuf>,
        /// The budget of a result when a call gives no `max_tokens`, and the
        /// most a call may ask for: a larger `max_tokens` is lowered to it,
        /// with a note (o200k tokens; Claude Code cuts MCP results at 25 000).
        #[arg(long, value_name = "N", default_value_t = flexmd_artifact::DEFAULT_MAX_TOKENS)]
        max_result_tokens: usize,
        /// The longest message a client may send, in bytes; a longer one is
        /// answered with a JSON-RPC error (-32600) and skipped.
        #[arg(long, value_name = "BYTES", default_value_t = flexmd_mcp::DEFAULT_MAX_MESSAGE_BYTES)]
        max_message_bytes: usize,
        /// How many files may be open at once; past it `artifact_open` is
        /// refused with a message saying so.
        #[arg(long, value_name = "N", default_value_t = flexmd_mcp::DEFAULT_MAX_OPEN)]
        max_open: usize,
        /// Files open from the start; their path as given is their callId.
        files: Vec<PathBuf>,
    },
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

/// The whole command line, with the `artifact` operations generated from
/// the tool catalogue (also what `cargo xtask codegen` documents).
pub fn command() -> clap::Command {
    Cli::command().mut_subcommand("artifact", |c| c.subcommands(artifact::operations()))
}

/// Runs `flexmd` with the process's arguments and returns its exit code.
pub fn main() -> ExitCode {
    let matches = command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    output::configure(&cli.output);
    let artifact_matches = matches
        .subcommand_matches("artifact")
        .cloned()
        .unwrap_or_default();
    match run(cli, &artifact_matches) {
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

fn run(cli: Cli, artifact_matches: &clap::ArgMatches) -> Result<ExitCode, CliError> {
    let json = cli.output.json;
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
        Command::Ofs(command) => ofs::run(command, json),
        Command::Validate {
            spec,
            responses,
            strict,
            batch,
        } if batch.jsonl => ofs::batch(
            &spec,
            &responses,
            &ofs::ExtractFlags {
                as_json: false,
                lists_in_prose: false,
                strict,
            },
            &batch,
            true,
        ),
        Command::Validate {
            spec,
            responses,
            strict,
            ..
        } => ofs::validate(&spec, &responses, strict, json),
        Command::Extract {
            spec,
            responses,
            as_json,
            lists_in_prose,
            strict,
            batch,
            ..
        } if batch.jsonl => ofs::batch(
            &spec,
            &responses,
            &ofs::ExtractFlags {
                as_json,
                lists_in_prose,
                strict,
            },
            &batch,
            false,
        ),
        Command::Extract {
            spec,
            responses,
            as_json,
            lists_in_prose,
            strict,
            stream: true,
            ..
        } => stream::extract(
            &ofs::read_spec(&spec)?,
            &responses,
            &flexmd_ofs::ExtractOptions { lists_in_prose },
            as_json,
            strict,
        ),
        Command::Extract {
            spec,
            responses,
            as_json,
            lists_in_prose,
            strict,
            stream: false,
            ..
        } => ofs::extract(
            &spec,
            &responses,
            &ofs::ExtractFlags {
                as_json,
                lists_in_prose,
                strict,
            },
        ),
        Command::Detect { file } => detect::detect(file.as_deref()),
        Command::ParseAny { file } => detect::parse_any_command(file.as_deref()),
        Command::Json {
            files,
            repairs,
            stream: true,
            ..
        } => stream::json(&files, repairs),
        Command::Json {
            files,
            all,
            repairs,
            batch,
            ..
        } if batch.jsonl => detect::json_batch(&files, all, repairs, &batch),
        Command::Json {
            files,
            repairs,
            schema: Some(schema),
            preset,
            ..
        } => detect::json_as(&files, &schema, preset.into(), repairs, &cli.config),
        Command::Json {
            files,
            all,
            repairs,
            ..
        } => detect::json(&files, all, repairs),
        Command::Schema(command) => schema::run(command, &cli.config, json),
        Command::Run(args) => schema::run_model(args, &cli.config),
        Command::Grammar(args) => schema::grammar(args, &cli.config, json),
        Command::Artifact(_) => artifact::artifact(artifact_matches, json),
        Command::Tools(args) => artifact::tools(args),
        Command::Call(args) => artifact::call(args, json),
        Command::Mcp {
            roots,
            max_result_tokens,
            max_message_bytes,
            max_open,
            files,
        } => {
            let registry = schema::setup(&cli.config)?.registry;
            let options = flexmd_mcp::Options {
                roots,
                files,
                max_result_tokens,
                max_message_bytes,
                max_open,
                registry,
            };
            flexmd_mcp::Server::new(options)
                .and_then(flexmd_mcp::Server::run_stdio)
                .map_err(|e| CliError::Mcp(Box::new(e)))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
