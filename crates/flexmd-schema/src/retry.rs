//! Retry with hints: ask a model, check its answer, and on failure ask again
//! with precise corrections (elsabro's `executeAgentWithSchema`).

use std::borrow::Cow;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use flexmd_core::OutputFormatSpec;
use flexmd_ofs::ExtractOptions;
use serde::Serialize;
use serde_json::Value;

use crate::align::{AlignError, Preset, Target};
use crate::attempt::{Attempt, StopReason};
use crate::coercion::CoercionRule;
use crate::error::{ModelError, RetryError};
use crate::hints::hints;
use crate::outcome::{Change, ChangeKind};
use crate::pointer::dotted_path;
use crate::registry::Registry;
use crate::transform::TransformOptions;
use crate::violation::Violation;

/// Something that answers a prompt: an LLM behind an API or a command.
pub trait Model {
    /// The answer to `prompt`.
    fn complete(&mut self, prompt: &str) -> Result<String, ModelError>;
}

/// A model run as an external program: `sh -c COMMAND`, the prompt on its
/// standard input, the answer from its standard output. A non-zero exit is a
/// failure (with the end of its standard error); running past `timeout`
/// stops it.
///
/// ```
/// use flexmd_schema::{CommandModel, Model};
/// let mut model = CommandModel::new("tr a-z A-Z");
/// assert_eq!(model.complete("hello").unwrap(), "HELLO");
/// ```
#[derive(Debug, Clone)]
pub struct CommandModel {
    /// The command line, run by `sh -c`.
    pub command: String,
    /// How long one answer may take (default 300 s).
    pub timeout: Duration,
}

impl CommandModel {
    /// A command model with the default timeout.
    pub fn new(command: impl Into<String>) -> Self {
        Self {
            command: command.into(),
            timeout: Duration::from_secs(300),
        }
    }
}

/// At most this much of a failing command's standard error is kept.
const STDERR_TAIL: usize = 2000;

impl Model for CommandModel {
    fn complete(&mut self, prompt: &str) -> Result<String, ModelError> {
        let spawn_error = |source| ModelError::Spawn {
            command: self.command.clone(),
            source,
        };
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(spawn_error)?;
        // Write and read on threads: a model that answers before reading
        // all of a long prompt must not deadlock us.
        let stdin = child.stdin.take();
        let input = prompt.to_owned();
        let writer = std::thread::spawn(move || {
            if let Some(mut stdin) = stdin {
                // A model may close its input early; that is its choice.
                let _ = stdin.write_all(input.as_bytes());
            }
        });
        let stdout = child.stdout.take();
        let reader = std::thread::spawn(move || {
            let mut out = Vec::new();
            if let Some(mut stdout) = stdout {
                let _ = stdout.read_to_end(&mut out);
            }
            out
        });
        let stderr = child.stderr.take();
        let err_reader = std::thread::spawn(move || {
            let mut out = Vec::new();
            if let Some(mut stderr) = stderr {
                let _ = stderr.read_to_end(&mut out);
            }
            out
        });
        let start = Instant::now();
        let status = loop {
            match child.try_wait().map_err(spawn_error)? {
                Some(status) => break status,
                None if start.elapsed() >= self.timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(ModelError::Timeout {
                        command: self.command.clone(),
                        after: self.timeout,
                    });
                }
                None => std::thread::sleep(Duration::from_millis(5)),
            }
        };
        let _ = writer.join();
        let out = reader.join().unwrap_or_default();
        let err = err_reader.join().unwrap_or_default();
        if !status.success() {
            let err = String::from_utf8_lossy(&err);
            let tail_start = err
                .char_indices()
                .rev()
                .nth(STDERR_TAIL)
                .map_or(0, |(i, _)| i);
            let tail = err.get(tail_start..).unwrap_or_default().trim();
            return Err(ModelError::Failed {
                command: self.command.clone(),
                status: status.to_string(),
                stderr: if tail.is_empty() {
                    "nothing on stderr".to_owned()
                } else {
                    tail.to_owned()
                },
            });
        }
        String::from_utf8(out).map_err(|_| ModelError::NotText {
            command: self.command.clone(),
        })
    }
}

