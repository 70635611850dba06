//! The crate's error type.

use std::path::PathBuf;

use miette::Diagnostic;
use thiserror::Error;

/// Why an artifact operation could not run. Messages are written for a
/// model to act on: each says what was wrong and what is allowed.
#[derive(Debug, Error, Diagnostic)]
pub enum ArtifactError {
    /// The file cannot be read.
    #[error("cannot read {}", path.display())]
    #[diagnostic(code(artifact::io))]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A grep pattern or its flags are not accepted.
    #[error("invalid pattern: {0}")]
    #[diagnostic(code(artifact::pattern))]
    Pattern(String),
    /// A JSONPath expression is not accepted.
    #[error("invalid JSONPath: {0}")]
    #[diagnostic(code(artifact::jsonpath))]
    JsonPath(String),
    /// The content is not in the JSON format asked for (or any, when
    /// inferring).
    #[error("{0}")]
    #[diagnostic(code(artifact::json))]
    Json(String),
    /// Markdown that cannot be read within the limits.
    #[error("{0}")]
    #[diagnostic(code(artifact::markdown))]
    Markdown(String),
    /// A tool call that names no tool, or whose arguments do not fit.
    #[error("{0}")]
    #[diagnostic(code(artifact::call))]
    Call(String),
    /// One line or value of a result is larger than a page may be: the
    /// call must be narrowed, or the budget raised.
    #[error(
        "{tool}: {piece} alone is {tokens} tokens, more than `max_tokens` ({max_tokens}); \
         raise `max_tokens` or narrow the call (a smaller line range, a more specific path) \
         to read it"
    )]
    #[diagnostic(code(artifact::too_large))]
    TooLarge {
        /// The tool called.
        tool: String,
        /// Which piece: `line 8`, `item 3`, `the result`.
        piece: String,
        /// Its size in tokens (o200k_base).
        tokens: usize,
        /// The page's budget.
        max_tokens: usize,
    },
    /// The caller gave up on the call (an MCP client cancelled it) before
    /// it finished.
    #[error("the call was cancelled before it finished")]
    #[diagnostic(code(artifact::cancelled))]
    Cancelled,
}
