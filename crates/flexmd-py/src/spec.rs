//! `Spec`: an Output Format Spec from Python — parse, prompt, validate,
//! extract, and `stream` (flexmd-ofs).

use flexmd_core::OutputFormatSpec;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::convert::{in_code_points, report_in_code_points, to_json, to_py};
use crate::errors::{flexmd_error, spec_error};
use crate::gil::parse;
use crate::stream::StreamingExtractor;

/// An Output Format Spec: which sections an answer must have and what each
/// holds.
#[pyclass(module = "flexmd", frozen)]
pub(crate) struct Spec {
    pub(crate) spec: OutputFormatSpec,
    pub(crate) warnings: Vec<flexmd_core::Diagnostic>,
}

impl Spec {
    pub(crate) fn read(py: Python<'_>, text: &str) -> PyResult<Self> {
        match flexmd_ofs::read_spec(text) {
            Ok(parsed) => Ok(Self {
                spec: parsed.value,
                warnings: in_code_points(text, parsed.diagnostics),
            }),
            Err(e) => Err(spec_error(py, &e)),
        }
    }
}

#[pymethods]
impl Spec {
    /// Reads a spec from its Markdown block (or its JSON text).
    #[staticmethod]
    fn parse(py: Python<'_>, text: &str) -> PyResult<Self> {
        Self::read(py, text)
    }

    /// Reads a spec from its JSON: a dict, or JSON text.
    #[staticmethod]
    fn from_json(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = match value.cast::<PyString>() {
            Ok(text) => text.to_cow()?.into_owned(),
            Err(_) => to_json(value)?.to_string(),
        };
        if !text.trim_start().starts_with('{') {
            return Err(flexmd_error(
                py,
                "SpecError",
                "Spec.from_json takes OutputFormatSpec JSON (a dict or JSON text); Spec.parse reads the Markdown block",
                None,
            ));
        }
        Self::read(py, &text)
    }

    /// The general-purpose five-section spec (Short answer, Long answer,
    /// Reasoning, Assumptions, Unknowns).
    #[staticmethod]
    fn default() -> Self {
        Self {
            spec: flexmd_ofs::default_spec(),
            warnings: Vec::new(),
        }
    }

