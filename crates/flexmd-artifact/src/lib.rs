//! flexmd-artifact: spooled artifacts — tool outputs too large for a
//! prompt, queried lazily by line, as JSON or as Markdown, with token
//! counts — the function-calling tools forged over them, and the agent
//! [`Turn`] that spools results, offers the tools and runs their calls.
//! See the README for the line rules, grep's dialect, the JSON formats and
//! the turn's lifecycle.
//!
//! ```
//! use flexmd_artifact::{GrepFlags, MemoryReader, SpooledArtifact};
//! let a = SpooledArtifact::new(MemoryReader::new("GET /a 200\nGET /b 500\n"));
//! assert_eq!(a.grep(" 5\\d\\d$", GrepFlags::NONE).unwrap(), ["GET /b 500"]);
//! ```

mod artifact;
mod autolink;
mod call;
mod cancel;
mod error;
mod grep;
mod json;
mod jsonpath;
mod kind;
mod markdown;
mod page;
mod reader;
mod tokens;
mod tools;
mod turn;

pub use artifact::{GrepChunk, SpooledArtifact, TextChunk};
pub use autolink::Link;
pub use call::{ToolCall, ToolCallResult, tool_calls};
pub use cancel::{cancellable, cancelled};
pub use error::ArtifactError;
pub use grep::{GrepFlags, GrepPattern, MAX_PATTERN_LEN};
pub use json::{JsonFormat, MAX_DOCUMENT_BYTES, SpooledJsonArtifact};
pub use jsonpath::{
    MAX_FILTER_NESTING, MAX_PATH_LEN, MAX_PATH_NESTING, compile_path, trailing_length,
};
pub use kind::{Artifact, ArtifactKind, ReadAs};
pub use markdown::{
    CodeEntry, HeadingEntry, Image, ListChunk, MAX_AST_BYTES, MAX_AST_NESTING,
    MAX_AST_OPEN_BRACKETS, MAX_FRONTMATTER_BYTES, Section, SpooledMarkdownArtifact,
};
pub use page::{
    DEFAULT_MAX_TOKENS, MAX_PAGE_TOKENS, MIN_MAX_TOKENS, Omitted, Page, PageUnit, page_value,
};
pub use reader::{FileReader, Lines, MAX_UNSIZED_FILE_BYTES, MemoryReader, SpoolReader};
pub use tokens::{Encoding, TokenChunk, count_tokens, count_tokens_chunk};
pub use tools::{
    AnthropicTool, Caps, FunctionType, MAX_LISTED_CALL_IDS, OpenAiTool, ResponsesTool,
    ToolDefinition, ToolFormat, ToolInfo, ToolSet, check_arguments, default_serialise, forge_tools,
    tool_catalogue,
};
pub use turn::{
    CustomTool, PreparedCall, ResultKind, SerialiseFn, ToolFn, ToolOutput, Turn, TurnOptions,
};

/// The README's example, run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
