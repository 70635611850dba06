//! `flexmd schema list|show|validate|create` and `flexmd run`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Subcommand};
use flexmd_constrain::{GrammarFormat, Provider};
use flexmd_schema::{
    CommandModel, Expected, FlowStep, Outcome, Registry, Retrier, RetryError, SchemaError,
    TransformOptions, ValidationSettings, check_schema_name, hints, infer_schema,
};
use serde_json::Value;

use crate::config::{ConfigArg, Setup, setup};
use crate::error::CliError;
use crate::input::{Input, Judged, each_input, read_text};
use crate::print_json;

/// How data is judged: each flag overrides the config's `validation` setting.
#[derive(Debug, Args)]
pub(crate) struct JudgeFlags {
    /// Coerce types ("42" to 42, "true" to true, a scalar to a list) where
    /// that makes the data valid (config `coerceTypes`, default on).
    #[arg(long, overrides_with = "no_coerce")]
    coerce: bool,
    /// Do not coerce types.
    #[arg(long)]
    no_coerce: bool,
    /// Fill in the schema's defaults (config `applyDefaults`, default on).
    #[arg(long, overrides_with = "no_defaults")]
    defaults: bool,
    /// Do not fill in defaults.
    #[arg(long)]
    no_defaults: bool,
    /// Count warnings (repairs made to read the JSON, values coerced) as
    /// errors; invalid data fails the command whatever the config says.
    #[arg(long, overrides_with = "no_strict")]
    strict: bool,
    /// Report violations as warnings, print the data anyway and exit 0
    /// (config `strict: false`; by default invalid data fails, exit 1).
    #[arg(long)]
    no_strict: bool,
}

/// How strictly data is judged.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Strictness {
    /// Invalid data fails the command (exit 1).
    pub(crate) fail_on_invalid: bool,
    /// Warnings count as errors.
    pub(crate) warnings_are_errors: bool,
}

impl JudgeFlags {
    /// The transformation and strictness: flags over the config.
    fn resolve(&self, settings: &ValidationSettings) -> (TransformOptions, Strictness) {
        let pick = |on: bool, off: bool, config: bool| {
            if on {
                true
            } else if off {
                false
            } else {
                config
            }
        };
        (
            TransformOptions {
                coerce: pick(self.coerce, self.no_coerce, settings.coerce_types),
                apply_defaults: pick(self.defaults, self.no_defaults, settings.apply_defaults),
            },
            Strictness {
                fail_on_invalid: pick(self.strict, self.no_strict, settings.strict),
                warnings_are_errors: self.strict,
            },
        )
    }
}

