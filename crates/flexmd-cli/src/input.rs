//! Reading a command's input: a file, or standard input for none or `-`.

use std::io::Read;
use std::path::Path;

use crate::error::CliError;

/// A command's input text.
pub(crate) struct Input {
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
        Ok(text) => Ok(Input { text }),
        Err(err) => Err(CliError::Decode {
            source: flexmd_core::Error::invalid_utf8(err.as_bytes(), &err.utf8_error()),
            name,
        }),
    }
}
