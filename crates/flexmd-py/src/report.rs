//! `flexmd.report` and `flexmd.frame`: flexmd-report over a JSON Lines
//! file or records, the figures `flexmd report --json` prints.

use std::io::BufRead;
use std::path::PathBuf;

use flexmd_report::{Answer, AnswerRow, Check, Checker, Options, ReportError, SchemaRef};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::registry::{PyRegistry, registry_of};

/// Where the answers are: a file, or JSON Lines text made of records.
enum Source {
    File(PathBuf),
    Text(String),
}

impl Source {
    /// The reader (the text is moved into it, not copied).
    fn open(self) -> std::io::Result<Box<dyn BufRead + Send>> {
        Ok(match self {
            Self::File(path) => Box::new(std::io::BufReader::with_capacity(
                1 << 16,
                std::fs::File::open(path)?,
            )),
            Self::Text(text) => Box::new(std::io::Cursor::new(text.into_bytes())),
        })
    }

    fn size(&self) -> usize {
        match self {
            Self::File(path) => std::fs::metadata(path)
                .ok()
                .and_then(|m| usize::try_from(m.len()).ok())
                .unwrap_or(usize::MAX),
            Self::Text(text) => text.len(),
        }
    }

    fn name(&self) -> String {
        match self {
            Self::File(path) => path.display().to_string(),
            Self::Text(_) => "the records given".to_owned(),
        }
    }
}

fn report_error(py: Python<'_>, error: ReportError) -> PyErr {
    match error {
        ReportError::Io { message, .. } => PyOSError::new_err(message),
        ReportError::Cancelled => pyo3::exceptions::PyKeyboardInterrupt::new_err("cancelled"),
        other => crate::errors::flexmd_error(py, "SchemaError", other.to_string(), None),
    }
}

/// What to check against: a `Spec` or spec text, a schema (name, dict or
/// Pydantic model), or neither (result lines).
fn check_of(
    py: Python<'_>,
    spec: Option<&Bound<'_, PyAny>>,
    schema: Option<&Bound<'_, PyAny>>,
    preset: &str,
    strict: bool,
) -> PyResult<(Check, String)> {
    let preset = crate::schema::preset_of(preset)?;
    match (spec, schema) {
        (Some(_), Some(_)) => Err(PyValueError::new_err("give spec or schema, not both")),
        (Some(spec), None) => {
            let spec = match spec.cast::<crate::spec::Spec>() {
                Ok(spec) => spec.get().spec.clone(),
                Err(_) => {
                    let text = spec.cast::<PyString>().map_err(|_| {
                        pyo3::exceptions::PyTypeError::new_err(
                            "spec must be a flexmd.Spec or the spec's Markdown text",
                        )
                    })?;
                    crate::spec::Spec::read(py, &text.to_cow()?)?.spec
                }
            };
            Ok((Check::Spec { spec, strict }, "the spec".to_owned()))
        }
        (None, Some(schema)) => {
            let (schema, named) = match schema.cast::<PyString>() {
                Ok(name) => {
                    let name = name.to_cow()?.into_owned();
                    (SchemaRef::Named(name.clone()), format!("the schema {name}"))
                }
                Err(_) => (
                    SchemaRef::Inline(crate::registry::schema_json(schema)?),
                    "the schema".to_owned(),
                ),
            };
            Ok((Check::Schema { schema, preset }, named))
        }
        (None, None) => Ok((Check::Results, "the checks that wrote them".to_owned())),
    }
}

/// The aggregates of a JSON Lines file (`path`) or JSON Lines `text` of
/// answers, as `flexmd report --json` prints them; with `html`, the page
/// written there too; with `rows`, each answer's row instead.
#[pyfunction]
#[pyo3(signature = (path = None, text = None, *, spec = None, schema = None, preset = "standard", strict = false, field = "response".to_owned(), group_by = Vec::new(), worst = flexmd_report::DEFAULT_WORST, answers_of = None, html = None, rows = false, jobs = 0, registry = None))]
#[expect(
    clippy::too_many_arguments,
    reason = "keyword arguments of one Python call"
)]
pub(crate) fn report_answers<'py>(
    py: Python<'py>,
    path: Option<PathBuf>,
    text: Option<String>,
    spec: Option<&Bound<'py, PyAny>>,
    schema: Option<&Bound<'py, PyAny>>,
    preset: &str,
    strict: bool,
    field: String,
    group_by: Vec<String>,
    worst: usize,
    answers_of: Option<PathBuf>,
    html: Option<PathBuf>,
    rows: bool,
    jobs: usize,
    registry: Option<&Bound<'py, PyRegistry>>,
) -> PyResult<Bound<'py, PyAny>> {
    let source = match (path, text) {
        (Some(path), None) => Source::File(path),
        (None, Some(text)) => Source::Text(text),
        _ => return Err(PyValueError::new_err("give path or text")),
    };
    let (check, checked_against) = check_of(py, spec, schema, preset, strict)?;
    let checker = Checker::new(check, registry_of(registry)).map_err(|e| report_error(py, e))?;
    let (name, size) = (source.name(), source.size());
    let input = source.open()?;
    let answers = match &answers_of {
        Some(path) => Some(std::io::BufReader::with_capacity(
            1 << 16,
            std::fs::File::open(path)?,
        )),
        None => None,
    };
    let options = Options {
        group_by,
        field,
        worst,
        jobs,
        // Python indexes a str in code points.
        offsets: Some(flexmd_core::OffsetUnit::CodePoint),
    };
    if rows {
        let work = move || {
            let mut rows = Vec::new();
            let group_by = options.group_by.clone();
            flexmd_report::each_answer(input, answers, checker, &options, &mut |answer| {
                if let Answer::Judged {
                    line,
                    group,
                    judged,
                    ..
                } = answer
                {
                    rows.push(AnswerRow::new(line, &group_by, group, &judged));
                }
            })
            .map(|()| rows)
        };
        let rows = crate::gil::interruptible(py, size, work)?.map_err(|e| report_error(py, e))?;
        return crate::convert::to_py(py, &rows);
    }
    let work = move || flexmd_report::report_lines(input, answers, checker, &options, &mut |_| {});
    let summary = crate::gil::interruptible(py, size, work)?.map_err(|e| report_error(py, e))?;
    if let Some(html) = html {
        let about = flexmd_report::About {
            input: name,
            checked_against,
        };
        std::fs::write(&html, flexmd_report::render_html(&summary, &about))?;
    }
    crate::convert::to_py(py, &summary)
}
