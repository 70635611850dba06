//! The streaming pass: JSON Lines in, each record judged on every core,
//! counted in input order into a [`Tally`].

use std::io::BufRead;
use std::sync::Arc;

use flexmd_batch::{Chunks, JsonLines, ParallelMap, Record, RecordError, take_answer};
use serde_json::Value;

use crate::judge::{Checker, ReportError, judge_result};
use crate::judged::Judged;
use crate::tally::{DEFAULT_WORST, InvalidLine, Summary, Tally};

/// How a JSON Lines file of answers is read and grouped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The fields whose values name an answer's group (`model`, `prompt`).
    pub group_by: Vec<String>,
    /// The field that holds the answer (a record may also be the answer
    /// itself, a JSON string).
    pub field: String,
    /// How many worst answers each group keeps.
    pub worst: usize,
    /// Threads that judge (0: one per core).
    pub jobs: usize,
    /// The unit of the worst answers' offsets: bytes when `None` (the
    /// CLI), a binding's string indices otherwise.
    pub offsets: Option<flexmd_core::OffsetUnit>,
}

impl Default for Options {
    /// No grouping, the answer in `response`, 20 worst answers a group,
    /// every core.
    fn default() -> Self {
        Self {
            group_by: Vec::new(),
            field: "response".to_owned(),
            worst: DEFAULT_WORST,
            jobs: 0,
            offsets: None,
        }
    }
}

/// The value of a group field that a record lacks.
pub const NO_VALUE: &str = "(none)";

/// One record's outcome, made on a worker.
type Outcome = Result<Answer, ReportError>;

/// A record, and with [`Check::Results`](crate::Check::Results) the answer
/// record it is the result of.
type Work = (Result<Record, RecordError>, Option<Record>);

/// Reports the JSON Lines `input` in one pass: each record's answer judged
/// by `checker` (on [`Options::jobs`] threads), counted by group. With
/// [`Check::Results`](crate::Check::Results), `input` holds result lines
/// and `answers`, when given, the records they are the results of
/// (matched by their `line`): the group fields and the answer text come
/// from there. `progress` is called with the records read so far, every
/// 4 096.
///
/// Memory grows with the groups and the kept examples, not the records.
///
/// ```
/// use flexmd_report::{Check, Checker, Options, report_lines};
/// let spec = flexmd_ofs::parse_spec("- Short answer — prose\n").value;
/// let checker = Checker::new(Check::Spec { spec, strict: false }, flexmd_schema::Registry::new()).unwrap();
/// let input = "{\"model\": \"a\", \"response\": \"## Short answer\\nYes.\"}\nnot json\n";
/// let options = Options { group_by: vec!["model".to_owned()], ..Options::default() };
/// let summary = report_lines(input.as_bytes(), None::<&[u8]>, checker, &options, &mut |_| {}).unwrap();
/// assert_eq!((summary.answers, summary.groups[0].valid), (1, 1));
/// assert_eq!(summary.invalid_lines.listed[0].code, "invalid_json");
/// ```
///
/// # Errors
///
/// [`ReportError::Io`] when an input cannot be read to its end.
pub fn report_lines<R: BufRead, A: BufRead>(
    input: R,
    answers: Option<A>,
    checker: Checker,
    options: &Options,
    progress: &mut dyn FnMut(u64),
) -> Result<Summary, ReportError> {
    let mut tally = Tally::new(options.group_by.clone())
        .keeping_worst(options.worst)
        .with_offsets(options.offsets);
    let mut read = 0u64;
    each_answer(input, answers, checker, options, &mut |answer| {
        read += 1;
        if read.is_multiple_of(4096) {
            progress(read);
        }
        match answer {
            Answer::Judged {
                line,
                group,
                judged,
                text,
            } => tally.add_answer(group, judged, line, text.as_deref()),
            Answer::Invalid(invalid) => tally.add_invalid(invalid),
        }
    })?;
    progress(read);
    Ok(tally.summary())
}

/// One record of the input, judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// An answer and its verdict.
    Judged {
        /// Its 1-based line in the input.
        line: usize,
        /// Its values of the group fields, in [`Options::group_by`]'s order.
        group: Vec<String>,
        /// The verdict.
        judged: Judged,
        /// Its text, when known.
        text: Option<String>,
    },
    /// A line that holds no answer.
    Invalid(InvalidLine),
}

/// One answer as a row of a table (a pandas DataFrame in Python): its
/// line, group values, verdict and codes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct AnswerRow {
    /// Its 1-based line in the input.
    pub line: usize,
    /// Its value of each group field.
    pub group: std::collections::BTreeMap<String, String>,
    /// Whether it follows the format.
    pub valid: bool,
    /// Whether it is valid only because of a lenient reading or a repair.
    pub lenient: bool,
    /// Its errors' codes.
    pub errors: Vec<String>,
    /// Its lenient readings' codes.
    pub warnings: Vec<String>,
    /// Its JSON repairs' kinds.
    pub repairs: Vec<String>,
    /// Its length in tokens, when its text is known.
    pub tokens: Option<usize>,
}

