//! flexmd-mcp: flexmd as a Model Context Protocol server, for agents.
//!
//! It offers the artifact tools (`artifact_head` … `artifact_md_ast`) over
//! files given at start and files the agent opens under a root
//! (`artifact_open`), and the output checks (`ofs_prompt`, `ofs_validate`,
//! `ofs_extract`, `json_find`, `schema_validate`, `schema_list`,
//! `detect`). Every tool takes `max_tokens` and `cursor`: a result over
//! the budget comes a page at a time, cut between whole lines or whole
//! JSON values (each page of JSON is valid JSON), with a note saying
//! `truncated: true`, what is left and the cursor for the next page. A bad
//! call is a tool result with `isError: true` that says how to fix it.
//! Calls run off the protocol loop, so `ping` answers during a long grep,
//! and a cancelled call stops.
//!
//! The schemas are resources `schema://NAME`, each open file's description
//! `artifact://CALLID`. See the README for the registration snippet and a
//! session transcript.
//!
//! ```no_run
//! let options = flexmd_mcp::Options {
//!     roots: vec!["logs".into()],
//!     ..flexmd_mcp::Options::default()
//! };
//! flexmd_mcp::Server::new(options)?.run_stdio()?;
//! # Ok::<(), flexmd_mcp::ServeError>(())
//! ```

mod checks;
mod error;
mod http;
mod sandbox;
mod server;
mod transport;

pub use error::ServeError;
pub use http::{
    DEFAULT_MAX_CALLS_PER_SESSION, DEFAULT_MAX_SESSIONS, DEFAULT_REQUEST_TIMEOUT,
    DEFAULT_SESSION_IDLE, DEFAULT_SHUTDOWN_DEADLINE, HttpOptions,
};
pub use server::{
    DEFAULT_MAX_OPEN, MIN_RESULT_TOKENS, Options, RESOURCES_PAGE, Server, live_sessions,
};
pub use transport::{DEFAULT_MAX_MESSAGE_BYTES, MAX_MESSAGE_DEPTH};

/// The README's examples, run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
