//! The server: its state (open artifacts, roots, schemas, budget), the
//! tool calls run off the protocol loop, and the MCP handler over them.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};

use flexmd_artifact::{
    Artifact, ArtifactError, ArtifactKind, Encoding, FileReader, MAX_PAGE_TOKENS, MIN_MAX_TOKENS,
    Page, ReadAs, forge_tools, page_value,
};
use flexmd_schema::Registry;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value, json};

use crate::checks::{self, CHECKS};
use crate::error::ServeError;
use crate::sandbox::Roots;
use crate::transport;

/// The most tokens the note that says more follows can take (its cursor
/// and counts at their longest: 59), kept back from a page that needs one
/// so page and note together stay in budget.
pub(crate) const NOTE_TOKENS: usize = 64;

/// The smallest `max_tokens` a call may give.
pub const MIN_RESULT_TOKENS: usize = MIN_MAX_TOKENS + NOTE_TOKENS;

/// Resources in one `resources/list` page: the schemas and the open
/// artifacts (up to [`DEFAULT_MAX_OPEN`]) come a page at a time, each page
/// with the `nextCursor` that asks for the next.
pub const RESOURCES_PAGE: usize = 100;

/// The default for [`Options::max_open`].
pub const DEFAULT_MAX_OPEN: usize = 1000;

/// Files from this size on get a token estimate (4 bytes a token) in
/// `artifact_open`'s answer rather than an exact count.
const EXACT_TOKENS_UP_TO: usize = 4 << 20;

/// How many headings `artifact_open` shows of a Markdown file.
const OUTLINE_HEADINGS: usize = 40;

/// An open artifact.
#[derive(Clone)]
struct Open {
    call_id: String,
    /// The real path, for files opened by path.
    path: PathBuf,
    artifact: Arc<Artifact>,
    info: Value,
}

/// What every call shares.
struct State {
    artifacts: RwLock<Vec<Open>>,
    roots: Roots,
    registry: Registry,
    max_tokens: usize,
    max_message_bytes: usize,
    max_open: usize,
    /// A hash of the tool list after the last open, to tell whether the
    /// next one changes it.
    listed: std::sync::Mutex<Option<u64>>,
    /// What an HTTP session adds: its own limits and cursor key.
    session: Option<Session>,
}

/// An HTTP session's own: how many calls it may run at once, the count of
/// calls in flight across all sessions (which shutdown waits for), and the
/// key its cursors' checks are masked with, so that a cursor given to one
/// session fails its check in any other.
struct Session {
    calls: Arc<tokio::sync::Semaphore>,
    max_calls: usize,
    in_flight: Arc<AtomicUsize>,
    cursor_key: u64,
    _alive: Alive,
}

/// The HTTP sessions whose state is still held, in this process.
static LIVE_SESSIONS: AtomicUsize = AtomicUsize::new(0);

/// Counts a session's state in [`LIVE_SESSIONS`] while it lives.
struct Alive;

impl Alive {
    fn new() -> Self {
        LIVE_SESSIONS.fetch_add(1, Ordering::AcqRel);
        Self
    }
}

impl Drop for Alive {
    fn drop(&mut self) {
        LIVE_SESSIONS.fetch_sub(1, Ordering::AcqRel);
    }
}

/// How many HTTP sessions' states (open files, cursors) this process still
/// holds: the tests' check that an ended or expired session frees them.
#[doc(hidden)]
pub fn live_sessions() -> usize {
    LIVE_SESSIONS.load(Ordering::Acquire)
}

/// Why a call has no page: a message for the model, or the library's error.
enum Failure {
    Message(String),
    Artifact(ArtifactError),
}

/// What a call answers, and whether it changed the list of tools.
struct Reply {
    result: CallToolResult,
    opened: bool,
}

impl Reply {
    fn error(message: impl Into<String>) -> Self {
        Self {
            result: CallToolResult::error(vec![ContentBlock::text(message)]),
            opened: false,
        }
    }
}

/// The flexmd MCP server. Build it with [`Server::new`], then serve it
/// over standard input and output ([`Server::run_stdio`]) or any byte
/// stream ([`Server::serve`]).
#[derive(Clone)]
pub struct Server {
    state: Arc<State>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("roots", &self.state.roots)
            .field("max_tokens", &self.state.max_tokens)
            .finish_non_exhaustive()
    }
}

