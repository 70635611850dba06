//! Tool calls in the shapes providers emit, and the result of one call as
//! JSON.

use serde::Serialize;
use serde_json::Value;

use crate::error::ArtifactError;
use crate::tools::ToolSet;

/// One tool call a model made: which tool, with which arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    /// The provider's id for the call (OpenAI's `id`, or `call_id` in its
    /// Responses API; Anthropic's `tool_use` id), when it has one.
    pub id: Option<String>,
    /// The tool's name.
    pub name: String,
    /// The arguments, as JSON text of an object.
    pub arguments: String,
}

/// The tool calls in `value`, in any of the shapes providers emit:
/// `{"name", "arguments"}` (arguments an object or JSON text), an OpenAI
/// tool call (`{"id", "type": "function", "function": {"name",
/// "arguments"}}`) or an assistant message holding `tool_calls`, an
/// Anthropic `tool_use` block (`{"id", "name", "input"}`) or a message whose
/// `content` holds them, or an array of any of these. In an array holding
/// `tool_use` or `function_call` blocks (a message's content list, OpenAI's
/// Responses output), the other blocks (text, reasoning) are skipped.
///
/// ```
/// use flexmd_artifact::tool_calls;
/// use serde_json::json;
///
/// let openai = json!({"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
///     "function": {"name": "artifact_head", "arguments": "{\"callId\": \"log\", \"n\": 2}"}}]});
/// let calls = tool_calls(&openai).unwrap();
/// assert_eq!((calls[0].id.as_deref(), calls[0].name.as_str()), (Some("c1"), "artifact_head"));
///
/// let anthropic = json!({"type": "tool_use", "id": "t1", "name": "artifact_tail", "input": {"callId": "log"}});
/// assert_eq!(tool_calls(&anthropic).unwrap()[0].arguments, r#"{"callId":"log"}"#);
/// let content = json!([{"type": "text", "text": "Looking."}, anthropic]);
/// assert_eq!(tool_calls(&content).unwrap().len(), 1);
/// assert!(tool_calls(&json!(42)).is_err());
/// ```
pub fn tool_calls(value: &Value) -> Result<Vec<ToolCall>, ArtifactError> {
    let bad = |what: &str| {
        ArtifactError::Call(format!(
            "the call is not a tool call: {what}; give {{\"name\", \"arguments\"}}, an OpenAI \
             tool call or an Anthropic tool_use block (or an array of them)"
        ))
    };
    match value {
        Value::Array(items) => {
            // A content list (Anthropic's blocks, OpenAI's Responses output
            // items) mixes calls with text and reasoning: take the calls.
            let is_call_block = |item: &Value| {
                matches!(
                    item.get("type").and_then(Value::as_str),
                    Some("tool_use" | "function_call")
                )
            };
            let blocks = items.iter().any(is_call_block);
            let mut all = Vec::new();
            for item in items.iter().filter(|item| !blocks || is_call_block(item)) {
                all.extend(tool_calls(item)?);
            }
            Ok(all)
        }
        Value::Object(map) => {
            // An OpenAI assistant message.
            if let Some(calls @ Value::Array(_)) = map.get("tool_calls") {
                return tool_calls(calls);
            }
            // An Anthropic assistant message.
            if let Some(Value::Array(blocks)) = map.get("content") {
                let uses: Vec<Value> = blocks
                    .iter()
                    .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
                    .cloned()
                    .collect();
                if uses.is_empty() {
                    return Err(bad("the message has no tool_use block"));
                }
                return tool_calls(&Value::Array(uses));
            }
            // OpenAI: {"id", "type": "function", "function": {"name", "arguments"}}.
            let body = map
                .get("function")
                .filter(|f| f.is_object())
                .unwrap_or(value);
            let name = body
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("it has no string `name`"))?;
            let arguments = match body.get("arguments").or_else(|| body.get("input")) {
                Some(Value::String(text)) => text.clone(),
                Some(Value::Null) | None => "{}".to_owned(),
                Some(other) => other.to_string(),
            };
            Ok(vec![ToolCall {
                // OpenAI's Responses API answers a call by its `call_id`.
                id: map
                    .get("call_id")
                    .or_else(|| map.get("id"))
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                name: name.to_owned(),
                arguments,
            }])
        }
        _ => Err(bad("it is not an object")),
    }
}

/// What one tool call returned, as `flexmd call --json` prints it:
/// `{"id"?, "name", "result"}` or `{"id"?, "name", "error"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct ToolCallResult {
    /// The provider's id for the call, when it had one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The tool's name.
    pub name: String,
    /// The text the model is given back, when the call ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// Why the call could not run, written for the model to act on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl ToolCallResult {
    /// Whether the call ran but found nothing (`(empty list)`,
    /// `(undefined)`).
    pub fn found_nothing(&self) -> bool {
        matches!(self.result.as_deref(), Some("(empty list)" | "(undefined)"))
    }
}

impl ToolSet<'_> {
    /// Runs `call` and keeps its id: the result or the error, as
    /// [`ToolCallResult`].
    pub fn run_call(&self, call: &ToolCall) -> ToolCallResult {
        let (result, error) = match self.call(&call.name, &call.arguments) {
            Ok(text) => (Some(text), None),
            Err(e) => (None, Some(e.to_string())),
        };
        ToolCallResult {
            id: call.id.clone(),
            name: call.name.clone(),
            result,
            error,
        }
    }
}
