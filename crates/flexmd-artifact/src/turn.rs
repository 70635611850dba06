//! One agent turn, as the ADK's dispatch context runs it: tool results come
//! in, the large ones become artifacts the model queries with forged tools
//! (`callId` narrowed to this turn's artifacts), artifact-tool results are
//! never spooled themselves, the forged tools merge into the host's, and
//! ending the turn drops them.

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::artifact::SpooledArtifact;
use crate::error::ArtifactError;
use crate::json::SpooledJsonArtifact;
use crate::kind::{Artifact, ArtifactKind};
use crate::markdown::SpooledMarkdownArtifact;
use crate::reader::MemoryReader;
use crate::tokens::{Encoding, count_tokens};
use crate::tools::{
    Caps, ToolDefinition, ToolFormat, ToolSet, call_id, capped, capped_value, forge_tools,
    parse_arguments,
};

/// Content from this size on is not token-counted for the notice (the
/// count would cost more than the notice is worth); the notice gives bytes
/// and lines then.
const COUNT_TOKENS_UP_TO: usize = 4 << 20;

/// A preview line longer than this many characters is cut.
const PREVIEW_LINE_CHARS: usize = 200;

/// When a tool result is kept as an artifact instead of shown, and how the
/// notice and the artifact tools' results are shaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnOptions {
    /// A result larger than this many bytes is spooled (default 16 KiB).
    pub max_inline_bytes: usize,
    /// A result of more tokens than this is spooled (default 4000).
    pub max_inline_tokens: usize,
    /// The encoding tokens are counted in (default `o200k_base`).
    pub encoding: Encoding,
    /// Lines of the head and of the tail the notice shows (default 5 each).
    pub preview_lines: usize,
    /// Caps on each artifact tool result.
    pub caps: Caps,
}

impl Default for TurnOptions {
    fn default() -> Self {
        Self {
            max_inline_bytes: 16 * 1024,
            max_inline_tokens: 4000,
            encoding: Encoding::O200kBase,
            preview_lines: 5,
            caps: Caps::default(),
        }
    }
}

/// How to read a tool result that is spooled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ResultKind {
    /// JSON when it is JSON (json, JSON Lines or JSON5), Markdown when a
    /// line starts with a heading (`# `) or a code fence, else text.
    #[default]
    Auto,
    /// Plain text: the line tools only.
    Text,
    /// JSON in the format inferred from the content.
    Json,
    /// Markdown.
    Markdown,
}

/// What the model sees for one tool result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolOutput {
    /// The result itself: small enough, or from an artifact tool (capped
    /// as artifact tool results are).
    Inline(String),
    /// The result was kept as an artifact; this notice stands in for it:
    /// size, line count, a head and tail preview, the tools to read it
    /// with and its `callId`.
    Spooled(String),
}

impl ToolOutput {
    /// The text to put in the conversation.
    pub fn text(&self) -> &str {
        match self {
            Self::Inline(text) | Self::Spooled(text) => text,
        }
    }

    /// Whether the result was kept as an artifact.
    pub fn is_spooled(&self) -> bool {
        matches!(self, Self::Spooled(_))
    }
}

/// The function behind a [`CustomTool`]: the artifact the call names, and
/// the call's arguments without `callId`; the value it returns is
/// serialised for the model.
pub type ToolFn =
    dyn Fn(&Artifact, &Map<String, Value>) -> Result<Value, ArtifactError> + Send + Sync;

/// The serialiser of a [`CustomTool`]'s return value.
pub type SerialiseFn = dyn Fn(&Value) -> String + Send + Sync;

/// A tool of your own over this turn's artifacts (as a `toolMethods`
/// descriptor of an artifact subclass in the ADK): a name, a description,
/// the JSON Schema of its arguments (without `callId`, which the turn
/// adds), the artifacts it works on, its function and, optionally, its
/// serialiser (default [`default_serialise`](crate::default_serialise),
/// within the turn's caps). A [hosted](CustomTool::hosted) tool has no
/// function here: the host runs it between [`Turn::prepare`] and
/// [`Turn::finish`] (a Python or JavaScript function, say).
///
/// ```
/// use flexmd_artifact::{ArtifactKind, CustomTool, GrepFlags};
/// use serde_json::json;
///
/// let errors = CustomTool::new(
///     "count_errors",
///     "Count the lines of a tool result from this turn that mention ERROR.",
///     json!({"type": "object", "properties": {}}),
///     |artifact, _args| Ok(json!(artifact.base().grep("ERROR", GrepFlags::NONE)?.len())),
/// )
/// .for_kind(ArtifactKind::Text);
/// assert_eq!(errors.name(), "count_errors");
/// ```
#[derive(Clone)]
pub struct CustomTool {
    name: String,
    description: String,
    parameters: Value,
    kind: Option<ArtifactKind>,
    /// `None` for a hosted tool.
    run: Option<Arc<ToolFn>>,
    serialise: Option<Arc<SerialiseFn>>,
}

