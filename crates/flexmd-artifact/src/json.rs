//! JSON artifacts (the seed's `SpooledJsonArtifact`): json, json5 and JSON
//! Lines, queried with JSONPath (RFC 9535).

use std::borrow::Cow;
use std::str::FromStr;
use std::sync::OnceLock;

use flexmd_core::json_nesting_exceeds;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json_path::JsonPath;

use crate::artifact::SpooledArtifact;
use crate::error::ArtifactError;
use crate::reader::SpoolReader;

/// The longest JSONPath accepted, in bytes.
pub const MAX_PATH_LEN: usize = 4096;

/// The deepest bracket or parenthesis nesting accepted in a JSONPath (the
/// parser recurses on it; at 5 000 it overflows the stack).
pub const MAX_PATH_NESTING: usize = 64;

/// Nesting limit of a JSON5 document (serde_json's own for JSON).
const MAX_JSON5_DEPTH: usize = 128;

/// The formats a JSON artifact can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JsonFormat {
    /// One JSON value (RFC 8259).
    Json,
    /// One JSON5 value (comments, trailing commas, unquoted keys, ...).
    Json5,
    /// JSON Lines: each non-blank line is one JSON value.
    Jsonl,
    /// The same as `jsonl` (a name only a hint can give).
    Ndjson,
}

impl JsonFormat {
    /// The format's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Json => "json",
            Self::Json5 => "json5",
            Self::Jsonl => "jsonl",
            Self::Ndjson => "ndjson",
        }
    }

    fn is_lines(self) -> bool {
        matches!(self, Self::Jsonl | Self::Ndjson)
    }
}

impl FromStr for JsonFormat {
    type Err = ArtifactError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "json" => Ok(Self::Json),
            "json5" => Ok(Self::Json5),
            "jsonl" => Ok(Self::Jsonl),
            "ndjson" => Ok(Self::Ndjson),
            other => Err(ArtifactError::Json(format!(
                "unknown JSON format `{other}`; use json, json5, jsonl or ndjson"
            ))),
        }
    }
}

/// A JSON artifact: the base line operations plus JSON queries.
///
/// Without a format hint the format is inferred: strict JSON, else JSON Lines
/// (every non-blank line strict JSON, at least one), else JSON5, else an
/// error. Checking reads the bytes without building values; a json or json5
/// root is parsed once, on the first query that needs it. JSON Lines are
/// read record by record and never held all at once.
///
/// ```
/// use flexmd_artifact::{JsonFormat, MemoryReader, SpooledJsonArtifact};
/// use serde_json::json;
///
/// let a = SpooledJsonArtifact::new(MemoryReader::new("{\"a\": 1}\n{\"a\": 2, \"b\": 3}\n"), None).unwrap();
/// assert_eq!(a.json_type(), JsonFormat::Jsonl);
/// assert_eq!(a.json_keys().unwrap(), Some(vec!["a".to_owned(), "b".to_owned()]));
/// assert_eq!(a.json_get("$.a").unwrap(), [json!(1), json!(2)]);
/// assert_eq!(a.json_filter("$.b").unwrap(), [json!({"a": 2, "b": 3})]);
/// ```
#[derive(Debug)]
pub struct SpooledJsonArtifact {
    base: SpooledArtifact,
    format: JsonFormat,
    root: OnceLock<Result<Value, String>>,
}

impl SpooledJsonArtifact {
    /// A JSON artifact over `reader`, in `format` or, without a hint, the
    /// format inferred from the content. A hinted format is trusted as is:
    /// content that does not fit it is reported by the queries.
    pub fn new(
        reader: impl SpoolReader + 'static,
        format: Option<JsonFormat>,
    ) -> Result<Self, ArtifactError> {
        let base = SpooledArtifact::new(reader);
        let format = match format {
            Some(f) => f,
            None => infer(base.reader())?,
        };
        Ok(Self {
            base,
            format,
            root: OnceLock::new(),
        })
    }

    /// The line operations (`head`, `grep`, ...).
    pub fn base(&self) -> &SpooledArtifact {
        &self.base
    }

    /// The format given or inferred.
    pub fn json_type(&self) -> JsonFormat {
        self.format
    }

