//! Lenient JSON from Python: `loads`, `find_json`, `find_json_many`
//! (flexmd-detect), with the CLI's JSON.

use flexmd_core::TextOffsets;
use pyo3::prelude::*;

use crate::convert::{strings, to_py};
use crate::errors::flexmd_error;
use crate::gil::parse;

/// The JSON value in an LLM answer, found and repaired; raises
/// `JSONNotFound` when there is none, `JSONTooLarge` past the value bound.
#[pyfunction]
pub(crate) fn loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    match parse(py, text, flexmd_detect::find_json) {
        // Only part of the value was read: returning it as the whole would
        // lose data without a word.
        Some(found)
            if found
                .repairs
                .iter()
                .any(|r| r.kind == flexmd_detect::RepairKind::ValueLimit) =>
        {
            Err(flexmd_error(
                py,
                "JSONTooLarge",
                format!(
                    "the JSON holds more than {} values, more than flexmd reads from one text; \
                     find_json(text, repairs=True) returns the part that was read",
                    flexmd_core::MAX_JSON_VALUES
                ),
                None,
            ))
        }
        Some(found) => to_py(py, &found.value),
        None => Err(flexmd_error(
            py,
            "JSONNotFound",
            not_found_message(text),
            None,
        )),
    }
}

/// Why no JSON was found: when the text looks like one JSON value, where
/// it breaks.
pub(crate) fn not_found_message(text: &str) -> String {
    flexmd_detect::not_json(text).map_or_else(
        || "no JSON value found in the text".to_owned(),
        |why| why.to_string(),
    )
}

/// The JSON in a text, as `flexmd json` prints it: the value (`None` when
/// there is none); with `all`, every value; with `repairs`, each with
/// where it was found and how it was repaired.
#[pyfunction]
#[pyo3(signature = (text, all = false, repairs = false))]
pub(crate) fn find_json<'py>(
    py: Python<'py>,
    text: &str,
    all: bool,
    repairs: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let found = if all {
        FoundIn::Every(parse(py, text, flexmd_detect::find_all_json))
    } else {
        FoundIn::Best(parse(py, text, flexmd_detect::find_json))
    };
    found_to_py(py, found, text, repairs)
}

/// What [`find_json`] and [`find_json_many`] found in one text.
pub(crate) enum FoundIn {
    /// The best value, if any.
    Best(Option<flexmd_detect::FoundJson>),
    /// Every value (`all`).
    Every(Vec<flexmd_detect::FoundJson>),
}

/// [`find_json`] on each text of `texts` (an iterable of `str`), the GIL
/// released while each chunk of them is worked on: one result per text, in
/// order. One thread: the results' Python objects, built with the GIL, are
/// most of the cost, and with the texts shared among two cores the batch
/// measured no faster (docs/benchmarks.md).
#[pyfunction]
#[pyo3(signature = (texts, all = false, repairs = false))]
pub(crate) fn find_json_many<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    all: bool,
    repairs: bool,
) -> PyResult<Bound<'py, pyo3::types::PyList>> {
    let texts = strings(texts, "texts")?;
    let results = pyo3::types::PyList::empty(py);
    for texts in texts.chunks(BATCH_CHUNK) {
        let found: Vec<FoundIn> = py.detach(|| {
            texts
                .iter()
                .map(|text| {
                    if all {
                        FoundIn::Every(flexmd_detect::find_all_json(text))
                    } else {
                        FoundIn::Best(flexmd_detect::find_json(text))
                    }
                })
                .collect()
        });
        append_found(py, &results, found, texts, repairs)?;
    }
    Ok(results)
}

/// Items a batch call works on at a time: their results turn into Python
/// objects while still in the processor's caches (100 000 outcomes built
/// whole first, then converted, cost 1.3x a call each).
pub(crate) const BATCH_CHUNK: usize = 512;

/// Appends what [`find_json_many`] found in `texts` to `results`.
pub(crate) fn append_found(
    py: Python<'_>,
    results: &Bound<'_, pyo3::types::PyList>,
    found: Vec<FoundIn>,
    texts: &[String],
    repairs: bool,
) -> PyResult<()> {
    for (found, text) in found.into_iter().zip(texts) {
        results.append(found_to_py(py, found, text, repairs)?)?;
    }
    Ok(())
}

/// What `find_json` gives for `found` in `text`: the value(s), or with
/// `repairs` each with its place (in code points) and repairs.
pub(crate) fn found_to_py<'py>(
    py: Python<'py>,
    found: FoundIn,
    text: &str,
    repairs: bool,
) -> PyResult<Bound<'py, PyAny>> {
    match found {
        FoundIn::Best(found) if repairs => to_py(
            py,
            &found.map(|mut f| {
                f.reindex(&TextOffsets::code_points(text));
                f
            }),
        ),
        FoundIn::Best(found) => to_py(py, &found.map(|f| f.value)),
        FoundIn::Every(mut found) if repairs => {
            let offsets = TextOffsets::code_points(text);
            found.iter_mut().for_each(|f| f.reindex(&offsets));
            to_py(py, &found)
        }
        FoundIn::Every(found) => to_py(py, &found.iter().map(|f| &f.value).collect::<Vec<_>>()),
    }
}
