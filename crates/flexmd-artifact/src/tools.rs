//! Forged tools (@nhtio/adk's `forgeTools`): function-calling tool definitions
//! over a set of artifacts, and the dispatcher that runs a model's call.

use serde_json::{Map, Value, json};

use crate::artifact::SpooledArtifact;
use crate::error::ArtifactError;
use crate::json::SpooledJsonArtifact;
use crate::markdown::SpooledMarkdownArtifact;
use crate::tokens::Encoding;

/// One artifact of any kind.
#[derive(Debug)]
pub enum Artifact {
    /// Plain text: the base tools only.
    Text(SpooledArtifact),
    /// JSON: the base tools and the `artifact_json_*` tools.
    Json(SpooledJsonArtifact),
    /// Markdown: the base tools and the `artifact_md_*` tools.
    Markdown(SpooledMarkdownArtifact),
}

/// The kinds of [`Artifact`], for saying which a tool works on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArtifactKind {
    /// Plain text.
    Text,
    /// JSON, JSON5 or JSON Lines.
    Json,
    /// Markdown.
    Markdown,
}

impl Artifact {
    /// The line operations every artifact has.
    pub fn base(&self) -> &SpooledArtifact {
        match self {
            Self::Text(a) => a,
            Self::Json(a) => a.base(),
            Self::Markdown(a) => a.base(),
        }
    }

    /// Which kind it is.
    pub fn kind(&self) -> ArtifactKind {
        match self {
            Self::Text(_) => ArtifactKind::Text,
            Self::Json(_) => ArtifactKind::Json,
            Self::Markdown(_) => ArtifactKind::Markdown,
        }
    }

    /// How it is read: the [`ReadAs`](crate::ReadAs) that reads it again
    /// this way (a JSON artifact's format as detected).
    pub fn read_as(&self) -> crate::ReadAs {
        use crate::{JsonFormat, ReadAs};
        match self {
            Self::Text(_) => ReadAs::Text,
            Self::Markdown(_) => ReadAs::Markdown,
            Self::Json(a) => match a.json_type() {
                JsonFormat::Json => ReadAs::Json,
                JsonFormat::Json5 => ReadAs::Json5,
                JsonFormat::Jsonl => ReadAs::Jsonl,
                JsonFormat::Ndjson => ReadAs::Ndjson,
            },
        }
    }
}

/// Caps on what one call returns, so that one call cannot flood a context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Lines of a line list (head, tail, cat, grep).
    pub lines: usize,
    /// Bytes of any result.
    pub bytes: usize,
}

impl Caps {
    /// No caps: every line and byte.
    pub fn unlimited() -> Self {
        Self {
            lines: usize::MAX,
            bytes: usize::MAX,
        }
    }
}

impl Default for Caps {
    fn default() -> Self {
        Self {
            lines: 2000,
            bytes: 64 * 1024,
        }
    }
}

/// What a tool's parameter accepts.
#[derive(Debug, Clone, Copy)]
enum Param {
    /// An integer in `[min, max]`, with a default when omitted.
    Int {
        name: &'static str,
        min: i64,
        max: i64,
        default: Option<i64>,
        doc: &'static str,
    },
    /// A string of at most `max_len` bytes; `empty_is_omitted` when `""`
    /// means the same as leaving it out.
    Str {
        name: &'static str,
        required: bool,
        max_len: usize,
        empty_is_omitted: bool,
        doc: &'static str,
    },
    /// `true` or `false`, `false` when omitted.
    Bool {
        name: &'static str,
        doc: &'static str,
    },
    /// One of a closed set of strings.
    Enum {
        name: &'static str,
        values: &'static [&'static str],
        default: &'static str,
        doc: &'static str,
    },
}

