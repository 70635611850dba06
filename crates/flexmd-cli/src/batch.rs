//! `--jsonl`: every record of JSON Lines inputs through one command, on all
//! cores, one result line per record in input order (flexmd-batch).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use flexmd_batch::{Chunks, JsonLines, ParallelMap, Record, RecordError};
use serde_json::{Map, Value};

use crate::error::CliError;

/// The batch flags of `extract`, `validate` and `json`.
#[derive(Debug, Args)]
pub(crate) struct BatchArgs {
    /// Read the inputs as JSON Lines, one answer per line (a JSON string,
    /// or an object holding the answer in --field), and print one result
    /// line per record, in input order, worked on all cores.
    #[arg(long)]
    pub(crate) jsonl: bool,
    /// With --jsonl: the field of each record that holds the answer.
    #[arg(
        long,
        default_value = "response",
        value_name = "NAME",
        requires = "jsonl"
    )]
    pub(crate) field: String,
    /// With --jsonl: how many threads work (default: one per core).
    #[arg(long, value_name = "N", requires = "jsonl")]
    pub(crate) jobs: Option<usize>,
}

/// What one record gave: its result line, what goes to stderr for it, and
/// its exit code.
pub(crate) struct Emitted {
    /// The result line, if the record has one.
    pub(crate) printed: Option<Printed>,
    /// Lines for stderr, each ending in `\n` (empty for none); each is
    /// printed after the input's name and a colon.
    pub(crate) note: String,
    /// 0 valid, 1 invalid.
    pub(crate) code: u8,
}

/// A result line.
pub(crate) enum Printed {
    /// A record's result: these fields after `line` (and `file`).
    Fields(Map<String, Value>),
    /// A value printed as it is (`schema validate --jsonl`'s valid data).
    Bare(Value),
}

impl Emitted {
    /// A result with `fields` and `code`, nothing on stderr.
    pub(crate) fn result(fields: Map<String, Value>, code: u8) -> Self {
        Self {
            printed: Some(Printed::Fields(fields)),
            note: String::new(),
            code,
        }
    }
}

/// `value`'s fields (a struct serialised to an object).
pub(crate) fn fields_of<T: serde::Serialize>(value: &T) -> Map<String, Value> {
    match serde_json::to_value(value) {
        Ok(value) => object(value),
        Err(e) => Map::from_iter([("serializeError".to_owned(), Value::String(e.to_string()))]),
    }
}

/// An object's fields; anything else as `{"result": value}`.
pub(crate) fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => Map::from_iter([("result".to_owned(), other)]),
    }
}

/// A record and the input it comes from (whether results name the file,
/// and its name).
type Source = ((bool, Arc<str>), Result<Record, RecordError>);

/// At most this many records go to a thread at once…
const GROUP_RECORDS: usize = 64;
/// …and at most this many bytes of them (one record may be more).
const GROUP_BYTES: usize = 256 << 10;

/// One result line, made on the worker that judged the record.
struct Line {
    stdout: Option<String>,
    note: String,
    code: u8,
    error: bool,
}

