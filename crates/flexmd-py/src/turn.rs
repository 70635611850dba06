//! One agent turn from Python: `Turn`, thin over `flexmd_artifact::Turn`.
//! Tool results come in; the large ones become artifacts the model reads
//! with forged tools merged into the host's; your own tools (Python
//! functions) run on them; ending the turn drops them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

use flexmd_artifact::{
    ArtifactKind, CustomTool, ResultKind, ToolCall, ToolFormat, ToolOutput, Turn, TurnOptions,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use serde_json::Value;

use crate::artifact::PyArtifact;
use crate::convert::{count, to_json, to_py};
use crate::errors::{artifact_error, flexmd_error};
use crate::gil::interruptible;
use crate::tools::single_call;

/// A tool of the caller's: its function and, optionally, its serialiser.
struct HostTool {
    function: Py<PyAny>,
    serialise: Option<Py<PyAny>>,
}

/// One agent turn. Give it each tool result as it arrives
/// (`add_result`): a small one comes back as it is, a large one becomes an
/// artifact of the turn and the model sees a notice (size, a head and tail
/// preview, the tools and the `callId`). Offer the model `merged_tools`
/// (your tools and the artifact tools), run its artifact tool calls with
/// `call`, and `end` the turn when it is done.
#[pyclass(name = "Turn", module = "flexmd", frozen)]
pub(crate) struct PyTurn {
    turn: Arc<Mutex<Turn>>,
    hosted: Mutex<HashMap<String, Arc<HostTool>>>,
    format: ToolFormat,
}

impl PyTurn {
    /// The turn, or an error when a call is running on it (from one of
    /// the turn's own tool functions, or another thread): waiting there
    /// could deadlock.
    fn lock(&self, py: Python<'_>) -> PyResult<MutexGuard<'_, Turn>> {
        match self.turn.try_lock() {
            Ok(turn) => Ok(turn),
            Err(TryLockError::Poisoned(poisoned)) => Ok(poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => Err(flexmd_error(
                py,
                "FlexmdError",
                "the turn is running a tool call: use it from one thread, and not from its own tool functions",
                None,
            )),
        }
    }

    fn output<'py>(py: Python<'py>, output: &ToolOutput) -> PyResult<Bound<'py, PyAny>> {
        let dict = PyDict::new(py);
        dict.set_item("text", output.text())?;
        dict.set_item("spooled", output.is_spooled())?;
        Ok(dict.into_any())
    }

    /// Runs a call of one of the caller's tools: checked by the turn, run
    /// with the lock released (the function may use the turn's
    /// artifacts), its value serialised within the turn's caps.
    fn call_hosted(
        &self,
        py: Python<'_>,
        tool: &HostTool,
        name: &str,
        arguments: &str,
    ) -> PyResult<String> {
        let prepared = self
            .lock(py)?
            .prepare(name, arguments)
            .map_err(|e| flexmd_error(py, "ToolCallError", e.to_string(), None))?;
        let artifact = PyArtifact {
            call_id: prepared.call_id.clone(),
            kind: prepared.artifact.read_as(),
            artifact: Arc::clone(&prepared.artifact),
        };
        let returned = tool
            .function
            .bind(py)
            .call1((artifact, to_py(py, &prepared.arguments)?))?;
        if returned.hasattr("__await__")? {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "the function of `{name}` is async: give Turn.register a plain function"
            )));
        }
        match &tool.serialise {
            Some(serialise) => {
                let text: String = serialise.bind(py).call1((returned,))?.extract()?;
                Ok(self.lock(py)?.finish_text(text))
            }
            None => {
                let value = to_json(&returned)?;
                Ok(self.lock(py)?.finish(&prepared.tool, &value))
            }
        }
    }
}

/// `kind=` of `add_result`.
fn result_kind(kind: &str) -> PyResult<ResultKind> {
    Ok(match kind {
        "auto" => ResultKind::Auto,
        "text" => ResultKind::Text,
        "json" => ResultKind::Json,
        "markdown" => ResultKind::Markdown,
        other => {
            return Err(PyValueError::new_err(format!(
                "kind must be \"auto\", \"text\", \"json\" or \"markdown\", not {other:?}"
            )));
        }
    })
}

/// `kind=` of `register`.
fn artifact_kind(kind: &str) -> PyResult<ArtifactKind> {
    Ok(match kind {
        "text" => ArtifactKind::Text,
        "json" => ArtifactKind::Json,
        "markdown" => ArtifactKind::Markdown,
        other => {
            return Err(PyValueError::new_err(format!(
                "kind must be \"text\", \"json\" or \"markdown\" (or None for every kind), not {other:?}"
            )));
        }
    })
}

