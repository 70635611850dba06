//! The crate's error types.

use std::path::PathBuf;
use std::time::Duration;

use miette::Diagnostic;
use thiserror::Error;

use crate::attempt::{Attempt, StopReason};

/// A schema, a config file or a schema directory that cannot be used.
#[derive(Debug, Error, Diagnostic)]
pub enum SchemaError {
    /// The schema is not valid JSON Schema, or a `$ref` in it leads nowhere.
    #[error("schema `{name}` cannot be compiled: {message}")]
    #[diagnostic(
        code(schema::invalid),
        help(
            "check the schema against its draft's meta-schema; `$ref`s resolve only to registered schemas"
        )
    )]
    Invalid {
        /// The schema's name (`(inline)` for one given inline).
        name: String,
        /// The compiler's reason.
        message: String,
    },
    /// No schema has this name.
    #[error("no schema named `{name}` (known: {known})")]
    #[diagnostic(code(schema::not_found))]
    NotFound {
        /// The name asked for.
        name: String,
        /// The registered names, comma-separated.
        known: String,
    },
    /// A schema name that is not letters, digits, `_` and `-`.
    #[error("`{name}` is not a schema name: use letters, digits, `_` and `-` only")]
    #[diagnostic(code(schema::bad_name))]
    BadName {
        /// The name given.
        name: String,
    },
    /// No `agentDefaults` entry names this agent.
    #[error("no schema for agent `{agent}` in `schemas.agentDefaults` (agents: {known})")]
    #[diagnostic(
        code(schema::unknown_agent),
        help(
            "add `\"{agent}\": \"SCHEMA\"` to `schemas.agentDefaults` in .planning/schemas-config.json"
        )
    )]
    UnknownAgent {
        /// The agent asked for.
        agent: String,
        /// The agents the config names, comma-separated.
        known: String,
    },
    /// A flow step that names neither `outputSchema` nor `agent`.
    #[error("the flow step names neither `outputSchema` nor `agent`: no schema to validate with")]
    #[diagnostic(code(schema::flow_step))]
    StepWithoutSchema,
    /// A config file that does not fit the format; `field` names where.
    #[error("{}: `{field}`: {message}", path.display())]
    #[diagnostic(
        code(schema::config),
        help("see the schemas-config.json format in the flexmd-schema README")
    )]
    Config {
        /// The config file.
        path: PathBuf,
        /// The dotted path of the offending field (`schemas.validation.maxRetries`).
        field: String,
        /// What is wrong with it.
        message: String,
    },
    /// A file or directory that cannot be read or written.
    #[error("cannot access {}", path.display())]
    #[diagnostic(code(schema::io))]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Text given as JSON that `serde_json` cannot read.
    #[error("the text is not JSON (line {line}, column {column}): {message}")]
    #[diagnostic(
        code(schema::invalid_json),
        help("to find and repair the JSON in a model's answer, use `validate_text`")
    )]
    InvalidJson {
        /// The parser's reason.
        message: String,
        /// 1-based line of the place it stopped.
        line: usize,
        /// 1-based column of the place it stopped.
        column: usize,
    },
    /// A file that is not JSON.
    #[error("{} is not JSON: {message}", path.display())]
    #[diagnostic(code(schema::not_json))]
    NotJson {
        /// The file.
        path: PathBuf,
        /// The parser's reason.
        message: String,
    },
}

/// Why a [`Model`](crate::Model) gave no answer.
#[derive(Debug, Error, Diagnostic)]
pub enum ModelError {
    /// The model command could not be started.
    #[error("cannot run `{command}`")]
    #[diagnostic(code(schema::model_spawn))]
    Spawn {
        /// The command line.
        command: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The model command exited with a failure status.
    #[error("`{command}` failed ({status}): {stderr}")]
    #[diagnostic(code(schema::model_failed))]
    Failed {
        /// The command line.
        command: String,
        /// Its exit status.
        status: String,
        /// The end of its standard error.
        stderr: String,
    },
    /// The model command ran past its timeout and was killed.
    #[error("`{command}` did not answer within {after:?}; it was stopped")]
    #[diagnostic(code(schema::model_timeout))]
    Timeout {
        /// The command line.
        command: String,
        /// The timeout.
        after: Duration,
    },
    /// The answer was not UTF-8 text.
    #[error("`{command}` answered with bytes that are not UTF-8")]
    #[diagnostic(code(schema::model_output))]
    NotText {
        /// The command line.
        command: String,
    },
    /// Any other model failure (for [`Model`](crate::Model) implementations).
    #[error("{0}")]
    #[diagnostic(code(schema::model))]
    Other(String),
}

/// Why [`Retrier::run`](crate::Retrier::run) returned no valid data.
#[derive(Debug, Error, Diagnostic)]
pub enum RetryError {
    /// No attempt gave an answer that fits (retries or the token budget ran
    /// out); all are kept, and the best is named.
    #[error("no valid answer after {} attempts ({})", attempts.len(), match reason {
        StopReason::Retries => "retries used up",
        StopReason::TokenBudget => "the token budget would be passed",
    })]
    #[diagnostic(code(schema::retries_exhausted))]
    Exhausted {
        /// Each prompt, answer, data and violations, in order.
        attempts: Vec<Attempt>,
        /// The index of the best attempt: fewest violations, then lowest
        /// cost (the later of equals); `None` when no answer held data.
        best: Option<usize>,
        /// Why the run stopped.
        reason: StopReason,
        /// Tokens of all prompts and answers sent.
        tokens_used: usize,
    },
    /// The model failed; the attempts before are kept.
    #[error("the model failed on attempt {}", attempts.len() + 1)]
    #[diagnostic(code(schema::model_error))]
    Model {
        /// The model's failure.
        #[source]
        #[diagnostic_source]
        source: ModelError,
        /// The attempts that got an answer.
        attempts: Vec<Attempt>,
    },
    /// The expected structure itself cannot be used.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Schema(#[from] SchemaError),
}

impl RetryError {
    /// For [`RetryError::Exhausted`]: the best attempt, whose `data` is the
    /// closest the model came (with its `errors`).
    pub fn best_attempt(&self) -> Option<&Attempt> {
        match self {
            Self::Exhausted { attempts, best, .. } => best.and_then(|b| attempts.get(b)),
            _ => None,
        }
    }
}
