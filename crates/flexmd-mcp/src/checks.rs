//! The tools that check a model's output rather than read a file: Output
//! Format Specs, JSON finding, JSON Schemas, object detection. Each answers
//! with the JSON the matching `flexmd` command prints.

use flexmd_schema::{Registry, TransformOptions};
use serde_json::{Map, Value, json};

/// A check tool: its name, what it does, its parameters.
pub(crate) struct Check {
    pub(crate) name: &'static str,
    pub(crate) description: &'static str,
    /// `(name, JSON Schema, required)`.
    pub(crate) parameters: &'static [(&'static str, &'static str, bool)],
}

const SPEC: &str = r#"{"type": "string", "description": "The Output Format Spec: its Markdown block (`## Output format` with one bullet per section) or its OutputFormatSpec JSON."}"#;
const RESPONSE: &str = r#"{"type": "string", "description": "The model's answer, as Markdown."}"#;
const STRICT: &str = r#"{"type": "boolean", "description": "Count warnings (leniencies used to read the answer) as errors. Default false."}"#;
const TEXT: &str =
    r#"{"type": "string", "description": "Any text: a model's answer, a log, a document."}"#;

/// The check tools, in the order they are listed.
pub(crate) const CHECKS: &[Check] = &[
    Check {
        name: "ofs_prompt",
        description: "The instructions that tell a model to answer in the sections of an Output Format Spec: paste them into its prompt.",
        parameters: &[("spec", SPEC, true)],
    },
    Check {
        name: "ofs_validate",
        description: "Check a model's Markdown answer against an Output Format Spec: {ok, valid, errors, warnings, details}; details lists each issue with its code, section, line and a message saying what to fix.",
        parameters: &[
            ("spec", SPEC, true),
            ("response", RESPONSE, true),
            ("strict", STRICT, false),
        ],
    },
    Check {
        name: "ofs_extract",
        description: "Extract a model's Markdown answer along an Output Format Spec: ExtractedResult JSON (the outline, each section by name with its Markdown, lists and tables), or with as_json the plain object keyed by section name. When the answer breaks the spec, a note says so; ofs_validate lists the problems.",
        parameters: &[
            ("spec", SPEC, true),
            ("response", RESPONSE, true),
            (
                "as_json",
                r#"{"type": "boolean", "description": "Answer with the plain object keyed by section name. Default false."}"#,
                false,
            ),
            (
                "lists_in_prose",
                r#"{"type": "boolean", "description": "Also parse lists written in prose sections. Default false."}"#,
                false,
            ),
            ("strict", STRICT, false),
        ],
    },
    Check {
        name: "json_find",
        description: "Find the JSON value in a text (in a fenced block or in prose; repaired if broken: trailing commas, single quotes, comments, cut-off endings): the value. With all, every value in order; with repairs, each with where it was found and what was repaired.",
        parameters: &[
            ("text", TEXT, true),
            (
                "all",
                r#"{"type": "boolean", "description": "Every JSON value in the text, in order, as an array. Default false."}"#,
                false,
            ),
            (
                "repairs",
                r#"{"type": "boolean", "description": "Each value with its span, source and the repairs made. Default false."}"#,
                false,
            ),
        ],
    },
    Check {
        name: "schema_validate",
        description: "Validate data against a JSON Schema (given, or registered by name: see schema_list): {valid, data, errors, warnings, ...} with the data coerced and defaults filled; each error with its path, code and message, and with hints how to fix it.",
        parameters: &[
            (
                "data",
                r#"{"description": "The data: a JSON value, or a text holding one (a model's answer; the JSON is found and repaired as json_find does)."}"#,
                true,
            ),
            (
                "schema",
                r#"{"type": "object", "description": "The JSON Schema. Give this or schema_name."}"#,
                false,
            ),
            (
                "schema_name",
                r#"{"type": "string", "description": "The name of a registered schema (schema_list). Give this or schema."}"#,
                false,
            ),
            (
                "coerce",
                r#"{"type": "boolean", "description": "Coerce values to the schema's types where that makes the data valid (\"3\" to 3). Default true."}"#,
                false,
            ),
            (
                "defaults",
                r#"{"type": "boolean", "description": "Fill in the schema's defaults. Default true."}"#,
                false,
            ),
            (
                "strict",
                r#"{"type": "boolean", "description": "Count warnings (repairs made to read the JSON, values coerced) as errors. Default false."}"#,
                false,
            ),
            (
                "hints",
                r#"{"type": "boolean", "description": "Add hints: how to fix each error. Default true."}"#,
                false,
            ),
        ],
    },
    Check {
        name: "schema_list",
        description: "The registered JSON Schemas: [{name, title, description}]. Read one in full as the resource schema://NAME.",
        parameters: &[],
    },
    Check {
        name: "detect",
        description: "Find the structured objects in a text: flexmd fences, FlexDocument JSON, FlexMD frames and Markdown snippets, each with its kind, span and content.",
        parameters: &[("text", TEXT, true)],
    },
];

