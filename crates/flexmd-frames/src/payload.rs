//! Payload values: what a bound fence's content becomes.

use flexmd_core::{
    FlexPayload, MAX_JSON_VALUES, json_nesting_exceeds, json_values_exceed, parse_tables,
};
use serde_json::Value;

/// serde_json's own recursion limit; json5 has none, so deeper input is
/// refused before it reaches json5 (it would overflow the stack).
const MAX_JSON5_DEPTH: usize = 128;

/// Builds the payload for a fence with language `lang` and content `raw`:
///
/// - `json`: parsed JSON; on failure `value` is `null` and `parseError` says
///   why and where (line and column within the payload);
/// - `json5`: the same through JSON5 (comments, trailing commas, single quotes);
/// - `table`: the first pipe table, as a `ParsedTable` object;
/// - anything else: the content as a string.
pub(crate) fn payload(lang: Option<&str>, raw: &str) -> FlexPayload {
    let lang_lower = lang.map(str::to_ascii_lowercase);
    let json_like = matches!(lang_lower.as_deref(), Some("json" | "json5"));
    let too_large = json_like
        .then(|| json_values_exceed(raw, MAX_JSON_VALUES))
        .flatten();
    let (value, parse_error) = match lang_lower.as_deref() {
        _ if let Some(at) = too_large => (
            Value::Null,
            Some(format!(
                "the payload holds more than {MAX_JSON_VALUES} values (past byte {at}): so large a tree is not built"
            )),
        ),
        Some("json") => match serde_json::from_str::<Value>(raw) {
            Ok(v) => (v, None),
            Err(e) => (Value::Null, Some(e.to_string())),
        },
        Some("json5") => parse_json5(raw),
        Some("table") => match parse_tables(raw).into_iter().next() {
            Some(table) => match serde_json::to_value(&table) {
                Ok(v) => (v, None),
                Err(e) => (Value::Null, Some(e.to_string())),
            },
            None => (
                Value::Null,
                Some("no pipe table (a header row and a `|---|` row) in this payload".to_owned()),
            ),
        },
        _ => (Value::String(raw.to_owned()), None),
    };
    FlexPayload {
        lang: lang.map(str::to_owned),
        raw: raw.to_owned(),
        value,
        parse_error,
    }
}

fn parse_json5(raw: &str) -> (Value, Option<String>) {
    if let Some(offset) = json_nesting_exceeds(raw, MAX_JSON5_DEPTH) {
        return (
            Value::Null,
            Some(format!(
                "nesting deeper than {MAX_JSON5_DEPTH} levels at byte {offset}"
            )),
        );
    }
    match json5::from_str::<Value>(raw) {
        Ok(v) => (v, None),
        Err(e) => (Value::Null, Some(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_payload_of_more_values_than_the_bound_is_not_parsed() {
        let raw = format!("[{}1]", "1,".repeat(MAX_JSON_VALUES));
        let p = payload(Some("json"), &raw);
        assert_eq!(p.value, Value::Null);
        assert_eq!(
            p.parse_error.as_deref(),
            Some(
                "the payload holds more than 2000000 values (past byte 3999998): so large a tree is not built"
            )
        );
        assert_eq!(payload(Some("text"), &raw).parse_error, None);
    }

    #[test]
    fn json_ok_and_broken() {
        let p = payload(Some("json"), "{\"a\": [1, 2]}\n");
        assert_eq!(p.value, json!({"a": [1, 2]}));
        assert_eq!(p.parse_error, None);
        let p = payload(Some("json"), "{\"a\": 1,}\n");
        assert_eq!(p.value, Value::Null);
        assert_eq!(
            p.parse_error.as_deref(),
            Some("trailing comma at line 1 column 9")
        );
        assert_eq!(p.raw, "{\"a\": 1,}\n", "raw is always kept");
    }

    #[test]
    fn json5_and_its_depth_guard() {
        let p = payload(Some("json5"), "{a: 1, // c\n b: 'x',}");
        assert_eq!(p.value, json!({"a": 1, "b": "x"}));
        let deep = "[".repeat(100_000);
        let p = payload(Some("json5"), &deep);
        assert_eq!(
            p.parse_error.as_deref(),
            Some("nesting deeper than 128 levels at byte 128")
        );
        // An apostrophe in a comment once hid the brackets after it from the
        // guard, and json5 then overflowed the stack.
        let hidden = format!("// don't\n{deep}");
        let p = payload(Some("json5"), &hidden);
        assert_eq!(
            p.parse_error.as_deref(),
            Some("nesting deeper than 128 levels at byte 137")
        );
    }

    #[test]
    fn table_and_text() {
        let p = payload(Some("table"), "| a | b |\n|---|---|\n| 1 | 2 |\n");
        assert_eq!(
            p.value,
            json!({"kind": "table", "columns": ["a", "b"], "rows": [["1", "2"]]})
        );
        let p = payload(Some("table"), "no table\n");
        assert!(p.parse_error.unwrap().starts_with("no pipe table"));
        let p = payload(None, "plain\n");
        assert_eq!(p.value, json!("plain\n"));
        assert_eq!(p.lang, None);
    }
}
