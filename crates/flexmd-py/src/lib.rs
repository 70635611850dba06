//! flexmd-py: the native module `flexmd._flexmd` behind the `flexmd`
//! Python package. Every function here calls the library crates and
//! returns the JSON the `flexmd` CLI prints for the same input, as plain
//! Python values; `python/flexmd/__init__.py` adds what only Python has
//! (Pydantic models, provider objects). See the README.

use std::sync::Arc;

use flexmd_artifact::{
    Artifact, ArtifactError, Encoding, FileReader, GrepFlags, MemoryReader, ReadAs, ToolCall,
    ToolFormat, forge_tools, tool_calls,
};
use flexmd_core::{FlexDocument, MetaTypeMode, OutputFormatSpec, TextOffsets};
use flexmd_frames::{HeaderStyle, ParseOptions, StringifyOptions};
use flexmd_schema::{Expected, Registry, Retrier, RetryError, TransformOptions};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString};
use pythonize::pythonize;

mod constrain;
mod convert;
mod registry;
mod report;
mod turn;
use registry::{PyProject, PyRegistry, predefined, registry_of, schema_value};
use serde_json::Value;

/// Inputs from this many bytes on are parsed with the GIL released: below
/// it, releasing and taking it back costs more than it frees.
const DETACH_FROM: usize = 4096;

/// Runs `work` on `text`, without the GIL when the text is long enough for
/// other Python threads to gain from it.
fn parse<T: Send>(py: Python<'_>, text: &str, work: impl FnOnce(&str) -> T + Send) -> T {
    if text.len() >= DETACH_FROM {
        py.detach(|| work(text))
    } else {
        work(text)
    }
}

/// How often a long call looks for a pending signal (Ctrl-C).
const SIGNAL_TICK: std::time::Duration = std::time::Duration::from_millis(50);

/// Calls over fewer bytes than this run on the calling thread: they end
/// within milliseconds, and a thread of their own would cost more than the
/// call (about 90 µs against a few on a small file).
const THREAD_FROM: usize = 1 << 20;

/// Runs `work` without the GIL on a thread of its own while this thread
/// checks for signals every [`SIGNAL_TICK`]: Ctrl-C raises
/// `KeyboardInterrupt` within that tick, whatever the work is doing, and
/// sets the flag the library's long loops look at
/// ([`flexmd_artifact::cancellable`]) so the thread stops within a chunk
/// of work (building an index or parsing a document runs to its end, and
/// is kept for the next call); its result is dropped. For calls over
/// artifacts, whose size has no bound: `bytes` is the size of what the call
/// reads, and below [`THREAD_FROM`] the work runs here, without the GIL.
fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    bytes: usize,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::mpsc::RecvTimeoutError;
    if bytes < THREAD_FROM {
        return Ok(py.detach(work));
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let (sender, receiver) = std::sync::mpsc::sync_channel(1);
    let flag = Arc::clone(&cancel);
    std::thread::Builder::new()
        .name("flexmd call".to_owned())
        // The size of a main thread's stack: the parsers' guards are
        // measured against it.
        .stack_size(8 << 20)
        .spawn(move || {
            let _ = sender.send(flexmd_artifact::cancellable(flag, work));
        })
        .map_err(|e| {
            pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a thread: {e}"))
        })?;
    let outcome = py.detach(move || {
        loop {
            match receiver.recv_timeout(SIGNAL_TICK) {
                Ok(done) => return Ok(done),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(interrupt) = Python::attach(|py| py.check_signals()) {
                        cancel.store(true, Ordering::Relaxed);
                        return Err(interrupt);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(pyo3::panic::PanicException::new_err(
                        "flexmd panicked in a call over an artifact (a bug: please report it)",
                    ));
                }
            }
        }
    });
    outcome?.map_err(|e| artifact_error(py, e))
}

/// A Rust value as the Python value its JSON would load as.
fn to_py<'py, T: serde::Serialize>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    pythonize(py, value).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A Python value (dict, list, str, number, bool, None) as JSON; data
/// nested deeper than the library reads is a `NestingError`, never a crash.
fn to_json(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    convert::python_to_json(value).map_err(|e| e.into_err(value.py(), "the data"))
}

