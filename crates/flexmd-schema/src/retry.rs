//! Retry with hints: ask a model, check its answer, and on failure ask again
//! with precise corrections (the seed's `executeAgentWithSchema`).

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use flexmd_core::OutputFormatSpec;
use flexmd_ofs::ExtractOptions;
use serde::Serialize;
use serde_json::Value;

use crate::error::{ModelError, RetryError};
use crate::hints::hints;
use crate::registry::Registry;
use crate::transform::{Change, TransformOptions};
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
    /// JSON matching this JSON Schema, found leniently in the answer (a
    /// fence, prose around it, the repairs of `flexmd-detect`).
    Schema(Value),
    /// A Markdown answer following this Output Format Spec, turned into JSON
    /// with `flexmd_ofs::to_json`.
    Spec(OutputFormatSpec),
}

/// One round of [`Retrier::run`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attempt {
    /// The prompt sent.
    pub prompt: String,
    /// The model's answer.
    pub answer: String,
    /// What was wrong with it; empty for the accepted answer.
    pub errors: Vec<Violation>,
}

/// The data of an accepted answer and how it was reached.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Accepted {
    /// The valid data (after defaults and coercion).
    pub data: Value,
    /// What was changed to make it valid.
    pub changes: Vec<Change>,
    /// Every attempt, the accepted one last.
    pub attempts: Vec<Attempt>,
}

/// Asks a model, validates its answer and retries with hints (seed
/// `executeAgentWithSchema` with `retryOnSchemaError`).
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
/// let mut model = Scripted(vec!["Sure: {\"phases\": 3}", "```json\n{\"phases\": []}\n```"]);
/// let accepted = retrier.run(&mut model, "Plan the release.").unwrap();
/// assert_eq!(accepted.data, json!({"phases": []}));
/// assert_eq!(accepted.attempts.len(), 2);
/// assert!(accepted.attempts[1].prompt.contains("Fix phases: Expected array, got integer"));
/// ```
#[derive(Debug)]
pub struct Retrier<'r> {
    registry: &'r Registry,
    expected: Expected,
    /// Retries after the first attempt (default 2, as the seed's
    /// `maxSchemaRetries`).
    pub max_retries: usize,
    /// Defaults and coercion applied before an answer is judged (default:
    /// both, as the seed's `executeAgentWithSchema`).
    pub options: TransformOptions,
}

impl<'r> Retrier<'r> {
    /// A retrier for `expected`, resolving `$ref`s through `registry`.
    pub fn new(registry: &'r Registry, expected: Expected) -> Self {
        Self {
            registry,
            expected,
            max_retries: 2,
            options: TransformOptions {
                coerce: true,
                apply_defaults: true,
            },
        }
    }

    /// Sends `prompt` followed by the structure the answer must have (the
    /// JSON Schema, or the spec's prompt block), then correction prompts —
    /// the original prompt, a hint per problem, the structure again — until
    /// an answer is valid or `max_retries` retries are spent.
    pub fn run(&self, model: &mut dyn Model, prompt: &str) -> Result<Accepted, RetryError> {
        let mut attempts = Vec::new();
        let mut current = format!("{prompt}\n\n{}", self.structure());
        for _ in 0..=self.max_retries {
            let answer = match model.complete(&current) {
                Ok(answer) => answer,
                Err(source) => return Err(RetryError::Model { source, attempts }),
            };
            match self.judge(&answer)? {
                Ok((data, changes)) => {
                    attempts.push(Attempt {
                        prompt: current,
                        answer,
                        errors: Vec::new(),
                    });
                    return Ok(Accepted {
                        data,
                        changes,
                        attempts,
                    });
                }
                Err(errors) => {
                    let next = self.correction(prompt, &errors);
                    attempts.push(Attempt {
                        prompt: current,
                        answer,
                        errors,
                    });
                    current = next;
                }
            }
        }
        Err(RetryError::Exhausted { attempts })
    }

    /// The valid data of an answer, or what is wrong with it.
    #[allow(clippy::type_complexity, reason = "a private two-level result")]
    fn judge(
        &self,
        answer: &str,
    ) -> Result<Result<(Value, Vec<Change>), Vec<Violation>>, RetryError> {
        let (value, schema) = match &self.expected {
            Expected::Schema(schema) => match flexmd_detect::find_json(answer) {
                Some(found) => (found.value, schema.clone()),
                None => {
                    return Ok(Err(vec![root_violation(
                        "The answer holds no JSON value",
                        "no_json",
                    )]));
                }
            },
            Expected::Spec(spec) => {
                let report = flexmd_ofs::validate(answer, spec);
                if !report.ok {
                    return Ok(Err(report
                        .errors
                        .iter()
                        .map(|issue| Violation {
                            path: issue.section.clone().unwrap_or_default(),
                            pointer: String::new(),
                            schema_path: String::new(),
                            message: issue.message.clone(),
                            code: issue.code.clone(),
                        })
                        .collect()));
                }
                let extracted = flexmd_ofs::extract(answer, spec, &ExtractOptions::default());
                (
                    flexmd_ofs::to_json(&extracted, spec),
                    flexmd_ofs::json_schema(spec),
                )
            }
        };
        let outcome = self
            .registry
            .validate_and_transform_schema(&schema, &value, self.options)?;
        Ok(match outcome.data {
            Some(data) if outcome.valid => Ok((data, outcome.changes)),
            _ => Err(outcome.errors),
        })
    }

    /// The next prompt: the original, what was wrong, and the structure.
    fn correction(&self, prompt: &str, errors: &[Violation]) -> String {
        let mut out = format!(
            "{prompt}\n\nYour previous answer did not match the required structure. Fix these problems:\n"
        );
        let lines: Vec<String> = match &self.expected {
            Expected::Schema(schema) => hints(errors, schema).into_iter().map(|h| h.hint).collect(),
            Expected::Spec(_) => errors
                .iter()
                .map(|e| match e.path.as_str() {
                    "" => e.message.clone(),
                    section => format!("{section}: {}", e.message),
                })
                .collect(),
        };
        for line in lines {
            out.push_str("- ");
            out.push_str(&line);
            out.push('\n');
        }
        out.push('\n');
        out.push_str(&self.structure());
        out
    }

    /// What every prompt ends with: the structure the answer must have.
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

fn root_violation(message: &str, code: &str) -> Violation {
    Violation {
        path: String::new(),
        pointer: String::new(),
        schema_path: String::new(),
        message: message.to_owned(),
        code: code.to_owned(),
    }
}
