//! Data-driven tests: `fixtures/<case>.md` is parsed (with the options in
//! `<case>.options.json` when present) and compared with `<case>.json`:
//! the document and the diagnostics as `line:column code: message`. Each
//! document must also survive stringify → parse. Run with `FLEXMD_BLESS=1` to
//! rewrite the expected files after a deliberate change, then review the diff.

// Test helpers may panic: a panic here is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::path::Path;

use flexmd_core::{MetaType, MetaTypeMode};
use flexmd_frames::{ParseOptions, StringifyOptions, parse, stringify};
use indexmap::IndexMap;
use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FixtureOptions {
    #[serde(default)]
    meta: Option<Value>,
    #[serde(default)]
    meta_anywhere: bool,
}

fn options(case: &Path) -> ParseOptions {
    let path = case.with_extension("options.json");
    let fixture: FixtureOptions = match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text).unwrap(),
        Err(_) => FixtureOptions::default(),
    };
    let meta_type_mode = match fixture.meta {
        None => MetaTypeMode::Strings,
        Some(Value::String(s)) if s == "infer" => MetaTypeMode::Infer,
        Some(Value::Object(o)) => {
            let types: IndexMap<String, MetaType> =
                serde_json::from_value(o["schema"].clone()).unwrap();
            MetaTypeMode::Schema(types)
        }
        Some(other) => panic!("unknown meta option {other}"),
    };
    ParseOptions {
        meta_type_mode,
        meta_anywhere: fixture.meta_anywhere,
        ..ParseOptions::default()
    }
}

#[test]
fn frames_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let cases = flexmd_testkit::check_fixtures(&dir, &[], |case, text| {
        let opts = options(case);
        let parsed = parse(text, &opts);
        let written = stringify(&parsed.value, &StringifyOptions::default());
        assert_eq!(
            parse(&written, &opts).value,
            parsed.value,
            "{} should survive stringify -> parse:\n{written}",
            case.display()
        );
        let diagnostics: Vec<String> = parsed
            .diagnostics
            .iter()
            .map(|d| format!("{}:{} {}: {}", d.line, d.column, d.code, d.message))
            .collect();
        serde_json::to_string_pretty(&json!({
            "document": parsed.value,
            "diagnostics": diagnostics,
        }))
        .unwrap()
            + "\n"
    });
    assert!(cases.len() >= 15, "fixtures missing in {}", dir.display());
}