/// A Python value as `T` (through its JSON), `what` naming it in errors.
fn from_py<T: serde::de::DeserializeOwned>(value: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    let json = convert::python_to_json(value).map_err(|e| e.into_err(value.py(), what))?;
    serde_json::from_value(json).map_err(|e| PyValueError::new_err(format!("{what}: {e}")))
}

/// The exception class `name` of `flexmd._errors`.
fn error_class<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let module = ERRORS.get_or_try_init(py, || py.import("flexmd._errors").map(Bound::unbind))?;
    module.bind(py).getattr(name)
}

/// A `flexmd` exception of class `name` with `message` and keyword
/// attributes (`errors=`, `attempts=`, ...).
fn flexmd_error(
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
fn artifact_error(py: Python<'_>, error: ArtifactError) -> PyErr {
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

fn spec_error(py: Python<'_>, error: &flexmd_ofs::SpecError) -> PyErr {
    let mut message = error.to_string();
    if let Some(help) = miette::Diagnostic::help(error) {
        message.push_str(&format!(" ({help})"));
    }
    flexmd_error(py, "SpecError", message, None)
}

fn schema_error(py: Python<'_>, error: &flexmd_schema::SchemaError) -> PyErr {
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

// ---- lenient JSON -------------------------------------------------------

/// The JSON value in an LLM answer, found and repaired; raises
/// `JSONNotFound` when there is none, `JSONTooLarge` past the value bound.
#[pyfunction]
fn loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
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
fn not_found_message(text: &str) -> String {
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
fn find_json<'py>(
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
enum FoundIn {
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
fn find_json_many<'py>(
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
const BATCH_CHUNK: usize = 512;

/// Appends what [`find_json_many`] found in `texts` to `results`.
fn append_found(
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
fn found_to_py<'py>(
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

/// The `str`s of `items` (any iterable but a `str` itself, whose
/// characters would be read as texts), `what` naming it in errors.
fn strings(items: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<String>> {
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
fn owned_text(text: &Bound<'_, PyString>, what: &str) -> PyResult<String> {
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
fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "an unknown type".to_owned(), |n| n.to_string())
}

/// Diagnostics of `text` with their spans and columns in code points.
fn in_code_points(
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
fn report_in_code_points(answer: &str, mut report: flexmd_ofs::Report) -> flexmd_ofs::Report {
    if !(report.errors.is_empty() && report.warnings.is_empty()) {
        report.reindex(&TextOffsets::code_points(answer));
    }
    report
}

// ---- frames and detection -----------------------------------------------

/// A value, or with `diagnostics` the pair (value, diagnostics), their
/// spans in code points of `text`.
fn with_diagnostics<'py, T: serde::Serialize>(
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
fn parse_flexmd<'py>(
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
fn stringify_flexmd(document: &Bound<'_, PyAny>, heading_level: Option<u8>) -> PyResult<String> {
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
fn detect_objects<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    let mut objects = parse(py, text, flexmd_detect::detect_objects);
    let offsets = TextOffsets::code_points(text);
    objects.iter_mut().for_each(|o| o.reindex(&offsets));
    to_py(py, &objects)
}

/// The best reading of any text, as `flexmd parse-any` prints it.
#[pyfunction]
#[pyo3(signature = (text, diagnostics = false))]
fn parse_any<'py>(py: Python<'py>, text: &str, diagnostics: bool) -> PyResult<Bound<'py, PyAny>> {
    let parsed = parse(py, text, flexmd_detect::parse_any);
    with_diagnostics(py, text, &parsed, diagnostics)
}

/// The heading outline of Markdown, as `flexmd outline` prints it.
#[pyfunction]
fn outline<'py>(py: Python<'py>, markdown: &str) -> PyResult<Bound<'py, PyAny>> {
    to_py(py, &parse(py, markdown, flexmd_core::build_outline))
}

/// An outline (the dict `outline` returns) written back as Markdown, as
/// `flexmd outline render` does: each heading at its level with its title
/// and content (keys and ids are never written).
#[pyfunction]
fn render_outline(outline: &Bound<'_, PyAny>) -> PyResult<String> {
    let outline: flexmd_core::MdOutline = from_py(outline, "not an MdOutline")?;
    Ok(flexmd_core::render_outline(&outline))
}

// ---- output format specs -------------------------------------------------

/// An Output Format Spec: which sections an answer must have and what each
/// holds.
#[pyclass(module = "flexmd", frozen)]
struct Spec {
    spec: OutputFormatSpec,
    warnings: Vec<flexmd_core::Diagnostic>,
}

impl Spec {
    fn read(py: Python<'_>, text: &str) -> PyResult<Self> {
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
        let grammar = constrain::spec_grammar(py, &self.spec, format, options)?;
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

// ---- streams ---------------------------------------------------------------

/// The error for a stream used after `finish`.
fn finished_error(py: Python<'_>) -> PyErr {
    flexmd_error(py, "FlexmdError", "the stream is finished", None)
}

/// A stream taken out to be finished (an error when it already was).
fn take_stream<T>(py: Python<'_>, stream: &std::sync::Mutex<Option<T>>) -> PyResult<T> {
    stream
        .lock()
        .map_err(|_| finished_error(py))?
        .take()
        .ok_or_else(|| finished_error(py))
}

/// An answer checked and extracted while it streams in (`Spec.stream()`).
/// Each event is the dict `flexmd extract --stream` prints as a line.
#[pyclass(module = "flexmd", frozen)]
struct StreamingExtractor {
    spec: OutputFormatSpec,
    strict: bool,
    as_json: bool,
    stream: std::sync::Mutex<Option<flexmd_ofs::StreamingExtractor>>,
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
struct PyStreamingJson {
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

// ---- schemas ---------------------------------------------------------------

/// Validates data (a value, or a text holding JSON) against a schema: the
/// outcome `flexmd schema validate --json` prints (`hints` added when asked).
#[pyfunction]
#[pyo3(signature = (data, schema, coerce = true, defaults = true, strict = false, hints = false, registry = None))]
#[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
fn validate_report<'py>(
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
fn report_of<'py>(
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
fn validate_report_many<'py>(
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
                Err(_) => convert::python_to_json(&item)
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
fn find_json_as<'py>(
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
fn preset_of(preset: &str) -> PyResult<flexmd_schema::Preset> {
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
fn hints<'py>(
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
fn schema_names() -> Vec<String> {
    predefined().names().map(str::to_owned).collect()
}

/// A predefined schema, by name.
#[pyfunction]
fn schema<'py>(py: Python<'py>, name: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>> {
    let value = schema_value(py, name.as_any(), predefined())?;
    to_py(py, &value)
}

/// The error a retry session ends with, as a Python exception: no valid
/// answer is a `ValidationError` with the best attempt's `errors`, every
/// `attempts` and the `best` index.
fn retry_error(py: Python<'_>, error: RetryError) -> PyErr {
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
struct AskSession {
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

/// A count argument: a whole number ≥ 0, else a `ValueError` that says so.
fn count(value: &Bound<'_, PyAny>, name: &str) -> PyResult<usize> {
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
fn optional_count(value: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<usize>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| count(v, name))
        .transpose()
}

/// A heading depth, 1 to 6, else a `ValueError`; `None` is every depth.
fn depth(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u8>> {
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

// ---- artifacts and tools -----------------------------------------------------

/// A tool output too large for a prompt, queried lazily by line, as JSON
/// or as Markdown.
#[pyclass(name = "Artifact", module = "flexmd", frozen)]
struct PyArtifact {
    call_id: String,
    kind: ReadAs,
    artifact: Arc<Artifact>,
}

impl PyArtifact {
    /// The size of the text a query over this artifact reads.
    fn bytes(&self) -> usize {
        self.artifact.base().byte_length()
    }

    /// A JSON query's result, run without the GIL.
    fn on_json<'py, T: serde::Serialize + Send + 'static>(
        &self,
        py: Python<'py>,
        query: impl FnOnce(&flexmd_artifact::SpooledJsonArtifact) -> Result<T, ArtifactError>
        + Send
        + 'static,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.json(py)?;
        let artifact = Arc::clone(&self.artifact);
        let value = interruptible(py, self.bytes(), move || match artifact.as_ref() {
            Artifact::Json(json) => query(json),
            // Checked above; an artifact's kind never changes.
            _ => Err(ArtifactError::Call("not a JSON artifact".to_owned())),
        })?
        .map_err(|e| artifact_error(py, e))?;
        to_py(py, &value)
    }

    /// A Markdown query's result, run without the GIL.
    fn on_markdown<'py, T: serde::Serialize + Send + 'static>(
        &self,
        py: Python<'py>,
        query: impl FnOnce(&flexmd_artifact::SpooledMarkdownArtifact) -> Result<T, ArtifactError>
        + Send
        + 'static,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.markdown(py)?;
        let artifact = Arc::clone(&self.artifact);
        let value = interruptible(py, self.bytes(), move || match artifact.as_ref() {
            Artifact::Markdown(md) => query(md),
            // Checked above; an artifact's kind never changes.
            _ => Err(ArtifactError::Call("not a Markdown artifact".to_owned())),
        })?
        .map_err(|e| artifact_error(py, e))?;
        to_py(py, &value)
    }

    fn json(&self, py: Python<'_>) -> PyResult<&flexmd_artifact::SpooledJsonArtifact> {
        match self.artifact.as_ref() {
            Artifact::Json(a) => Ok(a),
            _ => Err(flexmd_error(
                py,
                "ArtifactError",
                format!(
                    "`{}` is read as {}, not JSON",
                    self.call_id,
                    self.kind.name()
                ),
                None,
            )),
        }
    }

    fn markdown(&self, py: Python<'_>) -> PyResult<&flexmd_artifact::SpooledMarkdownArtifact> {
        match self.artifact.as_ref() {
            Artifact::Markdown(a) => Ok(a),
            _ => Err(flexmd_error(
                py,
                "ArtifactError",
                format!(
                    "`{}` is read as {}, not Markdown",
                    self.call_id,
                    self.kind.name()
                ),
                None,
            )),
        }
    }
}

/// `kind` as given from Python.
fn read_as(py: Python<'_>, kind: &str) -> PyResult<ReadAs> {
    kind.parse().map_err(|e| artifact_error(py, e))
}

#[pymethods]
impl PyArtifact {
    /// Maps a file; its kind from `kind`, else from its extension.
    #[staticmethod]
    #[pyo3(signature = (path, kind = None, call_id = None))]
    fn open(
        py: Python<'_>,
        path: std::path::PathBuf,
        kind: Option<&str>,
        call_id: Option<String>,
    ) -> PyResult<Self> {
        let kind = match kind {
            Some(k) => read_as(py, k)?,
            None => ReadAs::for_path(&path),
        };
        let artifact = py
            .detach(|| FileReader::open(&path).and_then(|reader| Artifact::read(reader, kind)))
            .map_err(|e| artifact_error(py, e))?;
        Ok(Self {
            call_id: call_id.unwrap_or_else(|| path.display().to_string()),
            kind,
            artifact: Arc::new(artifact),
        })
    }

    /// An artifact over a text held in memory.
    #[staticmethod]
    #[pyo3(signature = (text, kind = "text", call_id = "artifact"))]
    fn from_text(py: Python<'_>, text: &str, kind: &str, call_id: &str) -> PyResult<Self> {
        let kind = read_as(py, kind)?;
        let artifact = Artifact::read(MemoryReader::new(text.as_bytes()), kind)
            .map_err(|e| artifact_error(py, e))?;
        Ok(Self {
            call_id: call_id.to_owned(),
            kind,
            artifact: Arc::new(artifact),
        })
    }

    /// The id tool calls name it by.
    #[getter]
    fn call_id(&self) -> &str {
        &self.call_id
    }

    /// How it is read: json, json5, jsonl, ndjson, markdown or text.
    #[getter]
    fn kind(&self) -> &'static str {
        self.kind.name()
    }

    fn __repr__(&self) -> String {
        format!(
            "Artifact(call_id={:?}, kind={:?}, bytes={})",
            self.call_id,
            self.kind.name(),
            self.artifact.base().byte_length()
        )
    }

    /// The first `n` lines.
    #[pyo3(signature = (n = None), text_signature = "(self, n=10)")]
    fn head(&self, n: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
        Ok(self
            .artifact
            .base()
            .head(optional_count(n, "n")?.unwrap_or(10)))
    }

    /// The last `n` lines.
    #[pyo3(signature = (n = None), text_signature = "(self, n=10)")]
    fn tail(&self, n: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
        Ok(self
            .artifact
            .base()
            .tail(optional_count(n, "n")?.unwrap_or(10)))
    }

    /// Lines `start` to `end` (0-based, end exclusive; negative counts from the end).
    #[pyo3(signature = (start = None, end = None))]
    fn cat(&self, start: Option<i64>, end: Option<i64>) -> Vec<String> {
        self.artifact.base().cat(start, end)
    }

    /// The lines matching a regular expression (flags: `i`, `m`, `s`, `x`).
    #[pyo3(signature = (pattern, flags = ""))]
    fn grep(&self, py: Python<'_>, pattern: &str, flags: &str) -> PyResult<Vec<String>> {
        let artifact = Arc::clone(&self.artifact);
        let (pattern, flags) = (pattern.to_owned(), flags.to_owned());
        interruptible(py, self.bytes(), move || {
            GrepFlags::parse(&flags).and_then(|flags| artifact.base().grep(&pattern, flags))
        })?
        .map_err(|e| artifact_error(py, e))
    }

    /// The size in bytes.
    fn byte_length(&self) -> usize {
        self.artifact.base().byte_length()
    }

    /// The number of lines.
    fn line_count(&self) -> usize {
        self.artifact.base().line_count()
    }

    /// The exact token count in `encoding` (o200k_base, cl100k_base, p50k_base, r50k_base, gpt2).
    #[pyo3(signature = (encoding = "o200k_base"))]
    fn estimate_tokens(&self, py: Python<'_>, encoding: &str) -> PyResult<usize> {
        let encoding: Encoding = encoding.parse().map_err(|e| artifact_error(py, e))?;
        let artifact = Arc::clone(&self.artifact);
        interruptible(py, self.bytes(), move || {
            artifact.base().estimate_tokens(encoding)
        })
    }

    /// The whole content as text (invalid UTF-8 as U+FFFD).
    fn as_string(&self) -> String {
        self.artifact.base().as_string().into_owned()
    }

    /// The JSON format: json, json5, jsonl or ndjson.
    fn json_type(&self, py: Python<'_>) -> PyResult<&'static str> {
        Ok(self.json(py)?.json_type().name())
    }

    /// The root object's keys (`None` for a root that is not an object).
    fn json_keys(&self, py: Python<'_>) -> PyResult<Option<Vec<String>>> {
        let json = self.json(py)?;
        py.detach(|| json.json_keys())
            .map_err(|e| artifact_error(py, e))
    }

    /// The root's length: an array's items, an object's keys, JSON Lines' records.
    fn json_length(&self, py: Python<'_>) -> PyResult<usize> {
        let json = self.json(py)?;
        py.detach(|| json.json_length())
            .map_err(|e| artifact_error(py, e))
    }

    /// The values a JSONPath (RFC 9535) selects.
    fn json_get<'py>(&self, py: Python<'py>, path: &str) -> PyResult<Bound<'py, PyAny>> {
        let path = path.to_owned();
        self.on_json(py, move |j| j.json_get(&path))
    }

    /// The items (or records) a JSONPath filter keeps.
    fn json_filter<'py>(&self, py: Python<'py>, path: &str) -> PyResult<Bound<'py, PyAny>> {
        let path = path.to_owned();
        self.on_json(py, move |j| j.json_filter(&path))
    }

    /// Records (or root array items) `start` to `end`.
    #[pyo3(signature = (start = None, end = None))]
    fn json_slice<'py>(
        &self,
        py: Python<'py>,
        start: Option<i64>,
        end: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.on_json(py, move |j| j.json_slice(start, end))
    }

    /// One value per record (or root array item): what the path selects in it.
    fn json_pluck<'py>(&self, py: Python<'py>, path: &str) -> PyResult<Bound<'py, PyAny>> {
        let path = path.to_owned();
        self.on_json(py, move |j| j.json_pluck(&path))
    }

    /// The YAML front matter as a dict (`None` when there is none).
    fn md_frontmatter<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.on_markdown(py, move |md| md.md_frontmatter())
    }

    /// The headings (to `depth` when given).
    #[pyo3(signature = (depth = None))]
    fn md_headings<'py>(
        &self,
        py: Python<'py>,
        depth: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let depth = self::depth(depth)?;
        self.on_markdown(py, move |md| Ok(md.md_headings(depth)))
    }

    /// The sections under each heading (to `depth` when given).
    #[pyo3(signature = (depth = None))]
    fn md_sections<'py>(
        &self,
        py: Python<'py>,
        depth: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let depth = self::depth(depth)?;
        self.on_markdown(py, move |md| Ok(md.md_sections(depth)))
    }

    /// The fenced code blocks (of language `lang` when given).
    #[pyo3(signature = (lang = None))]
    fn md_code_blocks<'py>(
        &self,
        py: Python<'py>,
        lang: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let lang = lang.map(str::to_owned);
        self.on_markdown(py, move |md| Ok(md.md_code_blocks(lang.as_deref())))
    }

    /// The links of lines `start` to `end`.
    #[pyo3(signature = (start = None, end = None))]
    fn md_links<'py>(
        &self,
        py: Python<'py>,
        start: Option<&Bound<'py, PyAny>>,
        end: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (start, end) = (optional_count(start, "start")?, optional_count(end, "end")?);
        self.on_markdown(py, move |md| Ok(md.md_links(start, end)))
    }

    /// The images of lines `start` to `end`.
    #[pyo3(signature = (start = None, end = None))]
    fn md_images<'py>(
        &self,
        py: Python<'py>,
        start: Option<&Bound<'py, PyAny>>,
        end: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (start, end) = (optional_count(start, "start")?, optional_count(end, "end")?);
        self.on_markdown(py, move |md| Ok(md.md_images(start, end)))
    }

    /// The plain text of lines `start` to `end`, without Markdown syntax.
    #[pyo3(signature = (start = None, end = None))]
    fn md_text(
        &self,
        py: Python<'_>,
        start: Option<&Bound<'_, PyAny>>,
        end: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let (start, end) = (optional_count(start, "start")?, optional_count(end, "end")?);
        self.markdown(py)?;
        let artifact = Arc::clone(&self.artifact);
        interruptible(py, self.bytes(), move || match artifact.as_ref() {
            Artifact::Markdown(md) => md.md_text(start, end),
            _ => String::new(),
        })
    }

    /// The mdast tree of lines `start` to `end`.
    #[pyo3(signature = (start = None, end = None))]
    fn md_ast<'py>(
        &self,
        py: Python<'py>,
        start: Option<&Bound<'py, PyAny>>,
        end: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (start, end) = (optional_count(start, "start")?, optional_count(end, "end")?);
        self.on_markdown(py, move |md| md.md_ast(start, end))
    }
}

