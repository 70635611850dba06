//! FlexMD frames, object detection and outlines from Python:
//! `parse_flexmd`, `stringify_flexmd`, `detect_objects`, `parse_any`,
//! `outline`, `render_outline`.

use flexmd_core::{FlexDocument, MetaTypeMode, TextOffsets};
use flexmd_frames::{HeaderStyle, ParseOptions, StringifyOptions};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::convert::{from_py, in_code_points, to_py};
use crate::gil::parse;

/// A value, or with `diagnostics` the pair (value, diagnostics), their
/// spans in code points of `text`.
pub(crate) fn with_diagnostics<'py, T: serde::Serialize>(
    py: Python<'py>,
    text: &str,
    parsed: &flexmd_core::Parsed<T>,
    diagnostics: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let value = to_py(py, &parsed.value)?;
    if diagnostics {
        let notes = to_py(py, &in_code_points(text, parsed.diagnostics.clone()))?;
        Ok((value, notes).into_pyobject(py)?.into_any())
    } else {
        Ok(value)
    }
}

/// FlexMD frames to a FlexDocument, as `flexmd frames parse` prints it.
#[pyfunction]
#[pyo3(signature = (text, meta = "strings", meta_schema = None, meta_anywhere = false, array_keys = None, diagnostics = false))]
pub(crate) fn parse_flexmd<'py>(
    py: Python<'py>,
    text: &str,
    meta: &str,
    meta_schema: Option<&Bound<'py, PyAny>>,
    meta_anywhere: bool,
    array_keys: Option<Vec<String>>,
    diagnostics: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let meta_type_mode = match (meta, meta_schema) {
        ("strings" | "schema", Some(schema)) => {
            MetaTypeMode::Schema(from_py(schema, "meta_schema (a dict of key -> type)")?)
        }
        ("schema", None) => {
            return Err(PyValueError::new_err(
                "meta=\"schema\" needs meta_schema (a dict of key -> type)",
            ));
        }
        ("infer", Some(_)) => {
            return Err(PyValueError::new_err(
                "meta_schema types meta by schema; it does not go with meta=\"infer\"",
            ));
        }
        ("strings", None) => MetaTypeMode::Strings,
        ("infer", None) => MetaTypeMode::Infer,
        (other, _) => {
            return Err(PyValueError::new_err(format!(
                "meta must be \"strings\", \"infer\" or \"schema\", not {other:?}"
            )));
        }
    };
    let defaults = ParseOptions::default();
    let options = ParseOptions {
        meta_type_mode,
        meta_anywhere,
        array_keys: array_keys
            .map(|keys| keys.into_iter().filter(|k| !k.is_empty()).collect())
            .unwrap_or(defaults.array_keys),
    };
    let parsed = parse(py, text, |t| flexmd_frames::parse(t, &options));
    with_diagnostics(py, text, &parsed, diagnostics)
}

/// A FlexDocument (dict) written as FlexMD, as `flexmd frames stringify`.
#[pyfunction]
#[pyo3(signature = (document, heading_level = None))]
pub(crate) fn stringify_flexmd(
    document: &Bound<'_, PyAny>,
    heading_level: Option<u8>,
) -> PyResult<String> {
    let doc: FlexDocument = from_py(document, "not a FlexDocument")?;
    let header_style = match heading_level {
        None => HeaderStyle::Bracket,
        Some(level @ 1..=6) => HeaderStyle::Heading(level),
        Some(level) => {
            return Err(PyValueError::new_err(format!(
                "heading_level must be 1 to 6, not {level}"
            )));
        }
    };
    Ok(flexmd_frames::stringify(
        &doc,
        &StringifyOptions { header_style },
    ))
}

/// The structured objects in any text, as `flexmd detect` prints them.
#[pyfunction]
pub(crate) fn detect_objects<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    let mut objects = parse(py, text, flexmd_detect::detect_objects);
    let offsets = TextOffsets::code_points(text);
    objects.iter_mut().for_each(|o| o.reindex(&offsets));
    to_py(py, &objects)
}

/// The best reading of any text, as `flexmd parse-any` prints it.
#[pyfunction]
#[pyo3(signature = (text, diagnostics = false))]
pub(crate) fn parse_any<'py>(
    py: Python<'py>,
    text: &str,
    diagnostics: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let parsed = parse(py, text, flexmd_detect::parse_any);
    with_diagnostics(py, text, &parsed, diagnostics)
}

/// The heading outline of Markdown, as `flexmd outline` prints it.
#[pyfunction]
pub(crate) fn outline<'py>(py: Python<'py>, markdown: &str) -> PyResult<Bound<'py, PyAny>> {
    to_py(py, &parse(py, markdown, flexmd_core::build_outline))
}

/// An outline (the dict `outline` returns) written back as Markdown, as
/// `flexmd outline render` does: each heading at its level with its title
/// and content (keys and ids are never written).
#[pyfunction]
pub(crate) fn render_outline(outline: &Bound<'_, PyAny>) -> PyResult<String> {
    let outline: flexmd_core::MdOutline = from_py(outline, "not an MdOutline")?;
    Ok(flexmd_core::render_outline(&outline))
}