/// How to start a [`Server`].
#[derive(Debug)]
pub struct Options {
    /// Directories the agent may open files under with `artifact_open`;
    /// none means no `artifact_open` at all.
    pub roots: Vec<PathBuf>,
    /// Files open from the start (their path as given is their `callId`);
    /// they need not be under a root.
    pub files: Vec<PathBuf>,
    /// The budget of a result when a call gives no `max_tokens`, and the
    /// most a call may ask for: a larger `max_tokens` is lowered to it and
    /// the result's note says so.
    pub max_result_tokens: usize,
    /// The longest message the client may send, in bytes; a longer one is
    /// answered with an error (default 16 MiB).
    pub max_message_bytes: usize,
    /// How many files `artifact_open` may hold open at once (default
    /// 1000); past it an open is refused with a message saying so.
    pub max_open: usize,
    /// The schemas `schema_validate`, `schema_list` and `schema://` serve.
    pub registry: Registry,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            roots: Vec::new(),
            files: Vec::new(),
            max_result_tokens: flexmd_artifact::DEFAULT_MAX_TOKENS,
            max_message_bytes: transport::DEFAULT_MAX_MESSAGE_BYTES,
            max_open: DEFAULT_MAX_OPEN,
            registry: Registry::new(),
        }
    }
}

impl Server {
    /// A server over `options`: the roots resolved, the files opened.
    ///
    /// ```
    /// let server = flexmd_mcp::Server::new(flexmd_mcp::Options::default()).unwrap();
    /// assert_eq!(server.tool_names()[..3], ["ofs_prompt", "ofs_validate", "ofs_extract"]);
    /// ```
    pub fn new(options: Options) -> Result<Self, ServeError> {
        if !(MIN_RESULT_TOKENS..=MAX_PAGE_TOKENS).contains(&options.max_result_tokens) {
            return Err(ServeError::Budget {
                got: options.max_result_tokens,
                min: MIN_RESULT_TOKENS,
                max: MAX_PAGE_TOKENS,
            });
        }
        let roots = Roots::new(&options.roots)?;
        let mut artifacts = Vec::with_capacity(options.files.len());
        for file in &options.files {
            let call_id = file.display().to_string();
            // The same file twice is one artifact.
            if artifacts.iter().any(|o: &Open| o.call_id == call_id) {
                continue;
            }
            let path = std::fs::canonicalize(file).unwrap_or_else(|_| file.clone());
            let artifact = open_artifact(&path, ReadAs::for_path(file)).map_err(|source| {
                ServeError::Open {
                    path: file.clone(),
                    source,
                }
            })?;
            let info = describe(&call_id, &path, &artifact);
            artifacts.push(Open {
                call_id,
                path,
                artifact: Arc::new(artifact),
                info,
            });
        }
        Ok(Self {
            state: Arc::new(State {
                artifacts: RwLock::new(artifacts),
                roots,
                registry: options.registry,
                max_tokens: options.max_result_tokens,
                max_message_bytes: options.max_message_bytes.max(1),
                max_open: options.max_open,
                listed: std::sync::Mutex::new(None),
                session: None,
            }),
        })
    }

    /// A server for one HTTP session: the same roots, schemas, budgets and
    /// start files (shared, not reopened), its own open files and cursor
    /// key, at most `max_calls` calls at once; `in_flight` counts its calls
    /// in flight.
    pub(crate) fn session(&self, max_calls: usize, in_flight: Arc<AtomicUsize>) -> Self {
        let state = &self.state;
        let start = state.read_list(<[Open]>::to_vec);
        let key = uuid::Uuid::new_v4().as_u64_pair();
        Self {
            state: Arc::new(State {
                artifacts: RwLock::new(start),
                roots: state.roots.clone(),
                registry: state.registry.clone(),
                max_tokens: state.max_tokens,
                max_message_bytes: state.max_message_bytes,
                max_open: state.max_open,
                listed: std::sync::Mutex::new(None),
                session: Some(Session {
                    calls: Arc::new(tokio::sync::Semaphore::new(max_calls.max(1))),
                    max_calls: max_calls.max(1),
                    in_flight,
                    cursor_key: key.0 ^ key.1,
                    _alive: Alive::new(),
                }),
            }),
        }
    }

    /// The names of the tools offered now, in order: the artifact tools
    /// for the open files, `artifact_open` when there is a root, then the
    /// checks.
    pub fn tool_names(&self) -> Vec<String> {
        self.tools()
            .into_iter()
            .map(|t| t.name.into_owned())
            .collect()
    }