/// The function-calling tools forged over a set of artifacts, and the
/// dispatcher for a model's calls.
#[pyclass(module = "flexmd", frozen)]
struct ToolSet {
    artifacts: Vec<(String, Arc<Artifact>)>,
    format: ToolFormat,
}

impl ToolSet {
    /// The size of all the text a call may read.
    fn bytes(&self) -> usize {
        self.artifacts
            .iter()
            .map(|(_, a)| a.base().byte_length())
            .sum()
    }
}

#[pymethods]
impl ToolSet {
    /// The tool definitions in this set's format, as `flexmd tools` prints them.
    #[getter]
    fn definitions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let tools = forge_tools(&self.artifacts).definitions();
        to_py(py, &self.format.render_all(&tools))
    }

    /// The definitions' format: "openai", "openai-responses" or "anthropic".
    #[getter]
    fn format(&self) -> &'static str {
        self.format.name()
    }

    /// Runs every call in `calls` (JSON data: a call, an assistant message
    /// or a list of them): one `{id?, name, result | error}` dict each, as
    /// `flexmd call --json` prints them.
    fn call_all<'py>(
        &self,
        py: Python<'py>,
        calls: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let calls = calls_of(py, calls)?;
        let artifacts = self.artifacts.clone();
        let results = interruptible(py, self.bytes(), move || {
            let tools = forge_tools(&artifacts);
            calls.iter().map(|c| tools.run_call(c)).collect::<Vec<_>>()
        })?;
        to_py(py, &results)
    }

    /// Runs one tool call (a dict, JSON text, or the provider's own
    /// tool-call object) and returns the text to give the model back;
    /// raises `ToolCallError` with the text to give it instead when the
    /// call cannot run.
    fn call(&self, py: Python<'_>, tool_call: &Bound<'_, PyAny>) -> PyResult<String> {
        let call = single_call(
            py,
            tool_call,
            "call runs one tool call",
            "; call_all runs several",
        )?;
        let artifacts = self.artifacts.clone();
        let result = interruptible(py, self.bytes(), move || {
            forge_tools(&artifacts).call(&call.name, &call.arguments)
        })?;
        result.map_err(|e| flexmd_error(py, "ToolCallError", e.to_string(), None))
    }

    /// One page of a tool call's result within `max_tokens` (o200k_base):
    /// `{text, tokens, truncated, omitted?, cursor?}`, cut only between
    /// whole lines or whole JSON values; give `cursor` back for the next
    /// page. As `flexmd call --max-tokens N [--cursor C]` prints it.
    // 20000 is flexmd_artifact::DEFAULT_MAX_TOKENS, written out for the signature Python shows.
    #[pyo3(signature = (tool_call, max_tokens = 20000, cursor = None))]
    fn call_page<'py>(
        &self,
        py: Python<'py>,
        tool_call: &Bound<'py, PyAny>,
        max_tokens: usize,
        cursor: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let call = single_call(py, tool_call, "call_page pages one tool call", "")?;
        let artifacts = self.artifacts.clone();
        let cursor = cursor.map(str::to_owned);
        let page = interruptible(py, self.bytes(), move || {
            forge_tools(&artifacts).call_paged(
                &call.name,
                &call.arguments,
                max_tokens,
                cursor.as_deref(),
            )
        })?
        .map_err(|e| flexmd_error(py, "ToolCallError", e.to_string(), None))?;
        to_py(py, &page)
    }

    fn __repr__(&self) -> String {
        let ids: Vec<&str> = self.artifacts.iter().map(|(id, _)| id.as_str()).collect();
        format!("ToolSet(format={:?}, artifacts={ids:?})", self.format)
    }
}

