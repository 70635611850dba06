//! Objects in any text: never a panic; sorted, not overlapping, on
//! character boundaries, each `raw` the text it spans, confidences in 0..=1.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let mut at = 0;
    for object in flexmd_detect::detect_objects(text) {
        assert!(object.start >= at && object.start <= object.end && object.end <= text.len());
        assert!(text.is_char_boundary(object.start) && text.is_char_boundary(object.end));
        assert_eq!(text.get(object.start..object.end), Some(object.raw.as_str()));
        assert!((0.0..=1.0).contains(&object.confidence));
        at = object.end;
    }
    let parsed = flexmd_detect::parse_any(text);
    assert!(parsed.value.remainder.len() <= text.len());
    for d in &parsed.diagnostics {
        assert!(d.span.end <= text.len(), "a diagnostic points past the text");
    }
});
