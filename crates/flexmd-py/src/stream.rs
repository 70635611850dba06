//! Streams from Python: `StreamingExtractor` (an answer checked while it
//! arrives, `Spec.stream()`) and `StreamingJson` (partial JSON).

use flexmd_core::{OutputFormatSpec, TextOffsets};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use serde_json::Value;

use crate::convert::{to_json, to_py};
use crate::errors::finished_error;

/// A stream taken out to be finished (an error when it already was).
pub(crate) fn take_stream<T>(py: Python<'_>, stream: &std::sync::Mutex<Option<T>>) -> PyResult<T> {
    stream
        .lock()
        .map_err(|_| finished_error(py))?
        .take()
        .ok_or_else(|| finished_error(py))
}

/// An answer checked and extracted while it streams in (`Spec.stream()`).
/// Each event is the dict `flexmd extract --stream` prints as a line.
#[pyclass(module = "flexmd", frozen)]
pub(crate) struct StreamingExtractor {
    pub(crate) spec: OutputFormatSpec,
    pub(crate) strict: bool,
    pub(crate) as_json: bool,
    pub(crate) stream: std::sync::Mutex<Option<flexmd_ofs::StreamingExtractor>>,
}

#[pymethods]
impl StreamingExtractor {
    /// Reads the next piece of the answer; returns the events it settled.
    fn push<'py>(&self, py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
        let mut guard = self.stream.lock().map_err(|_| finished_error(py))?;
        let stream = guard.as_mut().ok_or_else(|| finished_error(py))?;
        let mut events: Vec<flexmd_ofs::StreamEvent> = stream.push(text).collect();
        // Only violations carry offsets, into the whole answer so far.
        if events
            .iter()
            .any(|e| matches!(e, flexmd_ofs::StreamEvent::Violation(_)))
        {
            let offsets = TextOffsets::code_points(stream.text());
            events.iter_mut().for_each(|e| e.reindex(&offsets));
        }
        to_py(py, &events)
    }

    /// Ends the answer: the last events, then the `finished` event with the
    /// report and the result (what `extract` and `validate` give).
    fn finish<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let stream = take_stream(py, &self.stream)?;
        let (strict, as_json, spec) = (self.strict, self.as_json, &self.spec);
        let events = py.detach(move || {
            let mut end = stream.finish();
            if strict {
                end.report = end.report.into_strict();
            }
            end.reindex(flexmd_core::OffsetUnit::CodePoint);
            let mut events: Vec<Value> = end
                .events
                .iter()
                .map(|e| serde_json::to_value(e).unwrap_or_default())
                .collect();
            events.push(end.finished_event(spec, as_json));
            events
        });
        to_py(py, &events)
    }

    /// Everything pushed so far.
    #[getter]
    fn text(&self, py: Python<'_>) -> PyResult<String> {
        let guard = self.stream.lock().map_err(|_| finished_error(py))?;
        let stream = guard.as_ref().ok_or_else(|| finished_error(py))?;
        Ok(stream.text().to_owned())
    }

    /// A prompt asking the model to write a violation's section again.
    fn correction(&self, issue: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let issue: flexmd_ofs::Issue = serde_json::from_value(to_json(issue)?)
            .map_err(|e| PyTypeError::new_err(format!("not an issue: {e}")))?;
        Ok(flexmd_ofs::section_correction(&self.spec, &issue))
    }
}

/// The JSON in an answer, read while it streams in: each `push` gives the
/// `update` dict `flexmd json --stream` prints (JSON Patch operations, the
/// paths completed, where the reading is), or `None` when nothing changed.
#[pyclass(name = "StreamingJson", module = "flexmd", frozen)]
pub(crate) struct PyStreamingJson {
    stream: std::sync::Mutex<Option<flexmd_detect::StreamingJson>>,
}

#[pymethods]
impl PyStreamingJson {
    #[new]
    fn new() -> Self {
        Self {
            stream: std::sync::Mutex::new(Some(flexmd_detect::StreamingJson::new())),
        }
    }

    /// Reads the next piece of the text.
    fn push<'py>(&self, py: Python<'py>, text: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
        let mut guard = self.stream.lock().map_err(|_| finished_error(py))?;
        let stream = guard.as_mut().ok_or_else(|| finished_error(py))?;
        let update = stream.push(text);
        if update.is_empty() {
            return Ok(None);
        }
        to_py(py, &update).map(Some)
    }

    /// The partial value so far (`None` before it starts).
    #[getter]
    fn value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let guard = self.stream.lock().map_err(|_| finished_error(py))?;
        let stream = guard.as_ref().ok_or_else(|| finished_error(py))?;
        to_py(py, &stream.value())
    }

    /// How far a path (a JSON Pointer, `""` for the whole value) is read:
    /// `"pending"`, `"partial"`, `"done"`, or `None` for a path not there.
    fn state<'py>(&self, py: Python<'py>, pointer: &str) -> PyResult<Bound<'py, PyAny>> {
        let guard = self.stream.lock().map_err(|_| finished_error(py))?;
        let stream = guard.as_ref().ok_or_else(|| finished_error(py))?;
        to_py(py, &stream.state(pointer))
    }

    /// Ends the text: the `finished` dict, whose `value` is what `loads`
    /// gives for the whole text (`None` when there is no JSON), with the
    /// `found` details when `repairs` is true.
    #[pyo3(signature = (repairs = false))]
    fn finish<'py>(&self, py: Python<'py>, repairs: bool) -> PyResult<Bound<'py, PyAny>> {
        let stream = take_stream(py, &self.stream)?;
        let event = py.detach(move || {
            // Byte offsets are code points already in ASCII text: only
            // other text is kept to convert them.
            let text = (!stream.text().is_ascii()).then(|| stream.text().to_owned());
            let mut end = stream.finish();
            if let (Some(found), Some(text)) = (&mut end.found, &text) {
                found.reindex(&TextOffsets::code_points(text));
            }
            end.finished_event(repairs)
        });
        to_py(py, &event)
    }
}