/// What the model must answer with.
#[derive(Debug, Clone)]
pub enum Expected {
    /// JSON matching this JSON Schema, found in the answer by schema-aligned
    /// parsing ([`Registry::find_json_as`]): the candidate that fits best,
    /// repaired and coerced.
    Schema(Value),
    /// A Markdown answer following this Output Format Spec, turned into JSON
    /// with `flexmd_ofs::to_json`.
    Spec(OutputFormatSpec),
}

/// The data of an accepted answer and how it was reached.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Accepted {
    /// The valid data (after defaults and coercion).
    pub data: Value,
    /// What was changed to make it valid.
    pub changes: Vec<Change>,
    /// Every attempt, the accepted one last.
    pub attempts: Vec<Attempt>,
}

/// The token counter [`Retrier`] uses unless told otherwise: an estimate,
/// one token per four bytes (rounded up). Give [`Retrier::count_tokens`] an
/// exact tokenizer for a hard budget (the `flexmd` CLI counts with
/// `o200k_base`).
pub fn estimate_tokens(text: &str) -> usize {
    text.len().div_ceil(4)
}

/// Asks a model, validates its answer and retries with hints (elsabro's
/// `executeAgentWithSchema` with `retryOnSchemaError`).
///
/// Each retry *replaces* the conversation rather than growing it: the
/// original prompt, the required structure, the last answer, and a hint for
/// each failing path only. With [`Retrier::patch`], a retry on an object
/// schema asks only for the failing fields and merges them into the last
/// answer, which is then checked as a whole. [`Retrier::max_tokens_total`]
/// caps the tokens of all prompts and answers. When no answer is valid, the
/// error keeps every attempt and names the best one (fewest violations, then
/// lowest cost).
///
/// ```
/// use flexmd_schema::{Accepted, Expected, Model, ModelError, Registry, Retrier};
/// use serde_json::json;
///
/// /// Answers from a script, one per call.
/// struct Scripted(Vec<&'static str>);
/// impl Model for Scripted {
///     fn complete(&mut self, _prompt: &str) -> Result<String, ModelError> {
///         Ok(self.0.remove(0).to_owned())
///     }
/// }
///
/// let registry = Registry::new();
/// let schema = registry.get("plan").unwrap().clone();
/// let retrier = Retrier::new(&registry, Expected::Schema(schema));
/// let mut model = Scripted(vec!["Sure: {\"phases\": \"soon\"}", "```json\n{\"phases\": []}\n```"]);
/// let accepted = retrier.run(&mut model, "Plan the release.").unwrap();
/// assert_eq!(accepted.data, json!({"phases": []}));
/// assert_eq!(accepted.attempts.len(), 2);
/// let retry = &accepted.attempts[1].prompt;
/// assert!(retry.contains("Your previous answer:\n\n````\nSure: {\"phases\": \"soon\"}\n````"));
/// assert!(retry.contains("Fix phases.[0]: Expected object, got string"));
/// ```
#[derive(Clone)]
pub struct Retrier<'r> {
    registry: Cow<'r, Registry>,
    expected: Expected,
    /// Retries after the first attempt (default 2, as elsabro's
    /// `maxSchemaRetries`).
    pub max_retries: usize,
    /// Defaults and coercion applied before an answer is judged (default:
    /// both, as elsabro's `executeAgentWithSchema`). With neither, answers
    /// are read with repairs only (the `strict` preset).
    pub options: TransformOptions,
    /// The most tokens all prompts and answers together may use: a prompt
    /// that would pass it is not sent (default: no limit).
    pub max_tokens_total: Option<usize>,
    /// How tokens are counted (default [`estimate_tokens`]).
    pub count_tokens: fn(&str) -> usize,
    /// On an object schema, ask a retry for the failing top-level fields
    /// only and merge them into the last answer (default off).
    pub patch: bool,
    /// Warnings count as errors (default off): for a spec, every leniency
    /// used to read the answer; for a schema, every repair made to read the
    /// JSON and every value coerced. The model is asked to fix them too.
    pub strict: bool,
}

impl std::fmt::Debug for Retrier<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Retrier")
            .field("expected", &self.expected)
            .field("max_retries", &self.max_retries)
            .field("options", &self.options)
            .field("max_tokens_total", &self.max_tokens_total)
            .field("patch", &self.patch)
            .field("strict", &self.strict)
            .finish_non_exhaustive()
    }
}

