//! The JSONPath Compliance Test Suite (RFC 9535) through
//! `flexmd_artifact::SpooledJsonArtifact::json_get`: each document is a json
//! artifact, each selector a `json_get`; invalid selectors must be rejected.

use std::path::Path;

use flexmd_artifact::{JsonFormat, MemoryReader, SpooledJsonArtifact};
use serde_json::Value;

use crate::commonmark::Report;

/// Tests whose result differs from the suite's, by name, with the reason.
const EXPECTED_DIFFERENCES: &[(&str, &str)] = &[];

pub(crate) fn run(file: &Path) -> Result<Report, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let suite: Value =
        serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", file.display()))?;
    let tests = suite
        .get("tests")
        .and_then(Value::as_array)
        .ok_or("cts.json has no `tests` list")?;
    let mut report = Report {
        passed: 0,
        failed: 0,
    };
    for test in tests {
        let name = test.get("name").and_then(Value::as_str).unwrap_or("?");
        let selector = test.get("selector").and_then(Value::as_str).unwrap_or("");
        let document = test.get("document").cloned().unwrap_or(Value::Null);
        let artifact = SpooledJsonArtifact::new(
            MemoryReader::new(document.to_string()),
            Some(JsonFormat::Json),
        )
        .map_err(|e| e.to_string())?;
        let got = artifact.json_get(selector);
        let ok = if test.get("invalid_selector").and_then(Value::as_bool) == Some(true) {
            got.is_err()
        } else if let Some(expected) = test.get("result") {
            got.as_ref()
                .is_ok_and(|g| Value::Array(g.clone()) == *expected)
        } else if let Some(alternatives) = test.get("results").and_then(Value::as_array) {
            got.as_ref()
                .is_ok_and(|g| alternatives.contains(&Value::Array(g.clone())))
        } else {
            false
        };
        let excused = EXPECTED_DIFFERENCES.iter().any(|(n, _)| *n == name);
        if ok != excused {
            report.passed += 1;
        } else {
            report.failed += 1;
            eprintln!("jsonpath-cts: {name}: `{selector}` gave {got:?}");
        }
    }
    Ok(report)
}
