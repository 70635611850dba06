//! Shaping the answer while it is written: provider strict schemas, the way
//! back, grammars (flexmd-constrain), with the CLI's JSON.

use flexmd_constrain::{ConstrainError, GrammarFormat, Provider, SpecGrammarOptions};
use flexmd_schema::TransformOptions;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::convert::{to_json, to_py};
use crate::errors::{flexmd_error, schema_error};
use crate::gil::parse;
use crate::registry::{PyRegistry, registry_of, schema_value};

/// A schema (or spec) that cannot be expressed: `ConstrainError`.
pub(crate) fn constrain_error(py: Python<'_>, error: &ConstrainError) -> PyErr {
    let mut message = error.to_string();
    if let Some(help) = miette::Diagnostic::help(error) {
        message.push_str(&format!(" ({help})"));
    }
    flexmd_error(py, "ConstrainError", message, None)
}

pub(crate) fn provider(py: Python<'_>, name: &str) -> PyResult<Provider> {
    name.parse()
        .map_err(|e: flexmd_constrain::UnknownProvider| {
            flexmd_error(py, "ConstrainError", e.to_string(), None)
        })
}

pub(crate) fn format(py: Python<'_>, name: &str) -> PyResult<GrammarFormat> {
    name.parse().map_err(|e: flexmd_constrain::UnknownFormat| {
        flexmd_error(py, "ConstrainError", e.to_string(), None)
    })
}

/// The schema rewritten for a provider: `{provider, name, request, schema,
/// changes}`, as `flexmd schema export --for PROVIDER --json` prints it.
/// Without `name`, the schema's title or `response`.
#[pyfunction]
#[pyo3(signature = (schema, provider, name = None, registry = None))]
pub(crate) fn export_schema<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
    provider: &str,
    name: Option<&str>,
    registry: Option<&Bound<'py, PyRegistry>>,
) -> PyResult<Bound<'py, PyAny>> {
    let registry = registry_of(registry);
    let schema = schema_value(py, schema, &registry)?;
    let provider = self::provider(py, provider)?;
    let name = name.unwrap_or_else(|| flexmd_constrain::default_name(&schema));
    let export =
        flexmd_constrain::export(&schema, provider, name).map_err(|e| constrain_error(py, &e))?;
    to_py(py, &export)
}

/// A grammar for a JSON Schema: `{format, grammar, rules, coverage}`, as
/// `flexmd grammar --schema S --format F --json` prints it.
#[pyfunction]
#[pyo3(signature = (schema, format, registry = None))]
pub(crate) fn schema_grammar<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
    format: &str,
    registry: Option<&Bound<'py, PyRegistry>>,
) -> PyResult<Bound<'py, PyAny>> {
    let registry = registry_of(registry);
    let schema = schema_value(py, schema, &registry)?;
    let format = self::format(py, format)?;
    let grammar = py
        .detach(|| flexmd_constrain::schema_grammar(&schema, format))
        .map_err(|e| constrain_error(py, &e))?;
    to_py(py, &grammar)
}

/// A grammar for a spec, as `flexmd grammar --spec S --json` prints it.
pub(crate) fn spec_grammar<'py>(
    py: Python<'py>,
    spec: &flexmd_core::OutputFormatSpec,
    format: &str,
    options: SpecGrammarOptions,
) -> PyResult<Bound<'py, PyAny>> {
    let format = self::format(py, format)?;
    let grammar = flexmd_constrain::spec_grammar(spec, format, &options)
        .map_err(|e| constrain_error(py, &e))?;
    to_py(py, &grammar)
}

/// A provider's answer (a value, or a text holding JSON) read back in the
/// schema's shape and validated: the outcome `flexmd schema validate
/// --from PROVIDER --json` prints, with `nullsRemoved`.
#[pyfunction]
#[pyo3(signature = (data, schema, provider, coerce = true, defaults = true, strict = false, registry = None))]
#[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
pub(crate) fn validate_from<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    schema: &Bound<'py, PyAny>,
    provider: &str,
    coerce: bool,
    defaults: bool,
    strict: bool,
    registry: Option<&Bound<'py, PyRegistry>>,
) -> PyResult<Bound<'py, PyAny>> {
    self::provider(py, provider)?;
    let registry = registry_of(registry);
    let schema = schema_value(py, schema, &registry)?;
    let options = TransformOptions {
        coerce,
        apply_defaults: defaults,
    };
    let checked = if let Ok(text) = data.cast::<PyString>() {
        let text = text.to_cow()?;
        let text = text.as_ref();
        parse(py, text, |t| {
            flexmd_constrain::validate_text_from(&registry, &schema, t, options)
        })
    } else {
        let answer = to_json(data)?;
        py.detach(|| flexmd_constrain::validate_from(&registry, &schema, &answer, options))
    };
    let mut checked = checked.map_err(|e| schema_error(py, &e))?;
    if strict {
        checked.outcome = checked.outcome.into_strict();
    }
    to_py(py, &checked)
}
