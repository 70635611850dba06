//! The json5-tests suite through flexmd-detect's strict + JSON5 steps.
//!
//! The file extension is the expectation: `.json` and `.json5` must parse
//! (a `.json` to the same value as strict JSON), `.js` and `.txt` must fail.
//! `todo/` holds cases upstream has not settled and is skipped.

use std::path::{Path, PathBuf};

use flexmd_detect::{Leniency, parse_json};

use crate::commonmark::Report;

/// Cases whose result differs from the suite's expectation, with why.
const EXPECTED_DIFFERENCES: &[(&str, &str)] = &[];

pub(crate) fn run(dir: &Path) -> Result<Report, String> {
    let mut files = Vec::new();
    collect(dir, &mut files)?;
    files.sort();
    let mut report = Report {
        passed: 0,
        failed: 0,
    };
    for file in files {
        let name = file
            .strip_prefix(dir)
            .unwrap_or(&file)
            .to_string_lossy()
            .replace('\\', "/");
        if name.starts_with("todo/") {
            continue;
        }
        let Some(ext) = file.extension().and_then(|e| e.to_str()) else {
            continue;
        };
        let must_parse = match ext {
            "json" | "json5" => true,
            "js" | "txt" => false,
            _ => continue,
        };
        let bytes = std::fs::read(&file).map_err(|e| format!("cannot read {name}: {e}"))?;
        let outcome = match String::from_utf8(bytes) {
            Ok(text) => {
                let parsed = parse_json(&text, Leniency::Json5);
                match (&parsed, ext) {
                    (Ok(p), "json") => serde_json::from_str::<serde_json::Value>(&text)
                        .is_ok_and(|strict| strict == p.value),
                    (Ok(_), _) => must_parse,
                    (Err(_), _) => !must_parse,
                }
            }
            // Not UTF-8 is not JSON5.
            Err(_) => !must_parse,
        };
        let expected_difference = EXPECTED_DIFFERENCES.iter().any(|(n, _)| *n == name);
        if outcome != expected_difference {
            report.passed += 1;
        } else {
            report.failed += 1;
            eprintln!(
                "json5-tests: {name}: expected to {}",
                if must_parse { "parse" } else { "fail" }
            );
        }
    }
    Ok(report)
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            collect(&path, files)?;
        } else {
            files.push(path);
        }
    }
    Ok(())
}