impl fmt::Debug for CustomTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CustomTool")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

impl CustomTool {
    /// A tool for every kind of artifact. `parameters` is an object schema
    /// (`properties`, `required`, `additionalProperties`); calls are checked
    /// against its required properties, its property types and, when
    /// `additionalProperties` is `false`, unknown arguments.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        parameters: Value,
        run: impl Fn(&Artifact, &Map<String, Value>) -> Result<Value, ArtifactError>
        + Send
        + Sync
        + 'static,
    ) -> Self {
        Self {
            run: Some(Arc::new(run)),
            ..Self::hosted(name, description, parameters)
        }
    }

    /// A tool the host runs itself: [`Turn::dispatch`] refuses it, and the
    /// host calls [`Turn::prepare`], runs its own function on the
    /// [`PreparedCall`], and gives the value to [`Turn::finish`].
    pub fn hosted(
        name: impl Into<String>,
        description: impl Into<String>,
        parameters: Value,
    ) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            parameters,
            kind: None,
            run: None,
            serialise: None,
        }
    }

    /// The same tool, offered for artifacts of `kind` only.
    pub fn for_kind(mut self, kind: ArtifactKind) -> Self {
        self.kind = Some(kind);
        self
    }

    /// The same tool with its own serialiser.
    pub fn with_serialiser(
        mut self,
        serialise: impl Fn(&Value) -> String + Send + Sync + 'static,
    ) -> Self {
        self.serialise = Some(Arc::new(serialise));
        self
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn applies_to(&self, artifact: &Artifact) -> bool {
        self.kind.is_none_or(|k| k == artifact.kind())
    }

    /// Its definition, `callId` narrowed to `ids`.
    fn definition(&self, ids: &[&str]) -> ToolDefinition {
        let mut properties = self
            .parameters
            .get("properties")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        properties.insert(
            "callId".to_owned(),
            json!({"type": "string", "enum": ids, "description": "the id of the tool call whose result to read"}),
        );
        let mut required = vec![json!("callId")];
        if let Some(own) = self.parameters.get("required").and_then(Value::as_array) {
            required.extend(own.iter().cloned());
        }
        let mut parameters = Map::new();
        parameters.insert("type".to_owned(), json!("object"));
        parameters.insert("properties".to_owned(), Value::Object(properties));
        parameters.insert("required".to_owned(), Value::Array(required));
        if let Some(extra) = self.parameters.get("additionalProperties") {
            parameters.insert("additionalProperties".to_owned(), extra.clone());
        }
        ToolDefinition {
            name: self.name.clone(),
            description: self.description.clone(),
            parameters: Value::Object(parameters),
        }
    }

    /// The arguments without `callId`, checked against the schema.
    fn check(&self, args: &Map<String, Value>) -> Result<Map<String, Value>, ArtifactError> {
        let fail = |message: String| ArtifactError::Call(format!("{}: {message}", self.name));
        let properties = self.parameters.get("properties").and_then(Value::as_object);
        let mut own = args.clone();
        own.remove("callId");
        if let Some(required) = self.parameters.get("required").and_then(Value::as_array) {
            for name in required.iter().filter_map(Value::as_str) {
                if !own.contains_key(name) {
                    return Err(fail(format!("`{name}` is required")));
                }
            }
        }
        let closed = self.parameters.get("additionalProperties") == Some(&Value::Bool(false));
        for (name, value) in &own {
            let Some(schema) = properties.and_then(|p| p.get(name)) else {
                if closed {
                    return Err(fail(format!("unknown argument `{name}`")));
                }
                continue;
            };
            if let Some(expected) = schema.get("type").and_then(Value::as_str)
                && !has_type(value, expected)
            {
                return Err(fail(format!("`{name}` must be {expected} (got {value})")));
            }
        }
        Ok(own)
    }
}

