//! `ToolSet` and `forge_tools`: function-calling tools forged over
//! artifacts, and the dispatcher for a model's calls.

use std::sync::Arc;

use flexmd_artifact::{Artifact, ArtifactError, ToolCall, ToolFormat, forge_tools, tool_calls};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use serde_json::Value;

use crate::artifact::PyArtifact;
use crate::convert::{to_json, to_py};
use crate::errors::{artifact_error, flexmd_error};
use crate::gil::interruptible;

/// The function-calling tools forged over a set of artifacts, and the
/// dispatcher for a model's calls.
#[pyclass(module = "flexmd", frozen)]
pub(crate) struct ToolSet {
    artifacts: Vec<(String, Arc<Artifact>)>,
    format: ToolFormat,
}

impl ToolSet {
    /// The size of all the text a call may read.
    fn bytes(&self) -> usize {
        self.artifacts
            .iter()
            .map(|(_, a)| a.base().byte_length())
            .sum()
    }
}

#[pymethods]
impl ToolSet {
    /// The tool definitions in this set's format, as `flexmd tools` prints them.
    #[getter]
    fn definitions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let tools = forge_tools(&self.artifacts).definitions();
        to_py(py, &self.format.render_all(&tools))
    }

    /// The definitions' format: "openai", "openai-responses" or "anthropic".
    #[getter]
    fn format(&self) -> &'static str {
        self.format.name()
    }

    /// Runs every call in `calls` (JSON data: a call, an assistant message
    /// or a list of them): one `{id?, name, result | error}` dict each, as
    /// `flexmd call --json` prints them.
    fn call_all<'py>(
        &self,
        py: Python<'py>,
        calls: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let calls = calls_of(py, calls)?;
        let artifacts = self.artifacts.clone();
        let results = interruptible(py, self.bytes(), move || {
            let tools = forge_tools(&artifacts);
            calls.iter().map(|c| tools.run_call(c)).collect::<Vec<_>>()
        })?;
        to_py(py, &results)
    }

    /// Runs one tool call (a dict, JSON text, or the provider's own
    /// tool-call object) and returns the text to give the model back;
    /// raises `ToolCallError` with the text to give it instead when the
    /// call cannot run.
    fn call(&self, py: Python<'_>, tool_call: &Bound<'_, PyAny>) -> PyResult<String> {
        let call = single_call(
            py,
            tool_call,
            "call runs one tool call",
            "; call_all runs several",
        )?;
        let artifacts = self.artifacts.clone();
        let result = interruptible(py, self.bytes(), move || {
            forge_tools(&artifacts).call(&call.name, &call.arguments)
        })?;
        result.map_err(|e| flexmd_error(py, "ToolCallError", e.to_string(), None))
    }

    /// One page of a tool call's result within `max_tokens` (o200k_base):
    /// `{text, tokens, truncated, omitted?, cursor?}`, cut only between
    /// whole lines or whole JSON values; give `cursor` back for the next
    /// page. As `flexmd call --max-tokens N [--cursor C]` prints it.
    // 20000 is flexmd_artifact::DEFAULT_MAX_TOKENS, written out for the signature Python shows.
    #[pyo3(signature = (tool_call, max_tokens = 20000, cursor = None))]
    fn call_page<'py>(
        &self,
        py: Python<'py>,
        tool_call: &Bound<'py, PyAny>,
        max_tokens: usize,
        cursor: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let call = single_call(py, tool_call, "call_page pages one tool call", "")?;
        let artifacts = self.artifacts.clone();
        let cursor = cursor.map(str::to_owned);
        let page = interruptible(py, self.bytes(), move || {
            forge_tools(&artifacts).call_paged(
                &call.name,
                &call.arguments,
                max_tokens,
                cursor.as_deref(),
            )
        })?
        .map_err(|e| flexmd_error(py, "ToolCallError", e.to_string(), None))?;
        to_py(py, &page)
    }

    fn __repr__(&self) -> String {
        let ids: Vec<&str> = self.artifacts.iter().map(|(id, _)| id.as_str()).collect();
        format!("ToolSet(format={:?}, artifacts={ids:?})", self.format)
    }
}

/// Tool calls as the user has them: JSON text, dicts, or the provider SDK's
/// objects (Pydantic models, as OpenAI's and Anthropic's are: read through
/// `model_dump()`), or a list of any of these.
pub(crate) fn call_data(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    // A list of calls: each item one call (not lists again, so the walk
    // stays one level deep whatever the caller nests).
    let items: Option<Vec<Bound<'_, PyAny>>> =
        if let Ok(items) = value.cast::<pyo3::types::PyList>() {
            Some(items.iter().collect())
        } else if let Ok(items) = value.cast::<pyo3::types::PyTuple>() {
            Some(items.iter().collect())
        } else {
            None
        };
    match items {
        Some(items) => items
            .iter()
            .map(one_call)
            .collect::<PyResult<Vec<_>>>()
            .map(Value::Array),
        None => one_call(value),
    }
}

/// One tool call: JSON text, a dict, or a provider SDK's object.
pub(crate) fn one_call(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    if let Ok(text) = value.cast::<PyString>() {
        return serde_json::from_str(&text.to_cow()?)
            .map_err(|e| PyValueError::new_err(format!("the call is not JSON: {e}")));
    }
    if !value.is_instance_of::<PyDict>() && value.hasattr("model_dump")? {
        return to_json(&value.call_method0("model_dump")?);
    }
    to_json(value)
}

/// The one tool call in a Python value; several are a `ToolCallError`
/// that says `what` (and `hint`).
pub(crate) fn single_call(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    what: &str,
    hint: &str,
) -> PyResult<ToolCall> {
    let mut calls = calls_of(py, value)?;
    match (calls.pop(), calls.is_empty()) {
        (Some(call), true) => Ok(call),
        _ => Err(flexmd_error(
            py,
            "ToolCallError",
            format!("{what} and this holds {}{hint}", calls.len() + 1),
            None,
        )),
    }
}

/// The tool calls in a Python value.
pub(crate) fn calls_of(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Vec<ToolCall>> {
    let calls = tool_calls(&call_data(value)?).map_err(|e| artifact_error(py, e))?;
    if calls.is_empty() {
        return Err(flexmd_error(
            py,
            "ToolCallError",
            "the call list is empty: give at least one tool call",
            None,
        ));
    }
    Ok(calls)
}

/// Forges the tools for `artifacts`; `format` is "openai" (Chat
/// Completions), "openai-responses" (the Responses API) or "anthropic".
#[pyfunction]
#[pyo3(name = "forge_tools", signature = (artifacts, format = "openai"))]
pub(crate) fn forge_tools_for(
    artifacts: Vec<Bound<'_, PyArtifact>>,
    format: &str,
) -> PyResult<ToolSet> {
    let format: ToolFormat = format
        .parse()
        .map_err(|e: ArtifactError| PyValueError::new_err(e.to_string()))?;
    let mut seen = std::collections::HashSet::new();
    let mut owned = Vec::new();
    for a in &artifacts {
        let a = a.get();
        if !seen.insert(a.call_id.clone()) {
            return Err(PyValueError::new_err(format!(
                "two artifacts have the call_id `{}`: give each its own",
                a.call_id
            )));
        }
        owned.push((a.call_id.clone(), Arc::clone(&a.artifact)));
    }
    Ok(ToolSet {
        artifacts: owned,
        format,
    })
}
