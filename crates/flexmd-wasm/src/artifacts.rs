//! Spooled artifacts over text held in memory, and the function-calling
//! tools forged over them, for the npm package's `SpooledArtifact`
//! classes and `forgeTools`.

use std::sync::Arc;

use flexmd_artifact::{
    Artifact, ArtifactError, ArtifactKind, Encoding, GrepFlags, GrepPattern, MemoryReader, ReadAs,
    SpooledJsonArtifact, SpooledMarkdownArtifact, ToolCall, ToolFormat, default_serialise,
    forge_tools, tool_calls, tool_catalogue,
};
use serde::Deserialize;
use serde_json::Value;

use crate::api::{BindingError, Outcome, argument_error, from_json, to_value};

/// An artifact error as the package throws it: a bad query (pattern,
/// JSONPath, arguments, a result too large) is a `ToolCallError`, content
/// that is not the kind asked for an `ArtifactError`.
pub(crate) fn artifact_error(error: &ArtifactError) -> BindingError {
    let name = match error {
        ArtifactError::Pattern(_)
        | ArtifactError::JsonPath(_)
        | ArtifactError::Call(_)
        | ArtifactError::TooLarge { .. } => "ToolCallError",
        _ => "ArtifactError",
    };
    BindingError {
        name,
        code: miette::Diagnostic::code(error).map_or_else(String::new, |c| c.to_string()),
        message: error.to_string(),
        details: None,
    }
}

/// The tools one artifact class surfaces, as the ADK's `toolMethods`
/// descriptors `{name, method, description, argsSchema}` — the schema
/// without `callId`, which `forgeTools` adds — for `reads`: `text` (the
/// line tools every artifact has), `json` or `markdown` (each class lists
/// only its own).
pub(crate) fn tool_methods(reads: &str) -> Outcome {
    let family = match reads {
        "text" => None,
        "json" => Some(ArtifactKind::Json),
        "markdown" => Some(ArtifactKind::Markdown),
        other => {
            return Err(argument_error(format!(
                "toolMethods: `{other}` is not text, json or markdown"
            )));
        }
    };
    let methods: Vec<Value> = tool_catalogue()
        .into_iter()
        .filter(|tool| tool.reads == family)
        .map(|tool| {
            let name = tool.definition.name;
            let mut args = tool.definition.parameters;
            if let Some(properties) = args.get_mut("properties").and_then(Value::as_object_mut) {
                properties.remove("callId");
            }
            if let Some(required) = args.get_mut("required").and_then(Value::as_array_mut) {
                required.retain(|r| r != "callId");
            }
            serde_json::json!({
                "name": name,
                "method": method_of(&name),
                "description": tool.definition.description,
                "argsSchema": args,
            })
        })
        .collect();
    Ok(Value::Array(methods))
}

