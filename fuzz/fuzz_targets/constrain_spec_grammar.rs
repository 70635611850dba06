//! Any text read as an Output Format Spec and written as a grammar in every
//! format, with and without bounds and a `<think>` block: never a panic,
//! never a hang (the bounds are capped); a grammar that succeeds is not
//! empty.

#![no_main]

use flexmd_constrain::{GrammarFormat, SpecGrammarOptions, spec_grammar};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Ok(spec) = flexmd_ofs::read_spec(text) else {
        return;
    };
    let spec = spec.value;
    // Options from the input's length, so the fuzzer reaches each of them.
    let n = u32::try_from(text.len()).unwrap_or(u32::MAX);
    let options = [
        SpecGrammarOptions::default(),
        SpecGrammarOptions {
            heading_level: u8::try_from(n % 8).unwrap_or(2),
            think_lines: Some(n % 50),
            max_items: Some(n % 2000),
            max_rows: Some(n % 7),
        },
    ];
    for format in GrammarFormat::ALL {
        for options in &options {
            if let Ok(grammar) = spec_grammar(&spec, format, options) {
                assert!(!grammar.grammar.is_empty(), "{format}: an empty grammar");
            }
        }
    }
});