/// Runs `each` on every record of `files` (standard input when none or
/// `-`) on `jobs` threads and prints one line per record, in order: the
/// result (`{"file"?, "line", ...}`), or an error line for a record that
/// cannot be read (`{"line", "ok": false, "error": {code, message}}`).
/// With `errors_on_stderr` an unreadable record is a line on stderr
/// instead (for output that is data only). A summary goes to stderr,
/// progress too on a terminal. The exit code is the worst record's: 1 for
/// an invalid or unreadable record, 2 when an input cannot be read on.
pub(crate) fn run<F>(
    files: &[PathBuf],
    jobs: Option<usize>,
    errors_on_stderr: bool,
    each: F,
) -> Result<ExitCode, CliError>
where
    F: Fn(Record) -> Result<Emitted, RecordError> + Send + Sync + 'static,
{
    let stdin = [PathBuf::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    for file in files {
        if !crate::input::is_stdin(Some(file)) {
            crate::input::check_file(file)?;
        }
    }
    let several = files.len() > 1;
    let labels: Vec<(bool, Arc<str>)> = files
        .iter()
        .map(|f| {
            let name = if crate::input::is_stdin(Some(f)) {
                "<stdin>".to_owned()
            } else {
                f.display().to_string()
            };
            (several, Arc::from(name))
        })
        .collect();
    let sources = files
        .iter()
        .cloned()
        .zip(labels)
        .flat_map(|(file, label)| records(file).map(move |r| (label.clone(), r)));
    let each = Arc::new(each);
    let worker = move |group: Vec<Source>| -> Vec<Line> {
        group
            .into_iter()
            .map(|((labelled, name), record)| {
                line(&name, labelled, errors_on_stderr, record, &*each)
            })
            .collect()
    };
    // Records go to the threads in groups: a hand-off costs about as much
    // as checking a short answer.
    let groups = Chunks::new(sources, GROUP_RECORDS, GROUP_BYTES, |(_, record)| {
        record.as_ref().map_or(0, |r| r.text.len())
    });
    let results = ParallelMap::new(groups, jobs.unwrap_or(0), worker).flatten();
    let name = if several {
        format!("{} files", files.len())
    } else {
        files
            .first()
            .filter(|f| !crate::input::is_stdin(Some(f)))
            .map_or_else(|| "<stdin>".to_owned(), |f| f.display().to_string())
    };
    let progress = crate::output::Progress::start(&format!("flexmd: {name}"));
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let (mut total, mut invalid, mut unreadable, mut worst) = (0usize, 0usize, 0usize, 0u8);
    for result in results {
        total += 1;
        worst = worst.max(result.code);
        invalid += usize::from(result.code > 0 && !result.error);
        unreadable += usize::from(result.error);
        if !result.note.is_empty() {
            // Flushed first, so the two streams read in order on a terminal.
            out.flush().map_err(CliError::Stdout)?;
            eprint!("{}", result.note);
        }
        if let Some(text) = result.stdout {
            out.write_all(text.as_bytes())
                .and_then(|()| out.write_all(b"\n"))
                .map_err(CliError::Stdout)?;
        }
        if total % 1024 == 0 {
            progress.set(format!(": {total} records, {invalid} invalid"));
        }
    }
    out.flush().map_err(CliError::Stdout)?;
    drop(progress);
    let mut summary = format!("{name}: {total} records, {invalid} invalid");
    if unreadable > 0 {
        summary.push_str(&format!(", {unreadable} unreadable"));
    }
    eprintln!("{summary}");
    Ok(ExitCode::from(worst))
}

/// The records of one input, opened when the batch reaches it.
fn records(file: PathBuf) -> Box<dyn Iterator<Item = Result<Record, RecordError>>> {
    if crate::input::is_stdin(Some(&file)) {
        return Box::new(JsonLines::new(std::io::stdin().lock()));
    }
    match std::fs::File::open(&file) {
        Ok(f) => Box::new(JsonLines::new(std::io::BufReader::with_capacity(
            1 << 16,
            f,
        ))),
        Err(e) => Box::new(std::iter::once(Err(RecordError::Io {
            line: 0,
            message: format!("{}: {e}", file.display()),
        }))),
    }
}

/// One record of input `name` judged and written as its line (with a
/// `file` field when `labelled`). A panic (a bug) becomes an error line for
/// that record, not the end of the batch.
fn line<F>(
    name: &str,
    labelled: bool,
    errors_on_stderr: bool,
    record: Result<Record, RecordError>,
    each: &F,
) -> Line
where
    F: Fn(Record) -> Result<Emitted, RecordError>,
{
    let number = match &record {
        Ok(r) => r.line,
        Err(e) => e.line(),
    };
    let judged = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| record.and_then(each)));
    let (emitted, error) = match judged {
        Ok(Ok(emitted)) => (emitted, false),
        Ok(Err(e)) => {
            let code = if matches!(e, RecordError::Io { .. }) {
                2
            } else {
                1
            };
            if errors_on_stderr {
                let message = e.to_string();
                let prefix = format!("line {}: ", e.line());
                let message = message.strip_prefix(&prefix).unwrap_or(&message);
                let note = format!("{}: error[{}]: {message}\n", e.line(), e.code());
                let emitted = Emitted {
                    printed: None,
                    note,
                    code,
                };
                (emitted, true)
            } else {
                (Emitted::result(object(e.to_record()), code), true)
            }
        }
        Err(_) => {
            let fields = serde_json::json!({
                "ok": false,
                "error": {"code": "internal", "message": "flexmd failed on this record (a bug: please report it with the record)"},
            });
            (Emitted::result(object(fields), 1), true)
        }
    };
    let stdout = emitted.printed.map(|printed| {
        let fields = match printed {
            Printed::Fields(fields) => fields,
            Printed::Bare(value) => return serde_json::to_string(&value).unwrap_or_default(),
        };
        let mut first = Map::new();
        if labelled {
            first.insert("file".to_owned(), Value::String(name.to_owned()));
        }
        first.insert("line".to_owned(), Value::from(number));
        for (key, value) in fields {
            if key != "line" {
                first.insert(key, value);
            }
        }
        serde_json::to_string(&Value::Object(first)).unwrap_or_default()
    });
    let note: String = emitted
        .note
        .lines()
        .map(|l| format!("{name}:{l}\n"))
        .collect();
    Line {
        stdout,
        note,
        code: emitted.code,
        error,
    }
}
