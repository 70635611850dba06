//! The JSON finder on any text: never a panic; found values are sorted,
//! within the text, on character boundaries, and `find_json`'s value is one
//! of `find_all_json`'s (the records of JSON Lines, one by one), never a
//! template.

#![no_main]

use flexmd_detect::RepairKind;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let all = flexmd_detect::find_all_json(text);
    let mut at = 0;
    for f in &all {
        assert!(f.start >= at && f.start <= f.end && f.end <= text.len());
        assert!(text.is_char_boundary(f.start) && text.is_char_boundary(f.end));
        assert!(f.repairs.iter().all(|r| r.offset <= text.len()));
        at = f.end;
    }
    if let Some(mut best) = flexmd_detect::find_json(text) {
        best.pick = None;
        // Which part of a value was read is find_json's own note.
        best.repairs.retain(|r| r.kind != RepairKind::PartOfValue);
        if best.repairs.iter().any(|r| r.kind == RepairKind::JsonLines) && !all.contains(&best) {
            // JSON Lines: find_all_json lists each record.
            let records: Vec<serde_json::Value> = all
                .iter()
                .filter(|f| best.start <= f.start && f.end <= best.end)
                .map(|f| f.value.clone())
                .collect();
            assert_eq!(serde_json::Value::Array(records), best.value, "JSON Lines records");
        } else {
            assert!(all.contains(&best), "find_json gave a value find_all_json did not");
        }
        assert!(!best.template, "find_json gave a template");
    }
    let _ = flexmd_detect::parse_json(text, flexmd_detect::Leniency::Repair);
    let _ = flexmd_detect::parse_any(text);
});
