//! JSON Schemas from Python: `validate_report`, `validate_report_many`,
//! `find_json_as`, `hints`, the predefined schemas, and `AskSession`, the
//! re-ask loop driven one answer at a time.

use flexmd_core::TextOffsets;
use flexmd_schema::{Expected, Registry, Retrier, RetryError, TransformOptions};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use serde_json::Value;

use crate::convert::{count, from_py, owned_text, to_json, to_py, type_name};
use crate::errors::{flexmd_error, schema_error};
use crate::gil::parse;
use crate::json::BATCH_CHUNK;
use crate::registry::{PyRegistry, predefined, registry_of, schema_value};
use crate::spec::Spec;

/// Validates data (a value, or a text holding JSON) against a schema: the
/// outcome `flexmd schema validate --json` prints (`hints` added when asked).
#[pyfunction]
#[pyo3(signature = (data, schema, coerce = true, defaults = true, strict = false, hints = false, registry = None))]
#[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
pub(crate) fn validate_report<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    schema: &Bound<'py, PyAny>,
    coerce: bool,
    defaults: bool,
    strict: bool,
    hints: bool,
    registry: Option<&Bound<'py, PyRegistry>>,
) -> PyResult<Bound<'py, PyAny>> {
    let registry = registry_of(registry);
    let schema = schema_value(py, schema, &registry)?;
    let options = TransformOptions {
        coerce,
        apply_defaults: defaults,
    };
    let outcome = if let Ok(text) = data.cast::<PyString>() {
        let text = text.to_cow()?;
        let text = text.as_ref();
        parse(py, text, |t| registry.validate_text(t, &schema, options))
    } else {
        let value = to_json(data)?;
        py.detach(|| registry.validate_value(&value, &schema, options))
    }
    .map_err(|e| schema_error(py, &e))?;
    report_of(py, outcome, strict, hints, &schema)
}

/// The report dict of `outcome`: strict (warnings counted as errors) as
/// asked, with the hints for its errors when asked.
pub(crate) fn report_of<'py>(
    py: Python<'py>,
    outcome: flexmd_schema::Outcome,
    strict: bool,
    hints: bool,
    schema: &Value,
) -> PyResult<Bound<'py, PyAny>> {
    let outcome = if strict {
        outcome.into_strict()
    } else {
        outcome
    };
    let report = to_py(py, &outcome)?;
    if hints {
        let fixes = flexmd_schema::hints(&outcome.errors, schema);
        report.set_item("hints", to_py(py, &fixes)?)?;
    }
    Ok(report)
}

/// [`validate_report`] on each item of `items` (values, or texts holding
/// JSON) against one schema, compiled once, the GIL released while each
/// chunk of them is worked on: one outcome per item, in order.
#[pyfunction]
#[pyo3(signature = (items, schema, coerce = true, defaults = true, strict = false, hints = false, registry = None))]
#[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
pub(crate) fn validate_report_many<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    schema: &Bound<'py, PyAny>,
    coerce: bool,
    defaults: bool,
    strict: bool,
    hints: bool,
    registry: Option<&Bound<'py, PyRegistry>>,
) -> PyResult<Bound<'py, pyo3::types::PyList>> {
    /// An item as the batch reads it.
    enum Item {
        Text(String),
        Value(Value),
    }
    let registry = registry_of(registry);
    let schema = schema_value(py, schema, &registry)?;
    let options = TransformOptions {
        coerce,
        apply_defaults: defaults,
    };
    let validator = registry
        .record_validator(&schema, options)
        .map_err(|e| schema_error(py, &e))?;
    let not_iterable = |_| {
        PyTypeError::new_err(format!(
            "items must be a list (or any iterable) of values or texts, not {}",
            type_name(items)
        ))
    };
    let items: Vec<Item> = items
        .try_iter()
        .map_err(not_iterable)?
        .enumerate()
        .map(|(i, item)| {
            let item = item?;
            match item.cast::<PyString>() {
                Ok(text) => owned_text(text, &format!("items[{i}]")).map(Item::Text),
                Err(_) => crate::convert::python_to_json(&item)
                    .map(Item::Value)
                    .map_err(|e| e.into_err(py, &format!("items[{i}]"))),
            }
        })
        .collect::<PyResult<_>>()?;
    let reports = pyo3::types::PyList::empty(py);
    for items in items.chunks(BATCH_CHUNK) {
        let outcomes: Vec<flexmd_schema::Outcome> = py.detach(|| {
            items
                .iter()
                .map(|item| match item {
                    Item::Text(text) => validator.validate_text(text),
                    Item::Value(value) => validator.validate_value(value),
                })
                .collect()
        });
        for outcome in outcomes {
            reports.append(report_of(py, outcome, strict, hints, &schema)?)?;
        }
    }
    Ok(reports)
}

