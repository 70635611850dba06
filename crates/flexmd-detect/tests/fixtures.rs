//! Realistic model outputs: every JSON value found, with spans and repairs.
//!
//! Each `tests/fixtures/json/*.md` sits beside a `.json` holding `best` (the
//! index in `found` of what `find_json` returns, `{"json_lines": [indices]}`
//! when it returns the records of JSON Lines as one array, or null) and
//! `found` (what
//! `find_all_json` returns, with the text each span covers). Re-bless with
//! `FLEXMD_BLESS=1 cargo test -p flexmd-detect --test fixtures` and review.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::path::Path;

use flexmd_detect::{RepairKind, find_all_json, find_json};
use serde_json::{Value, json};

fn render(text: &str) -> String {
    let all = find_all_json(text);
    let best = find_json(text).map(|mut b| {
        b.pick = None;
        b.repairs.retain(|r| r.kind != RepairKind::PartOfValue);
        if b.repairs.iter().any(|r| r.kind == RepairKind::JsonLines) {
            // JSON Lines: find_all_json lists each record.
            let records: Vec<usize> = (0..all.len())
                .filter(|&i| b.start <= all[i].start && all[i].end <= b.end)
                .collect();
            assert_eq!(
                Value::Array(records.iter().map(|&i| all[i].value.clone()).collect()),
                b.value
            );
            return json!({"json_lines": records});
        }
        json!(
            all.iter()
                .position(|f| *f == b)
                .unwrap_or_else(|| panic!("find_json found {b:?}, which find_all_json did not"))
        )
    });
    let found: Vec<Value> = all
        .iter()
        .map(|f| {
            let mut v = serde_json::to_value(f).unwrap();
            v["text"] = json!(&text[f.start..f.end]);
            v
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&json!({"best": best, "found": found})).unwrap();
    out.push('\n');
    out
}

#[test]
fn json_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/json");
    let cases = flexmd_testkit::check_fixtures(&dir, &[], |_, text| render(text));
    assert!(cases.len() >= 40, "the corpus has {} cases", cases.len());
}
