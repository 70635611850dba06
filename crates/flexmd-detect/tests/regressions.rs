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
