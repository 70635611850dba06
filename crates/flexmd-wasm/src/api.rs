//! The functions behind the npm package, as plain Rust: JSON text in,
//! the JSON value the `flexmd` CLI prints out (offsets in UTF-16 units).
//! `lib.rs` exports them to JavaScript; the host tests call them directly.

use flexmd_core::{FlexDocument, MdOutline, MetaTypeMode, OutputFormatSpec};
use flexmd_frames::{HeaderStyle, ParseOptions, StringifyOptions};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use flexmd_core::TextOffsets;

/// Why a call failed, as the JavaScript package throws it: `name` is the
/// `Error` subclass, `code` a stable identifier, `details` what a program
/// needs to point at the problem.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BindingError {
    /// The class the JavaScript side throws: `SpecError`, `ArgumentError`.
    pub name: &'static str,
    /// A stable identifier (`ofs::invalid_spec_line`, `invalid_argument`).
    pub code: String,
    /// What went wrong, for a person.
    pub message: String,
    /// What a program needs beyond the message: a [`Place`] where the
    /// input has one to point at; for `ValidationError`, the `errors`,
    /// `attempts` and `best` of a retry loop (`null` otherwise).
    pub details: Option<Box<Value>>,
}

/// A place in an input, in the units JavaScript strings count.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Place {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in UTF-16 code units.
    pub column: usize,
    /// UTF-16 code-unit indices into the input.
    pub span: PlaceSpan,
}

/// Start and end of a [`Place`], as UTF-16 code-unit indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct PlaceSpan {
    /// The first unit.
    pub start: usize,
    /// Just after the last unit.
    pub end: usize,
}

impl std::fmt::Display for BindingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for BindingError {}

impl miette::Diagnostic for BindingError {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(&self.code))
    }
}

/// The result of one call.
pub type Outcome = Result<Value, BindingError>;

pub(crate) fn argument_error(message: impl Into<String>) -> BindingError {
    BindingError {
        name: "ArgumentError",
        code: "invalid_argument".to_owned(),
        message: message.into(),
        details: None,
    }
}

/// `what` read from its JSON text (an options object, a FlexDocument, ...).
/// Data nested past the bound is a `NestingError` (a `RangeError`).
pub(crate) fn from_json<T: DeserializeOwned>(what: &str, json: &str) -> Result<T, BindingError> {
    use flexmd_core::MAX_JSON_DEPTH;
    // The common case read directly; the path to a bad field (a second
    // read, which costs as much again) only for the message of a failure.
    if let Ok(value) = serde_json::from_str(json) {
        return Ok(value);
    }
    let mut reader = serde_json::Deserializer::from_str(json);
    serde_path_to_error::deserialize(&mut reader).map_err(|e| {
        let field = e.path().to_string();
        let e = e.into_inner();
        // serde_json stops at MAX_JSON_DEPTH levels; the text tells whether
        // that is why it stopped.
        if e.is_syntax() && flexmd_core::json_nesting_exceeds(json, MAX_JSON_DEPTH - 1).is_some() {
            BindingError {
                name: "NestingError",
                code: "nesting".to_owned(),
                message: format!(
                    "{what} nests deeper than {MAX_JSON_DEPTH} levels, more than flexmd reads \
                     (JSON parsers stop there too)"
                ),
                details: None,
            }
        } else if e.is_data() && field != "." {
            argument_error(format!("{what}: `{field}`: {}", plain_message(&e)))
        } else {
            argument_error(format!("{what}: {}", plain_message(&e)))
        }
    })
}

/// serde's message in the caller's terms: the position in the JSON text
/// the package wrote is dropped (the caller passed an object, not text),
/// and Rust's number types are said as what they accept.
fn plain_message(error: &serde_json::Error) -> String {
    let message = error.to_string();
    let message = message
        .rsplit_once(" at line ")
        .filter(|(_, place)| place.contains(" column "))
        .map_or(message.as_str(), |(head, _)| head);
    let mut plain = message.to_owned();
    for (rust, said) in [
        ("usize", "a whole number ≥ 0"),
        ("u64", "a whole number ≥ 0"),
        ("u32", "a whole number ≥ 0"),
        ("u16", "a whole number ≥ 0"),
        ("u8", "a whole number from 0 to 255"),
        ("i64", "a whole number"),
        ("i32", "a whole number"),
        ("f64", "a number"),
        ("f32", "a number"),
    ] {
        plain = plain.replace(&format!("expected {rust}"), &format!("expected {said}"));
    }
    plain.replace("floating point `", "number `")
}

