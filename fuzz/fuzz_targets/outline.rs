//! The outline, lists and tables of any text: never a panic, and the
//! piecewise reader (`read_markdown`) gives exactly the parts of one parse
//! of the whole text (`read_markdown_in_one_parse`), spans included.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let outline = flexmd_core::build_outline(text);
    let _ = flexmd_core::render_outline(&outline);
    let pieces = flexmd_core::read_markdown(text);
    let whole = flexmd_core::read_markdown_in_one_parse(text);
    assert_eq!(format!("{pieces:?}"), format!("{whole:?}"));
});
