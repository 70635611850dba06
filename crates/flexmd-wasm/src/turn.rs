//! One agent turn for the npm package's `Turn`, over
//! `flexmd_artifact::Turn`. The package's own tools (JavaScript
//! functions, possibly async) are hosted tools: the turn checks a call and
//! resolves its artifact (`prepare`), the package runs the function, and
//! the turn serialises its value within the caps (`finish`).

use std::sync::Arc;

use flexmd_artifact::{
    ArtifactError, ArtifactKind, CustomTool, ResultKind, ToolFormat, ToolOutput, Turn, TurnOptions,
};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::{Outcome, argument_error, from_json, to_value};
use crate::artifacts::{ArtifactHandle, ToolBox, artifact_error};

/// The options of a new turn, as the package passes them.
#[derive(Debug, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct Options {
    max_inline_bytes: usize,
    max_inline_tokens: usize,
    preview_lines: usize,
    format: String,
}

impl Default for Options {
    fn default() -> Self {
        let defaults = TurnOptions::default();
        Self {
            max_inline_bytes: defaults.max_inline_bytes,
            max_inline_tokens: defaults.max_inline_tokens,
            preview_lines: defaults.preview_lines,
            format: "openai".to_owned(),
        }
    }
}

/// A turn and the format its definitions are given in.
pub(crate) struct TurnBox {
    turn: Turn,
    format: ToolFormat,
}

fn output(output: &ToolOutput) -> Value {
    json!({"text": output.text(), "spooled": output.is_spooled()})
}

impl TurnBox {
    /// A turn with no results (`options`: JSON of [`Options`]).
    pub(crate) fn new(options: &str) -> Result<Self, crate::api::BindingError> {
        let options: Options = from_json("Turn options", options)?;
        let format: ToolFormat = options
            .format
            .parse()
            .map_err(|e: ArtifactError| argument_error(e.to_string()))?;
        let turn = Turn::new(TurnOptions {
            max_inline_bytes: options.max_inline_bytes,
            max_inline_tokens: options.max_inline_tokens,
            preview_lines: options.preview_lines,
            ..TurnOptions::default()
        });
        Ok(Self { turn, format })
    }

    /// A tool result: what the model sees in its place.
    pub(crate) fn add_result(
        &mut self,
        call_id: &str,
        tool_name: &str,
        content: Vec<u8>,
        kind: &str,
    ) -> Outcome {
        let kind = match kind {
            "auto" => ResultKind::Auto,
            "text" => ResultKind::Text,
            "json" => ResultKind::Json,
            "markdown" => ResultKind::Markdown,
            other => {
                return Err(argument_error(format!(
                    "kind must be \"auto\", \"text\", \"json\" or \"markdown\", not {other:?}"
                )));
            }
        };
        self.turn
            .add_result(call_id, tool_name, content, kind)
            .map(|o| output(&o))
            .map_err(|e| artifact_error(&e))
    }

    /// An artifact the package has, as the result of `tool_name`.
    pub(crate) fn add_artifact(&mut self, artifact: &ArtifactHandle, tool_name: &str) -> Outcome {
        self.turn
            .add_artifact(&artifact.call_id, tool_name, Arc::clone(&artifact.artifact))
            .map(|o| output(&o))
            .map_err(|e| artifact_error(&e))
    }

    /// Registers a tool the package runs (`parameters`: JSON Schema text;
    /// `kind`: `text`, `json`, `markdown`, or empty for every kind).
    pub(crate) fn register(
        &mut self,
        name: &str,
        description: &str,
        parameters: &str,
        kind: &str,
    ) -> Outcome {
        let parameters: Value = from_json("parameters", parameters)?;
        if !parameters.is_object() {
            return Err(argument_error(
                "parameters must be the JSON Schema object of the tool's arguments",
            ));
        }
        let mut tool = CustomTool::hosted(name, description, parameters);
        tool = match kind {
            "" => tool,
            "text" => tool.for_kind(ArtifactKind::Text),
            "json" => tool.for_kind(ArtifactKind::Json),
            "markdown" => tool.for_kind(ArtifactKind::Markdown),
            other => {
                return Err(argument_error(format!(
                    "kind must be \"text\", \"json\" or \"markdown\" (or left out for every kind), not {other:?}"
                )));
            }
        };
        self.turn.register(tool);
        Ok(Value::Null)
    }