impl Param {
    fn name(&self) -> &'static str {
        match self {
            Self::Int { name, .. }
            | Self::Str { name, .. }
            | Self::Bool { name, .. }
            | Self::Enum { name, .. } => name,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Base,
    Json,
    Markdown,
}

struct Spec {
    name: &'static str,
    family: Family,
    /// Arguments of a typical call (without `callId`), as JSON.
    example: &'static str,
    description: &'static str,
    params: &'static [Param],
}

const LINE_START: Param = Param::Int {
    name: "startLine",
    min: 0,
    max: i64::MAX,
    default: None,
    doc: "0-based first line (inclusive); default 0",
};
const LINE_END: Param = Param::Int {
    name: "endLine",
    min: 0,
    max: i64::MAX,
    default: None,
    doc: "0-based end line (exclusive); default the line count",
};
const PATH: Param = Param::Str {
    name: "path",
    required: true,
    max_len: crate::jsonpath::MAX_PATH_LEN,
    empty_is_omitted: false,
    doc: "a JSONPath, RFC 9535 (e.g. `$.items[*].name`, `$..id`, `$[?@.status == 'active']`); JSONPath-Plus filters such as `$[?(@.status === 'active')]` and `@.name.match(/re/i)` are read too",
};
const DEPTH: Param = Param::Int {
    name: "depth",
    min: 1,
    max: 6,
    default: None,
    doc: "only headings of this depth (1-6)",
};

const ENCODINGS: &[&str] = &[
    "gpt2",
    "r50k_base",
    "p50k_base",
    "p50k_edit",
    "cl100k_base",
    "o200k_base",
    "claude",
];

const SPECS: &[Spec] = &[
    Spec {
        name: "artifact_head",
        family: Family::Base,
        example: r#"{"n": 20}"#,
        description: "Return the first n lines of a tool result from this turn.",
        params: &[Param::Int {
            name: "n",
            min: 1,
            max: 2000,
            default: Some(10),
            doc: "number of lines",
        }],
    },
    Spec {
        name: "artifact_tail",
        family: Family::Base,
        example: r#"{"n": 20}"#,
        description: "Return the last n lines of a tool result from this turn.",
        params: &[Param::Int {
            name: "n",
            min: 1,
            max: 2000,
            default: Some(10),
            doc: "number of lines",
        }],
    },
    Spec {
        name: "artifact_grep",
        family: Family::Base,
        example: r#"{"pattern": "ERROR|WARN", "flags": "i"}"#,
        description: "Return the lines of a tool result from this turn that match a regular expression (Rust regex syntax, no lookaround; each line matched on its own). With lineNumbers, each line starts with its 1-based line number and a colon, as grep -n prints it (artifact_cat counts lines from 0: line N is start=N-1).",
        params: &[
            Param::Str {
                name: "pattern",
                required: true,
                max_len: crate::grep::MAX_PATTERN_LEN,
                empty_is_omitted: false,
                doc: "the regular expression",
            },
            Param::Str {
                name: "flags",
                required: false,
                max_len: 4,
                empty_is_omitted: true,
                doc: "a subset of `imsu` (i: ignore case); \"\" for none",
            },
            Param::Bool {
                name: "lineNumbers",
                doc: "prefix each line with its 1-based line number and `:`; default false",
            },
        ],
    },
    Spec {
        name: "artifact_cat",
        family: Family::Base,
        example: r#"{"start": -5}"#,
        description: "Return lines [start, end) of a tool result from this turn, as JavaScript's Array.prototype.slice takes them (negative counts from the end; clamped to the line count).",
        params: &[
            Param::Int {
                name: "start",
                min: i64::MIN,
                max: i64::MAX,
                default: Some(0),
                doc: "0-based first line (inclusive); negative counts from the end (-10: the last ten lines)",
            },
            Param::Int {
                name: "end",
                min: i64::MIN,
                max: i64::MAX,
                default: None,
                doc: "0-based end line (exclusive); negative counts from the end; default the line count",
            },
        ],
    },
    Spec {
        name: "artifact_byte_length",
        family: Family::Base,
        example: r#"{}"#,
        description: "Return the size in bytes of a tool result from this turn.",
        params: &[],
    },
    Spec {
        name: "artifact_line_count",
        family: Family::Base,
        example: r#"{}"#,
        description: "Return the number of lines of a tool result from this turn.",
        params: &[],
    },
    Spec {
        name: "artifact_estimate_tokens",
        family: Family::Base,
        example: r#"{"encoding": "cl100k_base"}"#,
        description: "Return the number of tokens of a tool result from this turn under an encoding.",
        params: &[Param::Enum {
            name: "encoding",
            values: ENCODINGS,
            default: "o200k_base",
            doc: "the tokenizer",
        }],
    },
    Spec {
        name: "artifact_json_type",
        family: Family::Json,
        example: r#"{}"#,
        description: "Return the format of a JSON tool result from this turn: json, json5, jsonl or ndjson.",
        params: &[],
    },
    Spec {
        name: "artifact_json_keys",
        family: Family::Json,
        example: r#"{}"#,
        description: "Return the top-level keys of a JSON tool result from this turn (for JSON Lines, of all records).",
        params: &[],
    },
    Spec {
        name: "artifact_json_length",
        family: Family::Json,
        example: r#"{}"#,
        description: "Return the number of records of a JSON tool result from this turn (1 for json/json5).",
        params: &[],
    },
    Spec {
        name: "artifact_json_get",
        family: Family::Json,
        example: r#"{"path": "$.items[*].name"}"#,
        description: "Return the values a JSONPath selects in a JSON tool result from this turn (for JSON Lines, in every record).",
        params: &[PATH],
    },
    Spec {
        name: "artifact_json_filter",
        family: Family::Json,
        example: r#"{"path": "$[?@.status == 'active']"}"#,
        description: "Return the records of a JSON tool result from this turn in which a JSONPath selects something; a path starting with `$[?` tests the record itself, e.g. `$[?@.status == 'active']`.",
        params: &[PATH],
    },
    Spec {
        name: "artifact_json_slice",
        family: Family::Json,
        example: r#"{"start": 0, "end": 3}"#,
        description: "Return records [start, end) of a JSON Lines tool result from this turn, as JavaScript's Array.prototype.slice takes them (negative counts from the end); the root for json/json5.",
        params: &[
            Param::Int {
                name: "start",
                min: i64::MIN,
                max: i64::MAX,
                default: Some(0),
                doc: "first record (inclusive); negative counts from the end",
            },
            Param::Int {
                name: "end",
                min: i64::MIN,
                max: i64::MAX,
                default: None,
                doc: "end record (exclusive); negative counts from the end; default the record count",
            },
        ],
    },
    Spec {
        name: "artifact_json_pluck",
        family: Family::Json,
        example: r#"{"path": "$.id"}"#,
        description: "Return one field from every record of a JSON tool result from this turn, by JSONPath (e.g. `$.id`).",
        params: &[PATH],
    },
    Spec {
        name: "artifact_md_frontmatter",
        family: Family::Markdown,
        example: r#"{}"#,
        description: "Return the YAML front matter of a Markdown tool result from this turn, as JSON.",
        params: &[],
    },
    Spec {
        name: "artifact_md_headings",
        family: Family::Markdown,
        example: r#"{"depth": 2}"#,
        description: "Return the headings of a Markdown tool result from this turn, with their line ranges.",
        params: &[DEPTH],
    },
    Spec {
        name: "artifact_md_code_blocks",
        family: Family::Markdown,
        example: r#"{"lang": "rust"}"#,
        description: "Return the fenced code blocks of a Markdown tool result from this turn (language and line range; read them with artifact_cat).",
        params: &[Param::Str {
            name: "lang",
            required: false,
            max_len: 64,
            empty_is_omitted: false,
            doc: "only blocks of this language; \"\" for blocks with none",
        }],
    },
    Spec {
        name: "artifact_md_sections",
        family: Family::Markdown,
        example: r#"{"depth": 2}"#,
        description: "Return the sections of a Markdown tool result from this turn: heading, depth and body line range (read a body with artifact_cat).",
        params: &[DEPTH],
    },
    Spec {
        name: "artifact_md_links",
        family: Family::Markdown,
        example: r#"{"startLine": 0, "endLine": 40}"#,
        description: "Return the links in lines [startLine, endLine) of a Markdown tool result from this turn.",
        params: &[LINE_START, LINE_END],
    },
    Spec {
        name: "artifact_md_images",
        family: Family::Markdown,
        example: r#"{}"#,
        description: "Return the images in lines [startLine, endLine) of a Markdown tool result from this turn.",
        params: &[LINE_START, LINE_END],
    },
    Spec {
        name: "artifact_md_text",
        family: Family::Markdown,
        example: r#"{"startLine": 10, "endLine": 20}"#,
        description: "Return the plain text (markup removed) of lines [startLine, endLine) of a Markdown tool result from this turn.",
        params: &[LINE_START, LINE_END],
    },
    Spec {
        name: "artifact_md_ast",
        family: Family::Markdown,
        example: r#"{"startLine": 0, "endLine": 5}"#,
        description: "Return the mdast syntax tree of lines [startLine, endLine) of a Markdown tool result from this turn (at most 1 MiB; bound the range with artifact_md_sections).",
        params: &[LINE_START, LINE_END],
    },
];

/// A tool definition: name, description and the JSON Schema of its
/// arguments. As JSON it is the `function` object of OpenAI's format.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct ToolDefinition {
    /// The tool's name (`artifact_head`).
    pub name: String,
    /// What it does, for the model.
    pub description: String,
    /// The JSON Schema of its arguments (`callId` included).
    pub parameters: Value,
}

/// The constant `type` of an [`OpenAiTool`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub enum FunctionType {
    /// The string `"function"`.
    #[serde(rename = "function")]
    Function,
}

