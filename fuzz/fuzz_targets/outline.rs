//! The outline, lists and tables of any text: never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let outline = flexmd_core::build_outline(text);
    let _ = flexmd_core::render_outline(&outline);
    let _ = flexmd_core::read_markdown(text);
});