/// The input schema of a check: an object of its parameters.
pub(crate) fn input_schema(check: &Check) -> Map<String, Value> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (name, schema, is_required) in check.parameters {
        properties.insert(
            (*name).to_owned(),
            serde_json::from_str(schema).unwrap_or(Value::Null),
        );
        if *is_required {
            required.push(json!(name));
        }
    }
    let mut schema = Map::new();
    schema.insert("type".to_owned(), json!("object"));
    schema.insert("properties".to_owned(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".to_owned(), Value::Array(required));
    }
    schema.insert("additionalProperties".to_owned(), json!(false));
    schema
}

/// A check's answer: the JSON it prints, and a note for the model when
/// there is something it should know beyond it.
pub(crate) struct Answer {
    pub(crate) value: Value,
    pub(crate) note: Option<String>,
}

impl From<Value> for Answer {
    fn from(value: Value) -> Self {
        Self { value, note: None }
    }
}

/// Runs the check `name`; an error is a message for the model.
pub(crate) fn run(
    check: &Check,
    args: &Map<String, Value>,
    registry: &Registry,
) -> Result<Answer, String> {
    let args = Args::check(check, args)?;
    let name = check.name;
    let to_value = |v: &dyn erased::Serialize| v.value(name);
    match name {
        "ofs_prompt" => Ok(Value::String(flexmd_ofs::prompt(&args.spec()?)).into()),
        "ofs_validate" => {
            let spec = args.spec()?;
            let mut report = flexmd_ofs::validate(args.text("response")?, &spec);
            if args.flag("strict", false)? {
                report = report.into_strict();
            }
            Ok(to_value(&report)?.into())
        }
        "ofs_extract" => {
            let spec = args.spec()?;
            let options = flexmd_ofs::ExtractOptions {
                lists_in_prose: args.flag("lists_in_prose", false)?,
            };
            let (mut report, extracted) =
                flexmd_ofs::check(args.text("response")?, &spec, &options);
            if args.flag("strict", false)? {
                report = report.into_strict();
            }
            let value = if args.flag("as_json", false)? {
                flexmd_ofs::to_json(&extracted, &spec)
            } else {
                to_value(&extracted)?
            };
            let note = (!report.ok).then(|| {
                format!(
                    "note: the answer does not follow the spec ({} errors, {} warnings); \
                     ofs_validate lists them",
                    report.errors.len(),
                    report.warnings.len()
                )
            });
            Ok(Answer { value, note })
        }
        "json_find" => {
            let text = args.text("text")?;
            let (all, repairs) = (args.flag("all", false)?, args.flag("repairs", false)?);
            let found: Vec<flexmd_detect::FoundJson> = if all {
                flexmd_detect::find_all_json(text)
            } else {
                flexmd_detect::find_json(text).into_iter().collect()
            };
            if found.is_empty() {
                return Err(flexmd_detect::not_json(text).map_or_else(
                    || "json_find: no JSON value found in the text".to_owned(),
                    |why| format!("json_find: {why}"),
                ));
            }
            let value = match (all, repairs) {
                (true, true) => to_value(&found)?,
                (false, true) => to_value(&found.first())?,
                (true, false) => Value::Array(found.into_iter().map(|f| f.value).collect()),
                (false, false) => found.into_iter().next().map_or(Value::Null, |f| f.value),
            };
            Ok(value.into())
        }
        "schema_validate" => schema_validate(&args, registry),
        "schema_list" => Ok(Value::Array(registry.summaries()).into()),
        "detect" => Ok(to_value(&flexmd_detect::detect_objects(args.text("text")?))?.into()),
        other => Err(format!("unknown tool `{other}`")),
    }
}