    /// The artifact tools, in the turn's format.
    pub(crate) fn definitions(&self) -> Outcome {
        Ok(self.format.render_all(&self.turn.definitions()))
    }

    /// The host's tools (JSON text of a list) with the artifact tools merged in.
    pub(crate) fn merged_tools(&self, host: &str) -> Outcome {
        let host: Vec<Value> = from_json("tools", host)?;
        Ok(Value::Array(self.turn.merged_tools(&host, self.format)))
    }

    /// The format's name.
    pub(crate) fn format(&self) -> String {
        self.format.name().to_owned()
    }

    /// Whether `name` is an artifact tool.
    pub(crate) fn is_artifact_tool(&self, name: &str) -> bool {
        self.turn.is_artifact_tool(name)
    }

    /// The artifacts' call ids.
    pub(crate) fn call_ids(&self) -> Outcome {
        to_value(&self.turn.call_ids().collect::<Vec<_>>())
    }

    /// The artifact of `call_id`, for the package to wrap.
    pub(crate) fn artifact(&self, call_id: &str) -> Option<ArtifactHandle> {
        self.turn.artifact(call_id).map(|a| ArtifactHandle {
            call_id: call_id.to_owned(),
            kind: a.read_as(),
            artifact: Arc::clone(a),
        })
    }

    /// A call of a tool the package runs, checked and resolved: `{tool,
    /// callId, arguments}`; `null` when the call is for an artifact tool
    /// the turn runs itself (`call`).
    pub(crate) fn prepare(&self, call: &str) -> Outcome {
        let call = ToolBox::one(call, "call")?;
        if !self.turn.is_hosted_tool(&call.name) {
            return Ok(Value::Null);
        }
        let prepared = self
            .turn
            .prepare(&call.name, &call.arguments)
            .map_err(|e| artifact_error(&e))?;
        Ok(json!({
            "tool": prepared.tool,
            "callId": prepared.call_id,
            "arguments": prepared.arguments,
        }))
    }

    /// Runs a call of an artifact tool: the text to give the model.
    pub(crate) fn call(&self, call: &str) -> Outcome {
        let call = ToolBox::one(call, "call")?;
        self.turn
            .dispatch(&call.name, &call.arguments)
            .map(Value::String)
            .map_err(|e| artifact_error(&e))
    }

    /// The text of the value a tool the package ran returned (JSON text).
    pub(crate) fn finish(&self, tool: &str, value: &str) -> Outcome {
        let value: Value = from_json("the tool's result", value)?;
        Ok(Value::String(self.turn.finish(tool, &value)))
    }

    /// A result the package serialised itself, within the caps.
    pub(crate) fn finish_text(&self, text: &str) -> Outcome {
        Ok(Value::String(self.turn.finish_text(text.to_owned())))
    }

    /// Ends the turn: how many artifacts were dropped.
    pub(crate) fn end(&mut self) -> Outcome {
        Ok(json!(self.turn.end()))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;

    #[test]
    fn a_hosted_call_is_prepared_then_finished() {
        let mut turn = TurnBox::new(r#"{"maxInlineBytes": 8}"#).unwrap();
        turn.register("count", "Count.", r#"{"type": "object"}"#, "text")
            .unwrap();
        let shown = turn
            .add_result("c1", "read", b"one\ntwo\nthree\n".to_vec(), "auto")
            .unwrap();
        assert_eq!(shown["spooled"], true);
        let forged = r#"{"name": "artifact_head", "arguments": {"callId": "c1", "n": 1}}"#;
        assert_eq!(turn.prepare(forged).unwrap(), Value::Null);
        assert_eq!(turn.call(forged).unwrap(), "one");
        let own = r#"{"name": "count", "arguments": {"callId": "c1"}}"#;
        assert_eq!(
            turn.prepare(own).unwrap(),
            json!({"tool": "count", "callId": "c1", "arguments": {}})
        );
        assert_eq!(turn.finish("count", "[\"a\", \"b\"]").unwrap(), "a\nb");
        assert!(TurnBox::new(r#"{"format": "gemini"}"#).is_err());
        assert!(TurnBox::new(r#"{"maxInline": 8}"#).is_err());
    }
}
