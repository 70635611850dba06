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
    mut render: impl FnMut(&Path, &str) -> String,
) -> Vec<PathBuf> {
    let bless = std::env::var_os("FLEXMD_BLESS").is_some();
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read fixtures in {}: {e}", dir.display()));
    let mut cases: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .filter(|p| {
            let name = p.to_string_lossy();
            !skip_suffixes.iter().any(|s| name.ends_with(s))
        })
        .collect();
    cases.sort();
    for case in &cases {
        let input = std::fs::read_to_string(case)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", case.display()));
        let got = render(case, &input);
        let expected_path = case.with_extension("json");
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
    cases
}