#[derive(Debug, Subcommand)]
pub(crate) enum SchemaCommand {
    /// List the schemas: the five predefined and any in the custom directory.
    List,
    /// Print a schema as JSON.
    Show {
        /// The schema's name.
        name: String,
    },
    /// Validate data (JSON, or a model's answer holding JSON) against a
    /// schema: exit 0 valid, 1 invalid (or an unknown schema). The valid
    /// data (coerced, defaults filled) goes to stdout, problems to stderr;
    /// with --json, the outcome {valid, data, errors, warnings, changes}.
    Validate {
        /// A registered schema's name, or a schema file.
        #[arg(long, required_unless_present = "agent", conflicts_with = "agent")]
        schema: Option<String>,
        /// An agent's name (such as `code-reviewer`): its schema is the one
        /// the settings file's `agentDefaults` maps it to.
        #[arg(long)]
        agent: Option<String>,
        /// The data files; standard input when none or `-`.
        data: Vec<PathBuf>,
        /// Read the data as JSON Lines and validate every record, on all
        /// cores, one result line per record in input order (the default
        /// for files ending in .jsonl or .ndjson).
        #[arg(long)]
        jsonl: bool,
        /// With JSON Lines: validate this field of each record instead of
        /// the whole record. A string there is a model's answer (the JSON
        /// in it is validated); any other value is the data itself.
        #[arg(long, value_name = "NAME")]
        field: Option<String>,
        /// With JSON Lines: how many threads work (default: one per core).
        #[arg(long, value_name = "N")]
        jobs: Option<usize>,
        #[command(flatten)]
        judge: JudgeFlags,
        /// Say how to fix each error.
        #[arg(long)]
        hints: bool,
        /// The data is a provider's answer to the schema `schema export
        /// --for PROVIDER` made: read it back in the schema's shape first
        /// (the nulls OpenAI sends for omitted optional properties removed),
        /// so every constraint the provider did not enforce is checked.
        #[arg(long, value_name = "PROVIDER", value_parser = provider_parser())]
        from: Option<Provider>,
    },
    /// Print the request fragment that makes a provider constrain its
    /// answer to a schema: OpenAI `response_format` (strict) or a strict
    /// tool, Anthropic `output_config.format` or a strict tool, Gemini
    /// `responseJsonSchema`. The schema is rewritten into the subset the
    /// provider takes; what it will not enforce is noted on stderr (with
    /// --json, every change is in `changes`). Validate the answer with
    /// `schema validate --from PROVIDER` to check the rest.
    Export {
        /// A registered schema's name, or a schema file.
        schema: String,
        /// The provider mode (`-tool`: a strict tool the request forces).
        #[arg(long = "for", value_name = "PROVIDER", value_parser = provider_parser())]
        provider: Provider,
        /// The name the request gives the schema or tool (default: the
        /// schema's name, or the file's stem).
        #[arg(long)]
        name: Option<String>,
    },
    /// Infer a schema from an example JSON file and save it as NAME.json in
    /// the custom schema directory.
    Create {
        /// The new schema's name: letters, digits, `_` and `-`.
        name: String,
        /// The example JSON (or a model's answer holding it).
        #[arg(long)]
        from_example: PathBuf,
        /// Replace an existing file, or shadow a predefined schema of that name.
        #[arg(long)]
        force: bool,
    },
}

/// `flexmd run` arguments.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("expected").required(true).args(["schema", "spec", "agent", "step"])))]
pub(crate) struct RunArgs {
    /// The answer must be JSON matching this schema (a name or a file).
    #[arg(long)]
    schema: Option<String>,
    /// The answer must be Markdown following this Output Format Spec.
    #[arg(long)]
    spec: Option<PathBuf>,
    /// The answer must match this agent's schema (the config's `agentDefaults`).
    #[arg(long)]
    agent: Option<String>,
    /// A step of an agent workflow, as a JSON file (`agent`,
    /// `outputSchema`, and `config` with `retryOnSchemaError` and
    /// `maxSchemaRetries`): the schema and the retries it sets.
    #[arg(long, value_name = "STEP_JSON")]
    step: Option<PathBuf>,
    #[command(flatten)]
    judge: JudgeFlags,
    /// The model: a command run by `sh -c`, prompt on stdin, answer on stdout.
    #[arg(long)]
    llm_cmd: String,
    /// Retries after the first attempt (default: the flow step's
    /// maxSchemaRetries, else the config's maxRetries, 2; 0 when retrying
    /// is off there).
    #[arg(long)]
    max_retries: Option<usize>,
    /// Seconds one answer may take.
    #[arg(long, default_value_t = 300)]
    timeout: u64,
    /// The most tokens (o200k_base) all prompts and answers may use
    /// together; a prompt that would pass it is not sent.
    #[arg(long)]
    max_tokens_total: Option<usize>,
    /// On a retry, ask only for the failing top-level fields of an object
    /// answer and merge them into the last answer.
    #[arg(long)]
    patch: bool,
    /// The prompt text.
    #[arg(long, conflicts_with = "prompt_file")]
    prompt: Option<String>,
    /// Read the prompt from this file (`-` for standard input; standard
    /// input is the default when neither --prompt nor --prompt-file is given).
    #[arg(long, value_name = "FILE")]
    prompt_file: Option<PathBuf>,
}

