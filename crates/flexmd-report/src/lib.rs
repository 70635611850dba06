//! flexmd-report: how well answers follow their format, in aggregate.
//!
//! Teams choosing a model or a prompt run thousands of answers through
//! flexmd; this crate reads them (a JSON Lines file, one answer per
//! record, or the result lines a batch check printed) and counts what the
//! checks found, in one streaming pass: per group (a model, a prompt), the
//! share of valid answers with its 95% Wilson interval, the share valid
//! only because of a lenient reading or a JSON repair, each error,
//! leniency and repair by kind, each section's problems (missing, empty,
//! of the wrong kind), the answers' lengths in tokens and the worst
//! answers. Each answer is counted and dropped: memory grows with the
//! groups and the kept examples, not with the answers.
//!
//! ```
//! use flexmd_report::{Judged, Tally};
//!
//! let spec = flexmd_ofs::parse_spec("- Short answer — prose\n- Steps — ordered list\n").value;
//! let mut tally = Tally::new(vec!["model".to_owned()]);
//! for (model, answer) in [("a", "## Short answer\nYes.\n"), ("b", "## Short answer\nYes.\n\n## Steps\n1. go\n")] {
//!     let report = flexmd_ofs::validate(answer, &spec);
//!     tally.add(vec![model.to_owned()], &Judged::from_report(&report, Some(answer.len() / 4)));
//! }
//! let summary = tally.summary();
//! assert_eq!(summary.groups[0].sections["Steps"].missing, 1);
//! assert_eq!(summary.groups[1].valid_share, 1.0);
//! ```

mod charts;
mod html;
mod interval;
mod judge;
mod judged;
mod markdown;
mod read;
mod tally;
mod worst;

pub use html::{About, MAX_PAGE_EXAMPLES, MAX_PAGE_GROUPS, escape_html, render_html};
pub use interval::{Interval, wilson_interval};
pub use judge::{Check, Checker, JSON5_READING, ReportError, SchemaRef, judge_result};
pub use judged::{Finding, Judged};
pub use markdown::render_markdown;
pub use read::{Answer, AnswerRow, NO_VALUE, Options, each_answer, report_lines};
pub use tally::{
    DEFAULT_WORST, GroupSummary, InvalidLine, InvalidLines, MAX_INVALID_LISTED, MAX_KEYS, OTHER,
    SectionCounts, Summary, TOKEN_BUCKETS, Tally, TokenBucket,
};
pub use worst::{Example, Excerpt, MAX_EXCERPT_BYTES, MAX_EXCERPT_LINES};

/// The README's example, run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