fn schema_validate(args: &Args<'_>, registry: &Registry) -> Result<Answer, String> {
    let name = "schema_validate";
    let schema = match (args.get("schema"), args.get("schema_name")) {
        (Some(schema), None) if schema.is_object() => schema.clone(),
        (Some(_), None) => return Err(format!("{name}: `schema` must be a JSON Schema object")),
        (None, Some(Value::String(schema_name))) => match registry.get(schema_name) {
            Some(schema) => schema.clone(),
            // An unknown schema is an invalid outcome, as the CLI gives it:
            // `{valid: false, errors: [{code: "schema_not_found"}]}`.
            None => {
                let outcome = registry.validate(schema_name, &Value::Null);
                return Ok(serialise(name, &outcome)?.into());
            }
        },
        (None, Some(_)) => return Err(format!("{name}: `schema_name` must be a string")),
        (Some(_), Some(_)) => {
            return Err(format!("{name}: give `schema` or `schema_name`, not both"));
        }
        (None, None) => {
            return Err(format!(
                "{name}: give `schema` (a JSON Schema) or `schema_name` (one of {})",
                registry.names().collect::<Vec<_>>().join(", ")
            ));
        }
    };
    let options = TransformOptions {
        coerce: args.flag("coerce", true)?,
        apply_defaults: args.flag("defaults", true)?,
    };
    let outcome = match args.get("data") {
        Some(Value::String(text)) => registry.validate_text(text, &schema, options),
        Some(value) => registry.validate_value(value, &schema, options),
        None => return Err(format!("{name}: `data` is required")),
    }
    .map_err(|e| format!("{name}: {e}"))?;
    let outcome = if args.flag("strict", false)? {
        outcome.into_strict()
    } else {
        outcome
    };
    let mut value = serialise(name, &outcome)?;
    if args.flag("hints", true)?
        && let Some(map) = value.as_object_mut()
    {
        let fixes = flexmd_schema::hints(&outcome.errors, &schema);
        map.insert("hints".to_owned(), serialise(name, &fixes)?);
    }
    Ok(value.into())
}

fn serialise(name: &str, value: &impl serde::Serialize) -> Result<Value, String> {
    serde_json::to_value(value).map_err(|e| format!("{name}: cannot write the result: {e}"))
}

/// `serde::Serialize` as a trait object, for one closure over many types.
mod erased {
    pub(super) trait Serialize {
        fn value(&self, name: &str) -> Result<serde_json::Value, String>;
    }

    impl<T: serde::Serialize> Serialize for T {
        fn value(&self, name: &str) -> Result<serde_json::Value, String> {
            super::serialise(name, self)
        }
    }
}

/// A check's arguments, known to be only its own parameters.
struct Args<'a> {
    check: &'a Check,
    map: &'a Map<String, Value>,
}