/// A tool in OpenAI's function-calling format:
/// `{"type": "function", "function": {name, description, parameters}}`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct OpenAiTool<'a> {
    /// Always `"function"`.
    #[serde(rename = "type")]
    pub kind: FunctionType,
    /// The definition.
    pub function: &'a ToolDefinition,
}

/// A tool in the OpenAI Responses API's format, flat:
/// `{"type": "function", name, description, parameters, strict: false}`.
/// `strict` is false because the Responses API takes it as true when it is
/// left out, and strict mode refuses the optional arguments these tools
/// have.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct ResponsesTool<'a> {
    /// Always `"function"`.
    #[serde(rename = "type")]
    pub kind: FunctionType,
    /// The tool's name (`artifact_head`).
    pub name: &'a str,
    /// What it does, for the model.
    pub description: &'a str,
    /// The JSON Schema of its arguments (`callId` included).
    pub parameters: &'a Value,
    /// Always false (see the type's documentation).
    pub strict: bool,
}

/// A tool in Anthropic's format: `{name, description, input_schema}`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct AnthropicTool<'a> {
    /// The tool's name (`artifact_head`).
    pub name: &'a str,
    /// What it does, for the model.
    pub description: &'a str,
    /// The JSON Schema of its arguments (`callId` included).
    pub input_schema: &'a Value,
}

impl ToolDefinition {
    /// This tool in OpenAI's format, typed.
    pub fn openai(&self) -> OpenAiTool<'_> {
        OpenAiTool {
            kind: FunctionType::Function,
            function: self,
        }
    }

    /// This tool in the OpenAI Responses API's flat format, typed.
    pub fn openai_responses(&self) -> ResponsesTool<'_> {
        ResponsesTool {
            kind: FunctionType::Function,
            name: &self.name,
            description: &self.description,
            parameters: &self.parameters,
            strict: false,
        }
    }

    /// This tool in the OpenAI Responses API's format (`{"type":
    /// "function", name, description, parameters, strict}`).
    pub fn to_openai_responses(&self) -> Value {
        json!(self.openai_responses())
    }

    /// This tool in Anthropic's format, typed.
    pub fn anthropic(&self) -> AnthropicTool<'_> {
        AnthropicTool {
            name: &self.name,
            description: &self.description,
            input_schema: &self.parameters,
        }
    }

    /// This tool in OpenAI's format
    /// (`{"type": "function", "function": {name, description, parameters}}`).
    pub fn to_openai(&self) -> Value {
        json!(self.openai())
    }

    /// This tool in Anthropic's format (`{name, description, input_schema}`).
    pub fn to_anthropic(&self) -> Value {
        json!(self.anthropic())
    }
}

/// The shape a provider takes tool definitions in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolFormat {
    /// OpenAI Chat Completions: `{"type": "function", "function": {name,
    /// description, parameters}}`.
    #[default]
    OpenAi,
    /// The OpenAI Responses API, flat: `{"type": "function", name,
    /// description, parameters, strict}`.
    OpenAiResponses,
    /// Anthropic Messages: `{name, description, input_schema}`.
    Anthropic,
}

impl std::str::FromStr for ToolFormat {
    type Err = ArtifactError;

    /// `openai`, `openai-responses` or `anthropic`.
    ///
    /// ```
    /// use flexmd_artifact::ToolFormat;
    /// assert_eq!("anthropic".parse::<ToolFormat>().unwrap(), ToolFormat::Anthropic);
    /// assert_eq!(
    ///     "gemini".parse::<ToolFormat>().unwrap_err().to_string(),
    ///     "format must be \"openai\", \"openai-responses\" or \"anthropic\", not \"gemini\""
    /// );
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "openai" => Ok(Self::OpenAi),
            "openai-responses" => Ok(Self::OpenAiResponses),
            "anthropic" => Ok(Self::Anthropic),
            other => Err(ArtifactError::Call(format!(
                "format must be \"openai\", \"openai-responses\" or \"anthropic\", not {other:?}"
            ))),
        }
    }
}

impl ToolFormat {
    /// Its name, as [`FromStr`](std::str::FromStr) reads it.
    pub fn name(self) -> &'static str {
        match self {
            Self::OpenAi => "openai",
            Self::OpenAiResponses => "openai-responses",
            Self::Anthropic => "anthropic",
        }
    }

    /// `tool` in this format.
    pub fn render(self, tool: &ToolDefinition) -> Value {
        match self {
            Self::OpenAi => tool.to_openai(),
            Self::OpenAiResponses => tool.to_openai_responses(),
            Self::Anthropic => tool.to_anthropic(),
        }
    }

    /// `tools` in this format, as a JSON array.
    pub fn render_all(self, tools: &[ToolDefinition]) -> Value {
        Value::Array(tools.iter().map(|t| self.render(t)).collect())
    }

    /// The name of a tool definition in any of the three formats (or of a
    /// provider's built-in tool that has one); `None` when it has none.
    ///
    /// ```
    /// use flexmd_artifact::ToolFormat;
    /// use serde_json::json;
    /// let chat = json!({"type": "function", "function": {"name": "search"}});
    /// assert_eq!(ToolFormat::tool_name(&chat), Some("search"));
    /// assert_eq!(ToolFormat::tool_name(&json!({"name": "search", "input_schema": {}})), Some("search"));
    /// assert_eq!(ToolFormat::tool_name(&json!({"type": "web_search"})), None);
    /// ```
    pub fn tool_name(tool: &Value) -> Option<&str> {
        tool.get("function")
            .and_then(|f| f.get("name"))
            .or_else(|| tool.get("name"))
            .and_then(Value::as_str)
    }
}

/// One artifact tool as documentation: its definition (with `callId` a
/// plain string), the kind of artifact it reads and a typical call.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolInfo {
    /// The definition, as [`ToolSet::definitions`] gives it.
    pub definition: ToolDefinition,
    /// The kind of artifact it reads; `None` when it reads any kind (the
    /// line tools).
    pub reads: Option<ArtifactKind>,
    /// Arguments of a typical call, without `callId` (a JSON object).
    pub example: Value,
}

/// Every tool [`forge_tools`] can forge, in order, documented: what the
/// CLI's `flexmd artifact --help` and generated docs are built from.
///
/// ```
/// let tools = flexmd_artifact::tool_catalogue();
/// let grep = tools.iter().find(|t| t.definition.name == "artifact_grep").unwrap();
/// assert_eq!(grep.reads, None);
/// assert_eq!(grep.example["pattern"], "ERROR|WARN");
/// assert_eq!(grep.definition.parameters["required"], serde_json::json!(["callId", "pattern"]));
/// ```
pub fn tool_catalogue() -> Vec<ToolInfo> {
    SPECS
        .iter()
        .map(|spec| ToolInfo {
            definition: ToolDefinition {
                name: spec.name.to_owned(),
                description: spec.description.to_owned(),
                parameters: schema(spec, &[]),
            },
            reads: match spec.family {
                Family::Base => None,
                Family::Json => Some(ArtifactKind::Json),
                Family::Markdown => Some(ArtifactKind::Markdown),
            },
            example: serde_json::from_str(spec.example).unwrap_or_default(),
        })
        .collect()
}