/// The artifact method a tool calls, as the JavaScript classes name it:
/// `artifact_byte_length` is `byteLength`, `artifact_json_get` `json_get`.
fn method_of(tool: &str) -> String {
    let method = tool.strip_prefix("artifact_").unwrap_or(tool);
    if method.starts_with("json_") || method.starts_with("md_") {
        return method.to_owned();
    }
    let mut words = method.split('_');
    let mut out = words.next().unwrap_or_default().to_owned();
    for word in words {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    out
}

/// A tool's return value (JSON) as the model reads it: the ADK's
/// `defaultSerialise`, saying so where it would answer with nothing.
pub(crate) fn serialise(value: &str) -> Outcome {
    let value: Value = from_json("defaultSerialise value", value)?;
    Ok(Value::String(default_serialise(&value)))
}

/// One artifact: the text, how it is read, and the id tool calls name it by.
pub struct ArtifactHandle {
    pub(crate) call_id: String,
    pub(crate) kind: ReadAs,
    pub(crate) artifact: Arc<Artifact>,
}

/// The arguments a query may take (each method reads its own).
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct QueryArgs {
    n: Option<usize>,
    pattern: Option<String>,
    flags: Option<String>,
    start: Option<i64>,
    end: Option<i64>,
    encoding: Option<String>,
    path: Option<String>,
    depth: Option<u8>,
    lang: Option<String>,
    start_line: Option<usize>,
    end_line: Option<usize>,
    /// Where a chunk of `md_text`, `md_links` or `md_images` starts (a
    /// line; the last chunk's `next`).
    at: Option<usize>,
}

impl QueryArgs {
    /// The grep pattern with its flags.
    fn grep_pattern(&self) -> Result<GrepPattern, BindingError> {
        let failed = |e: ArtifactError| artifact_error(&e);
        let pattern = self
            .pattern
            .as_deref()
            .ok_or_else(|| argument_error("grep needs a pattern"))?;
        let flags = GrepFlags::parse(self.flags.as_deref().unwrap_or_default()).map_err(failed)?;
        GrepPattern::new(pattern, flags).map_err(failed)
    }

    /// Where a chunk starts (a byte, or an item's index; 0 when not given).
    fn start(&self) -> usize {
        usize::try_from(self.start.unwrap_or(0)).unwrap_or(usize::MAX)
    }

    /// The token encoding asked for (default `o200k_base`).
    fn encoding(&self) -> Result<Encoding, BindingError> {
        self.encoding
            .as_deref()
            .unwrap_or("o200k_base")
            .parse()
            .map_err(|e| artifact_error(&e))
    }
}

impl ArtifactHandle {
    /// An artifact over `text`, read as `kind` (`text`, `markdown`, `json`,
    /// `json5`, `jsonl`, `ndjson`).
    pub fn from_text(text: &str, kind: &str, call_id: &str) -> Result<Self, BindingError> {
        Self::from_bytes(text.as_bytes().to_vec(), kind, call_id)
    }

    /// [`ArtifactHandle::from_text`] over UTF-8 bytes the caller has
    /// already encoded (kept as they are, not copied again).
    pub fn from_bytes(bytes: Vec<u8>, kind: &str, call_id: &str) -> Result<Self, BindingError> {
        let kind: ReadAs = kind.parse().map_err(|e| artifact_error(&e))?;
        let artifact =
            Artifact::read(MemoryReader::new(bytes), kind).map_err(|e| artifact_error(&e))?;
        Ok(Self {
            call_id: call_id.to_owned(),
            kind,
            artifact: Arc::new(artifact),
        })
    }

    /// The id tool calls name it by.
    pub fn call_id(&self) -> String {
        self.call_id.clone()
    }

    /// How it is read.
    pub fn kind(&self) -> String {
        self.kind.name().to_owned()
    }

    fn json(&self) -> Result<&SpooledJsonArtifact, BindingError> {
        match self.artifact.as_ref() {
            Artifact::Json(a) => Ok(a),
            _ => Err(self.not_a("JSON")),
        }
    }

    fn markdown(&self) -> Result<&SpooledMarkdownArtifact, BindingError> {
        match self.artifact.as_ref() {
            Artifact::Markdown(a) => Ok(a),
            _ => Err(self.not_a("Markdown")),
        }
    }

    fn not_a(&self, what: &str) -> BindingError {
        BindingError {
            name: "ArtifactError",
            code: "artifact::kind".to_owned(),
            message: format!(
                "`{}` is read as {}, not {what}",
                self.call_id,
                self.kind.name()
            ),
            details: None,
        }
    }

    /// Runs query `method` (the artifact method's name: `head`, `json_get`,
    /// `md_sections`, ...) with `args` (JSON text of an object).
    pub fn query(&self, method: &str, args: &str) -> Outcome {
        let args: QueryArgs = from_json(&format!("{method} arguments"), args)?;
        let base = self.artifact.base();
        let failed = |e: ArtifactError| artifact_error(&e);
        match method {
            "head" => to_value(&base.head(args.n.unwrap_or(10))),
            "tail" => to_value(&base.tail(args.n.unwrap_or(10))),
            "cat" => to_value(&base.cat(args.start, args.end)),
            "grep" => to_value(
                &base
                    .grep_chunk(&args.grep_pattern()?, 0, usize::MAX)
                    .map_err(failed)?
                    .lines,
            ),
            // One window of a grep the package does a window at a time,
            // giving the event loop a turn between windows (256 KiB: about
            // 15 ms of searching).
            "grepChunk" => to_value(
                &base
                    .grep_chunk(&args.grep_pattern()?, args.start(), 256 << 10)
                    .map_err(failed)?,
            ),
            "byteLength" => to_value(&base.byte_length()),
            "lineCount" => to_value(&base.line_count()),
            "estimateTokens" => to_value(&base.estimate_tokens(args.encoding()?)),
            // One chunk of a count the package does a chunk at a time,
            // giving the event loop a turn between chunks.
            "estimateTokensChunk" => {
                let encoding = args.encoding()?;
                let start = args.start();
                // 64 KiB: a few tens of milliseconds between turns.
                to_value(&base.estimate_tokens_chunk(encoding, start, 64 << 10))
            }
            "asString" => Ok(Value::String(base.as_string().into_owned())),
            // A piece of `asString` (2 MiB: about 10 ms), for the package
            // to join with a turn of the event loop between pieces.
            "asStringChunk" => to_value(&base.as_string_chunk(args.start(), 2 << 20)),
            "json_type" => Ok(Value::from(self.json()?.json_type().name())),
            "json_keys" => to_value(&self.json()?.json_keys().map_err(failed)?),
            "json_length" => to_value(&self.json()?.json_length().map_err(failed)?),
            "json_get" => to_value(&self.json()?.json_get(&path(args.path)?).map_err(failed)?),
            "json_filter" => to_value(
                &self
                    .json()?
                    .json_filter(&path(args.path)?)
                    .map_err(failed)?,
            ),
            "json_pluck" => to_value(&self.json()?.json_pluck(&path(args.path)?).map_err(failed)?),
            "json_slice" => to_value(
                &self
                    .json()?
                    .json_slice(args.start, args.end)
                    .map_err(failed)?,
            ),
            "md_frontmatter" => to_value(&self.markdown()?.md_frontmatter().map_err(failed)?),
            "md_headings" => to_value(&self.markdown()?.md_headings(args.depth)),
            "md_sections" => to_value(&self.markdown()?.md_sections(args.depth)),
            // Chunks of lists the package reads a chunk at a time, giving
            // the event loop a turn between them (4 096 items: about 30 ms).
            "md_headingsChunk" => to_value(&self.markdown()?.md_headings_chunk(
                args.depth,
                args.start(),
                4096,
            )),
            // Links and images 256 KiB of Markdown at a time (about 10 ms).
            "md_linksChunk" => to_value(&self.markdown()?.md_links_chunk(
                args.start_line,
                args.end_line,
                args.at,
                256 << 10,
            )),
            "md_imagesChunk" => to_value(&self.markdown()?.md_images_chunk(
                args.start_line,
                args.end_line,
                args.at,
                256 << 10,
            )),
            "md_sectionsChunk" => to_value(&self.markdown()?.md_sections_chunk(
                args.depth,
                args.start(),
                4096,
            )),
            "md_code_blocks" => to_value(&self.markdown()?.md_code_blocks(args.lang.as_deref())),
            "md_links" => to_value(&self.markdown()?.md_links(args.start_line, args.end_line)),
            "md_images" => to_value(&self.markdown()?.md_images(args.start_line, args.end_line)),
            "md_text" => Ok(Value::String(
                self.markdown()?.md_text(args.start_line, args.end_line),
            )),
            // A piece of the structure index (4 MiB of text: about 15 ms),
            // built before the first Markdown query with turns between.
            "indexChunk" => Ok(Value::Bool(self.markdown()?.index_chunk(4 << 20))),
            // One chunk of an `md_text` the package does a chunk at a time.
            "mdTextChunk" => to_value(&self.markdown()?.md_text_chunk(
                args.start_line,
                args.end_line,
                args.at,
                // 64 KiB of text: about 25 ms of parsing between turns.
                64 << 10,
            )),
            "md_ast" => self
                .markdown()?
                .md_ast(args.start_line, args.end_line)
                .map_err(failed),
            other => Err(argument_error(format!("no artifact method `{other}`"))),
        }
    }
}

fn path(path: Option<String>) -> Result<String, BindingError> {
    path.ok_or_else(|| argument_error("a JSONPath is needed (`$.id`)"))
}

/// The tools forged over a set of artifacts, and the dispatcher of a
/// model's calls to them.
pub struct ToolBox {
    artifacts: Vec<(String, Arc<Artifact>)>,
    format: ToolFormat,
}

/// Options of a paged call.
#[derive(Debug, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct PageArgs {
    max_tokens: usize,
    cursor: Option<String>,
}