impl<'a> Args<'a> {
    fn check(check: &'a Check, map: &'a Map<String, Value>) -> Result<Self, String> {
        let known: Vec<&str> = check.parameters.iter().map(|(n, _, _)| *n).collect();
        if let Some(unknown) = map.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(format!(
                "{}: unknown argument `{unknown}`; the arguments are {}",
                check.name,
                if known.is_empty() {
                    "none (besides max_tokens and cursor)".to_owned()
                } else {
                    known.join(", ")
                }
            ));
        }
        for (name, _, required) in check.parameters {
            if *required && !map.contains_key(*name) {
                return Err(format!("{}: `{name}` is required", check.name));
            }
        }
        Ok(Self { check, map })
    }

    fn get(&self, name: &str) -> Option<&'a Value> {
        self.map.get(name)
    }

    fn text(&self, name: &str) -> Result<&'a str, String> {
        match self.map.get(name) {
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(format!(
                "{}: `{name}` must be a string (got {})",
                self.check.name,
                kind(other)
            )),
            None => Err(format!("{}: `{name}` is required", self.check.name)),
        }
    }

    fn flag(&self, name: &str, default: bool) -> Result<bool, String> {
        match self.map.get(name) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(format!(
                "{}: `{name}` must be true or false (got {})",
                self.check.name,
                kind(other)
            )),
        }
    }

    /// The spec, read from either form; why it is not one, otherwise.
    fn spec(&self) -> Result<flexmd_core::OutputFormatSpec, String> {
        let text = self.text("spec")?;
        flexmd_ofs::read_spec(text)
            .map(|parsed| parsed.value)
            .map_err(|e| {
                let help = miette::Diagnostic::help(&e)
                    .map(|h| format!(" ({h})"))
                    .unwrap_or_default();
                format!(
                    "{}: `spec` is not an Output Format Spec: {e}{help}",
                    self.check.name
                )
            })
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;

    fn call(name: &str, args: Value) -> Result<Answer, String> {
        let check = CHECKS.iter().find(|c| c.name == name).unwrap();
        run(check, args.as_object().unwrap(), &Registry::new())
    }

    const SPEC_MD: &str =
        "## Output format\n- Summary — prose. Two sentences.\n- Steps — ordered list.\n";

    #[test]
    fn every_parameter_schema_is_json() {
        for check in CHECKS {
            for (name, schema, _) in check.parameters {
                let value: Value = serde_json::from_str(schema)
                    .unwrap_or_else(|e| panic!("{}.{name}: {e}", check.name));
                assert!(value.get("description").is_some(), "{}.{name}", check.name);
            }
        }
    }

    #[test]
    fn ofs_checks_answer_as_the_cli_does() {
        let bad = call(
            "ofs_validate",
            json!({"spec": SPEC_MD, "response": "## Summary\nHi."}),
        )
        .unwrap()
        .value;
        assert_eq!(bad["ok"], json!(false));
        assert_eq!(bad["errors"], json!(["missing_section:Steps"]));
        assert_eq!(
            bad["details"]["errors"][0]["message"],
            json!("no section `Steps`: add a heading `## Steps`")
        );
        let good = "## Summary\nIt works. Really.\n\n## Steps\n1. one\n2. two\n";
        let extracted = call(
            "ofs_extract",
            json!({"spec": SPEC_MD, "response": good, "as_json": true}),
        )
        .unwrap();
        assert!(extracted.note.is_none());
        assert_eq!(extracted.value["Steps"], json!(["one", "two"]));
        let noted = call(
            "ofs_extract",
            json!({"spec": SPEC_MD, "response": "## Summary\nHi."}),
        )
        .unwrap();
        assert_eq!(
            noted.note.as_deref(),
            Some(
                "note: the answer does not follow the spec (1 errors, 0 warnings); ofs_validate lists them"
            )
        );
        let prompt = call("ofs_prompt", json!({"spec": SPEC_MD})).unwrap().value;
        assert!(prompt.as_str().unwrap().contains("Steps"));
    }

    #[test]
    fn bad_arguments_say_what_to_fix() {
        assert_eq!(
            call("ofs_prompt", json!({})).err().unwrap(),
            "ofs_prompt: `spec` is required"
        );
        assert_eq!(
            call("ofs_prompt", json!({"spec": SPEC_MD, "x": 1}))
                .err()
                .unwrap(),
            "ofs_prompt: unknown argument `x`; the arguments are spec"
        );
        assert_eq!(
            call("json_find", json!({"text": "x", "all": "yes"}))
                .err()
                .unwrap(),
            "json_find: `all` must be true or false (got a string)"
        );
        assert!(
            call("ofs_prompt", json!({"spec": "just prose"}))
                .err()
                .unwrap()
                .starts_with("ofs_prompt: `spec` is not an Output Format Spec: ")
        );
        assert_eq!(
            call("json_find", json!({"text": "no braces"}))
                .err()
                .unwrap(),
            "json_find: no JSON value found in the text"
        );
        assert!(
            call("schema_validate", json!({"data": 1}))
                .err()
                .unwrap()
                .starts_with(
                    "schema_validate: give `schema` (a JSON Schema) or `schema_name` (one of "
                )
        );
    }

    #[test]
    fn schema_validate_coerces_fills_and_hints() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}, "tag": {"type": "string", "default": "x"}}, "required": ["n"]});
        let ok = call(
            "schema_validate",
            json!({"schema": schema, "data": "```json\n{\"n\": \"3\"}\n```"}),
        )
        .unwrap()
        .value;
        assert_eq!(ok["valid"], json!(true));
        assert_eq!(ok["data"], json!({"n": 3, "tag": "x"}));
        let bad = call(
            "schema_validate",
            json!({"schema": schema, "data": {"tag": 1}}),
        )
        .unwrap()
        .value;
        assert_eq!(bad["valid"], json!(false));
        assert!(!bad["hints"].as_array().unwrap().is_empty());
        let unknown = call(
            "schema_validate",
            json!({"schema_name": "nope", "data": {}}),
        )
        .unwrap()
        .value;
        assert_eq!(unknown["errors"][0]["code"], json!("schema_not_found"));
        let list = call("schema_list", json!({})).unwrap().value;
        assert_eq!(list, Value::Array(Registry::new().summaries()));
    }
}
