//! Lists and tables from any Markdown: never a panic; every table row has
//! at least the header's width (short rows are padded); a numbered item's
//! `index` is the number written at the start of its span.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Some(list) = flexmd_core::parse_list(text) {
        let mut items: Vec<&flexmd_core::ListItem> = list.items.iter().collect();
        while let Some(item) = items.pop() {
            if let (Some(index), Some(span)) = (item.index, &item.span) {
                let written: String = text
                    .get(span.start..)
                    .unwrap_or_default()
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                assert_eq!(written.parse::<u64>().ok(), Some(index), "{item:?}");
            }
            items.extend(&item.children);
        }
    }
    for table in flexmd_core::parse_tables(text) {
        for row in &table.rows {
            assert!(row.len() >= table.columns.len(), "a short row is padded");
        }
    }
});
