//! `flexmd detect`, `flexmd parse-any`, `flexmd json`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use flexmd_core::{Diagnostic, LineIndex, Severity};
use flexmd_detect::{FoundJson, detect_objects, find_all_json, find_json, parse_any};

use flexmd_schema::{AlignError, Preset, Target};

use crate::error::CliError;
use crate::input::{Judged, each_input, read_text};
use crate::output::rendered;
use crate::print_json;

/// `flexmd detect`: the objects found, as JSON; exit 1 when there are none.
pub(crate) fn detect(file: Option<&Path>) -> Result<ExitCode, CliError> {
    let input = read_text(file)?;
    let objects = detect_objects(&input.text);
    print_json(&objects)?;
    Ok(found_code(!objects.is_empty()))
}

/// `flexmd parse-any`: ParseAnyResult JSON; FlexMD diagnostics on stderr.
pub(crate) fn parse_any_command(file: Option<&Path>) -> Result<ExitCode, CliError> {
    let input = read_text(file)?;
    input.print_parsed(&parse_any(&input.text))
}

/// `flexmd json`: the value (or values) found in each file; the repairs on
/// stderr, or with `--repairs` in the output. Exit 1 when nothing is found.
pub(crate) fn json(files: &[PathBuf], all: bool, repairs: bool) -> Result<ExitCode, CliError> {
    each_input(files, |input| {
        let found: Vec<FoundJson> = if all {
            find_all_json(&input.text)
        } else {
            find_json(&input.text).into_iter().collect()
        };
        if found.is_empty() {
            explain_nothing_found(input);
            return Ok(Judged {
                result: None,
                code: 1,
            });
        }
        if !repairs {
            input.report_repairs(found.iter().flat_map(|f| &f.repairs));
        }
        if !all && found.iter().any(|f| f.in_reasoning) {
            eprintln!(
                "{}: warning: the only JSON is inside a reasoning block (<think>…): a draft, not an answer",
                input.name
            );
        }
        let result = match (all, repairs) {
            (true, true) => rendered(found),
            (false, true) => rendered(found.into_iter().next()),
            (true, false) => rendered(found.into_iter().map(|f| f.value).collect::<Vec<_>>()),
            (false, false) => rendered(found.into_iter().next().map(|f| f.value)),
        };
        Ok(Judged {
            result: Some(result),
            code: 0,
        })
    })
}

/// `flexmd json --jsonl`: the JSON in every record's answer, on all cores;
/// one line per record: `ok` (whether a value was found) and `result`, what
/// `flexmd json` prints for one answer with the same flags (`null`, or `[]`
/// with `--all`, when there is none).
pub(crate) fn json_batch(
    files: &[PathBuf],
    all: bool,
    repairs: bool,
    args: &crate::batch::BatchArgs,
) -> Result<ExitCode, CliError> {
    let field = args.field.clone();
    crate::batch::run(files, args.jobs, false, move |record| {
        let answer = record.answer(&field)?;
        let found: Vec<FoundJson> = if all {
            find_all_json(&answer)
        } else {
            find_json(&answer).into_iter().collect()
        };
        let ok = !found.is_empty();
        let result = match (all, repairs) {
            (true, true) => serde_json::to_value(&found).unwrap_or_default(),
            (false, true) => serde_json::to_value(found.first()).unwrap_or_default(),
            (true, false) => serde_json::Value::Array(found.into_iter().map(|f| f.value).collect()),
            (false, false) => found
                .into_iter()
                .next()
                .map_or(serde_json::Value::Null, |f| f.value),
        };
        let fields = serde_json::Map::from_iter([
            ("ok".to_owned(), serde_json::Value::Bool(ok)),
            ("result".to_owned(), result),
        ]);
        Ok(crate::batch::Emitted::result(fields, u8::from(!ok)))
    })
}

/// `flexmd json --schema`: the value that fits the schema best, coerced;
/// repairs, coercions, dropped parts and violations on stderr (or, with
/// `--repairs`, the whole report on stdout). Exit 1 when the value still
/// violates the schema or nothing fits.
pub(crate) fn json_as(
    files: &[PathBuf],
    schema: &str,
    preset: Preset,
    report: bool,
    config: &crate::config::ConfigArg,
) -> Result<ExitCode, CliError> {
    let registry = crate::config::setup(config)?.registry;
    let schema = SchemaArg::resolve(schema, &registry)?;
    let target = schema.target();
    each_input(files, |input| {
        let aligned = match registry.find_json_as(&input.text, target, preset) {
            Ok(aligned) => aligned,
            Err(AlignError::Schema(message)) => return Err(CliError::Usage(message)),
            Err(e) => {
                eprintln!("{:?}", miette::Report::new(e));
                return Ok(Judged {
                    result: None,
                    code: 1,
                });
            }
        };
        let code = u8::from(!aligned.valid);
        let result = if report {
            rendered(aligned)
        } else {
            report_aligned(input, &aligned);
            rendered(aligned.value)
        };
        Ok(Judged {
            result: Some(result),
            code,
        })
    })
}

