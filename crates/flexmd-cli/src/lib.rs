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
mod config;
mod detect;
mod error;
mod frames;
mod input;
mod ofs;
mod output;
mod report;
mod schema;
mod snippet;
mod stream;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::config::PresetArg;
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
    config: config::ConfigArg,
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
    /// How well answers follow their format, in aggregate, from a JSON
    /// Lines file of answers (or of the results `extract`, `validate` or
    /// `json --jsonl` printed): per group (`--group-by model,prompt`) the
    /// valid share with its 95% interval, the leniencies relied on, each
    /// violation and JSON repair by code, each section's problems, answer
    /// lengths and the worst answers with their problems marked. As one
    /// self-contained HTML page with charts (-o report.html), JSON
    /// (--json) or a Markdown table (--markdown); exit 0 once made.
    Report(report::ReportArgs),
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
    /// standard input and output (or Streamable HTTP with --http): the
    /// artifact tools over FILEs and any file opened under a --root, and
    /// the output checks; every result within a token budget, paged with a
    /// cursor, never cut silently.
    Mcp {
        #[command(flatten)]
        http: McpHttpArgs,
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
        Command::Report(args) => report::report(args, &cli.config, json),
        Command::Artifact(_) => artifact::artifact(artifact_matches, json),
        Command::Tools(args) => artifact::tools(args),
        Command::Call(args) => artifact::call(args, json),
        Command::Mcp {
            http,
            roots,
            max_result_tokens,
            max_message_bytes,
            max_open,
            files,
        } => {
            let registry = config::setup(&cli.config)?.registry;
            let options = flexmd_mcp::Options {
                roots,
                files,
                max_result_tokens,
                max_message_bytes,
                max_open,
                registry,
            };
            let served = match http.options(max_message_bytes)? {
                Some(http) => flexmd_mcp::Server::new(options).and_then(|s| s.run_http(http)),
                None => flexmd_mcp::Server::new(options).and_then(flexmd_mcp::Server::run_stdio),
            };
            served.map_err(|e| CliError::Mcp(Box::new(e)))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `flexmd mcp`'s Streamable HTTP options.
#[derive(Debug, clap::Args)]
pub struct McpHttpArgs {
    /// Serve MCP over Streamable HTTP at this address instead of standard
    /// input and output: a port alone (8931) is on the loopback address
    /// 127.0.0.1, this machine only; IP:PORT for another (0.0.0.0:8931);
    /// port 0 for any free one. Needs --token-file (or FLEXMD_MCP_TOKEN),
    /// or --no-auth on a loopback address. Each session has its own open
    /// files and cursors; SIGTERM lets calls in flight finish, then exits 0.
    #[arg(long, value_name = "[IP:]PORT", value_parser = http_address)]
    http: Option<std::net::SocketAddr>,
    /// The file holding the bearer token every request must carry
    /// (`Authorization: Bearer TOKEN`); FLEXMD_MCP_TOKEN is read when this
    /// is not given.
    #[arg(
        long,
        value_name = "FILE",
        requires = "http",
        conflicts_with = "no_auth"
    )]
    token_file: Option<PathBuf>,
    /// Serve without authentication: only on a loopback address, where
    /// only this machine can connect.
    #[arg(long, requires = "http")]
    no_auth: bool,
    /// A browser origin allowed to call besides the server's own
    /// (`https://app.example.com:443`, `http://localhost:*`); repeat for
    /// more. A request with any other Origin header is refused (403).
    #[arg(long = "allow-origin", value_name = "ORIGIN", requires = "http")]
    allowed_origins: Vec<String>,
    /// A host name clients reach the server by (its Host header), besides
    /// localhost and the bound address; repeat for more.
    #[arg(long = "allow-host", value_name = "HOST", requires = "http")]
    allowed_hosts: Vec<String>,
    /// How many sessions may be open at once; a new one past it is refused
    /// (503).
    #[arg(long, value_name = "N", default_value_t = flexmd_mcp::DEFAULT_MAX_SESSIONS, requires = "http")]
    max_sessions: usize,
    /// Close a session unused this many seconds, releasing its files; its
    /// client gets 404 and initializes again.
    #[arg(long, value_name = "SECONDS", default_value_t = flexmd_mcp::DEFAULT_SESSION_IDLE.as_secs(), requires = "http")]
    session_idle: u64,
    /// How many calls one session may run at once; one more is a JSON-RPC
    /// error saying so.
    #[arg(long, value_name = "N", default_value_t = flexmd_mcp::DEFAULT_MAX_CALLS_PER_SESSION, requires = "http")]
    max_calls_per_session: usize,
    /// How long a client may take to send a request's headers, and then
    /// its body, in seconds (a slow client is cut off, or answered 408).
    #[arg(long, value_name = "SECONDS", default_value_t = flexmd_mcp::DEFAULT_REQUEST_TIMEOUT.as_secs(), requires = "http")]
    request_timeout: u64,
    /// How long calls in flight may take to finish after SIGTERM, in
    /// seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = flexmd_mcp::DEFAULT_SHUTDOWN_DEADLINE.as_secs(), requires = "http")]
    shutdown_deadline: u64,
}

/// `--http`'s value: `IP:PORT`, or a port alone on the loopback address.
fn http_address(value: &str) -> Result<std::net::SocketAddr, String> {
    if let Ok(port) = value.parse::<u16>() {
        return Ok(std::net::SocketAddr::from(([127, 0, 0, 1], port)));
    }
    value.parse().map_err(|_| {
        format!("`{value}` is neither a port (8931) nor an address with a port (127.0.0.1:8931, [::1]:8931)")
    })
}

impl McpHttpArgs {
    /// The HTTP options, or `None` for stdio; the token read from its file
    /// or FLEXMD_MCP_TOKEN.
    fn options(self, max_body_bytes: usize) -> Result<Option<flexmd_mcp::HttpOptions>, CliError> {
        let Some(addr) = self.http else {
            return Ok(None);
        };
        let token = match (&self.token_file, std::env::var("FLEXMD_MCP_TOKEN")) {
            (Some(file), _) => Some(
                std::fs::read_to_string(file)
                    .map_err(|source| CliError::Read {
                        path: file.clone(),
                        source,
                    })?
                    .trim()
                    .to_owned(),
            ),
            (None, Ok(token)) if !self.no_auth => Some(token.trim().to_owned()),
            (None, _) => None,
        };
        if token.is_none() && !self.no_auth {
            return Err(CliError::Usage(
                "--http needs a bearer token (--token-file FILE or FLEXMD_MCP_TOKEN), or \
                 --no-auth to serve a loopback address without one"
                    .to_owned(),
            ));
        }
        if self.no_auth && !addr.ip().is_loopback() {
            return Err(CliError::Usage(format!(
                "--no-auth serves only a loopback address (127.0.0.1, ::1); {addr} can be \
                 reached from other machines: give --token-file FILE"
            )));
        }
        let timeout = std::time::Duration::from_secs(self.request_timeout.max(1));
        Ok(Some(flexmd_mcp::HttpOptions {
            token,
            allowed_origins: self.allowed_origins,
            allowed_hosts: self.allowed_hosts,
            max_body_bytes,
            max_sessions: self.max_sessions.max(1),
            session_idle: std::time::Duration::from_secs(self.session_idle.max(1)),
            max_calls_per_session: self.max_calls_per_session.max(1),
            header_timeout: timeout,
            body_timeout: timeout,
            shutdown_deadline: std::time::Duration::from_secs(self.shutdown_deadline),
            ..flexmd_mcp::HttpOptions::new(addr)
        }))
    }
}
