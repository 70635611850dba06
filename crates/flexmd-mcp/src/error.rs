//! Why the server could not start or stopped.

use std::path::PathBuf;

use miette::Diagnostic;
use thiserror::Error;

/// Why [`crate::Server`] could not start, or why serving ended in error.
/// Errors in a tool call are never this: they are tool results that say
/// how to fix the call.
#[derive(Debug, Error, Diagnostic)]
pub enum ServeError {
    /// A `--root` that is missing or not a directory.
    #[error("cannot use {} as a root: {reason}", path.display())]
    #[diagnostic(
        code(mcp::root),
        help("give an existing directory; files under it can be opened with artifact_open")
    )]
    Root {
        /// The directory as given.
        path: PathBuf,
        /// Why it cannot be used.
        reason: String,
    },
    /// A file given on the command line that cannot be read as an
    /// artifact.
    #[error("cannot open {}", path.display())]
    #[diagnostic(code(mcp::open))]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: flexmd_artifact::ArtifactError,
    },
    /// A budget below the smallest page or above the largest.
    #[error("the result budget must be between {min} and {max} tokens (got {got})")]
    #[diagnostic(code(mcp::budget))]
    Budget {
        /// The budget given.
        got: usize,
        /// The smallest allowed.
        min: usize,
        /// The largest allowed.
        max: usize,
    },
    /// `--http` on an address other machines can reach, without a token.
    #[error("refusing to serve {addr} without authentication")]
    #[diagnostic(
        code(mcp::unauthenticated),
        help(
            "an address other machines can reach needs a bearer token: give --token-file FILE \
             (or set FLEXMD_MCP_TOKEN); or serve a loopback address (127.0.0.1:PORT)"
        )
    )]
    Unauthenticated {
        /// The address asked for.
        addr: std::net::SocketAddr,
    },
    /// A token that is empty or only whitespace.
    #[error("the bearer token is empty")]
    #[diagnostic(
        code(mcp::token),
        help("put a long random token in the file, e.g. `openssl rand -hex 32 > token`")
    )]
    EmptyToken,
    /// The address could not be listened on.
    #[error("cannot listen on {addr}")]
    #[diagnostic(
        code(mcp::bind),
        help("is another server on that port? choose another, or port 0 for any free one")
    )]
    Bind {
        /// The address asked for.
        addr: std::net::SocketAddr,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The transport failed: the client's pipe broke mid-message, or the
    /// handshake did not complete.
    #[error("the MCP connection failed: {0}")]
    #[diagnostic(code(mcp::transport))]
    Transport(String),
}