/// `flexmd grammar` arguments.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("shape").required(true).args(["schema", "spec"])))]
pub(crate) struct GrammarArgs {
    /// The JSON Schema: a registered schema's name, or a schema file.
    #[arg(long)]
    schema: Option<String>,
    /// The Output Format Spec (its Markdown block, or its JSON): the grammar
    /// admits answers in one canonical layout that `validate --strict`
    /// accepts, sections in the spec's order.
    #[arg(long, value_name = "SPEC")]
    spec: Option<PathBuf>,
    /// The dialect: lark (llguidance), gbnf (llama.cpp), ebnf (XGrammar),
    /// regex (Outlines).
    #[arg(long, value_name = "FORMAT", value_parser = format_parser())]
    format: GrammarFormat,
    /// With --spec: the level of the section headings.
    #[arg(long, value_name = "N", default_value_t = 2)]
    heading_level: u8,
    /// With --spec: allow a leading `<think>` block of at most N lines (for
    /// reasoning models).
    #[arg(long, value_name = "LINES")]
    think: Option<u32>,
    /// With --spec: at most N items in a list section (and a numbered list
    /// numbered 1 to N in order).
    #[arg(long, value_name = "N")]
    max_items: Option<u32>,
    /// With --spec: at most N rows in a table (and an ordered table's `#`
    /// numbered 1 to N in order).
    #[arg(long, value_name = "N")]
    max_rows: Option<u32>,
}

/// The grammar format names, checked by clap.
fn format_parser() -> impl TypedValueParser<Value = GrammarFormat> {
    PossibleValuesParser::new(GrammarFormat::ALL.map(GrammarFormat::name))
        .try_map(|name| name.parse::<GrammarFormat>())
}

/// `flexmd grammar`: the grammar on stdout, what it leaves to validation on
/// stderr (or everything as JSON).
pub(crate) fn grammar(
    args: GrammarArgs,
    config: &ConfigArg,
    json: bool,
) -> Result<ExitCode, CliError> {
    let spec_only = args.heading_level != 2
        || args.think.is_some()
        || args.max_items.is_some()
        || args.max_rows.is_some();
    if args.schema.is_some() && spec_only {
        return Err(CliError::Usage(
            "--heading-level, --think, --max-items and --max-rows shape a Markdown answer: they go with --spec".to_owned(),
        ));
    }
    let grammar = match (&args.schema, &args.spec) {
        (_, Some(spec)) => {
            let spec = crate::ofs::read_spec(spec)?;
            let options = flexmd_constrain::SpecGrammarOptions {
                heading_level: args.heading_level,
                think_lines: args.think,
                max_items: args.max_items,
                max_rows: args.max_rows,
            };
            flexmd_constrain::spec_grammar(&spec, args.format, &options)?
        }
        (Some(schema), None) => {
            let Setup { registry, .. } = setup(config)?;
            let schema = schema_for(&registry, schema)?;
            flexmd_constrain::schema_grammar(&schema, args.format)?
        }
        (None, None) => return Err(CliError::Usage("give --schema or --spec".to_owned())),
    };
    if json {
        print_json(&grammar)?;
        return Ok(ExitCode::SUCCESS);
    }
    for place in grammar.unenforced() {
        let at = if place.place.is_empty() {
            "root"
        } else {
            &place.place
        };
        eprintln!(
            "note: {at}: left to validation: {}",
            place.unenforced.join(", ")
        );
    }
    print!("{}", grammar.grammar);
    Ok(ExitCode::SUCCESS)
}

/// The provider names, checked by clap (and listed in `--help`).
fn provider_parser() -> impl TypedValueParser<Value = Provider> {
    PossibleValuesParser::new(Provider::ALL.map(Provider::name))
        .try_map(|name| name.parse::<Provider>())
}

/// A registered name, or else a schema file.
fn schema_for(registry: &Registry, name_or_path: &str) -> Result<Value, CliError> {
    if let Some(schema) = registry.get(name_or_path) {
        return Ok(schema.clone());
    }
    let path = Path::new(name_or_path);
    if path.is_file() {
        return read_text(Some(path))?.json();
    }
    Err(SchemaError::NotFound {
        name: name_or_path.to_owned(),
        known: registry.names().collect::<Vec<_>>().join(", "),
    }
    .into())
}