    /// What reading the spec noticed: lines that are not part of a spec.
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.warnings)
    }

    /// A grammar that holds a local model to this spec while it writes
    /// (see `flexmd.grammar`): the text, or with `report=True` the dict
    /// `flexmd grammar --spec S --json` prints (`format`, `grammar`,
    /// `rules`, `coverage`). The answer's layout: each section once, in the
    /// spec's order, as a heading of `heading_level`; `think_lines` allows a
    /// leading `<think>` block of at most that many lines; `max_items` and
    /// `max_rows` bound lists and tables (and enforce their numbering).
    #[pyo3(signature = (format = "gbnf", *, heading_level = 2, think_lines = None, max_items = None, max_rows = None, report = false))]
    #[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
    fn grammar<'py>(
        &self,
        py: Python<'py>,
        format: &str,
        heading_level: u8,
        think_lines: Option<u32>,
        max_items: Option<u32>,
        max_rows: Option<u32>,
        report: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let options = flexmd_constrain::SpecGrammarOptions {
            heading_level,
            think_lines,
            max_items,
            max_rows,
        };
        let grammar = crate::constrain::spec_grammar(py, &self.spec, format, options)?;
        if report {
            Ok(grammar)
        } else {
            grammar.get_item("grammar")
        }
    }

    /// The text to put in a prompt: the canonical block and the rules it needs.
    fn prompt(&self) -> String {
        flexmd_ofs::prompt(&self.spec)
    }

    /// The rules alone, without the block (flex-md's
    /// `enrichInstructions`): for a prompt that shows the block itself.
    fn rules(&self) -> String {
        flexmd_ofs::enrich_instructions(&self.spec)
    }

    /// The canonical Markdown block.
    fn render(&self) -> String {
        flexmd_ofs::render_spec(&self.spec)
    }

    /// The spec as OutputFormatSpec JSON.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.spec)
    }

    /// The JSON Schema of the object `to_json` makes.
    fn json_schema<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &flexmd_ofs::json_schema(&self.spec))
    }

    /// Checks an answer: the report `flexmd validate --json` prints.
    #[pyo3(signature = (answer, strict = false))]
    fn validate<'py>(
        &self,
        py: Python<'py>,
        answer: &str,
        strict: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let report = parse(py, answer, |a| {
            let report = flexmd_ofs::validate(a, &self.spec);
            let report = if strict { report.into_strict() } else { report };
            report_in_code_points(a, report)
        });
        to_py(py, &report)
    }

    /// Extracts an answer: the ExtractedResult `flexmd extract` prints.
    #[pyo3(signature = (answer, lists_in_prose = false))]
    fn extract<'py>(
        &self,
        py: Python<'py>,
        answer: &str,
        lists_in_prose: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let options = flexmd_ofs::ExtractOptions { lists_in_prose };
        let (_, extracted) = parse(py, answer, |a| flexmd_ofs::check(a, &self.spec, &options));
        to_py(py, &extracted)
    }

    /// The answer as a plain object keyed by section name, as `flexmd
    /// extract --as-json` prints it.
    #[pyo3(signature = (answer, lists_in_prose = false))]
    fn to_json<'py>(
        &self,
        py: Python<'py>,
        answer: &str,
        lists_in_prose: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let options = flexmd_ofs::ExtractOptions { lists_in_prose };
        let value = parse(py, answer, |a| {
            let (_, extracted) = flexmd_ofs::check(a, &self.spec, &options);
            flexmd_ofs::to_json(&extracted, &self.spec)
        });
        to_py(py, &value)
    }

    /// Checks and extracts in one read: (report, plain object).
    #[pyo3(signature = (answer, strict = false, lists_in_prose = false))]
    fn check<'py>(
        &self,
        py: Python<'py>,
        answer: &str,
        strict: bool,
        lists_in_prose: bool,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let options = flexmd_ofs::ExtractOptions { lists_in_prose };
        let (report, value) = parse(py, answer, |a| {
            let (report, extracted) = flexmd_ofs::check(a, &self.spec, &options);
            let report = if strict { report.into_strict() } else { report };
            (
                report_in_code_points(a, report),
                flexmd_ofs::to_json(&extracted, &self.spec),
            )
        });
        Ok((to_py(py, &report)?, to_py(py, &value)?))
    }

    /// The section names, in the spec's order.
    #[getter]
    fn sections(&self) -> Vec<String> {
        self.spec.sections.iter().map(|s| s.name.clone()).collect()
    }

    /// A stream that checks and extracts an answer while the model is
    /// still writing it: `push` each piece, then `finish`.
    #[pyo3(signature = (strict = false, as_json = false, lists_in_prose = false))]
    fn stream(&self, strict: bool, as_json: bool, lists_in_prose: bool) -> StreamingExtractor {
        let options = flexmd_ofs::ExtractOptions { lists_in_prose };
        StreamingExtractor {
            spec: self.spec.clone(),
            strict,
            as_json,
            stream: std::sync::Mutex::new(Some(flexmd_ofs::StreamingExtractor::with_options(
                &self.spec, &options,
            ))),
        }
    }

    /// A prompt that asks the model to write one section again, for an
    /// issue (a `violation` event, or an error of `validate`'s details);
    /// `None` for an issue of no section.
    fn correction(&self, issue: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let issue: flexmd_ofs::Issue = serde_json::from_value(to_json(issue)?).map_err(|e| {
            PyTypeError::new_err(format!(
                "an issue is a dict with code, section, message, span, line and column: {e}"
            ))
        })?;
        Ok(flexmd_ofs::section_correction(&self.spec, &issue))
    }

    fn __repr__(&self) -> String {
        format!("Spec(sections={:?})", self.sections())
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.spec == other.spec
    }
}
