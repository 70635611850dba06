//! flexmd-core: the shared data model and the Markdown outline, list and table
//! builders every flexmd layer stands on. It does no I/O.
//!
//! - [`model`]: the flex-md JSON contract (see docs/FORMAT.md): [`FlexDocument`],
//!   [`OutputFormatSpec`], [`MdOutline`], [`ParsedList`], [`ParsedTable`],
//!   [`ExtractedResult`] and their parts.
//! - [`build_outline`] / [`render_outline`]: Markdown headings to a nested
//!   tree and back.
//! - [`parse_list`]: list items to a [`ListItem`] tree.
//! - [`parse_tables`]: GFM pipe tables to string cells.
//! - [`read_markdown`]: outline, tables and lists from one read, a piece at
//!   a time; [`MarkdownStream`]: the same, read while the text is still
//!   arriving.
//! - [`normalize_title`], [`slugify`], [`KeyAllocator`]: matching and keys.
//! - [`MetaTypeMode`], [`infer_meta_value`]: meta value typing.
//! - [`code_blocks`], [`front_matter`]: literal blocks, found by the parser.
//! - [`json_nesting_exceeds`]: the depth guard run before recursive JSON parsers;
//!   [`json_values_exceed`] and [`MAX_JSON_VALUES`]: the size guard run before
//!   any JSON parser builds a tree.
//! - [`Diagnostic`], [`Parsed`]: lenient results with what was noticed.
//! - [`TextOffsets`]: byte offsets as the indices a binding's language uses
//!   (UTF-16 units for JavaScript, code points for Python).
//! - [`decode_utf8`], [`LineIndex`], [`Error`]: turning input bytes into
//!   text and byte offsets into `line:column` ([`LineStarts`]: the same
//!   index, grown as a stream's text arrives).
//!
//! Markdown parsing never fails: every builder returns a value for any input,
//! in linear time, without recursion on the input's nesting.
//!
//! ```
//! use flexmd_core::{build_outline, parse_list};
//!
//! let answer = "## Short answer\nYes.\n\n## Assumptions\n- the API is stable\n- it is fast\n";
//! let outline = build_outline(answer);
//! let assumptions = &outline.nodes[1];
//! assert_eq!(assumptions.title, "Assumptions");
//!
//! let list = parse_list(&assumptions.content_md).unwrap();
//! assert_eq!(list.items[1].text, "it is fast");
//! assert_eq!(
//!     serde_json::to_value(&outline).unwrap()["nodes"][0]["content_md"],
//!     "Yes.\n\n"
//! );
//! ```

mod code;
mod diagnostic;
mod error;
mod json;
/// Line-level readers shared with flexmd-ofs (list markers, link
/// reference definitions); not part of the stable API.
#[doc(hidden)]
pub mod line_kind;
mod list;
mod markdown;
mod meta;
pub mod model;
mod offsets;
mod outline;
mod parts;
mod stream;
mod table;
mod text;

pub use code::{CodeBlock, FenceOpening, code_blocks, fence_opening, front_matter};
pub use diagnostic::{Diagnostic, Parsed, Severity};
pub use error::{Error, LineIndex, LineStarts, decode_utf8};
pub use json::{MAX_JSON_DEPTH, MAX_JSON_VALUES, json_nesting_exceeds, json_values_exceed};
pub use list::{MAX_LIST_DEPTH, TopLevelList, parse_list};
pub use meta::{MetaType, MetaTypeMismatch, MetaTypeMode, infer_meta_value, split_meta_list};
pub use model::*;
pub use offsets::{OffsetUnit, TextOffsets};
pub use outline::{StreamHeading, build_outline, render_outline};
pub use parts::{MarkdownParts, read_markdown_in_one_parse};
pub use stream::{MarkdownStream, read_markdown, read_markdown_with_lines};
pub use table::parse_tables;
pub use text::{KeyAllocator, LineSpan, bom_len, line_spans, normalize_title, slugify};

/// The README's example, run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