/// Checks the arguments of a call to the tool `name` (JSON text, an
/// object) without any artifact: unknown names, types and ranges, with the
/// same messages as [`ToolSet::call`]. `callId` may be left out. A front
/// end checks a call with this before it opens a large file.
///
/// ```
/// use flexmd_artifact::check_arguments;
/// assert!(check_arguments("artifact_head", r#"{"n": 3}"#).is_ok());
/// let err = check_arguments("artifact_head", r#"{"m": 3}"#).unwrap_err();
/// assert_eq!(err.to_string(), "artifact_head: unknown argument `m`; the arguments are `callId`, `n`");
/// ```
pub fn check_arguments(name: &str, arguments: &str) -> Result<(), ArtifactError> {
    let Some(spec) = SPECS.iter().find(|s| s.name == name) else {
        let names: Vec<&str> = SPECS.iter().map(|s| s.name).collect();
        return Err(ArtifactError::Call(format!(
            "unknown tool `{name}`; the tools are {}",
            names.join(", ")
        )));
    };
    let mut args = parse_arguments(name, arguments)?;
    // Any callId will do here: the artifact is not known yet.
    if let Value::Object(map) = &mut args {
        map.entry("callId")
            .or_insert_with(|| Value::String(String::new()));
    }
    let id = args
        .get("callId")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    Args::check(spec, &[id.as_str()], &args).map(|_| ())
}

/// The tools forged for a set of artifacts, and the dispatcher for calls.
#[derive(Debug)]
pub struct ToolSet<'a> {
    artifacts: Vec<(&'a str, &'a Artifact)>,
    tools: Vec<(&'static Spec, Vec<&'a str>)>,
    caps: Caps,
    cancel: Option<&'a std::sync::atomic::AtomicBool>,
}

impl std::fmt::Debug for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// Forges the tools for `artifacts` (each with its `callId`): the base
/// tools when there is any artifact, the `artifact_json_*` tools when there
/// is a JSON one, the `artifact_md_*` tools when there is a Markdown one.
/// Each tool's `callId` enum lists only the artifacts it works on.
///
/// The artifacts may be owned or shared: any `(id, artifact)` pairs whose
/// id reads as a `str` and whose artifact borrows as an [`Artifact`]
/// (`(String, Artifact)`, `(&str, Arc<Artifact>)`, ...).
///
/// ```
/// use flexmd_artifact::{Artifact, MemoryReader, SpooledArtifact, forge_tools};
///
/// let artifacts = vec![("call_1".to_owned(), Artifact::Text(SpooledArtifact::new(MemoryReader::new("a\nb\nc"))))];
/// let tools = forge_tools(&artifacts);
/// assert_eq!(tools.definitions().len(), 7);
/// assert_eq!(tools.call("artifact_tail", r#"{"callId": "call_1", "n": 2}"#).unwrap(), "b\nc");
/// let err = tools.call("artifact_tail", r#"{"callId": "call_9"}"#).unwrap_err();
/// assert_eq!(err.to_string(), "artifact_tail: `callId` must be one of \"call_1\" (got \"call_9\")");
/// ```
pub fn forge_tools<S, A>(artifacts: &[(S, A)]) -> ToolSet<'_>
where
    S: AsRef<str>,
    A: std::borrow::Borrow<Artifact>,
{
    let artifacts: Vec<(&str, &Artifact)> = artifacts
        .iter()
        .map(|(id, a)| (id.as_ref(), a.borrow()))
        .collect();
    let mut tools = Vec::new();
    for spec in SPECS {
        let ids: Vec<&str> = artifacts
            .iter()
            .filter(|(_, a)| match spec.family {
                Family::Base => true,
                Family::Json => matches!(a, Artifact::Json(_)),
                Family::Markdown => matches!(a, Artifact::Markdown(_)),
            })
            .map(|(id, _)| *id)
            .collect();
        if !ids.is_empty() {
            tools.push((spec, ids));
        }
    }
    ToolSet {
        artifacts,
        tools,
        caps: Caps::default(),
        cancel: None,
    }
}

impl<'a> ToolSet<'a> {
    /// The same tools with other result caps.
    pub fn with_caps(mut self, caps: Caps) -> Self {
        self.caps = caps;
        self
    }

    /// The same tools, giving up on a paged call
    /// ([`ToolSet::call_paged`]) with [`ArtifactError::Cancelled`] once
    /// `cancel` is set: from another thread, while a grep searches a large
    /// file, for a call its client no longer waits for.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use flexmd_artifact::{Artifact, ArtifactError, MemoryReader, SpooledArtifact, forge_tools};
    ///
    /// let artifacts = vec![("log".to_owned(), Artifact::Text(SpooledArtifact::new(MemoryReader::new("a\nb"))))];
    /// let cancel = AtomicBool::new(true);
    /// let tools = forge_tools(&artifacts).with_cancel(&cancel);
    /// let err = tools.call_paged("artifact_grep", r#"{"callId": "log", "pattern": "b"}"#, 100, None);
    /// assert!(matches!(err, Err(ArtifactError::Cancelled)));
    /// ```
    pub fn with_cancel(mut self, cancel: &'a std::sync::atomic::AtomicBool) -> Self {
        self.cancel = Some(cancel);
        self
    }

    /// Whether the caller gave up on the call.
    pub(crate) fn cancelled(&self) -> bool {
        self.cancel
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
            || crate::cancel::cancelled()
    }

    /// The tool definitions, in @nhtio/adk's order.
    pub fn definitions(&self) -> Vec<ToolDefinition> {
        self.tools
            .iter()
            .map(|(spec, ids)| ToolDefinition {
                name: spec.name.to_owned(),
                description: spec.description.to_owned(),
                parameters: schema(spec, ids),
            })
            .collect()
    }

    /// The definitions in OpenAI's format
    /// (`[{"type": "function", "function": {name, description, parameters}}]`).
    pub fn to_openai(&self) -> Value {
        Value::Array(
            self.definitions()
                .iter()
                .map(ToolDefinition::to_openai)
                .collect(),
        )
    }

    /// The definitions in the OpenAI Responses API's format (`[{"type":
    /// "function", name, description, parameters, strict}]`), for
    /// `client.responses.create(tools=...)`.
    ///
    /// ```
    /// use flexmd_artifact::{Artifact, MemoryReader, SpooledArtifact, forge_tools};
    ///
    /// let artifacts = vec![("log".to_owned(), Artifact::Text(SpooledArtifact::new(MemoryReader::new("a\n"))))];
    /// let tools = forge_tools(&artifacts).to_openai_responses();
    /// assert_eq!(tools[0]["type"], "function");
    /// assert_eq!(tools[0]["name"], "artifact_head");
    /// assert_eq!(tools[0]["strict"], false);
    /// assert!(tools[0].get("function").is_none(), "flat, not nested");
    /// ```
    pub fn to_openai_responses(&self) -> Value {
        Value::Array(
            self.definitions()
                .iter()
                .map(ToolDefinition::to_openai_responses)
                .collect(),
        )
    }

