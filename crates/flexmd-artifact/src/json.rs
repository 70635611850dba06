//! JSON artifacts (@nhtio/adk's `SpooledJsonArtifact`): json, json5 and JSON
//! Lines, queried with JSONPath (RFC 9535).

use std::borrow::Cow;
use std::str::FromStr;
use std::sync::OnceLock;

use flexmd_core::{MAX_JSON_VALUES, json_nesting_exceeds, json_values_exceed};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::artifact::SpooledArtifact;
use crate::error::ArtifactError;
use crate::jsonpath::compile_path;
use crate::reader::SpoolReader;

/// The largest json or json5 document parsed whole (64 MiB). A document is
/// one value, held in memory as a tree about 8 to 13 times its size (10 MB of
/// numbers: 135 MiB); past this size operations that need the tree are
/// refused with an error naming the limit, before reading the document.
/// `$.a.b` paths still work on larger documents (they read only the members
/// on the way), and JSON Lines are streamed at any size. Under this size a
/// document (or a JSON Lines record) of more than
/// [`MAX_JSON_VALUES`](flexmd_core::MAX_JSON_VALUES) values is refused the
/// same way: its tree would cost more than the text's size says.
pub const MAX_DOCUMENT_BYTES: usize = 64 * 1024 * 1024;

/// Nesting limit of a JSON5 document (serde_json's own for JSON).
const MAX_JSON5_DEPTH: usize = 128;

