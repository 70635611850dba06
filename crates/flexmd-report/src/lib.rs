//! flexmd-report: how well answers follow their format, in aggregate.
//!
//! Teams choosing a model or a prompt run thousands of answers through
//! flexmd; this crate counts what it found, in one streaming pass: per
//! group (a model, a prompt), the share of valid answers with its 95%
//! Wilson interval, the share valid only because of a lenient reading,
//! each error and leniency by code, each section's problems (missing,
//! empty, of the wrong kind) and the answers' lengths in tokens. Each
//! answer is counted and dropped: memory grows with the groups, codes and
//! sections met, not with the answers.
//!
//! ```
//! use flexmd_report::{Judged, Tally};
//!
//! let spec = flexmd_ofs::parse_spec("- Short answer — prose\n- Steps — ordered list\n").value;
//! let mut tally = Tally::new(vec!["model".to_owned()]);
//! for (model, answer) in [("a", "## Short answer\nYes.\n"), ("b", "## Short answer\nYes.\n\n## Steps\n1. go\n")] {
//!     let report = flexmd_ofs::validate(answer, &spec);
//!     tally.add(vec![model.to_owned()], &Judged::from_report(&report, answer.len() / 4));
//! }
//! let summary = tally.summary();
//! assert_eq!(summary.groups[0].sections["Steps"].missing, 1);
//! assert_eq!(summary.groups[1].valid_share, 1.0);
//! ```

mod interval;
mod tally;

pub use interval::{Interval, wilson_interval};
pub use tally::{
    Finding, GroupSummary, Judged, SectionCounts, Summary, TOKEN_BUCKETS, Tally, TokenBucket,
};

/// The README's example, run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
