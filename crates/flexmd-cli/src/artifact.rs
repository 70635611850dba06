//! `flexmd artifact OP FILE [ARGS]`, `flexmd tools FILE...`,
//! `flexmd call FILE... --call CALL_JSON`: the forged tools on files.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use flexmd_artifact::{
    Artifact, FileReader, JsonFormat, SpooledArtifact, SpooledJsonArtifact,
    SpooledMarkdownArtifact, forge_tools,
};
use serde_json::{Map, Value};

use crate::error::CliError;
use crate::{print, print_json};

/// How to read the files.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum Kind {
    /// JSON, JSON5 or JSON Lines, told apart by content.
    Json,
    /// JSON5 (comments, trailing commas, unquoted keys).
    Json5,
    /// JSON Lines: one value per line.
    Jsonl,
    /// The same as jsonl, under its other name.
    Ndjson,
    /// Markdown.
    Markdown,
    /// Plain text (the line tools only).
    Text,
}

/// `--as`: the kind of every file, instead of the one its extension gives.
#[derive(Debug, Args)]
pub(crate) struct KindArg {
    /// Read every file as this kind (default: from the extension: .json,
    /// .json5, .jsonl, .ndjson are JSON of that format; .md, .markdown
    /// Markdown; else text).
    #[arg(long = "as", value_enum)]
    kind: Option<Kind>,
}

/// `flexmd artifact` arguments.
#[derive(Debug, Args)]
pub(crate) struct ArtifactArgs {
    /// The operation: head, tail, grep, cat, byte-length, line-count,
    /// estimate-tokens, as-string, json-type, json-keys, json-length,
    /// json-get, json-filter, json-slice, json-pluck, md-frontmatter,
    /// md-headings, md-code-blocks, md-sections, md-ast, md-links,
    /// md-images, md-text.
    op: String,
    /// The file.
    file: PathBuf,
    /// The tool's arguments, as `name=value` or, in the tool's order, plain
    /// values (`flexmd artifact grep log.txt ERROR i`).
    args: Vec<String>,
    #[command(flatten)]
    kind: KindArg,
}

/// `flexmd tools` arguments.
#[derive(Debug, Args)]
pub(crate) struct ToolsArgs {
    /// The files; each one's callId is its path as given.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The tool-definition format.
    #[arg(long, value_enum, default_value_t = Format::Openai)]
    format: Format,
    #[command(flatten)]
    kind: KindArg,
}

/// `flexmd call` arguments.
#[derive(Debug, Args)]
pub(crate) struct CallArgs {
    /// The files; each one's callId is its path as given.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The call: `{"name": "artifact_grep", "arguments": {...}}` (arguments
    /// as an object or as JSON text, as models send them).
    #[arg(long)]
    call: String,
    #[command(flatten)]
    kind: KindArg,
}

/// Tool-definition formats.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum Format {
    /// `[{"type": "function", "function": {...}}]`
    Openai,
    /// `[{"name", "description", "input_schema"}]`
    Anthropic,
}

/// Files from this size on show indexing progress on a terminal.
const PROGRESS_FROM: u64 = 64 << 20;

fn open(path: &Path, kind: Option<Kind>) -> Result<(String, Artifact), CliError> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let kind = kind.unwrap_or(match extension.as_deref() {
        Some("json") => Kind::Json,
        Some("json5") => Kind::Json5,
        Some("jsonl") => Kind::Jsonl,
        Some("ndjson") => Kind::Ndjson,
        Some("md" | "markdown") => Kind::Markdown,
        _ => Kind::Text,
    });
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let show = size >= PROGRESS_FROM && std::io::stderr().is_terminal();
    let name = path.display().to_string();
    let mut progress = |done: usize| {
        if show {
            eprint!("\rindexing {name}: {} of {} MiB", done >> 20, size >> 20);
        }
    };
    let reader = FileReader::open_with_progress(path, &mut progress)?;
    if show {
        eprintln!();
    }
    let format = match kind {
        Kind::Json5 => Some(JsonFormat::Json5),
        Kind::Jsonl => Some(JsonFormat::Jsonl),
        Kind::Ndjson => Some(JsonFormat::Ndjson),
        _ => None,
    };
    let artifact = match kind {
        Kind::Text => Artifact::Text(SpooledArtifact::new(reader)),
        Kind::Markdown => Artifact::Markdown(SpooledMarkdownArtifact::new(reader)),
        Kind::Json | Kind::Json5 | Kind::Jsonl | Kind::Ndjson => {
            Artifact::Json(SpooledJsonArtifact::new(reader, format)?)
        }
    };
    Ok((name, artifact))
}

