//! The provider formats of a tool definition: OpenAI Chat Completions,
//! the OpenAI Responses API and Anthropic Messages (`ToolDefinition` and
//! its wire shapes, `ToolFormat`).
//!
//! A leaf of `tools/`: serde types and their conversions; it knows no tool
//! and no artifact.

use serde_json::{Value, json};

use crate::error::ArtifactError;

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
