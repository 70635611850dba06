//! The streaming extractor on any answer cut anywhere: never a panic, and
//! its end is exactly `check` of the whole answer.

#![no_main]

use libfuzzer_sys::fuzz_target;

/// Chunk sizes from the first byte: 1 to 16 bytes, varying.
fn cuts(seed: u8, text: &str) -> Vec<usize> {
    let mut at = 0;
    let mut out = Vec::new();
    let mut state = u32::from(seed) | 1;
    while at < text.len() {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        at += 1 + (state >> 16) as usize % 16;
        while at < text.len() && !text.is_char_boundary(at) {
            at += 1;
        }
        out.push(at.min(text.len()));
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&seed, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let spec = flexmd_ofs::parse_spec(
        "- Short answer — prose\n- Risks — list\n- Steps — ordered list\nTables:\n- (Option, Cost — table)\n",
    )
    .value;
    let mut stream = flexmd_ofs::StreamingExtractor::new(&spec);
    let mut from = 0;
    for to in cuts(seed, text) {
        let _ = stream.push(&text[from..to]);
        from = to;
    }
    let end = stream.finish();
    let (report, extracted) = flexmd_ofs::check(text, &spec, &flexmd_ofs::ExtractOptions::default());
    assert_eq!(end.report, report);
    assert_eq!(end.extracted, extracted);
});
