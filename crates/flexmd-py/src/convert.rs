//! What crosses between Python and the library: Python data to JSON
//! without recursion (nesting, cycles and size are bounded here, so no
//! Python value can overflow the native stack, a segmentation fault that
//! takes the interpreter down, whatever the thread's stack size); JSON
//! back to Python values; the arguments Python hands in (strings, counts,
//! depths); positions turned into code points.
//!
//! Imports `errors` only (of the binding).

use flexmd_core::TextOffsets;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use pythonize::pythonize;
use serde_json::{Map, Value};

/// How deep Python data may nest: the bound the library keeps for the JSON
/// it reads ([`flexmd_core::MAX_JSON_DEPTH`]).
const MAX_DEPTH: usize = flexmd_core::MAX_JSON_DEPTH;

/// Why a Python value is not JSON data.
pub(crate) enum NotJson {
    /// Nested past [`MAX_DEPTH`] (or a container holding itself).
    TooDeep { circular: bool },
    /// More values than the library reads from one text.
    TooMany,
    /// A value JSON has no form for (NaN, a lone surrogate, a huge int).
    Value(String),
    /// A type JSON has no form for (a set, bytes, an object).
    Type(String),
}

impl NotJson {
    /// The exception: nesting is `NestingError` (a `RecursionError`, as
    /// `json.dumps` raises), a bad value `ValueError`, a bad type
    /// `TypeError`; `what` names the argument.
    pub(crate) fn into_err(self, py: Python<'_>, what: &str) -> PyErr {
        match self {
            Self::TooDeep { circular: true } => crate::errors::flexmd_error(
                py,
                "NestingError",
                format!("{what}: a container holds itself (a circular reference is not JSON)"),
                None,
            ),
            Self::TooDeep { circular: false } => crate::errors::flexmd_error(
                py,
                "NestingError",
                format!(
                    "{what} nests deeper than {MAX_DEPTH} levels, more than flexmd reads \
                     (JSON parsers stop there too)"
                ),
                None,
            ),
            Self::TooMany => crate::errors::flexmd_error(
                py,
                "JSONTooLarge",
                format!(
                    "{what} holds more than {} values, more than flexmd reads at once",
                    flexmd_core::MAX_JSON_VALUES
                ),
                None,
            ),
            Self::Value(message) => PyValueError::new_err(format!("{what}: {message}")),
            Self::Type(message) => {
                PyTypeError::new_err(format!("{what} is not JSON data: {message}"))
            }
        }
    }
}

/// An open container: what is built so far, the items still to convert,
/// and the key the next finished item goes under.
struct Open<'py> {
    id: usize,
    into: Container,
    items: std::vec::IntoIter<(Option<String>, Bound<'py, PyAny>)>,
    key: Option<String>,
}

enum Container {
    Array(Vec<Value>),
    Object(Map<String, Value>),
}

/// A value converted, or a container whose items are still to come.
enum Step<'py> {
    Done(Value),
    Open(Open<'py>),
}

/// A Python value (dict with string keys, list, tuple, str, int, float,
/// bool, None) as JSON, converted with an explicit stack: nesting past
/// [`MAX_DEPTH`], a container holding itself, and more than
/// [`flexmd_core::MAX_JSON_VALUES`] values are errors, never a crash.
pub(crate) fn python_to_json(value: &Bound<'_, PyAny>) -> Result<Value, NotJson> {
    let mut budget = flexmd_core::MAX_JSON_VALUES;
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut step = step(value, &mut budget)?;
    loop {
        let mut done = match step {
            Step::Open(open) => {
                if stack.iter().any(|o| o.id == open.id) {
                    return Err(NotJson::TooDeep { circular: true });
                }
                if stack.len() >= MAX_DEPTH {
                    return Err(NotJson::TooDeep { circular: false });
                }
                stack.push(open);
                None
            }
            Step::Done(value) => Some(value),
        };
        // Hand finished values to their parents until one has an item left.
        loop {
            let Some(top) = stack.last_mut() else {
                return Ok(done.unwrap_or(Value::Null));
            };
            if let Some(value) = done.take() {
                match &mut top.into {
                    Container::Array(items) => items.push(value),
                    Container::Object(map) => {
                        map.insert(top.key.take().unwrap_or_default(), value);
                    }
                }
            }
            if let Some((key, item)) = top.items.next() {
                top.key = key;
                step = self::step(&item, &mut budget)?;
                break;
            }
            let Some(finished) = stack.pop() else {
                return Ok(Value::Null);
            };
            done = Some(match finished.into {
                Container::Array(items) => Value::Array(items),
                Container::Object(map) => Value::Object(map),
            });
        }
    }
}

