//! Reading a command's input: a file, or standard input for none or `-`;
//! several files one by one; standard input spooled to a file for the
//! commands that map files.

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value;

use crate::error::{CliError, InvalidJson};

/// How many diagnostics one command prints in full.
pub(crate) const MAX_PRINTED: usize = 50;

/// A command's input text and the name diagnostics use for it.
pub(crate) struct Input {
    /// The name shown in diagnostics: the path as given, or `<stdin>`.
    pub(crate) name: String,
    /// The whole input, as UTF-8 text.
    pub(crate) text: String,
}

/// Whether `file` means standard input (none, or `-`).
pub(crate) fn is_stdin(file: Option<&Path>) -> bool {
    file.is_none_or(|p| p == Path::new("-"))
}

/// Checks that `path` is a file that can be opened: the same message for a
/// missing file, a directory and an unreadable file in every command.
pub(crate) fn check_file(path: &Path) -> Result<(), CliError> {
    let read_error = |source| CliError::Read {
        path: path.to_owned(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(read_error)?;
    if meta.is_dir() {
        return Err(CliError::IsDirectory(path.to_owned()));
    }
    std::fs::File::open(path).map(drop).map_err(read_error)
}

/// All of standard input, saying so first when it is a terminal (a command
/// waiting for typed input looks hung otherwise).
fn read_stdin() -> Result<Vec<u8>, CliError> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprintln!("flexmd: reading standard input (end it with Ctrl-D; --help for usage)");
    }
    let mut bytes = Vec::new();
    stdin
        .lock()
        .read_to_end(&mut bytes)
        .map_err(CliError::Stdin)?;
    Ok(bytes)
}

/// Reads `file` (or stdin when `None` or `-`) as UTF-8 text.
pub(crate) fn read_text(file: Option<&Path>) -> Result<Input, CliError> {
    let (name, bytes) = match file {
        Some(path) if !is_stdin(Some(path)) => {
            check_file(path)?;
            let bytes = std::fs::read(path).map_err(|source| CliError::Read {
                path: path.to_owned(),
                source,
            })?;
            (path.display().to_string(), bytes)
        }
        _ => ("<stdin>".to_owned(), read_stdin()?),
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Input { name, text }),
        Err(err) => Err(CliError::Decode {
            source: flexmd_core::Error::invalid_utf8(err.as_bytes(), &err.utf8_error()),
            name,
        }),
    }
}

impl Input {
    /// Each JSON repair as a warning on stderr, with its place in the input.
    pub(crate) fn report_repairs<'r>(
        &self,
        repairs: impl Iterator<Item = &'r flexmd_detect::Repair>,
    ) {
        let index = flexmd_core::LineIndex::new(&self.text);
        let notes: Vec<flexmd_core::Diagnostic> = repairs
            .map(|r| {
                flexmd_core::Diagnostic::new(
                    format!("detect::{}", r.kind.name()),
                    flexmd_core::Severity::Warning,
                    r.kind.describe(),
                    r.offset..r.offset,
                    &index,
                )
            })
            .collect();
        self.report(&notes);
    }

    /// Prints `diagnostics` to stderr with source snippets (the first
    /// [`MAX_PRINTED`], then how many more); returns whether any is an
    /// error. The source is shared and each snippet is a window around its
    /// span, so the cost does not grow with diagnostics × input size.
    pub(crate) fn report(&self, diagnostics: &[flexmd_core::Diagnostic]) -> bool {
        if !diagnostics.is_empty() {
            let source = crate::snippet::Snippets::new(&self.name, &self.text);
            for diagnostic in diagnostics.iter().take(MAX_PRINTED) {
                let report =
                    miette::Report::new(diagnostic.clone()).with_source_code(source.clone());
                eprintln!("{report:?}");
            }
            if let Some(more) = diagnostics
                .len()
                .checked_sub(MAX_PRINTED)
                .filter(|&m| m > 0)
            {
                let errors = diagnostics
                    .iter()
                    .skip(MAX_PRINTED)
                    .filter(|d| d.severity == flexmd_core::Severity::Error)
                    .count();
                eprintln!(
                    "{}: … and {more} more diagnostics ({errors} of them errors), not shown",
                    self.name
                );
            }
        }
        diagnostics
            .iter()
            .any(|d| d.severity == flexmd_core::Severity::Error)
    }

    /// Prints a lenient parse's value as JSON and its diagnostics on stderr;
    /// exit 1 when any diagnostic is an error (the input was read but is invalid).
    pub(crate) fn print_parsed<T: serde::Serialize>(
        &self,
        parsed: &flexmd_core::Parsed<T>,
    ) -> Result<std::process::ExitCode, CliError> {
        crate::print_json(&parsed.value)?;
        Ok(if self.report(&parsed.diagnostics) {
            std::process::ExitCode::from(1)
        } else {
            std::process::ExitCode::SUCCESS
        })
    }

    /// Reads the input as JSON of type `T`, or says where it is not.
    pub(crate) fn json<T: serde::de::DeserializeOwned>(&self) -> Result<T, CliError> {
        serde_json::from_str(&self.text).map_err(|e| {
            let index = flexmd_core::LineIndex::new(&self.text);
            let offset = offset_of(&self.text, e.line(), e.column());
            let (line, column) = index.line_col(offset);
            CliError::InvalidJson(Box::new(InvalidJson {
                name: self.name.clone(),
                reason: e.to_string(),
                line,
                column,
                src: crate::snippet::Snippets::new(&self.name, &self.text),
                span: (offset, 0).into(),
            }))
        })
    }
}

