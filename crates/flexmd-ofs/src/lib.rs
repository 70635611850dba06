//! flexmd-ofs: the Output Format Spec — a Markdown block that tells any
//! model which sections and tables to answer with — and the checks and
//! extraction of answers written along it. The format is described in
//! `docs/FORMAT.md` of the repository.
//!
//! - [`parse_spec`] / [`render_spec`]: the spec block ⇄ [`OutputFormatSpec`];
//!   [`read_spec`] takes either form, told apart by content; [`default_spec`]
//!   is a general-purpose five-section spec;
//! - [`enrich_instructions`]: only the rules the spec needs;
//! - [`prompt`]: the block plus its rules, ready to paste into a prompt;
//! - [`validate`], [`extract`], [`check`]: an answer against a spec, sharing
//!   one read of the answer; [`ExtractedResult`] holds the sections found;
//! - [`StreamingExtractor`]: the same checks and extraction while the
//!   answer is still streaming in, section by section;
//! - [`to_json`], [`json_schema`]: the answer as a plain object, and the JSON
//!   Schema that object satisfies.
//!
//! The types these functions take and return are re-exported here, so this
//! crate is the one dependency needed.
//!
//! Quick start — spec, prompt, check, JSON:
//!
//! ```
//! use flexmd_ofs::{ExtractOptions, check, parse_spec, prompt, to_json};
//!
//! let spec = parse_spec("- Short answer — prose\n- Risks — list\n").value;
//! // Put this text into the model's prompt.
//! assert!(prompt(&spec).contains("- Risks — list\n"));
//!
//! let answer = "## Short answer\nShip it.\n\n## Risks\n- load\n- cost\n";
//! let (report, extracted) = check(answer, &spec, &ExtractOptions::default());
//! assert!(report.ok);
//! assert_eq!(extracted.sections_by_name["Short answer"].md.trim(), "Ship it.");
//! assert_eq!(
//!     to_json(&extracted, &spec),
//!     serde_json::json!({"Short answer": "Ship it.", "Risks": ["load", "cost"]})
//! );
//! ```

mod check;
mod enrich;
mod error;
mod json;
mod locate;
mod spec;
mod stream;

pub use check::{ExtractOptions, Issue, Report, check, extract, validate};
/// The string type of [`StreamEvent::SectionDelta`]'s text (from `compact_str`),
/// re-exported so a caller can name it without depending on that crate.
pub use compact_str::CompactString;
pub use enrich::{enrich_instructions, prompt, section_correction};
pub use error::SpecError;
pub use flexmd_core::{
    ExtractedResult, ExtractedSection, ListItem, MdNode, MdOutline, OfsSection, OfsTable,
    OutputFormatSpec, Parsed, ParsedList, ParsedTable, SectionKind, TableKind,
};
pub use json::{json_schema, table_key, to_json};
pub use spec::{default_spec, parse_spec, read_spec, render_spec};
pub use stream::{FinishedEvent, StreamEvent, StreamFinish, StreamingExtractor};

/// The README's example, run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