impl Default for PageArgs {
    fn default() -> Self {
        Self {
            max_tokens: flexmd_artifact::DEFAULT_MAX_TOKENS,
            cursor: None,
        }
    }
}

impl ToolBox {
    /// No artifacts yet; definitions in `format` (`openai`,
    /// `openai-responses` or `anthropic`).
    pub fn new(format: &str) -> Result<Self, BindingError> {
        let format: ToolFormat = format
            .parse()
            .map_err(|e: ArtifactError| argument_error(e.to_string()))?;
        Ok(Self {
            artifacts: Vec::new(),
            format,
        })
    }

    /// Adds an artifact; its call id must be new.
    pub fn add(&mut self, artifact: &ArtifactHandle) -> Result<(), BindingError> {
        if self.artifacts.iter().any(|(id, _)| *id == artifact.call_id) {
            return Err(argument_error(format!(
                "two artifacts have the callId `{}`: give each its own",
                artifact.call_id
            )));
        }
        self.artifacts
            .push((artifact.call_id.clone(), Arc::clone(&artifact.artifact)));
        Ok(())
    }

    /// The tool definitions (`flexmd tools`).
    pub fn definitions(&self) -> Outcome {
        Ok(self
            .format
            .render_all(&forge_tools(&self.artifacts).definitions()))
    }