/// The value in `text` that fits `schema` best (a predefined schema's name,
/// a JSON Schema dict, or a `Spec`), coerced to it: the report `flexmd json
/// --schema S --repairs` prints. No candidate is `JSONNotFound`, an enum
/// value several could be a `ValidationError`.
#[pyfunction]
#[pyo3(signature = (text, schema, preset = "standard", registry = None))]
pub(crate) fn find_json_as<'py>(
    py: Python<'py>,
    text: &str,
    schema: &Bound<'py, PyAny>,
    preset: &str,
    registry: Option<&Bound<'py, PyRegistry>>,
) -> PyResult<Bound<'py, PyAny>> {
    let registry = registry_of(registry);
    let preset = preset_of(preset)?;
    let spec = schema.cast::<Spec>().ok();
    let value = match spec {
        Some(_) => Value::Null,
        None => schema_value(py, schema, &registry)?.into_owned(),
    };
    let target = match &spec {
        Some(spec) => flexmd_schema::Target::Spec(&spec.get().spec),
        None => flexmd_schema::Target::Schema(&value),
    };
    match parse(py, text, |t| registry.find_json_as(t, target, preset)) {
        Ok(mut aligned) => {
            aligned.reindex(&TextOffsets::code_points(text));
            to_py(py, &aligned)
        }
        Err(flexmd_schema::AlignError::NoCandidate) => Err(flexmd_error(
            py,
            "JSONNotFound",
            "no value in the text fits the schema: no JSON found and no section the schema names",
            None,
        )),
        Err(flexmd_schema::AlignError::Schema(message)) => {
            Err(flexmd_error(py, "SchemaError", message, None))
        }
        Err(e @ flexmd_schema::AlignError::AmbiguousEnum { .. }) => {
            let flexmd_schema::AlignError::AmbiguousEnum { pointer, .. } = &e else {
                return Err(PyValueError::new_err(e.to_string()));
            };
            let error = serde_json::json!({
                "path": pointer.trim_start_matches('/').replace('/', "."),
                "pointer": pointer,
                "schemaPath": "",
                "message": e.to_string(),
                "code": "ambiguous_enum",
            });
            let attributes = PyDict::new(py);
            attributes.set_item("errors", to_py(py, &vec![error])?)?;
            Err(flexmd_error(
                py,
                "ValidationError",
                e.to_string(),
                Some(&attributes),
            ))
        }
    }
}

/// `preset`'s value as the library's [`flexmd_schema::Preset`].
pub(crate) fn preset_of(preset: &str) -> PyResult<flexmd_schema::Preset> {
    match preset {
        "strict" => Ok(flexmd_schema::Preset::Strict),
        "standard" => Ok(flexmd_schema::Preset::Standard),
        "salvage" => Ok(flexmd_schema::Preset::Salvage),
        other => Err(PyValueError::new_err(format!(
            "preset must be \"strict\", \"standard\" or \"salvage\", not {other:?}"
        ))),
    }
}

/// How to fix each violation (dicts as `errors` lists them) of `schema`.
#[pyfunction]
#[pyo3(signature = (errors, schema, registry = None))]
pub(crate) fn hints<'py>(
    py: Python<'py>,
    errors: &Bound<'py, PyAny>,
    schema: &Bound<'py, PyAny>,
    registry: Option<&Bound<'py, PyRegistry>>,
) -> PyResult<Bound<'py, PyAny>> {
    let errors: Vec<flexmd_schema::Violation> = from_py(errors, "not a list of errors")?;
    let registry = registry_of(registry);
    let schema = schema_value(py, schema, &registry)?;
    to_py(py, &flexmd_schema::hints(&errors, &schema))
}

/// The predefined schemas' names.
#[pyfunction]
pub(crate) fn schema_names() -> Vec<String> {
    predefined().names().map(str::to_owned).collect()
}

/// A predefined schema, by name.
#[pyfunction]
pub(crate) fn schema<'py>(
    py: Python<'py>,
    name: &Bound<'py, PyString>,
) -> PyResult<Bound<'py, PyAny>> {
    let value = schema_value(py, name.as_any(), predefined())?;
    to_py(py, &value)
}

/// The error a retry session ends with, as a Python exception: no valid
/// answer is a `ValidationError` with the best attempt's `errors`, every
/// `attempts` and the `best` index.
pub(crate) fn retry_error(py: Python<'_>, error: RetryError) -> PyErr {
    let message = error.to_string();
    let best_errors = error
        .best_attempt()
        .map(|a| a.errors.clone())
        .unwrap_or_default();
    match error {
        RetryError::Exhausted { attempts, best, .. } => {
            let attributes = PyDict::new(py);
            let set = || -> PyResult<()> {
                attributes.set_item("errors", to_py(py, &best_errors)?)?;
                attributes.set_item("attempts", to_py(py, &attempts)?)?;
                attributes.set_item("best", best)
            };
            match set() {
                Ok(()) => flexmd_error(py, "ValidationError", message, Some(&attributes)),
                Err(e) => e,
            }
        }
        _ => flexmd_error(py, "FlexmdError", message, None),
    }
}