impl AnswerRow {
    /// The row of a judged answer whose group values are `group` (named by
    /// `group_by`).
    #[must_use]
    pub fn new(line: usize, group_by: &[String], group: Vec<String>, judged: &Judged) -> Self {
        let codes = |f: &[crate::Finding]| f.iter().map(|f| f.code.clone()).collect();
        Self {
            line,
            group: group_by.iter().cloned().zip(group).collect(),
            valid: judged.valid,
            lenient: judged.lenient(),
            errors: codes(&judged.errors),
            warnings: codes(&judged.warnings),
            repairs: codes(&judged.repairs),
            tokens: judged.tokens,
        }
    }
}

/// Judges every record of the JSON Lines `input`, as [`report_lines`]
/// does, and gives each to `each` in input order (for a caller that keeps
/// its own tally, or every answer's row).
///
/// # Errors
///
/// [`ReportError::Io`] when an input cannot be read to its end,
/// [`ReportError::Cancelled`] when the call was given up
/// ([`flexmd_artifact::cancellable`]).
pub fn each_answer<R: BufRead, A: BufRead>(
    input: R,
    answers: Option<A>,
    checker: Checker,
    options: &Options,
    each: &mut dyn FnMut(Answer),
) -> Result<(), ReportError> {
    let checker = Arc::new(checker);
    let results = checker.reads_results();
    let mut answers = answers.map(|a| JsonLines::new(a).peekable());
    let works = JsonLines::new(input).map(move |record| -> Work {
        let answer = match (&record, answers.as_mut()) {
            (Ok(result), Some(answers)) => {
                result_line(result).and_then(|line| answer_at(answers, line))
            }
            _ => None,
        };
        (record, answer)
    });
    let groups = Chunks::new(works, 64, 256 << 10, |(r, _)| {
        r.as_ref().map_or(0, |r| r.text.len())
    });
    let (field, group_by) = (options.field.clone(), options.group_by.clone());
    let worker = move |chunk: Vec<Work>| -> Vec<Outcome> {
        chunk
            .into_iter()
            .map(|(record, answer)| outcome(&checker, results, &field, &group_by, record, answer))
            .collect()
    };
    for outcome in ParallelMap::new(groups, options.jobs, worker).flatten() {
        // A caller that gave up (Ctrl-C in Python) stops the pass here.
        if flexmd_artifact::cancelled() {
            return Err(ReportError::Cancelled);
        }
        each(outcome?);
    }
    Ok(())
}

/// The input line a result line is the result of (its `line` field).
fn result_line(result: &Record) -> Option<usize> {
    #[derive(serde::Deserialize)]
    struct LineOf {
        line: usize,
    }
    serde_json::from_str::<LineOf>(&result.text)
        .ok()
        .map(|l| l.line)
}

/// The answer record at `line`, skipping those before it (results come
/// in input order).
fn answer_at<I>(answers: &mut std::iter::Peekable<I>, line: usize) -> Option<Record>
where
    I: Iterator<Item = Result<Record, RecordError>>,
{
    loop {
        let at = match answers.peek()? {
            Ok(record) => record.line,
            Err(e) => e.line(),
        };
        if at > line {
            return None;
        }
        let next = answers.next()?;
        if at == line {
            return next.ok();
        }
    }
}

/// One record judged.
fn outcome(
    checker: &Checker,
    results: bool,
    field: &str,
    group_by: &[String],
    record: Result<Record, RecordError>,
    answer: Option<Record>,
) -> Outcome {
    let record = match record {
        Ok(record) => record,
        Err(e @ RecordError::Io { .. }) => {
            return Err(ReportError::Io {
                line: e.line(),
                message: e.to_string(),
            });
        }
        Err(e) => return Ok(Answer::Invalid(invalid(&e))),
    };
    let line = record.line;
    let value = match record.value() {
        Ok(value) => value,
        Err(e) => return Ok(Answer::Invalid(invalid(&e))),
    };
    if results {
        let mut judged = match judge_result(&value) {
            Ok(judged) => judged,
            Err(mut e) => {
                e.line = line;
                return Ok(Answer::Invalid(e));
            }
        };
        // Group fields and text from the answer record, else from the line.
        let source = answer.and_then(|a| a.value().ok()).unwrap_or(value);
        let group = group_of(&source, group_by);
        let text = take_answer(source, field, line).ok();
        judged.tokens = text.as_deref().map(|t| {
            flexmd_artifact::count_tokens(t.as_bytes(), flexmd_artifact::Encoding::O200kBase)
        });
        return Ok(Answer::Judged {
            line,
            group,
            judged,
            text,
        });
    }
    let group = group_of(&value, group_by);
    match take_answer(value, field, line) {
        Ok(text) => Ok(Answer::Judged {
            line,
            group,
            judged: checker.judge(&text),
            text: Some(text),
        }),
        Err(e) => Ok(Answer::Invalid(invalid(&e))),
    }
}

fn invalid(e: &RecordError) -> InvalidLine {
    InvalidLine {
        line: e.line(),
        code: e.code().to_owned(),
        message: e.to_string(),
    }
}

/// The record's value of each group field: a string as it is, another
/// value as JSON, [`NO_VALUE`] when it has none.
fn group_of(value: &Value, group_by: &[String]) -> Vec<String> {
    group_by
        .iter()
        .map(|name| match value.get(name) {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => NO_VALUE.to_owned(),
        })
        .collect()
}