/// A conversation with a model driven by the caller (see
/// [`Retrier::session`]): send [`prompt`](Self::prompt), give the model's
/// reply to [`answer`](Self::answer); when that returns data the schema
/// accepts, [`accept`](Self::accept) it or [`reject`](Self::reject) it with
/// violations of your own; otherwise send the new prompt. Every error ends
/// the session, with every attempt in it.
pub struct RetrySession<'r> {
    retrier: Retrier<'r>,
    /// The caller's prompt, before any structure or correction.
    original: String,
    attempts: Vec<Attempt>,
    /// Tokens of the prompts and answers so far.
    used: usize,
    /// Tokens of [`Self::current`].
    prompt_tokens: usize,
    /// The prompt to send next.
    current: String,
    /// The keys a patch retry asks for.
    patching: Option<Vec<String>>,
    /// Retries made.
    round: usize,
    /// Data the schema accepted, with its changes, until accepted or
    /// rejected.
    valid: Option<(Value, Vec<Change>)>,
}

impl std::fmt::Debug for RetrySession<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RetrySession")
            .field("attempts", &self.attempts.len())
            .field("round", &self.round)
            .field("used", &self.used)
            .finish_non_exhaustive()
    }
}

impl RetrySession<'_> {
    /// The prompt to send the model now.
    pub fn prompt(&self) -> &str {
        &self.current
    }

    /// The attempts so far, in order.
    pub fn attempts(&self) -> &[Attempt] {
        &self.attempts
    }

    /// Judges the model's answer to [`prompt`](Self::prompt): `Some(data)`
    /// when the schema (or spec) accepts it — [`accept`](Self::accept) or
    /// [`reject`](Self::reject) it next — and `None` when it does not and
    /// the correction prompt is ready. An empty answer is judged like any
    /// other (a violation, `empty_answer`, and a retry). Errors when no
    /// retry is left ([`StopReason::Retries`]) or the next prompt would pass
    /// the token budget ([`StopReason::TokenBudget`]).
    pub fn answer(&mut self, answer: &str) -> Result<Option<&Value>, RetryError> {
        let retrier = &self.retrier;
        let answer_tokens = (retrier.count_tokens)(answer);
        self.used += self.prompt_tokens + answer_tokens;
        let previous = self.attempts.last().and_then(|a| a.data.as_ref());
        let judged = match (&self.patching, previous) {
            (Some(keys), Some(previous)) => retrier.judge_patch(answer, previous, keys)?,
            _ => retrier.judge(answer)?,
        };
        self.attempts.push(Attempt {
            prompt: std::mem::take(&mut self.current),
            answer: answer.to_owned(),
            errors: judged.errors.clone(),
            data: judged.data.clone(),
            cost: judged.cost,
            prompt_tokens: self.prompt_tokens,
            answer_tokens,
            patch: self.patching.is_some(),
        });
        if judged.errors.is_empty()
            && let Some(data) = judged.data
        {
            let (data, _) = self.valid.insert((data, judged.changes));
            return Ok(Some(data));
        }
        self.retry()?;
        Ok(None)
    }

    /// Rejects the data the last answer gave with the caller's own
    /// violations (a Pydantic validator's, a business rule's): they become
    /// the attempt's errors, and the next prompt asks the model to fix them.
    /// Errors as [`answer`](Self::answer) does when no retry is left.
    pub fn reject(&mut self, errors: Vec<Violation>) -> Result<(), RetryError> {
        self.valid = None;
        if let Some(last) = self.attempts.last_mut() {
            last.errors = errors;
        }
        self.retry()
    }

    /// The accepted data, its changes and every attempt; `None` unless the
    /// last answer's data was accepted by the schema and not rejected.
    pub fn accept(mut self) -> Option<Accepted> {
        self.take_accepted()
    }

    /// [`accept`](Self::accept), leaving the session empty.
    fn take_accepted(&mut self) -> Option<Accepted> {
        let (data, changes) = self.valid.take()?;
        Some(Accepted {
            data,
            changes,
            attempts: std::mem::take(&mut self.attempts),
        })
    }

    /// Prepares the correction prompt for the last attempt, or ends the
    /// session when no retry is left or the budget would be passed.
    fn retry(&mut self) -> Result<(), RetryError> {
        let retrier = &self.retrier;
        if self.round >= retrier.max_retries {
            let attempts = std::mem::take(&mut self.attempts);
            return Err(retrier.exhausted(attempts, StopReason::Retries, self.used));
        }
        self.round += 1;
        let last = self.attempts.last();
        self.patching = retrier.patch_keys(last);
        self.current = match (&self.patching, last) {
            (Some(keys), Some(last)) => retrier.patch_prompt(&self.original, last, keys),
            (_, Some(last)) => retrier.correction(&self.original, last),
            (_, None) => format!("{}\n\n{}", self.original, retrier.structure()),
        };
        self.within_budget()
    }

    /// Counts the prompt to send; ends the session when sending it would
    /// pass [`Retrier::max_tokens_total`].
    fn within_budget(&mut self) -> Result<(), RetryError> {
        let retrier = &self.retrier;
        self.prompt_tokens = (retrier.count_tokens)(&self.current);
        if let Some(limit) = retrier.max_tokens_total
            && self.used + self.prompt_tokens > limit
        {
            let attempts = std::mem::take(&mut self.attempts);
            return Err(retrier.exhausted(attempts, StopReason::TokenBudget, self.used));
        }
        Ok(())
    }
}

