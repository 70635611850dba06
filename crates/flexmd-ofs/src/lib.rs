//! flexmd-ofs: Layer B of flex-md (seed §4, §5) — the Output Format Spec, a
//! Markdown block that tells any model which sections and tables to answer
//! with.
//!
//! - [`parse_spec`] / [`render_spec`]: the OFS block ⇄
//!   [`OutputFormatSpec`](flexmd_core::OutputFormatSpec) (seed
//!   `parseOutputFormatSpec` / `stringifyOutputFormatSpec`);
//! - [`enrich_instructions`]: only the rules the spec needs (seed §5);
//! - [`prompt`]: the block plus its rules, ready to paste into a prompt.
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
//!
//! Checking and extracting answers against a spec (validate, extract,
//! `to_json`, `json_schema`) is not built yet; see the README.

mod enrich;
mod spec;

pub use enrich::{enrich_instructions, prompt};
pub use spec::{parse_spec, render_spec};

/// The README's example, run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