    /// Serves MCP over `reader` and `writer` (newline-delimited JSON-RPC)
    /// until the client closes the stream.
    ///
    /// Every line is answered: a request with a result or a JSON-RPC
    /// error, and a line that is not a request it can read (not UTF-8, not
    /// JSON, nested deeper than [`crate::MAX_MESSAGE_DEPTH`], over
    /// [`Options::max_message_bytes`], parameters of the wrong shape) with
    /// a `-32700`, `-32600` or `-32602` error and a line on stderr.
    pub async fn serve<R, W>(self, reader: R, writer: W) -> Result<(), ServeError>
    where
        R: tokio::io::AsyncRead + Send + Unpin + 'static,
        W: tokio::io::AsyncWrite + Send + Unpin + 'static,
    {
        let limit = self.state.max_message_bytes;
        // The gate reads the client; the protocol loop reads what the gate
        // passes and writes into a pipe that, with the gate's own answers,
        // goes out a whole line at a time.
        let (loop_in, gate_out) = tokio::io::duplex(64 << 10);
        let (loop_out, forward_in) = tokio::io::duplex(64 << 10);
        let (lines, to_write) = tokio::sync::mpsc::channel(64);
        let writing = tokio::spawn(transport::write_lines(writer, to_write));
        let forwarding = tokio::spawn(transport::forward_lines(forward_in, lines.clone()));
        let gating = tokio::spawn(transport::gate(reader, gate_out, lines, limit));
        let transport = rmcp::transport::async_rw::AsyncRwTransport::new_server(loop_in, loop_out)
            .with_max_line_length(limit.saturating_add(1));
        let served = match rmcp::serve_server(self, transport).await {
            Ok(running) => running.waiting().await.map(|_| ()),
            Err(e) => {
                gating.abort();
                return Err(ServeError::Transport(e.to_string()));
            }
        };
        gating.abort();
        let _ = forwarding.await;
        let _ = writing.await;
        served.map_err(|e| ServeError::Transport(e.to_string()))
    }

    /// Serves MCP over standard input and output until the client closes
    /// standard input: what an MCP client runs (`flexmd mcp`).
    pub fn run_stdio(self) -> Result<(), ServeError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| ServeError::Transport(e.to_string()))?;
        runtime.block_on(async {
            let (stdin, stdout) = rmcp::transport::stdio();
            self.serve(stdin, stdout).await
        })
    }

    /// Whether the tool list differs from the one this was last asked
    /// for (after an open).
    fn tools_changed(&self) -> bool {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        serde_json::to_string(&self.tools())
            .unwrap_or_default()
            .hash(&mut hasher);
        let now = hasher.finish();
        let mut last = match self.state.listed.lock() {
            Ok(last) => last,
            Err(poisoned) => poisoned.into_inner(),
        };
        last.replace(now) != Some(now)
    }

    /// The tools, each with `max_tokens` and `cursor` added.
    fn tools(&self) -> Vec<Tool> {
        let state = &self.state;
        let snapshot = state.snapshot();
        let mut tools: Vec<Tool> = forge_tools(&snapshot)
            .definitions()
            .into_iter()
            .map(|d| {
                let schema = match d.parameters {
                    Value::Object(map) => map,
                    _ => Map::new(),
                };
                tool(d.name, d.description, schema, state.max_tokens)
            })
            .collect();
        if !state.roots.is_empty() {
            tools.push(tool(
                "artifact_open".to_owned(),
                format!(
                    "Open a file under the roots ({}) as an artifact: answers its callId \
                     (for the artifact_* tools), kind, size, line count, token estimate and, \
                     for Markdown, its first headings.",
                    state.roots.list()
                ),
                open_schema(),
                state.max_tokens,
            ));
        }
        for check in CHECKS {
            tools.push(tool(
                check.name.to_owned(),
                check.description.to_owned(),
                checks::input_schema(check),
                state.max_tokens,
            ));
        }
        tools
    }
}

/// A tool, its schema given `max_tokens` and `cursor`.
fn tool(name: String, description: String, mut schema: Map<String, Value>, max: usize) -> Tool {
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        properties.insert(
            "max_tokens".to_owned(),
            json!({
                "type": "integer",
                "minimum": MIN_RESULT_TOKENS,
                "description": format!(
                    "The most tokens the result may take (default {max}). A longer result \
                     comes a page at a time, cut between whole lines or whole JSON values, \
                     with a cursor for the next page."
                ),
            }),
        );
        properties.insert(
            "cursor".to_owned(),
            json!({
                "type": "string",
                "description": "The cursor a truncated page gave: call again with the same \
                                other arguments and it to get the next page.",
            }),
        );
    }
    Tool::new(name, description, schema)
}