/// An answer judged: its data (if any), what is wrong, the cost to read it.
struct Judged {
    data: Option<Value>,
    errors: Vec<Violation>,
    /// What [`Retrier::strict`] counts as errors.
    warnings: Vec<Violation>,
    changes: Vec<Change>,
    cost: u32,
}

impl Retrier<'static> {
    /// A retrier that owns its registry: for a session that must outlive
    /// the caller's borrow (a binding's session object, say). A
    /// [`Registry`] clones cheaply.
    pub fn owning(registry: Registry, expected: Expected) -> Self {
        Self::with(Cow::Owned(registry), expected)
    }
}

impl<'r> Retrier<'r> {
    /// A retrier for `expected`, resolving `$ref`s through `registry`.
    pub fn new(registry: &'r Registry, expected: Expected) -> Self {
        Self::with(Cow::Borrowed(registry), expected)
    }

    fn with(registry: Cow<'r, Registry>, expected: Expected) -> Self {
        Self {
            registry,
            expected,
            max_retries: 2,
            options: TransformOptions {
                coerce: true,
                apply_defaults: true,
            },
            max_tokens_total: None,
            count_tokens: estimate_tokens,
            patch: false,
            strict: false,
        }
    }

    /// Sends `prompt` followed by the structure the answer must have (the
    /// JSON Schema, or the spec's prompt block), then correction prompts
    /// (see [`Retrier`]) until an answer is valid, `max_retries` retries are
    /// spent, or the token budget would be passed.
    pub fn run(&self, model: &mut dyn Model, prompt: &str) -> Result<Accepted, RetryError> {
        self.run_with_check(model, prompt, &mut |_| Vec::new())
    }

    /// [`Retrier::run`], with the caller's own check of data the schema (or
    /// spec) accepted: the violations `check` returns reject it, and the
    /// next prompt asks the model to fix them (as Instructor re-asks when a
    /// Pydantic validator fails). `check` returns no violations to accept.
    ///
    /// ```
    /// use flexmd_schema::{Expected, Model, ModelError, Registry, Retrier, Violation};
    /// use serde_json::json;
    ///
    /// struct Scripted(Vec<&'static str>);
    /// impl Model for Scripted {
    ///     fn complete(&mut self, _prompt: &str) -> Result<String, ModelError> {
    ///         Ok(self.0.remove(0).to_owned())
    ///     }
    /// }
    /// let registry = Registry::new();
    /// let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    /// let retrier = Retrier::new(&registry, Expected::Schema(schema));
    /// let mut model = Scripted(vec![r#"{"n": 3}"#, r#"{"n": 4}"#]);
    /// let even = |data: &serde_json::Value| match data["n"].as_i64() {
    ///     Some(n) if n % 2 == 1 => vec![Violation {
    ///         path: "n".into(), pointer: "/n".into(), message: "n must be even".into(),
    ///         code: "custom".into(), ..Violation::default()
    ///     }],
    ///     _ => Vec::new(),
    /// };
    /// let accepted = retrier.run_with_check(&mut model, "Pick n.", &mut { even }).unwrap();
    /// assert_eq!(accepted.data, json!({"n": 4}));
    /// assert!(accepted.attempts[1].prompt.contains("Fix n: n must be even"));
    /// ```
    pub fn run_with_check(
        &self,
        model: &mut dyn Model,
        prompt: &str,
        check: &mut dyn FnMut(&Value) -> Vec<Violation>,
    ) -> Result<Accepted, RetryError> {
        let mut session = self.session(prompt)?;
        loop {
            let answer = match model.complete(session.prompt()) {
                Ok(answer) => answer,
                Err(source) => {
                    return Err(RetryError::Model {
                        source,
                        attempts: session.attempts,
                    });
                }
            };
            let errors = match session.answer(&answer)? {
                Some(data) => check(data),
                None => continue,
            };
            if errors.is_empty() {
                if let Some(accepted) = session.take_accepted() {
                    return Ok(accepted);
                }
                continue;
            }
            session.reject(errors)?;
        }
    }

