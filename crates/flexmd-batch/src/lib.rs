//! flexmd-batch: flexmd over millions of answers. Reads JSON Lines one
//! record at a time ([`JsonLines`]), maps each record on every core
//! ([`ParallelMap`]) and gives the results in input order, with memory
//! that stays flat whatever the input's size; a record that cannot be read
//! becomes an error result for its line ([`RecordError::to_record`]), never
//! the end of the batch.
//!
//! `flexmd extract|validate|json|schema validate --jsonl` are built on it.
//!
//! ```
//! use flexmd_batch::{JsonLines, ParallelMap, Record, RecordError};
//!
//! let input: &[u8] = b"{\"id\": 1, \"response\": \"yes\"}\n{\"id\": 2}\n\"no\"\n";
//! let lengths: Vec<Result<(usize, usize), RecordError>> = ParallelMap::new(
//!     JsonLines::new(input),
//!     0, // one worker per core
//!     |record: Result<Record, RecordError>| {
//!         let record = record?;
//!         Ok((record.line, record.answer("response")?.len()))
//!     },
//! )
//! .collect();
//! assert_eq!(lengths[0], Ok((1, 3)));
//! assert_eq!(lengths[1].as_ref().unwrap_err().code(), "missing_field");
//! assert_eq!(lengths[2], Ok((3, 2)));
//! ```

mod lines;
mod parallel;

pub use lines::{DEFAULT_MAX_LINE_BYTES, JsonLines, Record, RecordError, take_answer};
pub use parallel::{Chunks, ParallelMap};

/// The README's example, run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
