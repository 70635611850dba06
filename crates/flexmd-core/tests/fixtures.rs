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

use serde::Serialize;

fn check_dir<T: Serialize>(dir: &str, build: impl Fn(&str) -> T) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(dir);
    let cases = flexmd_testkit::check_fixtures(&dir, &[], |_, md| {
        serde_json::to_string_pretty(&build(md)).unwrap() + "\n"
    });
    assert!(!cases.is_empty(), "no fixtures in {}", dir.display());
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
