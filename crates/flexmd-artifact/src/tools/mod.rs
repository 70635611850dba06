//! Forged tools (@nhtio/adk's `forgeTools`): function-calling tool
//! definitions over a set of artifacts, and the dispatcher that runs a
//! model's call.
//!
//! `ToolSet` and `forge_tools` live here; the rest is one concern a file:
//!
//! | file | owns |
//! |---|---|
//! | `catalogue.rs` | the table of tools (`SPECS`), their JSON Schemas, `tool_catalogue` |
//! | `args.rs` | argument checks: `parse_arguments`, `call_id`, `Args`, `check_arguments` |
//! | `run.rs` | running a checked call on its artifact |
//! | `result.rs` | result text and caps (`Caps`, `default_serialise`) |
//! | `formats.rs` | provider formats (`ToolDefinition`, `ToolFormat`, OpenAI, Anthropic) |

mod args;
mod catalogue;
mod formats;
mod result;
mod run;

use serde_json::Value;

use crate::error::ArtifactError;
use crate::kind::{Artifact, ArtifactKind};
use crate::tools::catalogue::{Family, SPECS, Spec, schema};

pub use args::check_arguments;
pub(crate) use args::{Args, call_id, parse_arguments};
pub use catalogue::{MAX_LISTED_CALL_IDS, ToolInfo, tool_catalogue};
pub use formats::{
    AnthropicTool, FunctionType, OpenAiTool, ResponsesTool, ToolDefinition, ToolFormat,
};
pub use result::{Caps, default_serialise};
pub(crate) use result::{capped, capped_value};

/// The tools forged for a set of artifacts, and the dispatcher for calls.
#[derive(Debug)]
pub struct ToolSet<'a> {
    artifacts: Vec<(&'a str, &'a Artifact)>,
    tools: Vec<(&'static Spec, Vec<&'a str>)>,
    caps: Caps,
    cancel: Option<&'a std::sync::atomic::AtomicBool>,
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
}
