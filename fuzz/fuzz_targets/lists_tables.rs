//! Lists and tables from any Markdown: never a panic; every table row has
//! at least the header's width (short rows are padded); an ordered list's
//! items carry the numbers as written, a bullet list's none.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Some(list) = flexmd_core::parse_list(text) {
        for item in &list.items {
            assert_eq!(item.index.is_some(), list.ordered, "{item:?} in {list:?}");
        }
    }
    for table in flexmd_core::parse_tables(text) {
        for row in &table.rows {
            assert!(row.len() >= table.columns.len(), "a short row is padded");
        }
    }
});