/// Whether `value` is of JSON Schema type `expected`.
fn has_type(value: &Value, expected: &str) -> bool {
    match expected {
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        _ => true,
    }
}

/// A call of a custom tool, checked against its schema and resolved to its
/// artifact, for the host to run (see [`CustomTool::hosted`]).
#[derive(Debug, Clone)]
pub struct PreparedCall {
    /// The tool's name.
    pub tool: String,
    /// The `callId` of the artifact the call reads.
    pub call_id: String,
    /// That artifact.
    pub artifact: Arc<Artifact>,
    /// The call's arguments without `callId`.
    pub arguments: Map<String, Value>,
}

/// One agent turn: the host adds each tool result as it arrives, shows the
/// model what [`Turn::add_result`] returns, offers it
/// [`Turn::merged_definitions`], runs its artifact tool calls with
/// [`Turn::dispatch`], and calls [`Turn::end`] when the turn is done.
///
/// - A result over [`TurnOptions::max_inline_bytes`] or
///   [`TurnOptions::max_inline_tokens`] becomes an artifact, and the model
///   sees a notice (size, lines, a head and tail preview, the tools and the
///   `callId`); a smaller one passes through as it is.
/// - The forged tools' `callId` enum lists this turn's artifacts, and grows
///   as results are added; a tool is offered only when some artifact is of
///   its kind.
/// - A result of an artifact tool (a call [`Turn::dispatch`] ran, or any
///   result whose tool is an artifact tool) is never spooled: no grep on a
///   grep.
/// - [`Turn::merged_definitions`] puts the forged tools with the host's;
///   a forged or custom tool replaces a host tool of the same name.
/// - [`Turn::end`] drops the artifacts: no artifact tool is offered until
///   the next large result. Custom tools stay registered.
///
/// ```
/// use flexmd_artifact::{ResultKind, Turn, TurnOptions};
///
/// let mut turn = Turn::new(TurnOptions { max_inline_bytes: 64, ..TurnOptions::default() });
/// let small = turn.add_result("call_1", "ping", "pong", ResultKind::Auto).unwrap();
/// assert_eq!(small.text(), "pong");
/// let log: String = (0..100).map(|i| format!("line {i}\n")).collect();
/// let big = turn.add_result("call_2", "read_log", log, ResultKind::Auto).unwrap();
/// assert!(big.is_spooled());
/// assert!(big.text().contains("callId \"call_2\""));
/// let tail = turn.dispatch("artifact_tail", r#"{"callId": "call_2", "n": 2}"#).unwrap();
/// assert_eq!(tail, "line 99\n");
/// turn.end();
/// assert!(turn.definitions().is_empty());
/// ```
#[derive(Debug, Default)]
pub struct Turn {
    options: TurnOptions,
    artifacts: Vec<(String, Arc<Artifact>)>,
    custom: Vec<CustomTool>,
}

impl Turn {
    /// A turn with no results yet.
    pub fn new(options: TurnOptions) -> Self {
        Self {
            options,
            artifacts: Vec::new(),
            custom: Vec::new(),
        }
    }

    /// Registers a tool of your own; one of the same name (a custom or a
    /// forged tool) is replaced. It is offered while an artifact of its
    /// kind is in the turn, in every turn.
    pub fn register(&mut self, tool: CustomTool) {
        self.custom.retain(|t| t.name != tool.name);
        self.custom.push(tool);
    }

    /// Adds the result of the tool call `call_id` (of the tool `tool_name`)
    /// and returns what the model should see in its place. Results of
    /// artifact tools pass through (capped), never spooled; others are
    /// spooled when over the thresholds, read as `kind` says.
    ///
    /// A `call_id` already used in this turn is an error.
    pub fn add_result(
        &mut self,
        call_id: &str,
        tool_name: &str,
        content: impl Into<Vec<u8>>,
        kind: ResultKind,
    ) -> Result<ToolOutput, ArtifactError> {
        self.check_new_id(call_id)?;
        let content = content.into();
        if self.is_artifact_tool(tool_name) {
            let text = String::from_utf8_lossy(&content).into_owned();
            return Ok(ToolOutput::Inline(capped(text, self.options.caps)));
        }
        if !self.is_large(&content) {
            return Ok(ToolOutput::Inline(
                String::from_utf8_lossy(&content).into_owned(),
            ));
        }
        let artifact = read_as(content, kind);
        Ok(self.spool(call_id, tool_name, Arc::new(artifact)))
    }