pub(crate) fn run(
    command: SchemaCommand,
    config: &ConfigArg,
    json: bool,
) -> Result<ExitCode, CliError> {
    let Setup { project, registry } = setup(config)?;
    match command {
        SchemaCommand::List => {
            print_json(&registry.summaries())?;
            Ok(ExitCode::SUCCESS)
        }
        SchemaCommand::Show { name } => {
            print_json(&schema_for(&registry, &name)?)?;
            Ok(ExitCode::SUCCESS)
        }
        SchemaCommand::Validate {
            schema,
            agent,
            data,
            jsonl,
            field,
            jobs,
            judge,
            hints: want_hints,
            from,
        } => {
            let name = match (&schema, &agent) {
                (Some(schema), _) => schema.as_str(),
                (None, Some(agent)) => project.schema_for_agent(agent)?,
                (None, None) => return Err(CliError::Usage("give --schema or --agent".to_owned())),
            };
            let schema = match schema_for(&registry, name) {
                Ok(schema) => schema,
                // An unknown schema is an invalid result, as in flex-md:
                // `{valid: false, errors: [{code: "schema_not_found"}]}`.
                Err(CliError::Schema(err @ SchemaError::NotFound { .. })) => {
                    if json {
                        print_json(&registry.validate(name, &Value::Null))?;
                    } else {
                        eprintln!("{:?}", miette::Report::new(err));
                    }
                    return Ok(ExitCode::from(1));
                }
                Err(e) => return Err(e),
            };
            let (options, strictness) = judge.resolve(&project.config.schemas.validation);
            let judge = Judge {
                registry: &registry,
                schema: &schema,
                options,
                strictness,
                hints: want_hints,
                json,
                from,
            };
            let is_jsonl = |p: &PathBuf| {
                matches!(
                    p.extension().and_then(|e| e.to_str()),
                    Some("jsonl" | "ndjson")
                )
            };
            if jsonl || (!data.is_empty() && data.iter().all(is_jsonl)) {
                if from.is_some() {
                    return Err(CliError::Usage(
                        "--from reads one answer a file; it does not take JSON Lines".to_owned(),
                    ));
                }
                return judge.records(&data, field, jobs);
            }
            if field.is_some() || jobs.is_some() {
                return Err(CliError::Usage(
                    "--field and --jobs apply to JSON Lines data: add --jsonl".to_owned(),
                ));
            }
            each_input(&data, |input| judge.one(input))
        }
        SchemaCommand::Export {
            schema: which,
            provider,
            name,
        } => {
            let schema = schema_for(&registry, &which)?;
            let name = name.unwrap_or_else(|| {
                Path::new(&which)
                    .file_stem()
                    .map(|s| s.to_string_lossy().trim_end_matches(".schema").to_owned())
                    .unwrap_or(which.clone())
            });
            let export = flexmd_constrain::export(&schema, provider, &name)?;
            if json {
                print_json(&export)?;
            } else {
                for change in export.unenforced() {
                    let at = if change.pointer.is_empty() {
                        "root"
                    } else {
                        &change.pointer
                    };
                    eprintln!("note: {at}: {}", change.detail);
                }
                if export.unenforced().next().is_some() {
                    eprintln!(
                        "note: `flexmd schema validate --schema {which} --from {provider}` on the answer checks these"
                    );
                }
                print_json(&export.request)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        SchemaCommand::Create {
            name,
            from_example,
            force,
        } => {
            check_schema_name(&name)?;
            // A predefined schema is replaced only on purpose.
            if Registry::new().get(&name).is_some() && !force {
                return Err(CliError::Usage(format!(
                    "`{name}` is a predefined schema; pass --force to replace it with your own"
                )));
            }
            let input = read_text(Some(&from_example))?;
            let Some(example) = found_value(&input) else {
                eprintln!("no JSON value found in {}", input.name);
                return Ok(ExitCode::from(1));
            };
            let schema = infer_schema(&name, &example);
            let dir = &project.custom_schema_dir();
            let path = dir.join(format!("{name}.json"));
            if path.exists() && !force {
                return Err(CliError::Exists(path));
            }
            let io = |source| SchemaError::Io {
                path: path.clone(),
                source,
            };
            std::fs::create_dir_all(dir).map_err(io)?;
            let mut text = serde_json::to_string_pretty(&schema).map_err(CliError::Serialize)?;
            text.push('\n');
            std::fs::write(&path, text).map_err(io)?;
            // Shown relative to here when it is below here.
            let here = std::env::current_dir().unwrap_or_default();
            println!("{}", path.strip_prefix(&here).unwrap_or(&path).display());
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// What `schema validate` judges with.
struct Judge<'a> {
    registry: &'a Registry,
    schema: &'a Value,
    options: TransformOptions,
    strictness: Strictness,
    hints: bool,
    json: bool,
    /// The data is this provider's answer: map it back first.
    from: Option<Provider>,
}

impl Judge<'_> {
    /// The outcome for a text, strict if asked.
    fn outcome(&self, outcome: Outcome) -> Outcome {
        if self.strictness.warnings_are_errors {
            outcome.into_strict()
        } else {
            outcome
        }
    }

    /// The outcome as JSON, with hints when asked.
    fn outcome_json(&self, outcome: &Outcome) -> Value {
        outcome_json(outcome, self.hints.then_some(self.schema))
    }

    /// The exit code for an outcome.
    fn code(&self, outcome: &Outcome) -> u8 {
        u8::from(!outcome.valid && self.strictness.fail_on_invalid)
    }

    /// One JSON value in a text.
    fn one(&self, input: &Input) -> Result<Judged, CliError> {
        let mut nulls_removed = Vec::new();
        let outcome = if self.from.is_some() {
            let checked = flexmd_constrain::validate_text_from(
                self.registry,
                self.schema,
                &input.text,
                self.options,
            )?;
            nulls_removed = checked.nulls_removed;
            checked.outcome
        } else {
            self.registry
                .validate_text(&input.text, self.schema, self.options)?
        };
        let outcome = self.outcome(outcome);
        let code = self.code(&outcome);
        if self.json {
            let mut report = self.outcome_json(&outcome);
            if let (Some(map), Some(_)) = (report.as_object_mut(), self.from) {
                map.insert("nullsRemoved".to_owned(), serde_json::json!(nulls_removed));
            }
            return Ok(Judged {
                result: Some(crate::output::rendered(report)),
                code,
            });
        }
        for pointer in &nulls_removed {
            eprintln!(
                "note: {pointer}: null removed (the provider's stand-in for an omitted property)"
            );
        }
        self.report(input, &outcome);
        let data = match (outcome.data, self.strictness.fail_on_invalid) {
            (Some(data), _) => Some(crate::output::rendered(data)),
            // Not strict: the data as found, its violations warnings.
            (None, false) => {
                flexmd_detect::find_json(&input.text).map(|f| crate::output::rendered(f.value))
            }
            (None, true) => None,
        };
        Ok(Judged { result: data, code })
    }

    /// Every record of JSON Lines files, on all cores: one result line per
    /// record (with `--json` the outcome, else the valid data; problems on
    /// stderr, one line each).
    fn records(
        &self,
        files: &[PathBuf],
        field: Option<String>,
        jobs: Option<usize>,
    ) -> Result<ExitCode, CliError> {
        let validator = self.registry.record_validator(self.schema, self.options)?;
        let (schema, strictness, want_hints, json) =
            (self.schema.clone(), self.strictness, self.hints, self.json);
        crate::batch::run(files, jobs, !json, move |record| {
            let outcome = match &field {
                None => validator.validate_record(record.line, &record.text).outcome,
                Some(name) => {
                    let value = match record.value()? {
                        Value::Object(mut map) => map.remove(name).ok_or_else(|| {
                            flexmd_batch::RecordError::MissingField {
                                line: record.line,
                                field: name.clone(),
                            }
                        })?,
                        // Not an object: the record is the data.
                        other => other,
                    };
                    match value {
                        Value::String(answer) => validator.validate_text(&answer),
                        value => validator.validate_value(&value),
                    }
                }
            };
            let outcome = if strictness.warnings_are_errors {
                outcome.into_strict()
            } else {
                outcome
            };
            let code = u8::from(!outcome.valid && strictness.fail_on_invalid);
            if json {
                let report = outcome_json(&outcome, want_hints.then_some(&schema));
                return Ok(crate::batch::Emitted::result(
                    crate::batch::object(report),
                    code,
                ));
            }
            let level = if strictness.fail_on_invalid {
                "error"
            } else {
                "warning"
            };
            // Without --field, positions are in the file; with it, in the
            // field's text, after the record's line.
            let place = |v: &flexmd_schema::Violation| match (&field, v.line, v.column) {
                (None, Some(line), Some(column)) => format!("{line}:{column}"),
                (Some(name), Some(line), Some(column)) => {
                    format!("{}: {name} {line}:{column}", record.line)
                }
                _ => record.line.to_string(),
            };
            let fixes = if want_hints {
                hints(&outcome.errors, &schema)
            } else {
                Vec::new()
            };
            let mut note = String::new();
            for (i, e) in outcome.errors.iter().enumerate() {
                let at = if e.path.is_empty() { "root" } else { &e.path };
                note.push_str(&format!(
                    "{}: {level}[{}]: {at}: {}",
                    place(e),
                    e.code,
                    e.message
                ));
                if let Some(fix) = fixes.get(i) {
                    note.push_str(&format!(" (hint: {})", fix.hint));
                }
                note.push('\n');
            }
            for w in &outcome.warnings {
                note.push_str(&format!(
                    "{}: warning[{}]: {}\n",
                    place(w),
                    w.code,
                    w.message
                ));
            }
            let data = match (outcome.data, strictness.fail_on_invalid) {
                (Some(data), _) => Some(data),
                // Not strict: the record as read, its violations warnings.
                (None, false) => flexmd_detect::find_json(&record.text).map(|f| f.value),
                (None, true) => None,
            };
            Ok(crate::batch::Emitted {
                printed: data.map(crate::batch::Printed::Bare),
                note,
                code,
            })
        })
    }

    /// An outcome's changes, errors and warnings on stderr, with snippets.
    fn report(&self, input: &Input, outcome: &Outcome) {
        for change in &outcome.changes {
            if change.kind == flexmd_schema::ChangeKind::Default {
                let place = if change.path.is_empty() {
                    "root"
                } else {
                    &change.path
                };
                eprintln!("note: default for {place}: {}", change.to);
            }
        }
        let level = if self.strictness.fail_on_invalid {
            flexmd_core::Severity::Error
        } else {
            flexmd_core::Severity::Warning
        };
        let index = flexmd_core::LineIndex::new(&input.text);
        let fixes = hints(&outcome.errors, self.schema);
        let diagnostic = |v: &flexmd_schema::Violation, severity, hint: Option<&str>| {
            let at = crate::input::offset_at(&input.text, v.line, v.column);
            let place = if v.path.is_empty() { "root" } else { &v.path };
            let mut message = format!("{place}: {}", v.message);
            if let Some(hint) = hint {
                message.push_str(&format!(" (hint: {hint})"));
            }
            flexmd_core::Diagnostic::new(
                format!("schema::{}", v.code),
                severity,
                message,
                at..at,
                &index,
            )
        };
        let mut all: Vec<flexmd_core::Diagnostic> = outcome
            .errors
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let hint = self
                    .hints
                    .then(|| fixes.get(i).map(|f| f.hint.as_str()))
                    .flatten();
                diagnostic(e, level, hint)
            })
            .chain(
                outcome
                    .warnings
                    .iter()
                    .map(|w| diagnostic(w, flexmd_core::Severity::Warning, None)),
            )
            .collect();
        all.sort_by_key(|d| d.span.start);
        input.report(&all);
        if outcome.errors_limited {
            eprintln!(
                "… only the first error was looked for: the data has more than {} values",
                flexmd_schema::MAX_VALUES_FOR_ALL_ERRORS
            );
        }
        if let Some(total) = outcome.errors_total {
            eprintln!(
                "… and {} more errors ({total} in all; the first {} are listed)",
                total - outcome.errors.len(),
                outcome.errors.len()
            );
        }
    }
}

/// An outcome as JSON, with hints for its errors when `schema` is given.
fn outcome_json(outcome: &Outcome, hints_from: Option<&Value>) -> Value {
    let mut report = serde_json::to_value(outcome).unwrap_or_default();
    if let Some(schema) = hints_from
        && let Some(map) = report.as_object_mut()
    {
        let fixes = hints(&outcome.errors, schema);
        map.insert(
            "hints".to_owned(),
            serde_json::to_value(&fixes).unwrap_or_default(),
        );
    }
    report
}

/// The JSON value in an input (found leniently), its repairs noted on stderr.
fn found_value(input: &Input) -> Option<Value> {
    let found = flexmd_detect::find_json(&input.text)?;
    input.report_repairs(found.repairs.iter());
    Some(found.value)
}

pub(crate) fn run_model(args: RunArgs, config: &ConfigArg) -> Result<ExitCode, CliError> {
    let Setup { project, registry } = setup(config)?;
    let validation = &project.config.schemas.validation;
    let step: Option<FlowStep> = match &args.step {
        Some(path) => Some(read_text(Some(path))?.json()?),
        None => None,
    };
    let expected = match (&args.schema, &args.spec, &args.agent, &step) {
        (Some(schema), ..) => Expected::Schema(schema_for(&registry, schema)?),
        (None, Some(spec), ..) => Expected::Spec(crate::ofs::read_spec(spec)?),
        (None, None, Some(agent), _) => {
            Expected::Schema(schema_for(&registry, project.schema_for_agent(agent)?)?)
        }
        (None, None, None, Some(step)) => {
            Expected::Schema(schema_for(&registry, step.schema(&project)?)?)
        }
        (None, None, None, None) => {
            return Err(CliError::Usage(
                "give --schema, --spec, --agent or --step".to_owned(),
            ));
        }
    };
    let prompt = match (args.prompt, &args.prompt_file) {
        (Some(prompt), _) => prompt,
        (None, file) => read_text(file.as_deref())?.text,
    };
    let (options, strictness) = args.judge.resolve(validation);
    let strict = strictness.fail_on_invalid;
    let configured_retries = match &step {
        Some(step) => step.max_retries(&project),
        None if validation.retry_on_error => validation.max_retries,
        None => 0,
    };
    let mut retrier = Retrier::new(&registry, expected);
    retrier.max_retries = args
        .max_retries
        .unwrap_or_else(|| usize::try_from(configured_retries).unwrap_or(usize::MAX));
    retrier.options = options;
    retrier.max_tokens_total = args.max_tokens_total;
    retrier.count_tokens =
        |text| flexmd_artifact::count_tokens(text.as_bytes(), flexmd_artifact::Encoding::O200kBase);
    retrier.patch = args.patch;
    retrier.strict = strictness.warnings_are_errors;
    let mut model = CommandModel {
        command: args.llm_cmd,
        timeout: Duration::from_secs(args.timeout),
    };
    match retrier.run(&mut model, &prompt) {
        Ok(accepted) => {
            if accepted.attempts.len() > 1 {
                let tokens: Vec<String> = accepted
                    .attempts
                    .iter()
                    .map(|a| format!("{} + {}", a.prompt_tokens, a.answer_tokens))
                    .collect();
                eprintln!(
                    "valid on attempt {} (tokens per attempt, prompt + answer: {})",
                    accepted.attempts.len(),
                    tokens.join(", ")
                );
            }
            print_json(&accepted.data)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(err @ RetryError::Exhausted { .. }) => {
            let RetryError::Exhausted {
                attempts,
                best,
                tokens_used,
                ..
            } = &err
            else {
                return Err(CliError::Retry(Box::new(err)));
            };
            for (i, attempt) in attempts.iter().enumerate() {
                eprintln!(
                    "attempt {}{} ({} + {} tokens):",
                    i + 1,
                    if attempt.patch { ", patch" } else { "" },
                    attempt.prompt_tokens,
                    attempt.answer_tokens
                );
                for error in &attempt.errors {
                    let place = if error.path.is_empty() {
                        "root"
                    } else {
                        &error.path
                    };
                    eprintln!("  {place}: {} [{}]", error.message, error.code);
                }
            }
            eprintln!("{err} ({tokens_used} tokens)");
            // The closest the model came, for the caller to use or show.
            let printed = if let (Some(b), Some(data)) =
                (best, err.best_attempt().and_then(|a| a.data.as_ref()))
            {
                eprintln!(
                    "printing the best attempt ({}), which still has the errors above",
                    b + 1
                );
                print_json(data)?;
                true
            } else {
                false
            };
            // Not strict: the best attempt is the answer, its errors warnings.
            Ok(if printed && !strict {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Err(e) => Err(CliError::Retry(Box::new(e))),
    }
}
