//! Fuzzed specs: the text up to the first NUL is the spec, the rest the
//! answer. Reading a spec never panics; a spec that reads is a fixed point
//! of render → parse (the documented round trip); checking any answer
//! against it never panics and its report agrees with `validate`.

#![no_main]

use flexmd_ofs::{ExtractOptions, check, parse_spec, read_spec, render_spec, to_json, validate};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let (spec_text, answer) = text.split_once('\0').unwrap_or((text, ""));
    let Ok(spec) = read_spec(spec_text) else {
        return;
    };
    let spec = spec.value;
    let rendered = render_spec(&spec);
    let again = parse_spec(&rendered).value;
    assert_eq!(again, spec, "render_spec then parse_spec changed the spec:\n{rendered}");
    let (report, extracted) = check(answer, &spec, &ExtractOptions::default());
    assert_eq!(report, validate(answer, &spec), "check and validate disagree");
    let json = to_json(&extracted, &spec);
    assert!(json.is_object());
    let _ = flexmd_ofs::prompt(&spec);
    let _ = flexmd_ofs::json_schema(&spec);
});