    /// The tool calls in `calls` (JSON text: a call, an assistant message,
    /// or a list of them, in any provider's shape).
    pub(crate) fn calls(calls: &str) -> Result<Vec<ToolCall>, BindingError> {
        let value: Value = from_json("tool call", calls)?;
        let calls = tool_calls(&value).map_err(|e| artifact_error(&e))?;
        if calls.is_empty() {
            return Err(BindingError {
                name: "ToolCallError",
                code: "artifact::call".to_owned(),
                message: "the call list is empty: give at least one tool call".to_owned(),
                details: None,
            });
        }
        Ok(calls)
    }

    pub(crate) fn one(calls: &str, what: &str) -> Result<ToolCall, BindingError> {
        let mut calls = Self::calls(calls)?;
        match (calls.pop(), calls.is_empty()) {
            (Some(call), true) => Ok(call),
            (_, _) => Err(BindingError {
                name: "ToolCallError",
                code: "artifact::call".to_owned(),
                message: format!(
                    "{what} runs one tool call and this holds {}; callAll runs several",
                    calls.len() + 1
                ),
                details: None,
            }),
        }
    }

    /// Runs one call: the text to give the model back.
    pub fn call(&self, call: &str) -> Outcome {
        let call = Self::one(call, "call")?;
        forge_tools(&self.artifacts)
            .call(&call.name, &call.arguments)
            .map(Value::String)
            .map_err(|e| artifact_error(&e))
    }

    /// Runs every call: `{id?, name, result | error}` each (`flexmd call --json`).
    pub fn call_all(&self, calls: &str) -> Outcome {
        let calls = Self::calls(calls)?;
        let tools = forge_tools(&self.artifacts);
        let results: Vec<_> = calls.iter().map(|c| tools.run_call(c)).collect();
        to_value(&results)
    }

