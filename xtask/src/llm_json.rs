//! The llm-json cases (broken and LLM-shaped JSON from five repairers' public
//! test suites) through `flexmd_detect::find_json`.
//!
//! Each case's `input` goes to the finder; the value it returns must equal
//! `expected`, numbers compared by value (`1` = `1.0`), key order ignored.
//! `FLEXMD_LLM_JSON_VERBOSE=1` prints every failing case with what was found.

use std::collections::BTreeMap;
use std::path::Path;

use flexmd_detect::find_json;
use serde_json::Value;

use crate::commonmark::Report;

/// Cases where flexmd deliberately answers differently, by id, with why.
const EXPECTED_DIFFERENCES: &[(&str, &str)] = &[];

pub(crate) fn run(file: &Path) -> Result<Report, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let verbose = std::env::var_os("FLEXMD_LLM_JSON_VERBOSE").is_some();
    let mut report = Report {
        passed: 0,
        failed: 0,
    };
    // category -> (passed, total)
    let mut by_kind: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let case: Value = serde_json::from_str(line)
            .map_err(|e| format!("{}:{}: not JSON: {e}", file.display(), n + 1))?;
        let field = |name: &str| case.get(name).and_then(Value::as_str).unwrap_or_default();
        let (id, kind, input) = (field("id"), field("category"), field("input"));
        let expected = case
            .get("expected")
            .ok_or_else(|| format!("{id}: no `expected`"))?;
        let found = find_json(input);
        let matches = found
            .as_ref()
            .is_some_and(|f| flexmd_testkit::same_json(&f.value, expected));
        let entry = by_kind.entry(kind.to_owned()).or_default();
        entry.1 += 1;
        if matches {
            entry.0 += 1;
        }
        let expected_difference = EXPECTED_DIFFERENCES.iter().any(|(i, _)| *i == id);
        if matches != expected_difference {
            report.passed += 1;
        } else {
            report.failed += 1;
            if matches {
                eprintln!("llm-json: {id}: passes now; take it off EXPECTED_DIFFERENCES");
            } else {
                let got = found.map_or("nothing".to_owned(), |f| f.value.to_string());
                eprintln!("llm-json: {id} ({kind}): found {got}");
                if verbose {
                    eprintln!("    input:    {input:?}\n    expected: {expected}");
                }
            }
        }
    }
    let kinds: Vec<String> = by_kind
        .iter()
        .map(|(kind, (passed, total))| {
            format!("{} {passed}/{total}", kind.trim_start_matches("json/"))
        })
        .collect();
    println!("llm-json by kind: {}", kinds.join(", "));
    Ok(report)
}