    /// A conversation driven by the caller, one answer at a time: what
    /// [`Retrier::run`] drives, for a caller that asks the model itself
    /// (an async client) or checks the data further before accepting it.
    /// Fails only when the first prompt alone passes the token budget.
    ///
    /// ```
    /// use flexmd_schema::{Expected, Registry, Retrier};
    /// use serde_json::json;
    ///
    /// let registry = Registry::new();
    /// let retrier = Retrier::new(&registry, Expected::Schema(json!({"type": "array"})));
    /// let mut session = retrier.session("List three colours.").unwrap();
    /// assert!(session.prompt().starts_with("List three colours."));
    /// assert_eq!(session.answer("Sorry, I can't.").unwrap(), None, "no JSON: a retry");
    /// assert!(session.prompt().contains("Your previous answer:"));
    /// assert_eq!(session.answer(r#"["red", "green", "blue"]"#).unwrap(), Some(&json!(["red", "green", "blue"])));
    /// let accepted = session.accept().unwrap();
    /// assert_eq!(accepted.attempts.len(), 2);
    /// ```
    pub fn session(&self, prompt: &str) -> Result<RetrySession<'r>, RetryError> {
        self.clone().into_session(prompt)
    }

    /// [`Retrier::session`], the session owning the retrier (to keep it
    /// where a borrow cannot live, such as in another language's object).
    pub fn into_session(self, prompt: &str) -> Result<RetrySession<'r>, RetryError> {
        let current = format!("{prompt}\n\n{}", self.structure());
        let mut session = RetrySession {
            retrier: self,
            original: prompt.to_owned(),
            attempts: Vec::new(),
            used: 0,
            prompt_tokens: 0,
            current,
            patching: None,
            round: 0,
            valid: None,
        };
        session.within_budget()?;
        Ok(session)
    }

    /// The error for a run without a valid answer, naming the best attempt.
    fn exhausted(&self, attempts: Vec<Attempt>, reason: StopReason, used: usize) -> RetryError {
        let mut best: Option<usize> = None;
        for (i, a) in attempts.iter().enumerate() {
            if a.data.is_none() {
                continue;
            }
            let better = best
                .and_then(|b| attempts.get(b))
                .is_none_or(|b| (a.errors.len(), a.cost) <= (b.errors.len(), b.cost));
            if better {
                best = Some(i);
            }
        }
        RetryError::Exhausted {
            attempts,
            best,
            reason,
            tokens_used: used,
        }
    }

    /// The data of an answer and what is wrong with it.
    fn judge(&self, answer: &str) -> Result<Judged, RetryError> {
        let mut judged = self.judge_leniently(answer)?;
        if self.strict {
            judged.errors.append(&mut judged.warnings);
        }
        Ok(judged)
    }

    /// [`Retrier::judge`] before strictness: warnings kept apart.
    fn judge_leniently(&self, answer: &str) -> Result<Judged, RetryError> {
        match &self.expected {
            Expected::Schema(_) if answer.trim().is_empty() => Ok(Judged {
                data: None,
                errors: vec![root_violation(
                    "The answer was empty: answer with the JSON value itself",
                    "empty_answer",
                )],
                warnings: Vec::new(),
                changes: Vec::new(),
                cost: 0,
            }),
            Expected::Schema(schema) => {
                let preset = if self.options.coerce {
                    Preset::Standard
                } else {
                    Preset::Strict
                };
                Ok(self.align(answer, schema, preset))
            }
            Expected::Spec(spec) => {
                let report = flexmd_ofs::validate(answer, spec);
                let extracted = flexmd_ofs::extract(answer, spec, &ExtractOptions::default());
                let data = flexmd_ofs::to_json(&extracted, spec);
                let warnings = report.warnings.iter().map(issue_violation).collect();
                if !report.ok {
                    return Ok(Judged {
                        data: Some(data),
                        errors: report.errors.iter().map(issue_violation).collect(),
                        warnings,
                        changes: Vec::new(),
                        cost: 0,
                    });
                }
                let outcome = self.registry.validate_and_transform_schema(
                    &flexmd_ofs::json_schema(spec),
                    &data,
                    self.options,
                )?;
                Ok(Judged {
                    data: Some(outcome.data.unwrap_or(data)),
                    cost: u32::try_from(outcome.changes.len()).unwrap_or(u32::MAX),
                    errors: outcome.errors,
                    warnings,
                    changes: outcome.changes,
                })
            }
        }
    }

    /// Schema-aligned reading of an answer, as [`Judged`].
    fn align(&self, answer: &str, schema: &Value, preset: Preset) -> Judged {
        match self.registry.align_text(
            answer,
            Target::Schema(schema),
            preset,
            self.options.apply_defaults,
        ) {
            Ok(aligned) => {
                let changes = aligned
                    .coercions
                    .iter()
                    .map(|c| Change {
                        kind: if c.rule == CoercionRule::Default {
                            ChangeKind::Default
                        } else {
                            ChangeKind::Coerced
                        },
                        path: dotted_path(&aligned.value, &c.pointer),
                        pointer: c.pointer.clone(),
                        from: c.before.clone(),
                        to: c.after.clone().unwrap_or(Value::Null),
                        branch: c.branch.clone(),
                        rule: (c.rule != CoercionRule::Default).then_some(c.rule),
                    })
                    .collect();
                let index = flexmd_core::LineIndex::new(answer);
                let json5 = (aligned.method == Some(flexmd_detect::JsonMethod::Json5))
                    .then(|| crate::text::json5_warning(&index, aligned.start));
                let warnings = json5
                    .into_iter()
                    .chain(
                        aligned
                            .repairs
                            .iter()
                            .map(|r| crate::text::repair_warning(r, &index, 0)),
                    )
                    .chain(
                        aligned
                            .coercions
                            .iter()
                            .filter(|c| c.rule != CoercionRule::Default)
                            .map(|c| {
                                crate::text::coercion_warning(
                                    &dotted_path(&aligned.value, &c.pointer),
                                    &c.pointer,
                                    (c.before.as_ref(), c.after.as_ref()),
                                    Some(c.rule),
                                )
                            }),
                    )
                    .collect();
                Judged {
                    data: Some(aligned.value),
                    errors: aligned.errors,
                    warnings,
                    changes,
                    cost: aligned.cost,
                }
            }
            Err(AlignError::AmbiguousEnum {
                pointer,
                value,
                candidates,
            }) => Judged {
                data: None,
                errors: vec![Violation {
                    path: pointer.trim_start_matches('/').replace('/', "."),
                    pointer,
                    schema_path: String::new(),
                    message: format!(
                        "`{value}` could be any of {}; write one in full",
                        candidates.join(", ")
                    ),
                    code: "ambiguous_enum".to_owned(),
                    ..Violation::default()
                }],
                warnings: Vec::new(),
                changes: Vec::new(),
                cost: 0,
            },
            Err(_) => Judged {
                data: None,
                errors: vec![root_violation("The answer holds no JSON value", "no_json")],
                warnings: Vec::new(),
                changes: Vec::new(),
                cost: 0,
            },
        }
    }

    /// A patch answer: its object's `keys` replace those of `previous`, and
    /// the whole is judged again.
    fn judge_patch(
        &self,
        answer: &str,
        previous: &Value,
        keys: &[String],
    ) -> Result<Judged, RetryError> {
        let Some(Value::Object(patch)) = flexmd_detect::find_json(answer).map(|f| f.value) else {
            return self.judge(answer);
        };
        let mut merged = previous.clone();
        if let Value::Object(map) = &mut merged {
            for (key, value) in patch {
                if keys.contains(&key) {
                    map.insert(key, value);
                }
            }
        }
        let text = serde_json::to_string(&merged).unwrap_or_default();
        self.judge(&text)
    }

    /// The top-level fields to ask for again, when the last answer is an
    /// object and every problem lies under a top-level field (`None` when a
    /// full retry is needed).
    fn patch_keys(&self, last: Option<&Attempt>) -> Option<Vec<String>> {
        if !self.patch || !matches!(self.expected, Expected::Schema(_)) {
            return None;
        }
        let last = last?;
        last.data.as_ref()?.as_object()?;
        let mut keys: Vec<String> = Vec::new();
        for error in &last.errors {
            let key = match error.pointer.split('/').nth(1) {
                Some(first) => first.replace("~1", "/").replace("~0", "~"),
                // A missing top-level field: named in the message.
                None if error.code == "missing_required" => error
                    .message
                    .strip_prefix("Missing required field: ")?
                    .to_owned(),
                None => return None,
            };
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        (!keys.is_empty()).then_some(keys)
    }

    /// A full retry: the original prompt and structure, the last answer, and
    /// a hint per failing path.
    fn correction(&self, prompt: &str, last: &Attempt) -> String {
        let mut out = format!(
            "{prompt}\n\n{}\nYour previous answer:\n\n{}\n\nIt did not match the required structure. Answer again in full, fixing these problems:\n",
            self.structure(),
            fenced(&last.answer)
        );
        for line in self.hint_lines(&last.errors) {
            out.push_str("- ");
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// A patch retry: the original prompt, the failing fields' hints, and
    /// the schema of just those fields.
    fn patch_prompt(&self, prompt: &str, last: &Attempt, keys: &[String]) -> String {
        let Expected::Schema(schema) = &self.expected else {
            return self.correction(prompt, last);
        };
        let mut properties = serde_json::Map::new();
        for key in keys {
            let sub = schema
                .get("properties")
                .and_then(|p| p.get(key))
                .cloned()
                .unwrap_or(Value::Bool(true));
            properties.insert(key.clone(), sub);
        }
        let partial = serde_json::json!({
            "type": "object",
            "properties": properties,
            "required": keys,
        });
        let mut out = format!(
            "{prompt}\n\nYour previous answer was right except for these fields: {}. Fix these problems:\n",
            keys.join(", ")
        );
        for line in self.hint_lines(&last.errors) {
            out.push_str("- ");
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str(&format!(
            "\nReturn only a JSON object with the corrected fields, matching this JSON Schema:\n\n```json\n{}\n```\n",
            serde_json::to_string_pretty(&partial).unwrap_or_default()
        ));
        out
    }

    /// One line per problem: a hint from the schema, or the spec's message.
    fn hint_lines(&self, errors: &[Violation]) -> Vec<String> {
        match &self.expected {
            Expected::Schema(schema) => hints(errors, schema).into_iter().map(|h| h.hint).collect(),
            Expected::Spec(_) => errors
                .iter()
                .map(|e| match e.path.as_str() {
                    "" => e.message.clone(),
                    section => format!("{section}: {}", e.message),
                })
                .collect(),
        }
    }

    /// The structure the answer must have.
    fn structure(&self) -> String {
        match &self.expected {
            Expected::Schema(schema) => format!(
                "Return only JSON matching this JSON Schema:\n\n```json\n{}\n```\n",
                serde_json::to_string_pretty(schema).unwrap_or_default()
            ),
            Expected::Spec(spec) => {
                format!("Answer in this format:\n\n{}", flexmd_ofs::prompt(spec))
            }
        }
    }
}

/// `text` in a fence longer than any backtick run inside it.
fn fenced(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(4));
    format!("{fence}\n{}\n{fence}", text.trim_end())
}

/// A spec issue in the violations' shape (its section as the path).
fn issue_violation(issue: &flexmd_ofs::Issue) -> Violation {
    Violation {
        path: issue.section.clone().unwrap_or_default(),
        message: issue.message.clone(),
        code: issue.code.clone(),
        line: Some(issue.line),
        column: Some(issue.column),
        ..Violation::default()
    }
}

fn root_violation(message: &str, code: &str) -> Violation {
    Violation {
        path: String::new(),
        pointer: String::new(),
        schema_path: String::new(),
        message: message.to_owned(),
        code: code.to_owned(),
        ..Violation::default()
    }
}