    /// The definitions in Anthropic's format
    /// (`[{name, description, input_schema}]`).
    pub fn to_anthropic(&self) -> Value {
        Value::Array(
            self.definitions()
                .iter()
                .map(ToolDefinition::to_anthropic)
                .collect(),
        )
    }

    /// Whether the tool `name` reads artifacts.
    pub(crate) fn names_forged_tool(name: &str) -> bool {
        SPECS.iter().any(|s| s.name == name)
    }

    /// The names of the tools that work on an artifact of `kind`.
    pub(crate) fn tool_names(kind: ArtifactKind) -> impl Iterator<Item = &'static str> {
        SPECS
            .iter()
            .filter(move |s| match s.family {
                Family::Base => true,
                Family::Json => kind == ArtifactKind::Json,
                Family::Markdown => kind == ArtifactKind::Markdown,
            })
            .map(|s| s.name)
    }

    /// Runs the tool `name` with `arguments` (JSON text, an object) and
    /// returns the result as the model sees it: a string as is, a list of
    /// lines joined with `\n` (`(empty list)` when empty), a number in
    /// decimal, nothing as `(undefined)`, anything else as 2-space pretty
    /// JSON; a result past the caps ends with a `[truncated: ...]` line.
    /// Argument errors say what was wrong and what is allowed.
    pub fn call(&self, name: &str, arguments: &str) -> Result<String, ArtifactError> {
        let Some((spec, ids)) = self.tools.iter().find(|(s, _)| s.name == name) else {
            let names: Vec<&str> = self.tools.iter().map(|(s, _)| s.name).collect();
            return Err(ArtifactError::Call(format!(
                "unknown tool `{name}`; the tools are {}",
                names.join(", ")
            )));
        };
        let args = parse_arguments(name, arguments)?;
        let (_, checked, artifact) = self.resolve_in(spec, ids, &args)?;
        self.run(spec, &checked, artifact)
    }

    /// The tool `name`, its checked arguments and the artifact they name.
    pub(crate) fn resolve<'v>(
        &self,
        name: &str,
        args: &'v Value,
    ) -> Result<(&'static str, Args<'v>, &'a Artifact), ArtifactError> {
        let Some((spec, ids)) = self.tools.iter().find(|(s, _)| s.name == name) else {
            let names: Vec<&str> = self.tools.iter().map(|(s, _)| s.name).collect();
            return Err(ArtifactError::Call(format!(
                "unknown tool `{name}`; the tools are {}",
                names.join(", ")
            )));
        };
        self.resolve_in(spec, ids, args)
    }

    fn resolve_in<'v>(
        &self,
        spec: &'static Spec,
        ids: &[&str],
        args: &'v Value,
    ) -> Result<(&'static str, Args<'v>, &'a Artifact), ArtifactError> {
        let checked = Args::check(spec, ids, args)?;
        let artifact = self
            .artifacts
            .iter()
            .find(|(id, _)| *id == checked.call_id)
            .map(|(_, a)| *a)
            .ok_or_else(|| {
                ArtifactError::Call(format!("{}: no artifact `{}`", spec.name, checked.call_id))
            })?;
        Ok((spec.name, checked, artifact))
    }

    /// A call's whole result as the model would see it, without the caps.
    pub(crate) fn call_unlimited(&self, name: &str, args: &Value) -> Result<String, ArtifactError> {
        let (_, checked, artifact) = self.resolve(name, args)?;
        let spec = SPECS
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| ArtifactError::Call(format!("unknown tool `{name}`")))?;
        let unlimited = ToolSet {
            artifacts: self.artifacts.clone(),
            tools: Vec::new(),
            caps: Caps::unlimited(),
            cancel: self.cancel,
        };
        unlimited.run(spec, &checked, artifact)
    }

    fn run(
        &self,
        spec: &Spec,
        args: &Args<'_>,
        artifact: &Artifact,
    ) -> Result<String, ArtifactError> {
        let base = artifact.base();
        let caps = self.caps;
        let lines = |list: Vec<String>, total: Option<usize>| lines_result(list, total, caps);
        let value = |v: &dyn erased::Serialize| value_result(v, caps);
        // A list is cut to the line cap before it is serialised, so a huge
        // result never becomes a huge JSON tree; `total` when known.
        let list = |items: &dyn ErasedList, total: Option<usize>| {
            let shown = items.len().min(caps.lines);
            let mut out = value_result(&items.prefix(shown), caps);
            if items.len() > shown {
                out.push_str(&match total {
                    Some(total) => {
                        format!("\n[truncated: {shown} of {total} items shown; narrow the query]")
                    }
                    None => format!("\n[truncated: more than {shown} items; narrow the query]"),
                });
            }
            out
        };
        let out = match spec.name {
            "artifact_head" | "artifact_tail" => {
                let n = args.int("n").unwrap_or(10);
                let shown = n.min(caps.lines);
                let got = if spec.name == "artifact_head" {
                    base.head(shown)
                } else {
                    base.tail(shown)
                };
                // Fewer than asked: that is all there is. Only a request
                // over the cap needs the count (and so the line index).
                let total = if got.len() < shown || n == shown {
                    got.len()
                } else {
                    n.min(base.line_count())
                };
                lines(got, Some(total))
            }
            "artifact_cat" => {
                let range = crate::artifact::slice_range(
                    base.line_count(),
                    args.signed("start"),
                    args.signed("end"),
                );
                let shown = range.start..range.end.min(range.start.saturating_add(caps.lines));
                lines(base.lines(shown), Some(range.len()))
            }
            "artifact_grep" => {
                let flags = args.str("flags").unwrap_or("");
                let pattern = crate::grep::GrepPattern::new(
                    args.str("pattern").unwrap_or_default(),
                    crate::grep::GrepFlags::parse(flags)?,
                )?;
                let numbered = args.values.get("lineNumbers") == Some(&Value::Bool(true));
                let hits =
                    base.grep_hits_until(&pattern, 0, None, caps.lines.saturating_add(1), &|| {
                        false
                    })?;
                let more = hits.len() > caps.lines;
                let shown: Vec<String> = hits
                    .into_iter()
                    .take(caps.lines)
                    .map(|hit| {
                        let line = String::from_utf8_lossy(base.reader().byte_range(hit.range));
                        if numbered {
                            format!("{}:{line}", hit.line + 1)
                        } else {
                            line.into_owned()
                        }
                    })
                    .collect();
                let mut text = lines(shown, None);
                if more {
                    text.push_str(&format!(
                        "\n[truncated: more than {} matching lines; make the pattern more specific]",
                        caps.lines
                    ));
                }
                text
            }
            "artifact_byte_length" => base.byte_length().to_string(),
            "artifact_line_count" => base.line_count().to_string(),
            "artifact_estimate_tokens" => {
                let encoding: Encoding = args.str("encoding").unwrap_or("o200k_base").parse()?;
                base.estimate_tokens(encoding).to_string()
            }
            _ => match artifact {
                Artifact::Json(a) => match spec.name {
                    "artifact_json_type" => a.json_type().name().to_owned(),
                    "artifact_json_keys" => match a.json_keys()? {
                        Some(keys) => lines(keys, None),
                        None => "(undefined)".to_owned(),
                    },
                    "artifact_json_length" => a.json_length()?.to_string(),
                    "artifact_json_get" | "artifact_json_pluck" => {
                        let path = args.str("path").unwrap_or("$");
                        let mut out = BoundedList::new(caps);
                        a.json_get_each(path, &mut |v| out.push(v))?;
                        out.finish()
                    }
                    "artifact_json_filter" => {
                        let path = args.str("path").unwrap_or("$");
                        let mut out = BoundedList::new(caps);
                        for v in &a.json_filter_limited(path, caps.lines.saturating_add(1))? {
                            out.push(v);
                        }
                        out.finish()
                    }
                    "artifact_json_slice" => {
                        let range = a.record_range(args.signed("start"), args.signed("end"))?;
                        // One more than the cap, to know whether to say so.
                        let end = range
                            .end
                            .min(range.start.saturating_add(caps.lines.saturating_add(1)));
                        let mut out = BoundedList::new(caps);
                        for v in &a.records(range.start..end)? {
                            out.push(v);
                        }
                        out.finish()
                    }
                    _ => return Err(wrong_kind(spec)),
                },
                Artifact::Markdown(a) => {
                    let (start, end) = (args.int("startLine"), args.int("endLine"));
                    let depth = args.int("depth").and_then(|d| u8::try_from(d).ok());
                    match spec.name {
                        "artifact_md_frontmatter" => match a.md_frontmatter()? {
                            Some(fm) => value(&fm),
                            None => "(undefined)".to_owned(),
                        },
                        // Only what can be shown is built: 1 GB of Markdown
                        // has hundreds of thousands of sections.
                        "artifact_md_headings" => {
                            let shown: Vec<_> = a
                                .headings(depth)
                                .take(caps.lines.saturating_add(1))
                                .collect();
                            list(&shown, Some(a.heading_count(depth)))
                        }
                        "artifact_md_sections" => {
                            let shown: Vec<_> = a
                                .sections(depth)
                                .take(caps.lines.saturating_add(1))
                                .collect();
                            list(&shown, Some(a.heading_count(depth)))
                        }
                        "artifact_md_code_blocks" => {
                            let all = a.md_code_blocks(args.str("lang"));
                            list(&all, Some(all.len()))
                        }
                        // Parsed only as far as can be shown.
                        "artifact_md_links" => {
                            let shown =
                                a.inline_limited(start, end, false, caps.lines.saturating_add(1));
                            list(&shown, None)
                        }
                        "artifact_md_images" => {
                            let shown: Vec<_> = a
                                .inline_limited(start, end, true, caps.lines.saturating_add(1))
                                .into_iter()
                                .map(crate::markdown::Image::from_link)
                                .collect();
                            list(&shown, None)
                        }
                        "artifact_md_text" => capped_text(
                            a.md_text_limited(start, end, caps.bytes.saturating_add(1)),
                            caps,
                        ),
                        "artifact_md_ast" => value(&a.md_ast(start, end)?),
                        _ => return Err(wrong_kind(spec)),
                    }
                }
                Artifact::Text(_) => return Err(wrong_kind(spec)),
            },
        };
        Ok(out)
    }
}