    /// Adds a result the host has already spooled (a file, say) as an
    /// artifact of this turn, and returns the notice for it.
    pub fn add_artifact(
        &mut self,
        call_id: &str,
        tool_name: &str,
        artifact: impl Into<Arc<Artifact>>,
    ) -> Result<ToolOutput, ArtifactError> {
        self.check_new_id(call_id)?;
        Ok(self.spool(call_id, tool_name, artifact.into()))
    }

    fn check_new_id(&self, call_id: &str) -> Result<(), ArtifactError> {
        if self.artifacts.iter().any(|(id, _)| id == call_id) {
            return Err(ArtifactError::Call(format!(
                "the callId `{call_id}` is already used in this turn"
            )));
        }
        Ok(())
    }

    /// Whether `content` is over either threshold.
    fn is_large(&self, content: &[u8]) -> bool {
        content.len() > self.options.max_inline_bytes
            || count_tokens(content, self.options.encoding) > self.options.max_inline_tokens
    }

    fn spool(&mut self, call_id: &str, tool_name: &str, artifact: Arc<Artifact>) -> ToolOutput {
        let notice = self.notice(call_id, tool_name, &artifact);
        self.artifacts.push((call_id.to_owned(), artifact));
        ToolOutput::Spooled(notice)
    }

    /// The text a model sees instead of a spooled result.
    fn notice(&self, call_id: &str, tool_name: &str, artifact: &Artifact) -> String {
        let base = artifact.base();
        let (bytes, lines) = (base.byte_length(), base.line_count());
        let tokens = if bytes <= COUNT_TOKENS_UP_TO {
            format!(", {} tokens", base.estimate_tokens(self.options.encoding))
        } else {
            String::new()
        };
        let what = match artifact {
            Artifact::Text(_) => "text".to_owned(),
            Artifact::Json(a) => format!("JSON ({})", a.json_type().name()),
            Artifact::Markdown(_) => "Markdown".to_owned(),
        };
        let mut out = format!(
            "The result of `{tool_name}` is too large to show here ({bytes} bytes, {lines} lines{tokens}). It is kept as a {what} artifact for this turn, callId \"{call_id}\".\n"
        );
        let n = self.options.preview_lines;
        let preview = |lines: Vec<String>| -> String {
            lines
                .into_iter()
                .map(|l| format!("  {}\n", cut_line(&l)))
                .collect()
        };
        if lines <= n.saturating_mul(2) {
            out.push_str(&format!("Its lines:\n{}", preview(base.head(lines))));
        } else {
            out.push_str(&format!(
                "First {n} lines:\n{}Last {n} lines:\n{}",
                preview(base.head(n)),
                preview(base.tail(n))
            ));
        }
        let mut tools: Vec<&str> = ToolSet::tool_names(artifact.kind())
            .filter(|name| !self.custom.iter().any(|t| t.name == *name))
            .collect();
        tools.extend(
            self.custom
                .iter()
                .filter(|t| t.applies_to(artifact))
                .map(|t| t.name.as_str()),
        );
        out.push_str(&format!(
            "Read it with these tools and callId \"{call_id}\": {}.",
            tools.join(", ")
        ));
        out
    }

    /// The `callId`s of this turn's artifacts, in the order added.
    pub fn call_ids(&self) -> impl Iterator<Item = &str> {
        self.artifacts.iter().map(|(id, _)| id.as_str())
    }

    /// The artifact of `call_id`, if it was spooled in this turn.
    pub fn artifact(&self, call_id: &str) -> Option<&Arc<Artifact>> {
        self.artifacts
            .iter()
            .find(|(id, _)| id == call_id)
            .map(|(_, a)| a)
    }

