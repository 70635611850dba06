//! The JSON Schema Test Suite (required tests of draft 2020-12 and draft 7)
//! through `flexmd_schema::Registry::validate_schema`, with the suite's
//! remotes preloaded (`http://localhost:1234/...`); nothing is fetched.
//! Each test's data is judged twice: as a value, and as JSON text through
//! `Registry::is_valid_json` (which reads the text without building a value
//! when the schema allows): both verdicts must be the suite's.

use std::path::{Path, PathBuf};

use flexmd_schema::Registry;
use serde_json::Value;

use crate::commonmark::Report;

/// Tests whose result differs from the suite's, as `draft/file: case: test`,
/// with the reason.
const EXPECTED_DIFFERENCES: &[(&str, &str)] = &[];

const DRAFTS: [(&str, &str); 2] = [
    (
        "draft2020-12",
        "https://json-schema.org/draft/2020-12/schema",
    ),
    ("draft7", "http://json-schema.org/draft-07/schema#"),
];

pub(crate) fn run(dir: &Path) -> Result<Report, String> {
    let mut registry = Registry::empty();
    let remotes = dir.join("remotes");
    let mut files = Vec::new();
    collect(&remotes, &mut files)?;
    for file in &files {
        let relative = file
            .strip_prefix(&remotes)
            .map_err(|e| e.to_string())?
            .to_string_lossy()
            .replace('\\', "/");
        let schema = read_json(file)?;
        registry.add_resource(&format!("http://localhost:1234/{relative}"), schema);
    }
    let mut report = Report {
        passed: 0,
        failed: 0,
    };
    for (draft, meta) in DRAFTS {
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir.join("tests").join(draft))
            .map_err(|e| format!("cannot read the {draft} tests: {e}"))?
        {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
        files.sort();
        for file in files {
            let name = format!(
                "{draft}/{}",
                file.file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default()
            );
            let Value::Array(cases) = read_json(&file)? else {
                return Err(format!("{name}: not a list of cases"));
            };
            for case in &cases {
                let mut schema = case.get("schema").cloned().unwrap_or(Value::Bool(true));
                // The draft folder is the draft: say so where the schema does not.
                if let Value::Object(map) = &mut schema
                    && !map.contains_key("$schema")
                {
                    map.insert("$schema".to_owned(), Value::String(meta.to_owned()));
                }
                let case_name = case
                    .get("description")
                    .and_then(Value::as_str)
                    .unwrap_or("?");
                // The same schema by name, for the verdict from text.
                let mut named = registry.clone();
                let registered = named.register("case", schema.clone()).is_ok();
                let tests = case
                    .get("tests")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                for test in &tests {
                    let test_name = test
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or("?");
                    let id = format!("{name}: {case_name}: {test_name}");
                    let data = test.get("data").cloned().unwrap_or(Value::Null);
                    let expected = test.get("valid").and_then(Value::as_bool).unwrap_or(false);
                    let got = registry
                        .validate_schema(&schema, &data)
                        .map(|outcome| outcome.valid);
                    let from_text = registered
                        .then(|| named.is_valid_json("case", &data.to_string()))
                        .transpose()
                        .map_err(|e| e.to_string());
                    let matches = got.as_ref().is_ok_and(|valid| *valid == expected)
                        && from_text
                            .as_ref()
                            .is_ok_and(|valid| valid.is_none_or(|v| v == expected));
                    let excused = EXPECTED_DIFFERENCES.iter().any(|(n, _)| *n == id);
                    if matches != excused {
                        report.passed += 1;
                    } else {
                        report.failed += 1;
                        eprintln!(
                            "json-schema-test-suite: {id}: expected valid={expected}, got {got:?} (from text: {from_text:?})"
                        );
                    }
                }
            }
        }
    }
    Ok(report)
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    for entry in
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?
    {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            collect(&path, files)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            files.push(path);
        }
    }
    Ok(())
}
