//! Data-driven tests: each `fixtures/<builder>/<case>.md` sits beside the
//! `<case>.json` its builder must produce. Run with `FLEXMD_BLESS=1` to
//! rewrite the expected files after a deliberate change, then review the diff.

// Test helpers may panic: a panic here is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::path::Path;

use pretty_assertions::assert_eq;
use serde::Serialize;

fn check_dir<T: Serialize>(dir: &str, build: impl Fn(&str) -> T) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(dir);
    let bless = std::env::var_os("FLEXMD_BLESS").is_some();
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no fixtures in {}", dir.display());
    for input in cases {
        let md = std::fs::read_to_string(&input).unwrap();
        let got = serde_json::to_string_pretty(&build(&md)).unwrap() + "\n";
        let expected_path = input.with_extension("json");
        if bless {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|_| panic!("missing {}", expected_path.display()));
        assert_eq!(
            got,
            expected,
            "{} should give {}",
            input.display(),
            expected_path.display()
        );
    }
}

#[test]
fn outline_fixtures() {
    check_dir("outline", flexmd_core::build_outline);
}

#[test]
fn list_fixtures() {
    check_dir("list", flexmd_core::parse_list);
}

#[test]
fn table_fixtures() {
    check_dir("table", flexmd_core::parse_tables);
}