/// A file to map, and the temporary file that holds standard input when
/// that was the input (removed when this is dropped).
pub(crate) struct MappedInput {
    /// The path to open.
    pub(crate) path: PathBuf,
    /// The name results and diagnostics use: the path as given, or `-`.
    pub(crate) name: String,
    _spool: Option<tempfile::TempPath>,
}

/// `file` checked, or standard input copied to a temporary file (the
/// artifact readers map files: a pipe cannot be mapped).
pub(crate) fn mapped_input(file: &Path) -> Result<MappedInput, CliError> {
    let spool_error = |source| CliError::Read {
        path: std::env::temp_dir(),
        source,
    };
    if !is_stdin(Some(file)) {
        // A pipe given by path (`<(cmd)`) is spooled as standard input is;
        // other files that are not regular are refused by the reader.
        if !is_pipe(file) {
            // Opening a device could block: only files, directories and
            // missing paths are checked here (with their own messages).
            if std::fs::metadata(file).map_or(true, |m| m.is_file() || m.is_dir()) {
                check_file(file)?;
            }
            return Ok(MappedInput {
                path: file.to_owned(),
                name: file.display().to_string(),
                _spool: None,
            });
        }
        let read_error = |source| CliError::Read {
            path: file.to_owned(),
            source,
        };
        let mut pipe = std::fs::File::open(file).map_err(read_error)?;
        let mut spool = tempfile::NamedTempFile::new().map_err(spool_error)?;
        std::io::copy(&mut pipe, &mut spool).map_err(read_error)?;
        let spool = spool.into_temp_path();
        return Ok(MappedInput {
            path: spool.to_path_buf(),
            name: file.display().to_string(),
            _spool: Some(spool),
        });
    }
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprintln!("flexmd: reading standard input (end it with Ctrl-D; --help for usage)");
    }
    let mut spool = tempfile::NamedTempFile::new().map_err(spool_error)?;
    std::io::copy(&mut stdin.lock(), &mut spool).map_err(CliError::Stdin)?;
    let spool = spool.into_temp_path();
    Ok(MappedInput {
        path: spool.to_path_buf(),
        name: "-".to_owned(),
        _spool: Some(spool),
    })
}

/// Whether `path` is a pipe (a FIFO, or `<(cmd)`'s `/dev/fd/N`).
fn is_pipe(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo())
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// What one input gave: its result as JSON text, laid out as the output
/// flags say (if it has one), and the exit code. Text, not a JSON tree: a
/// tree of a big result costs ten times its text.
pub(crate) struct Judged {
    pub(crate) result: Option<crate::output::Rendered>,
    pub(crate) code: u8,
}

/// Runs `each` on every file of `files` (standard input when there is
/// none), in order. One input: its result is printed as is. Several: an
/// array of `{"file", "result"}` (`result` null when the file gave none;
/// nothing is printed when no file gave one), or `{"file", "error"}` for a
/// file that could not be read, whose diagnostic goes to stderr and whose
/// exit code is 2, while the other files are still read. The exit code is
/// the worst.
pub(crate) fn each_input(
    files: &[PathBuf],
    mut each: impl FnMut(&Input) -> Result<Judged, CliError>,
) -> Result<ExitCode, CliError> {
    if files.len() <= 1 {
        let input = read_text(files.first().map(PathBuf::as_path))?;
        let judged = each(&input)?;
        if let Some(result) = &judged.result {
            result.print()?;
        }
        return Ok(ExitCode::from(judged.code));
    }
    let mut entries = Vec::new();
    let mut any_result = false;
    let mut worst = 0u8;
    for file in files {
        let label = Value::String(file.display().to_string());
        match read_text(Some(file)).and_then(|input| each(&input)) {
            Ok(judged) => {
                worst = worst.max(judged.code);
                any_result |= judged.result.is_some();
                let result = match judged.result {
                    Some(result) => result.text()?,
                    None => "null".to_owned(),
                };
                entries.push(("result", label, result));
            }
            Err(CliError::Stdout(e)) => return Err(CliError::Stdout(e)),
            Err(err) => {
                worst = worst.max(2);
                let message = Value::String(err.to_string());
                eprintln!("{:?}", miette::Report::new(err));
                entries.push(("error", label, message.to_string()));
            }
        }
    }
    if any_result {
        crate::output::print(&crate::output::labelled_array(&entries))?;
    }
    Ok(ExitCode::from(worst))
}

/// The byte offset of a 1-based line and column (in characters); the start
/// of the text when either is unknown, the end of a line for a column past it.
pub(crate) fn offset_at(text: &str, line: Option<usize>, column: Option<usize>) -> usize {
    let (Some(line), Some(column)) = (line, column) else {
        return 0;
    };
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let rest = text.get(line_start..).unwrap_or_default();
    let within = rest
        .char_indices()
        .take_while(|(_, c)| *c != '\n')
        .nth(column.saturating_sub(1))
        .map_or_else(|| rest.find('\n').unwrap_or(rest.len()), |(i, _)| i);
    line_start + within
}

/// Byte offset of serde_json's 1-based line and column (a column counts bytes).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (line_start + column.saturating_sub(1)).min(text.len())
}