    fn forged(&self) -> ToolSet<'_> {
        forge_tools(&self.artifacts).with_caps(self.options.caps)
    }

    /// The artifact tools for this turn: the forged ones (each `callId`
    /// enum listing the artifacts it reads) and the custom ones that apply
    /// to some artifact; a custom tool replaces a forged one of its name.
    /// Empty when the turn has no artifact.
    pub fn definitions(&self) -> Vec<ToolDefinition> {
        let mut out: Vec<ToolDefinition> = self
            .forged()
            .definitions()
            .into_iter()
            .filter(|d| !self.custom.iter().any(|t| t.name == d.name))
            .collect();
        for tool in &self.custom {
            let ids = self.ids_for(tool);
            if !ids.is_empty() {
                out.push(tool.definition(&ids));
            }
        }
        out
    }

    /// The `callId`s of the artifacts `tool` reads.
    fn ids_for(&self, tool: &CustomTool) -> Vec<&str> {
        self.artifacts
            .iter()
            .filter(|(_, a)| tool.applies_to(a))
            .map(|(id, _)| id.as_str())
            .collect()
    }

    /// The host's tools with this turn's artifact tools merged in: a host
    /// tool keeps its place unless an artifact tool of the same name
    /// replaces it there (silently, as the ADK's `onCollision: 'replace'`);
    /// the other artifact tools follow.
    pub fn merged_definitions(&self, host: &[ToolDefinition]) -> Vec<ToolDefinition> {
        let mut forged = self.definitions();
        let mut out: Vec<ToolDefinition> = host
            .iter()
            .map(|h| match forged.iter().position(|f| f.name == h.name) {
                Some(i) => forged.remove(i),
                None => h.clone(),
            })
            .collect();
        out.extend(forged);
        out
    }

    /// The host's tools, as the provider takes them (any of the three
    /// [`ToolFormat`]s), with this turn's artifact tools merged in, in
    /// `format`: as [`Turn::merged_definitions`], a host tool keeps its
    /// place and its own fields unless an artifact tool of its name
    /// replaces it; the other artifact tools follow.
    ///
    /// ```
    /// use flexmd_artifact::{ResultKind, ToolFormat, Turn, TurnOptions};
    /// use serde_json::json;
    ///
    /// let mut turn = Turn::new(TurnOptions { max_inline_bytes: 4, ..TurnOptions::default() });
    /// turn.add_result("call_1", "read_log", "a\nb\nc\nd\n", ResultKind::Text).unwrap();
    /// let host = vec![json!({"name": "search", "input_schema": {"type": "object"}, "cache_control": {"type": "ephemeral"}})];
    /// let tools = turn.merged_tools(&host, ToolFormat::Anthropic);
    /// assert_eq!(tools[0], host[0], "kept as given");
    /// assert_eq!(tools[1]["name"], "artifact_head");
    /// assert!(tools[1]["input_schema"]["properties"]["callId"].is_object());
    /// ```
    pub fn merged_tools(&self, host: &[Value], format: ToolFormat) -> Vec<Value> {
        let mut forged = self.definitions();
        let mut out: Vec<Value> = host
            .iter()
            .map(|h| {
                let same = ToolFormat::tool_name(h)
                    .and_then(|name| forged.iter().position(|f| f.name == name));
                match same {
                    Some(i) => format.render(&forged.remove(i)),
                    None => h.clone(),
                }
            })
            .collect();
        out.extend(forged.iter().map(|f| format.render(f)));
        out
    }

    /// Whether `name` is an artifact tool (forged or custom), whose results
    /// are never spooled.
    pub fn is_artifact_tool(&self, name: &str) -> bool {
        ToolSet::names_forged_tool(name) || self.custom.iter().any(|t| t.name == name)
    }

    /// Runs an artifact tool call and returns its result text (within the
    /// caps). `arguments` is the call's JSON text, as models send it. A
    /// [hosted](CustomTool::hosted) tool is an error here: see
    /// [`Turn::prepare`].
    pub fn dispatch(&self, name: &str, arguments: &str) -> Result<String, ArtifactError> {
        if !self.custom.iter().any(|t| t.name == name) {
            return self.forged().call(name, arguments);
        }
        let call = self.prepare(name, arguments)?;
        let run = self
            .custom_tool(name)
            .and_then(|t| t.run.clone())
            .ok_or_else(|| {
                ArtifactError::Call(format!(
                    "{name} is run by the host: use Turn::prepare and Turn::finish"
                ))
            })?;
        let value = run(&call.artifact, &call.arguments)?;
        Ok(self.finish(name, &value))
    }

    /// Whether `name` is a custom tool the host runs itself
    /// ([`CustomTool::hosted`]): its calls go through [`Turn::prepare`]
    /// and [`Turn::finish`] instead of [`Turn::dispatch`].
    pub fn is_hosted_tool(&self, name: &str) -> bool {
        self.custom_tool(name).is_some_and(|t| t.run.is_none())
    }

    fn custom_tool(&self, name: &str) -> Option<&CustomTool> {
        self.custom.iter().find(|t| t.name == name)
    }

    /// Checks a call of the custom tool `name` (its `callId` among the
    /// artifacts the tool reads, its arguments against the tool's schema)
    /// and resolves it, for the host to run. An unknown tool, a wrong
    /// `callId` or wrong arguments are errors whose text is for the model.
    pub fn prepare(&self, name: &str, arguments: &str) -> Result<PreparedCall, ArtifactError> {
        let tool = self
            .custom_tool(name)
            .ok_or_else(|| ArtifactError::Call(format!("{name} is not a custom tool")))?;
        let Value::Object(args) = parse_arguments(name, arguments)? else {
            return Err(ArtifactError::Call(format!(
                "{name}: the arguments must be a JSON object"
            )));
        };
        let id = call_id(name, &self.ids_for(tool), &args)?;
        let artifact = self
            .artifact(id)
            .ok_or_else(|| ArtifactError::Call(format!("{name}: no artifact")))?;
        Ok(PreparedCall {
            tool: name.to_owned(),
            call_id: id.to_owned(),
            artifact: Arc::clone(artifact),
            arguments: tool.check(&args)?,
        })
    }

    /// The text the model sees for the value a call of the custom tool
    /// `tool` returned: serialised by the tool's serialiser (default
    /// [`default_serialise`](crate::default_serialise)), within the caps.
    pub fn finish(&self, tool: &str, value: &Value) -> String {
        match self.custom_tool(tool).and_then(|t| t.serialise.as_ref()) {
            Some(serialise) => capped(serialise(value), self.options.caps),
            None => capped_value(value, self.options.caps),
        }
    }

    /// A tool result text the host serialised itself, within the caps.
    pub fn finish_text(&self, text: String) -> String {
        capped(text, self.options.caps)
    }

    /// Ends the turn (the ADK's `ack`): drops its artifacts, so no artifact
    /// tool is offered until a new large result arrives. Returns how many
    /// artifacts were dropped.
    pub fn end(&mut self) -> usize {
        let dropped = self.artifacts.len();
        self.artifacts.clear();
        dropped
    }
}