fn wrong_kind(spec: &Spec) -> ArtifactError {
    ArtifactError::Call(format!(
        "{}: this artifact is not of the kind the tool reads",
        spec.name
    ))
}

/// Serialize through a trait object (a small local stand-in for
/// `erased-serde`, enough for `serde_json::to_value`).
mod erased {
    pub(super) trait Serialize {
        fn to_value(&self) -> Result<serde_json::Value, serde_json::Error>;
    }
    impl<T: serde::Serialize> Serialize for T {
        fn to_value(&self) -> Result<serde_json::Value, serde_json::Error> {
            serde_json::to_value(self)
        }
    }
}

/// A list of serialisable items, cut before serialisation.
trait ErasedList {
    fn len(&self) -> usize;
    fn prefix(&self, n: usize) -> Value;
}

impl<T: serde::Serialize> ErasedList for Vec<T> {
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn prefix(&self, n: usize) -> Value {
        serde_json::to_value(self.get(..n).unwrap_or_default()).unwrap_or(Value::Null)
    }
}

/// A list of lines as @nhtio/adk serialises it, within the caps; `total` is
/// how many lines the full answer has, when more than shown.
fn lines_result(list: Vec<String>, total: Option<usize>, caps: Caps) -> String {
    if list.is_empty() {
        return "(empty list)".to_owned();
    }
    let shown = list.len();
    let mut text = list.join("\n");
    if text.is_empty() {
        // One empty line is still a line: never answer with nothing.
        text = "(1 empty line)".to_owned();
    }
    let mut out = cap_bytes(text, caps);
    if let Some(total) = total
        && total > shown
    {
        out.push_str(&format!(
            "\n[truncated: {shown} of {total} lines shown; read the rest with artifact_cat]"
        ));
    }
    out
}

/// A list of JSON values rendered as [`value_result`] renders a list,
/// value by value within the caps: values are lent, not copied, and
/// serialising stops once the byte cap is passed, so a selection of huge
/// subtrees (`$..*` on a deep document) costs no more than the cap.
struct BoundedList {
    caps: Caps,
    /// The pretty JSON array so far (without its closing bracket).
    json: Vec<u8>,
    /// Every value so far was a string: the values, each cut to the cap.
    strings: Option<Vec<String>>,
    count: usize,
    /// The JSON passed the byte cap: serialising stopped.
    full: bool,
    /// More values than the line cap were offered.
    more: bool,
}

impl BoundedList {
    fn new(caps: Caps) -> Self {
        Self {
            caps,
            json: b"[".to_vec(),
            strings: Some(Vec::new()),
            count: 0,
            full: false,
            more: false,
        }
    }