/// One value: a scalar converted, or a container opened.
fn step<'py>(value: &Bound<'py, PyAny>, budget: &mut usize) -> Result<Step<'py>, NotJson> {
    *budget = budget.checked_sub(1).ok_or(NotJson::TooMany)?;
    if value.is_none() {
        return Ok(Step::Done(Value::Null));
    }
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(Step::Done(Value::Bool(b.is_true())));
    }
    if let Ok(i) = value.cast::<PyInt>() {
        if let Ok(n) = i.extract::<i64>() {
            return Ok(Step::Done(Value::from(n)));
        }
        if let Ok(n) = i.extract::<u64>() {
            return Ok(Step::Done(Value::from(n)));
        }
        return Err(NotJson::Value(format!(
            "the integer {i} does not fit in 64 bits (pass it as a string or a float)"
        )));
    }
    if let Ok(f) = value.cast::<PyFloat>() {
        let f = f.value();
        return serde_json::Number::from_f64(f)
            .map(|n| Step::Done(Value::Number(n)))
            .ok_or_else(|| NotJson::Value(format!("{f} is not a JSON number")));
    }
    if let Ok(s) = value.cast::<PyString>() {
        return s
            .to_cow()
            .map(|s| Step::Done(Value::String(s.into_owned())))
            .map_err(|_| {
                NotJson::Value(
                    "a string holds a lone surrogate (such as \"\\ud800\"), which is not \
                     valid Unicode and has no UTF-8 form"
                        .to_owned(),
                )
            });
    }
    let id = value.as_ptr() as usize;
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut items = Vec::with_capacity(dict.len());
        for (key, item) in dict.iter() {
            let Ok(key) = key.cast::<PyString>() else {
                return Err(NotJson::Type(format!(
                    "dict keys must be strings, not {}",
                    type_name(&key)
                )));
            };
            let key = key
                .to_cow()
                .map_err(|_| NotJson::Value("a dict key holds a lone surrogate".to_owned()))?;
            items.push((Some(key.into_owned()), item));
        }
        return Ok(Step::Open(Open {
            id,
            into: Container::Object(Map::with_capacity(items.len())),
            items: items.into_iter(),
            key: None,
        }));
    }
    let items: Option<Vec<(Option<String>, Bound<'py, PyAny>)>> =
        if let Ok(list) = value.cast::<PyList>() {
            Some(list.iter().map(|item| (None, item)).collect())
        } else if let Ok(tuple) = value.cast::<PyTuple>() {
            Some(tuple.iter().map(|item| (None, item)).collect())
        } else {
            None
        };
    if let Some(items) = items {
        return Ok(Step::Open(Open {
            id,
            into: Container::Array(Vec::with_capacity(items.len())),
            items: items.into_iter(),
            key: None,
        }));
    }
    let name = type_name(value);
    let hint = if matches!(name.as_str(), "set" | "frozenset") {
        "; pass a list"
    } else {
        ""
    };
    Err(NotJson::Type(format!(
        "a {name} has no JSON form (dicts with string keys, lists, tuples, strings, numbers, \
         booleans and None do){hint}"
    )))
}