/// Tool calls as the user has them: JSON text, dicts, or the provider SDK's
/// objects (Pydantic models, as OpenAI's and Anthropic's are: read through
/// `model_dump()`), or a list of any of these.
fn call_data(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    // A list of calls: each item one call (not lists again, so the walk
    // stays one level deep whatever the caller nests).
    let items: Option<Vec<Bound<'_, PyAny>>> =
        if let Ok(items) = value.cast::<pyo3::types::PyList>() {
            Some(items.iter().collect())
        } else if let Ok(items) = value.cast::<pyo3::types::PyTuple>() {
            Some(items.iter().collect())
        } else {
            None
        };
    match items {
        Some(items) => items
            .iter()
            .map(one_call)
            .collect::<PyResult<Vec<_>>>()
            .map(Value::Array),
        None => one_call(value),
    }
}

/// One tool call: JSON text, a dict, or a provider SDK's object.
fn one_call(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    if let Ok(text) = value.cast::<PyString>() {
        return serde_json::from_str(&text.to_cow()?)
            .map_err(|e| PyValueError::new_err(format!("the call is not JSON: {e}")));
    }
    if !value.is_instance_of::<PyDict>() && value.hasattr("model_dump")? {
        return to_json(&value.call_method0("model_dump")?);
    }
    to_json(value)
}

