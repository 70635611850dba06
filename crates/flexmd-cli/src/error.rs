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
    /// Writing the result failed (e.g. a closed pipe).
    #[error("cannot write to standard output")]
    #[diagnostic(code(flexmd::write))]
    Stdout(#[source] std::io::Error),
    /// A result could not be turned into JSON.
    #[error("cannot serialise the result as JSON")]
    #[diagnostic(code(flexmd::serialize))]
    Serialize(#[source] serde_json::Error),
}

impl CliError {
    /// 2 for usage errors and unreadable input, 1 for anything else.
    pub(crate) fn exit_code(&self) -> ExitCode {
        match self {
            Self::Read { .. } | Self::Stdin(_) | Self::Decode { .. } => ExitCode::from(2),
            Self::Stdout(_) | Self::Serialize(_) => ExitCode::from(1),
        }
    }
}