    /// The root object's keys in document order (json, json5), or the union
    /// of the records' keys in first-seen order (JSON Lines); `None` when
    /// there is no object.
    pub fn json_keys(&self) -> Result<Option<Vec<String>>, ArtifactError> {
        if !self.format.is_lines() {
            return Ok(self
                .root()?
                .as_object()
                .map(|m| m.keys().cloned().collect()));
        }
        let mut keys: Vec<String> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut any_object = false;
        self.each_record(|record| {
            if let Value::Object(map) = record {
                any_object = true;
                for k in map.keys() {
                    if seen.insert(k.clone()) {
                        keys.push(k.clone());
                    }
                }
            }
            true
        })?;
        Ok(any_object.then_some(keys))
    }

    /// The number of records: 1 for json and json5, the non-blank lines for
    /// JSON Lines.
    pub fn json_length(&self) -> Result<usize, ArtifactError> {
        if !self.format.is_lines() {
            self.root()?;
            return Ok(1);
        }
        let mut n = 0;
        self.each_line(|_, _| {
            n += 1;
            Ok(true)
        })?;
        Ok(n)
    }

    /// The values `path` (JSONPath, RFC 9535) selects: in the root, or in
    /// each record in turn, concatenated in record order. Always a list.
    pub fn json_get(&self, path: &str) -> Result<Vec<Value>, ArtifactError> {
        let path = compile_path(path)?;
        if !self.format.is_lines() {
            return Ok(path
                .query(self.root()?)
                .all()
                .into_iter()
                .cloned()
                .collect());
        }
        let mut out = Vec::new();
        self.each_record(|record| {
            out.extend(path.query(&record).all().into_iter().cloned());
            true
        })?;
        Ok(out)
    }

    /// The same as [`SpooledJsonArtifact::json_get`] (the seed's name for
    /// taking one field from every record).
    pub fn json_pluck(&self, path: &str) -> Result<Vec<Value>, ArtifactError> {
        self.json_get(path)
    }

    /// The records `path` selects something in (the root, for json and
    /// json5, in a list of one or none).
    ///
    /// A path that starts with `$[?` tests the record itself: it is run on a
    /// one-element list holding the record, so `$[?@.status == 'active']`
    /// keeps the records whose `status` is `active` (in RFC 9535 a filter
    /// tests the children of the node it is applied to, not the node).
    ///
    /// ```
    /// use flexmd_artifact::{JsonFormat, MemoryReader, SpooledJsonArtifact};
    /// use serde_json::json;
    ///
    /// let lines = "{\"id\": 1, \"status\": \"active\"}\n{\"id\": 2, \"status\": \"gone\"}\n";
    /// let a = SpooledJsonArtifact::new(MemoryReader::new(lines), Some(JsonFormat::Jsonl)).unwrap();
    /// assert_eq!(a.json_filter("$[?@.status == 'active']").unwrap(), [json!({"id": 1, "status": "active"})]);
    /// ```
    pub fn json_filter(&self, path: &str) -> Result<Vec<Value>, ArtifactError> {
        let tests_record = path.trim_start().starts_with("$[?");
        let path = compile_path(path)?;
        let keeps = |record: &Value| -> bool {
            if tests_record {
                let wrapped = Value::Array(vec![record.clone()]);
                !path.query(&wrapped).is_empty()
            } else {
                !path.query(record).is_empty()
            }
        };
        if !self.format.is_lines() {
            let root = self.root()?;
            return Ok(if keeps(root) {
                vec![root.clone()]
            } else {
                Vec::new()
            });
        }
        let mut out = Vec::new();
        self.each_record(|record| {
            if keeps(&record) {
                out.push(record);
            }
            true
        })?;
        Ok(out)
    }

    /// Records `[start, end)` as JavaScript's `slice` clamps them (JSON
    /// Lines); for json and json5, the root in a list, as in the seed.
    pub fn json_slice(
        &self,
        start: Option<usize>,
        end: Option<usize>,
    ) -> Result<Vec<Value>, ArtifactError> {
        if !self.format.is_lines() {
            return Ok(vec![self.root()?.clone()]);
        }
        let start = start.unwrap_or(0);
        let end = end.unwrap_or(usize::MAX);
        let mut out = Vec::new();
        let mut index = 0usize;
        self.each_record(|record| {
            if index >= end {
                return false;
            }
            if index >= start {
                out.push(record);
            }
            index += 1;
            true
        })?;
        Ok(out)
    }

