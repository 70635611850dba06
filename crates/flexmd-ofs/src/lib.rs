//! flexmd-ofs: Layer B of flex-md (seed §4, §5) — the Output Format Spec, a
//! Markdown block that tells any model which sections and tables to answer
//! with.
//!
//! - [`parse_spec`] / [`render_spec`]: the OFS block ⇄
//!   [`OutputFormatSpec`](flexmd_core::OutputFormatSpec) (flex-md's
//!   `parseOutputFormatSpec` / `stringifyOutputFormatSpec`); [`read_spec`]
//!   takes either form, told apart by content; [`default_spec`] is the
//!   five-section spec flex-md's `makeDefaultOfs()` returns;
//! - [`enrich_instructions`]: only the rules the spec needs (seed §5);
//! - [`prompt`]: the block plus its rules, ready to paste into a prompt;
//! - [`validate`], [`extract`], [`check`]: an answer against a spec (seed
//!   Appendix B, §2.4), sharing one read of the answer;
//! - [`to_json`], [`json_schema`]: the answer as a plain object, and the JSON
//!   Schema that object satisfies.
//!
//! The README walks the whole contract: spec → prompt → answer → report → JSON.
//!
//! ```
//! let spec = flexmd_ofs::parse_spec(
//!     "## Output format\n- Short answer — prose\n- Assumptions — list\n",
//! )
//! .value;
//! let prompt = flexmd_ofs::prompt(&spec);
//! assert!(prompt.contains("- Assumptions — list\n"));
//! assert!(prompt.ends_with("- List sections must use '-' bullets (nested allowed).\n"));
//! ```

mod check;
mod enrich;
mod error;
mod json;
mod locate;
mod spec;

pub use check::{ExtractOptions, Issue, Report, check, extract, validate};
pub use enrich::{enrich_instructions, prompt};
pub use error::SpecError;
pub use json::{json_schema, to_json};
pub use spec::{default_spec, parse_spec, read_spec, render_spec};

/// The README's example, run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
