//! An answer against a fixed spec, and any text as a spec: never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let spec = flexmd_ofs::parse_spec(
        "- Short answer — prose\n- Steps — ordered list\n- Risks — list\nTables:\n- | Name | Score |\n",
    )
    .value;
    let report = flexmd_ofs::validate(text, &spec);
    let extracted = flexmd_ofs::extract(text, &spec, &flexmd_ofs::ExtractOptions::default());
    let _ = (report, flexmd_ofs::to_json(&extracted, &spec));
    let fuzzed = flexmd_ofs::parse_spec(text).value;
    let _ = flexmd_ofs::render_spec(&fuzzed);
    let _ = flexmd_ofs::validate(text, &fuzzed);
});
