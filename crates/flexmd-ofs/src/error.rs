//! Why a text could not be read as a spec.

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

/// A text that is neither an Output Format Spec block nor OutputFormatSpec
/// JSON (see [`read_spec`](crate::read_spec)).
#[derive(Debug, Clone, PartialEq, Eq, Error, Diagnostic)]
pub enum SpecError {
    /// The text starts like JSON but is not an OutputFormatSpec.
    #[error("not a valid OutputFormatSpec JSON: {reason} (line {line}, column {column})")]
    #[diagnostic(
        code(ofs::invalid_spec_json),
        help(
            "OutputFormatSpec JSON needs at least `sections`, a list of {{\"name\", \"kind\"}} with kind prose, list or ordered_list; `flexmd ofs default --json` prints a complete one"
        )
    )]
    Json {
        /// What the JSON reader said.
        reason: String,
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column (in characters) of the problem.
        column: usize,
        /// Where in the text.
        #[label("here")]
        span: SourceSpan,
    },
    /// A line of the spec that cannot stand: a section whose kind is
    /// misspelt (`orderd list`).
    #[error("{line}:{column}: {message}")]
    #[diagnostic(
        code(ofs::invalid_spec_line),
        help("kinds are `prose`, `list` and `ordered list`")
    )]
    BadLine {
        /// What is wrong, and the nearest kind.
        message: String,
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters).
        column: usize,
        /// Where in the text.
        #[label("here")]
        span: SourceSpan,
    },
    /// The text is Markdown, but names no section and no table.
    #[error("no output format spec here: no line names a section or a table")]
    #[diagnostic(
        code(ofs::not_a_spec),
        help(
            "a spec lists sections as `- Name — prose`, `- Name — list` or `- Name — ordered list`, and tables as `- (a, b — table)`; `flexmd ofs default` prints an example"
        )
    )]
    NotASpec,
}
