//! `--stream`: an answer read as it arrives (standard input, or a file),
//! and what it settles printed as JSON Lines, one flushed line per event.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::error::CliError;
use crate::input::{Input, check_file, is_stdin};
use crate::output::{print_json_line, write_json_line};

/// How much is read at a time (a read returns sooner with what a pipe has).
const READ_SIZE: usize = 64 * 1024;

/// The 1-based line and column reached in a stream, for the place of
/// invalid UTF-8 (lines end at `\n`, `\r\n` or a lone `\r`).
#[derive(Debug, Clone, Copy)]
struct Place {
    line: usize,
    column: usize,
    after_cr: bool,
}

impl Place {
    fn advance(&mut self, text: &str) {
        for c in text.chars() {
            match c {
                '\n' if self.after_cr => {}
                '\n' | '\r' => {
                    self.line += 1;
                    self.column = 1;
                }
                _ => self.column += 1,
            }
            self.after_cr = c == '\r';
        }
    }
}

/// Reads `file` (standard input for none or `-`) piece by piece as it
/// arrives and calls `each` with each piece of text (whole characters).
/// Invalid UTF-8 is an error naming its place.
fn read_pieces(
    file: Option<&Path>,
    mut each: impl FnMut(&str) -> Result<(), CliError>,
) -> Result<String, CliError> {
    let (name, mut reader): (String, Box<dyn Read>) = match file {
        Some(path) if !is_stdin(Some(path)) => {
            check_file(path)?;
            let file = std::fs::File::open(path).map_err(|source| CliError::Read {
                path: path.to_owned(),
                source,
            })?;
            (path.display().to_string(), Box::new(file))
        }
        _ => ("<stdin>".to_owned(), Box::new(std::io::stdin())),
    };
    let mut buffer = vec![0; READ_SIZE];
    let mut pending: Vec<u8> = Vec::new();
    let mut offset = 0;
    let mut place = Place {
        line: 1,
        column: 1,
        after_cr: false,
    };
    let bad = |name: &str, offset: usize, place: Place| CliError::Decode {
        name: name.to_owned(),
        source: flexmd_core::Error::InvalidUtf8 {
            offset,
            line: place.line,
            column: place.column,
        },
    };
    loop {
        let read = match reader.read(&mut buffer) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) if file.is_none() || is_stdin(file) => return Err(CliError::Stdin(e)),
            Err(source) => {
                return Err(CliError::Read {
                    path: file.map(Path::to_owned).unwrap_or_default(),
                    source,
                });
            }
        };
        if read == 0 {
            break;
        }
        pending.extend_from_slice(buffer.get(..read).unwrap_or_default());
        let (valid, broken) = match std::str::from_utf8(&pending) {
            Ok(_) => (pending.len(), false),
            Err(e) => (e.valid_up_to(), e.error_len().is_some()),
        };
        let text =
            std::str::from_utf8(pending.get(..valid).unwrap_or_default()).unwrap_or_default();
        if !text.is_empty() {
            each(text)?;
            place.advance(text);
            offset += valid;
        }
        if broken {
            return Err(bad(&name, offset, place));
        }
        // A character cut by the read waits for its last bytes.
        pending.drain(..valid);
    }
    if !pending.is_empty() {
        return Err(bad(&name, offset, place));
    }
    Ok(name)
}

/// The one input a stream reads: none, `-` or one file.
fn one_input(files: &[PathBuf]) -> Result<Option<&Path>, CliError> {
    match files {
        [] => Ok(None),
        [file] => Ok(Some(file.as_path())),
        _ => Err(CliError::Usage(
            "--stream reads one answer: give one file, or none for standard input".to_owned(),
        )),
    }
}

/// `flexmd extract --stream`: the events of a
/// [`StreamingExtractor`](flexmd_ofs::StreamingExtractor), then a
/// `finished` line with the report and the result.
pub(crate) fn extract(
    spec: &flexmd_ofs::OutputFormatSpec,
    responses: &[PathBuf],
    options: &flexmd_ofs::ExtractOptions,
    as_json: bool,
    strict: bool,
) -> Result<ExitCode, CliError> {
    let file = one_input(responses)?;
    let mut stream = flexmd_ofs::StreamingExtractor::with_options(spec, options);
    let name = read_pieces(file, |piece| {
        stream
            .push(piece)
            .try_for_each(|event| print_json_line(&event))
    })?;
    // Each last event is printed as it is lent: the largest section is not
    // copied into an event beside the result.
    let mut printed = Ok(());
    let mut end = stream.finish_each(|event| {
        if printed.is_ok() {
            printed = print_json_line(event);
        }
    });
    printed?;
    if strict {
        end.report = end.report.into_strict();
    }
    write_json_line(&end.finished(spec, as_json))?;
    let report = end.report;
    if !report.ok || !report.warnings.is_empty() {
        let input = Input {
            name,
            text: end.text,
        };
        crate::ofs::report_issues(&input, &report);
    }
    Ok(ExitCode::from(u8::from(!report.ok)))
}

/// `flexmd json --stream`: an `update` line for each piece that changes
/// the partial value (JSON Patch operations, completed paths, the cursor),
/// then a `finished` line with the value `flexmd json` prints for the whole
/// text (and, with `--repairs`, where it was and how it was repaired).
pub(crate) fn json(files: &[PathBuf], repairs: bool) -> Result<ExitCode, CliError> {
    let file = one_input(files)?;
    let mut stream = flexmd_detect::StreamingJson::new();
    read_pieces(file, |piece| {
        let update = stream.push(piece);
        if update.is_empty() {
            return Ok(());
        }
        print_json_line(&update)
    })?;
    let end = stream.finish();
    print_json_line(&end.finished_event(repairs))?;
    Ok(ExitCode::from(u8::from(end.found.is_none())))
}
