//! `flexmd artifact OP FILE [ARGS]`, `flexmd tools FILE...`,
//! `flexmd call FILE... [--call JSON]`: the artifact tools on files. The
//! `artifact` subcommands, their arguments and their help are generated
//! from the library's tool catalogue, so the CLI and the tools a model is
//! offered never drift apart.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Arg, ArgAction, ArgMatches, Args, ValueEnum};
use flexmd_artifact::{
    Artifact, ArtifactError, ArtifactKind, FileReader, ReadAs, ToolCall, ToolCallResult, ToolInfo,
    ToolSet, check_arguments, forge_tools, tool_calls, tool_catalogue,
};
use serde_json::{Map, Value, json};

use crate::error::CliError;
use crate::input::{MappedInput, mapped_input};
use crate::output::{Progress, print, print_json};

/// How to read the files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
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

impl Kind {
    /// The library's name for the kind.
    fn read_as(self) -> ReadAs {
        match self {
            Self::Json => ReadAs::Json,
            Self::Json5 => ReadAs::Json5,
            Self::Jsonl => ReadAs::Jsonl,
            Self::Ndjson => ReadAs::Ndjson,
            Self::Markdown => ReadAs::Markdown,
            Self::Text => ReadAs::Text,
        }
    }
}

/// `--as`: the kind of every file, instead of the one its extension gives.
#[derive(Debug, Args)]
pub(crate) struct KindArg {
    /// Read every file as this kind (default: from the extension: .json,
    /// .json5, .jsonl, .ndjson are JSON of that format; .md, .markdown
    /// Markdown; anything else, and standard input, text).
    #[arg(long = "as", value_enum, value_name = "KIND")]
    kind: Option<Kind>,
}

/// `flexmd artifact` (its operations are generated: see [`operations`]).
#[derive(Debug, Args)]
pub(crate) struct ArtifactArgs {}

/// `flexmd tools` arguments.
#[derive(Debug, Args)]
pub(crate) struct ToolsArgs {
    /// The files (`-` for standard input); each one's callId is its path as
    /// given.
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
    /// The call, as JSON: `{"name", "arguments"}` (arguments an object or
    /// JSON text), an OpenAI tool call (`{"type": "function", "function":
    /// {...}}`) or an assistant message holding `tool_calls`, an Anthropic
    /// `tool_use` block or a message holding them, or an array of calls.
    /// Standard input when neither this nor --call-file is given.
    #[arg(long, value_name = "JSON", conflicts_with = "call_file")]
    call: Option<String>,
    /// Read the call JSON from this file.
    #[arg(long, value_name = "FILE")]
    call_file: Option<PathBuf>,
    /// Answer with one page of the result, at most N tokens (o200k_base):
    /// `{text, tokens, truncated, omitted, cursor}`, cut only between whole
    /// lines or whole JSON values; pass the page's cursor with --cursor
    /// for the next one.
    #[arg(long, value_name = "N")]
    max_tokens: Option<usize>,
    /// Continue after the page that returned this cursor (same call, same
    /// --max-tokens or another).
    #[arg(long, requires = "max_tokens")]
    cursor: Option<String>,
    #[command(flatten)]
    kind: KindArg,
}

/// Tool-definition formats.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum Format {
    /// `[{"type": "function", "function": {...}}]` (Chat Completions)
    Openai,
    /// `[{"type": "function", "name", "description", "parameters",
    /// "strict": false}]` (the Responses API)
    OpenaiResponses,
    /// `[{"name", "description", "input_schema"}]`
    Anthropic,
}

/// The CLI name of a tool: `artifact_json_get` → `json-get`.
fn op_name(tool: &str) -> String {
    tool.trim_start_matches("artifact_").replace('_', "-")
}

/// The tool's description as it reads on a command line.
fn cli_description(description: &str) -> String {
    description
        .replace("a JSON tool result from this turn", "a JSON file")
        .replace("a Markdown tool result from this turn", "a Markdown file")
        .replace("a tool result from this turn", "the file")
}

