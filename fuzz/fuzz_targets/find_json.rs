//! The JSON finder on any text: never a panic; found values are sorted,
//! within the text, on character boundaries, and `find_json`'s value is one
//! of `find_all_json`'s.

#![no_main]

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
        assert!(all.contains(&best), "find_json gave a value find_all_json did not");
    }
    let _ = flexmd_detect::parse_json(text, flexmd_detect::Leniency::Repair);
    let _ = flexmd_detect::parse_any(text);
});