/// A conversation with a model, driven from Python one answer at a time
/// (`flexmd.ask` and `flexmd.ask_async` drive it): send `prompt`, give the
/// reply to `answer`; valid data is then `accept`ed or `reject`ed with the
/// caller's own errors. Every prompt, hint and judgement is the library's.
#[pyclass(module = "flexmd", frozen)]
pub(crate) struct AskSession {
    session: std::sync::Mutex<Option<flexmd_schema::RetrySession<'static>>>,
}

impl AskSession {
    /// The session, or the error for one that has ended.
    fn with<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut flexmd_schema::RetrySession<'static>) -> PyResult<T>,
    ) -> PyResult<T> {
        let ended = || flexmd_error(py, "FlexmdError", "the session has ended", None);
        let mut guard = self.session.lock().map_err(|_| ended())?;
        let session = guard.as_mut().ok_or_else(ended)?;
        f(session)
    }

    /// Runs `step`; an error ends the session and is raised.
    fn step<T>(
        &self,
        py: Python<'_>,
        step: impl FnOnce(&mut flexmd_schema::RetrySession<'static>) -> Result<T, RetryError>,
    ) -> PyResult<T> {
        let result = self.with(py, |session| Ok(step(session)))?;
        result.map_err(|e| {
            if let Ok(mut guard) = self.session.lock() {
                *guard = None;
            }
            retry_error(py, e)
        })
    }
}

#[pymethods]
impl AskSession {
    /// Starts a session: `schema` (a JSON Schema, a predefined name) or
    /// `spec`; `max_retries` and `max_tokens_total` are counts (≥ 0).
    #[new]
    #[pyo3(signature = (prompt, schema = None, spec = None, max_retries = None, coerce = true, defaults = true, strict = false, patch = false, max_tokens_total = None, registry = None))]
    #[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
    fn new(
        py: Python<'_>,
        prompt: &str,
        schema: Option<&Bound<'_, PyAny>>,
        spec: Option<&Bound<'_, Spec>>,
        max_retries: Option<&Bound<'_, PyAny>>,
        coerce: bool,
        defaults: bool,
        strict: bool,
        patch: bool,
        max_tokens_total: Option<&Bound<'_, PyAny>>,
        registry: Option<&Bound<'_, PyRegistry>>,
    ) -> PyResult<Self> {
        let registry = registry_of(registry);
        let expected = match (schema, spec) {
            (Some(schema), None) => {
                Expected::Schema(schema_value(py, schema, &registry)?.into_owned())
            }
            (None, Some(spec)) => Expected::Spec(spec.get().spec.clone()),
            _ => {
                return Err(PyTypeError::new_err(
                    "give one of schema= (a JSON Schema, a schema name or a Pydantic model) or spec= (a flexmd.Spec)",
                ));
            }
        };
        let mut retrier = Retrier::owning(Registry::clone(&registry), expected);
        if let Some(n) = max_retries {
            retrier.max_retries = count(n, "max_retries")?;
        }
        retrier.options = TransformOptions {
            coerce,
            apply_defaults: defaults,
        };
        retrier.strict = strict;
        retrier.patch = patch;
        retrier.max_tokens_total = max_tokens_total
            .map(|n| count(n, "max_tokens_total"))
            .transpose()?;
        let session = retrier
            .into_session(prompt)
            .map_err(|e| retry_error(py, e))?;
        Ok(Self {
            session: std::sync::Mutex::new(Some(session)),
        })
    }

    /// The prompt to send the model now.
    #[getter]
    fn prompt(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |s| Ok(s.prompt().to_owned()))
    }

    /// Judges the model's reply: `(True, data)` when the schema accepts it
    /// (then `accept()` or `reject(errors)`), `(False, None)` when the next
    /// prompt is ready. No retry left is a `ValidationError`.
    fn answer<'py>(&self, py: Python<'py>, answer: &str) -> PyResult<(bool, Bound<'py, PyAny>)> {
        let data = self.step(py, |s| Ok(s.answer(answer)?.cloned()))?;
        match data {
            Some(data) => Ok((true, to_py(py, &data)?)),
            None => Ok((false, py.None().into_bound(py))),
        }
    }

    /// Rejects the last data with the caller's own errors (dicts with
    /// `path`, `message`, and optionally `pointer`, `code`): the next
    /// prompt asks the model to fix them. No retry left is a
    /// `ValidationError`.
    fn reject(&self, py: Python<'_>, errors: &Bound<'_, PyAny>) -> PyResult<()> {
        let errors: Vec<flexmd_schema::Violation> = from_py(errors, "not a list of errors")?;
        self.step(py, |s| s.reject(errors))
    }

    /// Accepts the last data: `{data, changes, attempts}`.
    fn accept<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let session = self
            .session
            .lock()
            .ok()
            .and_then(|mut guard| guard.take())
            .ok_or_else(|| flexmd_error(py, "FlexmdError", "the session has ended", None))?;
        match session.accept() {
            Some(accepted) => to_py(py, &accepted),
            None => Err(flexmd_error(
                py,
                "FlexmdError",
                "no valid answer to accept: call answer() first",
                None,
            )),
        }
    }
}