/// One line per parameter: name, type, range or values, default, meaning.
fn parameter_lines(tool: &ToolInfo) -> Vec<String> {
    let schema = &tool.definition.parameters;
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema["properties"].as_object() else {
        return Vec::new();
    };
    properties
        .iter()
        .filter(|(name, _)| *name != "callId")
        .map(|(name, p)| {
            let mut kind = p["type"].as_str().unwrap_or("string").to_owned();
            if let Some(values) = p["enum"].as_array() {
                let names: Vec<&str> = values
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|v| !v.is_empty())
                    .collect();
                kind = format!("one of {}", names.join(", "));
            }
            match (p["minimum"].as_i64(), p["maximum"].as_i64()) {
                (Some(min), Some(max)) => kind.push_str(&format!(" {min}..{max}")),
                (Some(min), None) => kind.push_str(&format!(" ≥ {min}")),
                _ => {}
            }
            let need = if required.contains(&name.as_str()) {
                ", required".to_owned()
            } else if let Some(d) = p.get("default").filter(|d| !d.is_null()) {
                format!(", default {d}")
            } else {
                String::new()
            };
            let doc = p["description"].as_str().unwrap_or_default();
            format!("  {name}  ({kind}{need}): {doc}")
        })
        .collect()
}

/// The example call of a tool, as `name=value` words.
fn example_words(tool: &ToolInfo) -> String {
    tool.example
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| {
                    let value = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
                    let word = format!("{k}={value}");
                    if word.contains([' ', '|', '$', '[', '?', '\'', '*', '(']) {
                        format!("'{}'", word.replace('\'', "'\\''"))
                    } else {
                        word
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// The `flexmd artifact` subcommands, one per tool of the catalogue (and
/// `as-string`), each with its arguments, their types and defaults, and an
/// example, in its help.
pub(crate) fn operations() -> Vec<clap::Command> {
    let file = || {
        Arg::new("file")
            .value_name("FILE")
            .required(true)
            .help("The file; `-` for standard input")
    };
    let kind = || {
        Arg::new("as")
            .long("as")
            .value_name("KIND")
            .value_parser(clap::builder::EnumValueParser::<Kind>::new())
            .help("Read the file as this kind (default: from its extension)")
    };
    let mut ops: Vec<clap::Command> = tool_catalogue()
        .iter()
        .map(|tool| {
            let name = op_name(&tool.definition.name);
            let description = cli_description(&tool.definition.description);
            let reads = match tool.reads {
                None => "any file",
                Some(ArtifactKind::Json) => "JSON, JSON5 or JSON Lines files",
                Some(ArtifactKind::Markdown) => "Markdown files",
                Some(ArtifactKind::Text) => "text files",
            };
            let params = parameter_lines(tool);
            let mut long = format!("{description}\n\nReads {reads}.");
            if !params.is_empty() {
                long.push_str(
                    "\n\nArguments, as NAME=VALUE or as plain values in this order:\n",
                );
                long.push_str(&params.join("\n"));
            }
            let example = example_words(tool);
            let after = format!(
                "Example:\n  flexmd artifact {name} FILE{}{example}\n\nThe same as the tool call \
                 {{\"name\": \"{}\", \"arguments\": {}}} with callId FILE.",
                if example.is_empty() { "" } else { " " },
                tool.definition.name,
                with_call_id(&tool.example)
            );
            let mut op = clap::Command::new(name)
                .about(description)
                .long_about(long)
                .after_long_help(after)
                .arg(file())
                .arg(
                    Arg::new("args")
                        .value_name("NAME=VALUE")
                        .num_args(0..)
                        .action(ArgAction::Append)
                        .allow_negative_numbers(true)
                        .help("The tool's arguments (see --help for each one)"),
                )
                .arg(kind());
            if tool.definition.name == "artifact_grep" {
                op = op.arg(
                    Arg::new("line-number")
                        .short('n')
                        .long("line-number")
                        .action(ArgAction::SetTrue)
                        .help("Start each line with its 1-based line number and `:` (lineNumbers=true)"),
                );
            }
            op
        })
        .collect();
    ops.push(
        clap::Command::new("as-string")
            .about("Print the whole file as text (what the model would be given without tools)")
            .arg(file())
            .arg(kind()),
    );
    ops
}

/// Writes the whole content as `as_string` gives it (invalid UTF-8 as
/// U+FFFD), a window at a time, releasing each window's pages behind it: a
/// 1 GB file is not held in memory at once.
fn print_whole(reader: &dyn flexmd_artifact::SpoolReader) -> Result<(), CliError> {
    use std::io::Write;
    const WINDOW: usize = 16 << 20;
    let bytes = reader.bytes();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut at = 0;
    while at < bytes.len() {
        let mut end = (at + WINDOW).min(bytes.len());
        // Cut before a UTF-8 continuation byte, never inside a character.
        while end > at + 1 && bytes.get(end).is_some_and(|b| b & 0xC0 == 0x80) {
            end -= 1;
        }
        let text = String::from_utf8_lossy(reader.byte_range(at..end));
        out.write_all(text.as_bytes()).map_err(CliError::Stdout)?;
        reader.release(at..end);
        at = end;
    }
    out.flush().map_err(CliError::Stdout)
}

/// The example's arguments with a callId, as JSON text.
fn with_call_id(example: &Value) -> String {
    let mut map = Map::new();
    map.insert("callId".to_owned(), json!("FILE"));
    if let Some(args) = example.as_object() {
        map.extend(args.clone());
    }
    Value::Object(map).to_string()
}

/// Files from this size on show indexing progress (on a terminal, after
/// half a second).
const PROGRESS_FROM: u64 = 64 << 20;

/// Opens `input` as `kind`, or the kind its name gives, with its line
/// index built now (with a progress line on large files): what every
/// operation but `head`, `tail` and `byte-length` needs.
fn open(input: &MappedInput, kind: Option<Kind>) -> Result<(String, Artifact), CliError> {
    open_for(input, kind, true)
}

/// [`open`], building the line index now only when `index_now` (else when
/// an operation first needs it).
fn open_for(
    input: &MappedInput,
    kind: Option<Kind>,
    index_now: bool,
) -> Result<(String, Artifact), CliError> {
    let read_as = kind.map_or_else(|| ReadAs::for_path(Path::new(&input.name)), Kind::read_as);
    if !index_now {
        let reader = FileReader::open(&input.path)?;
        return Ok((input.name.clone(), Artifact::read(reader, read_as)?));
    }
    let size = std::fs::metadata(&input.path).map(|m| m.len()).unwrap_or(0);
    let progress =
        (size >= PROGRESS_FROM).then(|| Progress::start(&format!("indexing {}", input.name)));
    let mut report = |done: usize| {
        if let Some(p) = &progress {
            p.set(format!(": {} of {} MiB", done >> 20, size >> 20));
        }
    };
    let reader = FileReader::open_with_progress(&input.path, &mut report)?;
    drop(progress);
    Ok((input.name.clone(), Artifact::read(reader, read_as)?))
}

/// The opened files, and the inputs that must outlive them (a spooled
/// standard input is removed when its [`MappedInput`] is dropped).
type Opened = (Vec<MappedInput>, Vec<(String, Artifact)>);

/// Opens every file; standard input (`-`) at most once.
fn open_all(files: &[PathBuf], kind: Option<Kind>) -> Result<Opened, CliError> {
    if files
        .iter()
        .filter(|f| crate::input::is_stdin(Some(f)))
        .count()
        > 1
    {
        return Err(CliError::Usage(
            "standard input (`-`) can be given once".to_owned(),
        ));
    }
    let inputs: Vec<MappedInput> = files
        .iter()
        .map(|f| mapped_input(f))
        .collect::<Result<_, _>>()?;
    let artifacts = inputs
        .iter()
        .map(|i| open(i, kind))
        .collect::<Result<_, _>>()?;
    Ok((inputs, artifacts))
}

/// The tool arguments of `flexmd artifact OP FILE ARGS`: `name=value` for a
/// parameter, or plain values in the parameters' order. An unknown name, a
/// repeated one or too many values is a usage error.
fn arguments(tool: &ToolInfo, raw: &[String]) -> Result<Map<String, Value>, CliError> {
    let schema = tool.definition.parameters.get("properties");
    let names: Vec<&str> = schema
        .and_then(Value::as_object)
        .map(|p| {
            p.keys()
                .map(String::as_str)
                .filter(|k| *k != "callId")
                .collect()
        })
        .unwrap_or_default();
    let op = op_name(&tool.definition.name);
    let listed = || {
        if names.is_empty() {
            "it takes no arguments".to_owned()
        } else {
            format!("its arguments are {}", names.join(", "))
        }
    };
    let mut args = Map::new();
    for word in raw {
        let named = word.split_once('=').filter(|(k, _)| {
            !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        let (key, value) = match named {
            Some((k, v)) if names.contains(&k) => (k.to_owned(), v),
            Some((k, _)) => {
                return Err(CliError::Usage(format!(
                    "`{op}` has no argument `{k}`: {} (a value holding `=` is written NAME=VALUE)",
                    listed()
                )));
            }
            None => match names.iter().find(|n| !args.contains_key(**n)) {
                Some(n) => ((*n).to_owned(), word.as_str()),
                None => {
                    return Err(CliError::Usage(format!(
                        "too many arguments for `{op}`: `{word}`; {}",
                        listed()
                    )));
                }
            },
        };
        if args.contains_key(&key) {
            return Err(CliError::Usage(format!("`{key}` is given twice to `{op}`")));
        }
        let declared = schema
            .and_then(|s| s.get(&key))
            .and_then(|p| p.get("type"))
            .and_then(Value::as_str);
        let value = match declared {
            Some("integer") => value
                .parse::<i64>()
                .map_or_else(|_| Value::String(value.to_owned()), Value::from),
            Some("boolean") => match value {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                other => Value::String(other.to_owned()),
            },
            _ => Value::String(value.to_owned()),
        };
        args.insert(key, value);
    }
    Ok(args)
}

/// An artifact error's exit code: 2 for a bad query or an unreadable file,
/// 1 for a file that is not the kind it was read as.
fn error_code(e: &ArtifactError) -> u8 {
    match e {
        ArtifactError::Json(_) | ArtifactError::Markdown(_) => 1,
        _ => 2,
    }
}

/// `flexmd artifact OP FILE ARGS`.
pub(crate) fn artifact(matches: &ArgMatches, json_out: bool) -> Result<ExitCode, CliError> {
    let Some((op, sub)) = matches.subcommand() else {
        return Err(CliError::Usage(
            "name an operation: flexmd artifact --help lists them".to_owned(),
        ));
    };
    let file = sub
        .get_one::<String>("file")
        .map(PathBuf::from)
        .unwrap_or_default();
    let kind = sub.get_one::<Kind>("as").copied();
    if op == "as-string" {
        let input = mapped_input(&file)?;
        let (_, artifact) = open(&input, kind)?;
        print_whole(artifact.base().reader())?;
        return Ok(ExitCode::SUCCESS);
    }
    let catalogue = tool_catalogue();
    let Some(tool) = catalogue.iter().find(|t| op_name(&t.definition.name) == op) else {
        return Err(CliError::Usage(format!("`{op}` is not an operation")));
    };
    let raw: Vec<String> = sub
        .get_many::<String>("args")
        .map(|v| v.cloned().collect())
        .unwrap_or_default();
    let mut args = arguments(tool, &raw)?;
    if matches!(sub.try_get_one::<bool>("line-number"), Ok(Some(true))) {
        args.insert("lineNumbers".to_owned(), Value::Bool(true));
    }
    let name = tool.definition.name.clone();
    // Checked before a large file is mapped and indexed.
    check_arguments(&name, &Value::Object(args.clone()).to_string())
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let input = mapped_input(&file)?;
    // The first or last lines, the size and grep (which counts lines as it
    // searches) need no line index: on a 1 GB file, it was most of the cost.
    let index_now = !matches!(op, "head" | "tail" | "byte-length" | "grep");
    let artifacts = vec![open_for(&input, kind, index_now)?];
    args.insert("callId".to_owned(), Value::String(input.name.clone()));
    let tools = forge_tools(&artifacts);
    if !tools.definitions().iter().any(|d| d.name == name) {
        return Err(CliError::Usage(format!(
            "`{op}` does not read {} (read as {}); pass --as to read it as another kind",
            input.name,
            kind_name(&artifacts)
        )));
    }
    let calls = vec![ToolCall {
        id: None,
        name,
        arguments: Value::Object(args).to_string(),
    }];
    run_calls(&tools, &calls, json_out, true)
}

fn kind_name(artifacts: &[(String, Artifact)]) -> &'static str {
    match artifacts.first().map(|(_, a)| a.kind()) {
        Some(ArtifactKind::Json) => "JSON",
        Some(ArtifactKind::Markdown) => "Markdown",
        _ => "text",
    }
}

/// Runs `calls` and prints their results: one call's result as text (or a
/// JSON object with `--json`); several as a JSON array of `{id, name,
/// result | error}`. Exit 1 when a call fails or finds nothing (`(empty
/// list)`, `(undefined)`), 2 for a bad query in `flexmd artifact`.
fn run_calls(
    tools: &ToolSet<'_>,
    calls: &[ToolCall],
    json_out: bool,
    from_command_line: bool,
) -> Result<ExitCode, CliError> {
    let mut results = Vec::new();
    let mut worst = 0u8;
    for call in calls {
        let progress = Progress::start(&format!("running {}", call.name));
        // Run as the tool set does, keeping the typed error for its exit code.
        let outcome = tools.call(&call.name, &call.arguments);
        drop(progress);
        let entry = match outcome {
            Ok(text) => ToolCallResult {
                id: call.id.clone(),
                name: call.name.clone(),
                result: Some(text),
                error: None,
            },
            Err(e) => {
                worst = worst.max(if from_command_line { error_code(&e) } else { 1 });
                ToolCallResult {
                    id: call.id.clone(),
                    name: call.name.clone(),
                    result: None,
                    error: Some(e.to_string()),
                }
            }
        };
        if entry.found_nothing() {
            worst = worst.max(1);
        }
        results.push(entry);
    }
    match results.as_slice() {
        [one] if !json_out => {
            if let Some(text) = &one.result {
                print(&format!("{text}\n"))?;
            } else if let Some(error) = &one.error {
                // The text a model would get back, on stderr.
                eprintln!("{error}");
            }
        }
        [one] => print_json(one)?,
        all => print_json(all)?,
    }
    Ok(ExitCode::from(worst))
}

pub(crate) fn tools(args: ToolsArgs) -> Result<ExitCode, CliError> {
    let (_inputs, artifacts) = open_all(&args.files, args.kind.kind)?;
    let tools = forge_tools(&artifacts);
    print_json(&match args.format {
        Format::Openai => tools.to_openai(),
        Format::OpenaiResponses => tools.to_openai_responses(),
        Format::Anthropic => tools.to_anthropic(),
    })?;
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn call(args: CallArgs, json_out: bool) -> Result<ExitCode, CliError> {
    let text = match (&args.call, &args.call_file) {
        (Some(text), _) => text.clone(),
        (None, Some(path)) => crate::input::read_text(Some(path))?.text,
        (None, None) => {
            if args.files.iter().any(|f| crate::input::is_stdin(Some(f))) {
                return Err(CliError::Usage(
                    "standard input is a file here: give the call with --call or --call-file"
                        .to_owned(),
                ));
            }
            crate::input::read_text(None)?.text
        }
    };
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| CliError::Usage(format!("the call is not JSON: {e}")))?;
    let calls = tool_calls(&value).map_err(|e| CliError::Usage(e.to_string()))?;
    if calls.is_empty() {
        return Err(CliError::Usage(
            "the call list is empty: give at least one tool call".to_owned(),
        ));
    }
    let (_inputs, artifacts) = open_all(&args.files, args.kind.kind)?;
    let tools = forge_tools(&artifacts);
    let Some(max_tokens) = args.max_tokens else {
        return run_calls(&tools, &calls, json_out || calls.len() > 1, false);
    };
    let [call] = calls.as_slice() else {
        return Err(CliError::Usage(format!(
            "--max-tokens pages one call at a time; this holds {}",
            calls.len()
        )));
    };
    let progress = Progress::start(&format!("running {}", call.name));
    let page = tools.call_paged(
        &call.name,
        &call.arguments,
        max_tokens,
        args.cursor.as_deref(),
    );
    drop(progress);
    match page {
        Ok(page) => {
            print_json(&page)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            // The text a model would get back, on stderr.
            eprintln!("{e}");
            Ok(ExitCode::from(1))
        }
    }
}
