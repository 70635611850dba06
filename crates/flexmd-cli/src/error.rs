//! The CLI's one error type: everything that ends a command early.

use std::path::PathBuf;
use std::process::ExitCode;

use miette::Diagnostic;
use thiserror::Error;

/// Why a command stopped.
#[derive(Debug, Error, Diagnostic)]
pub(crate) enum CliError {
    /// The input file could not be read.
    #[error("cannot read {}", path.display())]
    #[diagnostic(code(flexmd::read))]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The input is a directory, not a file.
    #[error("cannot read {}: it is a directory", .0.display())]
    #[diagnostic(code(flexmd::read), help("give a file, or `-` for standard input"))]
    IsDirectory(PathBuf),
    /// Standard input could not be read.
    #[error("cannot read standard input")]
    #[diagnostic(code(flexmd::read))]
    Stdin(#[source] std::io::Error),
    /// The input is not text flexmd can read.
    #[error("cannot read {name} as text")]
    #[diagnostic(
        code(flexmd::invalid_utf8),
        help("flexmd reads UTF-8 text; convert the file first, e.g. with `iconv -t UTF-8`")
    )]
    Decode {
        name: String,
        source: flexmd_core::Error,
    },
    /// The input is text but not the JSON the command reads.
    #[error(transparent)]
    #[diagnostic(transparent)]
    InvalidJson(Box<InvalidJson>),
    /// A spec that is neither an Output Format Spec block nor its JSON.
    #[error(transparent)]
    #[diagnostic(transparent)]
    BadSpec(Box<BadSpec>),
    /// Writing the result failed (e.g. a closed pipe).
    #[error("cannot write to standard output")]
    #[diagnostic(code(flexmd::write))]
    Stdout(#[source] std::io::Error),
    /// A schema, schema config or schema directory that cannot be used.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Schema(#[from] flexmd_schema::SchemaError),
    /// The model could not be run (`flexmd run`).
    #[error(transparent)]
    #[diagnostic(transparent)]
    Retry(Box<flexmd_schema::RetryError>),
    /// An artifact that cannot be opened or read as its kind.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Artifact(#[from] flexmd_artifact::ArtifactError),
    /// A schema a provider or grammar dialect cannot take (exit 1: the
    /// schema was read, it cannot be expressed).
    #[error(transparent)]
    #[diagnostic(transparent)]
    Constrain(#[from] flexmd_constrain::ConstrainError),
    /// A file the command would overwrite.
    #[error("{} exists", .0.display())]
    #[diagnostic(code(flexmd::exists), help("pass --force to replace it"))]
    Exists(PathBuf),
    /// Arguments that do not fit together.
    #[error("{0}")]
    #[diagnostic(code(flexmd::usage))]
    Usage(String),
    /// A result could not be turned into JSON.
    #[error("cannot serialise the result as JSON")]
    #[diagnostic(code(flexmd::serialize))]
    Serialize(#[source] serde_json::Error),
    /// The MCP server could not start, or its connection failed.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Mcp(Box<flexmd_mcp::ServeError>),
    /// A report could not be made (an unknown or broken schema, an input
    /// that cannot be read to its end).
    #[error(transparent)]
    #[diagnostic(transparent)]
    Report(#[from] flexmd_report::ReportError),
    /// An output file could not be written.
    #[error("cannot write {}", path.display())]
    #[diagnostic(code(flexmd::write))]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

impl CliError {
    /// 2 for usage errors and unreadable input, 1 for anything else.
    pub(crate) fn exit_code(&self) -> ExitCode {
        match self {
            Self::Read { .. }
            | Self::IsDirectory(_)
            | Self::Stdin(_)
            | Self::Decode { .. }
            | Self::Schema(_)
            | Self::Retry(_)
            | Self::Exists(_)
            | Self::Artifact(_)
            | Self::BadSpec(_)
            | Self::Usage(_)
            | Self::Mcp(_)
            | Self::Report(_)
            | Self::Write { .. } => ExitCode::from(2),
            Self::InvalidJson(_) | Self::Stdout(_) | Self::Serialize(_) | Self::Constrain(_) => {
                ExitCode::from(1)
            }
        }
    }
}

/// Where and why an input is not the JSON a command reads (boxed in
/// [`CliError`]: it carries the source for the snippet).
#[derive(Debug, Error, Diagnostic)]
#[error("{name} is not valid JSON for this command: {reason}")]
#[diagnostic(code(flexmd::invalid_json))]
pub(crate) struct InvalidJson {
    pub(crate) name: String,
    pub(crate) reason: String,
    pub(crate) line: usize,
    pub(crate) column: usize,
    /// A window of the input around the place (never a whole long line).
    #[source_code]
    pub(crate) src: crate::snippet::Snippets,
    #[label("line {line}, column {column}")]
    pub(crate) span: miette::SourceSpan,
}

/// A spec file that is neither an Output Format Spec block nor
/// OutputFormatSpec JSON (boxed in [`CliError`]: it carries the source).
#[derive(Debug, Error, Diagnostic)]
#[error("{name}: {message}")]
#[diagnostic(code(flexmd::invalid_spec))]
pub(crate) struct BadSpec {
    pub(crate) name: String,
    /// The library's [`flexmd_ofs::SpecError`], as text.
    pub(crate) message: String,
    #[help]
    pub(crate) help: Option<String>,
    /// A window of the input around the place (never a whole long line).
    #[source_code]
    pub(crate) src: crate::snippet::Snippets,
    #[label("here")]
    pub(crate) span: Option<miette::SourceSpan>,
}
