//! `Artifact`: a tool output too large for a prompt, queried lazily by
//! line, as JSON or as Markdown (flexmd-artifact).

use std::sync::Arc;

use flexmd_artifact::{
    Artifact, ArtifactError, Encoding, FileReader, GrepFlags, MemoryReader, ReadAs,
};
use pyo3::prelude::*;

use crate::convert::{depth, optional_count, to_py};
use crate::errors::{artifact_error, flexmd_error};
use crate::gil::interruptible;

/// A tool output too large for a prompt, queried lazily by line, as JSON
/// or as Markdown.
#[pyclass(name = "Artifact", module = "flexmd", frozen)]
pub(crate) struct PyArtifact {
    pub(crate) call_id: String,
    pub(crate) kind: ReadAs,
    pub(crate) artifact: Arc<Artifact>,
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
pub(crate) fn read_as(py: Python<'_>, kind: &str) -> PyResult<ReadAs> {
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