pub(crate) fn to_value<T: serde::Serialize>(value: &T) -> Outcome {
    serde_json::to_value(value).map_err(|e| argument_error(format!("cannot write the result: {e}")))
}

/// A spec from either form: the Markdown block, or OutputFormatSpec JSON.
pub(crate) fn read_spec(spec: &str) -> Result<OutputFormatSpec, BindingError> {
    flexmd_ofs::read_spec(spec)
        .map(|parsed| parsed.value)
        .map_err(|e| spec_error(spec, &e))
}

fn spec_error(spec: &str, error: &flexmd_ofs::SpecError) -> BindingError {
    use flexmd_ofs::SpecError;
    let code = miette::Diagnostic::code(error).map_or_else(String::new, |c| c.to_string());
    let mut message = error.to_string();
    if let Some(help) = miette::Diagnostic::help(error) {
        message.push_str(&format!(" ({help})"));
    }
    let details = match error {
        SpecError::Json { line, span, .. } | SpecError::BadLine { line, span, .. } => {
            let offsets = TextOffsets::utf16(spec);
            let start = span.offset();
            serde_json::to_value(Place {
                line: *line,
                column: offsets.column(start),
                span: PlaceSpan {
                    start: offsets.index(start),
                    end: offsets.index(start + span.len()),
                },
            })
            .ok()
            .map(Box::new)
        }
        SpecError::NotASpec => None,
    };
    BindingError {
        name: "SpecError",
        code,
        message,
        details,
    }
}

/// Options of `parseFlexMd`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct FlexMdOptions {
    /// `strings` (default), `infer` or `schema`.
    meta_type_mode: Option<String>,
    /// Per meta key, its type (`metaTypeMode: "schema"`).
    meta_schema: Option<Value>,
    meta_anywhere: bool,
    array_keys: Option<Vec<String>>,
}

/// FlexMD frames to a FlexDocument (`flexmd frames parse`).
pub fn parse_flexmd(text: &str, options: &str) -> Outcome {
    let options: FlexMdOptions = from_json("parseFlexMd options", options)?;
    let meta_type_mode = match (options.meta_type_mode.as_deref(), options.meta_schema) {
        (None | Some("strings" | "schema"), Some(schema)) => {
            MetaTypeMode::Schema(serde_json::from_value(schema).map_err(|e| {
                argument_error(format!(
                    "metaSchema: an object of key -> type (string, number, boolean, null, string[]): {e}"
                ))
            })?)
        }
        (Some("schema"), None) => {
            return Err(argument_error(
                "metaTypeMode \"schema\" needs metaSchema (an object of key -> type)",
            ));
        }
        (Some("infer"), Some(_)) => {
            return Err(argument_error(
                "metaSchema types meta by schema; it does not go with metaTypeMode \"infer\"",
            ));
        }
        (None | Some("strings"), None) => MetaTypeMode::Strings,
        (Some("infer"), None) => MetaTypeMode::Infer,
        (Some(other), _) => {
            return Err(argument_error(format!(
                "metaTypeMode must be \"strings\", \"infer\" or \"schema\", not {other:?}"
            )));
        }
    };
    let defaults = ParseOptions::default();
    let options = ParseOptions {
        meta_type_mode,
        meta_anywhere: options.meta_anywhere,
        array_keys: options
            .array_keys
            .map(|keys| keys.into_iter().filter(|k| !k.is_empty()).collect())
            .unwrap_or(defaults.array_keys),
    };
    to_value(&flexmd_frames::parse(text, &options).value)
}

/// Options of `stringifyFlexMd`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct StringifyFlexMdOptions {
    /// Frame headers as Markdown headings of this level (`## [[message]]`)
    /// instead of bracket lines.
    heading_level: Option<u8>,
}