fn open_schema() -> Map<String, Value> {
    let value = json!({
        "type": "object",
        "properties": {
            "path": {
                "type": "string",
                "description": "The file: relative to a root, or absolute under one.",
            },
            "as": {
                "type": "string",
                "enum": ["json", "json5", "jsonl", "ndjson", "markdown", "text"],
                "description": "How to read it; by default its extension says (.json, .json5, .jsonl, .ndjson, .md; else text).",
            },
        },
        "required": ["path"],
        "additionalProperties": false,
    });
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn open_artifact(path: &Path, kind: ReadAs) -> Result<Artifact, flexmd_artifact::ArtifactError> {
    Artifact::read(FileReader::open(path)?, kind)
}

/// What `artifact_open` and `artifact://` say about an artifact.
fn describe(call_id: &str, path: &Path, artifact: &Artifact) -> Value {
    let base = artifact.base();
    let bytes = base.byte_length();
    let (tokens, counted) = if bytes <= EXACT_TOKENS_UP_TO {
        (base.estimate_tokens(Encoding::O200kBase), "exact")
    } else {
        (bytes.div_ceil(4), "estimate")
    };
    let mut info = Map::new();
    let described = json!({
        "callId": call_id,
        "path": path.display().to_string(),
        "kind": match artifact.kind() {
            ArtifactKind::Text => "text",
            ArtifactKind::Json => "json",
            ArtifactKind::Markdown => "markdown",
        },
        "bytes": bytes,
        "lines": base.line_count(),
        "tokens": tokens,
        "tokensCounted": counted,
    });
    if let Value::Object(fields) = described {
        info = fields;
    }
    match artifact {
        Artifact::Json(a) => {
            info.insert(
                "format".to_owned(),
                serde_json::to_value(a.json_type()).unwrap_or(Value::Null),
            );
        }
        Artifact::Markdown(a) => {
            // The first two levels: the document's shape, without its
            // detail (artifact_md_headings gives every heading).
            let headings: Vec<_> = a
                .md_headings(None)
                .into_iter()
                .filter(|h| h.depth <= 2)
                .collect();
            let total = headings.len();
            let shown: Vec<Value> = headings
                .into_iter()
                .take(OUTLINE_HEADINGS)
                .map(|h| json!({"depth": h.depth, "text": h.text, "startLine": h.start_line}))
                .collect();
            info.insert("outline".to_owned(), Value::Array(shown));
            if total > OUTLINE_HEADINGS {
                info.insert("outlineOmitted".to_owned(), json!(total - OUTLINE_HEADINGS));
            }
        }
        Artifact::Text(_) => {}
    }
    Value::Object(info)
}

impl State {
    /// The open artifacts, shared: a call works on the list as it was
    /// when it started.
    fn snapshot(&self) -> Vec<(String, Arc<Artifact>)> {
        match self.artifacts.read() {
            Ok(list) => list
                .iter()
                .map(|o| (o.call_id.clone(), Arc::clone(&o.artifact)))
                .collect(),
            Err(poisoned) => poisoned
                .into_inner()
                .iter()
                .map(|o| (o.call_id.clone(), Arc::clone(&o.artifact)))
                .collect(),
        }
    }

    /// Runs one call to the end (on a blocking thread); `cancel` is set
    /// when the client gives up on it.
    fn call(&self, name: &str, mut args: Map<String, Value>, cancel: &AtomicBool) -> Reply {
        // The budget and cursor are the server's; the tool sees the rest
        // (and the cursor is bound to the rest, not to the budget).
        let mut cap_note = None;
        let max_tokens = match args.remove("max_tokens") {
            None | Some(Value::Null) => self.max_tokens,
            Some(value) => match value.as_u64() {
                Some(n) if n > self.max_tokens as u64 => {
                    cap_note = Some(
                        json!({
                            "max_tokens_capped": n,
                            "max_tokens": self.max_tokens,
                            "why": "the server gives a result at most this many tokens \
                                    (flexmd mcp --max-result-tokens); the rest comes a page \
                                    at a time with the cursor",
                        })
                        .to_string(),
                    );
                    self.max_tokens
                }
                Some(n) if n >= MIN_RESULT_TOKENS as u64 => n as usize,
                _ => {
                    return Reply::error(format!(
                        "{name}: `max_tokens` must be a whole number of at least \
                         {MIN_RESULT_TOKENS} (got {value})"
                    ));
                }
            },
        };
        let cursor: Option<String> = match args.remove("cursor") {
            None | Some(Value::Null) => None,
            Some(Value::String(c)) => Some(c),
            Some(other) => {
                return Reply::error(format!("{name}: `cursor` must be a string (got {other})"));
            }
        };
        let key = self.session.as_ref().map(|s| s.cursor_key);
        // The cursor as the library reads it (unmasked), and as the client
        // sent it, which is what an error about it must quote.
        let (cursor, sent) = match (cursor, key) {
            (Some(cursor), Some(key)) => (Some(mask_cursor(&cursor, key)), Some(cursor)),
            (cursor, _) => (cursor, None),
        };
        let quoted = |message: String| match (&cursor, &sent) {
            (Some(read), Some(sent)) => message.replace(read.as_str(), sent),
            _ => message,
        };
        let cursor = cursor.as_deref();
        let arguments = Value::Object(args);
        let mut opened = false;
        let mut note = None;
        // What the call answers: the page within `budget`.
        let run = |budget: usize, opened: &mut bool, note: &mut Option<String>| {
            if name == "artifact_open" {
                let (info, new) = self.open(&arguments).map_err(Failure::Message)?;
                *opened |= new;
                page_value(name, &arguments, &info, budget, cursor).map_err(Failure::Artifact)
            } else if let Some(check) = CHECKS.iter().find(|c| c.name == name) {
                let Value::Object(map) = &arguments else {
                    return Err(Failure::Message(format!(
                        "{name}: the arguments must be an object"
                    )));
                };
                let answer = checks::run(check, map, &self.registry).map_err(Failure::Message)?;
                *note = answer.note;
                page_value(name, &arguments, &answer.value, budget, cursor)
                    .map_err(Failure::Artifact)
            } else {
                let snapshot = self.snapshot();
                let tools = forge_tools(&snapshot).with_cancel(cancel);
                tools
                    .call_paged(name, &arguments.to_string(), budget, cursor)
                    .map_err(Failure::Artifact)
            }
        };
        // The whole budget first: a result that fits needs no note. A page
        // that, with its notes, has no room is made again, smaller: the
        // check's note (known now) and the longest note that more follows
        // kept back.
        let cap_tokens = cap_note.as_deref().map_or(0, text_tokens);
        let notes = |page: &Page, note: &Option<String>| {
            note_tokens(name, page) + note.as_deref().map_or(0, text_tokens) + cap_tokens
        };
        // A session's cursors go out masked with its key.
        let run = |budget: usize, opened: &mut bool, note: &mut Option<String>| {
            run(budget, opened, note).map(|mut page| {
                if let (Some(key), Some(cursor)) = (key, &page.cursor) {
                    page.cursor = Some(mask_cursor(cursor, key));
                }
                page
            })
        };
        let page = match run(max_tokens, &mut opened, &mut note) {
            Ok(page) if page.tokens + notes(&page, &note) > max_tokens => {
                let kept = NOTE_TOKENS + note.as_deref().map_or(0, text_tokens) + cap_tokens;
                let budget = max_tokens.saturating_sub(kept).max(MIN_MAX_TOKENS);
                match run(budget, &mut opened, &mut note) {
                    Err(Failure::Artifact(ArtifactError::TooLarge { piece, tokens, .. })) => {
                        Err(Failure::Message(format!(
                            "{name}: {piece} alone is {tokens} tokens; with the notes on the \
                             page ({kept} tokens) it takes more than `max_tokens` \
                             ({max_tokens}); raise `max_tokens` or narrow the call"
                        )))
                    }
                    // The promise holds or the call says why not.
                    Ok(page) if page.tokens + notes(&page, &note) > max_tokens => {
                        Err(Failure::Message(format!(
                            "{name}: a page with its notes takes {} tokens, more than \
                             `max_tokens` ({max_tokens}); raise `max_tokens`",
                            page.tokens + notes(&page, &note)
                        )))
                    }
                    other => other,
                }
            }
            other => other,
        };
        match page {
            Ok(page) => Reply {
                result: CallToolResult::success(content(name, page, cap_note, note)),
                opened,
            },
            Err(failure) => Reply {
                result: CallToolResult::error(vec![ContentBlock::text(match failure {
                    Failure::Message(message) => quoted(message),
                    Failure::Artifact(e) => quoted(unknown_tool_hint(name, e.to_string(), self)),
                })]),
                opened,
            },
        }
    }

    /// `artifact_open`: the artifact's description, and whether it is
    /// newly open.
    fn open(&self, args: &Value) -> Result<(Value, bool), String> {
        if self.roots.is_empty() {
            return Err("artifact_open is off: the server was started without --root".to_owned());
        }
        if let Some(unknown) = args
            .as_object()
            .and_then(|m| m.keys().find(|k| !matches!(k.as_str(), "path" | "as")))
        {
            return Err(format!(
                "artifact_open: unknown argument `{unknown}`; the arguments are path, as"
            ));
        }
        let Some(requested) = args.get("path").and_then(Value::as_str) else {
            return Err("artifact_open: `path` is required: a file under the roots".to_owned());
        };
        let (real, root) = self.roots.resolve(requested)?;
        // Refused before the file is read; checked again below, where
        // the list is held (two opens may race).
        if self
            .read_list(|list| list.len() >= self.max_open && !list.iter().any(|o| o.path == real))
        {
            return Err(self.too_many_open());
        }
        let kind = match args.get("as") {
            None | Some(Value::Null) => ReadAs::for_path(&real),
            Some(Value::String(k)) => k
                .parse::<ReadAs>()
                .map_err(|e| format!("artifact_open: {e}"))?,
            Some(other) => {
                return Err(format!(
                    "artifact_open: `as` must be a string (got {other})"
                ));
            }
        };
        if let Some(info) =
            self.read_list(|list| list.iter().find(|o| o.path == real).map(|o| o.info.clone()))
        {
            return Ok((info, false));
        }
        let artifact = open_artifact(&real, kind)
            .map_err(|e| format!("artifact_open: cannot open `{requested}`: {}", chain(&e)))?;
        // The callId: the path under its root, made unique.
        let relative = real
            .strip_prefix(root)
            .unwrap_or(&real)
            .display()
            .to_string();
        let mut list = match self.artifacts.write() {
            Ok(list) => list,
            Err(poisoned) => poisoned.into_inner(),
        };
        // Another call may have opened it meanwhile.
        if let Some(open) = list.iter().find(|o| o.path == real) {
            return Ok((open.info.clone(), false));
        }
        if list.len() >= self.max_open {
            return Err(self.too_many_open());
        }
        let mut call_id = relative.clone();
        let mut n = 2;
        while list.iter().any(|o| o.call_id == call_id) {
            call_id = format!("{relative}#{n}");
            n += 1;
        }
        let info = describe(&call_id, &real, &artifact);
        list.push(Open {
            call_id,
            path: real,
            artifact: Arc::new(artifact),
            info: info.clone(),
        });
        Ok((info, true))
    }

    /// `artifact_open`'s refusal past `--max-open`.
    fn too_many_open(&self) -> String {
        format!(
            "artifact_open: {n} files are open, the most this server holds (flexmd mcp \
             --max-open {n}); read the open ones by their callId, or ask for the server to be \
             started with a higher limit",
            n = self.max_open
        )
    }

    fn read_list<T>(&self, f: impl FnOnce(&[Open]) -> T) -> T {
        match self.artifacts.read() {
            Ok(list) => f(&list),
            Err(poisoned) => f(&poisoned.into_inner()),
        }
    }
}

/// An error and its causes, on one line.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// An unknown tool's error, with the tools that exist (the artifact tools'
/// own message lists only theirs).
fn unknown_tool_hint(name: &str, message: String, state: &State) -> String {
    if !message.starts_with("unknown tool") {
        return message;
    }
    let mut names: Vec<String> = forge_tools(&state.snapshot())
        .definitions()
        .into_iter()
        .map(|d| d.name)
        .collect();
    if !state.roots.is_empty() {
        names.push("artifact_open".to_owned());
    }
    names.extend(CHECKS.iter().map(|c| c.name.to_owned()));
    let hint = if name.starts_with("artifact_") && state.snapshot().is_empty() {
        if state.roots.is_empty() {
            " (no file is open)"
        } else {
            " (no file is open yet: artifact_open one first)"
        }
    } else {
        ""
    };
    format!(
        "unknown tool `{name}`{hint}; the tools are {}",
        names.join(", ")
    )
}

/// `NEXT.RESUME.CHECK` with the check XORed with `key` (the same call
/// both ways): an HTTP session's cursors, which another session's key
/// turns into a check that fails. Anything else is left as it is, for the
/// library to refuse.
fn mask_cursor(cursor: &str, key: u64) -> String {
    match cursor.rsplit_once('.') {
        Some((head, check)) if check.len() == 16 => match u64::from_str_radix(check, 16) {
            Ok(check) => format!("{head}.{:016x}", check ^ key),
            Err(_) => cursor.to_owned(),
        },
        _ => cursor.to_owned(),
    }
}

/// The note for a page that more follows: `truncated`, what is left,
/// the cursor, in JSON.
fn more_note(name: &str, page: &Page) -> Option<String> {
    if !page.truncated {
        return None;
    }
    let mut more = Map::new();
    more.insert("truncated".to_owned(), json!(true));
    if let Some(omitted) = page.omitted {
        more.insert(
            "omitted".to_owned(),
            serde_json::to_value(omitted).unwrap_or(Value::Null),
        );
    }
    if let Some(cursor) = &page.cursor {
        more.insert("cursor".to_owned(), json!(cursor));
    }
    more.insert(
        "next".to_owned(),
        json!(format!(
            "call {name} again with the same arguments and this cursor"
        )),
    );
    Some(Value::Object(more).to_string())
}

/// The tokens of a page's note.
fn note_tokens(name: &str, page: &Page) -> usize {
    more_note(name, page).map_or(0, |note| text_tokens(&note))
}

/// The tokens of a text, as pages count them.
fn text_tokens(text: &str) -> usize {
    flexmd_artifact::count_tokens(text.as_bytes(), Encoding::O200kBase)
}

/// A page as content: its text; the note that `max_tokens` was lowered,
/// if it was; when more follows, a note with the cursor in JSON; then the
/// check's note, if any.
fn content(
    name: &str,
    page: Page,
    cap_note: Option<String>,
    note: Option<String>,
) -> Vec<ContentBlock> {
    let more = more_note(name, &page);
    std::iter::once(page.text)
        .chain(cap_note)
        .chain(more)
        .chain(note)
        .map(ContentBlock::text)
        .collect()
}

/// The JSON-RPC error code of a call refused for the session's call limit
/// (in the range JSON-RPC leaves to servers).
const SERVER_BUSY: i32 = -32000;

/// One call in flight: counted from its start to its answer.
struct InFlight(Arc<AtomicUsize>);

impl InFlight {
    fn new(count: &Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::AcqRel);
        Self(Arc::clone(count))
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_resources()
            .enable_resources_list_changed()
            .build();
        let mut info = ServerConfig::new(capabilities);
        info.server_info = Implementation::new("flexmd", env!("CARGO_PKG_VERSION"));
        info.instructions = Some(format!(
            "flexmd reads files far too large for a prompt (artifact_* tools: head, tail, \
             grep, cat, JSONPath, Markdown sections) and checks a model's output (ofs_*, \
             json_find, schema_*, detect). No result is ever cut silently: past max_tokens \
             (default {}) a result comes a page at a time, and a note with `truncated: true` \
             gives the cursor for the next page.",
            self.state.max_tokens
        ));
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.into_owned();
        let args = request.arguments.unwrap_or_default();
        // An HTTP session runs at most its share of calls at once, and
        // each counts as in flight until it answers.
        let _permit = match &self.state.session {
            Some(session) => match Arc::clone(&session.calls).try_acquire_owned() {
                Ok(permit) => Some((permit, InFlight::new(&session.in_flight))),
                Err(_) => {
                    return Err(ErrorData::new(
                        rmcp::model::ErrorCode(SERVER_BUSY),
                        format!(
                            "this session already runs {} calls at once, its limit (flexmd mcp \
                             --max-calls-per-session); wait for one to answer, or open another \
                             session",
                            session.max_calls
                        ),
                        None,
                    ));
                }
            },
            None => None,
        };
        let state = Arc::clone(&self.state);
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        // Off the protocol loop: pings and other calls are answered
        // meanwhile; a cancelled call stops at its next check.
        let work = tokio::task::spawn_blocking(move || state.call(&name, args, &flag));
        let reply = tokio::select! {
            joined = work => match joined {
                Ok(reply) => reply,
                Err(e) => Reply::error(format!("the call failed inside flexmd ({e}); the server goes on")),
            },
            () = context.ct.cancelled() => {
                cancel.store(true, Ordering::Relaxed);
                return Err(ErrorData::internal_error("the call was cancelled", None));
            }
        };
        if reply.opened {
            // One notification an open: the tools changed while their
            // schemas list the callIds (or a first file of its kind adds
            // tools); past that only the resources did.
            if self.tools_changed() {
                let _ = context.peer.notify_tool_list_changed().await;
            } else {
                let _ = context.peer.notify_resource_list_changed().await;
            }
        }
        Ok(reply.result.into())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let state = &self.state;
        let mut resources: Vec<Resource> = state
            .registry
            .summaries()
            .into_iter()
            .filter_map(|s| {
                let name = s.get("name")?.as_str()?.to_owned();
                let mut r = Resource::new(format!("schema://{name}"), name)
                    .with_mime_type("application/schema+json");
                if let Some(title) = s.get("title").and_then(Value::as_str) {
                    r = r.with_title(title);
                }
                if let Some(description) = s.get("description").and_then(Value::as_str) {
                    r = r.with_description(description);
                }
                Some(r)
            })
            .collect();
        state.read_list(|list| {
            for open in list {
                resources.push(
                    Resource::new(format!("artifact://{}", open.call_id), open.call_id.clone())
                        .with_mime_type("application/json")
                        .with_description(format!(
                            "{}: its kind, size and the tools that read it",
                            open.path.display()
                        )),
                );
            }
        });
        let total = resources.len();
        // The cursor is the next page's first item: one this list gave
        // (a later page of a list that has not shrunk below it since).
        let from = match request.and_then(|r| r.cursor) {
            None => 0,
            Some(cursor) => cursor
                .parse::<usize>()
                .ok()
                .filter(|&from| from > 0 && from < total)
                .ok_or_else(|| {
                    ErrorData::invalid_params(
                        format!(
                            "the cursor {cursor:?} is not one resources/list gave, or the list \
                             has shrunk below it since: list again without a cursor"
                        ),
                        None,
                    )
                })?,
        };
        let page: Vec<Resource> = resources
            .into_iter()
            .skip(from)
            .take(RESOURCES_PAGE)
            .collect();
        let mut result = ListResourcesResult::with_all_items(page);
        result.next_cursor =
            (from + RESOURCES_PAGE < total).then(|| (from + RESOURCES_PAGE).to_string());
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        let state = &self.state;
        let text = if let Some(name) = uri.strip_prefix("schema://") {
            state
                .registry
                .get(name)
                .map(|s| serde_json::to_string_pretty(s).unwrap_or_default())
        } else if let Some(id) = uri.strip_prefix("artifact://") {
            state.read_list(|list| {
                list.iter()
                    .find(|o| o.call_id == id)
                    .map(|o| serde_json::to_string_pretty(&o.info).unwrap_or_default())
            })
        } else {
            None
        };
        match text {
            Some(text) => {
                Ok(ReadResourceResult::new(vec![ResourceContents::text(text, uri)]).into())
            }
            None => Err(ErrorData::resource_not_found(
                format!(
                    "no resource `{uri}`: the resources are schema://NAME (schema_list) and \
                     artifact://CALLID for each open file"
                ),
                None,
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_longest_note_fits_its_reserve() {
        let page = Page {
            text: String::new(),
            tokens: 0,
            truncated: true,
            omitted: Some(flexmd_artifact::Omitted {
                unit: flexmd_artifact::PageUnit::Members,
                count: Some(usize::MAX),
            }),
            cursor: Some(format!("{}.{}.{:016x}", usize::MAX, usize::MAX, u64::MAX)),
            max_tokens_capped: None,
        };
        let names = flexmd_artifact::tool_catalogue()
            .into_iter()
            .map(|t| t.definition.name)
            .chain(CHECKS.iter().map(|c| c.name.to_owned()))
            .chain(["artifact_open".to_owned()]);
        for name in names {
            let tokens = note_tokens(&name, &page);
            assert!(tokens <= NOTE_TOKENS, "{name}: {tokens}");
            assert!(tokens > 40, "{name}: {tokens}");
        }
        let whole = Page {
            truncated: false,
            omitted: None,
            cursor: None,
            ..page
        };
        assert_eq!(note_tokens("artifact_grep", &whole), 0);
    }
}
