//! Numbered regressions found by fuzzing (see docs/reliability.md); each
//! input failed before its fix.

#![allow(clippy::indexing_slicing)]

/// 1. An unclosed `flexmd` fence whose info line ends in a lone CR: the
///    fence's content has its line breaks normalised, so a diagnostic of
///    the FlexMD parse was relocated past the end of the text (fuzz target
///    `detect_objects`). Relocated diagnostics stay inside their object.
#[test]
fn r001_diagnostics_of_a_fence_stay_inside_the_text() {
    let text =
        "# Report\n## S;ort answer\nYes.\n```flexmd\rswer\n### BackgiaC@tags: ].:s\n[[Som]<tp- b\r";
    let parsed = flexmd_detect::parse_any(text);
    assert!(
        !parsed.diagnostics.is_empty(),
        "the unclosed header is reported"
    );
    for d in &parsed.diagnostics {
        assert!(
            d.span.start <= d.span.end && d.span.end <= text.len(),
            "{d:?} points past the {} bytes of the text",
            text.len()
        );
    }
}

/// 2. Two records on lines of their own, the second cut off: the whole
///    text read as JSON Lines gave `[{…}, {}]`, while `find_all_json` (which
///    reads the prose value by value) listed the first record alone (fuzz
///    target `find_json`). JSON Lines are now read record by record in both.
#[test]
fn r002_json_lines_records_are_the_ones_find_all_json_lists() {
    let text = "{\"meta:\" \"infer\"# Title\rline on\"$ref\"}\n\n  {\n    \"kin";
    let all = flexmd_detect::find_all_json(text);
    let mut best = flexmd_detect::find_json(text).unwrap();
    best.pick = None;
    assert!(all.contains(&best), "{best:?} is not among {all:?}");
    assert_eq!(
        best.value,
        serde_json::json!({"meta": " \"infer\"# Title\rline on\"$ref"})
    );
}

/// 3. A whole answer that is a template, cut off: find_json skipped the
///    template and took its last resort, an empty object cut inside the
///    template, which find_all_json (listing the template) did not have
///    (fuzz target `find_json`). No empty object inside a template is taken.
#[test]
fn r003_no_empty_object_is_taken_from_inside_a_template() {
    let text = "{\"meta\": {\"schema\": {\"^o[unT\": \"integer\", \"zip\": \"integer\", \"r(.|))\": \"number\", \"chema\": {ar";
    assert_eq!(flexmd_detect::find_json(text), None);
    let all = flexmd_detect::find_all_json(text);
    assert_eq!(all.len(), 1);
    assert!(all[0].template);
}