/// A FlexDocument written as FlexMD (`flexmd frames stringify`).
pub fn stringify_flexmd(document: &str, options: &str) -> Outcome {
    let document: FlexDocument = from_json("not a FlexDocument", document)?;
    let options: StringifyFlexMdOptions = from_json("stringifyFlexMd options", options)?;
    let header_style = match options.heading_level {
        None => HeaderStyle::Bracket,
        Some(level @ 1..=6) => HeaderStyle::Heading(level),
        Some(level) => {
            return Err(argument_error(format!(
                "headingLevel must be 1 to 6, not {level}"
            )));
        }
    };
    Ok(Value::String(flexmd_frames::stringify(
        &document,
        &StringifyOptions { header_style },
    )))
}

/// A spec as OutputFormatSpec JSON (`flexmd ofs parse`).
pub fn parse_output_format_spec(spec: &str) -> Outcome {
    to_value(&read_spec(spec)?)
}

/// A spec as its canonical Markdown block (`flexmd ofs render`).
pub fn stringify_output_format_spec(spec: &str) -> Outcome {
    Ok(Value::String(flexmd_ofs::render_spec(&read_spec(spec)?)))
}

/// The prompt rules a spec needs, as a `Rules:` list.
pub fn enrich_instructions(spec: &str) -> Outcome {
    Ok(Value::String(flexmd_ofs::enrich_instructions(&read_spec(
        spec,
    )?)))
}

/// The text to put in a prompt: the block and its rules (`flexmd ofs enrich`).
pub fn prompt(spec: &str) -> Outcome {
    Ok(Value::String(flexmd_ofs::prompt(&read_spec(spec)?)))
}

/// The five-section spec (`flexmd ofs default --json`).
pub fn make_default_ofs() -> Outcome {
    to_value(&flexmd_ofs::default_spec())
}

/// The JSON Schema of the object `extractOutput(…, {asJson: true})` makes.
pub fn json_schema(spec: &str) -> Outcome {
    Ok(flexmd_ofs::json_schema(&read_spec(spec)?))
}

/// The heading outline (`flexmd outline`).
pub fn build_outline(markdown: &str) -> Outcome {
    to_value(&flexmd_core::build_outline(markdown))
}

/// An outline written back as Markdown (`flexmd outline render`).
pub fn render_outline(outline: &str) -> Outcome {
    let outline: MdOutline = from_json("not an MdOutline", outline)?;
    Ok(Value::String(flexmd_core::render_outline(&outline)))
}

/// Options of `validateOutput`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct ValidateOptions {
    /// Warnings count as errors.
    strict: bool,
}

fn report_value(mut report: flexmd_ofs::Report, answer: &str, strict: bool) -> Outcome {
    if strict {
        report = report.into_strict();
    }
    report.reindex(&TextOffsets::utf16(answer));
    to_value(&report)
}

/// An answer checked against a spec (`flexmd validate --json`).
pub fn validate_output(answer: &str, spec: &str, options: &str) -> Outcome {
    let options: ValidateOptions = from_json("validateOutput options", options)?;
    let spec = read_spec(spec)?;
    report_value(flexmd_ofs::validate(answer, &spec), answer, options.strict)
}

/// Options of `extractOutput`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct ExtractOptions {
    /// Read lists in prose sections too.
    lists_in_prose: bool,
    /// The plain object keyed by section name (`flexmd extract --as-json`).
    as_json: bool,
}

/// An answer extracted along a spec (`flexmd extract`, `--as-json`).
pub fn extract_output(answer: &str, spec: &str, options: &str) -> Outcome {
    let options: ExtractOptions = from_json("extractOutput options", options)?;
    let spec = read_spec(spec)?;
    let extract = flexmd_ofs::ExtractOptions {
        lists_in_prose: options.lists_in_prose,
    };
    let (_, extracted) = flexmd_ofs::check(answer, &spec, &extract);
    if options.as_json {
        Ok(flexmd_ofs::to_json(&extracted, &spec))
    } else {
        to_value(&extracted)
    }
}

/// Options of `check`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct CheckOptions {
    strict: bool,
    lists_in_prose: bool,
}

