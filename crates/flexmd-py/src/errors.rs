//! The binding's exceptions: the classes of `flexmd._errors` and the
//! library errors as the exception a Python caller expects.
//!
//! A leaf: it imports no other module of the binding.

use flexmd_artifact::ArtifactError;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyDict;

/// The exception class `name` of `flexmd._errors`.
pub(crate) fn error_class<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let module = ERRORS.get_or_try_init(py, || py.import("flexmd._errors").map(Bound::unbind))?;
    module.bind(py).getattr(name)
}

/// A `flexmd` exception of class `name` with `message` and keyword
/// attributes (`errors=`, `attempts=`, ...).
pub(crate) fn flexmd_error(
    py: Python<'_>,
    name: &str,
    message: impl Into<String>,
    attributes: Option<&Bound<'_, PyDict>>,
) -> PyErr {
    let message = message.into();
    match error_class(py, name).and_then(|class| class.call((message.clone(),), attributes)) {
        Ok(instance) => PyErr::from_value(instance),
        // The package is broken (its errors module cannot be imported):
        // still an error that says what went wrong.
        Err(e) => PyValueError::new_err(format!("{message} (and flexmd._errors: {e})")),
    }
}

/// An artifact error as the exception a Python caller expects: a missing
/// file is `FileNotFoundError`, an unreadable one `OSError`, a bad query
/// `ToolCallError`, content that is not the kind asked for `ArtifactError`.
pub(crate) fn artifact_error(py: Python<'_>, error: ArtifactError) -> PyErr {
    match error {
        ArtifactError::Io { path, source } => PyErr::from(std::io::Error::new(
            source.kind(),
            format!("cannot read {}: {source}", path.display()),
        )),
        ArtifactError::Pattern(_)
        | ArtifactError::JsonPath(_)
        | ArtifactError::Call(_)
        | ArtifactError::TooLarge { .. } => {
            flexmd_error(py, "ToolCallError", error.to_string(), None)
        }
        ArtifactError::Json(_) | ArtifactError::Markdown(_) | ArtifactError::Cancelled => {
            flexmd_error(py, "ArtifactError", error.to_string(), None)
        }
    }
}

pub(crate) fn spec_error(py: Python<'_>, error: &flexmd_ofs::SpecError) -> PyErr {
    let mut message = error.to_string();
    if let Some(help) = miette::Diagnostic::help(error) {
        message.push_str(&format!(" ({help})"));
    }
    flexmd_error(py, "SpecError", message, None)
}

pub(crate) fn schema_error(py: Python<'_>, error: &flexmd_schema::SchemaError) -> PyErr {
    // The causes too: "cannot access c.json" alone does not say that the
    // file is not UTF-8, or missing.
    let mut message = error.to_string();
    let mut cause = std::error::Error::source(error);
    while let Some(inner) = cause {
        message.push_str(&format!(": {inner}"));
        cause = inner.source();
    }
    flexmd_error(py, "SchemaError", message, None)
}

/// The error for a stream used after `finish`.
pub(crate) fn finished_error(py: Python<'_>) -> PyErr {
    flexmd_error(py, "FlexmdError", "the stream is finished", None)
}