    /// Adds a value; `false` once no more are wanted.
    fn push(&mut self, value: &Value) -> bool {
        if self.count == self.caps.lines {
            self.more = true;
            return false;
        }
        self.count += 1;
        if let Some(strings) = &mut self.strings {
            match value.as_str() {
                Some(s) => {
                    let mut cut = s.len().min(self.caps.bytes.saturating_add(1));
                    while !s.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    strings.push(s.get(..cut).unwrap_or_default().to_owned());
                }
                None => self.strings = None,
            }
        }
        if !self.full {
            self.json
                .extend_from_slice(if self.count == 1 { b"\n" } else { b",\n" });
            let limit = self.caps.bytes.saturating_add(1);
            let mut writer = Indented {
                out: &mut self.json,
                limit,
                at_line_start: true,
            };
            if serde_json::to_writer_pretty(&mut writer, value).is_err() || self.json.len() > limit
            {
                self.full = true;
            }
        }
        true
    }

    fn finish(self) -> String {
        if self.count == 0 {
            return "(empty list)".to_owned();
        }
        let caps = self.caps;
        let mut out = match self.strings {
            Some(strings) => lines_result(strings, None, caps),
            None if !self.full => {
                let mut json = self.json;
                json.extend_from_slice(b"\n]");
                cap_bytes(String::from_utf8_lossy(&json).into_owned(), caps)
            }
            None => {
                let text = String::from_utf8_lossy(&self.json).into_owned();
                let mut cut = caps.bytes.min(text.len());
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                let cut = text.get(..cut).and_then(|t| t.rfind('\n')).unwrap_or(cut);
                format!(
                    "{}\n[truncated: {cut} of more than {} bytes shown; narrow the query (a range, a path, a pattern)]",
                    text.get(..cut).unwrap_or_default(),
                    caps.bytes
                )
            }
        };
        if self.more {
            out.push_str(&format!(
                "\n[truncated: more than {} items; narrow the query]",
                self.count
            ));
        }
        out
    }
}

/// A writer that indents every line by two spaces (an array element in
/// pretty JSON) and fails once `limit` bytes are written, which stops the
/// serialiser.
struct Indented<'a> {
    out: &'a mut Vec<u8>,
    limit: usize,
    at_line_start: bool,
}

