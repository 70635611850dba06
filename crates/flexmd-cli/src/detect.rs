//! `flexmd detect`, `flexmd parse-any`, `flexmd json`.

use std::path::Path;
use std::process::ExitCode;

use flexmd_core::{Diagnostic, LineIndex, Severity};
use flexmd_detect::{
    FoundJson, Leniency, detect_objects, find_all_json, find_json, parse_any, parse_json,
};

use crate::error::CliError;
use crate::input::read_text;
use crate::print_json;

/// `flexmd detect`: the objects found, as JSON; exit 1 when there are none.
pub(crate) fn detect(file: Option<&Path>) -> Result<ExitCode, CliError> {
    let input = read_text(file)?;
    let objects = detect_objects(&input.text);
    print_json(&objects)?;
    Ok(found_code(!objects.is_empty()))
}

/// `flexmd parse-any`: ParseAnyResult JSON; FlexMD diagnostics on stderr.
pub(crate) fn parse_any_command(file: Option<&Path>) -> Result<ExitCode, CliError> {
    let input = read_text(file)?;
    input.print_parsed(&parse_any(&input.text))
}

/// `flexmd json`: the value (or values) found; the repairs on stderr, or
/// with `--repairs` in the output. Exit 1 when nothing is found.
pub(crate) fn json(file: Option<&Path>, all: bool, repairs: bool) -> Result<ExitCode, CliError> {
    let input = read_text(file)?;
    let found: Vec<FoundJson> = if all {
        find_all_json(&input.text)
    } else {
        find_json(&input.text).into_iter().collect()
    };
    if found.is_empty() {
        explain_nothing_found(&input);
        return Ok(found_code(false));
    }
    match (all, repairs) {
        (true, true) => print_json(&found)?,
        (false, true) => print_json(&found.first())?,
        (true, false) => print_json(&found.iter().map(|f| &f.value).collect::<Vec<_>>())?,
        (false, false) => print_json(&found.first().map(|f| &f.value))?,
    }
    if !repairs {
        report_repairs(&input, found.iter().flat_map(|f| &f.repairs));
    }
    Ok(ExitCode::SUCCESS)
}

/// Each JSON repair as a warning on stderr, with its place in the input.
pub(crate) fn report_repairs<'r>(
    input: &crate::input::Input,
    repairs: impl Iterator<Item = &'r flexmd_detect::Repair>,
) {
    let index = LineIndex::new(&input.text);
    let notes: Vec<Diagnostic> = repairs
        .map(|r| {
            Diagnostic::new(
                format!("detect::{}", r.kind.name()),
                Severity::Warning,
                r.kind.describe(),
                r.offset..r.offset,
                &index,
            )
        })
        .collect();
    input.report(&notes);
}

fn found_code(found: bool) -> ExitCode {
    if found {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Says that nothing was found; when the whole input looks like one JSON
/// value, also why it could not be read.
fn explain_nothing_found(input: &crate::input::Input) {
    let trimmed = input.text.trim_start();
    if trimmed.starts_with(['{', '['])
        && let Err(e) = parse_json(trimmed, Leniency::Repair)
    {
        let lead = input.text.len() - trimmed.len();
        let offset = lead + e.offset();
        let index = LineIndex::new(&input.text);
        let diagnostic = Diagnostic::new(
            "detect::not_json",
            Severity::Error,
            format!("no JSON value found: the input is not JSON ({e})"),
            offset..offset,
            &index,
        );
        input.report(&[diagnostic]);
    } else {
        eprintln!("no JSON value found in {}", input.name);
    }
}