fn open_all(files: &[PathBuf], kind: Option<Kind>) -> Result<Vec<(String, Artifact)>, CliError> {
    files.iter().map(|f| open(f, kind)).collect()
}

pub(crate) fn artifact(args: ArtifactArgs) -> Result<ExitCode, CliError> {
    let artifacts = vec![open(&args.file, args.kind.kind)?];
    let id = artifacts
        .first()
        .map(|(id, _)| id.clone())
        .unwrap_or_default();
    if args.op == "as-string" {
        let text = artifacts
            .first()
            .map(|(_, a)| a.base().as_string().into_owned())
            .unwrap_or_default();
        print(&text)?;
        return Ok(ExitCode::SUCCESS);
    }
    let tools = forge_tools(&artifacts);
    let name = format!("artifact_{}", args.op.replace('-', "_"));
    let definition = tools
        .definitions()
        .into_iter()
        .find(|d| d.name == name)
        .ok_or_else(|| {
            CliError::Usage(format!(
                "`{}` is not an operation for this file; see `flexmd artifact --help`",
                args.op
            ))
        })?;
    let properties: Vec<(String, Value)> = definition
        .parameters
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| {
            p.iter()
                .filter(|(k, _)| *k != "callId")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default();
    let mut call = Map::new();
    call.insert("callId".to_owned(), Value::String(id));
    let mut positional = properties.iter();
    for arg in &args.args {
        let (key, raw) = match arg.split_once('=') {
            Some((k, v)) if properties.iter().any(|(name, _)| name == k) => (k.to_owned(), v),
            _ => match positional.find(|(k, _)| !call.contains_key(k)) {
                Some((k, _)) => (k.clone(), arg.as_str()),
                None => {
                    return Err(CliError::Usage(format!(
                        "too many arguments for `{}`: `{arg}`",
                        args.op
                    )));
                }
            },
        };
        let integer = properties
            .iter()
            .any(|(k, schema)| *k == key && schema.get("type") == Some(&Value::from("integer")));
        let value = match (integer, raw.parse::<i64>()) {
            (true, Ok(n)) => Value::from(n),
            _ => Value::String(raw.to_owned()),
        };
        call.insert(key, value);
    }
    run_call(&tools, &name, &Value::Object(call).to_string())
}

fn run_call(
    tools: &flexmd_artifact::ToolSet<'_>,
    name: &str,
    arguments: &str,
) -> Result<ExitCode, CliError> {
    match tools.call(name, arguments) {
        Ok(mut text) => {
            text.push('\n');
            print(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            // The text a model would get back, on stderr; exit 1.
            eprintln!("{e}");
            Ok(ExitCode::from(1))
        }
    }
}

pub(crate) fn tools(args: ToolsArgs) -> Result<ExitCode, CliError> {
    let artifacts = open_all(&args.files, args.kind.kind)?;
    let tools = forge_tools(&artifacts);
    print_json(&match args.format {
        Format::Openai => tools.to_openai(),
        Format::Anthropic => tools.to_anthropic(),
    })?;
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn call(args: CallArgs) -> Result<ExitCode, CliError> {
    let call: Value = serde_json::from_str(&args.call)
        .map_err(|e| CliError::Usage(format!("--call is not JSON: {e}")))?;
    let name = call
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| CliError::Usage("--call needs a string `name`".to_owned()))?;
    // Models send arguments as an object, or as a JSON string holding one.
    let arguments = match call.get("arguments").or_else(|| call.get("input")) {
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
        None => "{}".to_owned(),
    };
    let artifacts = open_all(&args.files, args.kind.kind)?;
    let tools = forge_tools(&artifacts);
    run_call(&tools, name, &arguments)
}