/// Tool definitions as the caller has them: dicts, or SDK objects with
/// `model_dump()`.
fn host_tools(tools: &Bound<'_, PyAny>) -> PyResult<Vec<Value>> {
    let mut out = Vec::new();
    for tool in tools.try_iter()? {
        let tool = tool?;
        if !tool.is_instance_of::<PyDict>() && tool.hasattr("model_dump")? {
            out.push(to_json(&tool.call_method0("model_dump")?)?);
        } else {
            out.push(to_json(&tool)?);
        }
    }
    Ok(out)
}

#[pymethods]
impl PyTurn {
    /// A turn with no results yet. A result over `max_inline_bytes` bytes
    /// or `max_inline_tokens` tokens (o200k_base) is kept as an artifact;
    /// its notice previews `preview_lines` lines of its head and of its
    /// tail. Tool definitions come in `format` ("openai", "openai-responses"
    /// or "anthropic").
    #[new]
    #[pyo3(
        signature = (max_inline_bytes = None, max_inline_tokens = None, preview_lines = None, format = "openai"),
        text_signature = "(max_inline_bytes=16384, max_inline_tokens=4000, preview_lines=5, format='openai')"
    )]
    fn new(
        max_inline_bytes: Option<&Bound<'_, PyAny>>,
        max_inline_tokens: Option<&Bound<'_, PyAny>>,
        preview_lines: Option<&Bound<'_, PyAny>>,
        format: &str,
    ) -> PyResult<Self> {
        let format: ToolFormat = format
            .parse()
            .map_err(|e: flexmd_artifact::ArtifactError| PyValueError::new_err(e.to_string()))?;
        let defaults = TurnOptions::default();
        let or = |given: Option<&Bound<'_, PyAny>>, name: &str, default: usize| {
            given.map_or(Ok(default), |n| count(n, name))
        };
        let options = TurnOptions {
            max_inline_bytes: or(
                max_inline_bytes,
                "max_inline_bytes",
                defaults.max_inline_bytes,
            )?,
            max_inline_tokens: or(
                max_inline_tokens,
                "max_inline_tokens",
                defaults.max_inline_tokens,
            )?,
            preview_lines: or(preview_lines, "preview_lines", defaults.preview_lines)?,
            ..defaults
        };
        Ok(Self {
            turn: Arc::new(Mutex::new(Turn::new(options))),
            hosted: Mutex::new(HashMap::new()),
            format,
        })
    }

    /// Adds the result of the tool call `call_id` (of the tool
    /// `tool_name`): a str or bytes, read as `kind` ("auto": JSON when it
    /// is JSON, Markdown when it has headings or code fences, else text).
    /// Returns `{"text": ..., "spooled": bool}`: the text to give the model
    /// in its place. A result of an artifact tool is never kept. A
    /// `call_id` already used in this turn is a `ToolCallError`.
    #[pyo3(signature = (call_id, tool_name, content, kind = "auto"))]
    fn add_result<'py>(
        &self,
        py: Python<'py>,
        call_id: &str,
        tool_name: &str,
        content: &Bound<'py, PyAny>,
        kind: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let kind = result_kind(kind)?;
        let content: Vec<u8> = if let Ok(text) = content.cast::<PyString>() {
            text.to_cow()?.as_bytes().to_vec()
        } else if let Ok(bytes) = content.cast::<PyBytes>() {
            bytes.as_bytes().to_vec()
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "content must be str or bytes, not {}",
                content.get_type().name()?
            )));
        };
        let mut guard = self.lock(py)?;
        let turn: &mut Turn = &mut guard;
        let output = py
            .detach(|| turn.add_result(call_id, tool_name, content, kind))
            .map_err(|e| artifact_error(py, e))?;
        Self::output(py, &output)
    }

    /// Adds an artifact you already have (a file opened with
    /// `Artifact.open`) as the result of `tool_name`, under its `call_id`;
    /// returns the notice, as `add_result` does.
    fn add_artifact<'py>(
        &self,
        py: Python<'py>,
        artifact: &Bound<'py, PyArtifact>,
        tool_name: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let artifact = artifact.get();
        let output = self
            .lock(py)?
            .add_artifact(&artifact.call_id, tool_name, Arc::clone(&artifact.artifact))
            .map_err(|e| artifact_error(py, e))?;
        Self::output(py, &output)
    }

    /// Registers a tool of your own over the turn's artifacts: `function`
    /// gets the `Artifact` the call names and the call's other arguments
    /// (a dict), and returns a value (given to the model as JSON, or as
    /// `serialise(value)` returns it), within the turn's caps.
    /// `parameters` is the JSON Schema of its arguments without `callId`,
    /// which the turn adds; `kind` ("text", "json", "markdown") offers it
    /// for artifacts of that kind only. A tool of the same name is
    /// replaced, an artifact tool's too.
    #[pyo3(signature = (name, description, parameters, function, kind = None, serialise = None))]
    #[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
    fn register(
        &self,
        py: Python<'_>,
        name: &str,
        description: &str,
        parameters: &Bound<'_, PyAny>,
        function: &Bound<'_, PyAny>,
        kind: Option<&str>,
        serialise: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        if !function.is_callable() || serialise.is_some_and(|s| !s.is_callable()) {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "function and serialise must be callables",
            ));
        }
        let parameters = to_json(parameters)?;
        if !parameters.is_object() {
            return Err(PyValueError::new_err(
                "parameters must be a JSON Schema dict of the tool's arguments",
            ));
        }
        let mut tool = CustomTool::hosted(name, description, parameters);
        if let Some(kind) = kind {
            tool = tool.for_kind(artifact_kind(kind)?);
        }
        self.lock(py)?.register(tool);
        let host = HostTool {
            function: function.clone().unbind(),
            serialise: serialise.map(|s| s.clone().unbind()),
        };
        self.hosted
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(name.to_owned(), Arc::new(host));
        Ok(())
    }

    /// The artifact tools for this turn, in the turn's format: the forged
    /// ones (each `callId` enum naming the artifacts it reads) and yours;
    /// empty while the turn has no artifact.
    #[getter]
    fn definitions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let definitions = self.lock(py)?.definitions();
        to_py(py, &self.format.render_all(&definitions))
    }

    /// Your tools (dicts in any of the three formats, or SDK objects) with
    /// this turn's artifact tools merged in: a tool of yours keeps its
    /// place and fields unless an artifact tool of its name replaces it;
    /// the artifact tools follow. Give this list to the provider.
    fn merged_tools<'py>(
        &self,
        py: Python<'py>,
        tools: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let host = host_tools(tools)?;
        let merged = self.lock(py)?.merged_tools(&host, self.format);
        to_py(py, &merged)
    }

    /// The definitions' format: "openai", "openai-responses" or "anthropic".
    #[getter]
    fn format(&self) -> &'static str {
        self.format.name()
    }

    /// Whether `name` is an artifact tool (forged or yours): its calls go
    /// to `call`, and its results are never kept as artifacts.
    fn is_artifact_tool(&self, py: Python<'_>, name: &str) -> PyResult<bool> {
        Ok(self.lock(py)?.is_artifact_tool(name))
    }

    /// The `call_id`s of this turn's artifacts, in the order added.
    #[getter]
    fn call_ids(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(self.lock(py)?.call_ids().map(str::to_owned).collect())
    }

    /// The artifact kept for `call_id`, or `None`.
    fn artifact(&self, py: Python<'_>, call_id: &str) -> PyResult<Option<PyArtifact>> {
        Ok(self.lock(py)?.artifact(call_id).map(|a| PyArtifact {
            call_id: call_id.to_owned(),
            kind: a.read_as(),
            artifact: Arc::clone(a),
        }))
    }

    /// Runs one artifact tool call (a dict, JSON text, or the provider's
    /// own tool-call object) and returns the text to give the model;
    /// raises `ToolCallError`, with the text to give it instead, when the
    /// call cannot run. An exception your tool function raises is raised
    /// as it is.
    fn call(&self, py: Python<'_>, tool_call: &Bound<'_, PyAny>) -> PyResult<String> {
        let ToolCall {
            name, arguments, ..
        } = single_call(py, tool_call, "call runs one tool call", "")?;
        let (hosted, bytes) = {
            let turn = self.lock(py)?;
            let bytes: usize = turn
                .call_ids()
                .filter_map(|id| turn.artifact(id))
                .map(|a| a.base().byte_length())
                .sum();
            (turn.is_hosted_tool(&name), bytes)
        };
        if hosted {
            let tool = self
                .hosted
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(&name)
                .cloned();
            if let Some(tool) = tool {
                return self.call_hosted(py, &tool, &name, &arguments);
            }
        }
        let turn = Arc::clone(&self.turn);
        let result = interruptible(py, bytes, move || {
            let turn = turn.lock().unwrap_or_else(|p| p.into_inner());
            turn.dispatch(&name, &arguments)
        })?;
        result.map_err(|e| flexmd_error(py, "ToolCallError", e.to_string(), None))
    }

    /// Ends the turn: drops its artifacts (your tools stay registered), so
    /// no artifact tool is offered until the next large result. Returns
    /// how many were dropped.
    fn end(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.lock(py)?.end())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Turn(format={:?}, call_ids={:?})",
            self.format.name(),
            self.call_ids(py)?
        ))
    }
}