/// The formats a JSON artifact can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
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

    /// A JSON artifact over an artifact already built, when its content
    /// is JSON in some format; the artifact back otherwise (so a caller
    /// that guesses can fall back without copying the content).
    pub(crate) fn try_from_base(
        base: SpooledArtifact,
    ) -> Result<Self, (SpooledArtifact, ArtifactError)> {
        match infer(base.reader()) {
            Ok(format) => Ok(Self {
                base,
                format,
                root: OnceLock::new(),
            }),
            Err(e) => Err((base, e)),
        }
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
        self.json_get_limited(path, usize::MAX)
    }

    /// [`SpooledJsonArtifact::json_get`], stopping after `limit` values
    /// (JSON Lines are then read no further).
    pub(crate) fn json_get_limited(
        &self,
        path: &str,
        limit: usize,
    ) -> Result<Vec<Value>, ArtifactError> {
        let mut out = Vec::new();
        self.json_get_each(path, &mut |v| {
            out.push(v.clone());
            out.len() < limit
        })?;
        Ok(out)
    }

    /// Calls `f` with each value `path` selects, in order, until it returns
    /// `false`: [`SpooledJsonArtifact::json_get`] without the list. Values
    /// are lent, never copied, and JSON Lines are read one record at a
    /// time, so memory stays flat however many values there are (13 M
    /// `$.id`s of a 1 GiB file stream out in a few MiB). A tool result
    /// serialises them within its byte cap this way.
    ///
    /// ```
    /// use flexmd_artifact::{JsonFormat, MemoryReader, SpooledJsonArtifact};
    /// let lines = "{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3}\n";
    /// let a = SpooledJsonArtifact::new(MemoryReader::new(lines), Some(JsonFormat::Jsonl)).unwrap();
    /// let mut sum = 0;
    /// a.json_get_each("$.id", &mut |v| {
    ///     sum += v.as_i64().unwrap_or(0);
    ///     sum < 3 // stop once the sum reaches 3
    /// })
    /// .unwrap();
    /// assert_eq!(sum, 3);
    /// ```
    pub fn json_get_each(
        &self,
        path: &str,
        f: &mut dyn FnMut(&Value) -> bool,
    ) -> Result<(), ArtifactError> {
        // JSONPath-Plus's `P.length` (flex-md's dialect): an array's or a
        // string's length, as JavaScript gives it, or an object's `length`
        // member (all RFC 9535 would give).
        if let Some(parent) = crate::jsonpath::trailing_length(path) {
            return self.json_get_each(parent, &mut |v| match v {
                Value::Array(items) => f(&Value::from(items.len())),
                Value::String(s) => f(&Value::from(s.encode_utf16().count())),
                Value::Object(map) => map.get("length").is_none_or(&mut *f),
                _ => true,
            });
        }
        if crate::jsonpath::length_in_filter(path) {
            // In a filter `.length` is a member named `length`: an empty
            // result would hide that it meant something else.
            let mut any = false;
            self.json_get_each_rfc(path, &mut |v| {
                any = true;
                f(v)
            })?;
            if !any {
                return Err(ArtifactError::JsonPath(format!(
                    "`{path}` selects nothing, and inside a filter `@.x.length` is a member \
                     named `length` (RFC 9535): for the length of an array or a string write \
                     `length(@.x)`, as in `$[?length(@.tags) > 1]`"
                )));
            }
            return Ok(());
        }
        self.json_get_each_rfc(path, f)
    }

    /// [`SpooledJsonArtifact::json_get_each`] with `path` read as RFC 9535
    /// (after the JSONPath-Plus rewrites of [`compile_path`]).
    fn json_get_each_rfc(
        &self,
        path: &str,
        f: &mut dyn FnMut(&Value) -> bool,
    ) -> Result<(), ArtifactError> {
        let compiled = compile_path(path)?;
        if !self.format.is_lines() {
            let bytes = without_bom(self.base.reader().bytes());
            if self.format == JsonFormat::Json
                && let Some(names) = member_chain(path)
                && (bytes.len() > MAX_DOCUMENT_BYTES || self.root().is_err())
            {
                // A document too large for a tree (in bytes or in values):
                // read only the members on the way.
                let text = std::str::from_utf8(bytes)
                    .map_err(|e| ArtifactError::Json(format!("the artifact is not UTF-8: {e}")))?;
                let value = pluck_members(text, &names).map_err(|e| {
                    ArtifactError::Json(format!("the artifact is not valid JSON: {e}"))
                })?;
                if let Some(v) = value {
                    f(&v);
                }
                return Ok(());
            }
            for v in compiled.query(self.root()?).all() {
                if !f(v) {
                    break;
                }
            }
            return Ok(());
        }
        if let Some(names) = member_chain(path) {
            // `$.a.b`: read only the members on the way and skip the rest of
            // each record without building it (the nodes JSONPath selects:
            // none where a member is missing or not an object).
            return self.each_line(|i, line| {
                let value = pluck_members(line, &names)
                    .map_err(|e| ArtifactError::Json(format!("line {} is not JSON: {e}", i + 1)))?;
                Ok(value.as_ref().is_none_or(&mut *f))
            });
        }
        self.each_record(|record| compiled.query(&record).all().into_iter().all(&mut *f))
    }

    /// The same as [`SpooledJsonArtifact::json_get`] (@nhtio/adk's name for
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
        self.json_filter_limited(path, usize::MAX)
    }

    /// [`SpooledJsonArtifact::json_filter`], stopping after `limit` records.
    pub(crate) fn json_filter_limited(
        &self,
        path: &str,
        limit: usize,
    ) -> Result<Vec<Value>, ArtifactError> {
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
            out.len() < limit
        })?;
        Ok(out)
    }

    /// Records `[start, end)` as JavaScript's `Array.prototype.slice` takes
    /// them (JSON Lines): a negative index counts from the end (which costs
    /// one more pass, to count the records); for json and json5, the root in
    /// a list, as in @nhtio/adk.
    ///
    /// ```
    /// use flexmd_artifact::{MemoryReader, SpooledJsonArtifact};
    /// let a = SpooledJsonArtifact::new(MemoryReader::new("1\n2\n3\n"), None).unwrap();
    /// assert_eq!(a.json_slice(Some(-2), None).unwrap(), [2, 3]);
    /// assert_eq!(a.json_slice(None, Some(-2)).unwrap(), [1]);
    /// ```
    pub fn json_slice(
        &self,
        start: Option<i64>,
        end: Option<i64>,
    ) -> Result<Vec<Value>, ArtifactError> {
        let range = self.record_range(start, end)?;
        self.records(range)
    }

    /// The record indexes `slice(start, end)` selects; past the end when
    /// the count is not needed (no negative index), clamped by reading.
    pub(crate) fn record_range(
        &self,
        start: Option<i64>,
        end: Option<i64>,
    ) -> Result<std::ops::Range<usize>, ArtifactError> {
        if self.format.is_lines()
            && (start.is_some_and(i64::is_negative) || end.is_some_and(i64::is_negative))
        {
            return Ok(crate::artifact::slice_range(
                self.json_length()?,
                start,
                end,
            ));
        }
        let index = |i: Option<i64>, default: usize| {
            i.map_or(default, |i| usize::try_from(i).unwrap_or(usize::MAX))
        };
        Ok(index(start, 0)..index(end, usize::MAX))
    }

    /// Records `range` (JSON Lines); the root in a list for json and json5.
    pub(crate) fn records(
        &self,
        range: std::ops::Range<usize>,
    ) -> Result<Vec<Value>, ArtifactError> {
        if !self.format.is_lines() {
            return Ok(vec![self.root()?.clone()]);
        }
        let mut out = Vec::new();
        let mut index = 0usize;
        self.each_record(|record| {
            if index >= range.end {
                return false;
            }
            if index >= range.start {
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
            let size = self.base.reader().byte_len();
            if size > MAX_DOCUMENT_BYTES {
                return Err(format!(
                    "the artifact is one {} document of {size} bytes; documents over {MAX_DOCUMENT_BYTES} bytes are not parsed whole (only `$.a.b` paths read them); JSON Lines are streamed at any size",
                    self.format.name()
                ));
            }
            let bytes = without_bom(self.base.reader().bytes());
            if let Some(at) = std::str::from_utf8(bytes)
                .ok()
                .and_then(|text| json_values_exceed(text, MAX_JSON_VALUES))
            {
                return Err(too_many_values(&format!("the artifact's {} document", self.format.name()), at));
            }
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
            if let Some(at) = json_values_exceed(line, MAX_JSON_VALUES) {
                return Err(ArtifactError::Json(too_many_values(
                    &format!("line {}", i + 1),
                    at,
                )));
            }
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

/// Why `what` is not parsed: it holds more values than the bound on memory.
fn too_many_values(what: &str, at: usize) -> String {
    format!(
        "{what} holds more than {MAX_JSON_VALUES} values (past byte {at}); so large a tree is not built (a parsed value takes 100-300 bytes): `$.a.b` paths still read it member by member, and JSON Lines are read record by record"
    )
}

/// `bytes` after a leading byte order mark, which no JSON parser takes.
fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.get(flexmd_core::bom_len(bytes)..).unwrap_or_default()
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// The format of `reader`'s content, in @nhtio/adk's order.
fn infer(reader: &dyn SpoolReader) -> Result<JsonFormat, ArtifactError> {
    let bytes = without_bom(reader.bytes());
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
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return Err(ArtifactError::Json(format!(
            "the artifact is neither JSON nor JSON Lines, and at {} bytes too large to read as JSON5 (at most {MAX_DOCUMENT_BYTES})",
            bytes.len()
        )));
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

/// The member names of a path made only of name selectors (`$.a.b`,
/// `$['a']`), which the fast path reads without building records.
fn member_chain(path: &str) -> Option<Vec<String>> {
    let mut rest = path.strip_prefix('$')?;
    let mut names = Vec::new();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let len = r
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(r.len());
            let name = r.get(..len)?;
            if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
                return None;
            }
            names.push(name.to_owned());
            rest = r.get(len..)?;
        } else if let Some(r) = rest.strip_prefix("['") {
            let end = r.find("']")?;
            let name = r.get(..end)?;
            if name.contains(['\\', '\'']) {
                return None;
            }
            names.push(name.to_owned());
            rest = r.get(end + 2..)?;
        } else {
            return None;
        }
    }
    (!names.is_empty()).then_some(names)
}

/// The value at `names` in the JSON text `line`, or `None` where a member
/// is missing or the value on the way is not an object.
fn pluck_members(line: &str, names: &[String]) -> Result<Option<Value>, serde_json::Error> {
    let mut current: &str = line;
    for name in names {
        let mut de = serde_json::Deserializer::from_str(current);
        let found = serde::Deserializer::deserialize_any(&mut de, member::Find { name })?;
        de.end()?;
        match found {
            Some(raw) => current = raw.get(),
            None => return Ok(None),
        }
    }
    if json_values_exceed(current, MAX_JSON_VALUES).is_some() {
        return Err(serde::de::Error::custom(format!(
            "the value holds more than {MAX_JSON_VALUES} values"
        )));
    }
    serde_json::from_str(current).map(Some)
}

/// Serde visitors that find one member of an object and skip the rest.
mod member {
    use std::fmt;

    use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
    use serde_json::value::RawValue;

    /// Finds member `name` (the last one, as `serde_json::Value` keeps).
    pub(super) struct Find<'n> {
        pub(super) name: &'n str,
    }

    impl<'de> Visitor<'de> for Find<'_> {
        type Value = Option<&'de RawValue>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON value")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut found = None;
            while let Some(is_it) = map.next_key_seed(KeyIs(self.name))? {
                if is_it {
                    found = Some(map.next_value::<&'de RawValue>()?);
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(found)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(None)
        }

        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    }

    /// Whether a key is `name`, without allocating it.
    struct KeyIs<'n>(&'n str);

    impl<'de> DeserializeSeed<'de> for KeyIs<'_> {
        type Value = bool;

        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
            d.deserialize_str(self)
        }
    }

    impl<'de> Visitor<'de> for KeyIs<'_> {
        type Value = bool;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object key")
        }

        fn visit_str<E>(self, key: &str) -> Result<bool, E> {
            Ok(key == self.0)
        }
    }
}