    /// The parsed root of a json or json5 artifact (parsed once).
    fn root(&self) -> Result<&Value, ArtifactError> {
        let parsed = self.root.get_or_init(|| {
            let bytes = self.base.reader().bytes();
            match self.format {
                JsonFormat::Json5 => parse_json5(&String::from_utf8_lossy(bytes)),
                _ => serde_json::from_slice(bytes)
                    .map_err(|e| format!("the artifact is not valid JSON: {e}")),
            }
        });
        parsed.as_ref().map_err(|e| ArtifactError::Json(e.clone()))
    }

    /// Calls `f` with each JSON Lines record in order until it returns
    /// `false`; a line that is not JSON is an error naming it.
    fn each_record(&self, mut f: impl FnMut(Value) -> bool) -> Result<(), ArtifactError> {
        self.each_line(|i, line| {
            let record = serde_json::from_str::<Value>(line)
                .map_err(|e| ArtifactError::Json(format!("line {} is not JSON: {e}", i + 1)))?;
            Ok(f(record))
        })
    }

    /// Calls `f` with each non-blank line (its 0-based number and text).
    fn each_line(
        &self,
        mut f: impl FnMut(usize, &str) -> Result<bool, ArtifactError>,
    ) -> Result<(), ArtifactError> {
        for (i, line) in self.base.reader().lines_from(0).enumerate() {
            if is_blank(&line) {
                continue;
            }
            if !f(i, &line)? {
                break;
            }
        }
        Ok(())
    }
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// The format of `reader`'s content, in the seed's order.
fn infer(reader: &dyn SpoolReader) -> Result<JsonFormat, ArtifactError> {
    let bytes = reader.bytes();
    if serde_json::from_slice::<IgnoredAny>(bytes).is_ok() {
        return Ok(JsonFormat::Json);
    }
    let mut records = 0;
    let mut all_json = true;
    for line in reader.lines_from(0) {
        if is_blank(&line) {
            continue;
        }
        if serde_json::from_str::<IgnoredAny>(&line).is_err() {
            all_json = false;
            break;
        }
        records += 1;
    }
    if all_json && records > 0 {
        return Ok(JsonFormat::Jsonl);
    }
    let text: Cow<'_, str> = String::from_utf8_lossy(bytes);
    match parse_json5(&text) {
        Ok(_) => Ok(JsonFormat::Json5),
        Err(e) => Err(ArtifactError::Json(format!(
            "the artifact is neither JSON, JSON Lines nor JSON5 ({e})"
        ))),
    }
}

fn parse_json5(text: &str) -> Result<Value, String> {
    if let Some(at) = json_nesting_exceeds(text, MAX_JSON5_DEPTH) {
        return Err(format!(
            "the artifact nests deeper than {MAX_JSON5_DEPTH} levels (at byte {at})"
        ));
    }
    json5::from_str(text).map_err(|e| format!("the artifact is not valid JSON5: {e}"))
}

/// A JSONPath, after the length and nesting guard.
///
/// ```
/// use flexmd_artifact::compile_path;
/// assert!(compile_path("$.store.book[?@.price < 10].title").is_ok());
/// let deep = format!("$[?{}@.a{}]", "(".repeat(100), ")".repeat(100));
/// assert!(compile_path(&deep).unwrap_err().to_string().contains("nests deeper"));
/// assert!(compile_path("store.book").is_err());
/// ```
pub fn compile_path(path: &str) -> Result<JsonPath, ArtifactError> {
    if path.len() > MAX_PATH_LEN {
        return Err(ArtifactError::JsonPath(format!(
            "the path is {} bytes; at most {MAX_PATH_LEN} are allowed",
            path.len()
        )));
    }
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in path.chars() {
        if let Some(q) = quote {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                _ if c == q => quote = None,
                _ => {}
            }
            continue;
        }
        match c {
            '\'' | '"' => quote = Some(c),
            '(' | '[' => {
                depth += 1;
                if depth > MAX_PATH_NESTING {
                    return Err(ArtifactError::JsonPath(format!(
                        "the path nests deeper than {MAX_PATH_NESTING} brackets or parentheses"
                    )));
                }
            }
            ')' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    JsonPath::parse(path).map_err(|e| {
        ArtifactError::JsonPath(format!(
            "{e} (paths start with `$`, as `$.items[0].name` or `$..name`)"
        ))
    })
}