    /// One page of a call's result within `maxTokens` (o200k_base), cut
    /// between whole lines or values; `cursor` continues.
    pub fn call_page(&self, call: &str, options: &str) -> Outcome {
        let call = Self::one(call, "callPage")?;
        let options: PageArgs = from_json("callPage options", options)?;
        let page = forge_tools(&self.artifacts)
            .call_paged(
                &call.name,
                &call.arguments,
                options.max_tokens,
                options.cursor.as_deref(),
            )
            .map_err(|e| artifact_error(&e))?;
        to_value(&page)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_methods_are_the_adk_descriptors_without_call_id() {
        let base = tool_methods("text").unwrap();
        let names: Vec<(&str, &str)> = base
            .as_array()
            .unwrap()
            .iter()
            .map(|d| (d["name"].as_str().unwrap(), d["method"].as_str().unwrap()))
            .collect();
        assert_eq!(
            names,
            [
                ("artifact_head", "head"),
                ("artifact_tail", "tail"),
                ("artifact_grep", "grep"),
                ("artifact_cat", "cat"),
                ("artifact_byte_length", "byteLength"),
                ("artifact_line_count", "lineCount"),
                ("artifact_estimate_tokens", "estimateTokens"),
            ]
        );
        let grep = &base[2]["argsSchema"];
        assert_eq!(grep["required"], serde_json::json!(["pattern"]));
        assert!(grep["properties"].get("callId").is_none());
        let json = tool_methods("json").unwrap();
        assert_eq!(json[0]["method"], "json_type");
        let markdown = tool_methods("markdown").unwrap();
        assert_eq!(markdown[0]["method"], "md_frontmatter");
        let wrong = tool_methods("yaml").unwrap_err();
        assert_eq!(
            wrong.message,
            "toolMethods: `yaml` is not text, json or markdown"
        );
    }

    #[test]
    fn values_serialise_as_the_adk_does() {
        for (value, text) in [
            (r#""as is""#, "as is"),
            (r#"["a", "b"]"#, "a\nb"),
            ("42", "42"),
            (r#"{"a": 1}"#, "{\n  \"a\": 1\n}"),
            ("[]", "(empty list)"),
            ("null", "(undefined)"),
        ] {
            assert_eq!(
                serialise(value).unwrap(),
                Value::String(text.to_owned()),
                "{value}"
            );
        }
    }

    #[test]
    fn queries_read_each_kind() {
        let text = ArtifactHandle::from_text("a\nb\nc", "text", "log").unwrap();
        assert_eq!(
            text.query("tail", r#"{"n": 2}"#).unwrap(),
            serde_json::json!(["b", "c"])
        );
        assert_eq!(text.query("lineCount", "{}").unwrap(), 3);
        let error = text.query("json_keys", "{}").unwrap_err();
        assert_eq!(
            (error.name, error.code.as_str()),
            ("ArtifactError", "artifact::kind")
        );
        let json =
            ArtifactHandle::from_text("{\"id\": 1}\n{\"id\": 2}\n", "jsonl", "rows").unwrap();
        assert_eq!(
            json.query("json_pluck", r#"{"path": "$.id"}"#).unwrap(),
            serde_json::json!([1, 2])
        );
        let bad = json.query("json_get", r#"{"path": "$[?"}"#).unwrap_err();
        assert_eq!(bad.name, "ToolCallError");
    }

    #[test]
    fn tools_dispatch_calls_to_their_artifact() {
        let md = ArtifactHandle::from_text("# A\nx\n## B\ny\n", "markdown", "doc").unwrap();
        let mut tools = ToolBox::new("openai").unwrap();
        tools.add(&md).unwrap();
        assert!(tools.add(&md).is_err(), "a call id twice");
        let result = tools
            .call(r#"{"name": "artifact_head", "arguments": "{\"callId\": \"doc\", \"n\": 1}"}"#)
            .unwrap();
        assert_eq!(result, "# A");
        let definitions = tools.definitions().unwrap();
        assert!(definitions.as_array().is_some_and(|d| d.len() > 10));
    }
}