/// What `--schema` names: a registered schema, a JSON Schema file, or an
/// Output Format Spec file (Markdown, or OutputFormatSpec JSON).
pub(crate) enum SchemaArg {
    /// A registered schema's name.
    Named(String),
    /// A JSON Schema read from a file.
    Schema(serde_json::Value),
    /// An Output Format Spec read from a file.
    Spec(flexmd_ofs::OutputFormatSpec),
}

impl SchemaArg {
    /// `--schema`'s value: a name registered in `registry`, else a file.
    pub(crate) fn resolve(
        schema: &str,
        registry: &flexmd_schema::Registry,
    ) -> Result<Self, CliError> {
        if registry.get(schema).is_some() {
            return Ok(Self::Named(schema.to_owned()));
        }
        let path = Path::new(schema);
        if !path.is_file() {
            return Err(flexmd_schema::SchemaError::NotFound {
                name: schema.to_owned(),
                known: registry.names().collect::<Vec<_>>().join(", "),
            }
            .into());
        }
        let text = read_text(Some(path))?;
        if text.text.trim_start().starts_with('{') {
            let value = text.json::<serde_json::Value>()?;
            // OutputFormatSpec JSON is a spec, not a JSON Schema.
            if !is_spec_json(&value) {
                return Ok(Self::Schema(value));
            }
        }
        Ok(Self::Spec(crate::ofs::read_spec(path)?))
    }

    /// The target to fit answers to.
    pub(crate) fn target(&self) -> Target<'_> {
        match self {
            Self::Named(name) => Target::Named(name),
            Self::Schema(schema) => Target::Schema(schema),
            Self::Spec(spec) => Target::Spec(spec),
        }
    }
}

/// A schema-aligned reading's repairs, coercions, dropped parts and
/// violations on stderr.
fn report_aligned(input: &crate::input::Input, aligned: &flexmd_schema::Aligned) {
    input.report_repairs(aligned.repairs.iter());
    for c in aligned.coercions.iter().take(crate::input::MAX_PRINTED) {
        let place = if c.pointer.is_empty() {
            "/"
        } else {
            &c.pointer
        };
        let show =
            |v: &Option<serde_json::Value>| v.as_ref().map_or("-".to_owned(), ToString::to_string);
        eprintln!(
            "note: {place}: {} -> {} ({})",
            show(&c.before),
            show(&c.after),
            serde_json::to_value(c.rule)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default()
        );
    }
    if let Some(more) = aligned
        .coercions
        .len()
        .checked_sub(crate::input::MAX_PRINTED)
        .filter(|&m| m > 0)
    {
        eprintln!("note: … and {more} more coercions (--repairs lists them all)");
    }
    for d in &aligned.dropped {
        eprintln!("warning: dropped {}: {} ({})", d.pointer, d.value, d.reason);
    }
    for e in &aligned.errors {
        let place = if e.path.is_empty() { "root" } else { &e.path };
        eprintln!("error: {place}: {} [{}]", e.message, e.code);
    }
}

fn found_code(found: bool) -> ExitCode {
    if found {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Says that nothing was found; when the whole input looks like one JSON
/// value, also why it could not be read.
fn explain_nothing_found(input: &crate::input::Input) {
    if let Some(why) = flexmd_detect::not_json(&input.text) {
        let index = LineIndex::new(&input.text);
        let diagnostic = Diagnostic::new(
            "detect::not_json",
            Severity::Error,
            why.to_string(),
            why.offset..why.offset,
            &index,
        );
        input.report(&[diagnostic]);
    } else {
        eprintln!("no JSON value found in {}", input.name);
    }
}

/// Whether JSON is an OutputFormatSpec rather than a JSON Schema: it says
/// so (`descriptorType`), or it lists `sections` and has none of a schema's
/// keywords.
fn is_spec_json(value: &serde_json::Value) -> bool {
    value.get("descriptorType").and_then(|d| d.as_str()) == Some("output_format_spec")
        || (value
            .get("sections")
            .is_some_and(serde_json::Value::is_array)
            && [
                "$schema",
                "type",
                "properties",
                "$ref",
                "allOf",
                "anyOf",
                "oneOf",
            ]
            .iter()
            .all(|k| value.get(k).is_none()))
}