impl std::io::Write for Indented<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            if self.at_line_start {
                self.out.extend_from_slice(b"  ");
            }
            self.out.push(b);
            self.at_line_start = b == b'\n';
        }
        if self.out.len() > self.limit {
            return Err(std::io::Error::other("past the byte cap"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A tool's return value as the model reads it (@nhtio/adk's
/// `defaultSerialise`): a string as is, a list of strings one per line, a
/// number in decimal, anything else as 2-space pretty JSON. Where @nhtio/adk
/// would answer with nothing, the text says so: `(empty list)` for `[]`,
/// `(undefined)` for no value (`null`), `(1 empty line)` for `[""]`.
///
/// ```
/// use flexmd_artifact::default_serialise;
/// use serde_json::json;
/// assert_eq!(default_serialise(&json!("as is")), "as is");
/// assert_eq!(default_serialise(&json!(["a", "b"])), "a\nb");
/// assert_eq!(default_serialise(&json!(42)), "42");
/// assert_eq!(default_serialise(&json!({"a": [1]})), "{\n  \"a\": [\n    1\n  ]\n}");
/// assert_eq!(default_serialise(&json!([])), "(empty list)");
/// ```
pub fn default_serialise(value: &Value) -> String {
    value_result(value, Caps::unlimited())
}

fn value_result(value: &dyn erased::Serialize, caps: Caps) -> String {
    let value = value.to_value().unwrap_or(Value::Null);
    let text = match &value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) if items.iter().all(Value::is_string) && !items.is_empty() => {
            let list: Vec<String> = items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect();
            return lines_result(list, None, caps);
        }
        Value::Array(items) if items.is_empty() => return "(empty list)".to_owned(),
        Value::Null => return "(undefined)".to_owned(),
        other => serde_json::to_string_pretty(other).unwrap_or_default(),
    };
    cap_bytes(text, caps)
}

/// [`value_result`] for a value given as JSON (custom tools).
pub(crate) fn capped_value(value: &Value, caps: Caps) -> String {
    value_result(value, caps)
}

/// [`cap_bytes`] for the turn's inline results.
pub(crate) fn capped(text: String, caps: Caps) -> String {
    cap_bytes(text, caps)
}

fn capped_text(text: String, caps: Caps) -> String {
    if text.is_empty() {
        return "(empty)".to_owned();
    }
    cap_bytes(text, caps)
}

/// `text` cut at the last line break within `caps.bytes`, with a marker.
fn cap_bytes(text: String, caps: Caps) -> String {
    if text.len() <= caps.bytes {
        return text;
    }
    let total = text.len();
    let mut cut = caps.bytes;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let cut = text.get(..cut).and_then(|t| t.rfind('\n')).unwrap_or(cut);
    format!(
        "{}\n[truncated: {cut} of {total} bytes shown; narrow the query (a range, a path, a pattern)]",
        text.get(..cut).unwrap_or_default()
    )
}

/// A call's arguments as JSON (`""` is no arguments).
pub(crate) fn parse_arguments(name: &str, arguments: &str) -> Result<Value, ArtifactError> {
    if arguments.trim().is_empty() {
        return Ok(Value::Object(Map::new()));
    }
    serde_json::from_str(arguments)
        .map_err(|e| ArtifactError::Call(format!("{name}: the arguments are not JSON: {e}")))
}

/// How many `callId`s a tool's schema lists (as an `enum`); with more
/// artifacts the schema takes any string and a wrong one's error names
/// the closest.
pub const MAX_LISTED_CALL_IDS: usize = 20;

/// The `callId` of a call to the tool `name`, which must be one of `ids`.
pub(crate) fn call_id<'v>(
    name: &str,
    ids: &[&str],
    args: &'v Map<String, Value>,
) -> Result<&'v str, ArtifactError> {
    let given = args.get("callId");
    if let Some(Value::String(id)) = given
        && ids.contains(&id.as_str())
    {
        return Ok(id.as_str());
    }
    let quoted = |ids: &[&str]| {
        ids.iter()
            .map(|i| format!("\"{i}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // Past the listed number, the closest ids by their common start: a
    // message with thousands of ids would not fit in a model's context.
    let allowed = if ids.len() > MAX_LISTED_CALL_IDS {
        let typed = given.and_then(Value::as_str).unwrap_or_default();
        let mut closest = ids.to_vec();
        closest.sort_by_key(|id| {
            std::cmp::Reverse(
                id.chars()
                    .zip(typed.chars())
                    .take_while(|(a, b)| a == b)
                    .count(),
            )
        });
        closest.truncate(10);
        format!(
            "the id of one of the {} open artifacts, such as {}",
            ids.len(),
            quoted(&closest)
        )
    } else {
        format!("one of {}", quoted(ids))
    };
    match given {
        Some(other) => Err(ArtifactError::Call(format!(
            "{name}: `callId` must be {allowed} (got {other})"
        ))),
        None => Err(ArtifactError::Call(format!(
            "{name}: `callId` is required: {allowed}"
        ))),
    }
}

/// Checked arguments of one call.
pub(crate) struct Args<'v> {
    call_id: &'v str,
    values: &'v Map<String, Value>,
    ints: Vec<(&'static str, i64)>,
}

impl<'v> Args<'v> {
    fn check(spec: &Spec, ids: &[&str], args: &'v Value) -> Result<Self, ArtifactError> {
        let name = spec.name;
        let fail = |message: String| ArtifactError::Call(format!("{name}: {message}"));
        let Value::Object(map) = args else {
            return Err(fail("the arguments must be a JSON object".to_owned()));
        };
        for key in map.keys() {
            if key != "callId" && !spec.params.iter().any(|p| p.name() == key) {
                let allowed: Vec<String> = std::iter::once("callId")
                    .chain(spec.params.iter().map(Param::name))
                    .map(|n| format!("`{n}`"))
                    .collect();
                return Err(fail(format!(
                    "unknown argument `{key}`; the arguments are {}",
                    allowed.join(", ")
                )));
            }
        }
        let quoted = |ids: &[&str]| {
            ids.iter()
                .map(|i| format!("\"{i}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let call_id = call_id(name, ids, map)?;
        let mut ints = Vec::new();
        for param in spec.params {
            let value = map.get(param.name());
            match (param, value) {
                (
                    Param::Int {
                        name,
                        min,
                        max,
                        default,
                        ..
                    },
                    v,
                ) => {
                    let n = match v {
                        None | Some(Value::Null) => match default {
                            Some(d) => *d,
                            None => continue,
                        },
                        Some(Value::Number(n)) => n.as_i64().ok_or_else(|| {
                            fail(format!("`{name}` must be an integer (got {n})"))
                        })?,
                        Some(other) => {
                            return Err(fail(format!("`{name}` must be an integer (got {other})")));
                        }
                    };
                    if n < *min || n > *max {
                        let range = if *max == i64::MAX {
                            format!("at least {min}")
                        } else {
                            format!("between {min} and {max}")
                        };
                        return Err(fail(format!("`{name}` must be {range} (got {n})")));
                    }
                    ints.push((*name, n));
                }
                (
                    Param::Str {
                        name,
                        required,
                        max_len,
                        ..
                    },
                    v,
                ) => match v {
                    None | Some(Value::Null) if *required => {
                        return Err(fail(format!("`{name}` is required")));
                    }
                    None | Some(Value::Null) => {}
                    Some(Value::String(s)) if s.len() > *max_len => {
                        return Err(fail(format!(
                            "`{name}` is {} bytes; at most {max_len}",
                            s.len()
                        )));
                    }
                    Some(Value::String(_)) => {}
                    Some(other) => {
                        return Err(fail(format!("`{name}` must be a string (got {other})")));
                    }
                },
                (Param::Bool { name, .. }, v) => match v {
                    None | Some(Value::Null | Value::Bool(_)) => {}
                    Some(other) => {
                        return Err(fail(format!(
                            "`{name}` must be true or false (got {other})"
                        )));
                    }
                },
                (Param::Enum { name, values, .. }, v) => match v {
                    None | Some(Value::Null) => {}
                    Some(Value::String(s)) if s.is_empty() || values.contains(&s.as_str()) => {}
                    Some(other) => {
                        return Err(fail(format!(
                            "`{name}` must be one of {} (got {other})",
                            quoted(values)
                        )));
                    }
                },
            }
        }
        Ok(Self {
            call_id,
            values: map,
            ints,
        })
    }

    /// A boolean argument; `false` when omitted.
    pub(crate) fn bool(&self, name: &str) -> bool {
        self.values.get(name) == Some(&Value::Bool(true))
    }

    /// A non-negative integer argument (negative ones read as 0).
    pub(crate) fn int(&self, name: &str) -> Option<usize> {
        self.signed(name).map(|v| usize::try_from(v).unwrap_or(0))
    }

    /// An integer argument that may be negative.
    pub(crate) fn signed(&self, name: &str) -> Option<i64> {
        self.ints.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }

    /// A string argument; `""` is `None` where it means "omitted".
    pub(crate) fn str(&self, name: &str) -> Option<&'v str> {
        let s = self.values.get(name)?.as_str()?;
        let omitted_when_empty = SPECS.iter().flat_map(|s| s.params).any(|p| {
            matches!(p, Param::Str { name: n, empty_is_omitted: true, .. } if *n == name)
                || matches!(p, Param::Enum { name: n, .. } if *n == name)
        });
        (!(s.is_empty() && omitted_when_empty)).then_some(s)
    }
}

/// The JSON Schema of a tool's arguments.
fn schema(spec: &Spec, ids: &[&str]) -> Value {
    let mut properties = Map::new();
    // Past a few ids the list would swell every tool's schema (and a
    // model's context) with each artifact opened: a plain string then.
    let call_id = if ids.len() > MAX_LISTED_CALL_IDS {
        json!({"type": "string", "description": format!(
            "the id of the tool call whose result to read (more than {MAX_LISTED_CALL_IDS} \
             are open, so they are not listed here; a wrong id's error names the closest)"
        )})
    } else {
        json!({"type": "string", "enum": ids, "description": "the id of the tool call whose result to read"})
    };
    properties.insert("callId".to_owned(), call_id);
    let mut required = vec![json!("callId")];
    for param in spec.params {
        let (name, schema) = match param {
            Param::Int {
                name,
                min,
                max,
                default,
                doc,
            } => {
                let mut s = Map::new();
                s.insert("type".to_owned(), json!("integer"));
                if *min != i64::MIN {
                    s.insert("minimum".to_owned(), json!(min));
                }
                if *max != i64::MAX {
                    s.insert("maximum".to_owned(), json!(max));
                }
                if let Some(d) = default {
                    s.insert("default".to_owned(), json!(d));
                }
                s.insert("description".to_owned(), json!(doc));
                (name, Value::Object(s))
            }
            Param::Str {
                name,
                required: r,
                max_len,
                doc,
                ..
            } => {
                if *r {
                    required.push(json!(name));
                }
                (
                    name,
                    json!({"type": "string", "maxLength": max_len, "description": doc}),
                )
            }
            Param::Bool { name, doc } => (
                name,
                json!({"type": "boolean", "default": false, "description": doc}),
            ),
            Param::Enum {
                name,
                values,
                default,
                doc,
            } => {
                let mut all: Vec<&str> = values.to_vec();
                all.push("");
                (
                    name,
                    json!({"type": "string", "enum": all, "default": default,
                    "description": format!("{doc}; \"\" for the default")}),
                )
            }
        };
        properties.insert((*name).to_owned(), schema);
    }
    json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
}