/// Validation and extraction in one read: `{report, result}` with the
/// report of `validateOutput` and the plain object of `extractOutput(…,
/// {asJson: true})`.
pub fn check(answer: &str, spec: &str, options: &str) -> Outcome {
    let options: CheckOptions = from_json("check options", options)?;
    let spec = read_spec(spec)?;
    let extract = flexmd_ofs::ExtractOptions {
        lists_in_prose: options.lists_in_prose,
    };
    let (report, extracted) = flexmd_ofs::check(answer, &spec, &extract);
    Ok(serde_json::json!({
        "report": report_value(report, answer, options.strict)?,
        "result": flexmd_ofs::to_json(&extracted, &spec),
    }))
}

/// The structured objects in any text (`flexmd detect`).
pub fn detect_objects(text: &str) -> Outcome {
    let mut objects = flexmd_detect::detect_objects(text);
    let offsets = TextOffsets::utf16(text);
    for object in &mut objects {
        object.reindex(&offsets);
    }
    to_value(&objects)
}

/// The best reading of any text (`flexmd parse-any`).
pub fn parse_any(text: &str) -> Outcome {
    to_value(&flexmd_detect::parse_any(text).value)
}

/// Options of `findJson`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct FindJsonOptions {
    /// Every value, not only the best.
    all: bool,
    /// Each with where it was found and how it was repaired.
    repairs: bool,
}

/// The JSON in an LLM answer, found and repaired (`flexmd json`, `--all`,
/// `--repairs`): the value (`null` when there is none), or every value, or
/// each with where it was found and how it was repaired.
pub fn find_json(text: &str, options: &str) -> Outcome {
    let options: FindJsonOptions = from_json("findJson options", options)?;
    find_json_with(text, &options)
}

/// [`find_json`] on each text of `texts` (JSON text of an array of
/// strings), with the same options for all: the results in their order.
/// One crossing for many small answers, where a call each would cost
/// about as much as the work.
pub fn find_json_many(texts: &str, options: &str) -> Outcome {
    let options: FindJsonOptions = from_json("findJsonMany options", options)?;
    let texts: Vec<String> = from_json("texts", texts)?;
    texts
        .iter()
        .map(|text| find_json_with(text, &options))
        .collect::<Result<Vec<_>, _>>()
        .map(Value::Array)
}

/// [`find_json`] with its options read.
fn find_json_with(text: &str, options: &FindJsonOptions) -> Outcome {
    if options.all {
        let mut found = flexmd_detect::find_all_json(text);
        if !options.repairs {
            return Ok(Value::Array(found.into_iter().map(|f| f.value).collect()));
        }
        let offsets = TextOffsets::utf16(text);
        for f in &mut found {
            f.reindex(&offsets);
        }
        return to_value(&found);
    }
    match flexmd_detect::find_json(text) {
        None => Ok(Value::Null),
        Some(found) if !options.repairs => Ok(found.value),
        Some(mut found) => {
            found.reindex(&TextOffsets::utf16(text));
            to_value(&found)
        }
    }
}

/// The JSON text of an outcome: `{"ok": value}` or `{"error": ...}`,
/// written straight from the result (no `Value` built for it).
pub(crate) fn envelope<T: serde::Serialize>(outcome: Result<T, BindingError>) -> String {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "lowercase")]
    enum Envelope<T> {
        Ok(T),
        Error(BindingError),
    }
    let wrapped = match outcome {
        Ok(value) => Envelope::Ok(value),
        Err(error) => Envelope::Error(error),
    };
    serde_json::to_string(&wrapped).unwrap_or_else(|e| {
        let error = argument_error(format!("cannot write the result: {e}"));
        serde_json::json!({ "error": error }).to_string()
    })
}

/// A schema (or spec) a provider or dialect cannot take, or an unknown
/// provider or format name: `ConstrainError`.
#[cfg(feature = "schema")]
pub(crate) fn constrain_error(error: &dyn miette::Diagnostic) -> BindingError {
    let mut message = error.to_string();
    if let Some(help) = error.help() {
        message.push_str(&format!(" ({help})"));
    }
    BindingError {
        name: "ConstrainError",
        code: error.code().map_or_else(String::new, |c| c.to_string()),
        message,
        details: None,
    }
}

