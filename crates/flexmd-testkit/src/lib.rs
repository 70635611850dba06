//! Test support for the flexmd crates (a dev-dependency, never shipped).
//!
//! [`check_fixtures`] is the one data-driven check: every input file in a
//! folder sits beside the expected output, and `FLEXMD_BLESS=1` rewrites the
//! expected files after a deliberate change (review the diff, then commit).

#![allow(
    clippy::panic,
    reason = "a test helper: a failed expectation is a panic, reported by the test harness"
)]

use std::path::{Path, PathBuf};

/// Runs `render` on every `*.md` file of `dir` (skipping names that end in
/// one of `skip_suffixes`, such as `.spec.md`) and compares its output with
/// the `.json` file beside it; with `FLEXMD_BLESS` set, writes it instead.
/// Returns the cases checked, in name order. Panics with a readable diff on
/// the first mismatch, naming both files.
pub fn check_fixtures(
    dir: &Path,
    skip_suffixes: &[&str],
    render: impl FnMut(&Path, &str) -> String,
) -> Vec<PathBuf> {
    let cases: Vec<PathBuf> = list(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .filter(|p| {
            let name = p.to_string_lossy();
            !skip_suffixes.iter().any(|s| name.ends_with(s))
        })
        .collect();
    check_each(&cases, |case| case.with_extension("json"), render);
    cases
}

/// Runs `render` on every file of `dir` whose name ends in `input_suffix`
/// (such as `.schema.json`) and compares its output with the file of the
/// same stem ending in `expected_suffix` (such as `.exports.json`); with
/// `FLEXMD_BLESS` set, writes it instead. Returns the cases checked, in
/// name order.
pub fn check_fixture_files(
    dir: &Path,
    input_suffix: &str,
    expected_suffix: &str,
    render: impl FnMut(&Path, &str) -> String,
) -> Vec<PathBuf> {
    let cases: Vec<PathBuf> = list(dir)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(input_suffix))
        .collect();
    let expected = |case: &Path| {
        let name = case.to_string_lossy();
        PathBuf::from(format!(
            "{}{expected_suffix}",
            name.strip_suffix(input_suffix).unwrap_or(&name)
        ))
    };
    check_each(&cases, expected, render);
    cases
}

/// The files of `dir`, in name order.
fn list(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read fixtures in {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    files.sort();
    files
}

fn check_each(
    cases: &[PathBuf],
    expected_for: impl Fn(&Path) -> PathBuf,
    mut render: impl FnMut(&Path, &str) -> String,
) {
    let bless = std::env::var_os("FLEXMD_BLESS").is_some();
    for case in cases {
        let input = std::fs::read_to_string(case)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", case.display()));
        let got = render(case, &input);
        let expected_path = expected_for(case);
        if bless {
            std::fs::write(&expected_path, &got)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", expected_path.display()));
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|_| {
            panic!(
                "missing {}: run the tests with FLEXMD_BLESS=1 and review it",
                expected_path.display()
            )
        });
        pretty_assertions::assert_eq!(
            got,
            expected,
            "{} should give {}",
            case.display(),
            expected_path.display()
        );
    }
}

/// JSON equality as the JSON-finding scorers compare answers: numbers by
/// value (`1` = `1.0`), key order ignored, `true` is not `1`.
///
/// ```
/// use serde_json::json;
/// assert!(flexmd_testkit::same_json(&json!({"a": 1, "b": [2.0]}), &json!({"b": [2], "a": 1.0})));
/// assert!(!flexmd_testkit::same_json(&json!(true), &json!(1)));
/// ```
pub fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}
