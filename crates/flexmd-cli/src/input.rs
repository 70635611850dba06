//! Reading a command's input: a file, or standard input for none or `-`.

use std::io::Read;
use std::path::Path;

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

/// Reads `file` (or stdin when `None` or `-`) as UTF-8 text.
pub(crate) fn read_text(file: Option<&Path>) -> Result<Input, CliError> {
    let (name, bytes) = match file {
        Some(path) if path != Path::new("-") => {
            let bytes = std::fs::read(path).map_err(|source| CliError::Read {
                path: path.to_owned(),
                source,
            })?;
            (path.display().to_string(), bytes)
        }
        _ => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map_err(CliError::Stdin)?;
            ("<stdin>".to_owned(), bytes)
        }
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
                eprintln!("… and {more} more diagnostics ({errors} of them errors), not shown");
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
                src: miette::NamedSource::new(&self.name, self.text.clone()),
                span: (offset, 0).into(),
            }))
        })
    }
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