/// A spooled result read as `kind`.
fn read_as(content: Vec<u8>, kind: ResultKind) -> Artifact {
    let base = SpooledArtifact::new(MemoryReader::new(content));
    match kind {
        ResultKind::Text => Artifact::Text(base),
        ResultKind::Markdown => Artifact::Markdown(SpooledMarkdownArtifact::from_base(base)),
        ResultKind::Json | ResultKind::Auto => match SpooledJsonArtifact::try_from_base(base) {
            Ok(json) => Artifact::Json(json),
            Err((base, _)) if kind == ResultKind::Auto && looks_like_markdown(&base) => {
                Artifact::Markdown(SpooledMarkdownArtifact::from_base(base))
            }
            Err((base, _)) => Artifact::Text(base),
        },
    }
}

/// Whether one of the first lines is an ATX heading or a code fence.
fn looks_like_markdown(base: &SpooledArtifact) -> bool {
    base.reader().lines_from(0).take(1000).any(|line| {
        let line = line.trim_start_matches(' ');
        let hashes = line.bytes().take_while(|&b| b == b'#').count();
        (1..=6).contains(&hashes)
            && line
                .get(hashes..)
                .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']))
            || line.starts_with("```")
            || line.starts_with("~~~")
    })
}

/// A preview line, cut to [`PREVIEW_LINE_CHARS`] characters.
fn cut_line(line: &str) -> String {
    match line.char_indices().nth(PREVIEW_LINE_CHARS) {
        Some((at, _)) => format!(
            "{}… ({} more bytes)",
            line.get(..at).unwrap_or_default(),
            line.len() - at
        ),
        None => line.to_owned(),
    }
}