/// A Rust value as the Python value its JSON would load as.
pub(crate) fn to_py<'py, T: serde::Serialize>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    pythonize(py, value).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A Python value (dict, list, str, number, bool, None) as JSON; data
/// nested deeper than the library reads is a `NestingError`, never a crash.
pub(crate) fn to_json(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    python_to_json(value).map_err(|e| e.into_err(value.py(), "the data"))
}

/// A Python value as `T` (through its JSON), `what` naming it in errors.
pub(crate) fn from_py<T: serde::de::DeserializeOwned>(
    value: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<T> {
    let json = python_to_json(value).map_err(|e| e.into_err(value.py(), what))?;
    serde_json::from_value(json).map_err(|e| PyValueError::new_err(format!("{what}: {e}")))
}

/// The `str`s of `items` (any iterable but a `str` itself, whose
/// characters would be read as texts), `what` naming it in errors.
pub(crate) fn strings(items: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<String>> {
    if items.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a list (or any iterable) of str, not a str"
        )));
    }
    items
        .try_iter()
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "{what} must be a list (or any iterable) of str, not {}",
                type_name(items)
            ))
        })?
        .enumerate()
        .map(|(i, item)| {
            let item = item?;
            let text = item.cast::<PyString>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "{what}[{i}] must be a str, not {}",
                    type_name(&item)
                ))
            })?;
            owned_text(text, &format!("{what}[{i}]"))
        })
        .collect()
}

/// A batch item's text as UTF-8, or a `ValueError` naming the item (`what`)
/// when it holds a lone surrogate: in a batch, Python's own
/// `UnicodeEncodeError` would not say which item.
pub(crate) fn owned_text(text: &Bound<'_, PyString>, what: &str) -> PyResult<String> {
    text.to_cow()
        .map(std::borrow::Cow::into_owned)
        .map_err(|_| {
            PyValueError::new_err(format!(
                "{what}: a string holds a lone surrogate (such as \"\\ud800\"), which is not \
             valid Unicode and has no UTF-8 form"
            ))
        })
}

/// The name of a value's type, for messages.
pub(crate) fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "an unknown type".to_owned(), |n| n.to_string())
}

/// Diagnostics of `text` with their spans and columns in code points.
pub(crate) fn in_code_points(
    text: &str,
    mut notes: Vec<flexmd_core::Diagnostic>,
) -> Vec<flexmd_core::Diagnostic> {
    if !notes.is_empty() {
        let offsets = TextOffsets::code_points(text);
        notes.iter_mut().for_each(|d| d.reindex(&offsets));
    }
    notes
}

/// A report on `answer` with its spans and columns in code points.
pub(crate) fn report_in_code_points(
    answer: &str,
    mut report: flexmd_ofs::Report,
) -> flexmd_ofs::Report {
    if !(report.errors.is_empty() && report.warnings.is_empty()) {
        report.reindex(&TextOffsets::code_points(answer));
    }
    report
}

/// A count argument: a whole number ≥ 0, else a `ValueError` that says so.
pub(crate) fn count(value: &Bound<'_, PyAny>, name: &str) -> PyResult<usize> {
    let wrong = || {
        PyValueError::new_err(format!(
            "{name} must be a whole number ≥ 0, not {}",
            value
                .repr()
                .map_or_else(|_| "that".to_owned(), |r| r.to_string())
        ))
    };
    if value.is_instance_of::<pyo3::types::PyBool>() {
        return Err(wrong());
    }
    value.extract::<usize>().map_err(|_| wrong())
}

/// An optional count (a line number): `None` stays `None`.
pub(crate) fn optional_count(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
) -> PyResult<Option<usize>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| count(v, name))
        .transpose()
}

/// A heading depth, 1 to 6, else a `ValueError`; `None` is every depth.
pub(crate) fn depth(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u8>> {
    let Some(n) = optional_count(value, "depth")? else {
        return Ok(None);
    };
    match u8::try_from(n) {
        Ok(d @ 1..=6) => Ok(Some(d)),
        _ => Err(PyValueError::new_err(format!(
            "depth must be 1 to 6, not {n}"
        ))),
    }
}