/// A provider's name read (`openai`, `openai-tool`, `anthropic`,
/// `anthropic-tool`, `gemini`).
#[cfg(feature = "schema")]
pub(crate) fn provider(name: &str) -> Result<flexmd_constrain::Provider, BindingError> {
    name.parse()
        .map_err(|e: flexmd_constrain::UnknownProvider| constrain_error(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An argument of the wrong shape is named by its path, in the
    /// caller's terms: no Rust type, no place in JSON text the caller
    /// never wrote.
    #[test]
    fn argument_errors_name_the_field_without_rust_types() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Args {
            n: Option<usize>,
            depth: Option<u8>,
            all: Option<bool>,
        }
        for (json, message) in [
            (
                r#"{"n": -1}"#,
                "head arguments: `n`: invalid value: integer `-1`, expected a whole number ≥ 0",
            ),
            (
                r#"{"n": 1.5}"#,
                "head arguments: `n`: invalid type: number `1.5`, expected a whole number ≥ 0",
            ),
            (
                r#"{"depth": 300}"#,
                "head arguments: `depth`: invalid value: integer `300`, expected a whole number from 0 to 255",
            ),
            (
                r#"{"all": -1}"#,
                "head arguments: `all`: invalid type: integer `-1`, expected a boolean",
            ),
            (r#"{"n": "#, "head arguments: EOF while parsing a value"),
        ] {
            let error = from_json::<Args>("head arguments", json)
                .map(|_| ())
                .unwrap_err();
            assert_eq!(
                (error.name, error.message.as_str()),
                ("ArgumentError", message),
                "{json}"
            );
        }
    }

    #[test]
    fn a_misspelt_kind_is_a_spec_error_with_its_place_in_utf16_units() {
        let Err(error) = parse_output_format_spec("- Résumé — orderd list\n") else {
            panic!("a misspelt kind must not parse");
        };
        assert_eq!(error.name, "SpecError");
        assert_eq!(error.code, "ofs::invalid_spec_line");
        let place = error.details.map(|d| *d);
        assert_eq!(
            place,
            serde_json::to_value(Place {
                line: 1,
                column: 1,
                span: PlaceSpan { start: 0, end: 22 },
            })
            .ok()
        );
    }

    #[test]
    fn detected_offsets_slice_the_javascript_string() {
        let text = "😀 emoji first\n```flexmd\n[[message]]\nhi\n```\n";
        let objects = detect_objects(text).unwrap_or_default();
        assert_eq!(objects[0]["start"], 15);
        assert_eq!(objects[0]["end"], 43);
        let utf16: Vec<u16> = text.encode_utf16().collect();
        let sliced = String::from_utf16_lossy(&utf16[15..43]);
        assert_eq!(objects[0]["raw"], sliced.as_str());
    }

    #[test]
    fn issues_point_at_utf16_columns() {
        let answer = "## Steps\n1. Café ☕ 😀\n3) b\n";
        let report = validate_output(answer, "- Steps — ordered list\n", "{}").unwrap_or_default();
        let warning = &report["details"]["warnings"][0];
        assert_eq!(warning["code"], "lenient_numbering");
        assert_eq!(warning["line"], 3);
        assert_eq!(warning["column"], 1);
        // The `3`: after 9 + 18 bytes, 9 + 13 UTF-16 units.
        assert_eq!(warning["span"]["start"], 22);
        assert_eq!(warning["span"]["end"], 23);
    }

    #[test]
    fn unknown_options_are_named() {
        let Err(error) = find_json("{}", r#"{"repair": true}"#) else {
            panic!("a misspelt option must be an error");
        };
        assert_eq!(error.name, "ArgumentError");
        assert!(
            error.message.contains("unknown field `repair`"),
            "{}",
            error.message
        );
    }

    #[test]
    fn repairs_move_with_the_text() {
        let found = find_json("é {\"a\": [1, 2", r#"{"repairs": true}"#).unwrap_or_default();
        assert_eq!(found["value"], serde_json::json!({"a": [1, 2]}));
        assert_eq!(found["start"], 2);
        assert_eq!(found["end"], 13);
    }
}