/// The one tool call in a Python value; several are a `ToolCallError`
/// that says `what` (and `hint`).
fn single_call(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    what: &str,
    hint: &str,
) -> PyResult<ToolCall> {
    let mut calls = calls_of(py, value)?;
    match (calls.pop(), calls.is_empty()) {
        (Some(call), true) => Ok(call),
        _ => Err(flexmd_error(
            py,
            "ToolCallError",
            format!("{what} and this holds {}{hint}", calls.len() + 1),
            None,
        )),
    }
}

/// The tool calls in a Python value.
fn calls_of(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Vec<ToolCall>> {
    let calls = tool_calls(&call_data(value)?).map_err(|e| artifact_error(py, e))?;
    if calls.is_empty() {
        return Err(flexmd_error(
            py,
            "ToolCallError",
            "the call list is empty: give at least one tool call",
            None,
        ));
    }
    Ok(calls)
}

/// Forges the tools for `artifacts`; `format` is "openai" (Chat
/// Completions), "openai-responses" (the Responses API) or "anthropic".
#[pyfunction]
#[pyo3(name = "forge_tools", signature = (artifacts, format = "openai"))]
fn forge_tools_for(artifacts: Vec<Bound<'_, PyArtifact>>, format: &str) -> PyResult<ToolSet> {
    let format: ToolFormat = format
        .parse()
        .map_err(|e: ArtifactError| PyValueError::new_err(e.to_string()))?;
    let mut seen = std::collections::HashSet::new();
    let mut owned = Vec::new();
    for a in &artifacts {
        let a = a.get();
        if !seen.insert(a.call_id.clone()) {
            return Err(PyValueError::new_err(format!(
                "two artifacts have the call_id `{}`: give each its own",
                a.call_id
            )));
        }
        owned.push((a.call_id.clone(), Arc::clone(&a.artifact)));
    }
    Ok(ToolSet {
        artifacts: owned,
        format,
    })
}

/// The native part of the `flexmd` package.
#[pymodule]
fn _flexmd(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(loads, m)?)?;
    m.add_function(wrap_pyfunction!(find_json, m)?)?;
    m.add_function(wrap_pyfunction!(find_json_many, m)?)?;
    m.add_function(wrap_pyfunction!(find_json_as, m)?)?;
    m.add_function(wrap_pyfunction!(parse_flexmd, m)?)?;
    m.add_function(wrap_pyfunction!(stringify_flexmd, m)?)?;
    m.add_function(wrap_pyfunction!(detect_objects, m)?)?;
    m.add_function(wrap_pyfunction!(parse_any, m)?)?;
    m.add_function(wrap_pyfunction!(outline, m)?)?;
    m.add_function(wrap_pyfunction!(render_outline, m)?)?;
    m.add_function(wrap_pyfunction!(validate_report, m)?)?;
    m.add_function(wrap_pyfunction!(validate_report_many, m)?)?;
    m.add_function(wrap_pyfunction!(report::report_answers, m)?)?;
    m.add_function(wrap_pyfunction!(hints, m)?)?;
    m.add_function(wrap_pyfunction!(schema_names, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(forge_tools_for, m)?)?;
    m.add_function(wrap_pyfunction!(constrain::export_schema, m)?)?;
    m.add_function(wrap_pyfunction!(constrain::schema_grammar, m)?)?;
    m.add_function(wrap_pyfunction!(constrain::validate_from, m)?)?;
    m.add_class::<Spec>()?;
    m.add_class::<AskSession>()?;
    m.add_class::<PyArtifact>()?;
    m.add_class::<ToolSet>()?;
    m.add_class::<PyRegistry>()?;
    m.add_class::<PyProject>()?;
    m.add_class::<turn::PyTurn>()?;
    m.add_class::<StreamingExtractor>()?;
    m.add_class::<PyStreamingJson>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
